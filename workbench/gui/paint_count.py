"""For `workbench bench --gui`: which widgets a slider tick repainted, and what they show.

The bench times a tick to the end of the event loop's own repaint of what changed; these let
it check that the ranked table and the metric strip were repainted wherever their content
changed, so a repaint that never happened is not timed as a fast one.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QLabel, QWidget


def shown_content(window: Any) -> tuple[object, object]:
    """(the ranked table's cells, the metric strip's texts) of a main window."""
    model = window.ranked.model
    return ((model._texts, model._bars, model._fg, model.cut),
            tuple(c.text() for c in window.metrics.findChildren(QLabel)))


class PaintCounter(QObject):
    """Counts the paint events of each group of widgets (a widget and its descendants)."""

    def __init__(self, *groups: QWidget) -> None:
        super().__init__()
        self.counts = [0] * len(groups)
        self.widgets = [(i, w) for i, g in enumerate(groups)
                        for w in [g, *g.findChildren(QWidget)]]
        self._group = {id(w): i for i, w in self.widgets}
        for _, w in self.widgets:
            w.installEventFilter(self)

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint:
            self.counts[self._group[id(obj)]] += 1
        return False

    def reset(self) -> None:
        self.counts[:] = [0] * len(self.counts)

    def remove(self) -> None:
        for _, w in self.widgets:
            w.removeEventFilter(self)
