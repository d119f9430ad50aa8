"""Edits held in the Prepare box (a word list typed, not yet re-indexed) are work like any
other: Quit and Open session ask for them, Save session keeps them and opening it holds them
again (they had been lost without a word: Quit closed, the file said "params": {})
(review rv4 B)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import SAMPLES
from PySide6.QtWidgets import QFileDialog, QMessageBox
from pytestqt.qtbot import QtBot

from workbench.core.data import FormatError
from workbench.core.session_file import read_session_file
from workbench.gui.main_window import MainWindow
from workbench.gui.param_editors import TextEditor
from workbench.gui.prepare_box import PrepareBox

Button = QMessageBox.StandardButton
DEFAULT = ("important, remember this, don't forget, critical, crucial, key point, make sure "
           "to, always, never")  # the document's emphasis phrases


def _window(qtbot: QtBot) -> MainWindow:
    w = MainWindow(synchronous=True, restore=False)
    qtbot.addWidget(w)
    w.show()
    assert w.open_path(SAMPLES / "memories")
    qtbot.wait(10)
    return w


def _box(w: MainWindow) -> PrepareBox:
    assert w.params.prepare_box is not None
    return w.params.prepare_box


def _type(w: MainWindow, text: str, *, enter: bool = True) -> None:
    editor = _box(w).editors["phrases_emphasis"]
    assert isinstance(editor, TextEditor)
    editor.line.setText(text)
    if enter:
        editor.line.editingFinished.emit()


@pytest.fixture
def questions(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    asked: list[str] = []

    def question(*args: object, **kwargs: object) -> Button:
        asked.append(str(args[2]))
        return Button.Cancel

    monkeypatch.setattr(QMessageBox, "question", staticmethod(question))
    return asked


def test_quit_asks_for_an_edit_held_in_prepare(qtbot: QtBot, questions: list[str]) -> None:
    w = _window(qtbot)
    assert w.session.params["phrases_emphasis"] == DEFAULT
    _type(w, DEFAULT + ", migration")
    assert _box(w).pending and w.menu_actions.unsaved()
    assert not w.menu_actions.may_close()  # asked, and Cancel keeps the window
    assert questions and questions[0].endswith(
        "Not saved: 1 change held in Prepare, not applied (Phrases: user emphasis).")


def test_quit_asks_for_a_text_typed_and_not_yet_entered(qtbot: QtBot,
                                                        questions: list[str]) -> None:
    w = _window(qtbot)
    _type(w, DEFAULT + ", migration", enter=False)
    assert not w.menu_actions.may_close() and len(questions) == 1


def test_save_session_keeps_the_held_edits_and_opening_holds_them_again(
        qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    w = _window(qtbot)
    _type(w, DEFAULT + ", Migration", enter=False)  # Ctrl+S with the cursor in the field
    path = tmp_path / "held.json"
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        staticmethod(lambda *a, **kw: (str(path), "")))
    w.menu_actions.save_session.trigger()
    data = json.loads(path.read_text())
    assert data["params"] == {}  # not applied: the values in use are the defaults
    assert data["held"] == {"phrases_emphasis": DEFAULT + ", migration"}
    assert w.statusBar().currentMessage() == (
        f"session saved to {path} with 1 change held in Prepare, not applied")
    assert not w.menu_actions.unsaved()

    other = _window(qtbot)
    assert other.menu_actions.load_session_file(str(path))
    box = _box(other)
    assert box.pending == {"phrases_emphasis": DEFAULT + ", migration"}
    assert box.editors["phrases_emphasis"].value() == DEFAULT + ", migration"
    assert other.session.params["phrases_emphasis"] == DEFAULT
    assert box.status.text().startswith("1 change held")
    assert not other.menu_actions.unsaved()  # as saved
    box.hold("phrases_emphasis", DEFAULT)  # dropped: a change from the file
    assert other.menu_actions.unsaved()
    assert "held in Prepare when it was saved" in other.menu_actions.what_unsaved()


def test_a_session_without_held_edits_writes_no_held_key(
        qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a file an earlier version still opens (it refuses keys it does not know)
    w = _window(qtbot)
    path = tmp_path / "plain.json"
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        staticmethod(lambda *a, **kw: (str(path), "")))
    w.menu_actions.save_session.trigger()
    assert "held" not in json.loads(path.read_text())
    assert w.statusBar().currentMessage() == f"session saved to {path}"


def test_a_held_live_value_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"version": 2, "dataset": str(SAMPLES / "memories"),
                                "model": "importance", "held": {"boost_emphasis": 0.5}}))
    with pytest.raises(FormatError, match=r"held\.boost_emphasis.*a live parameter"):
        read_session_file(path)
    path.write_text(json.dumps({"version": 2, "dataset": str(SAMPLES / "memories"),
                                "model": "importance",
                                "held": {"phrases_emphasis": "A,\nb"}}))
    assert read_session_file(path).held == {"phrases_emphasis": "a, b"}


def test_an_edit_held_comes_back_with_its_dataset(qtbot: QtBot) -> None:
    # memories, a phrase held, vault, memories again: "as you left it in this window", but
    # the phrase list had gone
    w = _window(qtbot)
    _type(w, DEFAULT + ", migration")
    assert w.open_path(SAMPLES / "vault")
    qtbot.wait(10)
    assert w.menu_actions.unsaved()  # memories was left with work in it
    assert "the values changed on memories" in w.menu_actions.what_unsaved()
    assert w.open_path(SAMPLES / "memories")
    qtbot.wait(10)
    box = _box(w)
    assert box.pending == {"phrases_emphasis": DEFAULT + ", migration"}
    assert box.editors["phrases_emphasis"].value() == DEFAULT + ", migration"
    assert w.session.params["phrases_emphasis"] == DEFAULT
    assert "1 change held in Prepare" in w.menu_actions.what_unsaved()
    # opened anew (a session file, or another model asked for): as the data has it
    assert w.open_path(SAMPLES / "vault")
    assert w.open_path(SAMPLES / "memories", model="importance")
    qtbot.wait(10)
    assert _box(w).pending == {}
