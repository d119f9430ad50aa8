"""Per-signal contributions: the selected query's top k as stacked horizontal bars (one colour
per signal, positive parts right of zero, negative parts left of it, the total as a tick), and
two selected documents side by side — why A outranks B — with the per-signal difference.

Events: result_changed, query_changed, docs_changed, k_changed, model_changed. Clicking a bar
picks that document (the last two picked are the pair compared).
"""

from __future__ import annotations

import html
import math

import numpy as np
import pyqtgraph as pg
from numpy.typing import NDArray
from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetrics
from PySide6.QtWidgets import QSizePolicy, QTabWidget, QWidget

from workbench.core.compare import doc_contributions
from workbench.core.session import TuningSession
from workbench.gui.elided import ElidingLabel, elide_path_chars
from workbench.gui.palette import signal_hex, signed
from workbench.gui.signal_names import idle_signals, signal_labels

from ._base import (
    A_COLOR,
    B_COLOR,
    DIFF_COLOR,
    INK,
    MUTED,
    ChartPanel,
    add_legend,
    fit_left_axis,
    make_plot,
)

BAR = 0.72  # bar thickness, in rows
# up to this many rows, the row labels may take a smaller font (down to LABEL_LEAST_PT) so
# that every bar is named: at every window size, 1,920 × 1,080 included, the ten rows were
# ~10 px apart and only #1, #3, #5 … had a label
LABEL_EVERY_ROWS = 10
LABEL_LEAST_PT = 7.5


