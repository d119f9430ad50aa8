"""`workbench demo`: a tour of the bundled sample corpora from the command line.

Each sample corpus folder may hold a `workbench.toml` naming the model that suits it, parameter
overrides and an example query id:

    model = "bm25"
    example_query = "q03"
    [params]
    k1 = 1.2
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from workbench.core import engine
from workbench.core.engine import Progress
from workbench.core.formats import load_dataset
from workbench.core.models import get_model
from workbench.core.pipeline import Pipeline
from workbench.core.session_file import read_sample_settings
from workbench.textout import display_width, format_table, progress_bar, say, text_width

DEMO_METRICS = ("ndcg@10", "mrr@10", "p@10", "r@10")  # p@10, as eval reports it


def sample_settings(folder: Path, skipped: list[Any] | None = None) -> dict[str, Any]:
    """The folder's workbench.toml, checked (FormatError naming the field), or {}; keys not
    ours in it go to `skipped` (`read_sample_settings`)."""
    return read_sample_settings(folder, skipped)


def run_demo(samples: Path) -> int:
    folders = sorted(p for p in samples.iterdir() if (p / "workbench.toml").exists())
    if not folders:
        print(f"no sample corpora found under {samples}")
        return 1
    print("Scoring Workbench — command-line demo on the bundled sample corpora.")
    print("(`workbench gui` opens the same samples in the desktop window.)\n")
    for folder in folders:
        _demo_one(folder)
    say("Next: `workbench models` lists every model and parameter; "
          "`workbench eval FOLDER --model ID -p name=value` re-scores with your settings.")
    return 0


def _demo_one(folder: Path) -> None:
    settings = sample_settings(folder)
    dataset = load_dataset(folder)
    model = get_model(str(settings.get("model", "bm25")))
    # a bar (or, off a terminal, a line a tenth once it has run a few seconds): the first
    # run embeds the story sample and builds the code sample, half a minute of silence
    with progress_bar(f"{folder.name}: preparing {model.id}") as bar:
        pipe = Pipeline(model, dataset, settings.get("params", {}),
                        progress=Progress(on_progress=bar))
    result = pipe.run(DEMO_METRICS)
    title = f"{folder.name}: {len(dataset.corpus)} documents, {len(dataset.queries)} queries"
    print(title)
    print("=" * len(title))
    print(f"model {model.id} ({model.label}); parameters at their defaults")
    if result.means:
        from workbench.cli.common import mean_text

        print(format_table(["metric", "mean over judged queries"],
                           # as eval prints them: 0.6476, not 0.648
                           [[m, mean_text(m, v)] for m, v in result.means.items()]))
    if not len(dataset.queries):
        print("(no queries to show)\n")
        return
    qid = str(settings.get("example_query", dataset.queries[0].id))
    qi = dataset.queries.index.get(qid, 0)
    query = dataset.queries[qi]
    print(f"\nquery {query.id}: {query.text!r}")
    contrib = engine.contributions_at(result.scores, result.ranking)
    judged = (dataset.qrels or {}).get(query.id, {})
    rows = []
    shown = range(min(5, int(result.ranking.count[qi])))
    # whole scores (decision-memory's) as whole numbers, 65 not 65.0000, as rank prints them
    whole = all(float(result.ranking.scores[qi, j]).is_integer() for j in shown)
    for j in shown:
        doc = dataset.corpus[int(result.ranking.docs[qi, j])]
        parts = " + ".join(f"{s}\u00a0{_number(contrib[i, qi, j], whole)}"  # kept on one line
                           for i, s in enumerate(result.scores.signals)
                           if abs(contrib[i, qi, j]) >= 5e-4)  # the signals that moved it
        rows.append([j + 1, doc.id, _clip(doc.title, 38),
                     _number(result.ranking.scores[qi, j], whole),
                     judged.get(doc.id, "–"), parts or "0"])
    header = ["rank", "id", "title", "score", "rel", "contributions"]
    if all(r[2] in ("", r[1]) for r in rows):  # titles that are the ids (file paths)
        header.pop(2)
        rows = [r[:2] + r[3:] for r in rows]
    # the contributions wrapped under themselves to the terminal's width (each row had been
    # some 200 characters); the other columns as they are
    cells: list[list[Any]] = [header, *rows]
    lead = sum(max(display_width(str(r[i])) for r in cells) + 2 for i in range(len(header) - 1))
    print(format_table(header, rows, wrap_last=max(30, text_width() - lead)))
    print()


def _number(value: float, whole: bool) -> str:
    """`value` to four decimals, or as a whole number where the model's scores are whole and
    this one is too."""
    v = float(value) + 0.0  # no -0
    return f"{v:.0f}" if whole and v.is_integer() else f"{v:.4f}"


def _clip(text: str, n: int) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"
