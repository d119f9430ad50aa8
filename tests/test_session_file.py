"""Session files and workbench.toml load whole or not at all: every bad field is one
FormatError naming it, and the session keeps everything it had."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import SAMPLES
from workbench.core.data import FormatError
from workbench.core.session import TuningSession
from workbench.core.session_file import read_sample_settings
from workbench.core.tuned_on import TunedOn


def _good(tmp_path: Path) -> dict[str, Any]:
    return {"version": 1, "dataset": str(SAMPLES / "tea-beir"), "model": "bm25",
            "params": {"k1": 0.8}, "baseline": {"model": "bm25", "params": {"k1": 1.5}},
            "query": "q03", "k": 5, "study_storage": str(tmp_path / "studies.db")}


BAD_FIELDS = [
    ("k", 0, "k"), ("k", 5000, "k"), ("k", "5", "k"), ("k", True, "k"), ("k", 2.5, "k"),
    ("model", "no-such-model", "model"), ("model", 3, "model"),
    ("params", {"k1": 99}, "params.k1"), ("params", [1, 2], "params"),
    ("params", {"nosuch": 1}, "params.nosuch"), ("params", "k1=1", "params"),
    ("params", {"k1": "1.2"}, "params.k1"),  # text for a number: loaded as 1.2, as if typed
    ("params", {"k1": 1.0, "K1": 2.0}, "params.K1"),  # one parameter twice, in two cases
    ("baseline", "bm25", "baseline"), ("baseline", [1], "baseline"),
    ("baseline", {"model": "nope"}, "baseline.model"),
    ("baseline", {"model": "bm25", "params": {"b": -1}}, "baseline.params.b"),
    ("baseline", {"model": "bm25", "params": [0.5]}, "baseline.params"),
    ("query", 7, "query"), ("dataset", ["a"], "dataset"), ("dataset", "", "dataset"),
    ("study_storage", 3, "study_storage"), ("study_storage", None, "study_storage"),
    ("queries", 5, "queries"), ("queries", "", "queries"), ("qrels", ["q"], "qrels"),
    ("tuned_on", [1], "tuned_on"), ("tuned_on", {"trained_on": "q01"}, "tuned_on"),
    ("tuned_on", {"trained_on": [], "held_out_p": "low"}, "tuned_on"),
    ("typed", {"id": "typed-1"}, "typed"), ("typed", ["tea"], "typed[0]"),
    ("typed", [{"id": "typed-1", "text": ""}], "typed[0].text"),
    ("typed", [{"id": 3, "text": "tea"}], "typed[0].id"),
    ("typed", [{"id": "t", "text": "tea", "context": []}], "typed[0].context"),
    ("basline", None, "basline"),  # misspelled: loaded with no baseline, nothing said
    ("relative", {"dataset": "../tea"}, "relative.dataset"),
    ("relative", {"corpus": "tea"}, "relative.corpus"), ("relative", "tea", "relative"),
    ("view", "Movers", "view"), ("view", {"chart": 3}, "view.chart"),
    ("view", {"filter": ["tea"]}, "view.filter"),
]


@pytest.mark.parametrize(("key", "value", "field"), BAD_FIELDS,
                         ids=[f"{k}={v!r}" for k, v, _ in BAD_FIELDS])
def test_a_bad_field_changes_nothing(tmp_path: Path, key: str, value: object,
                                     field: str) -> None:
    s = TuningSession()
    s.open(SAMPLES / "vault")
    s.set_model("vault-search", {"min_score": 0.2})
    s.recompute()
    s.pin_baseline()
    before = (s.dataset, s.model, dict(s.params), s.baseline, s.k, s.query, s.result)
    data = _good(tmp_path)
    data[key] = value
    path = tmp_path / "s.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(FormatError, match=re.escape(f"field '{field}'")):
        s.load(path)
    assert (s.dataset, s.model, dict(s.params), s.baseline, s.k, s.query, s.result) == before


def test_an_encoder_not_installed_is_refused_before_anything_changes(tmp_path: Path) -> None:
    # it loaded, switched dataset and model, and failed only at the next recompute
    s = TuningSession()
    s.open(SAMPLES / "vault")
    s.set_model("vault-search", {"min_score": 0.2})
    before = (s.dataset, s.model, dict(s.params))
    data = {**_good(tmp_path), "model": "dense", "params": {"embedding_model": "nosuch"},
            "baseline": None}
    path = tmp_path / "s.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(FormatError, match=r"field 'params.embedding_model': .*nosuch"):
        s.load(path)
    assert (s.dataset, s.model, dict(s.params)) == before


def test_a_dataset_that_fails_to_load_changes_nothing(tmp_path: Path) -> None:
    s = TuningSession()
    s.open(SAMPLES / "vault")
    s.set_model("vault-search")
    model = s.model
    data = _good(tmp_path) | {"dataset": str(tmp_path / "missing")}
    path = tmp_path / "s.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(FormatError):
        s.load(path)
    assert s.model is model and s.dataset is not None and s.dataset.name == "vault"


def test_a_query_file_that_is_gone_changes_nothing(tmp_path: Path) -> None:
    """The query file a session was saved with is read again; gone, it is one error naming
    it, and the session keeps what it had."""
    s = TuningSession()
    s.open(SAMPLES / "vault")
    before = s.dataset
    path = tmp_path / "s.json"
    path.write_text(json.dumps(_good(tmp_path) | {"queries": str(tmp_path / "gone.jsonl")}),
                    encoding="utf-8")
    with pytest.raises(FormatError, match=r"gone\.jsonl: no such file"):
        s.load(path)
    assert s.dataset is before and s.queries_file is None


def test_a_good_file_loads_every_field(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    path.write_text(json.dumps(_good(tmp_path)), encoding="utf-8")
    s = TuningSession()
    s.load(path)
    assert s.model is not None and s.model.id == "bm25" and s.params["k1"] == 0.8
    assert s.k == 5 and s.dataset is not None and s.dataset.queries[s.query].id == "q03"
    assert s.baseline is not None and s.baseline.params["k1"] == 1.5
    assert s.study_storage == str(tmp_path / "studies.db")
    again = tmp_path / "again.json"
    s.save(again)  # the study's storage survives a save and a load
    other = TuningSession()
    other.load(again)
    assert other.study_storage == str(tmp_path / "studies.db")


def test_parameter_names_are_read_in_any_case_as_p_reads_them(tmp_path: Path) -> None:
    """dr8 1: a session's "K1" was refused ('unknown parameter') where -p K1 and a [params]
    file's K1 are read as k1."""
    data = _good(tmp_path)
    data["params"] = {"K1": 1.6, "B": 0.4}
    data["baseline"] = {"model": "bm25", "params": {"K1": 1.5}}
    path = tmp_path / "s.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    s = TuningSession()
    s.load(path)
    assert (s.params["k1"], s.params["b"]) == (1.6, 0.4) and "K1" not in s.params
    assert s.baseline is not None and s.baseline.params["k1"] == 1.5


