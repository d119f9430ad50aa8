"""The score distribution: a histogram of candidate scores — the selected query's, or every
query's — judged relevant against the rest, with the model's min-score threshold as a draggable
line linked both ways to its parameter (dragging sets it, throttled; a session change moves it).

Events: result_changed, query_changed, params_changed, model_changed, dataset_changed.
"""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from numpy.typing import NDArray
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QCheckBox, QWidget

from workbench.core.engine import Model
from workbench.core.metrics import Judgments
from workbench.core.params import Param, ParamError, Params, min_score_param
from workbench.core.ranking import Scores
from workbench.core.session import TuningSession

from ._base import INK, OTHER, RELEVANT, ChartPanel, add_legend, make_plot

BINS = 30
THROTTLE_MS = 60


def threshold_param(model: Model | None) -> Param | None:
    """The model's min-score parameter: `min_score` or `min_similarity` when it has one, else
    the first live numeric parameter whose name contains min_score / min_similarity /
    minScore; None when it has none, or selects bundles (no score cuts its ranking)."""
    if model is None:
        return None
    # a model that selects bundles cuts no ranking at a score: codeledger's "Overshoot: min
    # score" (a stopping rule's) sat there as the line while its bundle kept files at 0.29
    if callable(getattr(model, "bundles", None)):
        return None
    return min_score_param(model.schema)


def applied_min_score(model: Model | None, prepared: object, params: Params, n_queries: int,
                      query: int) -> tuple[Param | None, float] | None:
    """The min score query `query`'s search applies where its model sets one per query
    (`diagnostics.turn_settings`: an eval case's minScore replaces the sliders, a manual
    search takes Search min score), and the parameter that moves it: the first live min-score
    parameter at that value whose nudge by a step moves it too, None where none does (the
    query's own). None where the model has no per-query settings (the slider's line holds).
    rA 1: decisions-eval's search case with minScore 1 had "Inject min score = 30" drawn."""
    from workbench.core.diagnostics import turn_settings

    if model is None or prepared is None or not hasattr(model, "injections") \
            or not 0 <= query < n_queries:
        return None
    try:
        mins = turn_settings(model, params, n_queries, prepared)[0]
    except (ParamError, ValueError):
        return None
    value = mins[query]
    for p in model.schema:
        if p.stage != "live" or p.kind not in ("float", "int") or "min_score" not in p.name \
                or float(params.get(p.name, p.default)) != value:
            continue
        step = float(p.step or 1)
        nudged = value + step if p.high is None or value + step <= p.high else value - step
        try:
            moved = turn_settings(model, {**params, p.name: nudged}, n_queries, prepared)[0]
        except (ParamError, ValueError):
            continue
        if moved[query] != value:
            return p, value
    return None, value


def _min_score_params(model: Model) -> list[Param]:
    """The model's live numeric min-score parameters (Inject and Search min score)."""
    return [p for p in model.schema if p.stage == "live" and p.kind in ("float", "int")
            and "min_score" in p.name]


def min_score_groups(model: Model | None, prepared: object, params: Params,
                     n_queries: int) -> list[tuple[Param | None, float, int]] | None:
    """Every query's applied min score (`applied_min_score`) in groups: the parameter that
    moves it (None: the queries' own), the value and how many queries, the most first. None
    where the model has no per-query settings. dF 2: with All queries on, decisions in mode
    "search" had drawn Inject min score = 8, which no query applies (each takes Search min
    score, 1)."""
    from workbench.core.diagnostics import turn_settings

    if model is None or prepared is None or not hasattr(model, "injections") \
            or n_queries <= 0:
        return None
    try:
        mins = turn_settings(model, params, n_queries, prepared)[0]
    except (ParamError, ValueError):
        return None
    out: list[tuple[Param | None, float, int]] = []
    for value in sorted(set(mins)):
        left = {q for q, m in enumerate(mins) if m == value}
        for p in _min_score_params(model):
            if not left or float(params.get(p.name, p.default)) != value:
                continue
            step = float(p.step or 1)
            nudged = value + step if p.high is None or value + step <= p.high else value - step
            try:
                moved = turn_settings(model, {**params, p.name: nudged}, n_queries, prepared)[0]
            except (ParamError, ValueError):
                continue
            hit = {q for q in left if moved[q] != value}
            if hit:
                out.append((p, value, len(hit)))
                left -= hit
        if left:
            out.append((None, value, len(left)))
    return sorted(out, key=lambda g: -g[2])


