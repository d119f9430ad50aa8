"""`workbench compare` with what each configuration's selection returns (results per query,
% of queries returning nothing, tokens injected): named with --metrics, or by default where
nothing is judged; each set against the first configuration with no better / worse verdict.
`report` refuses them in one line pointing to compare."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from tests.conftest import SAMPLES
from workbench.cli import main
from workbench.core.formats import load_dataset
from workbench.core.models import get_model
from workbench.core.pipeline import Pipeline
from workbench.core.selection_figures import compare_figures

EVAL = str(SAMPLES / "decisions-eval")
UNJUDGED = str(SAMPLES / "decisions")


def _row(out: str, first: str) -> list[str]:
    return next(line.split() for line in out.splitlines() if line.split()[:1] == [first])


def _counts(path: str, **params: float) -> np.ndarray:
    """How many results each query returns: the ranked list's length (decision-memory's
    lists are at most 3 long, well within the ranking's depth); of a case file, the
    injection cases only (its manual searches inject nothing: eval leaves them out, dr5 2)."""
    ds = load_dataset(path)
    ranking = Pipeline(get_model("decision-memory"), ds, params).run([]).ranking
    count = np.asarray(ranking.count, np.int64)
    cases = Path(path) / "eval.jsonl"
    if not cases.is_file():
        return count
    inject = [json.loads(line).get("forInjection", True)
              for line in cases.read_text().splitlines() if line.strip()]
    assert 0 < sum(inject) < len(inject)  # some searches to leave out
    return count[np.asarray(inject, bool)]


def test_compare_shows_what_each_selection_returns_against_the_first(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", EVAL, "-m", "decision-memory", "--defaults", "-p",
                 "inject_min_score=30", "--metrics", "results,empty,injected_tokens",
                 "--movers", "0"]) == 0
    out = capsys.readouterr().out
    a, b = _counts(EVAL), _counts(EVAL, inject_min_score=30)
    results = _row(out, "results")
    assert results[1:4] == [f"{a.mean():.2f}", f"{b.mean():.2f}",
                            f"{b.mean() - a.mean():+.2f}"]
    assert results[-1] == f"{int((b > a).sum())}/{int((b < a).sum())}"
    empty = _row(out, "empty")
    assert empty[1:3] == [f"{100 * (a == 0).mean():.1f}", f"{100 * (b == 0).mean():.1f}"]
    assert empty[-1] == f"{int(((b == 0) & (a > 0)).sum())}/{int(((a == 0) & (b > 0)).sum())}"
    assert _row(out, "injected_tokens")
    header = _row(out, "returns")
    assert "▲/▼" not in header and header[-1] == "more/fewer"  # no better / worse verdict
    assert "neither way better" in out and "paired randomisation test" in out


def test_compare_without_judgments_shows_what_each_returns(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", UNJUDGED, "-m", "decision-memory", "--defaults", "-p",
                 "inject_min_score=30", "--movers", "0"]) == 0
    out = capsys.readouterr().out
    a, b = _counts(UNJUDGED), _counts(UNJUDGED, inject_min_score=30)
    assert (a != b).any()  # the comparison shows a difference
    assert _row(out, "results")[1:3] == [f"{a.mean():.2f}", f"{b.mean():.2f}"]
    assert f"mean over all {len(a)} queries" in out
    assert "queries: same order" in out  # the rankings side by side, as before


def test_report_writes_the_figures_compare_shows(
        tmp_path: object, capsys: pytest.CaptureFixture[str]) -> None:
    # it had refused them, pointing to compare: the report is what gets shared (review rv3,
    # F7)
    out = f"{tmp_path}/r.md"
    assert main(["report", EVAL, "-m", "decision-memory", "--defaults", "-p",
                 "inject_min_score=30", "--metrics", "results", "-o", out]) == 0
    capsys.readouterr()
    assert main(["compare", EVAL, "-m", "decision-memory", "--defaults", "-p",
                 "inject_min_score=30", "--metrics", "results"]) == 0
    row = next(line for line in capsys.readouterr().out.splitlines()
               if line.startswith("results "))
    # the same figures as compare's row: its mean under each, its Δ
    with open(out, encoding="utf-8") as f:
        text = f.read()
    assert "## What each returns" in text
    # (the report's Δ with a real minus, rc 7)
    assert "| results | " + " | ".join(row.split()[1:4]).replace("-", "−") + " |" in text


def _result(counts: list[int]) -> SimpleNamespace:
    """A pipeline result whose queries return `counts` results (ranked, not selected)."""
    docs = np.full((len(counts), 3), -1, np.int32)
    for q, n in enumerate(counts):
        docs[q, :n] = np.arange(n)
    return SimpleNamespace(ranking=SimpleNamespace(count=np.array(counts), docs=docs),
                           selection=None)


def test_figures_count_more_and_fewer_with_no_test_where_nothing_differs() -> None:
    results = [_result([2, 0, 3, 1]), _result([1, 0, 3, 3]), _result([2, 0, 3, 1])]
    rows = compare_figures(["results", "empty"], results, np.ones(4, bool))
    got, empty = rows
    assert got.means == [1.5, 1.75, 1.5] and got.deltas == [0.0, 0.25, 0.0]
    assert (got.more, got.fewer) == ([0, 1, 0], [0, 1, 0])
    assert got.p_values[0] is None and got.p_values[2] is None  # no query differs
    assert got.p_values[1] == 1.0  # two differences, +2 and −1: every sign flip as far out
    assert empty.means == [25.0, 25.0, 25.0] and empty.p_values == [None, None, None]
    # the counted queries only (a judged subset)
    only = compare_figures(["results"], results, np.array([True, False, False, False]))[0]
    assert only.means == [2.0, 1.0, 2.0] and only.fewer == [0, 1, 0]
