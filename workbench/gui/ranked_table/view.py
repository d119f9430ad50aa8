"""The ranked table's view and its gate column's delegate: the bundle's cut drawn as a line,
and a gate's words or its short label where they do not fit."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QHelpEvent, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import (
    QLabel,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QToolTip,
    QWidget,
)

from workbench.gui.elided import TEXT_MARGIN, WordElided, elide_words

from .model import CUT_PEN, LABEL_ROLE, RankedTableModel


class GateElided(WordElided):
    """A gate's words where every gate's words fit; else, in every row, the model's label for
    it ("one word", "ops title": `Model.gate_labels`), cut after a whole word only where even
    that does not fit (its first words had read "not in…", "long…" or "…" at 1,024 px: rv2
    dr2 4; then one column had mixed "one word" with "not in project", a cell's form set by
    its own width: rv2 dr5 5). `widest`: the px the model's widest gate's words take."""

    widest = 0

    def initStyleOption(self, option: QStyleOptionViewItem,  # Qt override
                        index: QModelIndex | QPersistentModelIndex) -> None:
        QStyledItemDelegate.initStyleOption(self, option, index)  # the words, not cut
        room = option.rect.width() - 2 * TEXT_MARGIN
        fm = option.fontMetrics
        if (not option.text or room <= 0
                or max(self.widest, fm.horizontalAdvance(option.text)) <= room):
            return
        label = index.data(LABEL_ROLE)
        option.text = elide_words(label if isinstance(label, str) else option.text, fm, room)


class _RankedView(QTableView):
    """The table view, with the bundle's cut drawn as a line under its last row."""

    def __init__(self, model: RankedTableModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setModel(model)
        self._ranked = model
        self._pen = QPen(CUT_PEN, 2, Qt.PenStyle.DashLine)
        # why the query ranks nothing, over the empty grid (`nothing_ranked`)
        self.empty_note = QLabel(self.viewport())
        self.empty_note.setWordWrap(True)
        self.empty_note.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.empty_note.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.empty_note.setStyleSheet("color: #57606a")
        self.empty_note.hide()

    def set_empty_note(self, text: str) -> None:
        """The line shown over the table where it has no row ("" hides it)."""
        if text != self.empty_note.text():
            self.empty_note.setText(text)
        self.empty_note.setVisible(bool(text))
        self._place_empty_note()

    def _place_empty_note(self) -> None:
        if self.empty_note.isVisible():
            self.empty_note.setGeometry(self.viewport().rect().adjusted(8, 6, -8, -6))

    def resizeEvent(self, event: Any) -> None:  # Qt override
        super().resizeEvent(event)
        self._place_empty_note()

    def cut_y(self) -> int | None:
        """The viewport y of the cut line (None: no cut, or scrolled out of view)."""
        cut = self._ranked.cut
        if cut is None or cut <= 0:
            return None
        y = self.rowViewportPosition(cut - 1)
        if y < 0:
            return None
        return y + self.rowHeight(cut - 1) - 1

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        y = self.cut_y()
        if y is not None and y <= self.viewport().height():
            p = QPainter(self.viewport())
            p.setPen(self._pen)
            p.drawLine(0, y, self.viewport().width(), y)
            p.end()

    def viewportEvent(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip and isinstance(event, QHelpEvent):
            y = self.cut_y()
            if y is not None and abs(event.pos().y() - y) <= 4:
                QToolTip.showText(event.globalPos(),
                                  f"bundle cut: {self._ranked.stop_reason()}", self)
                return True
        return super().viewportEvent(event)
