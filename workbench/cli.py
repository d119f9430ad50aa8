"""The headless face: `workbench models | rank | explain | eval | bench | demo`, and the
window's two entries: `workbench gui [DATA]` and `workbench screenshot OUTDIR`.

Every subcommand is a function taking the parsed arguments and returning an exit code, so tests
call them in-process. Bad input ends in one line on stderr naming file, line and field; never a
traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from workbench.cli_args import OneLineParser, warn_repeated, whole

# eval and sweep live in cli_eval (it reaches back here, inside its functions, for the shared
# pieces: _load, _pipeline …)
from workbench.cli_eval import cmd_eval, cmd_sweep, metrics_help
from workbench.cli_output import OutputError
from workbench.cli_tune import add_tune_command
from workbench.core import engine
from workbench.core.data import Dataset, FormatError, Query, QuerySet
from workbench.core.embeddings import DEFAULT_MODEL, PROMPT_PRESETS, EmbeddingError
from workbench.core.engine import Cancelled, Progress
from workbench.core.params import ParamError, Params, load_params_file, parse_assignments
from workbench.textout import format_table, progress_bar

SAMPLES = Path(__file__).resolve().parent.parent / "sample_corpora"

EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2


class UsageError(Exception):
    """A mistake on the command line; printed as one line."""


# -- shared pieces ---------------------------------------------------------------------------


def _load(args: argparse.Namespace) -> Dataset:
    from workbench.core.formats import load_dataset

    skipped: list[FormatError] = []
    dataset = load_dataset(args.data, queries=getattr(args, "queries", None),
                           qrels=getattr(args, "qrels", None),
                           split=getattr(args, "split", "test"), skipped=skipped)
    report_skipped(skipped)
    from workbench.core.checks import load_warnings

    for line in load_warnings(dataset):
        print(f"warning: {line}", file=sys.stderr)
    from workbench.core.formats.openvault_memories import load_note

    note = load_note(dataset.corpus)  # memories without a summary, read as empty text
    if note:
        print(f"note: {note}", file=sys.stderr)
    return dataset


def report_skipped(skipped: Sequence[FormatError], shown: int = 5) -> None:
    """Malformed decision lines the original would skip silently, or a vault's unreadable
    notes: said on stderr, the rest loaded."""
    if not skipped:
        return
    from workbench.core.formats.vault import UnreadableNote

    what = ("unreadable note(s) skipped, the other notes loaded"
            if all(isinstance(e, UnreadableNote) for e in skipped)
            else "malformed line(s) skipped, as pi-lodestone skips them")
    print(f"warning: {len(skipped)} {what}:", file=sys.stderr)
    for err in skipped[:shown]:
        print(f"  {err}", file=sys.stderr)
    if len(skipped) > shown:
        print(f"  … and {len(skipped) - shown} more", file=sys.stderr)


def _model_and_params(args: argparse.Namespace) -> tuple[Any, Params]:
    from workbench.core.models import get_model

    try:
        model = get_model(args.model)
    except KeyError as exc:
        raise UsageError(str(exc.args[0])) from None
    overrides: dict[str, object] = {}
    if getattr(args, "params", None):
        overrides.update(load_params_file(args.params))
    assignments = getattr(args, "param", None) or []
    overrides.update(parse_assignments(assignments))
    warn_repeated(assignments)
    params = model.schema.resolve(overrides)
    if "embedding_model" in params:  # a model that is not there is said before any work
        from workbench.core.embeddings import get_encoder

        get_encoder(str(params["embedding_model"]))
    return model, params


def _one_query(args: argparse.Namespace, dataset: Dataset) -> Dataset:
    """The dataset narrowed to the query the user named (an id, or ad-hoc text). Text that
    is a judged query's text is that query, judgments and context included (as its id)."""
    if args.query is not None:
        judged = next((q.id for q in dataset.queries if q.text.strip() == args.query.strip()
                       and (dataset.qrels or {}).get(q.id)), None)
        if judged is not None:
            print(f"note: the text of judged query {judged!r}: ranked as --query-id {judged}, "
                  "with its judgments", file=sys.stderr)
            return Dataset(dataset.name, dataset.corpus, dataset.queries.subset([judged]),
                           dataset.qrels, dataset.source, dataset.settings)
        queries = QuerySet([Query(id="query", text=args.query)], name="command line")
        return Dataset(dataset.name, dataset.corpus, queries, None, dataset.source,
                       dataset.settings)
    if args.query_id is not None:
        if args.query_id not in dataset.queries.index:
            if not len(dataset.queries):
                raise UsageError(f"{dataset.name} has no queries (or tasks) to pick "
                                 f"{args.query_id!r} from; give the text with --query/--task")
            shown = ", ".join(dataset.queries.ids[:8])
            raise UsageError(f"no query with id {args.query_id!r} in {dataset.name} "
                             f"(ids look like: {shown})")
        return Dataset(dataset.name, dataset.corpus, dataset.queries.subset([args.query_id]),
                       dataset.qrels, dataset.source, dataset.settings)
    raise UsageError("give --query TEXT or --query-id ID")


