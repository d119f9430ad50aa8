"""The Tune panel's charts, each a small plot with its data kept for tests and export:

- `TrialCurve`: the objective per trial of the study now running — every trial's training
  value (dots) and the best so far on training; when the study ends, the trial it kept (a
  diamond: the surest gain, not always the best) with its held-out value (a cross), or, when
  it kept the starting values, their training value as a dashed line. No held-out value is
  drawn while the study runs, as the command line prints none: one to watch is one to stop
  or rerun on, a choice made on the held-out queries;
- `ImportanceBars`: optuna's parameter importances (shares of the variance explained);
- `SliceChart`: the objective against one parameter's value, a dot per trial;
- `ContourChart`: two parameters against each other, each trial a dot coloured by objective.

A choice or bool parameter is drawn on positions 0, 1, … with its values as tick labels.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFontMetrics, QResizeEvent, QTextDocument
from PySide6.QtWidgets import QLabel, QSizePolicy, QVBoxLayout, QWidget

from ._base import A_COLOR, B_COLOR, INK, MUTED, OTHER, fit_left_axis, make_plot

# px: the panel scrolls rather than squeeze a plot below this; three in a row beside the
# form and the charts' own scroll bar in a 1,024-px window (at 180 the row asked 556 px of
# the 534 there, cut at the right: dr1 11)
SMALL = (170, 120)
CURVE_LEAST = 140  # px: the trials' plot, its axis ("trial" and its ticks) and room above it
TOP_BARS = 8  # importances drawn (the rest share little and their labels would overlap)


class _Chart(QWidget):
    """A caption over a plot: the title, then its detail (a key, what is shown), on as many
    lines as the chart's width needs (`say`)."""

    flowed = Signal()  # the caption's lines changed (TuneView lines up a row's plots)

    def __init__(self, title: str, *, left: str = "", bottom: str = "",
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.title = title
        self._pieces: list[str] = []
        self._gap = " "
        self.caption_height = 0  # px its lines take (a label's size hint grows to its minimum)
        self._measure: QTextDocument | None = None  # lays out a caption to measure it
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(1)
        self.caption = QLabel(title, self)
        self.caption.setStyleSheet(f"font-weight: 600; color: {INK};")
        # its width is the chart's, never its text's: the lines are broken to fit (`_flow`)
        self.caption.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.caption.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        layout.addWidget(self.caption)
        self.plot = make_plot(left=left, bottom=bottom)
        self.plot.setMinimumSize(*SMALL)
        layout.addWidget(self.plot, 1)

    def say(self, detail: str | Sequence[str], gap: str = " ") -> None:
        """The caption's detail after the title: a text (broken between words where the chart
        is narrow) or HTML pieces, each kept on one line (a key's entries), `gap` between
        them on a line."""
        self._pieces = detail.split() if isinstance(detail, str) else [p for p in detail if p]
        self._gap = gap
        self._flow()

    def resizeEvent(self, event: QResizeEvent) -> None:  # Qt override
        super().resizeEvent(event)
        self._flow()

    def _flow(self) -> None:
        """The title and the pieces, as many on a line as fit the chart's width: one line
        in a wide window; at 1,024 px the trials' key ("… ◇ kept") and the colour key of
        the two-parameter chart had been cut off at the right edge, out of sight."""
        self.caption.ensurePolished()
        width = self.width()
        lines: list[list[str]] = [[]]  # the first line begins with the title
        for piece in self._pieces:
            longer = self._line(len(lines) - 1, [*lines[-1], piece])
            if self._text_width(longer) > width and (lines[-1] or len(lines) == 1):
                lines.append([piece])
            else:
                lines[-1].append(piece)
        text = "<br>".join(self._line(i, line) for i, line in enumerate(lines))
        if text != self.caption.text():
            self.caption.setText(text)
            self.caption_height = math.ceil(self._document(text).size().height())
            self.flowed.emit()

    def _line(self, i: int, pieces: list[str]) -> str:
        detail = (f"<span style='font-weight:400; color:{MUTED}'>{self._gap.join(pieces)}</span>"
                  if pieces else "")
        if i:
            return detail
        return f"{self.title} {detail}" if detail else self.title

    def _document(self, text: str) -> QTextDocument:
        """`text` laid out as the caption lays it out: one document, kept and reused (one
        made per measure, each a child of the chart, had grown memory by 63 MiB over 300
        resizes of the window)."""
        doc = self._measure
        if doc is None:
            doc = self._measure = QTextDocument(self)
            doc.setDocumentMargin(0)
        doc.setDefaultFont(self.caption.font())
        doc.setHtml(text)
        return doc

    def _text_width(self, text: str) -> float:
        return self._document(text).idealWidth()

    def axes(self, on: bool) -> None:
        """The axes (and their grid) only while there is something to read on them: before
        a run each chart drew empty 0–1 axes under its caption."""
        item = self.plot.getPlotItem()
        for name in ("left", "bottom"):
            item.showAxis(name, on)


def positions(values: Sequence[Any]) -> tuple[np.ndarray, list[tuple[float, str]] | None]:
    """Numbers as they are; choices and bools as 0, 1, … with tick labels (else None)."""
    if all(isinstance(v, int | float) and not isinstance(v, bool) for v in values):
        return np.asarray(values, np.float64), None
    kinds = sorted({str(v) for v in values})
    index = {k: i for i, k in enumerate(kinds)}
    return (np.asarray([index[str(v)] for v in values], np.float64),
            [(float(i), k) for i, k in enumerate(kinds)])


class TrialCurve(_Chart):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Trials", left="objective", bottom="trial", parent=parent)
        self.plot.setMinimumHeight(CURVE_LEAST)
        item = self.plot.getPlotItem()
        self.dots = item.plot([], [], pen=None, symbol="o", symbolSize=4,
                              symbolBrush=pg.mkBrush(OTHER), symbolPen=None)
        self.train_line = item.plot([], [], pen=pg.mkPen(A_COLOR, width=2))
        self.held_line = item.plot([], [], pen=None, symbol="x", symbolSize=12,
                                   symbolBrush=pg.mkBrush(B_COLOR),
                                   symbolPen=pg.mkPen(B_COLOR, width=2))
        self.kept = item.plot([], [], pen=None, symbol="d", symbolSize=12, symbolBrush=None,
                              symbolPen=pg.mkPen(INK, width=2))
        self.start_line = pg.InfiniteLine(angle=0, movable=False,
                                          pen=pg.mkPen(INK, width=1.5, style=Qt.PenStyle.DashLine))
        item.addItem(self.start_line)
        # the starting values' held-out value, beside the kept trial's cross: a cross above
        # the training curve had read as a good result where the start did better held out
        self.start_held = pg.InfiniteLine(angle=0, movable=False,
                                          pen=pg.mkPen(B_COLOR, width=1.5,
                                                       style=Qt.PenStyle.DotLine))
        item.addItem(self.start_held)
        self.kept_trial: int | None = None  # what `mark_kept` drew (tests)
        self.reset("")

    def reset(self, study: str, maximize: bool = True) -> None:
        self.study, self.maximize = study, maximize
        self.numbers: list[int] = []
        self.values: list[float] = []
        self.train_best: list[float] = []
        self.held_best: list[float] = []
        self.held_of: dict[int, float] = {}  # each trial's held-out value, drawn for the kept
        self._best = -math.inf
        self._held = math.nan
        self.best_trial: int | None = None  # the best on training so far (its number)
        self.cancelled = False  # the run stopped before its held-out test (rt 9)
        for line in (self.dots, self.train_line, self.held_line, self.kept):
            line.setData([], [])
        self.start_line.hide()
        self.start_held.hide()
        self.kept_trial = None
        self.axes(False)  # until its first trial
        self._caption("")

    def _caption(self, kept: str, held: bool = False) -> None:
        # the legend in the caption: drawn over the plot, it would hide the best trials
        key = [self.study, f"<span style='color:{OTHER}'>●</span> trial",
               f"<span style='color:{A_COLOR}'>━</span> best on training",
               # the study of every query has no held-out value: not a key for one (its long
               # "(none: this study tunes on every query)" was cut off at 1,280 px)
               "(no held-out value)" if self.study == "all" else
               f"<span style='color:{B_COLOR}'>✕</span> its held-out value, "
               f"<span style='color:{B_COLOR}'>┈</span> the start's" if held else
               "(held out: not scored, cancelled)" if self.cancelled else
               "(held out: when it ends)"]
        if kept:
            key.insert(3, f"<span style='color:{INK}'>{kept}</span>")
        self.say(key if self.study else "", gap=" &nbsp;")

    def mark_cancelled(self) -> None:
        """The run was cancelled: no held-out value will come (the caption had kept saying
        "held out: when it ends")."""
        self.cancelled = True
        self._caption("")

    @property
    def best_value(self) -> float:
        """The best training value so far (NaN before a trial)."""
        return math.nan if self.best_trial is None else (
            self._best if self.maximize else -self._best)

    def mark_kept(self, trial: int | None, train: float,
                  held: tuple[float, float] | None = None) -> None:
        """The study's kept trial (its number and training value), or None: the starting
        values were kept, `train` their training value. `held`: (the kept values', the
        starting values') held-out means, where the study holds queries out; else each
        trial's as this run saw it."""
        self.kept_trial = trial
        self.start_held.hide()
        if trial is None:
            self.kept.setData([], [])
            self.held_line.setData([], [])
            self.start_line.setValue(train)
            self.start_line.show()
            self._caption("┅ the start, kept")
        else:
            self.start_line.hide()
            self.kept.setData([float(trial)], [train])
            value = held[0] if held is not None else self.held_of.get(trial, math.nan)
            shown = math.isfinite(value)
            self.held_line.setData([float(trial)] if shown else [], [value] if shown else [])
            if shown and held is not None and math.isfinite(held[1]):
                self.start_held.setValue(held[1])
                self.start_held.show()
            self._caption("◇ kept", held=shown)

    def add(self, number: int, train: float, held_out: float) -> None:
        """One finished trial: its training value and its held-out value (NaN if none)."""
        score = train if self.maximize else -train
        if score > self._best:
            self._best, self._held, self.best_trial = score, held_out, number
        self.axes(True)
        self.numbers.append(number)
        self.values.append(train)
        self.train_best.append(self._best if self.maximize else -self._best)
        self.held_best.append(self._held)
        self.held_of[number] = held_out
        x = np.asarray(self.numbers, np.float64)
        self.dots.setData(x, np.asarray(self.values))
        # steps: the best so far holds until a trial beats it (a ramp would show values no
        # trial had)
        self.train_line.setData(*steps(x, np.asarray(self.train_best)))
        # trials are counted: whole ticks only (a few trials had 0.5, 1.5 …)
        span = max(self.numbers) - min(self.numbers)
        step = max(1, math.ceil(span / 8))
        self.plot.getPlotItem().getAxis("bottom").setTickSpacing(step, step)


def steps(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A step line through (x, y): each value held to the next x, then the jump there.
    x, y: float (n,); returns float (2n − 1,) each."""
    if len(x) < 2:
        return x, y
    sx = np.repeat(x, 2)[1:]
    sy = np.repeat(y, 2)[:-1]
    return sx, sy


class ImportanceBars(_Chart):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Parameter importance", bottom="share of the variance", parent=parent)
        self.shares: dict[str, float] = {}
        self.names: list[str] = []  # the bars' parameters, bottom to top
        self.labels: list[str] = []  # as the axis shows them
        self.share_ticks: list[tuple[float, str]] = []  # the shares' axis, in percent
        self.bars: pg.BarGraphItem | None = None

    def resizeEvent(self, event: QResizeEvent) -> None:  # Qt override
        super().resizeEvent(event)
        self._fit_labels()

    def _fit_labels(self) -> None:
        """The names on the axis in at most three fifths of the chart's width, the bars the
        rest: a name too long loses its group ("Weight: content relevance" → "content
        relevance"), then its end ("…"); the whole names are in the tooltip. At 1,024 px
        codeledger's read "Weight: content relevanc" and "Sufficienc", cut by the plot."""
        room = max(60, int(self.width() * 0.6) - 16)
        fm = QFontMetrics(self.plot.getPlotItem().getAxis("left").font())
        labels = []
        for name in self.names:
            text = name
            if fm.horizontalAdvance(text) > room and ": " in text:
                text = text.split(": ", 1)[1]
            labels.append(fm.elidedText(text, Qt.TextElideMode.ElideRight, room))
        if labels != self.labels or not self.names:
            self.labels = labels
            self.plot.getPlotItem().getAxis("left").setTicks(
                [[(float(i), n) for i, n in enumerate(labels)]])
            fit_left_axis(self.plot, labels)
        # the bars' room: the plot less the names' axis as just set (the view box is laid out
        # later, and read before it had its old width)
        self._fit_shares(self.plot.width() - max((fm.horizontalAdvance(t) for t in labels),
                                                 default=0) - 16 - 12)

    def _fit_shares(self, room: float) -> None:
        """The shares' axis in percent, as many ticks as its width (`room`, px) holds apart
        (at 1,280 a narrow chart read '0.050.100.15')."""
        if not self.names:
            return
        top = max(self.shares[n] for n in self.names) * 1.05 or 1.0
        fm = QFontMetrics(self.plot.getPlotItem().getAxis("bottom").font())
        most = max(2, int(room // (fm.horizontalAdvance("100%") + 14)))
        # a step well below the largest share, so a tick's label stands inside the bars'
        # range (one at its right end is cut, and pyqtgraph leaves it out)
        steps = [s for s in (0.01, 0.02, 0.05, 0.1, 0.2, 0.25, 0.5) if s <= 0.75 * top] or [
            top / 2]
        step = next((s for s in steps if top / s <= most), steps[-1])
        ticks = [(i * step, f"{i * step:.0%}") for i in range(int(top / step + 1e-9) + 1)]
        if ticks != self.share_ticks:
            self.share_ticks = ticks
            self.plot.getPlotItem().getAxis("bottom").setTicks([ticks])

    def show_importances(self, shares: dict[str, float]) -> None:
        item = self.plot.getPlotItem()
        if self.bars is not None:
            item.removeItem(self.bars)
            self.bars = None
        self.shares = dict(shares)
        ranked = sorted(shares, key=lambda n: -shares[n])[:TOP_BARS]
        names = ranked[::-1]  # the most important on top
        self.names = names
        self._fit_labels()
        self.setToolTip("<br>".join(f"{n}: {shares[n]:.0%}" for n in ranked))
        self.axes(bool(names))
        if not names:
            self.say("needs two trials or more")
            return
        self.say(f"top {TOP_BARS} of {len(shares)}" if len(shares) > TOP_BARS else "")
        self.bars = pg.BarGraphItem(x0=0, y=np.arange(len(names), dtype=np.float64),
                                    height=0.6, width=[shares[n] for n in names],
                                    brush=pg.mkBrush(A_COLOR), pen=pg.mkPen(None))
        item.addItem(self.bars)
        item.setYRange(-0.6, len(names) - 0.4, padding=0)
        item.setXRange(0, shares[ranked[0]] * 1.05 or 1.0, padding=0)


class SliceChart(_Chart):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Slice", left="objective", parent=parent)
        self.param = ""
        self.xs = np.zeros(0)
        self.ys = np.zeros(0)
        self.dots = self.plot.getPlotItem().plot(
            [], [], pen=None, symbol="o", symbolSize=6, symbolBrush=pg.mkBrush(A_COLOR + "99"),
            symbolPen=None)

    def show_slice(self, param: str, values: Sequence[Any], objective: Sequence[float],
                   metric: str = "objective") -> None:
        self.param = param
        x, ticks = positions(values) if values else (np.zeros(0), None)
        self.xs, self.ys = x, np.asarray(objective, np.float64)
        item = self.plot.getPlotItem()
        item.getAxis("bottom").setTicks([ticks] if ticks else None)
        item.setLabel("bottom", param, color=INK)
        self.dots.setData(self.xs, self.ys)
        self.axes(bool(len(self.xs)))
        self.say(f"{metric} against {param}, a dot per trial" if param else "")


class ContourChart(_Chart):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Two most important", parent=parent)
        self.params: tuple[str, str] = ("", "")
        self.xs = self.ys = self.zs = np.zeros(0)
        self.cmap = pg.colormap.get("viridis")
        self.dots = pg.ScatterPlotItem(size=8, pen=None)
        self.plot.getPlotItem().addItem(self.dots)

    def show_pairs(self, names: tuple[str, str], a: Sequence[Any], b: Sequence[Any],
                   objective: Sequence[float]) -> None:
        self.params = names
        item = self.plot.getPlotItem()
        (x, xt), (y, yt) = positions(a), positions(b)
        self.xs, self.ys, self.zs = x, y, np.asarray(objective, np.float64)
        item.getAxis("bottom").setTicks([xt] if xt else None)
        item.getAxis("left").setTicks([yt] if yt else None)
        item.setLabel("bottom", names[0], color=INK)
        item.setLabel("left", names[1], color=INK)
        self.axes(bool(len(self.zs)))
        if not len(self.zs):
            self.dots.setData([], [])
            return
        low, high = float(np.nanmin(self.zs)), float(np.nanmax(self.zs))
        scaled = (self.zs - low) / (high - low) if high > low else np.full(len(self.zs), 0.5)
        brushes = [pg.mkBrush(c) for c in self.cmap.map(np.nan_to_num(scaled), mode="qcolor")]
        self.dots.setData(self.xs, self.ys, brush=brushes)
        ends = [c.name() for c in self.cmap.map(np.array([0.0, 1.0]), mode="qcolor")]
        # the two ends' colour, each with its value, kept together on a line
        self.say(["objective", f"<span style='color:{ends[0]}'>■</span> {low:.3f} … "
                               f"<span style='color:{ends[1]}'>■</span> {high:.3f}"])
