"""Text too long for its room, shortened where it keeps what tells it apart: a rich-text label
elided at the right with the whole in its tooltip, table cells elided in the middle (ids and
paths that share a long beginning) or after their last whole word (a gate's words)."""

from __future__ import annotations

import math

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QSize, Qt
from PySide6.QtGui import QFont, QFontMetrics, QResizeEvent, QTextDocument
from PySide6.QtWidgets import QLabel, QStyledItemDelegate, QStyleOptionViewItem, QWidget


class ElidingLabel(QLabel):
    """A rich-text label that, when its text does not fit, shows it as plain text elided at
    the right ("…"), the whole in the tooltip. (A QLabel cuts rich text mid-word.)"""

    def __init__(self, parent: QWidget | None = None, *, hint_whole: bool = False,
                 at_clauses: bool = False) -> None:
        """`hint_whole`: its size hint is the whole text's width (a label that takes what it
        needs and gives way only when the row is short), not the elided text's.
        `at_clauses`: elided after its last whole "; " clause that fits, else its last whole
        word (`elide_clauses`), not mid-word."""
        super().__init__(parent)
        self.setTextFormat(Qt.TextFormat.RichText)
        self._rich = self._plain = ""
        self._tip = ""
        self._hint_whole = hint_whole
        self._at_clauses = at_clauses

    def sizeHint(self) -> QSize:  # Qt override
        hint = super().sizeHint()
        if self._hint_whole and self._rich:
            hint.setWidth(math.ceil(self._ideal_width()) + 4)
        return hint

    def _ideal_width(self) -> float:
        return rich_width(self.font(), self._rich)

    def ideal_width(self) -> float:
        """The width its whole text takes on one line."""
        return self._ideal_width()

    def plain_text(self) -> str:
        """The whole text, elided or not."""
        return self._plain

    def set_texts(self, rich: str, plain: str, tip: str = "") -> None:
        if (rich, plain, tip) == (self._rich, self._plain, self._tip):
            return  # unchanged (most slider ticks): not measured again
        self._rich, self._plain, self._tip = rich, plain, tip
        if self._hint_whole:
            self.updateGeometry()
        self._fit()

    def resizeEvent(self, event: QResizeEvent) -> None:  # Qt override
        super().resizeEvent(event)
        self._fit()

    def _fit(self) -> None:
        room = self.width() - 2
        if self._ideal_width() <= room:
            text, tip = self._rich, self._tip
        else:
            text = esc(elide_clauses(self._plain, self.fontMetrics(), room)
                       if self._at_clauses else
                       self.fontMetrics().elidedText(self._plain, Qt.TextElideMode.ElideRight,
                                                     room))
            tip = "\n".join(t for t in (self._plain, self._tip) if t)
        if text != self.text():
            self.setText(text)
        self.setToolTip(tip)


class MiddleElided(QStyledItemDelegate):
    """Ids elided in the middle: "archived-fix" and "archived-other" stay apart as
    "arch…fix" and "arch…her", where a right elision made both "archived-…". A path keeps
    its file name whole where that fits ("…/first-crack.md"): cut in the middle it read
    "roa….md", four rows alike."""

    def initStyleOption(self, option: QStyleOptionViewItem,  # Qt override
                        index: QModelIndex | QPersistentModelIndex) -> None:
        super().initStyleOption(option, index)
        option.textElideMode = Qt.TextElideMode.ElideMiddle
        # the style's own margins about the text: a few px each side
        room = option.rect.width() - 2 * TEXT_MARGIN
        if option.text and room > 0:
            option.text = elide_path(option.text, option.fontMetrics, room)


TEXT_MARGIN = 4  # px a cell's style keeps each side of its text (Fusion: 3 + 1)