def _pipeline(model: Any, dataset: Dataset, params: Params, label: str) -> Any:
    from workbench.core.pipeline import Pipeline

    with progress_bar(label) as bar:
        return Pipeline(model, dataset, params, progress=Progress(on_progress=bar))


def _ranked_rows(pipe: Any, top: int) -> list[dict[str, Any]]:
    """The first query's results with their contributions and gates."""
    result = pipe.run(metric_names=(), depth=top)
    contrib = engine.contributions_at(result.scores, result.ranking)
    corpus = pipe.dataset.corpus
    qrels = (pipe.dataset.qrels or {}).get(pipe.dataset.queries[0].id, {})
    rows: list[dict[str, Any]] = []
    for j in range(int(result.ranking.count[0])):
        d = int(result.ranking.docs[0, j])
        doc = corpus[d]
        rows.append({
            "rank": j + 1,
            "id": doc.id,
            "title": doc.title,
            "score": float(result.ranking.scores[0, j]),
            "relevance": qrels.get(doc.id),
            "contributions": {s: float(contrib[i, 0, j])
                              for i, s in enumerate(result.scores.signals)},
            "doc": d,
        })
    return rows


# -- subcommands -----------------------------------------------------------------------------


def cmd_models(args: argparse.Namespace) -> int:
    from workbench.core.models import get_model, model_ids

    ids = [args.model] if args.model else model_ids()
    for mid in ids:
        try:
            m = get_model(mid)
        except KeyError as exc:
            raise UsageError(str(exc.args[0])) from None
        print(f"{m.id} — {m.label}: {m.description}")
        print("  signals: " + ", ".join(f"{s.name} ({s.label})" for s in m.signals))
        if m.gates:
            print("  gates:   " + ", ".join(m.gates))
        table = [[p.name, p.stage, str(p.default), p.range_text(), p.help] for p in m.schema]
        print(format_table(["parameter", "stage", "default", "range", "help"], table,
                           indent="  ", wrap_last=60))
        print()
    return EXIT_OK


def _data_or_repo(args: argparse.Namespace) -> None:
    """DATA, or `--repo PATH` (a git repository) in its place; and a query that is not empty."""
    if getattr(args, "repo", None):
        if args.data:
            raise UsageError("give DATA or --repo, not both")
        from workbench.core.formats.code_repo import is_code_repo

        if not is_code_repo(Path(args.repo)):
            raise UsageError(f"--repo {args.repo}: not a git repository (no .git)")
        args.data = args.repo
    if args.query is not None and not args.query.strip():
        raise UsageError("the query (--query/--task) is empty")
    if not args.data:
        raise UsageError("give DATA (or --repo PATH for a git repository)")


