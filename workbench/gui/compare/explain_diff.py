"""Why one document moved between configuration 0 (A) and configuration i (B): its rank on
each side, each signal's contribution to its score under A and under B and their difference
(B − A), a total row, and `MoveExplained.sentence()` above ('moved from 7 to 2: vector +1.9,
bm25 −0.3 — alpha 0.3 → 0.6'). Each side's contributions come from its own scores
(`core.comparison.explain_move`).

The signals that changed come first, the largest difference first, then those equal on both
sides; those 0 on both sides are one line under the table ("0 on both sides: …", as the
HTML report has it), and the total sits in a row of its own under the scrolling table, always
in sight (at 1,280 × 800 nine ±0 rows had filled the pane, the one that moved and the total
below the fold: review rv3, F11)."""

from __future__ import annotations

import math

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontInfo, QFontMetrics, QIcon, QPixmap
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from workbench.core.comparison import Comparison, CrossMove, MoveExplained, explain_pair
from workbench.core.data import display_title
from workbench.gui.charts._base import MUTED
from workbench.gui.compare.rank_rows import points
from workbench.gui.palette import delta_color, signal_color, signed
from workbench.gui.signal_names import signal_labels
from workbench.report.text import settings_key

HINT = "Click a document in the lists to see why it moved"
VALUE_ROLE = Qt.ItemDataRole.UserRole + 1  # the number a cell shows, as a float


