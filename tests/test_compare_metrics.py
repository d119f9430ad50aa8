"""The compare view's default metrics (`core.compare.compare_metrics`) are those `workbench
compare` and `report` show by default on the same data (review F, 5: the report exported from
the window had r@10 and no map@100 or judged@10)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from tests.conftest import SAMPLES
from workbench.cli import main
from workbench.cli.compare import CODE_COMPARE_METRICS
from workbench.cli.evaluate import CODE_METRICS, EVAL_METRICS
from workbench.core.compare import compare_metrics
from workbench.core.formats import load_dataset
from workbench.core.models import get_model


def test_judged_data_gets_the_command_lines_metrics() -> None:
    ds = load_dataset(SAMPLES / "vault")  # graded, with judged non-relevant notes
    assert any(g <= 0 for docs in (ds.qrels or {}).values() for g in docs.values())
    assert compare_metrics(get_model("vault-search"), ds) == EVAL_METRICS.split(",")


def test_judged_at_k_is_left_out_where_every_judgment_is_relevant() -> None:
    ds = SimpleNamespace(qrels={"q1": {"d1": 1}, "q2": {"d2": 2}}, queries=[])
    want = [m for m in EVAL_METRICS.split(",") if m != "judged@10"]
    assert compare_metrics(get_model("bm25"), ds) == want


def test_code_tasks_and_bundles_get_the_command_lines_code_metrics() -> None:
    tasks = SimpleNamespace(qrels={"t1": {"a.py": 1}},
                            queries=[SimpleNamespace(context={"commit": "abc"})])
    assert compare_metrics(get_model("bm25"), tasks) == CODE_METRICS.split(",")
    assert compare_metrics(get_model("codeledger"), tasks) == CODE_COMPARE_METRICS.split(",")


def test_the_window_s_top_k_sets_the_cut_offs() -> None:
    ds = SimpleNamespace(qrels={"q1": {"d1": 0}}, queries=[])
    assert compare_metrics(get_model("bm25"), ds, 5) == [
        "ndcg@5", "mrr@5", "p@5", "r@100", "map@100", "judged@5"]


def test_tune_reports_the_metrics_compare_shows(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """rb 8: tune's "other measures" were ndcg@10, mrr@10, r@10 and r@100, compare's and the
    report's ndcg@10, mrr@10, p@10, r@100 and map@100: r@10 was in no report, p@10 and
    map@100 in no tune summary. Both now show one list, the tuned metric first."""
    data = str(SAMPLES / "tea-beir")
    assert main(["tune", data, "-m", "bm25", "--trials", "4", "--folds", "2",
                 "--storage", str(tmp_path / "s.db")]) == 0
    out = capsys.readouterr().out
    table = out.split("other measures")[1].split("\n\n")[0].splitlines()[3:]
    tuned = [line.split()[0] for line in table if line.strip()]
    assert main(["compare", data, "-m", "bm25", "--defaults", "-p", "k1=0.9",
                 "--movers", "0"]) == 0
    shown = capsys.readouterr().out.splitlines()
    head = next(i for i, line in enumerate(shown) if line.split()[:1] == ["metric"])
    compared = [line.split()[0] for line in shown[head + 2:] if line.strip()]
    compared = compared[:compared.index(next(m for m in compared if "@" not in m))]
    assert compared == ["ndcg@10", *tuned]
    assert tuned[:4] == ["mrr@10", "p@10", "r@100", "map@100"]
