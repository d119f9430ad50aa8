"""Esc in the query filter clears the filter, even while a preparation runs, and Esc in a
text field is the field's: Tools ▸ Cancel prepare's Esc had taken the key, so clearing a
filter cancelled a long embedding."""

from __future__ import annotations

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from tests.gui.conftest import SAMPLES, HeldFakeEncoder  # a fake: the test is about keys
from workbench.gui.main_window import MainWindow


def test_esc_in_filter_while_preparing(qtbot: QtBot, held_encoder: HeldFakeEncoder) -> None:
    w = MainWindow(restore=False)
    qtbot.addWidget(w)
    w.resize(1400, 900)
    w.show()
    w.activateWindow()
    qtbot.waitUntil(w.isActiveWindow)
    with qtbot.waitSignal(w.loop.prepare_started, timeout=10_000):
        w.open_path(SAMPLES / "tea-beir", model="dense",
                    params={"embedding_model": held_encoder.name})
    qtbot.waitUntil(held_encoder.started.is_set, timeout=10_000)
    cancel = w.menu_actions.cancel
    assert cancel.isEnabled()
    fired = []
    cancel.triggered.connect(lambda *_: fired.append(1))
    w.menu_actions.filter.trigger()
    fe = w.queries.filter_edit
    qtbot.waitUntil(fe.hasFocus)
    qtbot.keyClicks(fe, "tea")
    assert fe.text() == "tea"
    qtbot.keyClick(fe, Qt.Key.Key_Escape)
    qtbot.wait(200)
    assert fe.text() == "" and not fired
    # nor does Esc in the box a query is typed into
    ask = w.queries.ask_edit
    ask.setFocus()
    qtbot.waitUntil(ask.hasFocus)
    qtbot.keyClicks(ask, "oolong")
    qtbot.keyClick(ask, Qt.Key.Key_Escape)
    qtbot.wait(200)
    assert not fired and cancel.isEnabled()
    # nor in a parameter's spin box
    spin = w.params.editors["min_similarity"].spin
    spin.setFocus()
    qtbot.waitUntil(spin.hasFocus)
    qtbot.keyClick(spin, Qt.Key.Key_Escape)
    qtbot.wait(200)
    assert not fired and cancel.isEnabled()
    held_encoder.release.set()
    qtbot.wait(500)
    w.close()
    assert fe.text() == "" and not fired