class ExplainDiff(QWidget):
    """One document's per-signal contributions under A and B, and their difference."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        # not `move`: QWidget.move; a CrossMove between two models
        self.explained: MoveExplained | CrossMove | None = None
        self.font_scale = 1.0
        self._base_pt = points(self.font())
        # the labels' type in px while scaled (None: the style sheet's): a style sheet's
        # font-size (style.qss: 13px) overrides setFont, so they grow by style sheets of their
        # own (they had stayed at 13 px beside the table's presenting type: dr7)
        self._label_px: int | None = None
        self._sentence_sheet = f"color: {MUTED};"
        layout = self._box = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.setSpacing(4)
        self.sentence = QLabel(HINT)
        self.sentence.setWordWrap(True)
        self.sentence.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.detail = QLabel()
        self.detail.setWordWrap(True)
        self.table = _table()
        # the total: a one-row table under the signals' (their columns kept alike), in
        # sight however far they scroll
        self.total_table = _table()
        self.total_table.horizontalHeader().setVisible(False)
        self.total_table.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.total_table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.zeros = QLabel()  # "0 on both sides: …"
        self.zeros.setWordWrap(True)
        for w in (self.sentence, self.detail):
            layout.addWidget(w)
        tables = QVBoxLayout()
        tables.setSpacing(0)  # the total row joined to the table above it
        tables.addWidget(self.table, 1)
        tables.addWidget(self.total_table)
        layout.addLayout(tables, 1)
        layout.addWidget(self.zeros)
        # a short table ends at its last row, the total right under it, the room left below
        layout.addStretch(0)
        self.clear()

    def clear(self) -> None:
        """No document: the hint."""
        self.explained = None
        self.sentence.setText(HINT)
        self.sentence.setToolTip("")
        self._sentence_sheet = f"color: {MUTED};"
        self._style_labels()
        self.sentence.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.detail.setVisible(False)
        for t in (self.table, self.total_table):
            t.setRowCount(0)
            t.setVisible(False)
        self.zeros.setVisible(False)

    def show_move(self, comp: Comparison, i: int, query: int, doc: int) -> None:
        """`doc` for `query` under configuration 0 (A) and configuration i (B)."""
        move = explain_pair(comp, i, query, doc)
        self.explained = move
        a, b = comp.configs[0].name, comp.configs[i].name
        text = move.sentence()
        self.sentence.setText(text)
        # what its settings' "alone:" figures are, as compare's and the report's key says
        self.sentence.setToolTip("\n".join(settings_key([text])))
        self._sentence_sheet = "font-weight: 600;"
        self._style_labels()
        self.sentence.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        d, q = comp.dataset.corpus[doc], comp.dataset.queries[query]
        title = display_title(comp.dataset.corpus, d)  # an OpenVault memory: not its type alone
        # the letters the table's columns are headed by, with the names they stand for; the
        # query in the tooltip, since the line above the lists names it (its two lines here
        # had pushed the table's last row, size penalty, out of sight at 1,024 px: r53 5)
        self.detail.setText(f"{d.id}{' · ' + title if title and title != d.id else ''}\n"
                            f"A: {a}, {_rank(move.rank_a)} → B: {b}, {_rank(move.rank_b)}")
        self.detail.setToolTip(f"query {q.id} “{' '.join(q.text.split())}”")
        self.detail.setVisible(True)
        # "A", "B", "Δ": the names are in the line above and the tooltips (headed by the
        # names, the columns had pushed B's values and Δ out of a 330-px pane at 1,280)
        self.table.setHorizontalHeaderLabels(["signal", "A", "B", "Δ"])
        for col, tip in ((1, f"A: {a}"), (2, f"B: {b}"), (3, f"Δ: B − A ({b} − {a})")):
            item = self.table.horizontalHeaderItem(col)
            if item is not None:
                item.setToolTip(tip)
        cross = isinstance(move, CrossMove)
        for t in (self.table, self.total_table):  # two models: no Δ column at all
            t.setColumnHidden(3, cross)
        if isinstance(move, CrossMove):  # two models: each side's own signals, no Δ
            self._show_cross(comp, i, move)
            return
        rows, zeros = signal_rows(signal_labels(comp.model_of(i), move.signals),
                                  move.contributions_a.tolist(), move.contributions_b.tolist())
        self.table.setRowCount(len(rows))
        for r, (s, name, va, vb) in enumerate(rows):
            _fill_row(self.table, r, name, va, vb, signal_color(s))
        self.total_table.setRowCount(1)
        _fill_row(self.total_table, 0, "total", move.total_a, move.total_b, None)
        self.zeros.setText(f"0 on both sides: {', '.join(zeros)}")
        self.zeros.setVisible(bool(zeros))
        self.table.setVisible(True)
        self.total_table.setVisible(True)
        if abs(self.font_scale - 1.0) > 1e-9:
            self._item_fonts()
        self._fit()

    def _show_cross(self, comp: Comparison, i: int, move: CrossMove) -> None:
        """Each model's own signals for the document, A's then B's, blank on the side whose
        model has no such signal, with no Δ: two models score on no common scale."""
        rows: list[tuple[str, float, float, int]] = []
        for side, (labels, parts) in enumerate(((move.labels_a, move.contributions_a),
                                                (move.labels_b, move.contributions_b))):
            for s, (label, v) in enumerate(zip(labels, parts.tolist(), strict=True)):
                if v == 0:
                    continue
                rows.append((label, v if side == 0 else math.nan,
                             v if side == 1 else math.nan, s))
        self.table.setRowCount(len(rows))
        for r, (label, va, vb, s) in enumerate(rows):
            _fill_row(self.table, r, label, va, vb, signal_color(s), delta_shown=False)
        self.total_table.setRowCount(1)
        _fill_row(self.total_table, 0, "total", move.total_a if move.scored_a else math.nan,
                  move.total_b if move.scored_b else math.nan, None, delta_shown=False)
        self.zeros.setText(f"two models ({move.model_a}, {move.model_b}): each scores on its "
                           "own scale, so the places compare and the scores do not")
        self.zeros.setVisible(True)
        self.table.setVisible(True)
        self.total_table.setVisible(True)
        if abs(self.font_scale - 1.0) > 1e-9:
            self._item_fonts()
        self._fit()

    def values(self) -> list[tuple[str, float, float, float]]:
        """(signal or 'total', A, B, Δ) per row shown, as the cells hold them: the signals'
        rows, then the total's."""
        out = []
        for t in (self.table, self.total_table):
            for r in range(t.rowCount()):
                items = [t.item(r, c) for c in range(4)]
                nums = [float(it.data(VALUE_ROLE)) if it is not None else math.nan
                        for it in items[1:]]
                name = items[0].text() if items[0] is not None else ""
                out.append((name, nums[0], nums[1], nums[2]))
        return out

    def set_font_scale(self, f: float) -> None:
        """Larger text and rows for presenting (1.0: the application font)."""
        self.font_scale = max(0.5, float(f))
        font = QFont(self.font())
        font.setPointSizeF(self._base_pt * self.font_scale)
        for w in (self.sentence, self.detail, self.zeros, self.table,
                  self.table.horizontalHeader(), self.total_table):
            w.setFont(font)
        self._item_fonts()
        self._label_px = (QFontInfo(font).pixelSize() if abs(self.font_scale - 1.0) > 1e-9
                          else None)
        self._style_labels()
        # the head likewise: the application's style sheet held it at 13 px beside its
        # scaled rows while presenting (r53 5)
        self.table.horizontalHeader().setStyleSheet(
            f"QHeaderView {{ font-size: {self._label_px}px; }}" if self._label_px else "")
        self._fit()

    def _item_fonts(self) -> None:
        """The cells in the tables' type, bold kept: cells filled while presenting had
        come in the application's type (the type was set again on each click then; kept
        once chosen, r52 dr5 5, the cells stayed small)."""
        for t in (self.table, self.total_table):
            for r in range(t.rowCount()):
                for c in range(t.columnCount()):
                    item = t.item(r, c)
                    if item is not None:
                        f2 = QFont(t.font())
                        f2.setBold(item.font().bold())
                        item.setFont(f2)

    def _style_labels(self) -> None:
        """The sentence's, the detail's and the zeros line's style sheets, with the scaled
        type's size while scaled."""
        size = f" font-size: {self._label_px}px;" if self._label_px is not None else ""
        self.sentence.setStyleSheet(self._sentence_sheet + size)
        for label in (self.detail, self.zeros):
            label.setStyleSheet(f"color: {MUTED};{size}")

    def content_width(self) -> int:
        """The width that shows every column of the table whole, with the pane's margins."""
        t, m = self.table, self._box.contentsMargins()
        return int(sum(t.columnWidth(c) for c in range(t.columnCount())) + 2 * t.frameWidth()
                   + t.verticalScrollBar().sizeHint().width() + m.left() + m.right() + 2)

    def _fit(self) -> None:
        """Rows as high as the font needs; each column as wide as its widest cell in either
        table, so that the total's figures stand under the signals'."""
        h = QFontMetrics(self.table.font()).height()
        tables = (self.table, self.total_table)
        for t in tables:
            t.verticalHeader().setDefaultSectionSize(int(h * 1.5))
            t.setIconSize(_swatch_size(h))
            t.resizeColumnsToContents()
        for c in range(self.table.columnCount()):
            width = max(t.columnWidth(c) for t in tables)
            for t in tables:
                t.setColumnWidth(c, width)
        self.total_table.setFixedHeight(int(h * 1.5) * self.total_table.rowCount()
                                        + 2 * self.total_table.frameWidth())
        t = self.table
        t.setMaximumHeight(t.horizontalHeader().sizeHint().height() + 2 * t.frameWidth()
                           + int(h * 1.5) * t.rowCount())


