"""decision-memory's injected_tokens counts the snippets the original would show at the
parameters in use: an injection's cut at inject_snippet_chars, a search's at
search_snippet_chars, each cut end marked '…' (REFERENCE.md §1), the snippets why-stats --live
counts. It had cut every text at 180 characters whatever the settings (dr1 5: sweeping
inject_snippet_chars over 50, 180 and 1000 gave 33.8 three times)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from tests.conftest import SAMPLES
from workbench.cli import main
from workbench.core.formats import load_dataset
from workbench.core.models import get_model
from workbench.core.pipeline import Pipeline
from workbench.core.selection_figures import of_result, snippet_chars

NOW = "2026-03-10T12:00:00.000Z"
# the decision's text: 40 × "word" each followed by a space and a newline (collapsed to one
# space: 200 characters), then "we chose pooling with PgBouncer" (31), a space and 40 × "tail"
# joined by spaces (199): 431 characters collapsed. "pooling" is the query's only term in it,
# at 200 + len("we chose ") = 209.
TEXT = "word \n" * 40 + "we chose pooling with PgBouncer " + " ".join(["tail"] * 40)
# by hand, per REFERENCE.md §1 (a window of n from max(0, min(209 − ⌊0.35 n⌋, 431 − n))):
# n = 50: 192 to 242, both ends cut: 52 characters, ⌊52 / 4 + 0.5⌋ = 13 tokens;
# n = 180: 146 to 326, both ends cut: 182 characters, ⌊182 / 4 + 0.5⌋ = 46;
# n = 1000: the whole 431, ⌊431 / 4 + 0.5⌋ = 108 (the old estimate: 181 → 45 at every n)
BY_HAND = {"50": "13.0", "180": "46.0", "1000": "108.0"}


def _folder(tmp_path: Path, mode: str) -> tuple[Path, Path]:
    folder = tmp_path / "mem"
    folder.mkdir()
    decision = {"id": "d0", "title": "Connection pooling choice", "text": TEXT,
                "tags": ["decision"], "cwd": "/repos/app", "project": "app",
                "source": "manual", "important": False, "createdAt": "2026-03-01T00:00:00.000Z"}
    (folder / "decisions.jsonl").write_text(json.dumps(decision) + "\n")
    queries = tmp_path / "q.jsonl"
    queries.write_text(json.dumps({"id": "q1", "cwd": "/repos/app", "mode": mode,
                                   "text": "connection pooling", "now": NOW}) + "\n")
    return folder, queries


def _column(out: str, values: dict[str, str]) -> dict[str, str]:
    return {cells[0]: cells[1] for cells in (line.split() for line in out.splitlines())
            if len(cells) >= 2 and cells[0] in values}


@pytest.mark.parametrize(("mode", "name"), [("injection", "inject_snippet_chars"),
                                            ("search", "search_snippet_chars")])
def test_the_snippet_length_setting_cuts_the_counted_snippet(
        tmp_path: Path, mode: str, name: str, capsys: pytest.CaptureFixture[str]) -> None:
    folder, queries = _folder(tmp_path, mode)
    assert main(["sweep", str(folder), "--queries", str(queries), "-m", "decision-memory",
                 "-p", f"mode={mode}", "-s", name, "--values", ",".join(BY_HAND),
                 "--metrics", "injected_tokens"]) == 0
    assert _column(capsys.readouterr().out, BY_HAND) == BY_HAND


def test_the_other_modes_setting_does_not_cut_it(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """An injection's snippet is cut at inject_snippet_chars, whatever search_snippet_chars."""
    folder, queries = _folder(tmp_path, "injection")
    assert main(["eval", str(folder), "--queries", str(queries), "-m", "decision-memory",
                 "-p", "inject_snippet_chars=50", "-p", "search_snippet_chars=1000",
                 "--metrics", "injected_tokens"]) == 0
    assert _column(capsys.readouterr().out, {"injected_tokens": ""}) == {
        "injected_tokens": "13.0"}


def _why_stats(capsys: pytest.CaptureFixture[str], n: int) -> tuple[str, str]:
    assert main(["why-stats", "--live", str(SAMPLES / "decisions-eval"), "-p",
                 f"inject_snippet_chars={n}"]) == 0
    out = capsys.readouterr().out
    mean = re.search(r"mean snippet length\s+([\d.]+) characters", out)
    tokens = re.search(r"estimated tokens per turn\s+(\d+)", out)
    assert mean and tokens, out
    return mean.group(1), tokens.group(1)


