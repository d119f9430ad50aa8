"""The Prepare box's text fields (word and phrase lists, prompts, a pinned clock): a list pasted
one per line, a refused text, Re-index and Ctrl+R with the cursor still in a field, Ctrl+Z in
one, and what screen readers call them (review rv4 A, C, G, M)."""

from __future__ import annotations

import pytest
from conftest import SAMPLES
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from workbench.core.models import get_model
from workbench.core.session import TuningSession
from workbench.gui.main_window import MainWindow
from workbench.gui.param_editors import NumberEditor, TextEditor
from workbench.gui.prepare_box import PrepareBox


def _box(qtbot: QtBot) -> tuple[TuningSession, PrepareBox]:
    s = TuningSession()
    s.open(SAMPLES / "memories")
    s.set_model("importance")
    s.recompute()
    box = PrepareBox(s)
    qtbot.addWidget(box)
    return s, box


@pytest.mark.parametrize(("model", "name", "pasted", "read"), [
    ("importance", "phrases_failure", "broke\nfailed\r\nCrashed\tbug",
     "broke, failed, crashed, bug"),
    ("decision-memory", "operational_words", "Read\nran\n\ndecided\n", "read, ran, decided"),
    ("decision-memory", "durable_tags", "Decision\npreference", "Decision, preference"),
])
def test_a_list_pasted_one_per_line_reads_as_commas(model: str, name: str, pasted: str,
                                                     read: str) -> None:
    # the command line, a params file and the window: line breaks and tabs separate entries
    # (it was refused: "one line of phrases, separated by commas")
    assert get_model(model).schema[name].validate(pasted) == read


def _type(editor: TextEditor, text: str) -> None:
    """`text` put in the field as a paste or typing does (no Enter)."""
    editor.line.setText(text)


def test_a_pasted_list_is_shown_as_the_line_it_reads_as(qtbot: QtBot) -> None:
    _, box = _box(qtbot)
    editor = box.editors["phrases_failure"]
    assert isinstance(editor, TextEditor)
    _type(editor, "broke\nfailed\ncrashed")
    editor.line.editingFinished.emit()
    assert box.pending == {"phrases_failure": "broke, failed, crashed"}
    assert editor.value() == "broke, failed, crashed"  # not "broke failed crashed", drawn
    assert box.status.text().startswith("1 change held")


def test_a_refused_text_drops_the_edit_held_before_it(qtbot: QtBot) -> None:
    # a clock held, then a text the clock refuses typed over it: Re-index had applied the
    # earlier one (and written it back into the field), the status naming `now`, in grey
    s, box = _box(qtbot)
    editor = box.editors["now"]
    assert isinstance(editor, TextEditor) and s.params["now"] == ""
    _type(editor, "2026-03-01")
    editor.line.editingFinished.emit()
    assert box.pending == {"now": "2026-03-01"}
    _type(editor, "yesterday")
    editor.line.editingFinished.emit()
    assert box.pending == {}
    said = box.status.text()
    assert "Now (ISO 8601): expected an ISO 8601 date" in said and "#c0392b" in said
    assert "parameter now" not in said and "yesterday" not in said  # the field shows it
    box.apply()
    assert s.params["now"] == "" and editor.value() == "yesterday"
    assert "Re-index not run: Now (ISO 8601)" in box.status.text()
    _type(editor, "2026-03-02")  # corrected: taken, and the red line goes
    editor.line.editingFinished.emit()
    assert box.pending == {"now": "2026-03-02"} and "#c0392b" not in box.status.text()
    box.apply()
    assert s.params["now"] == "2026-03-02"


def _window(qtbot: QtBot, folder: str = "memories") -> MainWindow:
    w = MainWindow(synchronous=True, restore=False)
    qtbot.addWidget(w)
    w.show()
    assert w.open_path(SAMPLES / folder)
    qtbot.wait(10)
    return w


def _prepare_box(w: MainWindow) -> PrepareBox:
    box = w.params.prepare_box
    assert box is not None
    return box


