"""The window's error paths: a bad session file or workbench.toml changes nothing and says why;
an exception escaping a menu slot ends in the error dialog."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from conftest import SAMPLES

from workbench.gui.main_window import MainWindow


def _state(w: MainWindow) -> tuple[object, ...]:
    s = w.session
    return (s.dataset, s.model, dict(s.params), s.baseline, s.k, s.query)


BAD_SESSION = [("k", 0, "k"), ("model", "nosuch", "model"),
               ("params", {"k1": 50}, "params.k1"), ("params", [1, 2], "params"),
               ("baseline", "bm25", "baseline"), ("baseline", {"model": "bm25", "params": 3},
                                                  "baseline.params")]


@pytest.mark.parametrize(("key", "value", "field"), BAD_SESSION,
                         ids=[f"{k}={v!r}" for k, v, _ in BAD_SESSION])
def test_a_bad_session_file_changes_nothing_and_says_which_field(
        window: MainWindow, tmp_path: Path, key: str, value: object, field: str) -> None:
    data = {"version": 1, "dataset": str(SAMPLES / "tea-beir"), "model": "bm25",
            "params": {}, "baseline": None, "query": None, "k": 10, key: value}
    path = tmp_path / "s.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    before = _state(window)
    assert not window.menu_actions.load_session_file(str(path))
    assert _state(window) == before
    assert window.error_box is not None and window.error_box.isVisible()
    assert f"field '{field}'" in window.error_box.text()
    # one line: the status line (its first) says why, and the path is said once
    said = window.statusBar().currentMessage()
    assert said == window.error_box.text() and said.count(str(path)) == 1
    assert re.match(rf"Could not open the session {re.escape(str(path))}(:1)?: "
                    rf"field '{re.escape(field)}'", said)  # a value: its line too


def test_a_bad_workbench_toml_changes_nothing(window: MainWindow, tmp_path: Path) -> None:
    folder = tmp_path / "sample"
    folder.mkdir()
    (folder / "corpus.jsonl").write_text('{"_id": "d1", "text": "green tea"}\n')
    (folder / "queries.jsonl").write_text('{"_id": "q1", "text": "tea"}\n')
    (folder / "workbench.toml").write_text('model = "bm25"\nparams = [1, 2]\n')
    before = _state(window)
    assert not window.open_path(folder)
    assert _state(window) == before
    assert window.error_box is not None and "field 'params'" in window.error_box.text()


@pytest.mark.qt_no_exception_capture
def test_an_exception_in_a_menu_slot_ends_in_the_error_dialog(
        window: MainWindow, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    def broken(*_: object, **__: object) -> None:
        raise RuntimeError("the model registry is on fire")

    monkeypatch.setattr(window.session, "switch_model", broken)  # what the Model menu calls
    window.menu_actions.model_actions["bm25"].trigger()
    assert window.error_box is not None and window.error_box.isVisible()
    assert "RuntimeError: the model registry is on fire" in window.error_box.text()
    assert "Traceback" in window.error_box.detailedText()
    assert "the model registry is on fire" in capsys.readouterr().err  # still on stderr


def test_a_dataset_that_does_not_open_says_why_once(window: MainWindow, tmp_path: Path) -> None:
    """The message named the path twice ("Could not open X:\\nX: field 'path': no such …"),
    and the status bar showed only "Could not open X:"."""
    missing = tmp_path / "nope"
    before = _state(window)
    assert not window.open_path(missing)
    assert _state(window) == before
    text = window.error_box.text() if window.error_box else ""
    assert text.startswith(f"Could not open {missing}: no such file or folder")
    assert text.count(str(missing)) == 1 and "field 'path'" not in text
    assert window.statusBar().currentMessage().startswith(
        f"Could not open {missing}: no such file")
    # a bad line in a file inside the folder: that file, its line and field are named
    folder = tmp_path / "beir"
    folder.mkdir()
    (folder / "corpus.jsonl").write_text('{"_id": "d1", "text": "tea"}\n{"text": "x"}\n')
    assert not window.open_path(folder)
    text = window.error_box.text() if window.error_box else ""
    assert f"{folder / 'corpus.jsonl'}:2: field '_id'" in text, text


def test_a_save_that_fails_says_why_in_the_status_line(
        window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The status line showed "Could not save the session:" and nothing more (the reason was
    on the message's second line)."""
    from PySide6.QtWidgets import QFileDialog

    assert window.open_path(SAMPLES / "tea-beir", model="bm25")
    folder = tmp_path / "taken"
    folder.mkdir()  # a folder where the file should go: the write fails
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        staticmethod(lambda *a, **k: (str(folder), "")))
    window.menu_actions.ask_save_session()
    said = window.statusBar().currentMessage()
    assert said == f"Could not save the session: exists and is a folder: {folder}"
