"""Injection diagnostics: pi-lodestone's why-stats figures (REFERENCE.md §1) for what the
current parameters would inject — one turn per query, as `workbench why-stats --live` — beside
the pinned baseline's (with signed deltas) and, when the dataset's folder holds an
`injections.jsonl`, the logged figures; the most-injected ids; and a bar chart of how many
results each turn gets, current against baseline.

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
from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QSizePolicy,
    QStackedWidget,
    QTableWidget,
    QTableWidgetItem,
    QWidget,
)

from workbench.core.data import Dataset, FormatError
from workbench.core.diagnostics import (
    REAL_WORK_MARGIN,
    InjectionStats,
    Turn,
    injection_stats,
    turns_from_injections,
    turns_from_log,
    turns_from_ranking,
)
from workbench.core.engine import Model
from workbench.core.models import get_model
from workbench.core.params import Params
from workbench.core.ranking import Ranking
from workbench.core.session import TuningSession
from workbench.gui.palette import signed

from ._base import A_COLOR, MUTED, OTHER, ChartPanel, add_legend, make_plot

MODEL_ID = "decision-memory"
LOG_FILE = "injections.jsonl"
NOT_APPLICABLE = ("Injection diagnostics are pi-lodestone's why-stats: choose the "
                  "decision-memory model (on pi-memory decisions) to see them.")
COLUMNS = ("", "Current", "Baseline", "Δ", "Logged")
ID_COLUMNS = ("Top ids", "Times", "Avg score", "Baseline", "Logged")

# (key, label, decimals; 0 prints as %g): the CLI's figures, in two tables of eight rows so
# that they fit the chart area's height; "margin" is tail avg − min score, "verdict" whether
# the threshold is doing real work
FIGURES: tuple[tuple[tuple[str, str, int], ...], ...] = (
    (("turns", "turns", 0),
     ("count_mean", "results/turn mean", 2),
     ("count_p50", "results/turn p50", 0),
     ("count_p95", "results/turn p95", 0),
     ("hit_limit_pct", "hit the limit %", 1),
     ("zero_pct", "no result %", 1),
     ("snippet_mean", "snippet length", 1),
     ("tokens_per_turn", "tokens/turn (est.)", 0)),
    (("top_avg", "top score avg", 2),
     ("top_min", "top score min", 0),
     ("top_max", "top score max", 0),
     ("tail_avg", "tail score avg", 2),
     ("min_score", "min score", 0),
     ("limit", "limit", 0),
     ("margin", "tail − min score", 2),
     ("verdict", "threshold decides", 0)),
)
ROW_HEIGHT = 18


def figure(stats: InjectionStats, key: str) -> float:
    if key == "margin":
        return stats.tail_avg - stats.min_score
    return float(getattr(stats, key))


def fmt(value: float, decimals: int) -> str:
    return f"{value:.{decimals}f}" if decimals else f"{value:g}"


def fmt_delta(delta: float, decimals: int) -> str:
    """Signed; a %g figure's delta with two decimals unless it is whole."""
    return signed(delta, decimals or (0 if float(delta).is_integer() else 2))


def verdict(stats: InjectionStats) -> str:
    """The why-stats closing line about the threshold, short."""
    if not stats.turns:
        return "no turns"
    return "yes" if stats.threshold_doing_real_work else "rarely"


VERDICT_HELP = ("The min score is “doing real work” when the tail average (the last result's "
                "score) is within 3 of it; otherwise the tail sits well above it and the "
                "threshold rarely decides.")


def live_turns(model: Model, params: Params, dataset: Dataset, ranking: Ranking,
               prepared: Any = None) -> list[Turn]:
    """What `params` would inject, one turn per query, held to the selection the CLI uses: the
    model's own, else its injection min score and limit (decision-memory gates per query).
    Given the prepared state of a model that shows its injections, each turn's snippets are
    the real ones and a turn that is not logged (disabled cwd) is left out."""
    sel = model.selection_params(params)
    min_score = sel.min_score if sel.min_score is not None else float(
        params.get("inject_min_score", 0))
    limit = sel.limit if sel.limit is not None else int(
        params.get("inject_limit", 0))
    views = getattr(model, "injections", None)
    if prepared is not None and views is not None:
        return turns_from_injections(dataset.corpus.ids, views(prepared, dataset, params),
                                     min_score, limit)
    texts = [d.text for d in dataset.corpus]
    width = int(ranking.count.max(initial=0))  # only the selected columns become lists
    return turns_from_ranking(dataset.corpus.ids, texts, ranking.docs[:, :width].tolist(),
                              ranking.scores[:, :width].tolist(), ranking.count.tolist(),
                              min_score, limit)


def log_path(source: str | None) -> Path | None:
    """The injections log beside the opened decisions (a folder, or its decisions file)."""
    if not source:
        return None
    p = Path(source)
    log = p / LOG_FILE if p.is_dir() else p.with_name(LOG_FILE)
    return log if log.is_file() else None


