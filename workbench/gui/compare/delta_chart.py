"""Across the whole query set, one bar per judged query: configuration i's metric minus
configuration 0's, sorted from the largest gain (left) to the largest loss (right), green above
the zero line, red below, a grey tick for an unchanged query; all grey against training scores
(fitted to these queries: no gain or loss, as the report draws them). Queries without
judgments (NaN) are left out and counted in the caption, beside the counts improved /
unchanged / worsened in the report's words (`report.text.per_query`; the same counts as the
paired test's, `MetricRow.improved` / `worsened`).

Click a bar: `query_clicked(query index)`. Painted in `paintEvent`; `_Layout` says where the
plot is, so painting, clicking and `bar_center()` agree.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray
from PySide6.QtCore import QPoint, QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontMetricsF,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPen,
)
from PySide6.QtWidgets import QWidget

from workbench.core.comparison import Comparison
from workbench.gui.charts._base import INK, MUTED
from workbench.gui.metric_names import metric_label
from workbench.gui.palette import BETTER, NEUTRAL, WORSE, signed
from workbench.report.text import per_query, trained_pair

from .chart_words import below_lines, fitted_caption
from .rank_rows import HIGHLIGHT, points, scaled_font


def nice_ticks(lo: float, hi: float, n: int = 6) -> list[float]:
    """About `n` round tick values (steps of 1, 2 or 5 × 10^e) covering [lo, hi]."""
    span = hi - lo
    if not span > 0:
        return [lo]
    raw = span / n
    e = 10 ** math.floor(math.log10(raw))
    step = next(m * e for m in (1, 2, 5, 10) if m * e >= raw)
    first = math.ceil(lo / step - 1e-9)
    last = math.floor(hi / step + 1e-9)
    return [round(j * step, 12) for j in range(first, last + 1)]


MIN_WIDTH = 220  # px: the chart's width beside a wide metric table
FLOOR = 180  # px: less, where the table drawn at its tightest still needs the room


@dataclass(frozen=True)
class _Layout:
    plot: QRectF  # the bars' area
    lo: float  # value at the plot's bottom
    hi: float  # value at the plot's top
    n: int

    def y(self, v: float) -> float:
        return self.plot.bottom() - (v - self.lo) / (self.hi - self.lo) * self.plot.height()

    @property
    def band(self) -> float:
        return self.plot.width() / max(1, self.n)

    def bar_rect(self, j: int, v: float) -> QRectF:
        w = max(1.0, self.band * 0.78)
        x = self.plot.left() + self.band * (j + 0.5) - w / 2
        y0, y1 = self.y(0.0), self.y(v)
        return QRectF(x, min(y0, y1), w, abs(y1 - y0))


class QueryDeltaChart(QWidget):
    """Sorted per-query differences of one metric between configuration i and configuration 0."""

    query_clicked = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.comparison: Comparison | None = None
        self.index = 1
        self.metric_name = ""  # not `metric`: QWidget.metric is a Qt virtual
        self.current: int | None = None
        self.axis_text = ""  # the line drawn under the bars, as it fit
        self.font_scale = 1.0
        self._base_pt = points(self.font())
        self._font = scaled_font(self.font(), self._base_pt, 1.0)
        self._queries: NDArray[np.int64] = np.zeros(0, np.int64)
        self._deltas: NDArray[np.float64] = np.zeros(0)
        self._unjudged = 0
        self.empty_text = "No comparison to show"  # the caption while there is none
        # narrow beside a wide metric table (four configurations at 1,280 px): 25 bars
        # still read at 220 px, where 320 had pushed the table's last columns away; down to
        # FLOOR for four of two models in the window's own type (review r48, compare 1)
        self.setMinimumSize(FLOOR, 200)
        self.setMouseTracking(True)  # the tooltip follows the bar under the pointer

    def set_comparison(self, comp: Comparison | None, i: int = 1,
                       metric: str | None = None) -> None:
        """Configuration `i` against configuration 0 on `metric` (None: the first metric)."""
        self.comparison = comp
        self._queries, self._deltas, self._unjudged = np.zeros(0, np.int64), np.zeros(0), 0
        if comp is None:
            self.update()
            return
        if not 1 <= i < len(comp.configs):
            raise ValueError(f"configuration {i} is not one to compare with the first "
                             f"(1..{len(comp.configs) - 1})")
        metric = metric or comp.metrics[0]
        if metric not in comp.results[0].per_query:
            raise ValueError(f"unknown metric {metric!r}; valid: "
                             f"{', '.join(comp.results[0].per_query)}")
        self.index, self.metric_name = i, metric
        d = comp.per_query_delta(metric, i)
        judged = np.flatnonzero(~np.isnan(d))
        # largest gain first; equal differences in query order
        order = np.lexsort((judged, -d[judged]))
        self._queries = judged[order].astype(np.int64)
        self._deltas = d[self._queries]
        self._unjudged = int(len(d) - len(judged))
        self.update()

    def set_current_query(self, q: int | None) -> None:
        """Highlight query `q`'s bar (None, or a query without a bar: none)."""
        self.current = q
        self.update()

    def set_font_scale(self, f: float) -> None:
        self.font_scale = max(0.5, float(f))
        self._font = scaled_font(self.font(), self._base_pt, self.font_scale)
        self.updateGeometry()
        self.update()

    # -- what is drawn ------------------------------------------------------------------------

    def bar_queries(self) -> list[int]:
        """The query index of each bar, left to right."""
        return [int(q) for q in self._queries]

    def bar_deltas(self) -> list[float]:
        """Each bar's difference (configuration i − configuration 0), left to right."""
        return [float(d) for d in self._deltas]

    def bar_colors(self) -> list[str]:
        """Each bar's colour (#rrggbb), left to right."""
        neutral = self.comparison is not None and trained_pair(self.comparison, self.index)
        return [self._bar_color(float(v), neutral).name() for v in self._deltas]

    @staticmethod
    def _bar_color(v: float, neutral: bool) -> QColor:
        """Green for a gain, red for a loss, grey for none; all grey against training scores
        (no gain or loss, as the report draws them)."""
        return NEUTRAL if v == 0 or neutral else BETTER if v > 0 else WORSE

    def counts(self) -> tuple[int, int, int]:
        """(improved, unchanged, worsened) judged queries."""
        d = self._deltas
        return int((d > 0).sum()), int((d == 0).sum()), int((d < 0).sum())

    def caption(self) -> str:
        return self._wordings()[0]

    def shown_caption(self) -> str:
        """The caption as drawn: worded shorter where the whole one wraps to more than
        three lines (`chart_words.fitted_caption`); whole in the tooltip then."""
        return fitted_caption(QFontMetricsF(self._bold()), self.width() - 12, self._wordings())

    def _wordings(self) -> list[str]:
        """The caption, whole, then without the pair (the query line above names it), then
        without "per query"."""
        comp = self.comparison
        if comp is None:
            return [self.empty_text]
        a, b = comp.configs[0].name, comp.configs[self.index].name
        # the report's words for the same bars (`report.text.per_query`): against training
        # scores "higher / the same / lower", no gain called a gain (the window had said
        # "7 improved" in green where the report said "no evidence either way")
        tally = per_query(comp, self.index, self.metric_name).tally
        # a glyph kept with its count: the title had wrapped between "▼" and "20 worsened"
        tally = tally.replace("▲ ", "▲\u00a0").replace("▼ ", "▼\u00a0")
        tail = ""
        # the judged queries set aside as tuned on are no "queries without judgments"
        aside = min(comp.set_aside, self._unjudged)
        if self._unjudged - aside:
            tail += f"; {self._unjudged - aside} without judgments left out"
        if aside:
            tail += f"; {aside} tuned on set aside"
        metric = metric_label(self.metric_name)
        return [f"{metric}: {b} − {a}, per query — {tally}{tail}",
                f"{metric} per query — {tally}{tail}", f"{metric}: {tally}{tail}"]

    def bar_center(self, n: int) -> QPoint:
        """The centre of bar `n` (left to right) in widget coordinates."""
        lay = self._layout()
        rect = lay.bar_rect(n, float(self._deltas[n]))
        return QPointF(rect.center().x(), lay.y(float(self._deltas[n]) / 2)).toPoint()

    def bar_at(self, pos: QPoint | QPointF) -> int | None:
        """The bar whose column (the full plot height) holds `pos`."""
        lay = self._layout()
        p = QPointF(pos)
        if not self._queries.size or not lay.plot.adjusted(0, -4, 0, 4).contains(p):
            return None
        j = int((p.x() - lay.plot.left()) // lay.band)
        return j if 0 <= j < lay.n else None

    # -- layout -------------------------------------------------------------------------------

    def _caption_rect(self) -> QRectF:
        fm = QFontMetricsF(self._bold())
        width = self.width() - 12
        flags = Qt.TextFlag.TextWordWrap
        box = fm.boundingRect(QRectF(0, 0, width, 1000), int(flags), self.shown_caption())
        return QRectF(6, 4, width, box.height() + 2)

    def _layout(self) -> _Layout:
        fm = QFontMetricsF(self._font)
        lo = min(0.0, float(self._deltas.min(initial=0.0)))
        hi = max(0.0, float(self._deltas.max(initial=0.0)))
        pad = (hi - lo) * 0.08 or 0.05
        lo, hi = lo - (pad if lo < 0 else 0), hi + (pad if hi > 0 else 0)
        if lo == 0 and hi == 0:
            lo, hi = -0.05, 0.05
        ticks = nice_ticks(lo, hi)
        axis_w = max(fm.horizontalAdvance(_tick_text(t, _digits(ticks))) for t in ticks) + 12
        top = self._caption_rect().bottom() + fm.height() * 0.6
        below = below_lines(fm, self.width() - 8, len(self._deltas))
        bottom = self.height() - fm.height() * (0.8 + len(below))
        plot = QRectF(6 + axis_w, top, max(10.0, self.width() - axis_w - 18),
                      max(10.0, bottom - top))
        return _Layout(plot, lo, hi, len(self._deltas))

    def _bold(self) -> QFont:
        font = QFont(self._font)
        font.setBold(True)
        return font

    def sizeHint(self) -> QSize:  # Qt override
        return QSize(int(560 * self.font_scale), int(280 * self.font_scale))

    # -- input --------------------------------------------------------------------------------

    def mousePressEvent(self, event: QMouseEvent) -> None:  # Qt override
        j = self.bar_at(event.position())
        if j is not None and event.button() == Qt.MouseButton.LeftButton:
            q = int(self._queries[j])
            self.set_current_query(q)
            self.query_clicked.emit(q)
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:  # Qt override
        j = self.bar_at(event.position())
        tip = ""
        if j is not None and self.comparison is not None:
            query = self.comparison.dataset.queries[int(self._queries[j])]
            tip = (f"{query.id}: {query.text}\n"
                   f"{metric_label(self.metric_name)} Δ {signed(float(self._deltas[j]), 4)}")
        elif self.shown_caption() != self.caption():  # worded shorter: whole here
            tip = self.caption()
        self.setToolTip(tip)
        super().mouseMoveEvent(event)

    # -- painting -----------------------------------------------------------------------------

    def paintEvent(self, event: QPaintEvent) -> None:  # Qt override
        p = QPainter(self)
        p.fillRect(self.rect(), QColor("white"))
        p.setFont(self._bold())
        p.setPen(QColor(INK))
        p.drawText(self._caption_rect(), int(Qt.TextFlag.TextWordWrap), self.shown_caption())
        p.setFont(self._font)
        if self.comparison is None:
            p.end()
            return
        lay = self._layout()
        self._paint_axis(p, lay)
        neutral = trained_pair(self.comparison, self.index)
        for j, v in enumerate(self._deltas.tolist()):
            q = int(self._queries[j])
            if q == self.current:
                band = QRectF(lay.plot.left() + lay.band * j, lay.plot.top(), lay.band,
                              lay.plot.height())
                p.fillRect(band, HIGHLIGHT)
            rect = lay.bar_rect(j, v)
            if v == 0:  # a thin grey tick, so that an unchanged query still shows
                rect = QRectF(rect.left(), lay.y(0.0) - 1.5, rect.width(), 3)
            p.fillRect(rect, self._bar_color(v, neutral))
            if q == self.current:
                p.setPen(QPen(QColor(INK), 1.5))
                p.setBrush(Qt.BrushStyle.NoBrush)
                p.drawRect(rect)
        p.setPen(QPen(QColor(INK), 1))
        p.drawLine(QPointF(lay.plot.left(), lay.y(0.0)), QPointF(lay.plot.right(), lay.y(0.0)))
        p.setPen(QColor(MUTED))
        # under the bars, as wide as the chart: a shorter wording where the whole one does
        # not fit (at 1,024 px it was cut at both ends)
        below = QRectF(4, lay.plot.bottom() + 2, self.width() - 8,
                       self.height() - lay.plot.bottom() - 2)
        text = "\n".join(below_lines(QFontMetricsF(p.font()), below.width(),
                                     len(self._deltas)))
        p.drawText(below, Qt.AlignmentFlag.AlignCenter, text)
        self.axis_text = text  # what was drawn (tests)
        p.end()

    def _paint_axis(self, p: QPainter, lay: _Layout) -> None:
        ticks = [t for t in nice_ticks(lay.lo, lay.hi) if lay.lo <= t <= lay.hi]
        digits = _digits(ticks)
        fm = QFontMetricsF(self._font)
        for t in ticks:
            y = lay.y(t)
            p.setPen(QPen(QColor("#eaeef2"), 1))
            p.drawLine(QPointF(lay.plot.left(), y), QPointF(lay.plot.right(), y))
            p.setPen(QColor(INK))
            p.drawLine(QPointF(lay.plot.left() - 4, y), QPointF(lay.plot.left(), y))
            box = QRectF(0, y - fm.height() / 2, lay.plot.left() - 7, fm.height())
            p.drawText(box, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
                       _tick_text(t, digits))
        p.setPen(QPen(QColor(INK), 1))
        p.drawLine(QPointF(lay.plot.left(), lay.plot.top()),
                   QPointF(lay.plot.left(), lay.plot.bottom()))


def _digits(ticks: list[float]) -> int:
    """Decimals enough to tell the ticks apart (their step is 1, 2 or 5 × 10^e: −e)."""
    if len(ticks) < 2:
        return 3
    return max(0, -math.floor(math.log10(abs(ticks[1] - ticks[0])) + 1e-9))


def _tick_text(t: float, digits: int) -> str:
    return "0" if t == 0 else signed(t, digits)