def share_ticks(top: float) -> list[float]:
    """Ticks from 0 to `top` (a percentage, at most 100), 1, 2, 2.5 or 5 × 10^k apart,
    about four of them."""
    if top <= 0:
        return [0.0]
    raw = top / 4
    power = 10.0 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw)
    return [round(i * step, 10) for i in range(int(top / step + 1e-9) + 1)]


def bin_edges(edges: NDArray[np.float64],
              heights: NDArray[np.float64]) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """The inner edges between two bars, as (x, y) pairs of points for a line drawn in
    pairs: at each edge with a bar either side, from 0 up to the lower bar (the outline
    draws the rest). `edges` float (n + 1,), `heights` float (n,); x and y float (2m,)."""
    if len(heights) < 2:
        return np.zeros(0), np.zeros(0)
    low = np.minimum(heights[:-1], heights[1:])
    at = np.flatnonzero(low > 0)
    x = np.repeat(edges[1:-1][at], 2)
    y = np.zeros(2 * len(at))
    y[1::2] = low[at]
    return x, y


def bin_range(lo: float, hi: float, shown: float, bins: int) -> NDArray[np.float64]:
    """float (n + 1,): the bin edges over the scores lo … hi, `bins` of them, each at least a
    `BINS`-th of the `shown` x range (the scores and the threshold line), centred on the
    scores: one candidate at 38 on a 6–39 axis had been a 4 px sliver (rA 9)."""
    width = max((hi - lo) / bins, shown / BINS, 1e-9)
    n = max(1, math.ceil((hi - lo) / width - 1e-9))
    centre = (lo + hi) / 2
    edges: NDArray[np.float64] = (centre + (np.arange(n + 1) - n / 2) * width).astype(np.float64)
    return edges


def relevant_pairs(scores: Scores, judgments: Judgments | None,
                   pairs: NDArray[np.int64]) -> NDArray[np.bool_]:
    """bool (n,): whether each pair's document is judged relevant (grade > 0) to its query."""
    if judgments is None or judgments.keys.size == 0 or len(pairs) == 0:
        return np.zeros(len(pairs), np.bool_)
    query = np.searchsorted(scores.row_ptr, pairs, side="right") - 1
    keys = query * judgments.n_docs + scores.docs[pairs].astype(np.int64)
    idx = np.minimum(np.searchsorted(judgments.keys, keys), judgments.keys.size - 1)
    hit: NDArray[np.bool_] = (judgments.keys[idx] == keys) & (judgments.grades[idx] > 0)
    return hit


