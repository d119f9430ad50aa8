"""Text too long for its room, shortened where it keeps what tells it apart: a rich-text label
elided at the right with the whole in its tooltip, and table cells elided in the middle (ids
and paths that share a long beginning)."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QResizeEvent, QTextDocument
from PySide6.QtWidgets import QLabel, QStyledItemDelegate, QStyleOptionViewItem, QWidget


class ElidingLabel(QLabel):
    """A rich-text label that, when its text does not fit, shows it as plain text elided at
    the right ("…"), the whole in the tooltip. (A QLabel cuts rich text mid-word.)"""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTextFormat(Qt.TextFormat.RichText)
        self._rich = self._plain = ""
        self._tip = ""

    def set_texts(self, rich: str, plain: str, tip: str = "") -> None:
        if (rich, plain, tip) == (self._rich, self._plain, self._tip):
            return  # unchanged (most slider ticks): not measured again
        self._rich, self._plain, self._tip = rich, plain, tip
        self._fit()

    def resizeEvent(self, event: QResizeEvent) -> None:  # Qt override
        super().resizeEvent(event)
        self._fit()

    def _fit(self) -> None:
        room = self.width() - 2
        doc = QTextDocument()
        doc.setDefaultFont(self.font())
        doc.setDocumentMargin(0)
        doc.setHtml(self._rich)
        if doc.idealWidth() <= room:
            text, tip = self._rich, self._tip
        else:
            text = esc(self.fontMetrics().elidedText(self._plain, Qt.TextElideMode.ElideRight,
                                                      room))
            tip = "\n".join(t for t in (self._plain, self._tip) if t)
        if text != self.text():
            self.setText(text)
        self.setToolTip(tip)


class MiddleElided(QStyledItemDelegate):
    """Ids elided in the middle: "archived-fix" and "archived-other" stay apart as
    "arch…fix" and "arch…her", where a right elision made both "archived-…"."""

    def initStyleOption(self, option: QStyleOptionViewItem,  # Qt override
                        index: QModelIndex | QPersistentModelIndex) -> None:
        super().initStyleOption(option, index)
        option.textElideMode = Qt.TextElideMode.ElideMiddle


def esc(text: str) -> str:
    """`text` for a rich-text label."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