def distribution(counts: tuple[int, ...], size: int) -> NDArray[np.int64]:
    """Turns with 0, 1, 2, … results: int64 (size,)."""
    out: NDArray[np.int64] = np.bincount(np.asarray(counts, np.int64), minlength=size)[:size]
    return out


class FitTable(QTableWidget):
    """A table that asks for the width of its shown columns (no wider), and may shrink below
    it (scrolling) when the window is narrow."""

    def sizeHint(self) -> QSize:  # Qt override
        width = sum(self.columnWidth(c) for c in range(self.columnCount())
                    if not self.isColumnHidden(c))
        bar = self.verticalScrollBar().sizeHint().width()
        return QSize(width + 2 * self.frameWidth() + bar, super().sizeHint().height())

    def minimumSizeHint(self) -> QSize:  # Qt override
        return QSize(160, super().minimumSizeHint().height())


def _table(columns: tuple[str, ...]) -> FitTable:
    t = FitTable(0, len(columns))
    t.setHorizontalHeaderLabels(columns)
    t.verticalHeader().setVisible(False)
    t.verticalHeader().setMinimumSectionSize(ROW_HEIGHT)
    t.verticalHeader().setDefaultSectionSize(ROW_HEIGHT)
    t.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    t.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
    t.setAlternatingRowColors(True)
    t.setWordWrap(False)
    t.setStyleSheet("QTableView::item { padding: 0px 4px; } "
                    "QHeaderView::section { padding: 1px 4px; }")
    header = t.horizontalHeader()
    for i in range(len(columns)):
        header.setSectionResizeMode(i, QHeaderView.ResizeMode.ResizeToContents)
    t.setSizePolicy(QSizePolicy.Policy.Maximum, QSizePolicy.Policy.Expanding)
    return t


def fit_width(t: QTableWidget) -> None:
    """Ask the layout again for the table's width, now that its columns are filled."""
    t.setMaximumWidth(t.sizeHint().width())
    t.updateGeometry()



