"""A metric against a parameter — picked in its box, or the last one moved; at first the
model's first key parameter — the other parameters held: the same combine +
metric as `core.tune.sweep`, run over the parameter's grid in the background on the session's
prepared arrays, marking the current value and the best one.

The sweep is request → result (napari's slicer pattern): on the GUI thread a frozen
`SweepRequest` copies the parameters and takes a generation number; a worker computes each
point with `core.session_work.compute` (never touching the session); the points are drawn only if
that generation is still the newest, and a sweep made stale by a newer change stops early.
`synchronous=True` computes inline (tests).

The best is said as `workbench sweep` says it: its gap over the value in use over the judged
queries, picked on these same queries (optimistic), with no p-value (rB 4: a test of the best of
the grid, picked on the queries it is tested on, is not valid).

Events: params_changed (which parameter), result_changed (the current marker, and a new sweep
when the prepared arrays changed), model_changed, dataset_changed, k_changed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyqtgraph as pg
from numpy.typing import NDArray
from PySide6.QtCore import QObject, QRunnable, QSize, Qt, QThreadPool, QTimer, Signal
from PySide6.QtGui import QPaintEvent
from PySide6.QtWidgets import (
    QComboBox,
    QSizePolicy,
    QStyle,
    QStyleOptionComboBox,
    QStylePainter,
    QWidget,
)

from workbench.core import selection_figures
from workbench.core.data import Dataset
from workbench.core.diagnostics import counted_queries
from workbench.core.engine import Model
from workbench.core.metrics import Judgments
from workbench.core.params import Param, Params, ParamValue
from workbench.core.session import TuningSession
from workbench.core.session_work import ComputeRequest, compute
from workbench.core.tune import default_values, sweep_span, values_for
from workbench.gui.drag import drag_state
from workbench.gui.metric_names import combo_metric, fill_metric_combo, metric_label

from ._base import INK, ChartPanel, make_plot

MAX_POINTS = 41
AXIS_TITLES = {"results": "results / query", "empty": "% empty",
               "injected_tokens": "tokens / query"}
# a bundle-selecting model's own figures (codeledger), drawn like a metric: a higher is better
BUNDLE_FIGURES = ("bundle_recall", "bundle_precision")
DEBOUNCE_MS = 150  # a sweep starts once the parameters rest this long (not mid-drag)
CURVE = "#0072B2"
BEST = "#d4a017"
CURRENT = "#c0392b"
BASELINE = "#6e7781"
PARAM_TIP = ("The parameter along the x axis, the others held where they are. Moving another "
             "parameter's slider sweeps that one instead; the model's key parameters come first")
STALE = "#b8bec5"  # the last sweep's curve while a sweep of another parameter runs (rA 2)


def sweep_values(param: Param, max_points: int = MAX_POINTS,
                 current: ParamValue | None = None) -> list[ParamValue]:
    """What `sweep` runs given no values (`tune.default_values`): the parameter's own grid
    over `sweep_span`, or where that is more than `max_points` values the multiples of m of
    its steps (m = 1, 2, 5, 10, …), so every point is a value its slider can take (k1 0, 0.1,
    …, 3, not 2.025), and the value in use among them."""
    return default_values(param, current, max_points)


def sweepable(model: Model | None, name: str | None) -> Param | None:
    if model is None or name is None or name not in model.schema:
        return None
    p = model.schema[name]
    return p if p.stage == "live" and p.kind in ("float", "int", "bool", "choice") else None


@dataclass(frozen=True)
class SweepRequest:
    generation: int
    name: str
    values: tuple[ParamValue, ...]
    metric: str
    model: Model
    prepared: Any
    params: Params
    judgments: Judgments | None
    depth: int
    dataset: Dataset | None = None  # for a selection figure's snippet lengths
    # the judged queries a metric's mean counts where some were tuned on (`held_out`), as
    # the metric strip counts them; None: every judged query (`Result.means`)
    held: NDArray[np.bool_] | None = None


def run_sweep(request: SweepRequest,
              should_stop: Callable[[], bool] = lambda: False,
              per_query: list[NDArray[np.float64] | None] | None = None
              ) -> list[tuple[ParamValue, float]]:
    """(value, metric mean) per value, each a full combine → rank → metrics; stops early (and
    returns what it has) when `should_stop()` says the sweep went stale. A selection figure
    (`core.selection_figures`: results, empty, injected tokens) is read off each ranking, over
    the queries that are turns at that value (`turns`: every query but a manual search beside
    injections or a disabled project's query; rv51 3, 6) and, with judgments, judged, as
    `sweep` and eval count them (`counted_over`: an unjudged eval case had been counted here
    after rv52 3 left it out of sweep). `per_query`, where given, gets each value's per-query
    metric (None for a figure), for the test of the best against the value in use."""
    out: list[tuple[ParamValue, float]] = []
    figure = request.metric in selection_figures.FIGURES
    chars = (snippet_chars(request.dataset)
             if request.metric == "injected_tokens" and request.dataset is not None else None)
    # a bundle figure comes with any ranking metric (`Model.extra_metrics`); it is none itself
    asked: tuple[str, ...] = (() if figure else ("r@10",) if request.metric in BUNDLE_FIGURES
                              else (request.metric,))
    for value in request.values:
        if should_stop():
            break
        params = {**request.params, request.name: value}
        done = compute(ComputeRequest(request.generation, request.model, request.prepared,
                                      params, request.judgments if asked else None, asked,
                                      request.depth))
        mean = (figure_mean_over(request.metric, done.result, chars,
                                 counted_over(turns(request.model, request.prepared, params),
                                              request.judgments))
                if figure else held_mean(done.result, request.metric, request.held))
        out.append((value, float(mean)))
        if per_query is not None:
            each = None if figure else done.result.per_query.get(request.metric)
            per_query.append(None if each is None else np.asarray(each, np.float64))
    return out


def held_mean(result: Any, metric: str, held: NDArray[np.bool_] | None) -> float:
    """`metric`'s mean over the judged queries `held` keeps (the ones not tuned on), as the
    metric strip's cards take it; the result's own mean over every judged query where `held`
    is None; NaN where the result has no such metric."""
    each = result.per_query.get(metric) if held is not None else None
    if each is None or len(each) != len(held):  # type: ignore[arg-type]
        return float(result.means.get(metric, np.nan))
    return float(np.mean(np.asarray(each, np.float64)[held]))


# the last dataset's snippet lengths (injected tokens): computed on the sweep's worker, read by
# the GUI thread for the current and baseline marks without computing them there
_CHARS: list[tuple[Dataset, NDArray[np.float64]]] = []


def snippet_chars(dataset: Dataset, compute: bool = True) -> NDArray[np.float64] | None:
    """`selection_figures.snippet_chars(dataset)`, kept for the last dataset; None where it
    is not kept and `compute` is False."""
    held = _CHARS[0] if _CHARS else None
    if held is not None and held[0] is dataset:
        return held[1]
    if not compute:
        return None
    chars = selection_figures.snippet_chars(dataset)
    _CHARS[:] = [(dataset, chars)]
    return chars


def turns(model: Model | None, prepared: Any, params: Params) -> NDArray[np.bool_] | None:
    """bool (Q,): the queries the selection figures count at `params`, as eval, sweep, the
    metric strip and the Injection tab count them (`diagnostics.counted_queries`); None where
    every query counts (a model without query modes)."""
    if model is None or prepared is None:
        return None
    found = counted_queries(model, prepared, params)
    return None if found is None else np.asarray(found[0], np.bool_)


def counted_over(turn: NDArray[np.bool_] | None,
                 judgments: Judgments | None) -> NDArray[np.bool_] | None:
    """bool (Q,): the queries a selection figure is the mean over, as eval and `sweep` count
    them (`cli.evaluate.counted`): the turns (`turn`; None: every query) that are judged,
    where there are judgments; None where that is every query."""
    judged = None if judgments is None else np.asarray(judgments.judged_mask, np.bool_)
    if judged is None:
        return turn
    if turn is None or len(turn) != len(judged):
        return judged
    return turn & judged


def figure_mean_over(name: str, result: Any, chars: NDArray[np.float64] | None,
                     turn: NDArray[np.bool_] | None) -> float:
    """The mean of figure `name` over the queries `turn` keeps (None: every one); NaN where
    it keeps none."""
    values = selection_figures.of_result(name, result, chars)
    if turn is not None and len(turn) == len(values):
        values = values[turn]
    return float(values.mean()) if values.size else float("nan")


def figure_mean(name: str, result: Any, dataset: Dataset | None,
                turn: NDArray[np.bool_] | None = None) -> float:
    """A result's mean of the selection figure `name` over the queries `turn` keeps (None:
    every one; NaN where the snippet lengths it needs are not computed yet)."""
    chars = None
    if name == "injected_tokens":
        chars = snippet_chars(dataset, compute=False) if dataset is not None else None
        if chars is None:
            return float("nan")
    return figure_mean_over(name, result, chars, turn)


class _ParamBox(QComboBox):
    """The parameter picker: as wide as its current item where the header has room (up to
    its maximum width), down to 12 characters where it has not, its text elided with "…"
    there (Qt's own label cut "Staleness: days inac" with no sign of more)."""

    def sizeHint(self) -> QSize:  # Qt override
        hint = super().sizeHint()
        opt = QStyleOptionComboBox()
        self.initStyleOption(opt)
        text = self.fontMetrics().horizontalAdvance(self.currentText())
        whole = self.style().sizeFromContents(QStyle.ContentsType.CT_ComboBox, opt,
                                              QSize(text, hint.height()), self)
        hint.setWidth(max(hint.width(), min(whole.width(), self.maximumWidth())))
        return hint

    def paintEvent(self, _event: QPaintEvent) -> None:  # Qt override
        painter = QStylePainter(self)
        opt = QStyleOptionComboBox()
        self.initStyleOption(opt)
        painter.drawComplexControl(QStyle.ComplexControl.CC_ComboBox, opt)
        room = self.style().subControlRect(QStyle.ComplexControl.CC_ComboBox, opt,
                                           QStyle.SubControl.SC_ComboBoxEditField, self)
        opt.currentText = self.fontMetrics().elidedText(
            opt.currentText, Qt.TextElideMode.ElideRight, room.width())
        painter.drawControl(QStyle.ControlElement.CE_ComboBoxLabel, opt)


class _Relay(QObject):
    done = Signal(int, object)


class _Job(QRunnable):
    def __init__(self, request: SweepRequest, relay: _Relay,
                 should_stop: Callable[[], bool]) -> None:
        super().__init__()
        self.setAutoDelete(True)
        self.request, self.relay, self.should_stop = request, relay, should_stop

    def run(self) -> None:
        each: list[NDArray[np.float64] | None] = []
        try:
            points = run_sweep(self.request, self.should_stop, each)
        except Exception as exc:  # shown in the panel, never a dead worker
            self.relay.done.emit(self.request.generation, exc)
        else:
            self.relay.done.emit(self.request.generation, (points, each))


class MetricCurve(ChartPanel):
    title = "Metric vs parameter"
    export_name = "metric-curve"
    sweep_finished = Signal()  # a sweep's points were drawn

    def __init__(self, session: TuningSession, parent: QWidget | None = None, *,
                 synchronous: bool = False) -> None:
        super().__init__(session, parent)
        self.synchronous = synchronous
        self._pool = QThreadPool(self)  # before the relay: deleted (and waited for) first
        self._pool.setMaxThreadCount(1)
        self._relay = _Relay(self)
        self._relay.done.connect(self._on_done)
        self._debounce = QTimer(self)
        self._debounce.setSingleShot(True)
        self._debounce.setInterval(DEBOUNCE_MS)
        self._debounce.timeout.connect(self._start)
        self.metric_box = QComboBox()
        self.metric_box.setToolTip("The metric drawn (mean over judged queries), or what the "
                                   "selection returns (mean over every query; with "
                                   "injections beside manual searches, over the injections)")
        # the metric chosen (by a person or a view that follows another), kept across
        # refills, which hold the box's signals; otherwise each refill starts on the first
        # offered (a fill made before the judgments came had kept "results per query" on
        # judged data)
        self._picked = ""
        self.metric_box.currentIndexChanged.connect(self._on_metric_picked)
        self.header.insertWidget(2, self.metric_box)
        # which parameter is swept, in sight: it had followed the last slider moved with no
        # picker and no word, starting on memories' Base: ultra-short, no key one (rA 5)
        self.param_box = _ParamBox()
        self.param_box.setToolTip(PARAM_TIP)
        self.param_box.setMaximumWidth(260)
        # it shrinks and elides, never setting the window's least width: sized to its longest
        # item it held 240–273 px, and decisions' window opened 1,362 px wide on a 1,280
        # screen (dF 1); the list it drops opens as wide as its items (`_fill_params`)
        self.param_box.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.param_box.setMinimumContentsLength(12)
        self.param_box.currentIndexChanged.connect(self._on_param_picked)
        self.header.insertWidget(3, self.param_box)
        # the title wraps, never the window's least width: decisions' "results per query
        # across Inject min score — over all 21 queries; …" held it at 1,116 px at 1,024
        # (dB 6); it takes the header's spare room, so it wraps only where that is short
        self.caption.setWordWrap(True)
        self.caption.setSizePolicy(QSizePolicy.Policy.Expanding,
                                   QSizePolicy.Policy.Preferred)
        self.header.setStretchFactor(self.caption, 1)  # as the Injection tab's
        self.header.setStretch(1, 0)  # the spacer after it (`ChartPanel`)
        self.plot = make_plot()
        self.body.addWidget(self.plot)
        item = self.plot.getPlotItem()
        self.curve = pg.PlotDataItem(pen=pg.mkPen(CURVE, width=2), symbol="o", symbolSize=5,
                                     symbolBrush=pg.mkBrush(CURVE), symbolPen=None)
        self.current_line = pg.InfiniteLine(angle=90, movable=False,
                                            pen=pg.mkPen(CURRENT, width=1.5,
                                                         style=Qt.PenStyle.DashLine),
                                            label="", labelOpts={"position": 0.06,
                                                                 "color": CURRENT,
                                                                 "fill": pg.mkBrush(
                                                                     255, 255, 255, 210)})
        self.current_dot = pg.ScatterPlotItem(size=11, symbol="o", brush=pg.mkBrush(CURRENT),
                                              pen=pg.mkPen("w", width=1.5))
        self.best_dot = pg.ScatterPlotItem(size=18, symbol="star", brush=pg.mkBrush(BEST),
                                           pen=pg.mkPen(INK, width=1))
        self.best_text = pg.TextItem(color=INK, anchor=(0.5, 1.3), fill=pg.mkBrush("w"))
        self.baseline_line = pg.InfiniteLine(
            angle=0, movable=False, pen=pg.mkPen(BASELINE, width=1.5, style=Qt.PenStyle.DotLine),
            label="", labelOpts={"position": 0.02, "color": BASELINE, "anchors": [(0, 1), (0, 1)]})
        self.baseline_line.setVisible(False)
        item.addItem(self.baseline_line, ignoreBounds=True)
        for it in (self.curve, self.current_line, self.current_dot, self.best_dot):
            item.addItem(it)
        item.addItem(self.best_text, ignoreBounds=True)
        # over the now-line, on an opaque white: the dashed line had run through the label
        # where the best sits near the value in use (dr6 6)
        self.best_text.setZValue(self.current_line.zValue() + 10)
        self.param_name: str | None = None
        self.points: list[tuple[ParamValue, float]] = []
        self.best: tuple[ParamValue, float] | None = None
        # each point's per-query metric (`run_sweep`), and the best's against the value in use
        self._per_query: list[NDArray[np.float64] | None] = []
        self._best_at: int | None = None
        self._swept = ""  # the parameter the points are of
        self._swept_metric = ""  # … and the metric
        self.against = ""  # the best's gap over now, its p-value and the caveat (`_against`)
        self._all_x: float | None = None  # where a limit's 0 ("all") is drawn, if it is
        self.current: tuple[ParamValue, float] | None = None
        self.baseline_value: float | None = None
        self.error = ""
        self._generation = 0
        self._key: tuple[Any, ...] | None = None
        self._request: SweepRequest | None = None
        self._inert: dict[str, str] = {}  # `Model.inert_params`, as the panel marks them
        # the request whose points are drawn, and its key (`request_sweep`)
        self._drawn: SweepRequest | None = None
        self._drawn_key: tuple[Any, ...] | None = None
        self._pending_key: tuple[Any, ...] | None = None
        self.listen(session.params_changed, self._on_params)
        self.listen(session.result_changed, self._on_result)
        # a baseline tuned on some queries changes which ones a mean counts (`_held`)
        self.listen(session.baseline_changed, lambda *_: self.redraw())
        for event in (session.model_changed, session.dataset_changed):
            self.listen(event, self._on_model)
        for event in (session.k_changed, session.model_changed, session.dataset_changed):
            self.listen(event, lambda *_: self._fill_metrics())
        self._fill_metrics()
        self._on_model()

    def current_plot(self) -> pg.PlotWidget:
        return self.plot

    def values_text(self, leave_out: str | None = None, word: str = "values") -> str:
        """The other parameters, held where they are along the curve: "held k1 = 0.6" (the
        baseline's line sat above the whole curve for that reason, unsaid in the picture)."""
        return super().values_text(self.param_name, "held")

    def export_refusal(self) -> str:
        """While a sweep runs (or waits for the prepare stage) the plot still holds the last
        curve under the new title: a picture exported then had the b sweep's title over the
        k1 curve, the marker of b = 0.3 at k1 = 0.3 (review r49, dr4 1)."""
        s = self.session
        if self.busy or (self.points and (s.prepared is None or s.needs_prepare)):
            note = " ".join(self.hint.text().split()) or "The curve is being recomputed."
            note = note.split(" (in grey", 1)[0]  # what is drawn meanwhile: no export's
            return f"{note.rstrip('…. ')}: export once the curve is drawn."
        return super().export_refusal()

    @property
    def metric_name(self) -> str:
        return combo_metric(self.metric_box) or self.session.metric_names[0]

    def _on_metric_picked(self, *_: object) -> None:
        self._picked = combo_metric(self.metric_box)
        self.request_sweep()

    @property
    def figure(self) -> bool:
        """Whether a selection figure is drawn: how much is returned, better neither way."""
        return self.metric_name in selection_figures.FIGURES

    @property
    def busy(self) -> bool:
        return self._request is not None

    # -- session events -----------------------------------------------------------------------

    def _fill_metrics(self) -> None:
        s = self.session
        names = list(s.metric_names) if s.judgments is not None else []
        if names and hasattr(s.model, "bundles"):  # its bundle figures, e.g. against the budget
            names += BUNDLE_FIGURES
        if selection_figures.selects(s.model):  # what a min score or limit returns: judged or not
            names += selection_figures.FIGURES
        fill_metric_combo(self.metric_box, names, self._picked or None)
        self.metric_box.setVisible(bool(names))
        self.request_sweep()

    def _on_model(self, *_: object) -> None:
        """A new model: start on its first key parameter that is live and numeric, else its
        first live numeric one, so the curve is never empty (rA 5: memories had started on
        Base: ultra-short, none of its five key parameters)."""
        model = self.session.model
        self.param_name = None
        if model is not None:
            first = [p for p in self._offered(model) if p.kind in ("float", "int")]
            if self.session.judgments is None:  # only selection figures to draw: what moves
                # them, its min score or limit, in the model's own order of importance
                order = {name: i for i, name in enumerate(getattr(model, "headline", ()))}
                cuts = [p for p in first if p.name in selection_figures.SELECTION_PARAMS]
                first = sorted(cuts, key=lambda p: order.get(p.name, len(order))) or first
            self.param_name = first[0].name if first else None
        self._fill_params()
        self.request_sweep()

    @staticmethod
    def _offered(model: Model) -> list[Param]:
        """The parameters the box offers: the sweepable ones, the model's key (headline)
        ones first in its order, then the others in schema order."""
        live = [p for p in model.schema if sweepable(model, p.name) is not None]
        key = [n for n in getattr(model, "headline", ()) if n in model.schema]
        order = {name: i for i, name in enumerate(key)}
        return sorted(live, key=lambda p: order.get(p.name, len(order)))

    def _fill_params(self) -> None:
        """The box's items, the model's offered parameters, on the one swept."""
        model = self.session.model
        box = self.param_box
        box.blockSignals(True)
        try:
            box.clear()
            if model is not None:
                key = set(getattr(model, "headline", ()))
                offered = self._offered(model)
                for p in offered:
                    box.addItem(p.label, p.name)
                # a line under the key ones (dF 4: memories' "Max results", key, ran
                # straight into "Base: ultra-short", the only sign an item tooltip)
                n_key = sum(1 for p in offered if p.name in key)
                if 0 < n_key < len(offered):
                    box.insertSeparator(n_key)
            self._inert = {}
            self._mark_params()
            self._show_param()
        finally:
            box.blockSignals(False)
        box.setVisible(box.count() > 0)
        # the list at its longest item's width (the view's own size hint is not laid out yet)
        fm = box.view().fontMetrics()
        box.view().setMinimumWidth(max((fm.horizontalAdvance(box.itemText(i))
                                        for i in range(box.count())), default=0) + 32)

    def _mark_params(self) -> None:
        """Each item's tooltip, and "(no effect here)" after the ones the parameter panel
        greys so (`Model.inert_params` on the data prepared, or waiting on another that is
        off): dF 4, decisions-eval offered Inject limit as a key one, its sweep a flat line."""
        s, model, box = self.session, self.session.model, self.param_box
        if model is None:
            return
        if s.prepared is not None and not s.needs_prepare:
            try:
                self._inert = model.inert_params(s.prepared, s.params)
            except (KeyError, ValueError):
                self._inert = {}
        key = set(getattr(model, "headline", ()))
        for i in range(box.count()):
            name = box.itemData(i)
            if not isinstance(name, str) or name not in model.schema:
                continue
            why = model.schema.idle_because(name, s.params)
            reason = (f"no effect while {why}" if why else
                      f"no effect on this data: {self._inert[name]}" if name in self._inert
                      else "")
            label = model.schema[name].label + (" (no effect here)" if reason else "")
            if box.itemText(i) != label:
                box.setItemText(i, label)
            tip = "; ".join(t for t in ("a key parameter" if name in key else "", reason) if t)
            box.setItemData(i, tip or None, Qt.ItemDataRole.ToolTipRole)

    def _show_param(self) -> None:
        """The box on the parameter swept (signals held: a sync, not a pick)."""
        i = self.param_box.findData(self.param_name)
        if i >= 0 and i != self.param_box.currentIndex():
            self.param_box.blockSignals(True)
            self.param_box.setCurrentIndex(i)
            self.param_box.blockSignals(False)
        self._tip_param()

    def _tip_param(self) -> None:
        """The box's tooltip, led by the whole name of the one swept (the box elides it)."""
        text = self.param_box.currentText()
        self.param_box.updateGeometry()  # its size hint is its current item's width
        self.param_box.setToolTip(f"{text}\n\n{PARAM_TIP}" if text else PARAM_TIP)

    def _on_param_picked(self, *_: object) -> None:
        name = self.param_box.currentData()
        self._tip_param()
        if isinstance(name, str) and name != self.param_name:
            self.param_name = name
            self.request_sweep()

    def _on_params(self, name: str | None) -> None:
        # a prepare-stage (or text) parameter cannot be swept live: keep the last live one
        if sweepable(self.session.model, name) is not None:
            self.param_name = name
            self._show_param()
        self.request_sweep()

    def _on_result(self, *_: object) -> None:
        if not drag_state(self.session).dragging:  # asked when a drag ends, as the panel
            self._mark_params()
            self._tip_param()
        self.request_sweep()  # no-op unless the held parameters or prepared arrays changed
        self._draw_current()

    def redraw(self, *_: object) -> None:
        self.request_sweep()
        self._draw_current()

    # -- sweeping -----------------------------------------------------------------------------

    def request_sweep(self) -> None:
        """Sweep the current parameter unless the same sweep is already drawn or running."""
        s = self.session
        if not self.isVisible():
            self._stale = True  # swept when shown: no background work for a hidden tab
            return
        p = sweepable(s.model, self.param_name)
        if s.model is None or s.dataset is None:
            self._show_empty("No model yet.")
            return
        if not len(s.dataset.queries):  # a mean over no query: "now nan at 5" had been drawn
            self._show_empty("No queries yet: type one under the query list and press Enter.")
            return
        if self.param_name is None:
            self._show_empty("This model has no live parameter to sweep.")
            return
        if p is None:
            self._show_empty(f"“{self.param_name}” is a prepare-stage parameter: change it and "
                             "press Recompute; it is not swept live.")
            return
        if s.judgments is None and not self.figure:
            self._show_empty("No relevance judgments: there is no metric to draw. File ▸ Open "
                             "judgments… adds them.")
            return
        if s.prepared is None or s.needs_prepare:
            if not self.points:
                self.plot.setVisible(False)
            self.show_hint("Waiting for the prepare stage…")
            return
        held = tuple(sorted((k, v) for k, v in s.params.items() if k != p.name))
        span = sweep_span(p, s.params.get(p.name))
        counted = self._held()
        key = (p.name, self.metric_name, held, id(s.prepared), id(s.judgments), s.depth, span,
               None if counted is None else counted.tobytes())
        if key == self._key:
            return
        self._key = key
        self._pending_key = key
        self._generation += 1
        # a limit whose 0 means all: swept below the documents there are, as `sweep` does
        values = values_for(p, s.params.get(p.name), len(s.dataset.corpus), MAX_POINTS)
        request = SweepRequest(self._generation, p.name, tuple(values), self.metric_name,
                               s.model, s.prepared, dict(s.params), s.judgments, s.depth,
                               s.dataset, counted)
        self._request = request
        label = s.model.schema[p.name].label
        # "across", not "vs": a parameter's own label may hold one ("nDCG@10 vs Vector vs
        # keyword (alpha)", rn 10); a metric is the mean over the judged queries, said as the
        # strip says it, beside a ranked table of one query's values (rn 2); over the ones
        # not tuned on where the cards count those (dB 4: "mean of the 26" under a card's 16)
        caption = f"{metric_label(self.metric_name)} across {label} — " + (
            f"over {self._over()}; no best: how much is returned, not how well"
            if self.figure else f"mean of {self._over(counted)}")
        self.caption.setText(caption)
        self.caption.setToolTip(caption)
        if key == self._drawn_key and self._drawn is not None and self.points:
            # back to the sweep drawn (picked away and back before the other landed): drawn
            # again, in colour with its marks, not swept again (dF 6: it had sat greyed with
            # no word why until the same points came back)
            self._debounce.stop()
            self._request = None
            self._draw(self._drawn)
            return
        if not self.points:  # the first sweep: no empty 0–1 axes under the hint meanwhile
            self.plot.setVisible(False)
        stale = bool(self.points) and (self._swept, self._swept_metric) != (p.name,
                                                                            self.metric_name)
        if stale:  # the last curve greyed, no marks on it, until the new one lands (rA 2)
            self._grey_out()
        elif self.points and self._drawn is not None \
                and self.curve.opts["pen"].color().name() == STALE:
            self._draw(self._drawn)  # its own curve, greyed a moment ago: in colour again
        self.show_hint(f"Sweeping {label} over {len(request.values)} values…" + (
            f" (in grey: the last sweep, of {s.model.schema[self._swept].label})"
            if stale and self._swept != p.name and self._swept in s.model.schema
            else " (in grey: the last sweep)" if stale else ""))
        if self.synchronous:
            each: list[NDArray[np.float64] | None] = []
            self._on_done(request.generation, (run_sweep(request, per_query=each), each))
        else:
            self._debounce.start()

    def _over(self, held: NDArray[np.bool_] | None = None) -> str:
        """What a figure is the mean over, as eval says it: with judgments the judged queries,
        in the data's own noun ("the 2 judged cases"), else every query; `held`: the judged
        ones not tuned on, counted instead ("the 16 of 26 judged chat moments not tuned
        on")."""
        from workbench.core.tuning.data import dataset_nouns, one_of

        s = self.session
        assert s.dataset is not None
        if s.judgments is None:
            return f"all {len(s.dataset.queries):,} queries"
        judged = int(np.asarray(s.judgments.judged_mask).sum())
        many = dataset_nouns(s.dataset)[1]
        if held is not None:
            return f"the {int(held.sum()):,} of {judged:,} judged {many} not tuned on"
        return f"the {judged:,} judged {one_of(many) if judged == 1 else many}"

    def _held(self) -> NDArray[np.bool_] | None:
        """The judged queries a metric's mean counts where the live values or the baseline
        were tuned on some (`TuningSession.held_out`), as the metric strip counts them; None
        for every judged one, and for a selection figure (counted over its turns)."""
        if self.figure or self.session.judgments is None:
            return None
        mask = self.session.held_out().mask
        return None if mask is None else np.asarray(mask, np.bool_)

    def _start(self) -> None:
        request = self._request
        if request is None:
            return
        generation = request.generation
        self._pool.start(_Job(request, self._relay, lambda: generation != self._generation))

    def _on_done(self, generation: int, outcome: object) -> None:
        if generation != self._generation or self._request is None:
            return  # stale: a newer sweep replaced it
        request, self._request = self._request, None
        self._drawn, self._drawn_key = request, self._pending_key
        if isinstance(outcome, Exception):
            self.error = str(outcome) or type(outcome).__name__
            self._key = None
            self._show_empty(f"Sweep failed: {self.error}")
            return
        points, each = outcome if isinstance(outcome, tuple) else (outcome, [])
        assert isinstance(points, list)
        self.error = ""
        self.points = points
        self._per_query = list(each) if len(each) == len(points) else []
        self._draw(request)
        self.sweep_finished.emit()

    # -- drawing ------------------------------------------------------------------------------

    def _x(self, value: ParamValue, request_values: tuple[ParamValue, ...]) -> float:
        if isinstance(value, bool | str):
            return float(request_values.index(value)) if value in request_values else np.nan
        if self._all_x is not None and (value == 0 or float(value) >= self._all_x):
            return self._all_x  # no limit: past the largest limit drawn, not at 0
        return float(value)

    def _unlimited(self, request: SweepRequest) -> float | None:
        """Where a parameter whose 0 means no limit draws its 0: right of the largest limit
        swept, a step further (None for any other parameter, or without a 0)."""
        p = request.model.schema[request.name]
        if not p.zero_unlimited:
            return None
        others = sorted(float(v) for v in request.values if v != 0)
        if len(others) == len(request.values) or not others:
            return None
        return others[-1] + max((others[-1] - others[0]) / 8, float(p.step or 1))

    def _value_text(self, name: str, value: ParamValue) -> str:
        """A value as the chart says it: a limit's 0 with what it means ("0 (all)")."""
        p = self.session.model.schema[name] if self.session.model is not None else None
        if p is not None and p.zero and value == 0 and not isinstance(value, bool):
            return f"0 ({p.zero})"
        return _fmt(value)

    def _grey_out(self) -> None:
        """The drawn curve marked as another parameter's: grey, without its best, its now
        marker or its baseline line, which would read as the new parameter's (rA 2: "now
        0.745 at 0.25" of Boost: user emphasis had sat on Base: ultra-short's curve)."""
        self.curve.setPen(pg.mkPen(STALE, width=2))
        self.curve.setSymbolBrush(pg.mkBrush(STALE))
        self.best_dot.setData([], [])
        self.best_text.setText("")
        self.current_dot.setData([], [])
        self.current_line.setVisible(False)
        self.baseline_line.setVisible(False)

    def _draw(self, request: SweepRequest) -> None:
        self.plot.setVisible(True)
        self.show_hint("")
        self.curve.setPen(pg.mkPen(CURVE, width=2))
        self.curve.setSymbolBrush(pg.mkBrush(CURVE))
        item = self.plot.getPlotItem()
        values = request.values
        self._swept, self._swept_metric = request.name, request.metric
        self._all_x = self._unlimited(request)
        xs = np.array([self._x(v, values) for v, _ in self.points], dtype=np.float64)
        ys = np.array([m for _, m in self.points], dtype=np.float64)
        order = np.argsort(xs, kind="stable")  # "all" drawn last, at the right
        self.curve.setData(xs[order], ys[order])
        categorical = any(isinstance(v, bool | str) for v in values)
        bottom = item.getAxis("bottom")
        if categorical:
            bottom.setTicks([[(float(i), str(v)) for i, v in enumerate(values)]])
        elif self._all_x is not None:  # the limits' ticks, and the 0 that means none
            limits = sorted(float(x) for x in xs if x != self._all_x)
            shown = limits[::max(1, len(limits) // 5)]
            zero = request.model.schema[request.name].zero
            bottom.setTicks([[(x, f"{x:g}") for x in shown] + [(self._all_x, zero)]])
        else:
            bottom.setTicks(None)
        label = request.model.schema[request.name].label
        item.setLabel("bottom", label, color=INK)
        # a figure's axis title short: a vertical title longer than the plot is cut
        # ("tokens injected per quer"); the caption above says it whole
        item.setLabel("left", AXIS_TITLES.get(request.metric, metric_label(request.metric)),
                      color=INK)
        finite = np.isfinite(ys)
        figure = request.metric in selection_figures.FIGURES
        if finite.any():
            # the first best along the axis: the smallest limit that reaches it, not "all"
            i = int(order[np.argmax(np.where(finite, ys, -np.inf)[order])])
            self.best = None if figure else self.points[i]  # a figure has no best: a cost
            self._best_at = None if figure else i
            self.best_dot.setData([] if figure else [xs[i]], [] if figure else [ys[i]])
            self._label_best()
            self.best_text.setPos(xs[i], ys[i])
            # the label beside the star, not centred on it, near either end of the x range
            # (centred, half of it fell outside the plot); the baseline's label to the other side
            span = float(np.nanmax(xs) - np.nanmin(xs))
            where = (xs[i] - float(np.nanmin(xs))) / span if span > 0 else 0.5
            self.best_text.setAnchor((0.0 if where < 0.25 else 1.0 if where > 0.75 else 0.5,
                                      1.3))
            label = self.baseline_line.label
            label.anchors = [(1, 1), (1, 1)] if where < 0.5 else [(0, 1), (0, 1)]
            label.setPosition(0.98 if where < 0.5 else 0.02)
            lo, hi = float(np.nanmin(ys)), float(np.nanmax(ys))
            base = self._baseline_mean(request.metric)
            if base is not None and np.isfinite(base):  # keep the baseline line in view
                lo, hi = min(lo, base), max(hi, base)
            pad = max(0.08 * (hi - lo), 0.005)
            # room above the best point for its label, in pixels: on a short chart (720 px
            # windows) 2.5 pads cut the label in half
            view = item.vb.height()
            share = (min(0.6, (self.best_text.boundingRect().height() * 1.3 + 6) / view)
                     if view > 40 else 0.3)
            top = max(2.5 * pad, share * (hi - lo + pad) / (1 - share))
            # … and below the lowest point its dot's height (the current one, at the minimum,
            # sat half under the axis)
            low = (min(0.3, 14 / view) if view > 40 else 0.08)
            pad = max(pad, low * (hi - lo + top) / (1 - low))
            item.setYRange(lo - pad, hi + top, padding=0)
            item.setXRange(float(np.nanmin(xs)), float(np.nanmax(xs)), padding=0.04)
        else:
            self.best, self._best_at = None, None
            self.best_dot.setData([], [])
            self.best_text.setText("")
        self._draw_current()

    def _label_best(self) -> None:
        """'best 0.595 at alpha = 0.65', and under it what `sweep` says of it: its gap over
        the value in use and whether that may be chance (its tooltip says it whole)."""
        model, i, name = self.session.model, self._best_at, self._swept
        if i is None or model is None or name not in model.schema:
            self.best_text.setText("")
            return
        value, mean = self.points[i]
        # the slider's label, as on the axis below: `w_keyword` is no name the user sees
        label = model.schema[name].label
        self.against, tip = self._against(i, name)
        # a run of values scoring the same: said, as `sweep` says it (a limit past every
        # list's length ties 37 values; the star on one of them read as the one best)
        tied = sum(1 for _, m in self.points if abs(m - mean) <= 1e-12) - 1
        if name in selection_figures.SELECTION_PARAMS:
            tip += (("\n\n" if tip else "") + f"{label} is a cut-off, not a quality "
                    "setting: it decides how much is returned, so its best here is a "
                    "trade-off with that, not a better ranking")
        self.best_text.setText(f"best {mean:.3f} at {label} = "
                               f"{self._value_text(name, value)}"
                               + (f" (tied with {tied} other value{'s' if tied > 1 else ''})"
                                  if tied else "")
                               + (f"\n{self.against}" if self.against else ""))
        self.best_text.setToolTip(tip)
        self.best_dot.setToolTip(tip)

    def _against(self, i: int, name: str) -> tuple[str, str]:
        """The best point `i` against the value in use, as `workbench sweep` sets it (over the
        judged queries, with no p-value: the best was picked on them, rB 4): a short line for
        under the best's label, and the whole sentence for its tooltip ("", "" where there is
        nothing to say)."""
        s, metric = self.session, self.metric_name
        best = self._per_query[i] if i < len(self._per_query) else None
        now = s.result.per_query.get(metric) if s.result is not None else None
        value = s.params.get(name)
        if best is None or now is None or s.judgments is None or len(now) != len(best):
            return "", ""
        if value == self.points[i][0]:
            return "", ""  # the star is on the value in use
        mean = self.points[i][1]
        if any(v == value and abs(m - mean) <= 1e-12 for v, m in self.points):
            return ("the value in use is among the tied best: nothing to gain here",
                    "the value in use scores as well as the best over the judged queries")
        # as `sweep`: the judged queries, NaN pairs left out; the ones not tuned on where the
        # cards count those (dB 4)
        held = self._held()
        mask = s.judgments.judged_mask if held is None else held
        x, y = np.asarray(now, np.float64)[mask], np.asarray(best, np.float64)[mask]
        keep = ~(np.isnan(x) | np.isnan(y))
        n = int(keep.sum())
        if n == 0:  # no query to compare
            return "", ""
        delta = float((y[keep] - x[keep]).mean())
        if abs(delta) <= 1e-12:
            return ("as good as now: nothing to gain here",
                    "the value in use scores as well as the best over the judged queries")
        # the gap as sweep says it: the difference of the two means as shown, the rule of
        # compare, report and tune (rn 3), so the tooltip and `workbench sweep` agree
        from workbench.report.text import pair_texts

        gap = pair_texts(float(x[keep].mean()), float(y[keep].mean()), minus=False)[2]
        short = f"{delta:+.3f} over now; picked on these queries: no p-value"
        # the data's own noun, as `sweep` says it (OpenVault's chat moments; rm 9)
        from workbench.core.tuning.data import dataset_nouns, one_of

        many = dataset_nouns(s.dataset)[1] if s.dataset is not None else "queries"
        tip = (f"{gap} {metric_label(metric)} over the value in use, over {n} judged "
               f"{one_of(many) if n == 1 else many}; no p-value: the best was picked on these "
               f"same {many}, so the gap is optimistic and no test of it would be valid — "
               "Tune holds queries out for an honest estimate")
        return short, tip

    def _draw_current(self) -> None:
        s = self.session
        self.current = None
        if self.points and (self._swept, self._swept_metric) != (self.param_name,
                                                                 self.metric_name):
            self._grey_out()  # another parameter's curve: no marks on it (rA 2)
            return
        if self._best_at is not None and self.points:  # its gap over now moved with now
            self._label_best()
        if not self.points or self.param_name is None or s.result is None:
            self.current_dot.setData([], [])
            self.current_line.setVisible(False)
            return
        base = self._baseline_mean(self.metric_name)
        self.baseline_value = base
        self.baseline_line.setVisible(base is not None)
        if base is not None:
            self.baseline_line.setValue(base)
            self.baseline_line.label.setFormat(f"baseline {self._y_text(base)}")
        value = s.params.get(self.param_name)
        values = tuple(v for v, _ in self.points)
        if value is None:
            return
        x = self._x(value, values)
        metric = (figure_mean(self.metric_name, s.result, s.dataset,
                              counted_over(turns(s.model, s.prepared, s.params), s.judgments))
                  if self.figure
                  else held_mean(s.result, self.metric_name, self._held()))
        self.current = (value, float(metric))
        self.current_line.setVisible(bool(np.isfinite(x)))
        if np.isfinite(x):
            self.current_line.setValue(x)
            self.current_dot.setData([x], [metric])
            self.current_line.label.setFormat(
                f"now {self._y_text(metric)} at {self._value_text(self.param_name, value)}")

    def _baseline_mean(self, metric: str) -> float | None:
        base = self.session.baseline
        if base is None:
            return None
        if metric in selection_figures.FIGURES:
            return figure_mean(metric, base.result, self.session.dataset,
                               counted_over(self._base_turns(), self.session.judgments))
        if metric not in base.result.means and metric not in base.result.per_query:
            return None
        return held_mean(base.result, metric, self._held())

    def _base_turns(self) -> NDArray[np.bool_] | None:
        """The baseline's own turns (`turns` at its values), on the prepared queries where
        they are its preparation too, as the metric strip counts them; else every query."""
        s, base = self.session, self.session.baseline
        if base is None or s.model is None or base.model_id != s.model.id \
                or s.prepared_params is None:
            return None
        schema = s.model.schema
        if schema.prepare_values(base.params) != schema.prepare_values(s.prepared_params):
            return None
        return turns(s.model, s.prepared, base.params)

    def _y_text(self, y: float) -> str:
        """A figure as read: a count to two decimals, a share or tokens to one; a metric to
        three."""
        if not self.figure:
            return f"{y:.3f}"
        return f"{y:.2f}" if self.metric_name == "results" else f"{y:.1f}"

    def _show_empty(self, text: str) -> None:
        self._key = None
        self._drawn = self._drawn_key = None
        self._request = None
        self._generation += 1  # any running sweep is now stale
        self.points, self.best, self.current = [], None, None
        self._per_query, self._best_at, self.against = [], None, ""
        self._all_x = None
        self.curve.setData([], [])
        self.best_dot.setData([], [])
        self.current_dot.setData([], [])
        self.best_text.setText("")
        self.current_line.setVisible(False)
        self.baseline_line.setVisible(False)
        self.plot.setVisible(False)  # no axes over nothing: the hint says why
        self.show_hint(text)

    def shutdown(self, timeout_ms: int = 5000) -> None:
        """Stop a running sweep and wait for the worker (before the app quits)."""
        self._generation += 1
        self._pool.waitForDone(timeout_ms)


def _fmt(value: ParamValue) -> str:
    return f"{value:.4g}" if isinstance(value, float) else str(value)


def main(argv: list[str] | None = None) -> int:
    from ._standalone import run_panel

    return run_panel(MetricCurve, argv)


if __name__ == "__main__":
    raise SystemExit(main())
