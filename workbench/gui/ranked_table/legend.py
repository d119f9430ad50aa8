"""The signals' legend above the ranked table: what it says (`Legend`) and the label that
lays it out on as many lines as fit."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget

MUTED = "#57606a"  # the legend's own words ("signals:", "+6 more")


@dataclass(frozen=True)
class Legend:
    """What the signals' legend says, in rich text: each signal's entry in the bars' order,
    then `tail` ("hatched: negative", shown where `hatched`). `order`: the entries' indexes,
    those drawing most over the data first (`RankedTable._signal_sizes`): where the entries
    take more than `LegendLabel.MOST_LINES` lines, the last of them are left out ("+6 more
    (hover)"), every one in the tooltip with `idle`, the signals that do not draw on this
    data. Nothing here depends on the selected query, and on the values only where one makes
    a signal draw or not: the legend's text and height stay as they are when another query
    is selected or a slider moves (dr3 2, 3)."""

    signals: tuple[str, ...] = ()
    order: tuple[int, ...] = ()
    tail: str = ""
    hatched: bool = False
    idle: str = ""

    def text(self, keep: int | None = None, tail: bool | None = None) -> str:
        """The legend with the first `keep` signals of `order` (None: all), the others
        counted; the tail where `hatched` (`tail`: with it or without, whatever `hatched`
        says)."""
        kept = set(self.order[:keep]) if keep is not None else set(range(len(self.signals)))
        entries = [e for i, e in enumerate(self.signals) if i in kept]
        left = len(self.signals) - len(entries)
        if left:
            entries.append(f"<span style='color:{MUTED}'>+{left}&nbsp;more&nbsp;(hover)</span>")
        head = f"<span style='color:{MUTED}'>signals:</span> " if self.signals else ""
        with_tail = self.hatched if tail is None else tail
        return head + " ".join(entries) + (self.tail if with_tail else "")

    def tooltip(self) -> str:
        if not self.signals and not self.idle:
            return ""
        return self.text() + (f"<br><span style='color:{MUTED}'>not drawing on this data: "
                              f"{self.idle}</span>" if self.idle else "")


class LegendLabel(QLabel):
    """The signals' legend, as high as its wrapped lines at its width, up to `MOST_LINES`
    (`set_legend`): its height is a function of its text and its width alone. (It had been
    read from the label's heightForWidth, which never answers less than the label's own
    height: 2 px more on every fit, never less.) At 1,024 × 768 codeledger's 17 signals took
    six lines and left the table four rows; held to three, the signals drawing least over
    the data are left out, counted, and named in the tooltip. It is laid out with the
    "hatched: negative" tail whether that shows or not: the tail never moves an entry or the
    table."""

    MOST_LINES = 3

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTextFormat(Qt.TextFormat.RichText)
        self.setWordWrap(True)
        self.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.legend = Legend()
        self._laid: dict[int, tuple[str, int]] = {}  # width → (text shown, height)
        self.fit()

    def set_legend(self, legend: Legend) -> None:
        if legend == self.legend:
            return  # unchanged (most slider ticks, every other query): not measured again
        self.legend = legend
        self._laid = {}
        self.setToolTip(legend.tooltip())
        self.fit()

    def fit(self) -> None:
        # not shown, it has no width of its own yet: every signal said
        text, height = self.layout_at(self.contentsRect().width(), whole=not self.isVisible())
        if text != self.text():
            self.setText(text)
        if not height == self.minimumHeight() == self.maximumHeight():
            self.setFixedHeight(height)

    def layout_at(self, width: int, whole: bool = False) -> tuple[str, int]:
        """The text shown and the height at `width` px (`whole`: every signal, at its least
        height until it is shown and measured)."""
        key = -width if whole else width
        if key not in self._laid:
            if len(self._laid) > 16:
                self._laid = {}
            self._laid[key] = self._lay_out(width, whole)
        return self._laid[key]

    def _lay_out(self, width: int, whole: bool) -> tuple[str, int]:
        legend = self.legend
        least = self._rich_line() + 2
        if not legend.signals:
            return "", least
        if whole:  # measured when shown
            return legend.text(), least
        keep = None
        lines, height = self._measure(legend.text(tail=True), width)
        if lines > self.MOST_LINES:
            # the most signals that leave it within its lines (fewer kept, never more lines)
            lo, hi = 0, len(legend.signals) - 1
            while lo < hi:
                mid = (lo + hi + 1) // 2
                if self._measure(legend.text(mid, tail=True), width)[0] <= self.MOST_LINES:
                    lo = mid
                else:
                    hi = mid - 1
            keep = lo
            height = self._measure(legend.text(lo, tail=True), width)[1]
        return legend.text(keep), max(least, height + 2)

    def _measure(self, text: str, width: int) -> tuple[int, int]:
        """(lines, px) `text` takes at `width` px in the label's font: laid out as the label
        lays out its rich text, without the label's own least height."""
        doc = QTextDocument()
        doc.setDocumentMargin(0)
        doc.setDefaultFont(self.font())
        doc.setHtml(text)
        doc.setTextWidth(max(width, 1))
        height = math.ceil(doc.size().height())  # laid out here
        block, lines = doc.firstBlock(), 0
        while block.isValid():
            lines += block.layout().lineCount()
            block = block.next()
        return lines, height

    def _rich_line(self) -> int:
        """The height of one line of the legend's rich text, in its font (kept per font): a
        line with the ■ marks is taller than the font's line spacing."""
        key = self.font().key()
        if getattr(self, "_line_for", None) != key:
            self._line_for = key
            self._line = self._measure(
                f"<span style='color:{MUTED}'>signals:</span> "
                "<span style='color:#000'>■</span>&nbsp;x", 1000)[1]
        return int(self._line)

    def changeEvent(self, event: QEvent) -> None:  # Qt override
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:  # the style sheet's font, once polished
            self._laid = {}
            self.fit()

    def resizeEvent(self, event: Any) -> None:  # Qt override
        super().resizeEvent(event)
        self.fit()

    def showEvent(self, event: Any) -> None:  # Qt override
        super().showEvent(event)
        self.fit()
