"""A document whose score fell into a tie that starts at its old place, and that the order
among the tied put past the limit, moved: it is not "the same place under both: cut, not
moved" (review rv3, F1)."""

from __future__ import annotations

from tests.conftest import SAMPLES
from workbench.core.comparison import Configuration, compare_configurations, explain_move
from workbench.core.formats import load_dataset
from workbench.core.models import get_model
from workbench.report.text import mover_lines


def test_a_document_that_fell_into_a_tie_past_the_limit_moved() -> None:
    model = get_model("importance")
    dataset = load_dataset(SAMPLES / "memories")
    changed = {"boost_explicit": 0.8, "stale_short": 0.02, "relevance": "coverage"}
    configs = [Configuration("defaults", model.schema.defaults()),
               Configuration("coverage", model.schema.resolve(changed))]
    comparison = compare_configurations(model, dataset, configs, n_resamples=200)
    q = dataset.queries.ids.index("q14")
    doc = dataset.corpus.ids.index("m44")
    said = explain_move(comparison, 1, q, doc).sentence()
    # `rank -p limit=0 --query-id q14` under the second: m22 0.6, m45 0.6, then m06, m07,
    # m16, m23 and m44 all at 0.4: its tie starts at #3, where the defaults ranked it (at
    # 0.6878), and the order among the five put it past the limit of 5
    assert said.startswith("moved from 3 to past the limit of 5 (tied at 0.4 with 4 others "
                           "from #3 on; the order among them put it after #5): relevance "
                           "factor −0.288"), said
    assert "same place" not in said and "not moved" not in said
    assert not any("same place (#3)" in m for m in mover_lines(comparison, 1))


def test_a_tied_document_whose_score_held_is_cut_not_moved() -> None:
    # limit 5 → 100 only: m47 of q15 scores the same under both, #8 under limit=100 and in a
    # tie of two from #8 on under the defaults (`rank --query-id q15 -p limit=0`)
    model = get_model("importance")
    dataset = load_dataset(SAMPLES / "memories")
    configs = [Configuration("defaults", model.schema.defaults()),
               Configuration("limit=100", model.schema.resolve({"limit": 100}))]
    comparison = compare_configurations(model, dataset, configs, n_resamples=200)
    q = dataset.queries.ids.index("q15")
    doc = dataset.corpus.ids.index("m47")
    said = explain_move(comparison, 1, q, doc).sentence()
    assert said.startswith("entered at 8: its "
                           "score held (0.356), tied with 1 other from #8 on, past the limit "
                           "of 5 under defaults: cut, not moved"), said
    assert "other documents moved" not in said
