"""What every chart panel shares: a light plot style, a header row with an export button, and
`export(path)` (PNG or SVG by suffix, the title and what it shows drawn above the plot:
`export_image`)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QFontMetrics, QShowEvent
from PySide6.QtWidgets import (
    QFileDialog,
    QGraphicsItem,
    QHBoxLayout,
    QLabel,
    QMenu,
    QMessageBox,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from workbench.core.events import Event
from workbench.core.params import value_text
from workbench.core.session import TuningSession
from workbench.gui.bind import subscribe
from workbench.gui.throttle import IdleThrottle

from .export_image import export_chart, plain

INK = "#24292f"  # axis text and lines: dark grey on white
MUTED = "#6e7781"
RELEVANT = "#1a7f37"  # judged relevant (green) …
OTHER = "#8c959f"  # … against the rest (grey)
A_COLOR, B_COLOR, DIFF_COLOR = "#3b6fb6", "#e08a1e", "#57606a"


def make_plot(*, left: str = "", bottom: str = "") -> pg.PlotWidget:
    """A PlotWidget in the workbench's light style, axes labelled, menus kept (they carry
    pyqtgraph's own Export… entry)."""
    w = pg.PlotWidget(background="w")
    item = w.getPlotItem()
    for name in ("left", "bottom"):
        axis = item.getAxis(name)
        axis.setPen(pg.mkPen(INK))
        axis.setTextPen(pg.mkPen(INK))
        axis.enableAutoSIPrefix(False)  # scores are unitless: no "(x0.001)"
    if left:
        item.setLabel("left", left, color=INK)
    if bottom:
        item.setLabel("bottom", bottom, color=INK)
    item.showGrid(x=True, y=True, alpha=0.15)
    item.hideButtons()
    for name in ("left", "bottom"):
        # the axes (tick labels and the grid across the whole view) replay a QPicture on every
        # paint, ~2.5 ms each; cached as a pixmap they are redrawn only when their ticks change
        item.getAxis(name).setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
    # 140 px high at least: at 180 the chart row held the window's bottom pane at 329 px, and
    # a 1,280 × 720 window showed six rows of the ranked table (the splitter gives more)
    w.setMinimumSize(240, 140)
    return w


def add_legend(plot: pg.PlotWidget) -> pg.LegendItem:
    legend = plot.getPlotItem().addLegend(offset=(-6, 6), labelTextColor=INK,
                                          brush=pg.mkBrush(255, 255, 255, 210),
                                          pen=pg.mkPen("#d0d7de"))
    return legend


def fit_left_axis(plot: pg.PlotWidget, labels: list[str], *, grow_only: bool = False) -> None:
    """Widen the left axis to its longest tick label (pyqtgraph would clip it). `grow_only`:
    never narrower than now, unless far too wide — a new width re-lays out the plot and
    re-renders both axes, which a redraw on every slider tick should not pay for."""
    axis = plot.getPlotItem().getAxis("left")
    metrics = QFontMetrics(axis.font())
    width = max((metrics.horizontalAdvance(s) for s in labels), default=0) + 16
    now = axis.width()
    if grow_only and now >= width and width >= 0.75 * now:
        return
    axis.setWidth(width)


def legend_room(plot: pg.PlotWidget, legend: pg.LegendItem) -> float:
    """The fraction of the plot's width the legend (at the top right) covers, plus a margin:
    extend an x range by it so that nothing is drawn under the legend."""
    if not legend.isVisible():  # left out (too many entries for the plot): no room kept
        return 0.0
    view = plot.getPlotItem().vb.width()
    if view < 50:  # not laid out yet: a typical panel
        view = 600.0
    return float(min(0.5, (legend.boundingRect().width() + 20) / view))


