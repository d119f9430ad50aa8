"""The compact read-only table of the injection diagnostics panel (its figures and its
most-injected ids): `FitTable`, as wide as its shown columns, and its cells."""

from __future__ import annotations

from collections.abc import Mapping

import pyqtgraph as pg
from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QSizePolicy,
    QTableWidget,
    QTableWidgetItem,
)

ROW_HEIGHT = 18  # px, where the height allows
ROW_LEADING = 0  # px over the font's line height: the least a row is given before it scrolls
HEADER_LEADING = 4  # px over the font's line height: the header's height


class FitTable(QTableWidget):
    """A table that asks for the width of its shown columns (no wider), and may shrink below
    it (scrolling) when the window is narrow. Its rows close up, down to the font's line
    height, so that every row stays in sight in the height it gets: the chart area keeps its
    height whatever the window's (about 160 px for a table), and 8 rows of 18 px hid the last
    behind a scroll bar there. It asks for room for a vertical scroll bar only while one is
    needed."""

    def __init__(self, rows: int, columns: int) -> None:
        super().__init__(rows, columns)
        self.needs_bar = True  # until it has a height: a vertical scroll bar's room asked

    def sizeHint(self) -> QSize:  # Qt override
        width = sum(self.columnWidth(c) for c in range(self.columnCount())
                    if not self.isColumnHidden(c))
        bar = self.verticalScrollBar().sizeHint().width() if self.needs_bar else 0
        return QSize(width + 2 * self.frameWidth() + bar, super().sizeHint().height())

    def resizeEvent(self, event: QResizeEvent) -> None:  # Qt override
        super().resizeEvent(event)
        self.fit_rows()

    def fit_rows(self) -> None:
        """Row heights that fit every row in the table's height (ROW_HEIGHT at most, the
        font's line height plus ROW_LEADING at least); a scroll bar's room asked for only
        where they cannot."""
        rows = self.rowCount()
        header = self.horizontalHeader()
        hbar = self.horizontalScrollBar()
        tall = (self.height() - 2 * self.frameWidth()
                - (header.height() if header.isVisible() else 0))
        room = tall - (hbar.height() if hbar.isVisible() else 0)
        least = self.fontMetrics().height() + ROW_LEADING
        height = max(least, min(ROW_HEIGHT, room // rows)) if rows else ROW_HEIGHT
        for r in range(rows):
            if self.rowHeight(r) != height:
                self.setRowHeight(r, height)
        # the room a vertical scroll bar would take, asked for only where the rows do not fit
        # even without a horizontal one (whose need that room itself may have made)
        needs = rows * least > tall
        if needs != self.needs_bar:
            self.needs_bar = needs
            self.fit_max_width()

    def fit_max_width(self) -> None:
        """No wider than its shown columns (and a scroll bar's room where it needs one), asked
        again whenever those change: the width fixed when it was filled had left out the
        scroll bar that a short height later needed, and the columns the window's style later
        widened, so at 1,280 px with no baseline the tables read "Curren", "3.", and scrolled
        sideways (dG 8)."""
        width = self.sizeHint().width()
        if width != self.maximumWidth():
            self.setMaximumWidth(width)
        self.updateGeometry()

    def minimumSizeHint(self) -> QSize:  # Qt override
        return QSize(160, super().minimumSizeHint().height())


def fit_table(columns: tuple[str, ...], help: Mapping[str, str] | None = None) -> FitTable:
    """An empty read-only table with these column headers (each with its `help` as its
    tooltip), rows ROW_HEIGHT high."""
    t = FitTable(0, len(columns))
    t.setHorizontalHeaderLabels(columns)
    for i, name in enumerate(columns):
        item = t.horizontalHeaderItem(i)
        if help and name in help and item is not None:
            item.setToolTip(help[name])
    t.verticalHeader().setVisible(False)
    t.verticalHeader().setMinimumSectionSize(t.fontMetrics().height() + ROW_LEADING)
    t.verticalHeader().setDefaultSectionSize(ROW_HEIGHT)
    t.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    t.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
    t.setAlternatingRowColors(True)
    t.setWordWrap(False)
    t.setStyleSheet("QTableView::item { padding: 0px 4px; } "
                    "QHeaderView::section { padding: 1px 4px; }")
    header = t.horizontalHeader()
    # a line and a little: the style's own (23 px) took a row's room from the figures
    header.setFixedHeight(t.fontMetrics().height() + HEADER_LEADING)
    for i in range(len(columns)):
        header.setSectionResizeMode(i, QHeaderView.ResizeMode.ResizeToContents)
    header.sectionResized.connect(lambda *_: t.fit_max_width())
    t.setSizePolicy(QSizePolicy.Policy.Maximum, QSizePolicy.Policy.Expanding)
    return t


def fit_width(t: QTableWidget) -> None:
    """Ask the layout again for the table's width, now that its columns are filled (and its
    rows their height)."""
    if isinstance(t, FitTable):
        t.fit_rows()
        t.fit_max_width()
        return
    t.setMaximumWidth(t.sizeHint().width())
    t.updateGeometry()


def cell(text: str, right: bool = True, color: str | None = None) -> QTableWidgetItem:
    """A cell's item: right-aligned unless `right` is False, in `color` if given."""
    item = QTableWidgetItem(text)
    if right:
        item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
    if color:
        item.setForeground(pg.mkColor(color))
    return item