def stack(values: NDArray[np.float64]) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Stacked-bar geometry of float64 (S, n) parts: (start, length) each (S, n), positive
    parts piled rightwards from 0 and negative parts leftwards, in signal order."""
    v = np.nan_to_num(values)
    pos, neg = np.maximum(v, 0), np.minimum(v, 0)
    pos_start = np.cumsum(pos, axis=0) - pos
    neg_start = np.cumsum(neg, axis=0)  # a negative part spans [start, start - part]
    start = np.where(v >= 0, pos_start, neg_start)
    return start, np.abs(v)


LEGEND_ROWS = 6  # legend entries per column before another column starts
MAX_LEGEND_COLUMNS = 2  # wider, the legend is left out (it would cover the bars)
LEGEND_MARGIN = 12  # px above and below the legend's rows: its offset and its frame
SETTLE_MS = 400  # ms after a slider's last tick that the x range drops its headroom
MAX_LEGEND_WIDTH = 0.5  # of the plot's width: a legend spread wider covers most bars' length


class ContributionChart(ChartPanel):
    title = "Contributions"
    export_name = "contributions"

    def __init__(self, session: TuningSession, parent: QWidget | None = None) -> None:
        super().__init__(session, parent)
        # how to read the bars where the model's score is no plain sum (importance's product),
        # beside the caption, elided where short (whole in its tooltip)
        self.note = ElidingLabel(self)
        self.note.setStyleSheet(f"color: {MUTED};")
        self.note.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.header.insertWidget(1, self.note, 1)
        self.header.setStretch(2, 0)  # the note takes the room the stretch after it took
        self.tabs = QTabWidget()
        self.top_plot = make_plot(bottom="contribution to the score")
        self.top_plot.getPlotItem().invertY(True)
        # no grid lines along the rows (the bars are the rows): the left axis, re-rendered
        # whenever the top k reorders, then covers its own strip, not the whole view
        self.top_plot.getPlotItem().showGrid(x=True, y=False, alpha=0.15)
        self.top_plot.getPlotItem().getAxis("left").setStyle(autoExpandTextSpace=True)
        self.pair_plot = make_plot(left="contribution")
        self.tabs.addTab(self.top_plot, "Top k")
        self.tabs.addTab(self.pair_plot, "A vs B")
        self.tabs.currentChanged.connect(self._on_tab)
        self.body.addWidget(self.tabs)
        self.top_legend = add_legend(self.top_plot)
        self.pair_legend = add_legend(self.pair_plot)
        self._pair_axes(False)  # shown once two documents are picked (`_draw_pair`)
        # what is drawn, for tests and export: bars per signal and the data behind them
        self.bars: dict[str, pg.BarGraphItem] = {}
        self.docs: NDArray[np.int32] = np.zeros(0, np.int32)
        self.values: NDArray[np.float64] = np.zeros((0, 0))  # (S, n) top-k contributions
        self.pair_bars: dict[str, pg.BarGraphItem] = {}
        self.pair_values: NDArray[np.float64] = np.zeros((0, 0))  # (3, S + 1): A, B, A − B
        self.pair_names: list[str] = []  # the groups drawn: total, then the signals held
        self.pair_caption = self.pair_key = ""  # the title's lines: the verdict, the key
        self._top_hint = self._pair_hint = ""
        self._top_range: tuple[float, float, int] | None = None
        # each row's right end (its total or its bars', 0 at least): the rows under the
        # legend are the ones that need room beside it (`_place_legend`)
        self._row_ends: NDArray[np.float64] = np.zeros(0)
        self.legend_at_bottom = False  # the legend in the bottom-right corner, over short bars
        self._top_signals: tuple[str, ...] | None = None
        self._top_idle: frozenset[str] = frozenset()  # the signals its legend leaves out
        self._top_bars: list[pg.BarGraphItem] = []
        self._top_ticks: pg.ScatterPlotItem | None = None
        # the rows of files the bundle skipped for the budget, hatched over (0-based ranks)
        self._top_hatch: pg.BarGraphItem | None = None
        self.skipped_rows: tuple[int, ...] = ()
        self._cut_of: tuple[int, int] | None = None  # (id of the result, query)
        self._cut: frozenset[int] = frozenset()
        self._top_query = -1
        # the query (and the legend's state) the range is for
        self._x_for: tuple[int, bool, bool, int] | None = None
        self._top_labels: list[tuple[float, str]] | None = None
        self._labels_shown: list[tuple[float, str]] | None = None  # on the axis now
        self._x_shown: tuple[float, float] | None = None
        self._pair_stale = False
        self._pair_drawn = False
        # whether "Top k" holds bars: not the page's visibility, which QTabWidget takes away
        # from whichever page is not shown (clicking "A vs B" had hidden the tabs, dr6 1)
        self._top_drawn = False
        self.top_plot.scene().sigMouseClicked.connect(self._on_click)
        # the legend's share of the width changes with the view's size: keep bars clear of it
        self.top_plot.getPlotItem().vb.sigResized.connect(lambda *_: self._apply_top_range())
        # the headroom a slider's growing bars got, dropped once the slider rests
        self._settle = QTimer(self, singleShot=True, interval=SETTLE_MS)
        self._settle.timeout.connect(self._refit_x)
        for event in (session.result_changed, session.query_changed, session.docs_changed,
                      session.k_changed, session.model_changed, session.dataset_changed):
            self.listen(event, self.update_later)
        self.update_later()

    def current_plot(self) -> pg.PlotWidget:
        return self.pair_plot if self.tabs.currentIndex() == 1 else self.top_plot

    def per_query(self) -> bool:
        return True

    # -- drawing ------------------------------------------------------------------------------

    def redraw(self, *_: object) -> None:
        self._draw_top()
        self._draw_pair()
        self._refresh_hint()

    def _on_tab(self, *_: object) -> None:
        if self._pair_stale and self.tabs.currentIndex() == 1:
            self._draw_pair()
        if self.tabs.currentIndex() == 0:  # drawn while "A vs B" was shown: no axes otherwise
            self.top_plot.setVisible(self._top_drawn)
        self._refresh_hint()

    def _refresh_hint(self) -> None:
        # nothing in either tab (a query that ranks nothing, no result yet): the note alone,
        # not the tabs over an empty framed box (review r49, dr4 11)
        self.tabs.setVisible(self._top_drawn or self._pair_drawn)
        pair = self.tabs.currentIndex() == 1 and not self.tabs.isHidden()
        self.show_hint(self._pair_hint if pair else self._top_hint)

    def export_refusal(self) -> str:
        if self.tabs.currentIndex() == 1 and not self.tabs.isHidden() and not self._pair_drawn:
            note = " ".join(self._pair_hint.split()) or "no pair is drawn."
            return f"Nothing to export: {note}"
        return super().export_refusal()

    def _clear(self, plot: pg.PlotWidget, legend: pg.LegendItem) -> None:
        plot.getPlotItem().clear()
        legend.clear()

    def _top_items(self, signals: tuple[str, ...]) -> tuple[list[pg.BarGraphItem],
                                                             pg.ScatterPlotItem]:
        """The bars (one item per signal), the total ticks and the zero line, built once per
        signal set and then updated in place: a slider tick moves bars, it does not rebuild
        items, legend and layout (which cost ~20 ms of the GUI thread per redraw)."""
        idle = idle_signals(self.session)
        if self._top_signals != signals or self._top_idle != idle or self._top_ticks is None:
            self._clear(self.top_plot, self.top_legend)
            plot = self.top_plot.getPlotItem()
            self._top_bars = []
            # keyed by the signals' sliders' names, as the ranked table's legend, less those
            # 0 for every pair at these values (vault-search's proximity when shipped)
            for i, name in enumerate(signal_labels(self.session.model, signals)):
                bar = pg.BarGraphItem(x0=[], y=[], width=[], height=BAR,
                                      brush=pg.mkBrush(signal_hex(i)),
                                      pen=pg.mkPen("w", width=0.5))
                plot.addItem(bar)
                if signals[i] not in idle:
                    self.top_legend.addItem(bar, name)
                self._top_bars.append(bar)
            # a file the bundle skipped for the budget (greyed in the ranked table, "skipped:
            # over the budget" in explain): hatched over, its label says so (rv2 10)
            self._top_hatch = pg.BarGraphItem(x0=[], y=[], width=[], height=BAR,
                                              brush=QBrush(QColor("white"),
                                                           Qt.BrushStyle.BDiagPattern),
                                              pen=pg.mkPen(None))
            plot.addItem(self._top_hatch)
            self._top_ticks = pg.ScatterPlotItem(x=[], y=[], symbol="|", size=16,
                                                 pen=pg.mkPen(INK, width=2),
                                                 brush=pg.mkBrush(INK))
            plot.addItem(self._top_ticks)
            self.top_legend.addItem(self._top_ticks, "total")
            self._fit_legend()
            plot.addItem(pg.InfiniteLine(pos=0, angle=90, pen=pg.mkPen(INK, width=1)))
            self._top_signals, self._top_idle = signals, idle
            self._top_labels = self._labels_shown = None
        return self._top_bars, self._top_ticks

    def _empty_top(self, hint: str, signals: tuple[str, ...] | None = None) -> None:
        """No bar to draw: the rows and their labels go, and the legend names `signals` (the
        model's now; none: no result) — not those of the last ranking drawn."""
        self._top_hint = hint
        self._top_drawn = False
        # no axes over nothing (an empty 0–1 plot under "No result yet" during a first
        # prepare, upside-down ticks under "ranks no document"); the hint says why. A query
        # that ranks nothing keeps the model's legend for the next that ranks something
        self.top_plot.setVisible(False)
        self.bars = {}
        self._top_range = None
        self.docs, self.values = np.zeros(0, np.int32), np.zeros((0, 0))
        if signals is not None:
            self._top_items(signals)
        elif self._top_signals:
            self._clear(self.top_plot, self.top_legend)
            self._top_signals, self._top_bars, self._top_ticks = None, [], None
            self._top_hatch = None
        for bar in [*self._top_bars, *([self._top_hatch] if self._top_hatch else [])]:
            bar.setOpts(x0=[], y=[], width=[])
        self.skipped_rows = ()
        if self._top_ticks is not None:
            self._top_ticks.setData(x=[], y=[])
        if self._top_labels:
            self._top_labels = self._labels_shown = None
            self.top_plot.getPlotItem().getAxis("left").setTicks([[]])

    def _draw_top(self) -> None:
        s = self.session
        r = s.result
        if r is None or s.dataset is None or s.query >= r.ranking.docs.shape[0]:
            self._empty_top("No result yet.")
            return
        q = s.query
        n = min(s.k, int(r.ranking.count[q]), r.ranking.docs.shape[1])
        qid = s.dataset.queries[q].id
        self.caption.setText(f"Contributions — query {qid}, top {n}")
        note = s.model.contribution_note if s.model is not None else ""
        self.note.set_texts(html.escape(note), note, note)
        if n == 0:
            self._empty_top(f"Query {qid} ranks no document.", tuple(r.scores.signals))
            return
        self._top_hint = ""
        self._top_drawn = True
        if self.tabs.currentIndex() == 0:  # shown on "A vs B", it would cover the pair's page
            self.top_plot.setVisible(True)
        ranking = r.ranking
        parts = r.scores.contributions_of(ranking.pair[q, :n])  # (S, n): this query only
        self.docs = ranking.docs[q, :n].copy()
        self.values = parts
        start, length = stack(parts)
        rows = np.arange(n, dtype=np.float64)
        bars, ticks = self._top_items(tuple(r.scores.signals))
        for i, bar in enumerate(bars):
            bar.setOpts(x0=start[i], y=rows, width=length[i])
        self.bars = dict(zip(r.scores.signals, bars, strict=True))
        totals = ranking.scores[q, :n]
        ticks.setData(x=totals, y=rows)
        from workbench.gui.ranked_rows import bundle_cut

        if self._cut_of != (id(r), q):  # once per result and query: a bundle per query
            self._cut_of, self._cut = (id(r), q), bundle_cut(s)[1]
        self.skipped_rows = tuple(sorted(j for j in self._cut if j < n))
        skip = np.asarray(self.skipped_rows, np.int64)
        ends = start + length
        left = np.minimum(np.minimum(start.min(axis=0), ends.min(axis=0)), 0.0)[skip]
        right = np.maximum(np.maximum(start.max(axis=0), ends.max(axis=0)), 0.0)[skip]
        if self._top_hatch is not None:
            self._top_hatch.setOpts(x0=left, y=skip.astype(np.float64), width=right - left)
        corpus = s.dataset.corpus
        chosen = set(s.docs)
        labels = []
        for j, d in enumerate(self.docs.tolist()):
            mark = "◆ " if d in chosen else ""
            # "#3 · 184", not "3. 184": numeric ids (Cranfield, BEIR) read as decimals
            labels.append((float(j), f"{mark}#{j + 1} · {elide_path_chars(corpus[d].id, 24)}"
                           + (" · skipped" if j in self.skipped_rows else "")))
        if labels != self._top_labels:
            self._top_labels = labels
            fit_left_axis(self.top_plot, [text for _, text in labels], grow_only=True)
        self._top_query = q
        self._top_range = (float(min(0.0, start.min())),
                           float(max(np.nanmax(totals), (start + length).max(), 0.0)), n)
        self._row_ends = np.maximum(np.fmax(np.nan_to_num(totals, nan=0.0),
                                            (start + length).max(axis=0)), 0.0)
        self._apply_top_range()

    def label_font(self) -> QFont:
        """The row labels' font: the axis's own, or where LABEL_EVERY_ROWS rows or fewer are
        closer than its line, the largest size down to LABEL_LEAST_PT that names every row."""
        axis = self.top_plot.getPlotItem().getAxis("left")
        base: QFont = axis.font()
        n = len(self._top_labels or ())
        view = float(self.top_plot.getPlotItem().vb.height())
        if n < 2 or view < 1 or n > LABEL_EVERY_ROWS or base.pointSizeF() <= 0:
            return base
        pitch = view / n
        size = base.pointSizeF()
        while size >= LABEL_LEAST_PT:
            font = QFont(base)
            font.setPointSizeF(size)
            if _line(font) <= pitch:
                return font
            size -= 0.5
        return base

    def label_step(self) -> int:
        """Every how many rows a label is drawn: 1 where a row is a line of text tall (in the
        smaller `label_font` where that does it), else enough that the labels drawn are a line
        apart (ten rows in the ~100 px of a 720-px window overlapped into an unreadable
        block)."""
        n = len(self._top_labels or ())
        view = float(self.top_plot.getPlotItem().vb.height())
        if n < 2 or view < 1:
            return 1
        return max(1, math.ceil(_line(self.label_font()) / (view / n)))

    def _show_labels(self) -> None:
        """The row labels the rows' height has room for (`label_step`), in `label_font`, set
        on the axis only when they change: the axis re-renders its picture on new ticks."""
        labels = self._top_labels or []
        axis = self.top_plot.getPlotItem().getAxis("left")
        font = self.label_font()
        if font != axis.style.get("tickFont"):
            axis.setTickFont(font)
            self._labels_shown = None  # drawn anew in the new font
        step = self.label_step()
        shown = labels[::step]
        if shown != self._labels_shown:
            self._labels_shown = shown
            axis.setTicks([shown])

    def _fit_legend(self) -> int:
        """As many rows in the legend as the plot has height for, at most LEGEND_ROWS, the
        rest in more columns: in a 720-px window the plot is ~100 px tall, and vault's six
        entries (tf … clamp, total) were cut after the fourth. Returns those columns, the
        fewest the legend may have (`_place_legend` may spread it wider)."""
        legend = self.top_legend
        n = len(legend.items)
        if not n:
            return 1
        row = max(item.boundingRect().height() for pair in legend.items for item in pair)
        room = self.top_plot.getPlotItem().vb.height() - 2 * LEGEND_MARGIN
        fit = max(1, min(n, int(room // max(row, 1.0))))  # the rows the plot has height for
        rows = min(fit, LEGEND_ROWS) if math.ceil(n / min(fit, LEGEND_ROWS)) <= \
            MAX_LEGEND_COLUMNS else fit  # compact where that fits, else as tall as it goes
        columns = math.ceil(n / rows)
        # more than two columns cover the bars (codeledger's 18 signals: 3 rows × 6 columns
        # over bars #2–#9); the colours are keyed on the ranked table's signals line too
        legend.setVisible(columns <= MAX_LEGEND_COLUMNS)
        return columns

    def _apply_top_range(self) -> None:
        fewest = self._fit_legend()
        if self._top_range is None:
            return
        self._show_labels()
        lo, hi, n = self._top_range
        span = max(hi - lo, 1e-9)
        # room beside the legend only for the rows under it, in the corner and at the width
        # whose rows end shortest: at the top right over vault's longest bar (0.74) the axis
        # ran to 1.45, half the plot empty (rA 12); with four signals in two columns the
        # legend covered the longest bar in either corner and the axis ran to 1.23 for 0.91
        # (dG 5): spread over more columns it covers fewer rows
        end = self._place_legend(fewest, lo, hi + 0.02 * span, n) \
            if self.top_legend.isVisible() else hi + 0.02 * span
        want = (lo - 0.02 * span, end)
        key = (self._top_query, bool(self.top_legend.isVisible()), self.legend_at_bottom,
               int(self.top_legend.columnCount))
        if self._x_for != key:
            # another query, the legend shown, hidden or moved: fitted anew, not kept from the
            # last one's bars as a slider tick keeps it (ky: 0 to 3.6 around bars up to 2.0)
            self._x_for, self._x_shown = key, None
        shown = self._x_shown
        # a range that moves on every slider tick re-renders the bottom axis and its grid
        # (~6 ms) on every tick: keep the shown range while the bars fit it and fill most of
        # it; when it must change, leave headroom on the side(s) the bars grow to
        if (shown is None or lo < shown[0] or want[1] > shown[1]
                or (want[1] - want[0]) < 0.55 * (shown[1] - shown[0])):
            # a query fitted anew fits its bars, as the left side does (dr2 4: 30% more had
            # run the axis to 2.63 around bars ending at 2.02); a slider's bars outgrowing
            # the range get headroom, so that the next ticks keep it
            extra = (0.03 if shown is None else 0.3) * (want[1] - want[0])
            if shown is not None:  # once the slider rests, fitted to its bars (dG 5: term
                self._settle.start()  # frequency 0.4 → 0.9 left the axis at 1.21 for 0.91)
            # headroom on the left by the negative bars' own size: a third of the whole span
            # there had left a fifth of the width empty beside a −0.07 (rv2 10)
            shown = (want[0] + 0.3 * min(lo, 0.0), want[1] + extra)
            self._x_shown = shown
        plot = self.top_plot.getPlotItem()
        plot.setXRange(*shown, padding=0)
        plot.setYRange(-0.6, n - 0.4, padding=0)

    def _refit_x(self) -> None:
        """The x range fitted to the bars as a query fitted anew, the drag's headroom gone."""
        self._x_shown = None
        self._apply_top_range()

    def _legend_size(self, columns: int) -> tuple[float, float]:
        """The legend's width and height laid out in `columns`, without laying it out: its
        entries' sizes row by row, plus the frame and spacing its present layout adds (the
        entries alone had read 208 × 66 px for a legend of 229 × 84)."""
        legend = self.top_legend
        entries = [sum(item.width() + 3 for item in pair) for pair in legend.items]
        heights = [max(item.height() for item in pair) for pair in legend.items]

        def bare(c: int) -> tuple[float, float, int]:
            starts = range(0, len(entries), c)
            return (max(sum(entries[r:r + c]) for r in starts),
                    sum(max(heights[r:r + c]) for r in starts), len(starts))

        now_w, now_h, now_rows = bare(legend.columnCount)
        box = legend.boundingRect()
        w, h, rows = bare(columns)
        return (w + max(box.width() - now_w, 0.0),
                h + max(box.height() - now_h, 0.0) / now_rows * rows)

    def _place_legend(self, fewest: int, lo: float, end: float, n: int) -> float:
        """The legend at the columns (from `fewest` up to one row) and in the corner (top or
        bottom right) that let the axis end nearest the bars: the axis end, past `end` only
        by the room the legend needs beside the bars under it."""
        legend = self.top_legend
        vb = self.top_plot.getPlotItem().vb
        width = float(vb.width()) if vb.width() >= 50 else 600.0  # not laid out yet
        best: tuple[float, int, bool] | None = None
        for columns in range(fewest, len(legend.items) + 1):
            w, h = self._legend_size(columns)
            room = (w + 20) / width
            if columns > fewest and room > MAX_LEGEND_WIDTH:
                break  # wider still covers most of the bars' length
            room = min(room, MAX_LEGEND_WIDTH)
            for at_bottom in (False, True):
                under = self._legend_covers(n, h, at_bottom)
                fits = max(end, lo + (under - lo) / (1 - room))
                if best is None or fits < best[0] - 1e-9:
                    best = (fits, columns, at_bottom)
        assert best is not None
        fits, columns, at_bottom = best
        legend.setColumnCount(columns)
        if at_bottom != self.legend_at_bottom:
            self.legend_at_bottom = at_bottom
            corner = (1, 1) if at_bottom else (1, 0)
            legend.anchor(itemPos=corner, parentPos=corner,
                          offset=(-6, -6) if at_bottom else (-6, 6))
        return fits

    def _legend_covers(self, n: int, height: float, at_bottom: bool) -> float:
        """The right end of the longest bar a legend `height` px tall covers, in the top-right
        or bottom-right corner."""
        ends = self._row_ends[:n]
        view = float(self.top_plot.getPlotItem().vb.height())
        if not len(ends) or view < 1:
            return float(ends.max(initial=0.0))
        # the share of the plot's height the legend covers; row j's bar spans j ± 0.4 of
        # the rows' range (−0.6 … n − 0.4, row 0 at the top)
        covers = (height + LEGEND_MARGIN) / view * n
        rows = np.arange(len(ends))
        if at_bottom:
            return float(ends[len(ends) - 0.8 - rows < covers].max(initial=0.0))
        return float(ends[rows + 0.2 < covers].max(initial=0.0))

    def _pair_axes(self, on: bool) -> None:
        """The A vs B plot's axes, off while it holds nothing (empty 0–1 axes sat under the
        hint). Its key is a line of its title: a legend box inside the plot covered the
        last signal's bars at every width."""
        item = self.pair_plot.getPlotItem()
        for name in ("left", "bottom"):
            item.showAxis(name, on)
        self.pair_legend.setVisible(False)

    def _draw_pair(self) -> None:
        s = self.session
        r = s.result
        ready = r is not None and s.dataset is not None and len(s.docs) >= 2
        if ready and self.tabs.currentIndex() != 1:
            self._pair_stale = True  # drawn when its tab is shown: a drag pays for one plot
            return
        self._pair_stale = False
        if self._pair_drawn:
            self._clear(self.pair_plot, self.pair_legend)
            self.pair_plot.getPlotItem().setTitle(None)
            self._pair_drawn = False
        self.pair_bars, self.pair_values = {}, np.zeros((0, 0))
        self.pair_names = []
        # nothing to draw: no plot, rather than empty 0–1 axes and an empty legend box
        # under the hint that says what to do
        if r is None or s.dataset is None:
            self._pair_hint = "No result yet."
            self._pair_axes(False)
            return
        if len(s.docs) < 2:
            self._pair_hint = ("Pick two documents (click two bars in “Top k”, or select two "
                               "rows of the ranked table) to see why one outranks the other.")
            self._pair_axes(False)
            return
        self._pair_hint = ""
        self._pair_drawn = True
        self._pair_axes(True)
        q = s.query
        sides = [(d, *doc_contributions(r.scores, q, d)) for d in s.docs[-2:]]
        sides.sort(key=lambda t: -t[1])  # A is the one scoring higher
        (da, ta, pa), (db, tb, pb) = sides
        names = [*r.scores.signals, "total"]
        a = np.append(pa, ta)
        b = np.append(pb, tb)
        self.pair_docs = (da, db)
        self.pair_values = np.stack([a, b, a - b])  # every signal, then the total
        # drawn: the total first, then the signals either document has (codeledger's 17
        # names ran into one another)
        shown = [len(names) - 1, *(i for i in range(len(names) - 1) if a[i] or b[i])]
        self.pair_names = [names[i] for i in shown]
        a, b = a[shown], b[shown]
        x = np.arange(len(shown), dtype=np.float64)
        w = 0.26
        corpus = s.dataset.corpus
        rank_of = {int(d): j + 1 for j, d in enumerate(r.ranking.docs[q, : r.ranking.count[q]])}
        plot = self.pair_plot.getPlotItem()
        def named(d: int) -> str:
            return f"{html.escape(elide_path_chars(corpus[d].id, 40))} (#{rank_of.get(d, '–')})"

        keys: list[str] = []
        for key, offset, color, label, values in (
                ("A", -w, A_COLOR, f"A {named(da)}", a),
                ("B", 0.0, B_COLOR, f"B {named(db)}", b),
                ("A − B", w, DIFF_COLOR, "A − B", a - b)):
            bar = pg.BarGraphItem(x=x + offset, y0=np.minimum(values, 0), height=np.abs(values),
                                  width=w * 0.95, brush=pg.mkBrush(color), pen=pg.mkPen(None))
            plot.addItem(bar)
            self.pair_bars[key] = bar
            keys.append(f"<span style='color:{color}'>■</span> {label}")
        plot.addItem(pg.InfiniteLine(pos=0, angle=0, pen=pg.mkPen(INK, width=1)))
        shown_names = [*signal_labels(s.model, self.pair_names[1:])]
        plot.getAxis("bottom").setTicks([[(float(i), n) for i, n in
                                          enumerate([self.pair_names[0], *shown_names])]])
        drawn = np.stack([a, b, a - b])
        lo = float(min(drawn.min(), 0.0))
        hi = float(max(drawn.max(), 0.0))
        span = max(hi - lo, 1e-9)
        plot.setYRange(lo - 0.05 * span, hi + 0.08 * span, padding=0)
        plot.setXRange(-0.6, len(shown) - 0.4, padding=0)
        diff = self.pair_values[2, :-1]
        why = ""
        if len(diff) > 1 and np.any(diff > 0):
            i = int(np.argmax(diff))
            why = (f"; most from {signal_labels(s.model, names[i:i + 1])[0]} "
                   f"({signed(float(diff[i]))})")
        gates = r.scores.gates
        for d in (da, db):
            pair = self._gate_of(q, d)
            if pair:
                why += f"; {corpus[d].id} gated by {gates[pair - 1]}"
        if abs(ta - tb) < 1e-12:
            self.pair_caption = f"A and B tie at {ta:.3g}: the model's tie order decides{why}"
        else:
            self.pair_caption = f"A outranks B by {signed(float(ta - tb))}{why}"
        self.pair_key = "&nbsp;&nbsp;&nbsp;".join(keys)
        plot.setTitle(f"{html.escape(self.pair_caption)}<br>{self.pair_key}", color=INK,
                      size="9pt")

    def _gate_of(self, q: int, doc: int) -> int:
        scores = self.session.result.scores if self.session.result else None
        if scores is None:
            return 0
        row = scores.row(q)
        hit = np.flatnonzero(scores.docs[row] == doc)
        return int(scores.gate[row.start + hit[0]]) if len(hit) else 0

    # -- picking ------------------------------------------------------------------------------

    def _on_click(self, event: object) -> None:
        pos = event.scenePos()  # type: ignore[attr-defined]
        vb = self.top_plot.getPlotItem().vb
        if not vb.sceneBoundingRect().contains(pos) or len(self.docs) == 0:
            return
        row = round(vb.mapSceneToView(pos).y())
        if 0 <= row < len(self.docs):
            self.pick(int(self.docs[row]))

    def pick(self, doc: int) -> None:
        """Add a document to the compared pair (the older of two drops out)."""
        docs = [d for d in self.session.docs if d != doc] + [doc]
        self.session.select_docs(docs)
        if len(self.session.docs) == 2:
            self.tabs.setCurrentIndex(1)


def _line(font: QFont) -> int:
    """The height a row label needs: its font's ascent and descent, less the one pixel two
    lines may share (the descent's last pixel is blank for most glyphs)."""
    return max(1, QFontMetrics(font).height() - 1)


def main(argv: list[str] | None = None) -> int:
    from ._standalone import run_panel

    return run_panel(ContributionChart, argv, default_docs=2)


if __name__ == "__main__":
    raise SystemExit(main())