def cmd_rank(args: argparse.Namespace) -> int:
    _data_or_repo(args)
    dataset = _one_query(args, _load(args))
    model, params = _model_and_params(args)
    pipe = _pipeline(model, dataset, params, f"preparing {model.id}")
    rows = _ranked_rows(pipe, args.top)
    shown = _shown(pipe)
    for r in rows:
        if shown is not None:
            r["snippet"] = shown.snippets[shown.docs.index(r["doc"])] \
                if r["doc"] in shown.docs else ""
    if args.format == "json":
        for r in rows:
            r.pop("doc")
        print(json.dumps({"query": dataset.queries[0].text, "model": model.id,
                          "params": params, "results": rows}, indent=2, ensure_ascii=False))
        return EXIT_OK
    print(f"query: {dataset.queries[0].text}")
    print(f"model: {model.id}   ({len(dataset.corpus):,} documents)")
    if not rows:
        print("no results")
        return EXIT_OK
    signals = list(rows[0]["contributions"])
    header = ["rank", "id", "title", "score", "rel", *signals]
    table = [[r["rank"], r["id"], _clip(r["title"], 40), f"{r['score']:.4f}",
              "" if r["relevance"] is None else r["relevance"],
              *(f"{r['contributions'][s]:.4f}" for s in signals)] for r in rows]
    print(format_table(header, table))
    if shown is not None:
        print("\nsnippets:")
        for r in rows:
            print(f"{r['rank']:>4}  {r['snippet']}")
        if shown.block:
            print("\nthe memory block the agent receives:\n" + shown.block)
    return EXIT_OK


def _shown(pipe: Any) -> Any:
    """The first query's results as the source system shows them (snippets, memory block),
    for a model that has them (decision-memory), else None."""
    views = getattr(pipe.model, "injections", None)
    return None if views is None else views(pipe.prepared, pipe.dataset, pipe.params)[0]


def cmd_explain(args: argparse.Namespace) -> int:
    _data_or_repo(args)
    dataset = _one_query(args, _load(args))
    model, params = _model_and_params(args)
    pipe = _pipeline(model, dataset, params, f"preparing {model.id}")
    if hasattr(model, "near_misses"):  # a bundle-selecting model: CodeLedger's explain
        from workbench.cli_code import print_bundle_explain

        print_bundle_explain(pipe, args.top)
        return EXIT_OK
    rows = _ranked_rows(pipe, args.top)
    q = dataset.queries[0]
    print(f"query: {q.text}")
    print(f"model: {model.id}; changed parameters: "
          f"{model.schema.changed(params) or 'none (defaults)'}")
    for r in rows:
        rel = "" if r["relevance"] is None else f"   judged {r['relevance']}"
        print(f"\n#{r['rank']}  {r['id']}  {r['title']}{rel}")
        print(f"    score {r['score']:.6g} = " + " + ".join(
            f"{name} {value:.6g}" for name, value in r["contributions"].items()))
        details = model.explain(pipe.prepared, dataset, 0, r["doc"], pipe.params)
        for line in _explain_lines(details):
            print("    " + line)
    shown = _shown(pipe)
    if shown is not None and shown.block:
        print("\nthe memory block the agent receives:\n" + shown.block)
    gated = _gated_summary(pipe)
    if gated:
        print("\nzeroed by a gate: " + ", ".join(f"{g} ×{n}" for g, n in gated.items()))
    return EXIT_OK


def _explain_lines(details: dict[str, Any]) -> list[str]:
    out: list[str] = []
    for key, value in details.items():
        if key == "memory_block":  # printed whole after the results
            continue
        if key == "snippet":  # the source system's own snippet, whole
            out.append(f"snippet: {value}")
        elif isinstance(value, list) and value and isinstance(value[0], dict):
            out.append(f"{key}:")
            for item in value[:12]:
                out.append("  - " + ", ".join(f"{k}={_short(v)}" for k, v in item.items()))
            if len(value) > 12:
                out.append(f"  … {len(value) - 12} more")
        else:
            out.append(f"{key}: {_short(value)}")
    return out


def _gated_summary(pipe: Any) -> dict[str, int]:
    scores = pipe.model.combine(pipe.prepared, pipe.params)
    counts = np.bincount(scores.gate[scores.docs >= 0].ravel().astype(np.int64),
                         minlength=len(scores.gates) + 1)
    return {g: int(counts[i + 1]) for i, g in enumerate(scores.gates) if counts[i + 1]}


EMBED_SHORTHANDS = (("embedding_model", "embedding_model"), ("fields", "fields"),
                    ("document_prompt", "prompt"), ("query_prompt", "query_prompt"),
                    ("batch_size", "batch_size"))