@pytest.mark.parametrize("n", [50, 1000])
def test_eval_counts_the_snippets_why_stats_live_counts(
        n: int, capsys: pytest.CaptureFixture[str]) -> None:
    """On decisions-eval at two snippet lengths: each turn's injected_tokens is its snippets
    as the model shows them (the views why-stats --live reads), and their mean length and
    tokens per turn are why-stats --live's figures; eval's mean is the mean of the turns'."""
    model, ds = get_model("decision-memory"), load_dataset(SAMPLES / "decisions-eval")
    pipe = Pipeline(model, ds, {"inject_snippet_chars": n})
    result = pipe.run(())
    tokens = of_result("injected_tokens", result, snippet_chars(ds))
    views = model.injections(pipe.prepared, ds, pipe.params)  # type: ignore[attr-defined]
    turns = [q for q, v in enumerate(views) if v.logged and v.injection]
    assert len(turns) == 28
    lengths = [sum(views[q].snippet_lengths) for q in turns]
    assert [tokens[q] for q in turns] == [np.floor(s / 4 + 0.5) for s in lengths]
    results = sum(len(views[q].docs) for q in turns)
    mean_length, per_turn = _why_stats(capsys, n)
    assert mean_length == f"{sum(lengths) / results:.1f}"
    # why-stats rounds the mean snippet length × the mean result count / 4, halves up
    assert per_turn == str(int(np.floor(sum(lengths) / len(turns) / 4 + 0.5)))
    assert main(["eval", str(SAMPLES / "decisions-eval"), "-m", "decision-memory", "-p",
                 f"inject_snippet_chars={n}", "--metrics", "injected_tokens"]) == 0
    shown = _column(capsys.readouterr().out, {"injected_tokens": ""})["injected_tokens"]
    assert shown == f"{np.mean([tokens[q] for q in turns]):.1f}"


def test_the_settings_move_the_figure_on_the_sample(capsys: pytest.CaptureFixture[str]) -> None:
    """dr1 5's command: 33.8 at every value before; the mean snippet falls with the setting."""
    assert main(["sweep", str(SAMPLES / "decisions-eval"), "-m", "decision-memory", "-s",
                 "inject_snippet_chars", "--values", "50,180,1000", "--metrics",
                 "injected_tokens"]) == 0
    got = _column(capsys.readouterr().out, {"50": "", "180": "", "1000": ""})
    assert float(got["50"]) < float(got["180"]) <= float(got["1000"]), got


# dr4's hand-worked lengths (REFERENCE.md §1) for turn-1 of sample_corpora/decisions, compact
# query "editing base template rebuild every page incremental cache": qm-011 collapses to 186
# units, its earliest hit "incremental" at 4, so the window starts at 0 and only the end is
# cut (n + 1); qm-014 is 165 units, whole at 180, and at 60 its hit "cache" at 54 starts the
# window at 54 − 21 = 33, both ends cut (62)
TURN_1 = {(180, "qm-011"): 181, (180, "qm-014"): 165, (60, "qm-011"): 61, (60, "qm-014"): 62}


def test_the_cached_lengths_are_the_hand_worked_ones_tick_after_tick() -> None:
    """dr4 6: the lengths are now counted from cached pieces (the collapsed text, the query's
    terms, the earliest hit), not each snippet built again; asked twice at each setting, in
    either order, they are the hand-worked ones, as are the TEXT above's."""
    from workbench.core.models.decision_memory.excerpt import excerpt_length

    model, ds = get_model("decision-memory"), load_dataset(SAMPLES / "decisions")
    query = [q.id for q in ds.queries].index("turn-1")
    for n in (180, 60, 180, 60):
        pipe = Pipeline(model, ds, {"inject_snippet_chars": n})
        scores = model.combine(pipe.prepared, pipe.params)
        assert pipe.prepared.specs[query].text == ("editing base template rebuild every page "
                                                   "incremental cache")
        got = {(n, d): scores.snippet_length(query, ds.corpus.ids.index(d))  # type: ignore
               for d in ("qm-011", "qm-014")}
        assert got == {k: v for k, v in TURN_1.items() if k[0] == n}
    # the TEXT above (431 units, "pooling" at 209), by hand: 52, 182 and 431; no term in it:
    # the first n and one mark; the limits' order changes nothing
    for n, want in ((50, 52), (180, 182), (1000, 431), (50, 52), (431, 431), (430, 431)):
        assert excerpt_length(TEXT, "connection pooling", n) == want, n
    assert excerpt_length(TEXT, "zebra crossing", 50) == 51
    assert excerpt_length(TEXT, "zebra crossing", 0) == 1


def test_a_query_text_is_tokenized_once_whatever_the_ticks(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each length had tokenized its query and collapsed its text again: two queries of the
    same text, over three combines, tokenized it once (dr4 6)."""
    import uuid

    from workbench.core.models.decision_memory import excerpt

    folder, _ = _folder(tmp_path, "injection")
    word = "w" + uuid.uuid4().hex  # a query text no other test has cached
    queries = tmp_path / "two.jsonl"
    queries.write_text("".join(json.dumps({"id": f"q{i}", "cwd": "/repos/app", "mode": "search",
                                           "text": f"pooling {word}", "now": NOW}) + "\n"
                               for i in (1, 2)))
    calls: list[str] = []
    real = excerpt.tokenize

    def counted(text: str) -> list[str]:
        calls.append(text)
        return real(text)

    monkeypatch.setattr(excerpt, "tokenize", counted)
    model, ds = get_model("decision-memory"), load_dataset(folder, queries=queries)
    for n in (50, 180, 50):
        pipe = Pipeline(model, ds, {"search_snippet_chars": n})
        scores = model.combine(pipe.prepared, pipe.params)
        assert [scores.snippet_length(q, 0) for q in (0, 1)] == [  # type: ignore[attr-defined]
            {50: 52, 180: 182}[n]] * 2
    assert calls == [f"pooling {word}"]
