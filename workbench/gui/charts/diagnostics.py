"""Injection diagnostics: pi-lodestone's why-stats figures (REFERENCE.md §1) for what the
current parameters would inject — one turn per query, as `workbench why-stats --live` — beside
the pinned baseline's (with signed deltas) and, when the dataset's folder holds an
`injections.jsonl`, the logged figures — over the same turns as Current (the log's turns that
kept their prompt are the queries replayed), or over the whole log as pi-lodestone's /memory
why-stats reads it, a choice in the header; the most-injected ids; and a bar chart of how many
results each turn gets, current against baseline.

The figures are computed in `diagnostics_figures`, the tables are `diagnostics_table`'s.
Events: result_changed, baseline_changed, model_changed, dataset_changed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pyqtgraph as pg
from numpy.typing import NDArray
from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QSizePolicy,
    QStackedWidget,
    QTableWidget,
    QVBoxLayout,
    QWidget,
)

from workbench.core.data import FormatError
from workbench.core.diagnostics import (
    InjectionStats,
    Turn,
    clamp_last,
    injection_stats,
    live_injection,
    logged_turns,
    min_score_decides,
    replayed_records,
    turns_from_log,
    turns_text,
    verdict_line,
)
from workbench.core.models import get_model
from workbench.core.params import value_text
from workbench.core.session import TuningSession
from workbench.gui.palette import signed

from ._base import A_COLOR, INK, MUTED, OTHER, ChartPanel, make_plot
from .diagnostics_figures import (
    FIGURES,
    MODEL_ID,
    ROW_HELP,
    SETTINGS,
    SLIDERS,
    UNDEFINED,
    VERDICT_HELP,
    distribution,
    figure,
    fmt,
    fmt_delta,
    log_path,
    setting_text,
    varies,
    verdict,
    with_delta,
)
from .diagnostics_table import cell, fit_table, fit_width

NO_IDS = "no document injected"
NOT_APPLICABLE = ("Injection diagnostics are pi-lodestone's why-stats: choose the "
                  "decision-memory model (on pi-memory decisions) to see them.")
# a change from the baseline follows the current figure in its cell ("20  +12"): a column
# of its own in each table (with the histogram) held the row wider than a 1,280 px window,
# every table scrolling sideways and the histogram's key and axis cut
COLUMNS = ("", "Current", "Baseline", "Log")
# Avg score first, then the times as the figure tables hold their figures (current, baseline,
# log): after Avg score, a "Baseline" column of times had read as the baseline's average score
# (rv51 7). "Times (baseline)" and "Times (log)" held the row wider than a 1,280 px window
ID_COLUMNS = ("Top ids", "Avg score", "Times", "Baseline", "Log")
AVG, TIMES, BASELINE_TIMES, LOG_TIMES = 1, 2, 3, 4  # the ids' table's columns
LOG_COLUMN = {len(COLUMNS): 3, len(ID_COLUMNS): LOG_TIMES}  # a table's column count → its Log
HEADER_HELP = {
    "Current": ("at the parameters in use now; with a baseline pinned, its change from the "
                "baseline follows (current − baseline, ±0: the same)"),
    "Baseline": "at the pinned baseline's parameters",
    "Log": "as pi-lodestone logged it: the injections log beside the decisions",
    "Top ids": "the decisions injected most often at the current parameters",
    "Times": ("turns that injected it, current parameters; with a baseline pinned, the change "
              "from the baseline's follows"),
    "Avg score": "its mean score over those turns",
}
ID_HELP = {**HEADER_HELP,
           "Baseline": "turns that injected it at the pinned baseline's parameters (as Times)",
           "Log": "turns that injected it, as pi-lodestone logged them (as Times)"}
PLOT_MIN = 140  # px: three bars and their axis still read
KEY_ONE_LINE = 240  # px: a plot narrower than this keys one entry a line


class InjectionDiagnostics(ChartPanel):
    title = "Injection diagnostics"
    preferred_models = ("decision-memory",)
    export_name = "injection-diagnostics"

    def __init__(self, session: TuningSession, parent: QWidget | None = None) -> None:
        super().__init__(session, parent)
        self.stack = QStackedWidget()
        self.note = QLabel(NOT_APPLICABLE)
        self.note.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.note.setWordWrap(True)
        self.note.setStyleSheet(f"color: {MUTED}; font-size: 13px;")
        self.stack.addWidget(self.note)
        self.tables = [fit_table(COLUMNS, HEADER_HELP) for _ in FIGURES]
        self.verdict = QLabel()
        self.verdict.setToolTip(VERDICT_HELP)
        # it wraps: one line of it (724 px) held the whole window at least 1,239 px wide
        self.verdict.setWordWrap(True)
        # a line of its own under the title: beside it, a 240 px column of four lines
        layout = self.layout()
        assert isinstance(layout, QVBoxLayout)
        layout.insertWidget(1, self.verdict)
        # the caption wraps within the panel and takes the header's spare room: on one line,
        # its left-out and inert notes (1,264 px with two searches left out, 2,474 px with
        # searches only) had held the main window wider than a 1,280 px screen (rv2 1)
        self.caption.setWordWrap(True)
        self.caption.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.header.setStretchFactor(self.caption, 1)
        self.header.setStretch(1, 0)  # the base's stretch after the caption: the caption's room
        self.ids = fit_table(ID_COLUMNS, ID_HELP)
        self.plot = make_plot(left="turns", bottom="results per turn")
        self.bars_current = pg.BarGraphItem(x=[], height=[], width=0.38,
                                            brush=pg.mkBrush(A_COLOR), pen=pg.mkPen(A_COLOR))
        self.bars_baseline = pg.BarGraphItem(x=[], height=[], width=0.38,
                                             brush=pg.mkBrush(OTHER), pen=pg.mkPen(OTHER))
        self.plot.addItem(self.bars_baseline)
        self.plot.addItem(self.bars_current)
        content = QWidget()
        row = QHBoxLayout(content)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(4)
        for w in (*self.tables, self.ids):
            row.addWidget(w)
        # the tables' figures come first: the histogram takes the room they leave (its own
        # size asks for none), down to PLOT_MIN; only below that do the tables scroll
        self.plot.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Expanding)
        self.plot.setMinimumWidth(PLOT_MIN)
        row.addWidget(self.plot, 1)
        self.plot.installEventFilter(self)
        self.stack.addWidget(content)
        self.body.addWidget(self.stack)
        # what is shown (tests, export)
        self.stats: InjectionStats | None = None
        self.emptied = 0  # turns the min score left empty though they matched (live)
        self.baseline_emptied = 0  # the same at the baseline's values
        self.inert: dict[str, str] = {}  # settings no turn takes here: name → why
        self.left_out: list[str] = []  # the queries that are no turn, a line each
        self.searches = False  # every query a manual search (why-stats --live says so too)
        self.baseline_stats: InjectionStats | None = None
        self.logged_stats: InjectionStats | None = None
        self.counts_current: NDArray[np.int64] = np.zeros(0, np.int64)
        self.counts_baseline: NDArray[np.int64] = np.zeros(0, np.int64)
        self._turns: dict[str, list[Turn]] = {}
        self._baseline_key: tuple[object, object] | None = None
        self._log_key: object = None
        self._log_note = ""
        # the log's turns: those replayed here ("same") and the whole log ("all")
        self._log_turns: dict[str, list[Turn]] = {}
        self._log_path: Path | None = None
        self.log_same_stats: InjectionStats | None = None
        self.log_all_stats: InjectionStats | None = None
        self.log_choice = QComboBox()
        self.log_choice.setToolTip(
            "The turns the Log columns hold: the same turns as Current (the log's turns that "
            "kept their prompt, replayed here), or every turn of the log, as pi-lodestone's "
            "/memory why-stats counts them")
        self.log_choice.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.log_choice.setVisible(False)
        self.log_choice.currentIndexChanged.connect(self._log_choice_changed)
        self.header.insertWidget(self.header.count() - 1, self.log_choice)
        for event in (session.result_changed, session.baseline_changed,
                      session.model_changed, session.dataset_changed):
            self.listen(event, self.update_later)
        self.update_later()

    def current_plot(self) -> pg.PlotWidget:
        return self.plot

    def applies(self) -> bool:
        """Whether why-stats mean anything here: the decision-memory model on a dataset."""
        s = self.session
        return s.model is not None and s.model.id == MODEL_ID and s.dataset is not None

    @property
    def note_text(self) -> str:
        """The note shown instead of the figures, or "" while they are shown."""
        return self.note.text() if self.stack.currentWidget() is self.note else ""

    # -- computing ------------------------------------------------------------------------

    def _refresh_baseline(self) -> None:
        s, base = self.session, self.session.baseline
        key = (base, s.dataset)
        if self._baseline_key is not None and all(
                a is b for a, b in zip(key, self._baseline_key, strict=True)):
            return
        self._baseline_key, self.baseline_stats, self.baseline_emptied = key, None, 0
        self._turns.pop("baseline", None)
        if base is None or base.model_id != MODEL_ID or s.dataset is None:
            return
        model = get_model(base.model_id)
        same = (s.model is not None and s.model.id == base.model_id and s.prepared_params
                is not None and model.schema.prepare_values(base.params)
                == model.schema.prepare_values(s.prepared_params))
        live = live_injection(model, base.params, s.dataset, base.result,
                              s.prepared if same else None)
        turns = live.turns
        self.baseline_emptied = live.emptied
        self._turns["baseline"] = turns
        self.baseline_stats = injection_stats(turns)

    def _refresh_log(self) -> None:
        """The log beside the data, read again when it or the queries change: its figures
        over the turns this tab replays (its queries are the logged turns that kept their
        prompt), so that Current and Log compare the same turns, and over the whole log as
        pi-lodestone's /memory why-stats reads it (its last 500 lines)."""
        from workbench.core.formats.pi_memory_injections import read_injections

        s = self.session
        path = log_path(s.source or (s.dataset.source if s.dataset else None))
        ids = tuple(s.dataset.queries.ids) if s.dataset is not None else ()
        key = (path, path.stat().st_mtime_ns if path else None, ids)
        if key == self._log_key:
            return
        self._log_key, self._log_note = key, ""
        self.log_same_stats = self.log_all_stats = None
        self._log_turns.clear()
        self._log_path = path
        if path is not None:
            try:
                whole = read_injections(path)
                last = read_injections(path, last=clamp_last(None))  # why-stats's 500 lines
            except (FormatError, OSError) as exc:
                self._log_note = f"{path.name} unreadable: {exc}"
            else:
                same = logged_turns(replayed_records(whole.records, ids))
                every = turns_from_log(last.records)
                self._log_turns = {"same": same, "all": every}
                self.log_all_stats = injection_stats(every)
                self.log_same_stats = injection_stats(same) if same else None
                skipped = (f", {last.n_skipped} corrupt lines skipped" if last.n_skipped
                           else "")
                self._log_note = (f"log: {turns_text(len(every))}"
                                  + (f", {len(same)} of them replayed here" if same else
                                     ", none of them a query here")
                                  + skipped)
        self._fill_log_choice()

    def _fill_log_choice(self) -> None:
        """The Log column's choice: the same turns as Current (the default), or the whole
        log; offered where both are there and differ."""
        same, every = self._log_turns.get("same"), self._log_turns.get("all")
        box = self.log_choice
        box.blockSignals(True)
        keep = box.currentIndex()
        box.clear()
        if same and every:
            box.addItem(f"Log: the same {len(same)} turns", "same")
            box.addItem(f"Log: all {len(every)} turns", "all")
            box.setCurrentIndex(max(0, keep))
        box.blockSignals(False)
        box.setVisible(bool(same and every and len(same) != len(every)))

    @property
    def log_shown(self) -> str:
        """Which turns the Log columns hold: "same" (those replayed), "all" or ""."""
        if "all" not in self._log_turns:
            return ""
        if self._log_turns.get("same") and self.log_choice.currentData() != "all":
            return "same"
        return "all"

    def _pick_log(self) -> None:
        """The Log columns' figures and tooltips for the turns chosen."""
        shown = self.log_shown
        self.logged_stats = (self.log_same_stats if shown == "same" else
                             self.log_all_stats if shown == "all" else None)
        self._turns["logged"] = self._log_turns.get(shown, []) if shown else []
        n = self.logged_stats.turns if self.logged_stats else 0
        tip = (f"as pi-lodestone logged them: the {turns_text(n)} of {self._log_path} that "
               "this tab replays (those that logged their prompt), so that a difference from "
               "Current is the parameters' doing" if shown == "same" else
               f"pi-lodestone's /memory why-stats of the last {turns_text(n)} of "
               f"{self._log_path}: every turn, replayed here or not" if shown == "all"
               else "")
        for t in (*self.tables, self.ids):
            header = t.horizontalHeaderItem(LOG_COLUMN[t.columnCount()])
            if header is not None:  # "Log" either way (wider, it scrolled at 1,280 px):
                header.setToolTip(tip)  # the choice above says which, the turns row how many

    def _log_choice_changed(self, *_: object) -> None:
        if self.stats is not None:
            self._pick_log()
            self._fill_figures()
            self._fill_ids()

    def redraw(self, *_: object) -> None:
        s = self.session
        if not self.applies():
            self._show_note(NOT_APPLICABLE)
            return
        if s.result is None or s.model is None or s.dataset is None:
            self._show_note("No result yet.")
            return
        live = live_injection(s.model, s.params, s.dataset, s.result, s.prepared)
        self._turns["current"] = live.turns
        self.stats = injection_stats(live.turns)
        self.emptied = live.emptied
        # the queries that are no turn, as why-stats --live says them (rv51 3, 6)
        self.left_out = live.left_out.lines()
        # every query a manual search: its results are returned, not injected (dr5 9)
        self.searches = live.left_out.searches_only
        # the sliders these turns do not take (an eval case's topK replaces Inject limit)
        self.inert = (s.model.inert_params(s.prepared, s.params)
                      if s.prepared is not None and not s.needs_prepare else {})
        self._refresh_baseline()
        self._refresh_log()
        self._pick_log()
        log = f" · {self._log_note}" if self._log_note else ""
        left = "".join(f" · {line}" for line in self.left_out)
        n = self.stats.turns
        # one turn a query, said once: "21 queries … log: 60 turns" had mixed the nouns (rA 8)
        self.caption.setText(f"Injection — {n} quer{'y' if n == 1 else 'ies'} (a turn each), "
                             f"current parameters{left}{log}{self._inert_note()}")
        self._fill_figures()
        self._fill_ids()
        self._draw_bars()
        self.stack.setCurrentIndex(1)

    # -- drawing --------------------------------------------------------------------------

    def _columns(self) -> list[InjectionStats | None]:
        return [self.stats, self.baseline_stats, self.logged_stats]

    def _fill_figures(self) -> None:
        columns = self._columns()
        cur, base, logged = columns
        assert cur is not None
        for t, group in zip(self.tables, FIGURES, strict=True):
            t.setRowCount(len(group))
            for row, (key, label, dec) in enumerate(group):
                name = cell(label, right=False)
                name.setToolTip(ROW_HELP.get(key, ""))
                t.setItem(row, 0, name)
                if key == "verdict":
                    name.setToolTip(VERDICT_HELP)
                    # the line above's rule: the log cannot say which empty turns the min
                    # score emptied
                    texts = [verdict(st, n) if st else "" for st, n in zip(
                        columns, (self.emptied, self.baseline_emptied, None), strict=True)]
                    said = cell(texts[0])
                    if self.emptied:  # "empties 10": the line above in full
                        said.setToolTip(verdict_line(cur, self.emptied, searches=self.searches)
                                        .split("\n", 1)[0])
                    t.setItem(row, 1, said)
                    t.setItem(row, 2, cell(texts[1], color=MUTED))
                    t.setItem(row, 3, cell(texts[2], color=MUTED))
                    continue
                if key in SETTINGS:  # each turn's own: a range where they differ
                    self._fill_setting(t, row, key)
                    continue
                now = figure(cur, key)
                was = figure(base, key) if base else None
                figures = [
                    cell(with_delta(fmt(now, dec),
                                    None if was is None else fmt_delta(now - was, dec))),
                    cell("" if was is None else fmt(was, dec), color=MUTED),
                    cell(fmt(figure(logged, key), dec) if logged else "", color=MUTED)]
                for col, item in enumerate(figures, 1):
                    if item.text().startswith("—"):  # undefined: why, in its tooltip
                        item.setToolTip(UNDEFINED[key])
                    t.setItem(row, col, item)
            t.setColumnHidden(2, base is None)
            t.setColumnHidden(3, logged is None)
            fit_width(t)
        # the CLI's why-stats --live verdict: on the turns that injected something (an empty
        # turn's 0, pi-lodestone's way, pulled the average under the min score itself), and
        # on the turns the min score left empty though they matched
        real = min_score_decides(cur, self.emptied)
        text = verdict_line(cur, self.emptied, searches=self.searches).split("\n", 1)[0]
        self.verdict.setText(text if cur.turns else "no turns")
        self.verdict.setStyleSheet(f"color: {'#9a6700' if real else MUTED};")

    def _fill_setting(self, t: QTableWidget, row: int, key: str) -> None:
        """The min score or limit row: the one the turns apply, or the range of their own
        (an eval case's topK), the slider they do not take said in its tooltip."""
        cur, base, logged = self._columns()
        assert cur is not None
        same = base is not None and not varies(cur, key) and not varies(base, key)
        now = cell(with_delta(setting_text(cur, key),
                              fmt_delta(figure(cur, key) - figure(base, key), 0)
                              if same and base is not None else None))
        tip = self._setting_help(key)
        now.setToolTip(tip)
        name = t.item(row, 0)
        if tip and name is not None:
            name.setToolTip(tip)
        t.setItem(row, 1, now)
        t.setItem(row, 2, cell(setting_text(base, key) if base else "", color=MUTED))
        t.setItem(row, 3, cell(setting_text(logged, key) if logged else "", color=MUTED))

    def _setting_help(self, key: str) -> str:
        """What a min score or limit cell holds: the turns' own range, and each slider of
        that setting no turn takes here, with the model's reason."""
        cur, model = self.stats, self.session.model
        if cur is None or model is None:
            return ""
        what = "min score" if key == "min_score" else "limit"
        lo, hi = getattr(cur, SETTINGS[key])
        out = ([f"each turn applies its own {what}, from {lo:g} to {hi:g} (the last "
                f"turn's: {figure(cur, key):g})"] if lo != hi else [])
        for name in SLIDERS[key]:
            why = self.inert.get(name)
            if why and name in model.schema:
                p = model.schema[name]
                out.append(f"{p.label} ({value_text(self.session.params[name])}) applies to "
                           f"none of these turns: {why}")
        return "\n".join(out)

    def _inert_note(self) -> str:
        """The model's key sliders that no turn here takes, for the caption."""
        model = self.session.model
        if model is None:
            return ""
        # sliders inert for one reason are said together: the reason twice had made the
        # search-only caption three lines at 1,280 px, the tables below it scrolling (rv2 1)
        why: dict[str, list[str]] = {}
        for n in (n for n in model.headline if n in self.inert):
            why.setdefault(self.inert[n], []).append(model.schema[n].label)
        return "".join(f" · {' and '.join(labels)}: no effect here ({reason})"
                       for reason, labels in why.items())

    def _fill_ids(self) -> None:
        cur = self.stats
        assert cur is not None
        times: dict[str, Counter[str]] = {
            name: Counter(r[0] for t in self._turns.get(name, ()) for r in t.results)
            for name in ("baseline", "logged")}
        t = self.ids
        t.clearSpans()
        if not cur.most_injected:  # said, across the row: an empty table had said nothing
            t.setRowCount(1)
            none = cell(NO_IDS, right=False, color=MUTED)
            none.setToolTip("no turn injected anything at the current parameters")
            t.setItem(0, 0, none)
            for col in range(1, t.columnCount()):
                t.setItem(0, col, cell(""))
            t.setSpan(0, 0, 1, t.columnCount())
        else:
            t.setRowCount(len(cur.most_injected))
        for row, (rid, n, avg) in enumerate(cur.most_injected):
            b = times["baseline"][rid]
            t.setItem(row, 0, cell(rid, right=False))
            t.setItem(row, AVG, cell(f"{avg:.2f}"))
            t.setItem(row, TIMES, cell(with_delta(str(n), signed(n - b, 0)
                                                  if self.baseline_stats else None)))
            t.setItem(row, BASELINE_TIMES, cell(str(b) if self.baseline_stats else "",
                                                color=MUTED))
            t.setItem(row, LOG_TIMES, cell(str(times["logged"][rid]) if self.logged_stats
                                           else "", color=MUTED))
        t.setColumnHidden(BASELINE_TIMES, self.baseline_stats is None)
        t.setColumnHidden(LOG_TIMES, self.logged_stats is None)
        fit_width(t)

    def _draw_bars(self) -> None:
        cur, base = self.stats, self.baseline_stats
        assert cur is not None
        size = max([*cur.counts, *(base.counts if base else ()), 0]) + 1
        self.counts_current = distribution(cur.counts, size)
        self.counts_baseline = (distribution(base.counts, size) if base
                                else np.zeros(0, np.int64))
        x = np.arange(size, dtype=np.float64)
        shift = 0.2 if base else 0.0
        self.bars_current.setOpts(x=x + shift, height=self.counts_current,
                                  width=0.38 if base else 0.6)
        self.bars_baseline.setOpts(x=x[: len(self.counts_baseline)] - shift,
                                   height=self.counts_baseline)
        self.bars_baseline.setVisible(base is not None)
        item = self.plot.getPlotItem()
        self._draw_key()
        item.getAxis("bottom").setTicks([[(float(i), str(i)) for i in range(size)]])
        top = max(int(self.counts_current.max(initial=0)),
                  int(self.counts_baseline.max(initial=0)), 1)
        item.setXRange(-0.6, size - 0.4, padding=0)
        item.setYRange(0, top * 1.1, padding=0)

    def _draw_key(self) -> None:
        """The key in the plot's title row, over the bars' room, never on them (a legend box
        inside a 170 px plot hid the tops of its bars); exported with the plot; in the bars'
        order, left to right: the baseline's grey bar before the current one. One entry a
        line in a narrow plot (at 1,024 px "baseline" was cut to "baseli"), said again as
        the plot's width changes (drawn before the tables took their width, a 163 px plot
        kept one line, cut to "■ baseline ■ curren")."""
        key = [*([(OTHER, "baseline")] if self.baseline_stats else []),
               (A_COLOR, "current")]
        sep = "<br>" if self.plot.width() < KEY_ONE_LINE else "&nbsp;&nbsp;"
        self.plot.getPlotItem().setTitle(
            sep.join(f"<span style='color:{c}'>■</span> <span style='color:{INK}'>{t}</span>"
                     for c, t in key), size="9pt")

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # Qt override
        if (watched is self.plot and event.type() == QEvent.Type.Resize
                and self.stats is not None):
            self._draw_key()
        return super().eventFilter(watched, event)

    def _show_note(self, text: str) -> None:
        self.stats = self.baseline_stats = self.logged_stats = None
        self.log_same_stats = self.log_all_stats = None
        self._baseline_key = self._log_key = None
        self._log_turns.clear()
        self.log_choice.setVisible(False)
        self._turns.clear()
        self.counts_current = self.counts_baseline = np.zeros(0, np.int64)
        self.bars_current.setOpts(x=[], height=[])
        self.bars_baseline.setOpts(x=[], height=[])
        self.note.setText(text)
        self.verdict.setText("")
        self.caption.setText(self.title)
        self.stack.setCurrentWidget(self.note)

    # -- tests --------------------------------------------------------------------------------

    def cell_texts(self, table: QTableWidget) -> list[list[str]]:
        """What a table shows, row by row, hidden columns too."""
        get: Callable[[int, int], Any] = table.item
        return [[(get(r, c).text() if get(r, c) is not None else "")
                 for c in range(table.columnCount())] for r in range(table.rowCount())]

    def figure_texts(self) -> dict[str, list[str]]:
        """Each figure's key → its shown [current (and its Δ), baseline, logged] texts."""
        out = {}
        for t, group in zip(self.tables, FIGURES, strict=True):
            for (key, _, _), row in zip(group, self.cell_texts(t), strict=True):
                out[key] = row[1:]
        return out


def main(argv: list[str] | None = None) -> int:
    from ._standalone import SAMPLES, run_panel

    # a baseline at the defaults, then a stricter min score, so that the deltas show
    return run_panel(InjectionDiagnostics, argv, default=SAMPLES / "decisions",
                     pin_then={"inject_min_score": 40.0})


if __name__ == "__main__":
    raise SystemExit(main())
