"""P@k's key says its denominator is k always (trec_eval's P_k), not "capped", which read as
a changed denominator (review rv3, F13)."""

from __future__ import annotations

from tests.conftest import SAMPLES
from workbench.core.comparison import Configuration, compare_configurations
from workbench.core.formats import load_dataset
from workbench.core.models import get_model
from workbench.report.text import metric_meanings


def test_p_at_k_is_said_divided_by_k() -> None:
    model = get_model("bm25")
    comp = compare_configurations(
        model, load_dataset(SAMPLES / "tea-beir"),
        [Configuration("a", model.schema.defaults()),
         Configuration("b", model.schema.resolve({"k1": 2.0}))], ["p@10"], n_resamples=100)
    (line,) = [x for x in metric_meanings(comp) if x.startswith("P@10")]
    assert "divided by 10 always" in line and "capped" not in line
    assert "best possible value is below 1 where a query has fewer than 10 relevant" in line
