"""The compact read-only table of the injection diagnostics panel (its figures and its
most-injected ids): `FitTable`, as wide as its shown columns, and its cells."""

from __future__ import annotations

from collections.abc import Mapping

import pyqtgraph as pg
from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QSizePolicy,
    QTableWidget,
    QTableWidgetItem,
)

ROW_HEIGHT = 18


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


def cell(text: str, right: bool = True, color: str | None = None) -> QTableWidgetItem:
    """A cell's item: right-aligned unless `right` is False, in `color` if given."""
    item = QTableWidgetItem(text)
    if right:
        item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
    if color:
        item.setForeground(pg.mkColor(color))
    return item
