"""Keys a keyboard user lacked: Open session, each model, Cancel prepare (review rv4 N)."""

from __future__ import annotations

from collections import Counter

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from pytestqt.qtbot import QtBot

from workbench.gui.main_window import MainWindow


def test_open_session_models_and_cancel_have_keys(qtbot: QtBot, window: MainWindow) -> None:
    acts = window.menu_actions
    key = QKeySequence.SequenceFormat.PortableText
    assert acts.load_session.shortcut().toString(key) == "Ctrl+Alt+O"
    assert acts.cancel.shortcut().toString(key) == "Esc"
    assert [a.shortcut().toString(key) for a in acts.model_actions.values()][:3] == [
        "Ctrl+1", "Ctrl+2", "Ctrl+3"]
    used = Counter(s.toString(key) for a in window.findChildren(QAction)
                   for s in a.shortcuts() if not s.isEmpty())
    assert [k for k, n in used.items() if n > 1] == []
    window.show()
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    window.ranked.view.setFocus()
    qtbot.keyClick(window.ranked.view, Qt.Key.Key_1, Qt.KeyboardModifier.ControlModifier)
    assert window.session.model is not None and window.session.model.id == "bm25"
