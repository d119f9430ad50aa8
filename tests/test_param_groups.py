"""Models that declare the parameter panel's groups (`param_groups`) place every live
parameter the panel groups in exactly one group, by meaning: no parameter sits loose under a
heading that is not its own (by name prefix, vault-search's Limit had sat under "Weight" and
decision-memory's important/manual/KB bonuses outside "Bonuses")."""

from __future__ import annotations

import pytest

from workbench.core.models import get_model


@pytest.mark.parametrize("model_id", ["decision-memory", "vault-search", "importance"])
def test_every_live_parameter_is_in_one_declared_group(model_id: str) -> None:
    model = get_model(model_id)
    groups = model.param_groups  # type: ignore[attr-defined]
    named = [n for _, _, names in groups for n in names]
    assert len(named) == len(set(named)), "a parameter in two groups"
    live = {p.name for p in model.schema.stage("live")} - set(model.headline)
    assert live - set(named) == set(), "live parameters in no group"
    assert set(named) - {p.name for p in model.schema} == set(), "unknown names"


def test_groups_hold_what_their_titles_say() -> None:
    groups = {k: names for k, _, names in get_model("vault-search").param_groups}  # type: ignore[attr-defined]
    assert groups["results"] == ("limit", "offset")
    assert "batch_size" in groups["early"]
    dm = {k: names for k, _, names in get_model("decision-memory").param_groups}  # type: ignore[attr-defined]
    assert {"important_injection", "manual_search", "kb_bonus"} <= set(dm["flags"])
    assert dm["locality"] == ("bonus_cwd", "bonus_scope", "bonus_project_name")