class WordElided(QStyledItemDelegate):
    """Words elided after the last whole word that fits ("single token…"), "…" alone where
    not even the first does: Qt's own elision read "single …" in a gate column, a cut first
    word "operat…", and abbreviations ("sour.", "ope. tit.") read as other words or not at
    all."""

    def initStyleOption(self, option: QStyleOptionViewItem,  # Qt override
                        index: QModelIndex | QPersistentModelIndex) -> None:
        super().initStyleOption(option, index)
        room = option.rect.width() - 2 * TEXT_MARGIN
        if option.text and room > 0:
            option.text = elide_words(option.text, option.fontMetrics, room)


def elide_words(text: str, fm: QFontMetrics, room: int) -> str:
    """`text` as it fits `room` px: whole; its first words and "…" ("single token…"); else
    "…" alone."""
    if fm.horizontalAdvance(text) <= room:
        return text
    words = text.split()
    for n in range(len(words) - 1, 0, -1):
        head = " ".join(words[:n]) + "…"
        if fm.horizontalAdvance(head) <= room:
            return head
    return "…"


def elide_clauses(text: str, fm: QFontMetrics, room: int) -> str:
    """`text` as it fits `room` px: whole; its first "; " clauses and "…" where they fill
    half the room at least; else its first words and "…" (`elide_words`): a status line cut
    "…; bas…" read as a word of its own (dr6 4)."""
    if fm.horizontalAdvance(text) <= room:
        return text
    clauses = text.split("; ")
    for n in range(len(clauses) - 1, 0, -1):
        head = "; ".join(clauses[:n]) + "; …"
        width = fm.horizontalAdvance(head)
        if width <= room:
            if 2 * width >= room:
                return head
            break
    return elide_words(text, fm, room)


def elide_path(text: str, fm: QFontMetrics, room: int) -> str:
    """`text` as it fits `room` px: whole; a path as "…/" and as much of its end as fits,
    its file name at least; where even that does not fit, "…/" and its file name cut in its
    middle ("…/scales…mers.md": the whole path cut there had kept its folder's start,
    "equip…rs.md", rA 12; the bare "bloom.md" of "brewing/bloom.md" read as a note at the
    top level, dG 4); the file name alone cut where "…/" leaves it no room; else cut in its
    middle."""
    if fm.horizontalAdvance(text) <= room:
        return text
    if "/" in text.rstrip("/"):
        parts = text.split("/")
        for i in range(1, len(parts)):  # the most folders of its end that fit
            tail = "…/" + "/".join(parts[i:])
            if fm.horizontalAdvance(tail) <= room:
                return tail
        text = parts[-1] or text
        name = fm.elidedText(text, Qt.TextElideMode.ElideMiddle, room - fm.horizontalAdvance(
            "…/"))
        if len(name.replace("…", "")) >= MARKED_NAME_LEAST:
            return "…/" + name
    return fm.elidedText(text, Qt.TextElideMode.ElideMiddle, room)


MARKED_NAME_LEAST = 2  # characters of the file name kept beside "…/" ("…/b…md"), else no "…/"


def elide_path_chars(text: str, n: int) -> str:
    """`text` in `n` characters at most: whole; a path as "…/" and as much of its end as
    fits, its file name at least, cut in its middle where it must; where "…/" leaves too
    little, its file name (or `text`, no path) cut in its middle.
    For labels measured in characters (a chart's axis)."""
    if len(text) <= n:
        return text
    if "/" in text.rstrip("/"):
        parts = text.split("/")
        for i in range(1, len(parts)):
            tail = "…/" + "/".join(parts[i:])
            if len(tail) <= n:
                return tail
        text = parts[-1] or text
        if len(text) <= n - 2:  # never bare: "bloom.md" read as a note at the top level
            return "…/" + text
        if n - 2 > MARKED_NAME_LEAST:
            return "…/" + elide_path_chars(text, n - 2)
    keep = (n - 1) // 2
    return text[: n - 1 - keep] + "…" + text[len(text) - keep:]


def rich_width(font: QFont, html: str) -> float:
    """The width rich text takes on one line in `font`."""
    doc = QTextDocument()
    doc.setDefaultFont(font)
    doc.setDocumentMargin(0)
    doc.setHtml(html)
    return doc.idealWidth()


def esc(text: str) -> str:
    """`text` for a rich-text label."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
