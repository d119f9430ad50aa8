"""Esc kept for a text field: the window's Esc shortcut (Tools ▸ Cancel prepare) must not
fire from a line edit or spin box that has the focus."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QAbstractSpinBox, QLineEdit, QWidget


class _EscStaysInTextFields(QObject):
    """Claims Esc for a text field of `window` that has the focus (a line edit, a spin
    box), so that the window's Esc shortcut (Tools ▸ Cancel prepare) does not fire
    from it: a field's Esc is the field's."""

    def __init__(self, window: QWidget) -> None:
        super().__init__(window)
        self.window = window

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # Qt override
        if event.type() == QEvent.Type.ShortcutOverride and isinstance(event, QKeyEvent) \
                and event.key() == Qt.Key.Key_Escape \
                and isinstance(watched, QLineEdit | QAbstractSpinBox) \
                and watched.window() is self.window:
            event.accept()  # the field gets the key press; the shortcut does not fire
            return True
        return False