def test_a_file_from_a_newer_workbench_says_so(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    path.write_text(json.dumps({**_good(tmp_path), "version": 3}), encoding="utf-8")
    with pytest.raises(FormatError, match="version 3, written by a newer Scoring Workbench: "
                                          "this one reads versions 1 and 2") as err:
        TuningSession().load(path)
    assert err.value.field == "version"
    path.write_text(json.dumps({**_good(tmp_path), "version": "two"}), encoding="utf-8")
    with pytest.raises(FormatError, match="expected a session file of version 1 or 2"):
        TuningSession().load(path)


def test_a_relative_dataset_is_read_beside_the_session_file(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch
                                                             ) -> None:
    # moved with its data, or written by hand: "tea-beir" was looked for in the current folder
    import shutil

    shutil.copytree(SAMPLES / "tea-beir", tmp_path / "data" / "tea")
    path = tmp_path / "data" / "s.json"
    path.write_text(json.dumps({**_good(tmp_path), "dataset": "tea"}), encoding="utf-8")
    monkeypatch.chdir(SAMPLES)  # a folder with no "tea" in it
    s = TuningSession()
    s.load(path)
    assert s.dataset is not None and s.source == str(tmp_path / "data" / "tea")
    # its queries too, beside it, though a file of that name is in the current folder
    (tmp_path / "data" / "q.jsonl").write_text(
        (SAMPLES / "tea-beir" / "queries.jsonl").read_text().splitlines()[0] + "\n")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "q.jsonl").write_text("not a query file\n")
    path.write_text(json.dumps({**_good(tmp_path), "dataset": "tea", "queries": "q.jsonl",
                                "query": None}), encoding="utf-8")
    s.load(path)
    assert s.queries_file == str(tmp_path / "data" / "q.jsonl") and len(s.dataset.queries) == 1
    # a study storage in the home folder stays there
    path.write_text(json.dumps({**_good(tmp_path), "dataset": "tea",
                                "study_storage": "~/studies.db"}), encoding="utf-8")
    s.load(path)
    assert s.study_storage == "~/studies.db"
    # another user's home that does not exist: kept as written, no error on reading
    path.write_text(json.dumps({**_good(tmp_path), "dataset": "tea",
                                "study_storage": "~nosuchuser9/studies.db"}), encoding="utf-8")
    s.load(path)
    assert s.study_storage == "~nosuchuser9/studies.db"
    monkeypatch.chdir(SAMPLES)
    # one saved as it was opened, relative to the folder the window ran in, still reads
    path.write_text(json.dumps({**_good(tmp_path), "dataset": "tea-beir"}), encoding="utf-8")
    s.load(path)
    assert s.source == "tea-beir" and len(s.dataset.queries) > 0


