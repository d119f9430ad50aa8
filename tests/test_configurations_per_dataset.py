"""A configuration remembers the dataset it was made on (the session file keeps it); a baseline
pinned on a second dataset is named for it, not "baseline (2)"; a dataset left for another and
opened again comes back with its model, values, undo steps and baseline (review F9, F2)."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import SAMPLES
from workbench.core.data import Corpus, Dataset, Document, Query, QuerySet
from workbench.core.models import get_model
from workbench.core.session import TuningSession


def _tiny(name: str) -> Dataset:
    """Two documents and one query judged on the first, named `name`."""
    corpus = Corpus([Document("d1", "green tea", "green tea leaves"),
                     Document("d2", "coffee", "dark roast coffee")], name=name)
    return Dataset(name, corpus, QuerySet([Query("q1", "green tea")], name=name),
                   {"q1": {"d1": 1}})


def _opened(s: TuningSession, name: str, model: str = "bm25") -> None:
    s.leave_dataset()
    s.set_model(model)
    s.set_dataset(_tiny(name), f"/data/{name}")
    s.recompute()


def test_a_configuration_says_which_dataset_it_was_made_on(tmp_path: Path) -> None:
    s = TuningSession()
    _opened(s, "vault")
    s.pin_baseline()
    s.save_configuration("mine")
    _opened(s, "tea")
    s.set_param("k1", 0.5)
    s.recompute()
    s.pin_baseline()  # "baseline" is vault's: this one is named for tea, not "baseline (2)"
    assert [(c.name, c.dataset) for c in s.configurations] == [
        ("baseline", "vault"), ("mine", "vault"), ("baseline for tea", "tea")]
    assert s.baseline is not None and s.baseline.name == "baseline for tea"
    assert [s.configurations.on_dataset(c) for c in s.configurations] == [False, False, True]
    s.set_param("k1", 0.6)
    s.recompute()
    s.pin_baseline()  # a second pin on the same dataset: numbered, as before
    assert s.configurations.names[-1] == "baseline for tea (2)"
    s.rename_configuration("mine", "vault's own")  # a rename keeps where it was made
    assert s.configurations.get("vault's own").dataset == "vault"


def test_the_session_file_keeps_each_configurations_dataset(tmp_path: Path) -> None:
    s = TuningSession()
    s.open(SAMPLES / "vault")
    s.set_model("vault-search")
    s.save_configuration("on vault")
    s.leave_dataset()
    s.set_model("bm25")
    s.open(SAMPLES / "tea-beir")
    s.save_configuration("on tea")
    path = tmp_path / "s.json"
    s.save(path)
    t = TuningSession()
    t.load(path)
    assert [(c.name, c.dataset) for c in t.configurations] == [
        ("on vault", "vault"), ("on tea", "tea-beir")]


def test_a_dataset_opened_again_comes_back_as_it_was_left() -> None:
    s = TuningSession()
    _opened(s, "a")
    s.set_param("k1", 2.0)
    s.set_param("b", 0.4)
    s.recompute()
    s.pin_baseline()
    s.set_param("k1", 1.0)
    _opened(s, "b", model="vault-search")  # another dataset, another model
    assert s.baseline is None and not s.can_undo
    s.leave_dataset()
    s.set_dataset(_tiny("a"), "/data/a", resume=True)
    assert s.resumed and s.model is not None and s.model.id == "bm25"
    assert (s.params["k1"], s.params["b"]) == (1.0, 0.4)
    assert s.baseline_to_restore() == "baseline"
    s.recompute()
    assert s.baseline is not None and s.baseline.name == "baseline"
    assert s.baseline.params["k1"] == 2.0
    s.undo()  # the undo steps came back too
    assert s.params["k1"] == 2.0
    s.undo()  # b's step, before k1's
    assert (s.params["k1"], s.params["b"]) == (2.0, get_model("bm25").schema["b"].default)


def test_a_dataset_opened_anew_forgets_what_it_was_left_with() -> None:
    s = TuningSession()
    _opened(s, "a")
    s.set_param("k1", 2.0)
    _opened(s, "b")
    _opened(s, "a")  # not resumed: at the model's defaults, and the visit is gone
    assert not s.resumed and s.params["k1"] != 2.0 and not s.visited("/data/a")