def cmd_embed(args: argparse.Namespace) -> int:
    """Fill the embedding cache with what a model's prepare reads: its documents' fields and
    its queries' text, with its encoder and prompts, so the next `eval`/`gui` embeds nothing."""
    import time

    from workbench.core.embeddings import count_cached, embed_texts, get_encoder
    from workbench.core.models import get_model, model_ids
    from workbench.core.store import cache_dir

    try:
        model = get_model(args.model)
    except KeyError:
        raise UsageError(f"--model {args.model}: no such model (valid: "
                         f"{', '.join(model_ids())}); the encoder is --embedding-model") from None
    given = {name: getattr(args, option) for name, option in EMBED_SHORTHANDS
             if getattr(args, option) is not None}
    if "document_prompt" in given:
        given["document_prompt"] = PROMPT_PRESETS.get(str(given["document_prompt"]),
                                                      given["document_prompt"])
        given.setdefault("query_prompt", given["document_prompt"])  # --prompt: both sides
    elif "query_prompt" in given:
        given["query_prompt"] = PROMPT_PRESETS.get(str(given["query_prompt"]),
                                                   given["query_prompt"])
    unknown = [n for n in given if n not in model.schema]
    if unknown:
        option = dict(EMBED_SHORTHANDS)[unknown[0]].replace("_", "-")
        raise UsageError(f"--{option}: {model.id} has no parameter {unknown[0]}")
    model, params = _model_and_params(args)
    params = model.schema.resolve({**params, **given})
    get_encoder(str(params.get("embedding_model", DEFAULT_MODEL)))  # before the data loads
    if not model.embedding_jobs(_probe_dataset(), params):
        embedders = [m for m in model_ids() if get_model(m).embedding_jobs(
            _probe_dataset(), get_model(m).schema.defaults())]
        why = (" with embeddings=stored (it reads the vectors stored with each memory)"
               if params.get("embeddings") == "stored" else "")
        raise UsageError(f"--model {model.id}: embeds nothing{why}; models that embed: "
                         + ", ".join(embedders))
    dataset = _load(args)
    jobs = model.embedding_jobs(dataset, params)
    if args.documents_only:
        jobs = [j for j in jobs if j.label == "documents"]
    encoder = get_encoder(jobs[0].model)
    print(f"embedding what {model.id} reads: encoder {encoder.identity}; "
          f"cache {cache_dir() / 'embeddings'}")
    cache_errors: list[str] = []
    for job in jobs:
        cached = count_cached(job.texts, model=job.model, prompt=job.prompt)
        t0 = time.perf_counter()
        with progress_bar(f"embedding {job.label}") as bar:
            vectors = embed_texts(job.texts, model=job.model, prompt=job.prompt,
                                  batch_size=job.batch_size,
                                  progress=Progress(on_progress=bar), cache_errors=cache_errors)
        secs = time.perf_counter() - t0
        new = len(job.texts) - cached
        rate = f", {new / secs:,.0f} texts/s" if new and secs > 0 else ""
        print(f"{job.label}: {len(job.texts):,} texts ({new:,} embedded, {cached:,} from the "
              f"cache), {vectors.shape[1]} dimensions, {secs:.1f} s{rate}; "
              f"prompt {job.prompt!r}")
    for line in cache_errors:
        print(f"warning: {line}", file=sys.stderr)
    if not cache_errors:
        print(_readers(dataset, model.id, params))
    return EXIT_OK


def _probe_dataset() -> Dataset:
    """One document and one query: enough for a model to say whether it embeds anything."""
    from workbench.core.data import Corpus, Document

    return Dataset("", Corpus([Document("d", "probe")]), QuerySet([Query("q", "probe")]))


def _readers(dataset: Dataset, model_id: str, params: Params) -> str:
    """Which models now prepare without embedding anything: the one embedded for at these
    settings (the ones off their defaults said), and any other at its defaults."""
    from workbench.core.embeddings import count_cached
    from workbench.core.models import get_model, model_ids

    def ready(mid: str, p: Params) -> bool:
        return all(count_cached(j.texts, model=j.model, prompt=j.prompt) == len(j.texts)
                   for j in get_model(mid).embedding_jobs(dataset, p))

    model = get_model(model_id)
    changed = [f"{k}={v!r}" if isinstance(v, str) else f"{k}={v}"
               for k, v in model.schema.prepare_values(params).items()
               if v != model.schema[k].default and k != "batch_size"]
    line = f"read by: -m {model_id}" + (f" with {', '.join(changed)}" if changed else
                                         " at its defaults")
    others = [m for m in model_ids() if m != model_id
              and get_model(m).embedding_jobs(dataset, get_model(m).schema.defaults())
              and ready(m, get_model(m).schema.defaults())]
    if others:
        line += f"; also ready: {', '.join(others)} at their defaults"
    return line


