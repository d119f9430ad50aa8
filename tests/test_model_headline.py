"""Each model names its headline parameters: live ones of its own schema, none twice."""

from __future__ import annotations

import pytest

from workbench.core.models import get_model, model_ids


@pytest.mark.parametrize("model_id", model_ids())
def test_headline_names_are_live_parameters_of_the_model(model_id: str) -> None:
    model = get_model(model_id)
    assert model.headline, f"{model_id} names no headline parameters"
    assert len(set(model.headline)) == len(model.headline)
    for name in model.headline:
        assert name in model.schema, name
        assert model.schema[name].stage == "live", name


def test_the_headlines_the_users_come_for() -> None:
    assert get_model("hybrid").headline == ("alpha", "combined_boost_weight")
    assert get_model("decision-memory").headline == ("inject_min_score", "inject_limit")
    assert get_model("vault-search").headline == ("min_score",)
    assert get_model("bm25").headline == ("k1", "b")
    assert get_model("dense").headline == ("min_similarity",)
    from workbench.core.models.codeledger.params import SIGNAL_NAMES

    for model in ("codeledger", "codeledger-document"):  # one weight per signal
        weights = get_model(model).headline
        assert len(weights) == len(SIGNAL_NAMES) == 16
        assert "w_similar" in weights
        assert all(n.startswith("w_") for n in weights)
