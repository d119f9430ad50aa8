"""Named configurations in the session: save, rename, delete, switch the sliders to one, the
baseline as one of them; round trips through the session file (version 2, and version 1's
unnamed baseline) and params TOML; a bad field loads nothing."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from tests.conftest import SAMPLES
from workbench.core.comparison import configuration_file
from workbench.core.configurations import (
    SavedConfiguration,
    configuration_toml,
    read_configuration_toml,
    write_configuration_toml,
)
from workbench.core.data import FormatError
from workbench.core.models import get_model
from workbench.core.params import ParamError, load_params_file
from workbench.core.pipeline import Pipeline
from workbench.core.session import TuningSession


def _session() -> TuningSession:
    s = TuningSession()
    s.open(SAMPLES / "tea-beir")
    s.set_model("bm25")
    s.recompute()
    return s


def test_save_rename_delete_and_switch() -> None:
    s = _session()
    seen: list[int] = []
    s.configurations.changed.connect(lambda: seen.append(len(s.configurations)))
    s.save_configuration("defaults")
    s.set_params({"k1": 0.5, "b": 0.3})
    s.save_configuration("  low   k1 ")  # spaces trimmed and collapsed
    assert s.configurations.names == ["defaults", "low k1"] and seen == [1, 2]
    with pytest.raises(ValueError, match="exists already"):
        s.save_configuration("defaults")
    with pytest.raises(ValueError, match="needs a name"):
        s.save_configuration("  ")
    s.apply_configuration("defaults")
    assert s.params == get_model("bm25").schema.defaults()
    s.undo()  # switching is one undoable step
    assert (s.params["k1"], s.params["b"]) == (0.5, 0.3)
    s.rename_configuration("low k1", "alpha")
    assert s.configurations.names == ["defaults", "alpha"]
    with pytest.raises(ValueError, match="exists already"):
        s.rename_configuration("alpha", "defaults")
    s.remove_configuration("defaults")
    assert s.configurations.names == ["alpha"]
    with pytest.raises(KeyError):
        s.apply_configuration("defaults")
    s.set_params({"k1": 2.0})
    s.save_configuration("alpha", replace=True)
    assert s.configurations.get("alpha").params["k1"] == 2.0


def test_switching_to_another_models_configuration_switches_the_model() -> None:
    s = _session()
    s.configurations.save("tf-idf-ish", "bm25", {"k1": 3.0})
    s.set_model("dense")
    s.apply_configuration("tf-idf-ish")
    assert s.model is not None and s.model.id == "bm25" and s.params["k1"] == 3.0


def test_another_models_configuration_is_one_step_back_to_the_model_the_user_was_on() -> None:
    # Undo had gone to the values bm25 was left with, and then to bm25's older steps: the
    # user never got back to dense (review rv4 H)
    s = _session()
    s.configurations.save("saved", "bm25", {"k1": 3.0, "b": 0.5})
    s.set_model("bm25")
    s.set_params({"b": 0.6})
    s.set_params({"k1": 1.8})
    s.set_model("dense")
    s.set_params({"min_similarity": 0.1})
    s.apply_configuration("saved")
    assert s.model is not None and s.model.id == "bm25"
    assert (s.params["k1"], s.params["b"]) == (3.0, 0.5)
    assert s.undo_name == "switch to \u201csaved\u201d"
    s.undo()  # back to dense, as it was
    assert s.model.id == "dense" and s.params["min_similarity"] == 0.1
    assert s.can_redo and s.redo_name == "switch to \u201csaved\u201d"
    s.undo()  # … and dense's own step before
    assert s.params["min_similarity"] == get_model("dense").schema.defaults()["min_similarity"]
    s.redo()
    s.redo()
    assert s.model.id == "bm25" and (s.params["k1"], s.params["b"]) == (3.0, 0.5)
    s.undo()
    assert s.model.id == "dense"
    s.set_model("bm25")  # what bm25 was left with before the switch, its steps too
    assert (s.params["k1"], s.params["b"]) == (1.8, 0.6)
    s.undo()
    assert (s.params["k1"], s.params["b"]) == (1.2, 0.6)


def test_switching_to_a_configuration_equal_to_what_its_model_was_left_with_is_a_step() -> None:
    # the step was not recorded where the values were already those: Ctrl+Z took an older
    # one of that model, and Undo went grey (review rv4 H)
    s = _session()
    s.configurations.save("vs", "vault-search", {"w_tf": 0.9})
    s.set_model("vault-search")
    s.set_params({"w_tf": 0.9})
    s.set_model("bm25")
    s.set_params({"k1": 1.6})
    s.apply_configuration("vs")
    assert s.model is not None and s.model.id == "vault-search" and s.params["w_tf"] == 0.9
    s.undo()
    assert s.model.id == "bm25" and s.params["k1"] == 1.6 and s.can_undo
    # a model never opened on this dataset: there and back
    s.configurations.save("dense saved", "dense", {"min_similarity": 0.2})
    s.apply_configuration("dense saved")
    assert s.params["min_similarity"] == 0.2 and s.can_undo
    s.undo()
    assert s.model.id == "bm25" and s.params["k1"] == 1.6
    s.set_model("dense")  # never left with values: its defaults
    assert s.params == get_model("dense").schema.defaults()


def test_the_baseline_is_a_configuration() -> None:
    s = _session()
    s.pin_baseline()
    assert s.baseline is not None and s.baseline.name == "baseline"
    assert s.configurations.names == ["baseline"]
    s.pin_baseline()  # the same values again: the same configuration, none added
    assert s.configurations.names == ["baseline"]
    s.set_params({"k1": 0.6})
    s.recompute()
    s.pin_baseline()
    assert s.configurations.names == ["baseline", "baseline (2)"]
    assert s.baseline.name == "baseline (2)"
    s.rename_configuration("baseline (2)", "k1 0.6")
    assert s.baseline is not None and s.baseline.name == "k1 0.6"
    s.set_baseline("baseline")
    assert s.baseline.params["k1"] == 1.2
    assert [c.name for c in s.comparable()] == ["baseline", "k1 0.6"]
    s.set_baseline("k1 0.6")
    assert [c.name for c in s.comparable()] == ["k1 0.6", "baseline"]
    s.remove_configuration("k1 0.6")
    assert s.baseline is None and s.configurations.names == ["baseline"]


def test_a_baseline_that_needs_its_own_prepare_equals_a_separate_run() -> None:
    s = _session()
    s.configurations.save("no stemming", "bm25", {"stemmer": "none", "k1": 0.9})
    s.set_baseline("no stemming")
    alone = Pipeline(get_model("bm25"), s.dataset, {"stemmer": "none", "k1": 0.9})
    expected = alone.run(s.metric_names, depth=s.depth)
    assert s.baseline is not None
    for metric in s.metric_names:
        assert np.array_equal(s.baseline.result.per_query[metric],
                              expected.per_query[metric], equal_nan=True)
    assert s.params["stemmer"] != "none"  # the live sliders are untouched


def test_session_file_round_trip(tmp_path: Path) -> None:
    s = _session()
    s.save_configuration("defaults")
    s.set_params({"k1": 0.7, "variant": get_model("bm25").schema["variant"].default})
    s.recompute()
    s.pin_baseline()
    s.rename_configuration("baseline", "k1 0.7")
    s.configurations.save("short docs", "bm25", {"b": 0.2})
    s.configurations.save("vault", "vault-search", {"min_score": 0.1})
    path = tmp_path / "session.json"
    s.save(path)
    data = json.loads(path.read_text())
    assert data["version"] == 2 and data["baseline"] == "k1 0.7"
    assert data["configurations"][1] == {"name": "k1 0.7", "model": "bm25",
                                         "params": {"k1": 0.7}, "dataset": "tea-beir"}
    t = TuningSession()
    t.load(path)
    assert list(t.configurations) == list(s.configurations)
    assert t.baseline is not None and t.baseline.name == "k1 0.7"
    assert t.baseline.result.means == s.baseline.result.means  # type: ignore[union-attr]


def test_version_1_baseline_becomes_a_configuration(tmp_path: Path) -> None:
    path = tmp_path / "old.json"
    path.write_text(json.dumps({"version": 1, "dataset": str(SAMPLES / "tea-beir"),
                                "model": "bm25", "params": {}, "k": 10, "query": None,
                                "baseline": {"model": "bm25", "params": {"k1": 1.5}}}))
    s = TuningSession()
    s.load(path)
    assert s.configurations.names == ["baseline"]
    assert s.baseline is not None and s.baseline.params["k1"] == 1.5


BAD = [
    ("configurations", {"a": 1}, "configurations"),
    ("configurations", [3], "configurations[0]"),
    ("configurations", [{"name": "", "model": "bm25"}], "configurations[0].name"),
    ("configurations", [{"name": "a", "model": "nope"}], "configurations[0].model"),
    ("configurations", [{"name": "a", "model": "bm25", "params": {"k1": -3}}],
     "configurations[0].params.k1"),
    ("configurations", [{"name": "a", "model": "bm25"}, {"name": "a", "model": "bm25"}],
     "configurations[1].name"),
    ("baseline", "missing", "baseline"),
    ("baseline", {"model": "bm25"}, "baseline"),
]


@pytest.mark.parametrize(("key", "value", "field"), BAD, ids=[f for _, _, f in BAD])
def test_a_bad_configuration_field_loads_nothing(tmp_path: Path, key: str, value: object,
                                                 field: str) -> None:
    s = _session()
    s.save_configuration("mine")
    before = (list(s.configurations), s.baseline, dict(s.params))
    data = {"version": 2, "dataset": str(SAMPLES / "tea-beir"), "model": "bm25",
            "params": {"k1": 0.8}, "configurations": [{"name": "a", "model": "bm25"}],
            "baseline": "a", "query": None, "k": 10}
    data[key] = value
    path = tmp_path / "s.json"
    path.write_text(json.dumps(data))
    with pytest.raises(FormatError, match=re.escape(f"field '{field}'")):
        s.load(path)
    assert (list(s.configurations), s.baseline, dict(s.params)) == before


def test_params_toml_round_trip(tmp_path: Path) -> None:
    saved = SavedConfiguration("tuned on train", "bm25",
                               get_model("bm25").schema.resolve({"k1": 0.9, "b": 0.35,
                                                                 "stemmer": "none"}))
    path = tmp_path / "tuned.toml"
    write_configuration_toml(saved, path)
    text = path.read_text()
    assert text == configuration_toml(saved) and "tuned on train" in text
    assert load_params_file(path) == {"k1": 0.9, "b": 0.35, "stemmer": "none"}
    back = read_configuration_toml(path, "bm25", name="tuned on train")
    assert back == saved
    # what `workbench compare --config` reads is the same configuration
    assert configuration_file(get_model("bm25"), path).params == saved.params
    assert read_configuration_toml(path, "bm25").name == "tuned"
    (tmp_path / "bad.toml").write_text("[params]\nk1 = -2\n")
    with pytest.raises(ParamError, match=r"bad\.toml"):
        read_configuration_toml(tmp_path / "bad.toml", "bm25")


def test_the_command_a_params_file_names_runs(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    # its comment said `workbench -m bm25 -p THIS_FILE`; -p takes name=value and refused it
    from workbench.cli import main

    saved = SavedConfiguration("k1", "bm25", get_model("bm25").schema.resolve({"k1": 0.9}))
    path = tmp_path / "k1.toml"
    write_configuration_toml(saved, path)
    said = next(line for line in path.read_text().splitlines() if "THIS_FILE" in line)
    command = said.split("(workbench ", 1)[1].rstrip(")")
    args = command.replace("THIS_FILE", str(path)).replace(
        "DATA", str(SAMPLES / "tea-beir")).split()
    assert main(args) == 0  # as written, DATA and THIS_FILE filled in
    assert "k1" in capsys.readouterr().out
