"""A decision a gate holds at 0 under both configurations, returned by one only because its
min score of 0 keeps candidates scoring 0, is said so: not "let through" the gate, and no
signal is said to have moved (review rv3, F5)."""

from __future__ import annotations

import numpy as np

from tests.conftest import SAMPLES
from workbench.core.comparison import Configuration, compare_configurations, explain_move
from workbench.core.formats import load_dataset
from workbench.core.models import get_model


def test_a_gated_decision_kept_by_a_min_score_of_zero() -> None:
    model = get_model("decision-memory")
    dataset = load_dataset(SAMPLES / "decisions-eval")
    configs = [Configuration("defaults", model.schema.defaults()),
               Configuration("inject_min_score=0",
                             model.schema.resolve({"inject_min_score": 0}))]
    comparison = compare_configurations(model, dataset, configs, n_resamples=200)
    q = dataset.queries.ids.index("too-generic-query")
    doc = dataset.corpus.ids.index("qm-049")
    move = explain_move(comparison, 1, q, doc)
    # `explain --query-id too-generic-query -p inject_min_score=0`: qm-049 at #1, "score 0",
    # "gate: single_token_evidence", kept because the min score is 0
    assert move.sentence() == (
        "entered at 1: the single_token_evidence gate holds it at score 0 under both; "
        "inject_min_score=0 returns it only because inject_min_score 0 keeps candidates "
        "scoring 0 — inject_min_score 8 → 0")
    # both sides alike: lexical 7.39 (before the gate) against 0 had read "lexical −7.39"
    assert not np.any(move.deltas)
    assert move.total_a == move.total_b == 0