# (text, field, the line the error names: each value on its own, by the file's text)
BAD_TOML = [
    ("params = [1, 2]\nmodel = \"bm25\"\n", "params", ":1"),
    ("model = \"bm25\"\nparams = 3\n", "params", ":2"),
    ("model = \"bm25\"\n[params]\nk1 = 99\n", "params.k1", ":3"),
    ("model = \"bm25\"\n[params]\nnosuch = 1\n", "params.nosuch", ":3"),
    ("[params]\nk1 = 1.0\n", "params", ":1"),
    ("model = \"nope\"\n", "model", ":1"),
    ("model = 5\n", "model", ":1"),
    ("model = \"bm25\"\nexample_query = 3\n", "example_query", ":2"),
    ("data = [\"x\"]\n", "data", ":1"),
]


@pytest.mark.parametrize(("text", "field", "line"), BAD_TOML, ids=[f for _, f, _ in BAD_TOML])
def test_a_bad_workbench_toml_is_one_error(tmp_path: Path, text: str, field: str,
                                           line: str) -> None:
    (tmp_path / "workbench.toml").write_text(text, encoding="utf-8")
    with pytest.raises(FormatError, match=re.escape(f"workbench.toml{line}: field '{field}'")):
        read_sample_settings(tmp_path)


def test_another_tools_workbench_toml_is_ignored(tmp_path: Path) -> None:
    """A project's own workbench.toml (none of our keys) opens the folder as if it were not
    there, without a word; the folder is not refused (F1)."""
    (tmp_path / "workbench.toml").write_text('[project]\nname = "my tea search"\n',
                                             encoding="utf-8")
    skipped: list[FormatError] = []
    assert read_sample_settings(tmp_path, skipped) == {}
    assert skipped == []


def test_keys_not_ours_beside_ours_are_a_warning(tmp_path: Path) -> None:
    """Our keys are read, the others ignored with one warning naming them (F1)."""
    (tmp_path / "workbench.toml").write_text('model = "bm25"\n[extra]\nx = 1\n',
                                             encoding="utf-8")
    skipped: list[FormatError] = []
    assert read_sample_settings(tmp_path, skipped) == {"model": "bm25"}
    assert [str(e) for e in skipped] == [
        f"{tmp_path / 'workbench.toml'}: field 'extra': unknown key(s) 'extra' ignored "
        "(ours: model, params, example_query, data)"]


def test_a_foreign_file_with_a_value_we_cannot_use_is_ignored(tmp_path: Path) -> None:
    """`model = "gpt-4o"` beside a table of another tool's: not our model id, and not our
    file: the whole file ignored with a warning, not the folder refused (F1)."""
    (tmp_path / "workbench.toml").write_text('model = "gpt-4o"\n[project]\nname = "x"\n',
                                             encoding="utf-8")
    skipped: list[FormatError] = []
    assert read_sample_settings(tmp_path, skipped) == {}
    assert len(skipped) == 1 and skipped[0].field == "model"
    assert "ignored, with the whole file (keys 'project' are not ours" in str(skipped[0])