def signal_rows(names: list[str], a: list[float], b: list[float]
                ) -> tuple[list[tuple[int, str, float, float]], list[str]]:
    """The explain table's rows, (signal index, name, A, B): those whose difference shows
    (|Δ| ≥ 0.00005, printed to four places), the largest first; then those equal on both
    sides, in the signals' order. And the names of those 0 on both sides, left out of the
    rows."""
    both = list(zip(range(len(names)), names, a, b, strict=True))
    moved = sorted((r for r in both if abs(r[3] - r[2]) >= 5e-5),
                   key=lambda r: (-abs(r[3] - r[2]), r[0]))
    same = [r for r in both if abs(r[3] - r[2]) < 5e-5 and (r[2] != 0 or r[3] != 0)]
    return moved + same, [r[1] for r in both if r[2] == 0 and r[3] == 0]


def _table() -> QTableWidget:
    table = QTableWidget(0, 4)
    table.verticalHeader().setVisible(False)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
    table.setWordWrap(False)
    table.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # nothing to select or edit
    table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
    return table


def _fill_row(table: QTableWidget, r: int, name: str, va: float, vb: float,
              color: QColor | None, *, delta_shown: bool = True) -> None:
    """Row r: a signal's swatch and name (bold, without one: the total), A, B and Δ ("—" for
    a side without the signal; no Δ where two models' scores do not compare)."""
    label = QTableWidgetItem(name)
    if color is not None:
        label.setIcon(_swatch(color))
    else:
        bold = QFont(label.font())
        bold.setBold(True)
        label.setFont(bold)
    table.setItem(r, 0, label)
    delta = vb - va if delta_shown else math.nan
    for col, (value, text) in enumerate((
            (va, "—" if math.isnan(va) else f"{va:.4f}"),
            (vb, "—" if math.isnan(vb) else f"{vb:.4f}"),
            (delta, "" if math.isnan(delta) else signed(delta, 4))), 1):
        item = QTableWidgetItem(text)
        item.setData(VALUE_ROLE, value)
        item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if col == 3:
            item.setForeground(QBrush(delta_color(delta, 5e-5)))
        if color is None:
            item.setFont(label.font())
        table.setItem(r, col, item)


def _rank(r: int | None) -> str:
    return "not ranked" if r is None else f"rank {r}"


def _swatch(color: QColor, side: int = 12) -> QIcon:
    pix = QPixmap(side, side)
    pix.fill(color)
    return QIcon(pix)


def _swatch_size(h: int) -> QSize:
    side = max(8, int(h * 0.7))
    return QSize(side, side)
