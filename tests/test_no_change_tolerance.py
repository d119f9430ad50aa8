"""A per-query difference of float noise (1e-16: the same figure summed in another order) is
no change: not counted as improved or worsened, nor as a difference for the exact test."""

from __future__ import annotations

from tests.conftest import SAMPLES
from workbench.core.comparison import Configuration, compare_configurations
from workbench.core.formats import load_dataset
from workbench.core.metrics import paired_test
from workbench.core.models import get_model
from workbench.report.text import per_query


def test_float_noise_is_no_change_in_the_paired_test() -> None:
    # 0.1 + 0.2 is 0.30000000000000004: against 0.3 a difference of 5.6e-17, no change;
    # by hand: one query up 0.1, two unchanged, so one non-zero difference: 2^1 sign vectors
    noisy = 0.1 + 0.2
    assert noisy - 0.3 != 0  # the premise
    test = paired_test([0.3, 0.5, 0.2], [noisy, 0.6, 0.2])
    assert (test.improved, test.worsened, test.tied) == (1, 0, 2)
    assert test.exact and test.n_resamples == 2


def test_a_shorter_list_in_the_same_order_does_not_improve_average_precision() -> None:
    # min_score 0.25 only cuts the end of vault-search's lists (the order is the same), and
    # a list cut short cannot raise AP on any query; one query's AP came out 1.1e-16 higher
    model = get_model("vault-search")
    comp = compare_configurations(
        model, load_dataset(SAMPLES / "vault"),
        [Configuration("defaults", {}), Configuration("ms", {"min_score": 0.25})],
        ["map@100", "ndcg@10"], n_resamples=200)
    assert comp.same_order(1)
    row = next(r for r in comp.rows if r.metric == "map@100")
    assert row.improved[1] == 0
    assert per_query(comp, 1, "map@100").up == 0
    assert float(comp.per_query_delta("map@100", 1)[comp.counted].max()) == 0.0
