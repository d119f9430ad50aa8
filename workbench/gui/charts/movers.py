"""What moved against the pinned baseline, across all queries: documents that entered or left
the top k and the largest rank jumps, largest first, each with the signal deltas that moved it
(`core.compare.movers`). Double-click a row to select its query (and the document).

Events: result_changed, baseline_changed, k_changed, dataset_changed.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QPoint, QSize, Qt
from PySide6.QtGui import QBrush, QPainter
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QStackedWidget,
    QTableWidget,
    QTableWidgetItem,
    QWidget,
)

from workbench.core.compare import Mover, move_counts, movers
from workbench.core.data import display_title
from workbench.core.engine import Model
from workbench.core.session import TuningSession
from workbench.gui.elided import MiddleElided
from workbench.gui.export_csv import write_rows
from workbench.gui.palette import BETTER, WORSE, signed
from workbench.gui.signal_names import signal_labels

from ._base import MUTED, ChartPanel
from .export_image import draw_header, header_height, plain, write_picture

EMPTY_NO_BASELINE = "Pin a baseline (Ctrl+B) to see what moved"
EMPTY_NOTHING_MOVED = "Nothing moved: every query's top k is as in the baseline"
COLUMNS = ("Query", "Document", "Rel", "Rank", "Move", "Score Δ", "Signal deltas")
REL = 2  # the judged grade: shown only where the data has judgments
TOP = 50
PICTURE_WIDTH = 1200  # px (logical) of an exported picture: its rows as tall as they are


def move_text(m: Mover) -> str:
    """The move in places where both sides rank the document; from (or to) beyond a side's
    ranking depth it is "new" or "left" alone (its distance is not known: "new ▲100" was the
    depth less its rank)."""
    if m.entered:
        return f"new ▲{m.jump}" if m.jump > 0 and m.baseline_rank is not None else "new"
    if m.left:
        return f"left ▼{-m.jump}" if m.jump < 0 and m.rank is not None else "left"
    return f"▲{m.jump}" if m.jump > 0 else f"▼{-m.jump}"


def rank_text(m: Mover, depth: int | None = None, baseline_depth: int | None = None) -> str:
    """"12 → 3"; a side that does not rank it: ">depth" where that side's ranking was cut
    at `depth`, "–" where it ranks fewer (the document is not ranked at all there)."""
    def r(x: int | None, deep: int | None) -> str:
        return str(x) if x is not None else f">{deep}" if deep else "–"
    return f"{r(m.baseline_rank, baseline_depth)} → {r(m.rank, depth)}"


def deltas_text(m: Mover, limit: int = 3, model: Model | None = None) -> str:
    """The signal deltas that moved it, largest first, each signal by `model`'s name for it
    (its slider's); across models, each side's signals."""
    text = _deltas_text(m, limit, model)
    missing = [side for side, ok in (("baseline", m.baseline_candidate), ("now", m.candidate))
               if not ok]
    if missing:  # its zeros on that side are no score: the model did not score it
        return f"not a candidate ({' / '.join(missing)}); {text}"
    return text


def _deltas_text(m: Mover, limit: int, model: Model | None = None) -> str:
    d = m.signal_deltas
    if d is None:
        return (f"total {signed(m.total_delta)} (signals {', '.join(m.baseline_signals)} → "
                f"{', '.join(m.signals)})")
    parts = sorted(d.items(), key=lambda kv: -abs(kv[1]))
    shown = [f"{signal_labels(model, [name])[0]} {signed(v)}" for name, v in parts[:limit]
             if abs(v) >= 5e-4]
    return ", ".join(shown) or "±0"


class MoversList(ChartPanel):
    title = "Movers"
    export_name = "movers"
    export_suffixes = (".png", ".svg", ".csv")

    def __init__(self, session: TuningSession, parent: QWidget | None = None) -> None:
        super().__init__(session, parent)
        self.stack = QStackedWidget()
        self.empty = QLabel(EMPTY_NO_BASELINE)
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty.setWordWrap(True)
        self.empty.setStyleSheet(f"color: {MUTED}; font-size: 13px;")
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setAlternatingRowColors(True)
        self.table.setWordWrap(False)
        self.table.verticalHeader().setDefaultSectionSize(22)
        header = self.table.horizontalHeader()
        # the document takes the room (its title read), the signal deltas their text's
        for i in range(len(COLUMNS)):
            header.setSectionResizeMode(i, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        # a long path id keeps its file name and the title's end: elided in the middle, at
        # the column's width
        self.table.setItemDelegateForColumn(1, MiddleElided(self.table))
        self.table.cellDoubleClicked.connect(self._on_double_click)
        self.stack.addWidget(self.empty)
        self.stack.addWidget(self.table)
        self.body.addWidget(self.stack)
        self.movers: list[Mover] = []
        for event in (session.result_changed, session.baseline_changed, session.k_changed,
                      session.dataset_changed):
            self.listen(event, self.update_later)
        self.update_later()

    @property
    def empty_text(self) -> str:
        """The empty-state text, or "" while the table shows movers."""
        return self.empty.text() if self.stack.currentWidget() is self.empty else ""

    def redraw(self, *_: object) -> None:
        s = self.session
        base = s.baseline
        if base is None or s.result is None or s.dataset is None:
            self._set_empty(EMPTY_NO_BASELINE)
            return
        if base.result.ranking.docs.shape[0] != s.result.ranking.docs.shape[0]:
            self._set_empty("The baseline ranks another query set: pin a new one (Ctrl+B)")
            return
        self.movers = movers(s.result, base.result, s.k, TOP)
        # counts over every query (the table keeps the largest moves only): in a fixed top k
        # as many enter as leave, which counts over the rows shown hid
        moved, n_in, n_out = move_counts(s.result, base.result, s.k)
        shown = (f"all {moved:,} shown" if moved == len(self.movers)
                 else f"the {len(self.movers)} largest of {moved:,} shown")
        self.caption.setText(f"Movers — top {s.k} vs baseline ({base.model_id}): "
                             f"{n_in:,} entered, {n_out:,} left; {shown}")
        if not self.movers:
            self._set_empty(EMPTY_NOTHING_MOVED)
            return
        queries, corpus = s.dataset.queries, s.dataset.corpus
        qrels = s.dataset.qrels or {}
        # a judged document's move is the one that changes a metric (review gv 8: a relevant
        # document falling 10 → 18 had not stood out)
        self.table.setColumnHidden(REL, not qrels)
        # a side that does not rank a document: "> depth" only where its row was cut at the
        # depth asked for; else it ranks fewer (unmatched, gated, under the min score): "–"
        now_count, base_count = s.result.ranking.count, base.result.ranking.count

        def cut(count: object, q: int) -> int | None:
            n = int(count[q])  # type: ignore[index]
            return s.depth if n >= s.depth else None
        self.table.setSortingEnabled(False)
        self.table.setRowCount(len(self.movers))
        for row, m in enumerate(self.movers):
            doc = corpus[m.doc]
            # a file's title is its path, its id too: said once
            title = display_title(corpus, doc)  # OpenVault's memories: not "action" alone
            name = f"{doc.id} · {title}" if title and title != doc.id else doc.id
            # whole: the column elides it at its own width (cut at 80 characters, most of a
            # 1,920 px column stood empty)
            shown = name
            grade = qrels.get(queries[m.query].id, {}).get(doc.id)
            cells = (queries[m.query].id, shown, "" if grade is None else str(grade),
                     rank_text(m, cut(now_count, m.query), cut(base_count, m.query)),
                     move_text(m),
                     signed(m.total_delta), deltas_text(m, model=s.model))
            for col, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if col == 1:
                    item.setToolTip(name.replace(" · ", "\n", 1))
                if col == REL:
                    item.setToolTip("not judged" if grade is None else
                                    f"judged relevant (grade {grade})" if grade > 0 else
                                    "judged not relevant")
                    item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
                if col == 4:
                    item.setForeground(QBrush(BETTER if m.jump > 0 else WORSE))
                if col in (3, 4, 5):
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight
                                          | Qt.AlignmentFlag.AlignVCenter)
                self.table.setItem(row, col, item)
        self.stack.setCurrentWidget(self.table)
        self.refresh_export()

    def _set_empty(self, text: str) -> None:
        self.movers = []
        self.table.setRowCount(0)
        self.empty.setText(text)
        self.caption.setText(self.title)
        self.stack.setCurrentWidget(self.empty)
        self.refresh_export()

    def row_texts(self) -> list[list[str]]:
        """What the table shows, row by row (tests, CSV)."""
        rows = []
        for r in range(self.table.rowCount()):
            items = (self.table.item(r, c) for c in range(self.table.columnCount()))
            rows.append([it.text() if it is not None else "" for it in items])
        return rows

    def _on_double_click(self, row: int, _col: int) -> None:
        if 0 <= row < len(self.movers):
            m = self.movers[row]
            self.session.select_query(m.query)
            self.session.select_docs([m.doc])

    def export_refusal(self) -> str:
        """Nothing listed (no baseline, nothing moved): Export is off, its tooltip says why;
        a picture of the panel's hint had been written (review r49, dr4 12)."""
        if self.stack.currentWidget() is not self.table:
            return f"Nothing to export: {' '.join(self.empty.text().split())}"
        return ""

    def export(self, path: str | Path) -> Path:
        """PNG or SVG (the title, what it compares, and every row of the list, without the
        panel's buttons and scroll bar) or CSV (every row). A grab of the panel had shown 7
        of 50 rows, the 7th cut, under the Export button (review r49, rg 6)."""
        out = Path(path)
        suffix = out.suffix.lower()
        self.catch_up()
        why = self.export_refusal()
        if why:
            raise ValueError(why)
        if suffix in (".png", ".svg"):
            self._write_picture(out)
        elif suffix == ".csv":
            write_rows(out, COLUMNS, self.row_texts())
        else:
            raise ValueError(f"{out}: export writes .png, .svg or .csv, not {suffix!r}")
        return out

    def _write_picture(self, out: Path) -> None:
        title, context = plain(self.caption.text()), " · ".join(self.export_context())
        t, head = self.table, header_height(PICTURE_WIDTH, title, context)
        bars = (t.horizontalScrollBarPolicy(), t.verticalScrollBarPolicy())
        old = t.size()
        off = Qt.ScrollBarPolicy.ScrollBarAlwaysOff
        t.setHorizontalScrollBarPolicy(off)
        t.setVerticalScrollBarPolicy(off)
        rows = sum(t.rowHeight(r) for r in range(t.rowCount()))
        t.resize(PICTURE_WIDTH, t.horizontalHeader().height() + rows + 2 * t.frameWidth())
        try:
            size = QSize(PICTURE_WIDTH, head + t.height())

            def draw(painter: QPainter) -> None:
                draw_header(painter, PICTURE_WIDTH, title, context)
                t.render(painter, QPoint(0, head))
            write_picture(out, size, "Movers", draw, self.logicalDpiX())
        finally:
            t.setHorizontalScrollBarPolicy(bars[0])
            t.setVerticalScrollBarPolicy(bars[1])
            t.resize(old)


def main(argv: list[str] | None = None) -> int:
    from ._standalone import run_panel

    # pin the defaults, then move some weights (bm25 or vault-search), so that the list
    # has something to show
    return run_panel(MoversList, argv, pin_then={"k1": 0.4, "b": 0.3, "w_tf": 0.1,
                                                 "w_position": 0.6, "w_density": 0.2})


if __name__ == "__main__":
    raise SystemExit(main())