def cmd_bench(args: argparse.Namespace) -> int:
    if args.code:
        from workbench.bench.code_selection import run_code_bench
        from workbench.core.repo import GitError

        try:
            return run_code_bench(args.code, split=args.history_fraction)
        except (GitError, ValueError) as exc:
            raise UsageError(str(exc)) from None
    if args.data is not None and not Path(args.data).exists():
        raise UsageError(f"DATA {args.data}: no such file or folder")
    if args.tune:
        from workbench.bench.tune_bench import run_tune_bench

        return run_tune_bench(args.data, trials=args.trials)
    if args.gui:
        from workbench.bench.gui_bench import run_gui_bench

        return run_gui_bench(positions=args.positions, data=args.data, timeout=args.timeout)
    if args.embeddings:
        from workbench.bench.embedding_bench import run_embedding_bench

        return run_embedding_bench(n_texts=args.texts, data=args.data)
    from workbench.bench.harness import run_benchmarks

    return run_benchmarks(data=args.data, repeats=args.repeats, quick=args.quick,
                          models=args.model.split(",") if args.model else None)


def cmd_gui(args: argparse.Namespace) -> int:
    """The desktop window (PySide6), on DATA or the default sample corpus."""
    from workbench.gui.app import run

    overrides: dict[str, object] = {}
    if args.params:
        overrides.update(load_params_file(args.params))
    overrides.update(parse_assignments(args.param or []))
    if overrides and args.model:  # checked here, before a window opens
        from workbench.core.models import get_model

        try:
            get_model(args.model).schema.resolve(overrides)
        except KeyError as exc:
            raise UsageError(str(exc.args[0])) from None
    return run(args.data, args.model, overrides or None)


def cmd_screenshot(args: argparse.Namespace) -> int:
    """PNGs of the main window on each sample corpus (offscreen)."""
    from workbench.gui.screenshot import check_outdir, sample_names, take_screenshots

    unknown = [n for n in args.sample or [] if n not in sample_names()]
    if unknown:
        raise UsageError(f"--sample {unknown[0]}: no such sample; valid: "
                         + ", ".join(sample_names()))
    try:
        check_outdir(Path(args.outdir))
        written = take_screenshots(args.outdir, names=args.sample or None)
    except OSError as exc:
        raise UsageError(f"OUTDIR {args.outdir}: {exc.strerror or exc}") from None
    for path in written:
        print(path)
    return EXIT_OK if written else EXIT_FAIL


def cmd_demo(args: argparse.Namespace) -> int:
    """What the README's run command shows until the window exists: each bundled sample
    corpus evaluated, and one query explained."""
    from workbench.demo import run_demo

    return run_demo(SAMPLES)


# -- argument parsing ------------------------------------------------------------------------


def _add_data(p: argparse.ArgumentParser, *, judgments: bool = True,
              optional: bool = False) -> None:
    p.add_argument("data", nargs="?" if optional else None,
                   help="dataset: a BEIR folder, a markdown vault folder, an OpenVault folder "
                   "(memories.json + contexts.jsonl), a pi-memory folder or file, a git "
                   "repository (its tasks from --queries), a SillyTavern chat .jsonl, an "
                   "OpenVault memories .json, or a .jsonl/.csv file of documents")
    p.add_argument("--queries", help="query file (JSONL/CSV/TSV, or OpenVault contexts.jsonl) "
                   "when DATA holds none")
    if judgments:
        p.add_argument("--qrels", help="judgments (BEIR .tsv or TREC qrels) when DATA holds none")
    p.add_argument("--split", default="test", help="BEIR split to read (default: test)")


def _add_model(p: argparse.ArgumentParser, default: str | None = None) -> None:
    p.add_argument("--model", "-m", default=default, required=default is None,
                   help="model id (see `workbench models`)")
    p.add_argument("--param", "-p", action="append", metavar="NAME=VALUE",
                   help="set a parameter (repeatable)")
    p.add_argument("--params", metavar="FILE.toml", help="read parameters from a TOML file")


