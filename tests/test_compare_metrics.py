"""The compare view's default metrics (`core.compare.compare_metrics`) are those `workbench
compare` and `report` show by default on the same data (review F, 5: the report exported from
the window had r@10 and no map@100 or judged@10)."""

from __future__ import annotations

from types import SimpleNamespace

from tests.conftest import SAMPLES
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
