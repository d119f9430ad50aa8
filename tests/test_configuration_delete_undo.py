"""Deleting a configuration is an undo step (review rv4 K): Undo puts it back where it was,
with its tuning record, pinned again where it was the baseline; Redo deletes it again."""

from __future__ import annotations

from tests.conftest import SAMPLES
from workbench.core.session import TuningSession
from workbench.core.tuned_on import TunedOn

RECORD = TunedOn("tea-beir", "3-fold over 13 queries (seed 0)", ("q01", "q02"), "ndcg@10")


def _session() -> TuningSession:
    s = TuningSession()
    s.open(SAMPLES / "tea-beir")
    s.set_model("bm25")
    s.set_param("k1", 1.9)
    s.recompute()
    s.pin_baseline()  # the configuration "baseline", pinned
    s.configurations.save("tuned", "bm25", {"k1": 1.6}, tuned_on=RECORD)
    s.configurations.save("other", "bm25", {"b": 0.5})
    return s


def test_undo_puts_a_deleted_baseline_back_pinned_and_redo_deletes_it_again() -> None:
    s = _session()
    pinned = s.baseline
    assert pinned is not None
    s.remove_configuration("baseline")
    assert s.configurations.names == ["tuned", "other"] and s.baseline is None
    assert s.can_undo and s.undo_name == "delete \u201cbaseline\u201d"
    s.undo()
    assert s.configurations.names == ["baseline", "tuned", "other"]  # in its place
    # pinned again, its result the one pinned (nothing computed again)
    assert s.baseline is not None and s.baseline.name == "baseline"
    assert s.baseline.result is pinned.result
    assert s.params["k1"] == 1.9  # the values' steps untouched
    assert s.redo_name == "delete \u201cbaseline\u201d"
    s.redo()
    assert s.configurations.names == ["tuned", "other"] and s.baseline is None
    s.undo()
    assert s.baseline is not None and s.baseline.result is pinned.result


def test_a_tuned_configuration_comes_back_with_its_record() -> None:
    s = _session()
    before = s.configurations.get("tuned")
    s.remove_configuration("tuned")
    s.undo()
    assert s.configurations.get("tuned") == before
    assert s.configurations.get("tuned").tuned_on == RECORD
    assert s.configurations.get("tuned").dataset == "tea-beir"


def test_deleting_is_one_step_among_the_values_steps() -> None:
    s = _session()
    s.set_param("b", 0.4)
    s.undo()  # b back to its default: a redo step waits
    assert s.can_redo
    s.remove_configuration("other")
    assert not s.can_redo  # a new step ends the redo list, as a value change does
    s.set_param("b", 0.6)
    s.undo()
    assert s.params["b"] == 0.75 and "other" not in s.configurations
    s.undo()
    assert "other" in s.configurations and s.params["k1"] == 1.9


def test_a_name_taken_since_puts_it_back_under_a_free_one() -> None:
    s = _session()
    s.remove_configuration("other")
    s.configurations.save("other", "bm25", {"b": 0.2})
    s.undo()
    assert s.configurations.names == ["baseline", "tuned", "other (2)", "other"]
    assert s.configurations.get("other (2)").params["b"] == 0.5
    assert s.configurations.get("other").params["b"] == 0.2
    assert s.redo_name == "delete \u201cother (2)\u201d"


def test_a_baseline_deleted_then_k_changed_comes_back_at_the_new_k() -> None:
    s = _session()
    s.remove_configuration("baseline")
    s.set_k(5)
    s.undo()
    assert s.baseline is not None and s.baseline.name == "baseline"
    assert "ndcg@5" in s.baseline.result.per_query