def _add_repo(p: argparse.ArgumentParser) -> None:
    p.add_argument("--repo", metavar="PATH", help="a git repository (instead of DATA), for "
                   "codeledger: `explain --model codeledger --repo . --task TEXT`")


def _add_query(p: argparse.ArgumentParser, top: int = 10, top_help: str = "") -> None:
    g = p.add_mutually_exclusive_group(required=True)
    g.add_argument("--query", "--task", "-q", dest="query", help="query (or task) text")
    g.add_argument("--query-id", help="id of a query in the dataset")
    p.add_argument("--top", type=whole(1), default=top,
                   help=f"results to show (default {top}{top_help})")


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog="workbench",
        description="Scoring Workbench: tune how retrieval systems score.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("models", help="list models, their parameters and signals")
    p.add_argument("model", nargs="?", help="show only this model")
    p.set_defaults(func=cmd_models)

    p = sub.add_parser("rank", help="rank documents for one query, with signal contributions")
    _add_data(p, optional=True)
    _add_repo(p)
    _add_model(p)
    _add_query(p)
    p.add_argument("--format", choices=("table", "json"), default="table")
    p.set_defaults(func=cmd_rank)

    p = sub.add_parser("explain", help="each result's score breakdown, gates and matched terms")
    _add_data(p, optional=True)
    _add_repo(p)
    _add_model(p)
    _add_query(p, top=5, top_help="; codeledger shows at least its whole bundle")
    p.set_defaults(func=cmd_explain)

    p = sub.add_parser("eval", help="metrics over a judged query set")
    _add_data(p)
    _add_model(p)
    default = "ndcg@10,mrr@10,p@10,r@100,map@100,judged@10"
    p.add_argument("--metrics", default=default,
                   help=metrics_help(f"{default}, and every bundle figure for a model that "
                                     "selects bundles, unless one is named"))
    p.add_argument("--per-query", metavar="OUT.csv|OUT.json", help="write per-query metrics")
    p.add_argument("--run", metavar="OUT.trec", help="write the ranking as a TREC run file")
    p.add_argument("--cases", action="store_true",
                   help="list every fixture case (eval.jsonl), not only the failing ones")
    p.set_defaults(func=cmd_eval)

    p = sub.add_parser("sweep", help="a metric over a range of one parameter, others held")
    _add_data(p)
    _add_model(p)
    p.add_argument("--sweep", "-s", required=True, metavar="PARAM", help="parameter to vary")
    p.add_argument("--values", help="low:high:step, or a,b,c (default: its slider range)")
    p.add_argument("--metrics", default="ndcg@10,mrr@10,r@100",
                   help=metrics_help("ndcg@10,mrr@10,r@100") + "; the first picks the best "
                   "value (the most; the fewest files or tokens)")
    p.add_argument("--out", metavar="FILE.json|FILE.csv",
                   help="also write every value's metrics, the best marked (format by the "
                   "extension)")
    p.add_argument("--force", action="store_true",
                   help="sweep even more than 1,000 values (each one a full evaluation)")
    p.set_defaults(func=cmd_sweep)

    p = sub.add_parser("embed", help="embed what a model reads (its document fields and "
                       "queries, with its encoder and prompts) into the on-disk cache")
    _add_data(p, judgments=False)
    _add_model(p, default="dense")
    p.add_argument("--embedding-model", metavar="MODEL",
                   help=f"the encoder: a local folder or package (default: the model's "
                   f"embedding_model, {DEFAULT_MODEL})")
    p.add_argument("--fields", choices=("title+text", "text"),
                   help="what of each document is embedded (the model's fields parameter)")
    p.add_argument("--prompt", help="prompt of both sides (the query side unless "
                   "--query-prompt): text, or a preset name: "
                   + ", ".join(repr(k) for k in PROMPT_PRESETS))
    p.add_argument("--query-prompt", help="the query side's prompt")
    p.add_argument("--batch-size", type=whole(1))
    p.add_argument("--documents-only", action="store_true")
    p.set_defaults(func=cmd_embed, qrels=None)

    p = sub.add_parser("bench", help="time the live combine + top-k + metrics path")
    p.add_argument("data", nargs="?", metavar="DATA",
                   help="dataset to time on (default: SciFact from $WORKBENCH_DATASETS or "
                   "the shared datasets beside the checkout; with neither its rows are left "
                   "out, never replaced)")
    p.add_argument("--repeats", type=whole(1), default=15, help="timed repetitions (median taken)")
    p.add_argument("--quick", action="store_true", help="small synthetic sizes (smoke test)")
    p.add_argument("--model", "-m", help="comma-separated model ids (default: all)")
    p.add_argument("--embeddings", action="store_true",
                   help="instead: encoder throughput against sentence-transformers called "
                   "directly, and cache reopen time")
    p.add_argument("--texts", type=whole(1), default=1000, help="texts for --embeddings")
    p.add_argument("--tune", action="store_true",
                   help="optimiser trials per second on SciFact hybrid, against the live tick")
    p.add_argument("--trials", type=int, default=60, help="trials per study for --tune")
    p.add_argument("--gui", action="store_true",
                   help="instead: slider moved → window repainted, on SciFact with the "
                   "hybrid model (offscreen), and first launch → first ranked table")
    p.add_argument("--positions", type=whole(1), default=60, help="slider positions for --gui")
    p.add_argument("--timeout", type=whole(1), default=1800, metavar="SECONDS",
                   help="for --gui: stop (exit status 1) when the bench runs longer than this "
                   "(default 1800)")
    p.add_argument("--code", metavar="REPO",
                   help="instead: codeledger on REPO's own history (tasks from the commits "
                   "after a time split) against BM25 over file contents, defaults and a quick "
                   "tune, index and combine times")
    from workbench.cli_code import _fraction

    p.add_argument("--history-fraction", type=_fraction, default=0.5, metavar="FRACTION",
                   help="for --code: the share of the repository's history, its latest "
                   "commits, that becomes tasks (default 0.5)")
    p.set_defaults(func=cmd_bench)

    p = sub.add_parser("gui", help="the desktop window (on DATA, or a bundled sample)")
    p.add_argument("data", nargs="?", help="dataset folder or file (default: the last one "
                   "opened, else sample_corpora/vault)")
    p.add_argument("--model", "-m", help="model id (default: the sample's, else bm25)")
    p.add_argument("--param", "-p", action="append", metavar="NAME=VALUE",
                   help="start with this parameter value (repeatable)")
    p.add_argument("--params", metavar="FILE.toml", help="start with the parameters of a TOML "
                   "file (e.g. what `tune --out` wrote)")
    p.set_defaults(func=cmd_gui)

    p = sub.add_parser("screenshot", help="PNGs of the window on each sample corpus")
    p.add_argument("outdir", help="folder for <sample>.png")
    p.add_argument("--sample", action="append", help="only this sample (repeatable)")
    p.set_defaults(func=cmd_screenshot)

    from workbench.cli_memory import add_memory_commands

    add_memory_commands(sub, _add_data, _add_model)

    from workbench.cli_code import add_code_commands

    add_code_commands(sub)
    add_tune_command(sub)

    p = sub.add_parser("demo", help="evaluate the bundled sample corpora and explain a query")
    p.set_defaults(func=cmd_demo)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    args.argv = list(sys.argv[1:] if argv is None else argv)  # `tune --workers` repeats it
    func: Callable[[argparse.Namespace], int] | None = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return EXIT_USAGE
    try:
        return func(args)
    except (FormatError, ParamError, UsageError, EmbeddingError, OutputError) as exc:
        print(f"workbench {args.command}: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except Cancelled:
        print(f"workbench {args.command}: cancelled", file=sys.stderr)
        return EXIT_FAIL
    except KeyboardInterrupt:
        print(f"workbench {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # the reader went away (`workbench models | head`): stop quietly, as Unix tools do;
        # stdout is pointed at /dev/null so Python's own flush at exit cannot fail again
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK


def _clip(text: str, n: int) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


def _short(value: object) -> str:
    if isinstance(value, float):
        return f"{value:.6g}"
    text = str(value)
    return _clip(text.replace("\n", "⏎"), 100)


if __name__ == "__main__":
    sys.exit(main())
