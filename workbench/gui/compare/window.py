"""The compare view: the session's configurations of the current model side by side, for a
demo to people who do not drive sliders.

Left, the configurations (checked = compared, the baseline first) and the controls; in the
middle the selected query's ranked lists with the moves drawn between them (scrolling sideways
where they do not all fit at a width that reads their ids); right, the explain diff of the
document clicked (folded away until one is); below them, the metric table and the per-query
delta chart (a click picks the query). The comparison runs off the GUI thread
(`BackgroundTask`), reusing the window's prepared state, and is redone whenever the
configurations, the checked set, the dataset or k change.

Presentation mode (F11): full screen, larger type (as large as lets the lists and every row of
the metric table fit), the controls hidden; ← → step through the queries that moved most, R
replays the ranking from A to B, Esc leaves. File ▸ Export report writes the comparison as one
HTML (or Markdown) file.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtGui import (
    QCloseEvent,
    QFontInfo,
    QKeyEvent,
    QKeySequence,
    QResizeEvent,
    QShortcut,
    QShowEvent,
    QWheelEvent,
)
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from workbench.core.compare import compare_metrics
from workbench.core.comparison import (
    Comparison,
    compare_configurations,
    data_notes,
    higher_is_better,
)
from workbench.core.engine import Progress
from workbench.core.metrics import BUNDLE_METRICS
from workbench.core.session import TuningSession
from workbench.core.store import atomic_write_text
from workbench.core.tuned_on import held_out_queries, judged_count, training_configurations
from workbench.gui.background import BackgroundTask
from workbench.gui.bind import subscribe_many
from workbench.gui.metric_names import combo_metric, fill_metric_combo, metric_label
from workbench.gui.palette import signed
from workbench.gui.settings import first_size
from workbench.report.pairs import pair_summary, pairs
from workbench.report.text import (
    TRAINED_NOTE,
    case_change,
    case_lines,
    headline_metric,
    held_out_verdict,
    length_notes,
    many_tests_note,
    primary,
    primary_pairs,
    tests_shown,
    trained_pair,
)

from .config_list import ConfigurationList
from .delta_chart import FLOOR as CHART_FLOOR
from .delta_chart import MIN_WIDTH as CHART_MIN_WIDTH
from .delta_chart import QueryDeltaChart
from .explain_diff import ExplainDiff
from .metric_table import MetricTable
from .rank_lines import RankLines

PRESENTATION_SCALE = 1.6
MIN_PRESENTATION_SCALE = 1.15  # where the lists and the metric table do not fit, the least
# … and where even so the metric table's rows do not all fit, the least for them: the window's
# own type, every row in sight rather than larger type (r51 dr3 9)
TABLE_PRESENTATION_SCALE = 1.0
LIVE_DELAY_MS = 250  # a moved slider's comparison waits this long for the next move
# the line under the query: what a click on a document does (the pane waits folded: r51 dr3 4)
EXPLAIN_HINT = "Click a document to see why it moved."
NARROW = 1400  # px: below this a document explained leaves only A's and B's lists beside it
B_TIP = ("B: the configuration the delta chart, the replay and the explain diff set against "
         "the first (A)")
METRIC_TIP = "the metric of the delta chart and of 'moved most'"
CHART_FOLDED = ("the per-query delta chart is folded away so that the metric table shows "
                "every column it can; 'Show Δ chart' opens it, the table then scrolling")
# the cautions above the metric table; {}: a font size while presenting (it stayed at the
# style sheet's 13 px beside the table's large type: dr3 9)
NOTE_STYLE = ("QLabel#tableNote {{ background: #fff8c5; border-left: 3px solid #bf8700; "
              "padding: 4px 8px; {}}}")
B_NOW = "B is now "  # the status line's word that a click made another list B


def moved_order(comp: Comparison, i: int, metric: str) -> list[int]:
    """Query indices by how much `metric` changed between configuration 0 and i, largest
    first (by absolute difference, then by how many of the top documents changed)."""
    delta = comp.per_query_delta(metric, i) if metric in comp.results[0].per_query else None
    a, b = comp.results[0].ranking, comp.results[i].ranking
    q = a.docs.shape[0]
    churn = np.array([len(set(a.docs[j, :10].tolist()) ^ set(b.docs[j, :10].tolist()))
                      for j in range(q)], np.float64)
    size = np.zeros(q) if delta is None else np.nan_to_num(np.abs(delta), nan=0.0)
    order = np.lexsort((np.arange(q), -churn, -size))
    return [int(x) for x in order if size[x] > 0 or churn[x] > 0]



def window_cautions(comp: Comparison) -> list[tuple[str, str]]:
    """The report's cautions on the figures the window shows, each (short, as the report
    words it): tune's held-out verdict of each tuned configuration, each list-length note
    and the many-p-values caution (review rv3, F6: the window had shown a longer list's
    +0.0552 green with none of them). Short, so that the metric table keeps its rows in
    sight at 1,280 × 800; whole in the tooltip."""
    metric = headline_metric(comp)
    out = []
    for c in comp.configs:
        verdict = held_out_verdict(comp, c.name, metric) if c.name in comp.tuned else ""
        j = comp.configs.index(c)
        if verdict and c.name not in comp.training and not any(
                primary(comp, a, j, metric) for a in range(len(comp.configs))):
            # its start is not shown here: tune's own test, not a pair of this table (dr6 1)
            verdict = verdict.replace("(the primary comparison, tested alone)",
                                      "(tune's own test of it against its start, which is "
                                      "not shown here)")
        if verdict:
            said = f"{c.name!r}, by tune's held-out {metric}: {verdict}"
            out.append((said, said))
    for note in length_notes(comp):
        lengths = note.split(": ", 1)[0]
        out.append((f"{lengths}: a difference is partly how many results are returned, not "
                    "how well they are ordered", f"{note}."))
    many = many_tests_note(comp, summary="the verdicts here")
    if many:
        n = tests_shown(comp)
        k = len(primary_pairs(comp))
        # the rule, once, on one line at 1,280 px (it took two, a metric row's height: dr1 8),
        # above the pairs that point to it (dr6 3)
        out.append(((f"tune's {'test' if k == 1 else f'{k} tests'} judged alone at 0.05; the "
                     f"other {n} p-value{'s' if n != 1 else ''} after Holm's adjustment" if k
                     else f"{n} p-values shown: beyond chance (coloured, p bold) only after "
                     "Holm's adjustment"), many))
    found = pairs(comp)
    if found:  # three or more: the pairs the table, each against A, does not hold
        whole = pair_summary(comp, found, label=metric_label, rule="above")
        out.append((whole.split(" Below 0.05 alone")[0], whole))
    return out

class ListsScroll(QScrollArea):
    """The ranked lists, scrolling sideways where they do not all fit at a width that reads
    their ids (`RankLines.least_width`): every configuration in reach, none drawn as a list of
    "…" (eight at 1,024 px had been, the last two cut off: r51 1). Keys go to the window (←
    → step through the queries that moved most; a scroll area takes them to scroll), which
    gives Home, End, Page Up and Page Down back here (`scroll_key`); any wheel scrolls
    sideways."""

    def __init__(self, lines: RankLines, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWidget(lines)
        self.setWidgetResizable(True)
        self.setFrameShape(QScrollArea.Shape.NoFrame)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.setMinimumHeight(lines.minimumHeight())
        self._wanted: int | None = None  # `keep_value`'s, until the range reaches it
        bar = self.horizontalScrollBar()
        bar.rangeChanged.connect(lambda *_: self._apply_wanted())
        bar.actionTriggered.connect(self._forget_wanted)  # the user's own scroll wins
        # the legend is drawn at the viewport's left (`RankLines._seen_left`): again on a scroll
        bar.valueChanged.connect(lambda *_: lines.update())

    def bar_height(self) -> int:
        """The height the sideways scroll bar takes below the lists (0 where they fit)."""
        widget = self.widget()
        fits = widget is None or widget.minimumWidth() <= self.width()
        return 0 if fits else self.horizontalScrollBar().sizeHint().height()

    def keyPressEvent(self, event: QKeyEvent) -> None:  # Qt override
        event.ignore()

    def scroll_key(self, key: int) -> bool:
        """Home, End, Page Up, Page Down scroll the lists sideways (← → step the queries);
        whether `key` is one of them. Presenting, with no scroll bar to drag, lists past the
        screen's width had been out of a keyboard's or a clicker's reach (r51 dr3 7)."""
        bar = self.horizontalScrollBar()
        moves = {Qt.Key.Key_Home: -bar.maximum(), Qt.Key.Key_End: bar.maximum(),
                 Qt.Key.Key_PageUp: -bar.pageStep(), Qt.Key.Key_PageDown: bar.pageStep()}
        if key not in moves:
            return False
        self._wanted = None
        bar.setValue(bar.value() + moves[Qt.Key(key)])
        return True

    def wheelEvent(self, event: QWheelEvent) -> None:  # Qt override
        """Any wheel scrolls the lists sideways: there is no scrolling up and down (a plain
        wheel over them had done nothing: r51 dr3 7)."""
        bar = self.horizontalScrollBar()
        self._wanted = None
        if bar.maximum() > 0:
            angle = event.angleDelta()
            delta = angle.y() if abs(angle.y()) > abs(angle.x()) else angle.x()
            # down (or left): on to the lists at the right, by the lines a wheel step scrolls
            step = bar.singleStep() * QApplication.wheelScrollLines()
            bar.setValue(bar.value() - delta * step // 120)
            event.accept()
        else:
            event.ignore()

    def focusNextPrevChild(self, next: bool) -> bool:  # Qt override
        """Tab into the lists leaves them where they are scrolled (the scroll area centred
        the lists' widget, wider than it, moving the view to its middle: r51 dr3 11)."""
        bar = self.horizontalScrollBar()
        keep = bar.value()
        done = super().focusNextPrevChild(next)
        bar.setValue(keep)
        return done

    def keep_value(self, value: int) -> None:
        """The scroll position `value`, now or once the lists are wide enough again (their
        width comes back a layout pass after their columns do)."""
        self._wanted = value
        self._apply_wanted()

    def _forget_wanted(self, *_: object) -> None:
        self._wanted = None

    def _apply_wanted(self) -> None:
        bar = self.horizontalScrollBar()
        wanted = self._wanted
        if wanted is not None and bar.maximum() >= wanted:
            bar.setValue(wanted)
            self._wanted = None


class CompareWindow(QWidget):
    def __init__(self, session: TuningSession, parent: QWidget | None = None, *,
                 synchronous: bool = False) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.setWindowTitle("Compare configurations — Scoring Workbench")
        self.session = session
        self.comp: Comparison | None = None
        self.b_index = 1
        self.b_name = ""  # B as the user picked it, kept across comparisons by its name
        self.presenting = False
        self._pending_export: Path | None = None
        self._dirty = True  # the shown comparison is not the session's any more
        self.last_export: Path | None = None
        self.task = BackgroundTask(self, synchronous=synchronous)
        self.task.finished.connect(self._on_compared)
        self.task.failed.connect(self._on_failed)

        self.configs = ConfigurationList(session, self, synchronous=synchronous)
        self.configs.selection_changed.connect(self.schedule)
        # a slider dragged: compared again once it rests a moment, not on every step
        self.configs.live_changed.connect(lambda: self.schedule(delay_ms=LIVE_DELAY_MS))
        self.configs.message.connect(self.say)
        self.b_pick = QComboBox(self)
        self.b_pick.setToolTip(B_TIP)
        self.b_pick.currentIndexChanged.connect(self._on_b_picked)
        self.metric_pick = QComboBox(self)
        self.metric_pick.setToolTip(METRIC_TIP)
        self.metric_pick.currentIndexChanged.connect(lambda *_: self._show_comparison())
        # the chart's metric as the user picked it (kept); until then, one that moved
        self.metric_name_picked = ""
        self.metric_pick.activated.connect(
            lambda *_: setattr(self, "metric_name_picked", combo_metric(self.metric_pick)))
        self.prev_button = QPushButton("◀ moved", self)
        self.next_button = QPushButton("moved ▶", self)
        self.prev_button.setToolTip("the previous of the queries that moved most (←)")
        self.next_button.setToolTip("the next of the queries that moved most (→)")
        self.prev_button.clicked.connect(lambda: self.step(-1))
        self.next_button.clicked.connect(lambda: self.step(1))
        self.replay_button = QPushButton("Replay A → B", self)
        self.replay_button.setToolTip("animate the ranking from A to B (R)")
        self.replay_button.clicked.connect(self.replay)
        # the delta chart folded away for the metric table's columns: said, and opened, here
        # (only a 4-px grip at the window's edge had shown it existed: rv2 dr5 2)
        self.chart_button = QPushButton("Show Δ chart ▸", self)
        self.chart_button.setToolTip(CHART_FOLDED)
        self.chart_button.clicked.connect(self.open_chart)
        self.chart_button.hide()
        self.present_button = QPushButton("Present", self)
        self.present_button.setToolTip("full screen, larger type, controls hidden (F11; "
                                       "← → queries, R replay, Esc leaves)")
        self.present_button.clicked.connect(lambda: self.set_presentation(True))
        self.export_button = QPushButton("Export report…", self)
        self.export_button.clicked.connect(self.ask_export)
        self.cancel_button = QPushButton("Cancel", self)
        self.cancel_button.clicked.connect(self.task.cancel)
        # short: the side column is as wide as its widest control (this box's longer text
        # held it at 300 px, the 1,024-px window's metric table scrolling beside it)
        self.all_queries = QCheckBox("Count tuned-on queries too", self)
        self.all_queries.setToolTip(
            "a configuration from a tuning run is compared on the judged queries it was not "
            "tuned on: on the others its figures are training scores. Checked, every judged "
            "query counts (the note under the buttons says which were tuned on)")
        self.all_queries.toggled.connect(self.schedule)
        self.status = QLabel("", self)
        self.status.setWordWrap(True)
        self.task.progress.connect(
            lambda f, m: self.status.setText(f"comparing … {f:.0%} {m}"))

        self.query_label = QLabel("", self)
        self.query_label.setWordWrap(True)
        self.query_label.setTextFormat(Qt.TextFormat.PlainText)
        self._query_line = ""  # its whole text (shown elided where room is short: `_make_room`)
        self.lines = RankLines(self)
        self.lines.doc_selected.connect(self._on_doc)
        self.lines.setFocusPolicy(Qt.FocusPolicy.StrongFocus)  # for presentation mode's keys
        self.lines.replay_finished.connect(self._on_replay_finished)
        self.explain = ExplainDiff(self)
        self.table = MetricTable(self)
        self.chart = QueryDeltaChart(self)
        self.chart.query_clicked.connect(self.show_query)

        self.controls = QWidget(self)
        side = QVBoxLayout(self.controls)
        side.setContentsMargins(0, 0, 0, 0)
        side.addWidget(QLabel("Configurations", self.controls))
        side.addWidget(self.configs, 1)
        for label, widget in (("B:", self.b_pick), ("metric:", self.metric_pick)):
            row = QHBoxLayout()
            row.addWidget(QLabel(label, self.controls))
            row.addWidget(widget, 1)
            side.addLayout(row)
        side.addWidget(self.chart_button)
        for buttons in ((self.prev_button, self.next_button),
                        (self.replay_button, self.present_button),
                        (self.export_button, self.cancel_button)):
            row = QHBoxLayout()
            for b in buttons:
                row.addWidget(b)
            side.addLayout(row)
        side.addWidget(self.all_queries)
        side.addWidget(self.status)

        centre = QWidget(self)
        cl = self._centre_layout = QVBoxLayout(centre)
        cl.setContentsMargins(0, 0, 0, 0)
        cl.addWidget(self.query_label)
        self.lines_scroll = ListsScroll(self.lines, centre)
        cl.addWidget(self.lines_scroll, 1)
        top = self.top_split = QSplitter(Qt.Orientation.Horizontal, self)
        top.addWidget(centre)
        top.addWidget(self.explain)
        # a wider window widens both, the explain pane by half as much (it kept the width
        # it had been given in a narrow window, its B and Δ columns scrolled away at 1,920)
        top.setStretchFactor(0, 2)
        top.setStretchFactor(1, 1)
        top.splitterMoved.connect(self._on_top_moved)  # the pane dragged shut
        top.setSizes([760, 380])
        # what the figures are — held out or training, tune's held-out estimate — said
        # above the table they qualify (it sat at the foot of the side panel)
        self.table_note = QLabel("", self)
        self.table_note.setWordWrap(True)
        self.table_note.setObjectName("tableNote")
        self.table_note.setStyleSheet(NOTE_STYLE.format(""))
        self.table_note.hide()
        # its lines whole, and short: the pairs' "Not tested: …" left to the tooltip where
        # room is short (`_make_room`)
        self._note_lines: tuple[list[str], list[str]] = ([], [])
        table_box = QWidget(self)
        tl = QVBoxLayout(table_box)
        tl.setContentsMargins(0, 0, 0, 0)
        tl.setSpacing(4)
        tl.addWidget(self.table_note)
        tl.addWidget(self.table, 1)
        bottom = self.bottom_split = QSplitter(Qt.Orientation.Horizontal, self)
        bottom.addWidget(table_box)
        bottom.addWidget(self.chart)
        bottom.setStretchFactor(1, 1)
        bottom.setSizes([520, 620])
        bottom.setChildrenCollapsible(True)
        bottom.handle(1).setToolTip(
            "drag to share the row between the metric table and the per-query Δ chart; a "
            "chart dragged open stays open, the table scrolling, until it is dragged shut")
        # the user dragged the chart open: it stays open (the table scrolls) until they fold it
        # or the window is opened again (it had folded away at the next pick of B or the
        # metric, a resize or a step: rv2 dr5 1)
        self._chart_dragged = False
        bottom.splitterMoved.connect(self._on_chart_moved)
        # the table fitted whenever its row changes width, not only when the window does:
        # F11 hides the side column and grows the type with no resize of a window already
        # the screen's size (dr1 4), and the side column can be dragged
        # (once the splitter has shared out its new width itself: a timer)
        self._table_timer = QTimer(self)
        self._table_timer.setSingleShot(True)
        self._table_timer.setInterval(0)
        self._table_timer.timeout.connect(self._fit_table)
        bottom.installEventFilter(self)
        right = self.right_split = QSplitter(Qt.Orientation.Vertical, self)
        right.addWidget(top)
        right.addWidget(bottom)
        right.setStretchFactor(0, 1)
        right.setStretchFactor(1, 1)  # a taller window: room for both, not for blank ranks
        right.setSizes([470, 370])  # ten ranks and their legend above, the table below
        # dragged up, the lists stop at their least height (dragged past it, the pane had
        # folded away: rv2 dr2 2)
        right.setChildrenCollapsible(False)
        self._rows_dragged = False  # the user set the lists' height: kept on a resize
        right.splitterMoved.connect(lambda *_: setattr(self, "_rows_dragged", True))
        # the controls in a column of the window's whole height, beside the lists and the
        # table (below the lists only, they had been given the lists' height: the
        # configurations list squeezed to 3 rows, its buttons to 14 px, and blank beside
        # the lists: rv2 dr2 1, 5); the table fits its narrower room by `fit_width`
        self.main_split = QSplitter(Qt.Orientation.Horizontal, self)
        self.main_split.addWidget(self.controls)
        self.main_split.addWidget(right)
        self.main_split.setStretchFactor(1, 1)
        self.main_split.setCollapsible(0, False)
        self.main_split.setSizes([260, 1100])
        self._side_fitted = False  # `_fit_side` done (once: a width the user drags is kept)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.main_split)

        # F11 wherever the focus is; ← → R Esc in keyPressEvent, so a list keeps its arrows
        QShortcut(QKeySequence("F11"), self, lambda: self.set_presentation(not self.presenting))
        # closed from the keyboard too (only the window manager's Alt+F4 closed it): Ctrl+W
        # and Esc when not presenting
        QShortcut(QKeySequence("Ctrl+W"), self, self.close)

        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._sizes_before: list[int] = []  # the explain pane's split before presenting
        self._rows_before: list[int] = []  # the lists' and the table's split, likewise
        # the query shown before presenting, and the one presenting chose (None: none, or
        # the user stepped to another)
        self._query_before: int | None = None
        self._present_query: int | None = None
        # the document explained: (query, doc, the configuration it is explained into), and
        # the one explained before presenting, shown again when its query comes back (leaving
        # Present had cleared it, then opened the pane on the placeholder: r51 dr3 2)
        self._explained: tuple[int, int, int] | None = None
        self._explained_before: tuple[int, int, int] | None = None
        self._closed_note = ""  # why a comparison made afresh closed the explanation
        # presenting, the type chosen for a layout: (the splits' heights and widths and the
        # lists' count, the scale)
        self._present_fit: tuple[tuple[int, int, int], float] | None = None
        # the lists' scroll position a replay (two lists, no scroll) is to give back (dr3 11)
        self._scroll_before_replay: int | None = None
        # … and the one A and B alone beside the explain pane are to give back
        self._scroll_before_explain: int | None = None
        self._timer.setInterval(0)
        self._timer.timeout.connect(self.compare)
        s = session
        subscribe_many(self, [(s.dataset_changed, self.schedule),
                              (s.model_changed, self.schedule),
                              (s.k_changed, self.schedule),
                              (s.configurations.changed, self.schedule),
                              (s.baseline_changed, self.schedule),
                              (s.query_changed, self._follow_query)])
        self._enable_actions()
        self.resize(first_size(self, 1400, 860))

    # -- computing ------------------------------------------------------------------------

    def say(self, text: str) -> None:
        self.status.setText(f"{text}\n{self._closed_note}" if self._closed_note else text)
        self.status.setToolTip("")

    def schedule(self, *_: object, delay_ms: int = 0) -> None:
        """Compare again once control returns to the event loop (many events, one run), or
        `delay_ms` later; while the window is hidden, only when it is shown (or a report
        asked for)."""
        self._dirty = True
        if not self.isVisible():
            return
        if self.task.synchronous:
            self.compare()
        else:
            self._timer.start(delay_ms)

    def names(self) -> list[str]:
        return self.configs.checked()

    def compare(self) -> None:
        s = self.session
        self._dirty = False
        names = self.names()
        self.cancel_button.setEnabled(False)
        if s.model is None or s.dataset is None:
            self._clear("open a dataset first")
            return
        if len(names) < 2:
            self._clear(self._fewer_than_two(names))
            return
        if s.judgments is None:
            self._clear(f"{s.dataset.name} has no judgments: the lists can still be compared "
                        "per query, but no metric")
        model, dataset = s.model, s.dataset
        configs = [self.configs.entry(n).as_configuration() for n in names]
        # the rows `workbench report` shows (review F, 5: the exported report had r@10 and
        # no map@100 or judged@10 beside the command line's), at the window's top k; for a
        # bundle model its bundles' recall, precision, F1, files and tokens too
        # with other models checked, each one's (a bundle's figures blank for bm25)
        models = list({id(c.model): c.model or model for c in configs}.values())
        metrics = list(dict.fromkeys(m for each in models
                                     for m in compare_metrics(each, dataset, s.k)))
        prepared = ((dict(s.prepared_params), s.prepared)
                    if s.prepared is not None and s.prepared_params is not None else None)
        tuned, said = [], []
        for n in names:  # each record as it holds for the values saved (`applies_to`)
            saved = self.configs.entry(n)
            if saved.tuned_on is None:
                continue
            record, why = saved.tuned_on.applies_to(saved.model_id, saved.params)
            if why:
                said.append(f"{n!r}: {why}")
            if record is not None:
                tuned.append((n, record))
        # the box means something only where a configuration was tuned on some queries
        self.all_queries.setEnabled(bool(tuned))
        before = dataset
        dataset, notes = held_out_queries(dataset, tuned, self.all_queries.isChecked())
        notes = [*notes, *said]
        set_aside = judged_count(before) - judged_count(dataset)
        self.cancel_button.setEnabled(True)
        self.status.setText(f"comparing {len(configs)} configurations …")

        def work(progress: Progress) -> Comparison:
            comp = compare_configurations(model, dataset, configs, metrics,
                                          progress=progress, prepared=prepared)
            # and what the command line says of the data: each model's data warnings, each
            # configuration that returns nothing (the exported report's "the notes above say
            # why" had no note above it)
            comp.notes, comp.set_aside = [*notes, *data_notes(comp)], set_aside
            comp.training = training_configurations(dataset, tuned)
            comp.tuned = dict(tuned)
            return comp

        self.task.start(work)

    def _fewer_than_two(self, names: list[str]) -> str:
        """What to do with fewer than two rows checked: move a slider (the live values then
        make a row of their own) or check another."""
        live = self.configs.live_name()
        shown = self.session.comparable()
        if not shown:
            return ("nothing saved to compare the live sliders with: pin them as the baseline "
                    "(Ctrl+B) or 'Save current…', then move a slider")
        if len(shown) == 1 and live is None:
            return (f"only '{shown[0].name}' to compare: move a slider and the live values "
                    "come in as 'current (unsaved)', compared with it")
        return "check at least two configurations to compare"

    def _on_compared(self, comp: object) -> None:
        assert isinstance(comp, Comparison)
        self.cancel_button.setEnabled(False)
        was = self._explained_by_name()
        self.comp = comp
        self.b_pick.blockSignals(True)
        self.b_pick.clear()
        for c in comp.configs[1:]:
            self.b_pick.addItem(c.name)
        config_names = [c.name for c in comp.configs]
        # B: the one picked, else the first whose rankings differ from A's, else whose values
        # do (one that ranks as the baseline does — a budget that cuts no bundle — would
        # open on "no metric changed")
        def ranks_apart(i: int) -> bool:
            a, b = comp.results[0].ranking, comp.results[i].ranking
            return not (np.array_equal(a.docs, b.docs) and np.array_equal(a.count, b.count)
                        and all(np.array_equal(comp.results[0].per_query[m],
                                               comp.results[i].per_query[m], equal_nan=True)
                                for m in comp.results[0].per_query
                                if m in comp.results[i].per_query))

        # the live sliders first where they are a row: the baseline against now
        live = self.configs.live_name()
        others = sorted(range(1, len(comp.configs)), key=lambda i: config_names[i] != live)
        self.b_index = (config_names.index(self.b_name) if self.b_name in config_names[1:] else
                        next((i for i in others if ranks_apart(i)),
                             next((i for i in others if dict(comp.configs[i].params)
                                   != dict(comp.configs[0].params)), 1)))
        self.b_index = min(max(self.b_index, 1), len(comp.configs) - 1)
        self.b_pick.setCurrentIndex(self.b_index - 1)
        self.b_pick.blockSignals(False)
        self._fill_metrics(comp)
        names = ", ".join(c.name for c in comp.configs)
        judged = len(comp.dataset.qrels or {})
        # which cases now pass or fail: in the metric table's cases row's tooltip (listed
        # here, thirty ids had filled the side panel); past two, the names in the status's
        # tooltip, its text a count (eight names took five lines, each a row of the
        # configurations list: rv2 dr2 1)
        what = names if len(comp.configs) <= 2 else f"{len(comp.configs)} configurations"
        self.status.setText("\n".join([
            f"compared {what} on {judged:,} judged queries" if judged else
            f"compared {what} per query: {comp.dataset.name} has no judgments, so no metric",
            *case_lines(comp)[:1]]))  # pi-lodestone's cases passing
        self.status.setToolTip(f"compared {names}")
        # the data's own test first, as the report's In short leads with it (review rv3, F2)
        cases = [f"{c.name} against {comp.configs[0].name}: {said}"
                 for i, c in enumerate(comp.configs[1:], 1)
                 if not trained_pair(comp, i) and (said := case_change(comp, i))]
        notes = [*cases, *comp.notes, *([TRAINED_NOTE] if any(
            trained_pair(comp, i) for i in range(1, len(comp.configs))) else [])]
        cautions = window_cautions(comp)
        shown = [*notes, *(short for short, _ in cautions)]
        self._note_lines = (shown, [line.split(" Not tested: ")[0] for line in shown])
        self.table_note.setText("\n".join(shown))
        self.table_note.setToolTip("\n\n".join([*notes, *(whole for _, whole in cautions)])
                                   if cautions else "")
        self.table_note.setVisible(bool(shown))
        self._fit_side()
        self._show_comparison()
        if was is not None:
            self._explain_again(*was)
        self._enable_actions()
        if self._pending_export is not None:
            path, self._pending_export = self._pending_export, None
            self._write_report(path)

    def _explained_by_name(self) -> tuple[str, str, str, str] | None:
        """The document explained, by name: its query's id, its own, A's and the list's it
        is explained into, to explain again in a comparison made afresh."""
        comp, was = self.comp, self._explained
        if comp is None or was is None or self.explain.explained is None:
            return None
        q, doc, into = was
        if not (q < len(comp.dataset.queries) and doc < len(comp.dataset.corpus)
                and 0 < into < len(comp.configs)):
            return None
        return (comp.dataset.queries[q].id, comp.dataset.corpus[doc].id,
                comp.configs[0].name, comp.configs[into].name)

    def _explain_again(self, query: str, doc: str, a: str, into: str) -> None:
        """The document explained before a comparison made afresh, explained again where its
        query is shown and A and the list it was explained into are still compared (deleting
        another configuration, or its Undo, had closed the pane: r52 dr5 6); else the status
        says why the pane closed."""
        comp = self.comp
        assert comp is not None
        names = [c.name for c in comp.configs]
        q = next((i for i, x in enumerate(comp.dataset.queries) if x.id == query), None)
        d = comp.dataset.corpus.index.get(doc)
        if names[0] != a:
            why = f"A is now {names[0]}, not {a}"
        elif into not in names[1:]:
            why = f"{into} is no longer compared"
        elif q is None or d is None or q != self.lines_query():
            why = f"query {query} is no longer shown"
        else:
            self._explain(q, d, names.index(into))
            return
        # under the status, and under the line a delete says next where it comes after the
        # comparison (as it does where the window compares at once)
        self._closed_note = f"the explanation of {doc} closed: {why}"
        tip = self.status.toolTip()
        self.status.setText(f"{self.status.text()}\n{self._closed_note}")
        self.status.setToolTip(tip)
        QTimer.singleShot(0, self._forget_closed_note)

    def _forget_closed_note(self) -> None:
        self._closed_note = ""

    def _fill_metrics(self, comp: Comparison, keep: str = "") -> None:
        """The chart's metrics: those B and A both have (bm25 selects no bundle: beside
        codeledger its bundle recall had charted every task as "without judgments"), where
        a higher value is better — counts stay out, and judged@k (coverage, neither better
        nor worse). `keep`: the metric shown, kept where B has it too."""
        a, b = comp.results[0].per_query, comp.results[self.b_index].per_query
        picks = [r.metric for r in comp.rows if higher_is_better(r.metric)
                 and not r.metric.startswith("judged@") and r.metric in a and r.metric in b]
        if keep not in picks or self.metric_name_picked in picks:
            keep = self._opening_metric(comp, picks)
        fill_metric_combo(self.metric_pick, picks, keep)

    def _opening_metric(self, comp: Comparison, picks: list[str]) -> str:
        """The chart's metric: the one the user picked, else the first that B moved against
        A, bundle recall first for a bundle model (what Tune starts on for it). On codeledger
        it had opened on bundle recall where only precision and F1 moved: a flat chart."""
        if self.metric_name_picked in picks:
            return self.metric_name_picked
        first = ["bundle_recall"] if hasattr(comp.model, "bundles") else []
        a, b = comp.results[0].per_query, comp.results[self.b_index].per_query
        for name in [*first, *picks]:
            if name in a and name in b and not np.array_equal(a[name], b[name],
                                                              equal_nan=True):
                return name
        return next((n for n in [*first, *picks] if n in picks), "")

    def _on_failed(self, message: str) -> None:
        self.cancel_button.setEnabled(False)
        self._pending_export = None
        self.status.setText("comparison cancelled" if not message
                            else f"comparison failed: {message}")

    def _clear(self, why: str) -> None:
        """No comparison: why (and what to do) in the middle, where the eye goes, as well as
        under the buttons; the old one's lists, table and bars gone; nothing to step through,
        replay, present or export."""
        self.task.cancel()
        self.comp = None
        self.say(why)
        self._query_line = ""
        self._elide_query_line(False)
        # the old comparison's notes and boxes go with it (they had stayed on screen under
        # "check at least two configurations")
        self._note_lines = ([], [])
        self.table_note.setText("")
        self.table_note.setToolTip("")
        self.table_note.hide()
        for box in (self.b_pick, self.metric_pick):  # B and the metric kept by name
            box.blockSignals(True)
            box.clear()
            box.blockSignals(False)
        self.explain.clear()
        self.lines.empty_text = why[:1].upper() + why[1:]
        self.lines.set_comparison(None)
        self.table.set_comparison(None)
        self.chart.empty_text = "No comparison to show"
        self.chart.set_comparison(None)
        self._show_chart_toggle()
        self._enable_actions()

    def _enable_actions(self) -> None:
        """The buttons that act on a comparison, enabled while there is one (◀ ▶ had said
        "no query moved" with none made, Present opened blank panes)."""
        for b in (self.prev_button, self.next_button, self.replay_button,
                  self.present_button, self.export_button, self.b_pick, self.metric_pick):
            b.setEnabled(self.comp is not None)  # empty B and metric boxes: nothing to pick

    # -- showing it -----------------------------------------------------------------------

    @property
    def metric_name(self) -> str:
        name = combo_metric(self.metric_pick)
        if name:
            return name
        return self.comp.rows[0].metric if self.comp is not None and self.comp.rows else ""

    def _on_b_picked(self, index: int) -> None:
        if index >= 0:
            self.b_index = index + 1
            self.b_name = self.b_pick.itemText(index)
            if self.comp is not None:  # the metrics this B has
                self._fill_metrics(self.comp, combo_metric(self.metric_pick))
            self._show_comparison()

    def _show_comparison(self) -> None:
        comp = self.comp
        if comp is None:
            return
        self.table.set_comparison(comp, self.session.k)
        self.table.set_b(self.b_index)
        self._fit_table()
        if comp.rows:
            self.chart.set_comparison(comp, self.b_index, self.metric_name or None)
        else:
            self.chart.empty_text = (f"{comp.dataset.name} has no judgments: no metric to "
                                     "compare per query. The ranked lists above show how each "
                                     "query's documents move, the table how alike the top "
                                     f"{self.session.k} are.")
            self.chart.set_comparison(None)
        self.lines.set_comparison(comp)
        self.lines.set_k(self.session.k)
        self.lines.set_columns(self._columns())
        self._name_steps()
        self.show_query(self.session.query)
        self._fit_lists()  # the table's rows, the note above it and the legend are new

    def _fit_side(self) -> None:
        """The side column as narrow as its controls allow once they hold their names (the
        lists and the metric table need the room more at 1,280 px: review rv3, F10); done
        once, on the first comparison."""
        sizes = self.main_split.sizes()
        if self._side_fitted or sum(sizes) <= 0:
            return
        self._side_fitted = True
        # and room for the list's scroll bar, should it need one (it widens the column then)
        bar = self.configs.list.verticalScrollBar()
        side = min(sizes[0], self.controls.minimumSizeHint().width()
                   + (0 if bar.isVisible() else bar.sizeHint().width()))
        self.main_split.setSizes([side, sum(sizes) - side])

    def _fit_table(self) -> None:
        """The metric table as wide as its columns, the delta chart the rest, down to
        CHART_MIN_WIDTH: with three configurations B's Δ, p and ▲/▼ had been scrolled away, with
        four (at 1,280 px, the table held to two thirds) the last one's p and ▲/▼. Where that
        is not enough, the table is drawn tighter (`MetricTable.fit_width`: names on two
        lines, shorter figures, then smaller type), and then the chart gives way down to
        CHART_FLOOR; where the table does not fit beside the chart at its floor, the chart
        folds away ('Show Δ chart' brings it back) and the table takes the row, drawn as
        loosely as the whole row allows: that cuts less of it (rv2 dr2 3; folding only where
        every column then fitted had left 194 px of four configurations cut at 1,024 px
        beside the chart, where folding cut 14: rv2 dr5 3). A chart the user opened keeps
        its width, the table scrolling (`_chart_dragged`)."""
        table_w, chart_w = self.bottom_split.sizes()
        total = table_w + chart_w
        if total <= 0 or self.comp is None:
            return
        want = self._table_want()
        if self._chart_dragged and chart_w > 0 and not self.presenting:
            self.table.fit_width(table_w)
        else:
            need = self.table.fit_width(total - CHART_MIN_WIDTH)
            width = max(min(need, total - CHART_FLOOR), min(need, total // 2))
            if need > total - CHART_FLOOR and not self.presenting:
                width = total
                need = self.table.fit_width(total)  # the row's whole width: looser type
            if width != table_w:
                self.bottom_split.setSizes([width, total - width])
        self._show_chart_toggle()
        # the lists fitted again to the table's new height: its names fold onto two lines
        # here, after the resize that fitted the lists to the one-line heads (back at 1,280 ×
        # 800 from 1,920 the table had shown 10 of its 11 rows: dr3 4)
        if self._table_want() != want:
            self._fit_lists()

    def _on_chart_moved(self, *_: object) -> None:
        """The split under the lists dragged: the chart kept open, or, dragged shut, folded
        again where the table needs the room."""
        self._chart_dragged = self.bottom_split.sizes()[1] > 0
        if self.comp is not None and self._chart_dragged:
            self.table.fit_width(self.bottom_split.sizes()[0])
        self._show_chart_toggle()

    def open_chart(self) -> None:
        """The folded delta chart opened (CHART_MIN_WIDTH, or what the table leaves it), kept
        open as a dragged one is; the table scrolls beside it."""
        table_w, chart_w = self.bottom_split.sizes()
        total = table_w + chart_w
        if total <= 0:
            return
        chart = max(CHART_MIN_WIDTH, total - self.table.needed_width())
        self._chart_dragged = True
        self.bottom_split.setSizes([total - chart, chart])
        self._fit_table()

    def _show_chart_toggle(self) -> None:
        """'Show Δ chart' in sight while the chart is folded, and the pickers saying so."""
        folded = self.comp is not None and self.bottom_split.sizes()[1] == 0
        self.chart_button.setVisible(folded)
        extra = f" ({CHART_FOLDED})" if folded else ""
        self.b_pick.setToolTip(B_TIP + extra)
        self.metric_pick.setToolTip(METRIC_TIP + extra)

    def moved(self) -> list[int]:
        if self.comp is None:
            return []
        return moved_order(self.comp, self.b_index, self.metric_name)

    def show_query(self, q: int) -> None:
        """Show query `q` in the lists and the chart (and select it in the main window)."""
        comp = self.comp
        if comp is None or not 0 <= q < len(comp.dataset.queries):
            return
        if self.presenting and q != self._present_query:
            self._present_query = None  # the user's choice now: kept on leaving
        self.lines.set_query(q)
        self.chart.set_current_query(q)
        was_explained = self._explained is not None
        self.explain.clear()
        self._explained = None
        self._fold_explain()  # nothing explained: the lists take its room again
        self._restore_columns()  # and every list comes back
        if self.presenting and was_explained:
            self._fit_presentation()  # … in type as large as they fit at (dr7 8)
        self._say_query(q)
        if self.session.query != q:
            self.session.select_query(q)

    def _say_query(self, q: int) -> None:
        """The line above the lists: query `q` and what B changed on it against A."""
        comp = self.comp
        assert comp is not None
        query = comp.dataset.queries[q]
        parts = []
        for row in comp.rows:
            d = comp.per_query_delta(row.metric, self.b_index)[q]
            if not math.isnan(d) and abs(d) > 5e-4:
                figure = BUNDLE_METRICS.get(row.metric)  # a bundle's files or tokens: a count
                label = metric_label(row.metric)
                parts.append(f"{label} {d:+,.0f}".replace("-", "−")
                             if figure is not None and figure.count
                             else f"{label} {signed(d)}")
        pair = f"{comp.configs[self.b_index].name} − {comp.configs[0].name}"
        change = (", ".join(parts) if parts else "no metric changed") if comp.rows \
            else "not judged"
        if query.id not in (comp.dataset.qrels or {}) and query.id in (
                self.session.dataset.qrels or {} if self.session.dataset else {}):
            change = "not counted: a configuration was tuned on this query (its judgments " \
                     "are set aside)"
        # "this query": the table below counts every query ("no metric changed" sat above a
        # table whose bundle figures had changed)
        # and what a click on a document does: the explain pane waits folded, out of sight
        # (r51 dr3 4)
        # the hint only while nothing is explained: beside the pane it wrapped the line to
        # three over the narrowed lists, a metric row cut at 1,280 × 800 (r52 dr5 2)
        hint = f" {EXPLAIN_HINT}" if self._explained is None else ""
        self._query_line = (f"{query.id}: {' '.join(query.text.split())}\n"
                            f"this query, {pair}: {change}.{hint}")
        self._elide_query_line(False)
        self._fit_lists()  # a query's line of another height: the legend kept whole

    def _follow_query(self, q: int) -> None:
        if self.comp is not None and self.lines_query() != q:
            self.show_query(q)

    def lines_query(self) -> int:
        return self.lines.query

    def _on_doc(self, doc: int) -> None:
        """`doc` explained into the list clicked, against the first (A's own list: into B):
        a click in a list reached by scrolling had explained A → B and hidden that list
        (r51 dr3 5)."""
        if self.comp is None:
            return
        self._present_query = None  # a query the user looked into: kept on leaving
        clicked = self.lines.clicked
        into = (clicked if clicked is not None and clicked != 0
                and clicked < len(self.comp.configs) else self.b_index)
        self._explain(self.lines_query(), doc, into)

    def _explain(self, q: int, doc: int, into: int) -> None:
        """`doc` of query `q` explained from A into configuration `into`, the pane open
        beside the lists, the clicked list kept in sight where they scroll."""
        assert self.comp is not None
        if into != self.b_index:
            self._set_b(into, q)
        self._explained = (q, doc, into)
        self._say_query(q)  # its click hint done with
        self.explain.show_move(self.comp, into, q, doc)
        self.lines.set_selected_doc(doc)
        scroll = self.lines_scroll.horizontalScrollBar()
        keep = scroll.value()
        self._place_explain()
        self._restore_columns()
        self._place_explain()  # again, for the lists now shown (`_place_explain`)
        if self.lines.columns == list(range(len(self.comp.configs))):
            self.lines_scroll.keep_value(keep)
        elif self._scroll_before_explain is None:
            self._scroll_before_explain = keep  # for when every list comes back
        if self.presenting:
            # the type refitted to the lists beside the pane (they had scrolled, the table
            # cut by their scroll bar: dr7 8)
            self._fit_presentation()

    def _set_b(self, index: int, q: int) -> None:
        """Configuration `index` made B, the explanation kept: the B picker, the query line,
        the chart and a replay then describe the pair the explain pane shows (a click in a
        list other than B had explained that list as "B", the picker, the query line and the
        chart still on the picked one: dr7 1)."""
        comp = self.comp
        assert comp is not None
        self.b_index = index
        self.b_name = comp.configs[index].name
        self.b_pick.blockSignals(True)
        self.b_pick.setCurrentIndex(index - 1)
        self.b_pick.blockSignals(False)
        self._fill_metrics(comp, combo_metric(self.metric_pick))
        self.table.set_b(index)  # its columns beside A's in the table too (r52 dr5 1)
        if comp.rows:
            self.chart.set_comparison(comp, index, self.metric_name or None)
            self.chart.set_current_query(q)
        self._say_query(q)
        self._name_steps(said=True)

    def _name_steps(self, said: bool = False) -> None:
        """◀ ▶'s tooltips naming the pair whose moved queries they step; `said`: a click made
        another list B, and the status line says so, since ◀ ▶ now step another set of
        queries (nothing had said it: r52 dr5 4). A line said before goes with any change."""
        comp = self.comp
        lines = [line for line in self.status.text().split("\n")
                 if not line.startswith(B_NOW)]
        pair = on = ""
        if comp is not None and 0 < self.b_index < len(comp.configs):
            b = comp.configs[self.b_index].name
            pair = f" between {comp.configs[0].name} and {b}"
            on = f" on {metric_label(self.metric_name)}" if self.metric_name else ""
            if said:
                lines.append(f"{B_NOW}{b}: ◀ ▶ step the queries it moved most against "
                             f"{comp.configs[0].name}{on}")
        self.prev_button.setToolTip(f"the previous of the queries that moved most{pair}{on} (←)")
        self.next_button.setToolTip(f"the next of the queries that moved most{pair}{on} (→)")
        tip = self.status.toolTip()
        self.status.setText("\n".join(lines))
        self.status.setToolTip(tip)

    def _place_explain(self, fresh: bool = False) -> None:
        """The explain pane as wide as its table needs, up to half the row (at 1,280 px its
        third had cut B's values and Δ behind a scroll bar); folded away until a click
        (presenting, a narrow window), it opens at a third at least. `fresh`: placed as a
        click places it, whatever its width now (a resize and back had left it the width
        the smaller window gave it, 455 px for 369: r52 dr5 2)."""
        top = self.top_split
        total = sum(top.sizes())
        pane = (0 if fresh else top.sizes()[1]) or total // 3
        pane = max(pane, min(self.explain.content_width(), total // 2))
        least = self.lines.least_width()
        if len(self.lines.columns) <= 2 and total - pane < least <= total * 2 // 3:
            # the two lists beside it kept readable, with no scroll bar (a pane of a third
            # had left them 4 px short: a bar with 4 px of travel, the legend cut: dr3 5)
            pane = total - least
        if pane != top.sizes()[1]:
            top.setSizes([total - pane, pane])
            # the lists' height again at their new width: fitted while they still scrolled,
            # they had kept their scroll bar's height, cutting a metric row (dr7 9)
            self._fit_lists()

    def step(self, direction: int) -> None:
        """The next (+1) or previous (−1) of the queries that moved most."""
        order = self.moved()
        if not order:
            self.say("no query moved")
            return
        q = self.lines_query()
        pos = order.index(q) + direction if q in order else (0 if direction > 0 else -1)
        self.show_query(order[pos % len(order)])

    def replay(self) -> None:
        """Animate the ranking from A (the first) to B; all columns come back after."""
        if self.comp is not None:
            if self.lines.replaying:
                self.lines.set_replay_position(None)  # the one running stops first
            if self._scroll_before_replay is None:
                self._scroll_before_replay = self.lines_scroll.horizontalScrollBar().value()
            self.lines.set_columns([0, self.b_index])
            self.lines.replay(1500)

    def _on_replay_finished(self) -> None:
        """Every list back, scrolled where it was before the replay (it had come back at the
        first lists: r51 dr3 11)."""
        keep, self._scroll_before_replay = self._scroll_before_replay, None
        self._restore_columns()
        if keep is not None and not self.lines.replaying:
            self.lines_scroll.keep_value(keep)

    def _restore_columns(self) -> None:
        if self.comp is not None and not self.lines.replaying:
            columns = self._columns()
            self.lines.set_columns(columns)
            self._fit_lists()  # the lists' scroll bar come or gone: the legend kept whole
            keep = self._scroll_before_explain
            if keep is not None and len(columns) == len(self.comp.configs):
                self._scroll_before_explain = None
                self.lines_scroll.keep_value(keep)

    def _on_top_moved(self, *_: object) -> None:
        if self.comp is not None and self.lines.columns != self._columns():
            self._restore_columns()
        self._fit_lists()

    def _columns(self) -> list[int]:
        """The configurations the lists show: all; in a narrow window with a document
        explained beside them, A and B, the two it explains (three lists of about 100 px
        had shown no ids); in any window, likewise where they do not all read their ids beside
        the pane (presenting at 1,280 × 800 five had scrolled, cutting the metric table: dr7
        8; at 1,920 × 1,080 eight had scrolled sideways beside it: dr7)."""
        n = len(self.comp.configs) if self.comp is not None else 0
        sizes = self.top_split.sizes()
        narrow = self.lines.least_width(n) > sizes[0] or (
            not self.presenting and self.width() < NARROW)
        if (n > 2 and narrow
                and self.explain.explained is not None and len(sizes) > 1 and sizes[1] > 0):
            into = self._explained[2] if self._explained is not None else self.b_index
            return [0, into if 0 < into < n else self.b_index]
        return list(range(n))

    # -- presentation ---------------------------------------------------------------------

    def set_presentation(self, on: bool) -> None:
        """Full screen, larger type, the controls hidden (Esc or F11 leaves); with nothing
        compared there is nothing to present (F11 did: blank panes, no way out said)."""
        if (on and self.comp is None) or on == self.presenting:
            # a second call changes nothing: presenting again had saved the presenting
            # splits as the ones to restore, cutting the lists on leaving (dr7)
            return
        self.presenting = on
        self._present_fit = None
        self.lines.terse_key_inline = on  # a line more for the metric table (r53 1)
        # the query line and the note whole while presenting: its type is fitted to them
        # (`_make_room` is for the window outside Present)
        self._shorten_note(False)
        self._elide_query_line(False)
        self.controls.setVisible(not on)
        self._set_scale(self._presentation_scale() if on else 1.0)
        if on:
            # the lists take the explain pane's room until a document is clicked (it kept a
            # third of the width for one line of placeholder text)
            self._sizes_before = self.top_split.sizes()
            self.top_split.setSizes([sum(self._sizes_before), 0])
            self._rows_before = self.right_split.sizes()
            self.showFullScreen()
            self.lines.setFocus()  # keys reach the window, not a table's cursor
            order = self.moved()
            self._explained_before = self._explained
            self._query_before = self._present_query = self.lines_query()
            if self.comp is not None and order and self.lines_query() != order[0]:
                self.show_query(order[0])  # the query that moved most, whatever was shown
                self._present_query = order[0]
            self._fit_presentation()
            # and once the layout has given the lists and the query line their full-screen
            # widths (the line wraps to fewer rows, the legend may take one line)
            QTimer.singleShot(0, self._fit_presentation)
        else:
            # the query shown before, where presenting chose the one shown (its line of
            # another height had moved the split restored: r51 2, rv2 dr5 7); one the user
            # stepped to is kept
            # (only where it is another: showing it again had cleared the explanation: dr3 2)
            before = self._query_before
            if (self._present_query is not None and before is not None
                    and self.lines_query() == self._present_query
                    and self.lines_query() != before):
                self.show_query(before)
                # … with the document explained on it before presenting
                was = self._explained_before
                if was is not None and was[0] == before and self._explained is None:
                    self._explained = was
                    assert self.comp is not None
                    self._say_query(before)
                    self.explain.show_move(self.comp, was[2], was[0], was[1])
                    self.lines.set_selected_doc(was[1])
            self._query_before = self._present_query = self._explained_before = None
            self.showNormal()
            self._restore_splits()
            # again once the window is its normal size (a window manager resizes it later):
            # the resize had shared its lost width among the panes
            QTimer.singleShot(0, self._restore_splits)
        # the table drawn afresh in the new type (`MetricTable.set_font_scale`) is fitted to
        # its room now: a window already the screen's size gets no resize from F11, and the
        # table had stayed at full width, scrolling, while presenting and after (dr1 4)
        self._fit_table()

    def _set_scale(self, scale: float) -> None:
        """The lists', the explain pane's, the table's, the chart's, the query line's and the
        note's type at `scale` times the application's."""
        for w in (self.lines, self.explain, self.table, self.chart):
            w.set_font_scale(scale)
        # a style sheet's font-size (style.qss: 13px) overrides setFont, so the query line
        # grows by a style sheet of its own
        px = QFontInfo(self.font()).pixelSize()
        on = scale != 1.0
        self.query_label.setStyleSheet(f"font-size: {round(px * scale * 1.15)}px"
                                       if on else "")
        self.table_note.setStyleSheet(NOTE_STYLE.format(
            f"font-size: {round(px * scale)}px; " if on else ""))
        # the metric table keeps room for every column: at its narrow splitter width the
        # large type left only "metric | defaults | tuned | +0", Δ, p and ▲/▼ scrolled away
        # … within half the screen: on a 1,024-px one its 560 px held the window wider
        # than the screen, the legend and the chart cut
        screen = self.screen()
        half = screen.availableGeometry().width() // 2 if screen is not None else 10**6
        self.table.setMinimumWidth(min(self.table.content_width(), half) if on else 0)

    def _fit_presentation(self) -> None:
        """Presenting, the type as large as lets the lists and every row of the metric table
        fit the screen's height (at 1.6 on a 1,920 × 1,080 screen five configurations' table
        had shown 6 of its 11 rows: r51 2, rv2 dr5 7), and every list its width, from
        `_presentation_scale` down to MIN_PRESENTATION_SCALE (eight lists at 1.6 had scrolled
        out of a clicker's reach where 1.2 fitted them: r51 dr3 7). Where the table's rows
        do not fit even so, down to TABLE_PRESENTATION_SCALE (at 1,280 × 800 three rows had
        been out of sight: dr3 9), kept where they do not fit at that either, the table
        scrolling. Again when the explain pane opens or folds (dr7 8). Then the lists fitted
        (`_fit_lists`)."""
        if not self.presenting:
            return
        total = sum(self.right_split.sizes())
        key = (total, sum(self.top_split.sizes()),
               len(self.comp.configs) if self.comp is not None else 0)
        chosen = self._present_fit is not None and self._present_fit[0] == key
        scale = self._present_fit[1] if self._present_fit is not None and chosen \
            else self._presentation_scale()
        if total > 0 and self.comp is not None:
            while True:
                if abs(self.table.font_scale - scale) > 1e-9:
                    self._set_scale(scale)
                    self._fit_table()
                    if self.explain.explained is not None:
                        # the pane and the lists beside it placed for this type
                        self._place_explain()
                        self._restore_columns()
                        self._place_explain()
                tall = self._lists_need() + self._table_want() <= total
                wide = self.lines.least_width() <= self.lines_scroll.width()
                if not chosen:
                    # the type chosen once for this layout, the explain pane open or folded
                    # (refitted to each, it had changed on every click and every ▶: r52 dr5 5)
                    other_tall, other_wide = self._other_layout_fits(total)
                    tall, wide = tall and other_tall, wide and other_wide
                floor = MIN_PRESENTATION_SCALE if tall else TABLE_PRESENTATION_SCALE
                if (tall and wide) or scale <= floor + 1e-9:
                    break
                scale = max(floor, scale - 0.05)
            # the rows cut even so: the type kept at TABLE_PRESENTATION_SCALE, the most rows
            # in sight, the table's scroll bar beside them (back at 1.15, eight
            # configurations at 1,024 × 768 had shown 4 of 11 rows: dr7)
            self._present_fit = (key, scale)
        self._fit_lists()

    def _other_layout_fits(self, total: int) -> tuple[bool, bool]:
        """Whether the lists and the metric table would fit `total` px of height, and every
        list shown its width, in the type now, with the explain pane folded where it is open
        and open where it is folded (at its widest, half the row: `_place_explain`)."""
        n = len(self.comp.configs) if self.comp is not None else 0
        row = sum(self.top_split.sizes())
        width = row if self.explain.explained is not None else row - row // 2
        lists = n
        if self.explain.explained is None and n > 2 and self.lines.least_width(n) > width:
            lists = 2  # A and B alone beside the pane (`_columns`)
        least = self.lines.least_width(lists)
        lines_h = self.lines.sizeHint().height()
        if (self.explain.explained is None and self.lines.marks_keys()
                and self.lines._marks_key_inline() is not None):
            # the legend on one line now, on two in the narrower lists beside the pane
            lines_h += math.ceil(self.lines.row_height)
        label = self.query_label
        label_h = label.heightForWidth(width)
        need = ((label_h if label_h > 0 else label.sizeHint().height())
                + max(0, self._centre_layout.spacing()) + lines_h
                + (self.lines_scroll.horizontalScrollBar().sizeHint().height()
                   if least > width else 0))
        return need + self._table_want() <= total, least <= width

    def _restore_splits(self) -> None:
        if self.presenting:
            return
        if self._sizes_before:
            sizes = self._sizes_before
            if self.explain.explained is None:
                # nothing explained now: folded, whatever it was before (it had come back
                # open on the placeholder: dr3 2)
                sizes = [sum(sizes), 0]
            self.top_split.setSizes(sizes)
        if self._rows_before:
            self.right_split.setSizes(self._rows_before)
        if self.explain.explained is not None and self.comp is not None:
            # explained while presenting, or before: placed as a click places it, the
            # narrow window's two lists beside it (it had come back at a third, 8 lists
            # beside its cut table: dr3 3)
            self._place_explain()
            self._restore_columns()
            self._place_explain()
            self._fit_lists()

    def _presentation_scale(self) -> float:
        """PRESENTATION_SCALE on a 1080-px screen, less on a shorter one (down to 1.15): at
        1.6 a 720-px projector held seven ranks and no legend beside the metric table."""
        screen = self.screen()
        height = screen.geometry().height() if screen is not None else 1080
        return max(MIN_PRESENTATION_SCALE,
                   min(PRESENTATION_SCALE, PRESENTATION_SCALE * height / 1080))

    def resizeEvent(self, event: QResizeEvent) -> None:  # Qt override
        super().resizeEvent(event)
        if self.presenting:
            self._fit_presentation()  # the screen's height now (full screen comes later)
        else:
            self._fit_lists()
        if self.comp is not None:
            # a window opened small (within a laptop's screen) and then widened: the metric
            # table had kept its small share, B's Δ, p and ▲/▼ scrolled out of sight
            self._fit_table()
        if self.explain.explained is not None and not self.presenting:
            self._place_explain(fresh=True)  # a narrower window: the table whole still
        self._fold_explain()
        if self.comp is not None and self.lines.columns != self._columns():
            self._restore_columns()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # Qt override
        if (watched is self.bottom_split and event.type() == QEvent.Type.Resize
                and self.comp is not None):
            self._table_timer.start()
        return super().eventFilter(watched, event)

    def _fit_lists(self) -> None:
        """In a short window the ranked lists keep the height their top k and legend need,
        the table and chart down to a third (at 640 px the split's proportions cut the
        legend in half); where the metric table's rows are not all in sight, the lists give
        it the height they do not need (at 1,280 × 800 with four configurations it showed 7
        of 11 metric rows under 60 px of blank: review r48, dr1 8); not once the user has
        dragged the split.

        Presenting, the lists get just what they need in the large type, the table and
        the chart the rest, down to a third (half of a 1080-px screen had cut the legend, a
        720-px one ranks 8 to 10 as well; then the query line's size hint, wider than it is
        drawn, had left 45–75 px of blank under the legend while the table showed 4 of its
        11 rows at 1,280 × 800: dr3 9)."""
        sizes = self.right_split.sizes()
        total = sum(sizes)
        if total <= 0 or (self._rows_dragged and not self.presenting):
            return
        self._make_room(total)
        need = self._lists_need()
        top = min(need, total - total // 3)
        if not self.presenting:
            top = max(sizes[0], top)
        if self.comp is not None and top > need:
            short = self._table_want() - (total - top)
            if short > 0:
                top = max(need, top - short)
        if top != sizes[0]:
            self.right_split.setSizes([top, total - top])

    def _make_room(self, total: int) -> None:
        """Outside Present, where the lists and every row of the metric table do not both fit
        `total` px: the terse marks key beside the relevance legend (its own line went), then
        the note above the table without its list of the pairs not tested (in its tooltip),
        then the query line's two parts on one line each, elided, the whole in its tooltip;
        each taken back where the room comes back. At 1,280 × 800 with a document explained, a
        change line on two lines and the key on its own had cut 'bundle tokens' by 7 px,
        eight configurations' last two rows by 16 and 37 (rv2 5; Present has the terse key
        already and fits its type instead)."""
        if self.presenting:
            return
        steps = (self._set_terse_key, self._shorten_note, self._elide_query_line)
        for step in steps:
            step(False)
        for step in steps:
            if self.comp is None or self._lists_need() + self._table_want() <= total:
                return
            step(True)

    def _set_terse_key(self, on: bool) -> None:
        if self.lines.terse_key_inline != on:
            self.lines.terse_key_inline = on
            self.lines.updateGeometry()
            self.lines.update()

    def _shorten_note(self, on: bool) -> None:
        text = "\n".join(self._note_lines[1 if on else 0])
        if self.table_note.text() != text:
            self.table_note.setText(text)

    def _elide_query_line(self, on: bool) -> None:
        """The query line whole, or (`on`) its query and its change each on one line cut
        with "…" at the label's width, the whole then in its tooltip."""
        label, whole = self.query_label, self._query_line
        shown = whole
        room = label.contentsRect().width() - 2  # a hair under, so no line wraps
        if on and room > 0:
            fm = label.fontMetrics()
            shown = "\n".join(fm.elidedText(part, Qt.TextElideMode.ElideRight, room)
                              for part in whole.split("\n"))
        if label.text() != shown:
            label.setText(shown)
        label.setToolTip(whole if shown != whole else "")

    def _lists_need(self) -> int:
        """The height the lists' pane needs: the query line, the space under it, the lists
        whole and their scroll bar where they scroll (it had added the split's handle for the
        space, 2 px short of the legend)."""
        label = self.query_label
        label_h = (label.heightForWidth(label.width()) if label.width() > 0 else -1)
        return ((label_h if label_h > 0 else label.sizeHint().height())
                + max(0, self._centre_layout.spacing()) + self.lines.sizeHint().height()
                + self.lines_scroll.bar_height())

    def _table_want(self) -> int:
        """The height the metric table and the note above it need to show every row."""
        note = self.table_note
        note_h = 0
        if not note.isHidden():
            note_h = (note.heightForWidth(note.width()) if note.width() > 0 else -1)
            note_h = (note_h if note_h > 0 else note.sizeHint().height()) + 4  # the spacing
        return note_h + self.table.full_height()

    def _fold_explain(self) -> None:
        """The lists take the explain pane's room until a document is clicked, at every
        width (at 1,024 px ids were cut to "r…d" beside a pane of placeholder text; at 1,920
        eight lists read "a…y" beside 560 px of it: r51 1)."""
        sizes = self.top_split.sizes()
        # presenting too: the next query had left the pane open on its placeholder (dr7 8)
        if self.explain.explained is None and sizes[1] > 0 and sum(sizes) > 0:
            self.top_split.setSizes([sum(sizes), 0])

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """← → the queries that moved most, R the replay, Esc leaves presentation mode, or
        closes the window (keys that no focused list or table used)."""
        key = event.key()
        if key == Qt.Key.Key_Escape and self.presenting:
            self.set_presentation(False)
        elif key == Qt.Key.Key_Escape:
            self.close()
        elif key in (Qt.Key.Key_Left, Qt.Key.Key_Right):
            self.step(1 if key == Qt.Key.Key_Right else -1)
        elif key == Qt.Key.Key_R:
            self.replay()
        elif self.lines_scroll.scroll_key(key):  # Home End PgUp PgDn: the lists sideways
            pass
        else:
            super().keyPressEvent(event)

    # -- the report -----------------------------------------------------------------------

    def ask_export(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Export report", "comparison.html",
                                              "HTML report (*.html);;Markdown (*.md)")
        if path:
            self.export_report(path)

    def export_report(self, path: str | Path) -> bool:
        """The comparison as one self-contained HTML file (Markdown for *.md). When it is out
        of date it is compared first, and the file written once that is done; says whether
        the file was written by the time this returns."""
        path = Path(path)
        if self.comp is not None and not self._dirty:
            return self._write_report(path)
        self._pending_export = path
        self.compare()  # synchronous: done (and written) on return
        if self._pending_export is None:
            return self.last_export == path
        if not self.task.running:  # nothing to compare: compare() said why
            self._pending_export = None
            return False
        self.say(f"{path.name} is written when the comparison is done")
        return False

    def _write_report(self, path: Path) -> bool:
        assert self.comp is not None
        from workbench.report.html import html_report
        from workbench.report.text import markdown

        k = self.session.k
        text = (markdown(self.comp, k=k) if path.suffix.lower() == ".md"
                else html_report(self.comp, k=k))
        try:
            atomic_write_text(path, text)
        except OSError as exc:
            self.say(f"could not write {path}: {exc}")
            return False
        self.last_export = path
        self.say(f"report written to {path}")
        return True

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self._fold_explain()
        if self._dirty:
            self.compare()
        elif self.comp is not None:
            self._fit_table()  # a chart the user had opened folds again where it must

    def closeEvent(self, event: QCloseEvent) -> None:
        self._chart_dragged = False  # opened again, the chart folds where the table needs it
        self.task.shutdown()
        super().closeEvent(event)