@pytest.mark.parametrize(("text", "line", "said"), [
    ('model = "bm25"\nexample_query = \n', 2, "not valid TOML: Invalid value (column 17)"),
    ('model = "bm25', 1, "not valid TOML: Unterminated string (the file ends there: cut off?)"),
])
def test_toml_that_does_not_parse_names_its_line(tmp_path: Path, text: str, line: int,
                                                 said: str) -> None:
    """file:LINE: field 'toml': …, as the other readers say it (F5), not tomllib's text in
    brackets."""
    (tmp_path / "workbench.toml").write_text(text, encoding="utf-8")
    with pytest.raises(FormatError) as err:
        read_sample_settings(tmp_path)
    assert str(err.value) == f"{tmp_path / 'workbench.toml'}:{line}: field 'toml': {said}"


def test_a_workbench_toml_not_utf8_is_said_as_the_readers_say_it(tmp_path: Path) -> None:
    (tmp_path / "workbench.toml").write_bytes(b'model = "bm25"\nexample_query = "caf\xe9"\n')
    with pytest.raises(FormatError) as err:
        read_sample_settings(tmp_path)
    assert str(err.value) == (f"{tmp_path / 'workbench.toml'}:2: field 'encoding': not UTF-8 "
                              "text (byte 0xe9 at offset 35)")  # 15 + 20 bytes before it


def test_a_session_file_that_does_not_read_is_said_as_the_readers_say_it(
        tmp_path: Path) -> None:
    """file:LINE and plain words, not Python's exception text in brackets (reviewer d, F5)."""
    from workbench.core.session_file import read_session_file

    cut = tmp_path / "cut.json"
    cut.write_text('{\n  "version": 2,\n  "dataset": "/da', encoding="utf-8")
    latin = tmp_path / "latin.json"
    latin.write_bytes(b'{\n  "version": 2,\n  "model": "caf\xe9"}\n')
    empty = tmp_path / "empty.json"
    empty.write_text("\n", encoding="utf-8")
    said = {}
    for path in (cut, latin, empty, tmp_path):
        with pytest.raises(FormatError) as err:
            read_session_file(path)
        said[path] = str(err.value)
    assert said == {
        cut: f"{cut}:3: invalid JSON at column 14: Unterminated string starting at column 14",
        # 2 + 16 + 15 bytes before it
        latin: f"{latin}:3: field 'encoding': not UTF-8 text (byte 0xe9 at offset 33)",
        empty: f"{empty}: an empty file, not a session file",
        tmp_path: f"{tmp_path}: expected a file, found a folder",
    }


def test_the_bundled_samples_settings_are_valid() -> None:
    for folder in SAMPLES.iterdir():
        if (folder / "workbench.toml").exists():
            assert read_sample_settings(folder).get("model")


def test_the_live_values_keep_what_they_were_tuned_on(tmp_path: Path) -> None:
    """Saved with tuned live values, a session reopens with the record, so the metric strip
    still sets their training queries aside."""
    s = TuningSession()
    s.open(SAMPLES / "tea-beir")
    s.set_model("bm25")
    note = TunedOn("tea-beir", "3-fold over 25 queries (seed 0)", ("q01", "q02"), "ndcg@10",
                   0.61, 0.62, 0.4, 25)
    s.set_params({"k1": 0.7}, tuned_on=note)
    path = tmp_path / "s.json"
    s.save(path)
    again = TuningSession()
    again.load(path)
    assert again.params["k1"] == 0.7 and again.tuned_on == note
    assert again.held_out().set_aside == 2
    s.set_params({"k1": 0.7}, tuned_on=None)  # the same values, no longer tuned: saved so
    s.save(path)
    again.load(path)
    assert again.tuned_on is None


