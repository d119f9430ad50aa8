"""Every gate a model declares has a short label beside it (`Model.gate_labels`), for the
ranked table's gate column where the gate's words do not fit (rv2 dr2 4)."""

from __future__ import annotations

from workbench.core.models import get_model

MODELS = ("decision-memory", "importance", "codeledger", "vault-search")


def test_every_gate_has_a_short_label() -> None:
    for name in MODELS:
        model = get_model(name)
        assert model.gates, name
        assert set(model.gate_labels) == set(model.gates), name
        for gate, label in model.gate_labels.items():
            assert 0 < len(label) <= 11 and "…" not in label, (name, gate, label)


def test_the_labels_are_the_ones_chosen() -> None:
    labels = get_model("decision-memory").gate_labels
    assert labels["single_token_evidence"] == "one word"
    assert labels["not_in_project"] == "off-project"
    assert labels["operational_title"] == "ops title"
    # too few meaningful matches for a long query, not the query's length (rv2 dr5 5: "long
    # query" read as a property of the query); "long, weak" elided to "long,…" (r51 dr3 10)
    assert labels["long_prompt_evidence"] == "few hits"