class ScoreDistribution(ChartPanel):
    title = "Score distribution"
    export_name = "score-distribution"

    def __init__(self, session: TuningSession, parent: QWidget | None = None) -> None:
        super().__init__(session, parent)
        self.all_queries = QCheckBox("All queries")
        self.all_queries.setToolTip("Every query's candidates instead of the selected query's")
        self.all_queries.toggled.connect(self.update_later)
        self.header.insertWidget(2, self.all_queries)
        self.share = QCheckBox("% of each group")
        self.share.setToolTip("Each group's bars as a share of its own candidates: a handful "
                              "of judged relevant ones stand as tall as a hundred others "
                              "(unticked: counts, where they are slivers)")
        self.share.setChecked(True)
        self.share.toggled.connect(self.update_later)
        self.header.insertWidget(3, self.share)
        self.plot = make_plot(left="candidates", bottom="score")
        self.body.addWidget(self.plot)
        self.legend = add_legend(self.plot)
        item = self.plot.getPlotItem()
        self.curve_other = pg.PlotDataItem(stepMode="center", fillLevel=0,
                                           brush=pg.mkBrush(140, 149, 159, 120),
                                           pen=pg.mkPen(OTHER, width=1.5))
        self.curve_relevant = pg.PlotDataItem(stepMode="center", fillLevel=0,
                                              brush=pg.mkBrush(26, 127, 55, 130),
                                              pen=pg.mkPen(RELEVANT, width=2))
        # each bin's edge, drawn from 0 to the lower of its two bars: two adjacent bins of the
        # same height had drawn as one wide bar (rn 10: three relevant memories at 5.22, 5.60
        # and 6.07 read as one 25 % bar from 5.2 to 6.1)
        self.edges_other = pg.PlotDataItem(connect="pairs", pen=pg.mkPen(OTHER, width=1))
        self.edges_relevant = pg.PlotDataItem(connect="pairs", pen=pg.mkPen(RELEVANT, width=1))
        # the rear group's outline again over the front one's fill, dashed: a 50 % "other" bar
        # behind a 60 % "judged relevant" one had shown as a faint line only (rA 9)
        self.outline_other = pg.PlotDataItem(stepMode="center",
                                             pen=pg.mkPen("#57606a", width=1.5,
                                                          style=Qt.PenStyle.DashLine))
        item.addItem(self.curve_other)
        item.addItem(self.edges_other)
        item.addItem(self.curve_relevant)
        item.addItem(self.edges_relevant)
        item.addItem(self.outline_other)
        self.legend.addItem(self.curve_relevant, "judged relevant")
        self.legend.addItem(self.curve_other, "other")
        self._legend_judged = True
        self.line = pg.InfiniteLine(angle=90, movable=True,
                                    pen=pg.mkPen("#c0392b", width=2),
                                    hoverPen=pg.mkPen("#e74c3c", width=3),
                                    label="", labelOpts={"position": 0.92, "color": "#c0392b",
                                                         "fill": pg.mkBrush(255, 255, 255, 200)})
        self.line.setZValue(10)
        item.addItem(self.line, ignoreBounds=True)
        self.line.sigPositionChanged.connect(self._on_drag)
        self.line.sigPositionChangeFinished.connect(self._on_drag_finished)
        self._throttle = QTimer(self)
        self._throttle.setSingleShot(True)
        self._throttle.setInterval(THROTTLE_MS)
        self._throttle.timeout.connect(self._push_line_value)
        self._moving_line = False  # a session change is moving the line: do not echo it back
        # what is drawn (tests, export)
        self.edges: NDArray[np.float64] = np.zeros(0)
        self.counts_relevant: NDArray[np.int64] = np.zeros(0, np.int64)
        self.counts_other: NDArray[np.int64] = np.zeros(0, np.int64)
        self.param: Param | None = None
        self.shared = False  # drawn as each group's share (%), not counts
        self._tallest: tuple[float, bool] | None = None  # the tallest bar, and whether a share
        for event in (session.result_changed, session.query_changed, session.model_changed,
                      session.dataset_changed):
            self.listen(event, self.update_later)
        self.listen(session.params_changed, self._on_params)
        # the legend's share of the height changes with the view's: keep the bars under it
        self.plot.getPlotItem().vb.sigResized.connect(lambda *_: self.fit_to_size())
        self.update_later()

    def current_plot(self) -> pg.PlotWidget:
        return self.plot

    def per_query(self) -> bool:
        return not self.all_queries.isChecked()

    # -- histogram ----------------------------------------------------------------------------

    def shown_pairs(self) -> NDArray[np.int64]:
        """The pairs in the histogram: ungated candidates of the selected (or every) query."""
        r = self.session.result
        if r is None:
            return np.zeros(0, np.int64)
        s = r.scores
        if self.all_queries.isChecked():
            pairs = np.arange(s.n_pairs, dtype=np.int64)
        else:
            row = s.row(self.session.query)
            pairs = np.arange(row.start, row.stop, dtype=np.int64)
        shown: NDArray[np.int64] = pairs[s.gate[pairs] == 0]
        return shown

    def redraw(self, *_: object) -> None:
        s = self.session
        self.param = threshold_param(s.model)
        self._sync_line()
        r = s.result
        if r is None or s.dataset is None or not len(s.dataset.queries):
            self._set_counts(np.zeros(0), np.zeros(0, np.int64), np.zeros(0, np.int64))
            self.plot.setVisible(False)
            self.show_hint("No result yet." if r is None or s.dataset is None else
                           "No queries yet: type one under the query list and press Enter.")
            return
        pairs = self.shown_pairs()
        values = r.scores.total[pairs]
        rel = relevant_pairs(r.scores, s.judgments, pairs)
        gated = (r.scores.gate[r.scores.row(s.query)] != 0).sum() if not \
            self.all_queries.isChecked() else (r.scores.gate != 0).sum()
        where = "all queries" if self.all_queries.isChecked() else \
            f"query {s.dataset.queries[s.query].id}"
        judged = ""
        if s.judgments is not None:
            # the query's judged relevant documents, among the shown candidates or not (one
            # not retrieved had read "0 judged relevant" beside a query judged to have one)
            n_rel = s.judgments.n_rel
            total = int(n_rel.sum() if self.all_queries.isChecked()
                        else n_rel[s.query] if s.query < len(n_rel) else 0)
            shown = int(rel.sum())
            judged = (f", {shown:,} judged relevant" if shown == total else
                      f", {shown:,} of the {total:,} judged relevant among them")
        self.caption.setText(f"Score distribution — {where}: {_n(len(values), 'candidate')}"
                             + judged)
        notes = []
        self._legend_for(s.judgments is not None)
        if s.judgments is None:
            notes.append("No judgments: every candidate counts as “other”.")
        if gated:
            notes.append(f"{_n(int(gated), 'gated candidate')} (score 0) "
                         f"{'is' if gated == 1 else 'are'} not shown.")
        if self.param is None and s.model is not None:
            notes.append(f"{s.model.label} has no min-score parameter.")
        if len(values) == 0:  # the note alone: no axes over nothing
            self._set_counts(np.zeros(0), np.zeros(0, np.int64), np.zeros(0, np.int64))
            self.plot.setVisible(False)
            self.show_hint(" ".join([f"Nothing to draw: {where} has no candidate with a "
                                     "score.", *notes]))
            return
        self.plot.setVisible(True)
        self.show_hint(" ".join(notes))
        lo, hi = float(values.min()), float(values.max())
        x_lo, x_hi = lo, hi
        if self.param is not None and self.line.isVisible():
            x_lo, x_hi = min(x_lo, self.line.value()), max(x_hi, self.line.value())
        if x_hi - x_lo < 1e-12:  # one score, no line away from it: a unit around it
            x_lo, x_hi = lo - 0.5, hi + 0.5
        edges = bin_range(lo, hi, x_hi - x_lo, int(np.clip(2 * np.sqrt(len(values)), 8, BINS)))
        x_lo, x_hi = min(x_lo, float(edges[0])), max(x_hi, float(edges[-1]))
        c_rel = np.histogram(values[rel], edges)[0]
        c_oth = np.histogram(values[~rel], edges)[0]
        share = self.share.isChecked() and s.judgments is not None
        self._set_counts(edges, c_rel.astype(np.int64), c_oth.astype(np.int64), share=share)
        pad = 0.03 * (x_hi - x_lo)
        item = self.plot.getPlotItem()
        item.setXRange(x_lo - pad, x_hi + pad, padding=0)
        top = max(float(self.curve_relevant.yData.max(initial=0)) if len(c_rel) else 0.0,
                  float(self.curve_other.yData.max(initial=0)) if len(c_oth) else 0.0,
                  1.0)
        self._tallest = (top, share)
        self.fit_to_size()

    def fit_to_size(self) -> None:
        """The y range, with headroom for the legend at the top right as the view's height
        is now: an export at another height had kept the screen strip's (bars in the lower
        43 %, "% of group" to 140: review r49, dr4 5)."""
        if self._tallest is None or self.plot.isHidden():
            return
        top, share = self._tallest
        item = self.plot.getPlotItem()
        # headroom for the legend at the top right over the bars under it only: every bar
        # ends below it, and the others reach near the top (rn 10: a tall bar left of the
        # legend had its axis run to 200 % over a 100 % tick, the upper half empty)
        view = item.vb.height()
        cover = (self.legend.boundingRect().height() + 12) / view if view > 50 else 0.3
        under = self._tallest_under_legend()
        # above the tallest bar, 5 % and 10 px at least: room for its tick's label ("100")
        margin = max(1.05, 1.0 / (1.0 - 10.0 / view)) if view > 50 else 1.05
        y_top = max(top * margin, under * 1.05 / max(0.4, 1.0 - cover))
        # … and for the threshold line's label, drawn at 92 % of the height beside the line:
        # its box had covered a 50 % bar's top on a 54 axis (review dB 1, vault v01)
        label = self._label_span()
        if label is not None:
            left, right, below = label
            y_top = max(y_top, self._tallest_in(left, right) * 1.03 / below)
        item.setYRange(0, y_top, padding=0)
        # counts are whole: no 0.5 ticks when the tallest bar is short
        axis = item.getAxis("left")
        axis.setTickSpacing(*((1, 1) if top <= 5 and not share else (None, None)))
        # a share stops at 100 %: the room above it is the legend's, not ticks to 150; about
        # four ticks over what shows (a flat spread's 6 % tallest bar had a lone 0)
        axis.setTicks([[(v, f"{v:g}") for v in share_ticks(min(100.0, y_top))]] if share
                      else None)

    def _tallest_under_legend(self) -> float:
        """The tallest bar drawn under the legend's width at the top right (with a margin),
        as the x range and the view's width are now; every bar's where the view is not laid
        out yet."""
        vb = self.plot.getPlotItem().vb
        if vb.width() <= 50:
            return self._tallest_in(-math.inf, math.inf)
        (x0, x1), _ = vb.viewRange()
        covered = (self.legend.boundingRect().width() + 6 + 12) / vb.width()
        return self._tallest_in(x1 - covered * (x1 - x0), math.inf)

    def _tallest_in(self, left: float, right: float) -> float:
        """The tallest bar with some of its width between x = `left` and `right`."""
        heights = [c.yData for c in (self.curve_relevant, self.curve_other)
                   if c.yData is not None and len(c.yData) == len(self.edges) - 1]
        if not heights or not len(self.edges):
            return 0.0
        tallest = np.maximum.reduce(heights)
        inside = (self.edges[1:] > left) & (self.edges[:-1] < right)
        return float(tallest[inside].max(initial=0.0))

    def _label_span(self) -> tuple[float, float, float] | None:
        """Where the threshold line's label is drawn, as the x range and the view's size are
        now: its left and right x (with a 6 px margin) and its lower edge as a share of the
        view's height (a bar under it must end below that); None where the line or its label
        is not shown or the view is not laid out yet."""
        vb = self.plot.getPlotItem().vb
        label = self.line.label
        if not self.line.isVisible() or not label.format or vb.width() <= 50 \
                or vb.height() <= 50:
            return None
        label.updatePosition()  # the anchor (which side of the line) follows the x range
        (x0, x1), _ = vb.viewRange()
        per_px = (x1 - x0) / vb.width()
        box = label.boundingRect()
        ax = float(label.anchor[0])
        at = self.line.value()
        left = at - (ax * box.width() + 6) * per_px
        right = at + ((1 - ax) * box.width() + 6) * per_px
        # the label's centre at `orthoPos` of the line's height, from the bottom
        below = (label.orthoPos * vb.height() - box.height() / 2 - 4) / vb.height()
        return left, right, max(0.4, below)

    def _legend_for(self, judged: bool) -> None:
        """"judged relevant" in the legend only when there are judgments."""
        if judged == self._legend_judged:
            return
        self._legend_judged = judged
        self.legend.clear()
        if judged:
            self.legend.addItem(self.curve_relevant, "judged relevant")
        self.legend.addItem(self.curve_other, "other" if judged else "candidates")

    def _set_counts(self, edges: NDArray[np.float64], rel: NDArray[np.int64],
                    other: NDArray[np.int64], *, share: bool = False) -> None:
        """The counts kept (tests, export); drawn as counts, or each group's as a percentage
        of its own total (`share`)."""
        self.edges, self.counts_relevant, self.counts_other = edges, rel, other
        # without judgments there are no groups: the box hides (ticked and greyed, it said
        # the one curve was drawn as shares); it comes back, as it was, with judgments
        self.share.setVisible(self.session.judgments is not None)
        if share != self.shared:  # the axis re-renders on a new label: only when it changes
            self.shared = share
            self.plot.getPlotItem().setLabel("left", "% of group" if share else "candidates",
                                             color=INK)
        if len(edges):
            def drawn(c: NDArray[np.int64]) -> NDArray[np.float64]:
                return 100.0 * c / max(int(c.sum()), 1) if share else c.astype(np.float64)

            self.curve_other.setData(edges, drawn(other))
            self.curve_relevant.setData(edges, drawn(rel))
            judged = self.session.judgments is not None and int(rel.sum()) > 0
            self.outline_other.setData(edges if judged else [], drawn(other) if judged else [])
            self.edges_other.setData(*bin_edges(edges, drawn(other)))
            self.edges_relevant.setData(*bin_edges(edges, drawn(rel)))
        else:
            for curve in (self.curve_other, self.curve_relevant, self.edges_other,
                          self.edges_relevant, self.outline_other):
                curve.setData([], [])

    # -- the threshold line -------------------------------------------------------------------

    def _sync_line(self) -> None:
        """Show the line at the min score the selected query applies: the parameter's value,
        bounded by its range; where the query sets its own (an eval case's minScore), that,
        fixed, said as its own; hidden without a min-score parameter."""
        p = self.param
        self.line.setVisible(p is not None)
        if p is None:
            return
        s = self.session
        from workbench.core.tuning.data import dataset_nouns, one_of

        many = dataset_nouns(s.dataset)[1] if s.dataset is not None else "queries"
        n = len(s.dataset.queries) if s.dataset is not None else 0
        groups = (min_score_groups(s.model, s.prepared, s.params, n)
                  if self.all_queries.isChecked() else None)
        own: tuple[Param | None, float] | None
        if groups:  # every query's: the min score most of them apply, and how many
            own = groups[0][:2]
        else:
            own = (None if self.all_queries.isChecked() or s.dataset is None else
                   applied_min_score(s.model, s.prepared, s.params, n, s.query))
        count = groups[0][2] if groups else n
        share = f" ({count:,} of {n:,} {many})" if groups and len(groups) > 1 else ""
        others = "".join(
            f"\n{c:,} {one_of(many) if c == 1 else many}: "
            + (f"{g.label} = {v:.3g}" if g is not None else f"their own min score = {v:.3g}")
            for g, v, c in (groups or [])[1:])
        if own is not None and own[0] is not None:
            p = self.param = own[0]  # a search's: Search min score, dragged as such
        value = float(s.params.get(p.name, p.default)) if own is None else own[1]
        fixed = own is not None and own[0] is None
        self.line.setMovable(not fixed)
        self.line.setBounds([None, None] if fixed else [p.low, p.high])
        self._moving_line = True
        try:
            if self.line.value() != value:
                self.line.setValue(value)
        finally:
            self._moving_line = False
        if fixed:
            noun = one_of(many)
            # the sliders it overrides by name, not only Inject min score: a search case
            # would take Search min score (dF 5)
            names = [q.label for q in (_min_score_params(s.model)
                                       if s.model is not None else [])] or [p.label]
            sliders = (f"{names[0]} has" if len(names) == 1 else
                       "neither " + ", ".join(names[:-1]) + f" nor {names[-1]} has")
            if groups:
                self.line.label.setFormat(f"their own min score = {value:.3g}{share}")
                self.line.setToolTip(f"These {many} set their own min score (their context's "
                                     f"minScore), so {sliders} an effect on them: the line "
                                     f"marks their own cut and cannot be dragged{others}")
            else:
                self.line.label.setFormat(f"this {noun}'s min score = {value:.3g}")
                self.line.setToolTip(f"This {noun} sets its own min score (its context's "
                                     f"minScore), so {sliders} an effect on it: the line "
                                     "marks its own cut and cannot be dragged")
        else:
            self.line.label.setFormat(f"{p.label} = {value:.3g}{share}")
            self.line.setToolTip(f"{p.label}: drag to set it"
                                 + (f"; it applies to {count:,} of {n:,} {many}"
                                    f"{others}" if share else ""))

    def _on_params(self, name: str | None) -> None:
        if threshold_param(self.session.model) is not None:  # any value may move the
            self._sync_line()  # query's own (its mode)

    def _on_drag(self, *_: object) -> None:
        if self._moving_line or self.param is None or not self.line.movable:
            return
        self.line.label.setFormat(f"{self.param.label} = {self.line.value():.3g}")
        if not self._throttle.isActive():
            self._throttle.start()

    def _on_drag_finished(self, *_: object) -> None:
        if self._moving_line or not self.line.movable:
            return
        self._throttle.stop()
        self._push_line_value()

    def _push_line_value(self) -> None:
        p = self.param
        if p is None or self.session.model is None:
            return
        assert p.low is not None and p.high is not None
        value = min(max(float(self.line.value()), p.low), p.high)
        if p.step:  # snap to the parameter's own step, as its slider does
            value = round(p.low + round((value - p.low) / p.step) * p.step, 10)
            value = min(max(value, p.low), p.high)
        try:
            self.session.set_param(p.name, round(value) if p.kind == "int" else value)
        except ParamError:
            self._sync_line()


def _n(count: int, noun: str) -> str:
    """1 candidate, 2 candidates."""
    return f"{count:,} {noun}{'' if count == 1 else 's'}"


def main(argv: list[str] | None = None) -> int:
    from ._standalone import SAMPLES, run_panel

    return run_panel(ScoreDistribution, argv, default=SAMPLES / "vault")


if __name__ == "__main__":
    raise SystemExit(main())