def test_numbers_too_large_and_nesting_too_deep_are_refused(tmp_path: Path) -> None:
    """A 400-digit parameter, held_out_queries 1e400 and 100,000 nested brackets: one
    FormatError naming the file (they escaped as OverflowError and RecursionError)."""
    import json as _json

    from workbench.core.data import FormatError
    from workbench.core.session_file import read_session_file

    base = {"version": 2, "dataset": str(tmp_path), "model": "bm25"}
    cases = {
        "big.json": (_json.dumps({**base, "params": {"k1": 10 ** 400}}),
                     "field 'params.k1': must be a number"),
        "inf.json": (_json.dumps({**base, "tuned_on": {"trained_on": [], "held_out_queries":
                                                       1e400}}).replace("Infinity", "1e400"),
                     "field 'tuned_on': held_out_queries: expected a count of queries"),
        "deep.json": ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    }
    for name, (text, said) in cases.items():
        path = tmp_path / name
        path.write_text(text)
        with pytest.raises(FormatError) as info:
            read_session_file(path)
        # deep.json: on line 1, as every JSON error names its line
        assert str(info.value).startswith(f"{path}:") and said in str(info.value), name


def test_a_split_the_dataset_lacks_is_said_from_the_session_file(tmp_path: Path) -> None:
    # the message named the dataset folder only: the bad value is in the session file
    data = {**_good(tmp_path), "split": "nosuch"}
    path = tmp_path / "s.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(FormatError) as info:
        TuningSession().load(path)
    text = str(info.value)
    assert text.startswith(f"{path}: field 'split': ") and "nosuch" in text


def test_a_bad_value_is_named_with_its_line_and_its_field_once(tmp_path: Path) -> None:
    """A bad value named no line, and its field by the table it sat in ('params'); a split
    the folder lacks said the path and the field twice (review rv4 L)."""
    data = {**_good(tmp_path), "version": 2, "baseline": None,
            "configurations": [{"name": "a", "model": "bm25", "params": {"k1": 1.7}},
                               {"name": "b", "model": "bm25", "params": {"k1": 1.7, "b": 7}}]}
    path = tmp_path / "s.json"
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")
    lines = path.read_text(encoding="utf-8").splitlines()
    line = next(i for i, t in enumerate(lines, 1) if t.strip() == '"b": 7')
    with pytest.raises(FormatError) as info:
        TuningSession().load(path)
    assert str(info.value) == (f"{path}:{line}: field 'configurations[1].params.b': must be "
                               "a number in [0, 1], got 7")
    data["configurations"][1]["params"]["b"] = 0.5
    data["params"] = {"k1": 99}
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")
    with pytest.raises(FormatError) as info:
        TuningSession().load(path)
    assert str(info.value) == f"{path}:6: field 'params.k1': must be a number in [0, 3], got 99"
    data["params"], data["split"] = {}, "nosuch"
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")
    with pytest.raises(FormatError) as info:
        TuningSession().load(path)
    said = str(info.value)
    assert said.startswith(f"{path}: field 'split': {SAMPLES / 'tea-beir'} does not load: ")
    assert said.count("field 'split'") == 1 and said.count(str(SAMPLES / "tea-beir")) == 1


def test_a_typed_query_comes_back_with_the_session(tmp_path: Path) -> None:
    # saved as its id alone, it was dropped on reopening and the first query selected
    s = TuningSession()
    s.open(SAMPLES / "tea-beir")
    s.set_model("bm25")
    s.recompute()
    s.add_query("green tea and sleep")
    s.recompute()
    path = tmp_path / "s.json"
    s.save(path)
    again = TuningSession()
    again.load(path)
    assert again.dataset is not None and len(again.dataset.queries) == 26
    q = again.dataset.queries[again.query]
    assert (q.id, q.text) == ("typed-1", "green tea and sleep")
    again.save(tmp_path / "again.json")  # and it is kept by the next save
    assert json.loads((tmp_path / "again.json").read_text())["typed"] == [
        {"id": "typed-1", "text": "green tea and sleep", "context": {}}]


