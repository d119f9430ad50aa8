"""Parameter ranges hold every value the original systems accept (issue 14, item 6), and those
values behave there as in the original. Expected values are worked by hand from REFERENCE.md."""

from __future__ import annotations

import pytest

from tests.test_hybrid_model import PARAMS, memory_dataset
from tests.test_vault_search_model import dataset, run
from workbench.core.models import get_model
from workbench.core.params import ParamError
from workbench.core.pipeline import Pipeline


def test_combined_boost_weight_zero_switches_the_boosts_off() -> None:
    w = get_model("hybrid").schema["combined_boost_weight"]
    assert w.validate(0) == 0.0 and w.default == 15.0 and w.high == 30.0
    assert "0" in w.help and "1–30" in w.help
    pipe = Pipeline(get_model("hybrid"), memory_dataset(),
                    {**PARAMS, "combined_boost_weight": 0.0, "base_lambda": 0.0})
    scores = pipe.model.combine(pipe.prepared, pipe.params)
    contrib = scores.contributions
    # W = 0: vectorBonus = α·0·… = 0 and bm25Bonus = (1 − α)·0·… = 0, whatever matched; with
    # λ = 0 the base is the importance (0 or missing → 3; 5 floored at 5 even with no ids)
    assert (contrib[1] == 0).all() and (contrib[2] == 0).all()
    n = len(pipe.dataset.corpus)
    for qi in range(len(pipe.dataset.queries)):
        assert scores.total[qi * n:(qi + 1) * n].tolist() == [4.0, 5.0, 2.0, 3.0, 3.0, 3.0,
                                                              1.0, 3.0]


def test_vault_min_score_above_one_lets_nothing_through() -> None:
    p = get_model("vault-search").schema["min_score"]
    assert p.validate(1.5) == 1.5 and p.validate(2) == 2.0
    # "budget" alone on one line of one word: tf = ln(1 + 100)/ln(101) = 1,
    # position = e^0 = 1, density = min(1, ln(1 + 100)/ln(51)) = 1 → 0.4 + 0.3 + 0.3 = 1
    ds = dataset({"a.md": "budget", "b.md": "budget\nother words here"}, ["budget"])
    ids, vals = run(ds, {"min_score": 1.0})
    assert ids == [["a.md"]] and vals == [[1.0]]
    assert run(ds, {"min_score": 1.01})[0] == [[]]
    assert run(ds, {"min_score": 1.5})[0] == [[]]


def test_snippet_length_zero_is_accepted_as_the_original_keeps_it() -> None:
    schema = get_model("vault-search").schema
    assert schema["max_snippet_length"].validate(0) == 0
    assert schema["max_snippet_length"].tunable is False


def test_decision_memory_min_scores_reach_zero_and_past_the_old_cap() -> None:
    schema = get_model("decision-memory").schema
    for name, default in (("inject_min_score", 8.0), ("search_min_score", 1.0)):
        p = schema[name]
        assert p.default == default and p.validate(0) == 0.0 and p.validate(500) == 500.0
        assert "negative" in p.help
        with pytest.raises(ParamError, match=name):
            p.validate(-1)
    assert not schema["search_snippet_chars"].tunable
    assert not schema["inject_snippet_chars"].tunable