def test_ctrl_r_takes_the_text_of_the_field_the_cursor_is_in(qtbot: QtBot) -> None:
    # typed, no Enter nor Tab, then Ctrl+R: the preparation had run for the old list, the
    # box saying "prepared for these parameters" beside the text typed
    w = _window(qtbot)
    box = _prepare_box(w)
    editor = box.editors["phrases_emphasis"]
    assert isinstance(editor, TextEditor)
    editor.line.setFocus()
    _type(editor, editor.value() + ", migration")
    w.menu_actions.recompute.trigger()
    assert w.session.params["phrases_emphasis"].endswith(", always, never, migration")
    assert box.pending == {} and not w.session.needs_prepare


def test_re_index_takes_a_number_typed_and_not_entered(qtbot: QtBot) -> None:
    s = TuningSession()
    s.open(SAMPLES / "decisions")
    s.set_model("decision-memory")
    box = PrepareBox(s)
    qtbot.addWidget(box)
    editor = box.editors["min_token_length"]
    assert isinstance(editor, NumberEditor) and s.params["min_token_length"] != 4
    line = editor.spin.lineEdit()
    assert line is not None
    line.setText("4")
    box.apply()
    assert s.params["min_token_length"] == 4


def test_ctrl_z_in_a_text_field_is_the_windows_undo(qtbot: QtBot) -> None:
    # typed, Enter, Ctrl+R (applied), Ctrl+Z still in the field: the field's own undo took
    # the text back, the session keeping it; once the field was left, the box held "1 change"
    # equal to the value in use
    from PySide6.QtWidgets import QApplication

    w = _window(qtbot)
    w.activateWindow()
    qtbot.waitActive(w)
    box = _prepare_box(w)
    editor = box.editors["phrases_emphasis"]
    assert isinstance(editor, TextEditor)
    default = w.session.params["phrases_emphasis"]
    editor.line.setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is editor.line)
    editor.line.end(False)
    qtbot.keyClicks(editor.line, ", migration")
    qtbot.keyClick(editor.line, Qt.Key.Key_Return)
    qtbot.keyClick(editor.line, Qt.Key.Key_R, Qt.KeyboardModifier.ControlModifier)
    assert w.session.params["phrases_emphasis"] == default + ", migration"
    qtbot.keyClick(editor.line, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert w.session.params["phrases_emphasis"] == default == editor.value()
    w.ranked.view.setFocus()  # the field left: nothing to hold
    qtbot.waitUntil(lambda: QApplication.focusWidget() is w.ranked.view)
    assert box.pending == {} and not box.status.text().startswith("1 change held")
    qtbot.keyClick(editor.line, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier
                   | Qt.KeyboardModifier.ShiftModifier)
    assert w.session.params["phrases_emphasis"] == default + ", migration"


def test_an_undo_back_to_a_held_value_leaves_nothing_held(qtbot: QtBot) -> None:
    s, box = _box(qtbot)
    default = s.params["phrases_emphasis"]
    s.set_params({"phrases_emphasis": "urgent"})
    box.hold("phrases_emphasis", default)
    assert box.pending == {"phrases_emphasis": default}
    s.undo()  # the session has the value held: nothing left to apply
    assert s.params["phrases_emphasis"] == default and box.pending == {}
    assert not box.status.text().startswith("1 change held")


def test_a_text_typed_survives_another_value_changing(qtbot: QtBot) -> None:
    s, box = _box(qtbot)
    editor = box.editors["phrases_decision"]
    assert isinstance(editor, TextEditor)
    _type(editor, "decided, going with")  # not yet left: nothing held
    s.set_param("boost_emphasis", 0.45)  # a live value moved (or undone) meanwhile
    assert editor.value() == "decided, going with"


def test_the_prepare_controls_are_named(qtbot: QtBot) -> None:
    # a screen reader read "phrases_emphasis" (the object name) and "↺"
    _, box = _box(qtbot)
    editor = box.editors["phrases_emphasis"]
    assert isinstance(editor, TextEditor)
    assert editor.line.accessibleName() == "Phrases: user emphasis"
    assert editor.line.accessibleDescription().startswith("The phrases that fire the user "
                                                           "emphasis category")
    assert box.resets["phrases_emphasis"].accessibleName() == (
        "Reset Phrases: user emphasis to its default")
    assert box.labels["phrases_emphasis"].buddy() is editor.line
    combo = box.editors["stemmer"]
    assert all(w.accessibleName() == "Stemmer" for w in combo.findChildren(QWidget)
               if w.focusPolicy() != Qt.FocusPolicy.NoFocus)