def _cell(text: str, right: bool = True, color: str | None = None) -> QTableWidgetItem:
    item = QTableWidgetItem(text)
    if right:
        item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
    if color:
        item.setForeground(pg.mkColor(color))
    return item


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
        self.tables = [_table(COLUMNS) for _ in FIGURES]
        self.verdict = QLabel()
        self.verdict.setToolTip(VERDICT_HELP)
        self.header.insertWidget(2, self.verdict)
        self.ids = _table(ID_COLUMNS)
        self.plot = make_plot(left="turns", bottom="results per turn")
        self.legend = add_legend(self.plot)
        self.bars_current = pg.BarGraphItem(x=[], height=[], width=0.38,
                                            brush=pg.mkBrush(A_COLOR), pen=pg.mkPen(A_COLOR))
        self.bars_baseline = pg.BarGraphItem(x=[], height=[], width=0.38,
                                             brush=pg.mkBrush(OTHER), pen=pg.mkPen(OTHER))
        self.plot.addItem(self.bars_baseline)
        self.plot.addItem(self.bars_current)
        self.legend.addItem(self.bars_current, "current")
        self.legend.addItem(self.bars_baseline, "baseline")
        content = QWidget()
        row = QHBoxLayout(content)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(6)
        for w in (*self.tables, self.ids):
            row.addWidget(w)
        row.addWidget(self.plot, 1)
        self.stack.addWidget(content)
        self.body.addWidget(self.stack)
        # what is shown (tests, export)
        self.stats: InjectionStats | None = None
        self.baseline_stats: InjectionStats | None = None
        self.logged_stats: InjectionStats | None = None
        self.counts_current: NDArray[np.int64] = np.zeros(0, np.int64)
        self.counts_baseline: NDArray[np.int64] = np.zeros(0, np.int64)
        self._turns: dict[str, list[Turn]] = {}
        self._baseline_key: tuple[object, object] | None = None
        self._log_key: object = None
        self._log_note = ""
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
        self._baseline_key, self.baseline_stats = key, None
        self._turns.pop("baseline", None)
        if base is None or base.model_id != MODEL_ID or s.dataset is None:
            return
        model = get_model(base.model_id)
        same = (s.model is not None and s.model.id == base.model_id and s.prepared_params
                is not None and model.schema.prepare_values(base.params)
                == model.schema.prepare_values(s.prepared_params))
        turns = live_turns(model, base.params, s.dataset, base.result.ranking,
                           s.prepared if same else None)
        self._turns["baseline"] = turns
        self.baseline_stats = injection_stats(turns)

    def _refresh_log(self) -> None:
        from workbench.core.formats.pi_memory_injections import read_injections

        path = log_path(self.session.source or (self.session.dataset.source
                                                if self.session.dataset else None))
        key = (path, path.stat().st_mtime_ns if path else None)
        if key == self._log_key:
            return
        self._log_key, self.logged_stats, self._log_note = key, None, ""
        self._turns.pop("logged", None)
        if path is None:
            return
        try:
            log = read_injections(path)
        except (FormatError, OSError) as exc:
            self._log_note = f"{path.name} unreadable: {exc}"
            return
        turns = turns_from_log(log.records)
        self._turns["logged"] = turns
        self.logged_stats = injection_stats(turns)
        skipped = f", {log.n_skipped} corrupt lines skipped" if log.n_skipped else ""
        self._log_note = f"log: {len(turns)} turns{skipped}"
        for t in self.tables:
            header = t.horizontalHeaderItem(4)
            if header is not None:
                header.setToolTip(f"why-stats of the last {len(turns)} turns of {path}")

    def redraw(self, *_: object) -> None:
        s = self.session
        if not self.applies():
            self._show_note(NOT_APPLICABLE)
            return
        if s.result is None or s.model is None or s.dataset is None:
            self._show_note("No result yet.")
            return
        turns = live_turns(s.model, s.params, s.dataset, s.result.ranking, s.prepared)
        self._turns["current"] = turns
        self.stats = injection_stats(turns)
        self._refresh_baseline()
        self._refresh_log()
        log = f" · {self._log_note}" if self._log_note else ""
        self.caption.setText(f"Injection — {self.stats.turns} queries, current "
                             f"parameters{log}")
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
                name = _cell(label, right=False)
                t.setItem(row, 0, name)
                if key == "verdict":
                    name.setToolTip(VERDICT_HELP)
                    texts = [verdict(st) if st else "" for st in columns]
                    t.setItem(row, 1, _cell(texts[0]))
                    t.setItem(row, 2, _cell(texts[1], color=MUTED))
                    t.setItem(row, 3, _cell(""))
                    t.setItem(row, 4, _cell(texts[2], color=MUTED))
                    continue
                now = figure(cur, key)
                was = figure(base, key) if base else None
                t.setItem(row, 1, _cell(fmt(now, dec)))
                t.setItem(row, 2, _cell("" if was is None else fmt(was, dec), color=MUTED))
                t.setItem(row, 3, _cell("" if was is None else fmt_delta(now - was, dec)))
                t.setItem(row, 4, _cell(fmt(figure(logged, key), dec) if logged else "",
                                        color=MUTED))
            t.setColumnHidden(2, base is None)
            t.setColumnHidden(3, base is None)
            t.setColumnHidden(4, logged is None)
            fit_width(t)
        real = cur.threshold_doing_real_work
        text = (f"tail avg {cur.tail_avg:.2f} within {REAL_WORK_MARGIN:g} of min score "
                f"{cur.min_score:g}: the threshold is doing real work" if real else
                f"tail avg {cur.tail_avg:.2f} vs min score {cur.min_score:g}: the threshold "
                f"rarely decides")
        self.verdict.setText(text if cur.turns else "no turns")
        self.verdict.setStyleSheet(f"color: {'#9a6700' if real else MUTED};")

    def _fill_ids(self) -> None:
        cur = self.stats
        assert cur is not None
        times: dict[str, Counter[str]] = {
            name: Counter(r[0] for t in self._turns.get(name, ()) for r in t.results)
            for name in ("baseline", "logged")}
        t = self.ids
        t.setRowCount(len(cur.most_injected))
        for row, (rid, n, avg) in enumerate(cur.most_injected):
            t.setItem(row, 0, _cell(rid, right=False))
            t.setItem(row, 1, _cell(str(n)))
            t.setItem(row, 2, _cell(f"{avg:.2f}"))
            b = times["baseline"][rid]
            t.setItem(row, 3, _cell(f"{b}  {signed(n - b, 0)}" if self.baseline_stats
                                    else "", color=MUTED))
            t.setItem(row, 4, _cell(str(times["logged"][rid]) if self.logged_stats else "",
                                    color=MUTED))
        t.setColumnHidden(3, self.baseline_stats is None)
        t.setColumnHidden(4, self.logged_stats is None)
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
        self._set_legend(base is not None)
        item = self.plot.getPlotItem()
        item.getAxis("bottom").setTicks([[(float(i), str(i)) for i in range(size)]])
        top = max(int(self.counts_current.max(initial=0)),
                  int(self.counts_baseline.max(initial=0)), 1)
        item.setXRange(-0.6, size - 0.4, padding=0)
        item.setYRange(0, top * (1.6 if base else 1.35), padding=0)  # room for the legend

    def _set_legend(self, with_baseline: bool) -> None:
        shown = [label.text for _, label in self.legend.items]
        if with_baseline and "baseline" not in shown:
            self.legend.addItem(self.bars_baseline, "baseline")
        elif not with_baseline and "baseline" in shown:
            self.legend.removeItem(self.bars_baseline)

    def _show_note(self, text: str) -> None:
        self.stats = self.baseline_stats = self.logged_stats = None
        self._baseline_key = self._log_key = None
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
        """Each figure's key → its shown [current, baseline, Δ, logged] texts."""
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
