"""Eval cases (pi-lodestone's eval.jsonl): each case's pass or fail at the current parameters —
every expected id in its top K, no forbidden id there (`core.cases.check_cases`) — with the
missing and forbidden ids and what it returned; the pass count, recall and precision against
the pinned baseline; the cases whose outcome changed marked and listed first, then the failing
ones. Click a row to select its query.

Events: result_changed, baseline_changed, dataset_changed, query_changed.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QItemSelectionModel, QSignalBlocker, Qt
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QStackedWidget,
    QTableWidget,
    QTableWidgetItem,
    QWidget,
)

from workbench.core.cases import CaseReport, CaseResult, check_cases, has_cases
from workbench.core.data import Dataset
from workbench.core.session import TuningSession
from workbench.gui.elided import ElidingLabel, esc
from workbench.gui.export_csv import write_grab, write_rows
from workbench.gui.palette import BETTER, WORSE, signed

from ._base import MUTED, ChartPanel

NO_CASES = ("No eval cases: open a pi-lodestone eval.jsonl (cases with expected_top_ids) to "
            "see pass / fail per case.")
COLUMNS = ("Case", "Result", "vs baseline", "Missing expected", "Forbidden found", "Returned")
PASS_BG, FAIL_BG = QColor("#dafbe1"), QColor("#ffebe9")


def summary(report: CaseReport, baseline: CaseReport | None = None,
            counts: tuple[int, int, int] | None = None) -> str:
    """"20 / 30 pass · pooled recall 0.71 (22 / 31) · pooled precision 0.61 (22 / 36)", with
    the baseline's deltas. "Pooled": over every case's expected ids at once, not the per-query
    means the R@k and P@k cards show ("recall 0.71" beside "R@10 0.700" read as a rounding
    disagreement, "precision 0.61" beside "P@10 0.073" as a bug: rA 4). `counts`: the ids
    found, expected and returned (`pooled_counts`), shown beside the ratios."""
    b = baseline

    def delta(now: float, was: float, digits: int) -> str:
        return f" ({signed(now - was, digits)})"

    found, expected, returned = counts if counts is not None else (0, 0, 0)
    of_expected = f" ({found} / {expected})" if counts is not None else ""
    of_returned = f" ({found} / {returned})" if counts is not None else ""
    return (f"{report.passed} / {len(report.cases)} pass"
            f"{delta(report.passed, b.passed, 0) if b else ''}"
            f" · pooled recall {report.recall:.2f}{of_expected}"
            f"{delta(report.recall, b.recall, 2) if b else ''}"
            f" · pooled precision {report.precision:.2f}{of_returned}"
            f"{delta(report.precision, b.precision, 2) if b else ''}")


def pooled_counts(dataset: Dataset, report: CaseReport) -> tuple[int, int, int]:
    """The expected ids found in their case's top K, all expected ids, and all ids returned
    in the cases' top Ks: the pooled recall's and precision's numerators and denominators
    (as `check_cases` counts them)."""
    queries = dataset.queries
    found = expected = returned = 0
    for c in report.cases:
        index = queries.index.get(c.query)
        want = len(queries[index].context.get("expected_top_ids", ())) if index is not None \
            else len(c.missing)
        found += want - len(c.missing)
        expected += want
        returned += len(c.returned)
    return found, expected, returned


SUMMARY_TIP = ("Pass: every expected id in the case's own top K and no forbidden id there. "
               "Pooled recall: the expected ids found in their case's top K over all expected "
               "ids ({found} / {expected}); pooled precision: those found over all ids the "
               "cases returned ({found} / {returned}) — pooled over every case at once, as "
               "pi-lodestone's eval harness reports them, so they differ from the R@k and P@k "
               "cards, which are means of per-query figures at k.")


def change_text(now: CaseResult, was: CaseResult | None) -> str:
    """▲ / ▼ where the verdict changed against the baseline, "=" where it did not, "" with
    no baseline case (a blank read as missing)."""
    if was is None:
        return ""
    if was.passed == now.passed:
        return "="
    return "▲ now passes" if now.passed else "▼ now fails"


class EvalCases(ChartPanel):
    title = "Eval cases"
    preferred_models = ("decision-memory",)
    export_name = "eval-cases"
    export_suffixes = (".png", ".csv")

    def __init__(self, session: TuningSession, parent: QWidget | None = None) -> None:
        super().__init__(session, parent)
        self.stack = QStackedWidget()
        self.note = QLabel(NO_CASES)
        self.note.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.note.setWordWrap(True)
        self.note.setStyleSheet(f"color: {MUTED}; font-size: 13px;")
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setDefaultSectionSize(20)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setWordWrap(False)
        header = self.table.horizontalHeader()
        for i in range(len(COLUMNS) - 1):
            header.setSectionResizeMode(i, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(len(COLUMNS) - 1, QHeaderView.ResizeMode.Stretch)
        self.table.cellClicked.connect(self._on_click)
        self.stack.addWidget(self.note)
        self.stack.addWidget(self.table)
        # elided at the right where the header is short (the whole in its tooltip): with a
        # baseline's deltas the pooled counts held a 1,024 px window at its edge
        self.summary = ElidingLabel(hint_whole=True)
        self.summary.setStyleSheet("font-weight: 600;")
        self.summary.setMinimumWidth(80)
        self.header.insertWidget(2, self.summary)
        self.body.addWidget(self.stack)
        # what is shown (tests, export)
        self.report: CaseReport | None = None
        self.baseline_report: CaseReport | None = None
        self.changed: list[str] = []  # cases whose pass / fail differs from the baseline
        self.rows: list[CaseResult] = []  # the cases in table order
        for event in (session.result_changed, session.baseline_changed,
                      session.dataset_changed):
            self.listen(event, self.update_later)
        self.listen(session.query_changed, self._on_query)
        self.update_later()

    def applies(self) -> bool:
        """Whether the dataset has eval cases to check."""
        return self.session.dataset is not None and has_cases(self.session.dataset)

    @property
    def note_text(self) -> str:
        return self.note.text() if self.stack.currentWidget() is self.note else ""

    def redraw(self, *_: object) -> None:
        s = self.session
        if not self.applies():
            self._show_note(NO_CASES)
            return
        if s.result is None or s.dataset is None:
            self._show_note("No result yet.")
            return
        self.report = report = check_cases(s.dataset, s.result.ranking)
        base = s.baseline
        same = base is not None and base.result.ranking.docs.shape[0] == len(s.dataset.queries)
        self.baseline_report = (check_cases(s.dataset, base.result.ranking)
                                if base is not None and same else None)
        was = {c.query: c for c in self.baseline_report.cases} if self.baseline_report else {}
        self.changed = [c.query for c in report.cases
                        if change_text(c, was.get(c.query)) not in ("", "=")]
        changed = f" · {len(self.changed)} changed vs baseline" if self.baseline_report else ""
        counts = pooled_counts(s.dataset, report)
        found, expected, returned = counts
        said = summary(report, self.baseline_report, counts) + changed
        self.summary.set_texts(esc(said), said, SUMMARY_TIP.format(
            found=found, expected=expected, returned=returned))
        self.header.activate()  # its new width now, not at the next event: cut to the old
        # what needs a look first: changed against the baseline, then failing, then the rest
        self.rows = sorted(report.cases, key=lambda c: (c.query not in self.changed,
                                                        c.passed))
        self.table.setRowCount(len(self.rows))
        for row, c in enumerate(self.rows):
            mark = change_text(c, was.get(c.query))
            cells = (c.query, "pass" if c.passed else "FAIL", mark, ", ".join(c.missing),
                     ", ".join(c.forbidden), ", ".join(c.returned) or "(nothing returned)")
            for col, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if col == 1:
                    item.setBackground(QBrush(PASS_BG if c.passed else FAIL_BG))
                    item.setForeground(QBrush(BETTER if c.passed else WORSE))
                    item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
                elif col == 2 and mark and mark != "=":
                    item.setForeground(QBrush(BETTER if c.passed else WORSE))
                elif col in (3, 4) and text:
                    item.setForeground(QBrush(WORSE))
                if col == 5:
                    item.setToolTip(text)
                self.table.setItem(row, col, item)
        self.table.setColumnHidden(2, self.baseline_report is None)
        self.stack.setCurrentWidget(self.table)
        self._on_query(s.query)

    def _show_note(self, text: str) -> None:
        self.report = self.baseline_report = None
        self.changed, self.rows = [], []
        self.table.setRowCount(0)
        self.note.setText(text)
        self.summary.set_texts("", "")
        self.stack.setCurrentWidget(self.note)

    def _on_click(self, row: int, _col: int) -> None:
        s = self.session
        if s.dataset is None or not 0 <= row < len(self.rows):
            return
        index = s.dataset.queries.index.get(self.rows[row].query)
        if index is not None:
            s.select_query(index)

    def _on_query(self, index: int, *_: object) -> None:
        """Keep the selected query's row highlighted (without echoing a click back)."""
        s = self.session
        if s.dataset is None or not 0 <= index < len(s.dataset.queries):
            return
        qid = s.dataset.queries[index].id
        rows = [r for r, c in enumerate(self.rows) if c.query == qid]
        model = self.table.selectionModel()
        with QSignalBlocker(self.table), QSignalBlocker(model):
            if rows:  # selected, not scrolled to: the changed cases stay in view at the top
                flags = (QItemSelectionModel.SelectionFlag.ClearAndSelect
                         | QItemSelectionModel.SelectionFlag.Rows)
                model.select(self.table.model().index(rows[0], 0), flags)
            else:
                self.table.clearSelection()
        self.table.viewport().update()

    def row_texts(self) -> list[list[str]]:
        """What the table shows, row by row (tests, CSV)."""
        rows = []
        for r in range(self.table.rowCount()):
            items = (self.table.item(r, c) for c in range(self.table.columnCount()))
            rows.append([it.text() if it is not None else "" for it in items])
        return rows

    def export(self, path: str | Path) -> Path:
        """PNG (a grab of the panel) or CSV (every case)."""
        out = Path(path)
        suffix = out.suffix.lower()
        if suffix == ".png":
            return write_grab(self, out)
        if suffix == ".csv":
            return write_rows(out, COLUMNS, self.row_texts())
        raise ValueError(f"{out}: export writes .png or .csv, not {suffix!r}")


def main(argv: list[str] | None = None) -> int:
    from ._standalone import SAMPLES, run_panel

    # a baseline at the defaults, then a looser min score, so that some cases change
    return run_panel(EvalCases, argv, default=SAMPLES / "decisions-eval",
                     pin_then={"inject_min_score": 2.0})


if __name__ == "__main__":
    raise SystemExit(main())