def test_configuration_names_are_taken_as_the_window_takes_them(tmp_path: Path) -> None:
    """Save current as… collapses a name's spaces and refuses one it already holds; a hand-
    edited session loaded "a" and "a " side by side, and a name holding a line break."""
    from workbench.core.session_file import read_session_file

    def conf(name: str) -> dict[str, Any]:
        return {"name": name, "model": "bm25", "params": {"k1": 1.0}}

    data = {"version": 2, "dataset": str(SAMPLES / "tea-beir"), "model": "bm25",
            "params": {}, "configurations": [conf("x\ny"), conf(" wide  b ")],
            "baseline": "wide b"}
    path = tmp_path / "s.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    plan = read_session_file(path)
    assert [c[0] for c in plan.configurations] == ["x y", "wide b"]
    assert plan.baseline == "wide b"
    data["baseline"] = " x  y"  # named as its configuration is
    path.write_text(json.dumps(data), encoding="utf-8")
    assert read_session_file(path).baseline == "x y"
    data["configurations"] = [conf("a"), conf("a ")]
    data["baseline"] = None
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(FormatError, match=re.escape(
            "field 'configurations[1].name': a second configuration named 'a' ('a ' with its "
            "spaces collapsed")):
        read_session_file(path)
    data["configurations"] = [conf("n" * 500)]
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(FormatError, match=re.escape("field 'configurations[0].name': a "
                                                    "configuration name has at most")):
        read_session_file(path)


def test_text_for_a_number_names_the_parameter(tmp_path: Path) -> None:
    from workbench.core.session_file import read_session_file

    data = {**_good(tmp_path), "params": {"k1": "1.2"}}
    path = tmp_path / "s.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(FormatError) as info:
        read_session_file(path)
    assert str(info.value) == (f"{path}:1: field 'params.k1': expected a number, found the "
                               "text '1.2' (write it without quotes)")
    (tmp_path / "workbench.toml").write_text('model = "bm25"\n[params]\nb = "0.5"\n')
    with pytest.raises(FormatError, match=re.escape(
            "workbench.toml:3: field 'params.b': expected a number")):
        read_sample_settings(tmp_path)


def test_a_session_saved_beside_its_data_opens_after_the_folder_moved(tmp_path: Path) -> None:
    """A project folder (the data and the session file in it) moved or copied elsewhere: the
    file kept only absolute paths, and the moved one could not be opened."""
    import shutil

    project = tmp_path / "proj"
    shutil.copytree(SAMPLES / "tea-beir", project / "tea")
    (project / "q.jsonl").write_text(
        (SAMPLES / "tea-beir" / "queries.jsonl").read_text().splitlines()[0] + "\n")
    s = TuningSession()
    s.open(project / "tea", queries=project / "q.jsonl")
    s.set_model("bm25", {"k1": 0.9})
    s.study_storage = str(project / "studies.db")
    s.save(project / "session.json")  # as File ▸ Save session does
    data = json.loads((project / "session.json").read_text())
    assert data["dataset"] == str(project / "tea")  # what earlier versions read
    assert data["relative"] == {"dataset": "tea", "queries": "q.jsonl",
                                "study_storage": "studies.db"}
    moved = tmp_path / "elsewhere" / "proj2"
    moved.parent.mkdir()
    project.rename(moved)
    other = TuningSession()
    other.load(moved / "session.json")
    assert other.source == str(moved / "tea") and other.queries_file == str(moved / "q.jsonl")
    assert other.study_storage == str(moved / "studies.db") and other.params["k1"] == 0.9
    assert other.dataset is not None and len(other.dataset.queries) == 1


def test_a_dataset_that_is_gone_says_where_it_was_looked_for(tmp_path: Path) -> None:
    """It said "…/proj/tea does not load: …: no such file or folder; expected a BEIR folder
    (with corpus.jsonl), a git repository, …" — every format, for a folder that moved."""
    from workbench.core.session_file import read_session_file

    path = tmp_path / "proj2" / "session.json"
    path.parent.mkdir()
    data = {**_good(tmp_path), "dataset": str(tmp_path / "proj" / "tea"),
            "relative": {"dataset": "tea"}}
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(FormatError) as info:
        read_session_file(path)
    assert info.value.field == "dataset"
    assert info.value.message.startswith(
        f"{tmp_path / 'proj2' / 'tea'}: no such file or folder (nor {tmp_path / 'proj' / 'tea'})"
        " — the dataset was moved or deleted since the session was saved; put it back, or "
        "write where it is now in the field 'dataset'")
    assert "expected a BEIR folder" not in str(info.value)
    data["relative"] = {"dataset": "/abs"}
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(FormatError, match=re.escape("field 'relative.dataset': expected a path "
                                                    "beneath this file's folder")):
        read_session_file(path)