class ChartPanel(QWidget):
    """A titled panel over one session: header (title, controls, export button), body below.

    Subclasses build their body, subscribe with `self.listen(event, callback)` (unsubscribed
    when the widget is destroyed) and say which plot `export()` writes (`current_plot`)."""

    title = "Chart"
    export_name = "chart"
    export_suffixes: tuple[str, ...] = (".png", ".svg")

    def __init__(self, session: TuningSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self._stale = True
        # throttle_ms 0: redraw at once (tests, standalone); else at most about one redraw
        # per throttle_ms during a drag, done while the next result computes on the worker
        # (the GUI thread waits then anyway), so the ranked table and metrics repaint first
        self._idle = IdleThrottle(session, self._draw_now, 0, self)
        self.setObjectName(type(self).__name__)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(4, 4, 4, 4)
        outer.setSpacing(2)
        self.header = QHBoxLayout()
        self.header.setSpacing(6)
        self.caption = QLabel(self.title)
        self.caption.setStyleSheet("font-weight: 600;")
        self.header.addWidget(self.caption)
        self.header.addStretch(1)
        self.export_button = QToolButton()
        self.export_button.setText("Export")
        kinds = [x.lstrip(".").upper() for x in self.export_suffixes]
        # "PNG, SVG or CSV", not "PNG or SVG or CSV" (dr6 5)
        self._export_tip = "Export this chart as " + (
            f"{', '.join(kinds[:-1])} or {kinds[-1]}" if len(kinds) > 1 else "".join(kinds))
        self.export_button.setToolTip(self._export_tip)
        self.export_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        menu = QMenu(self.export_button)
        for suffix in self.export_suffixes:
            action = QAction(f"Export {suffix.lstrip('.').upper()}…", menu)
            action.triggered.connect(lambda _=False, s=suffix: self._export_dialog(s))
            menu.addAction(action)
        self.export_button.setMenu(menu)
        self.header.addWidget(self.export_button)
        outer.addLayout(self.header)
        self.hint = QLabel()
        self.hint.setStyleSheet(f"color: {MUTED};")
        self.hint.setWordWrap(True)
        # under the header, where a hidden plot leaves it all the room (not mid-panel)
        self.hint.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.hint.setVisible(False)
        outer.addWidget(self.hint)
        self.body = QVBoxLayout()
        self.body.setContentsMargins(0, 0, 0, 0)
        outer.addLayout(self.body, 1)

    # -- redrawing only what is seen ----------------------------------------------------------

    def redraw(self, *_: object) -> None:
        """Draw from the session (subclasses)."""

    @property
    def throttle_ms(self) -> int:
        return self._idle.interval_ms

    @throttle_ms.setter
    def throttle_ms(self, ms: int) -> None:
        self._idle.interval_ms = ms

    def update_later(self, *_: object) -> None:
        """Redraw now when shown; a hidden panel (another tab) redraws when it is next shown,
        so slider ticks do not pay for charts nobody sees."""
        if not self.isVisible():
            self._stale = True
            self._idle.cancel()
        else:
            self._idle.poke()

    def _draw_now(self) -> None:
        self._stale = False
        self._redraw_safely()

    def showEvent(self, event: QShowEvent) -> None:  # Qt override
        super().showEvent(event)
        if self._stale:
            self._stale = False
            self._idle.cancel()
            self._redraw_safely()

    def _redraw_safely(self) -> None:
        """`redraw`, where an exception goes to the window's error dialog (`errors`): one
        escaping a Qt override such as showEvent ended the process with a segmentation fault
        (a click on a tab, unsaved configurations lost)."""
        try:
            self.redraw()
        except Exception:
            sys.excepthook(*sys.exc_info())
        self.refresh_export()

    # -- subclasses ---------------------------------------------------------------------------

    def current_plot(self) -> pg.PlotWidget | None:
        """The plot that `export()` writes; None for a panel that is not a plot."""
        return None

    def show_hint(self, text: str) -> None:
        """A grey line under the header (what is missing, what to do); "" hides it."""
        self.hint.setText(text)
        self.hint.setVisible(bool(text))
        self.refresh_export()

    def listen(self, event: Event, callback: Callable[..., Any]) -> None:
        subscribe(self, event, callback)

    # -- export -------------------------------------------------------------------------------

    def export_refusal(self) -> str:
        """Why there is nothing to export now ("" when there is): a plot hidden behind the
        panel's note had been written as its meaningless axes (review r49, dr4 2)."""
        plot = self.current_plot()
        if plot is None or plot.isVisibleTo(self):
            return ""
        note = " ".join(self.hint.text().split())
        return f"Nothing to export: {note}" if note else "Nothing to export: no chart is drawn."

    def refresh_export(self) -> None:
        """The Export button on only while there is something to export; its tooltip says
        why it is off."""
        why = self.export_refusal()
        self.export_button.setEnabled(not why)
        self.export_button.setToolTip(why or self._export_tip)

    def catch_up(self) -> None:
        """Draw now what a throttled (or hidden) redraw still owes: an export writes the
        data of now, not of the last redraw."""
        if self._idle.pending:
            self._idle.flush()
        elif self._stale:
            self._stale = False
            self._redraw_safely()

    def export(self, path: str | Path) -> Path:
        """The plot as PNG or SVG, under the panel's title and a line of what it shows.
        ValueError, nothing written, while there is nothing to export (`export_refusal`)."""
        self.catch_up()
        why = self.export_refusal()
        if why:
            raise ValueError(why)
        plot = self.current_plot()
        if plot is None:
            raise ValueError(f"{type(self).__name__} has no plot to export")
        return export_chart(plot, path, plain(self.caption.text()),
                            " · ".join(self.export_context()), self.fit_to_size)

    def fit_to_size(self) -> None:
        """Fit what depends on the plot's size in px (room kept for a legend) to its size
        now: called at an exported picture's size, then again at the screen's (subclasses)."""

    def export_context(self) -> list[str]:
        """What an exported picture says it shows: the dataset, the model and its values
        (those changed from its defaults), and the query where the chart is one query's
        (`per_query`)."""
        s = self.session
        parts = []
        if s.dataset is not None:
            parts.append(f"dataset {s.dataset.name}")
        if s.model is not None:
            parts.append(f"model {s.model.id}")
            parts.append(self.values_text())
        if self.per_query() and s.dataset is not None and s.query < len(s.dataset.queries):
            q = s.dataset.queries[s.query]
            parts.append(f"query {q.id}: {elide(' '.join(q.text.split()), 60)}")
        return parts

    def values_text(self, leave_out: str | None = None, word: str = "values") -> str:
        """"values k1 = 0.6, b = 0.3" (those changed from the model's defaults, less
        `leave_out`), or "values: defaults"."""
        s = self.session
        if s.model is None:
            return ""
        changed = {k: v for k, v in s.model.schema.changed(s.params).items() if k != leave_out}
        if not changed:
            return f"{word}: defaults"
        return f"{word} " + ", ".join(f"{k} = {value_text(v)}" for k, v in changed.items())

    def per_query(self) -> bool:
        """Whether the chart shows the selected query's figures (not every query's)."""
        return False

    def _export_dialog(self, suffix: str) -> None:
        kind = suffix.lstrip(".").upper()
        # the dialog does not ask before replacing: it would ask about the name typed ("a"),
        # and the file written may be another ("a.png"), asked about below, once. macOS's own
        # save panel asks whatever it is told: there only another file than the one typed
        asks_itself = sys.platform == "darwin"
        path, _ = QFileDialog.getSaveFileName(self, f"Export {kind}",
                                              f"{self.export_name}{suffix}",
                                              f"{kind} (*{suffix})", "",
                                              QFileDialog.Option.DontConfirmOverwrite)
        if not path:
            return
        typed = path
        path, refused = export_path(path, suffix, self.export_suffixes)
        if refused:
            QMessageBox.warning(self, f"Export {kind}", refused)
            return
        if Path(path).exists() and not (asks_itself and path == typed):
            answer = QMessageBox.question(
                self, f"Export {kind}", f"{Path(path).name} already exists. Replace it?",
                QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
                QMessageBox.StandardButton.No)
            if answer != QMessageBox.StandardButton.Yes:
                return
        try:
            self.export(path)
        except ValueError as exc:  # the panel changed under the dialog: nothing to export
            QMessageBox.warning(self, f"Export {kind}", f"{exc}\nNothing was written.")
        except OSError as exc:  # a full disk, a folder made read-only: nothing written
            QMessageBox.warning(self, f"Export {kind}",
                                f"Could not write {path}:\n{exc.strerror or exc}\n"
                                "Nothing was written.")


# suffixes a person types meaning a format: one this panel does not write is refused, not
# given a second suffix (`x.jpg` had been written as PNG to `x.jpg.png`)
_FORMAT_SUFFIXES = frozenset((".png", ".svg", ".csv", ".jpg", ".jpeg", ".gif", ".bmp", ".tif",
                              ".tiff", ".webp", ".pdf", ".eps", ".html", ".htm", ".json",
                              ".tsv", ".txt", ".xlsx"))


def export_path(path: str, chosen: str, allowed: tuple[str, ...]) -> tuple[str, str]:
    """(the path to write, "") for a name typed in an export dialog, or ("", why) when it
    names a format the panel does not write. A suffix the panel writes picks that format;
    no suffix, or one that is no format's, gets the chosen one."""
    typed = Path(path).suffix.lower()
    if typed in allowed:
        return path, ""
    if typed in _FORMAT_SUFFIXES:
        names = ", ".join(s.lstrip(".").upper() for s in allowed)
        return "", (f"{Path(path).name}: this panel exports {names}, not "
                    f"{typed.lstrip('.').upper()}. Name the file {chosen} (or "
                    f"{' / '.join(s for s in allowed if s != chosen)}); nothing was written.")
    return path + chosen, ""


def elide(text: str, n: int) -> str:
    return text if len(text) <= n else text[: n - 1] + "…"


def elide_middle(text: str, n: int) -> str:
    """At most `n` characters, the cut in the middle: ids and paths that share a long
    beginning keep the ends that tell them apart."""
    if len(text) <= n:
        return text
    tail = (n - 1) // 2
    return text[: n - 1 - tail] + "…" + text[len(text) - tail:]


def align_right(label: QLabel) -> QLabel:
    label.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
    return label