def test_an_unknown_key_is_refused_and_every_key_written_is_read(tmp_path: Path) -> None:
    from workbench.core.session_file import SESSION_KEYS, read_session_file, session_dict

    path = tmp_path / "s.json"
    path.write_text(json.dumps({**_good(tmp_path), "whatever": 1}), encoding="utf-8")
    with pytest.raises(FormatError) as info:
        read_session_file(path)
    assert str(info.value) == (f"{path}:1: field 'whatever': unknown key(s) 'whatever'; valid: "
                               f"{', '.join(SESSION_KEYS)}")
    s = TuningSession()
    s.open(SAMPLES / "vault")
    s.set_model("vault-search")
    s.study_storage = str(tmp_path / "studies.db")
    written = session_dict(s, tmp_path / "s.json")
    assert "relative" in written and set(written) <= set(SESSION_KEYS)


def test_the_view_is_kept_only_where_it_holds_something(tmp_path: Path) -> None:
    """The chart tab and the query filter (review rv4 O): under "view", by the panel's name;
    left out where empty, so such a file opens where "view" is unknown; a later version's view
    keys are ignored (a view changes no result)."""
    from workbench.core.session_file import read_session_file, session_dict

    s = TuningSession()
    s.open(SAMPLES / "tea-beir")
    s.set_model("bm25")
    assert "view" not in session_dict(s, view={"chart": "", "filter": ""})
    written = session_dict(s, view={"chart": "MoversList", "filter": "tea"})
    assert written["view"] == {"chart": "MoversList", "filter": "tea"}
    path = tmp_path / "s.json"
    path.write_text(json.dumps({**written, "view": {"chart": "MoversList", "sort": [2]}}),
                    encoding="utf-8")
    plan = read_session_file(path)
    assert (plan.chart, plan.query_filter) == ("MoversList", "")


def test_held_out_figures_out_of_range_are_refused_in_a_session(tmp_path: Path) -> None:
    # rv2 10, as in a params file's [tuned]: a p-value of 4 was shown as tune's
    from workbench.core.session_file import read_session_file

    tuned = {"trained_on": ["q1"], "metric": "ndcg@10", "held_out_default": 0.5,
             "held_out_tuned": 0.6, "held_out_p": 4.0, "held_out_queries": 3}
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"version": 2, "dataset": str(tmp_path), "model": "bm25",
                                "tuned_on": tuned}), encoding="utf-8")
    with pytest.raises(FormatError) as info:
        read_session_file(path)
    assert "field 'tuned_on': held_out_p: expected a p-value in [0, 1], found 4.0" \
        in str(info.value)


@pytest.mark.parametrize(("key", "value", "said"), [
    ("k", 0, ":7: field 'k': expected a whole number"),
    ("baseline", "zzz", ":6: field 'baseline': expected null or the name of a configuration"),
    ("study_storage", 5, ":8: field 'study_storage': expected a file or URL"),
    # a key missing: the line of the object that lacks it
    ("configurations", [{"model": "bm25"}], ":6: field 'configurations[0].name': expected a "
                                            "name (text), got None"),
])
def test_a_bad_field_names_its_line(tmp_path: Path, key: str, value: object,
                                    said: str) -> None:
    # rv2 16: these carried no line, where params.* errors did
    from workbench.core.session_file import read_session_file

    data: dict[str, Any] = {"version": 2, "dataset": str(SAMPLES / "tea-beir"),
                            "model": "bm25", "configurations": [], "baseline": None,
                            "k": 10, "study_storage": ""}
    data[key] = value
    path = tmp_path / "s.json"
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")
    with pytest.raises(FormatError) as info:
        read_session_file(path)
    assert str(info.value).startswith(f"{path}{said}")


def test_a_json_list_is_no_session_file(tmp_path: Path) -> None:
    from workbench.core.session_file import read_session_file

    path = tmp_path / "s.json"
    path.write_text('\n[{"version": 2}]\n', encoding="utf-8")
    with pytest.raises(FormatError) as info:
        read_session_file(path)
    assert str(info.value) == (f"{path}:2: expected a JSON object (a session file: version, "
                               "dataset, model …), found a list")
