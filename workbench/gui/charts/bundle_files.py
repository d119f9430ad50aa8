"""The bundle panel's file table: its columns (rank, ±, file, score, tokens, stages, needed,
note), `files_table` that builds it and `fill_files` that fills it with a bundle view's rows."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QTableWidget,
    QTableWidgetItem,
)

from workbench.gui.palette import BETTER, WORSE

from ._base import MUTED
from .bundle_view import STAGE_MEANING, STAGE_SHORT, Row

COLUMNS = ("Rank", "±", "File", "Score", "Tokens", "Stages", "Needed", "Note")
SECTION_BG = QColor("#f6f8fa")


def files_table() -> QTableWidget:
    """The empty table: single rows selectable, read-only, the headers' tooltips set."""
    table = QTableWidget(0, len(COLUMNS))
    table.setHorizontalHeaderLabels(COLUMNS)
    table.verticalHeader().setVisible(False)
    table.verticalHeader().setMinimumSectionSize(18)
    table.verticalHeader().setDefaultSectionSize(18)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    table.setWordWrap(False)
    table.setStyleSheet("QTableView::item { padding: 0px 4px; }")
    header = table.horizontalHeader()
    for i in range(len(COLUMNS)):
        header.setSectionResizeMode(i, QHeaderView.ResizeMode.ResizeToContents)
    header.setSectionResizeMode(len(COLUMNS) - 1, QHeaderView.ResizeMode.Stretch)
    for name, tip in (("Stages", stages_legend()),
                      ("±", "Against the pinned baseline's bundle: + entered, − left"),
                      ("Needed", "✓ when the task's judgments list the file"),
                      ("Note", "The excerpt a file is cut to (blank: the whole file), why a "
                               "file was skipped, the tokens a file below the cut would "
                               "bring, why a needed file is not in the bundle")):
        head = table.horizontalHeaderItem(COLUMNS.index(name))
        if head is not None:
            head.setToolTip(tip)
    return table


def fill_files(t: QTableWidget, rows: list[Row]) -> None:
    """Fill the table with these rows; a section line spans the row."""
    t.clearSpans()
    t.setRowCount(len(rows))
    muted = QColor(MUTED)
    for r, row in enumerate(rows):
        if row.kind == "section":
            item = QTableWidgetItem(row.path)
            item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
            item.setForeground(QBrush(muted))
            item.setBackground(QBrush(SECTION_BG))
            item.setFlags(Qt.ItemFlag.ItemIsEnabled)
            t.setItem(r, 0, item)
            for c in range(1, len(COLUMNS)):
                t.setItem(r, c, QTableWidgetItem(""))
            t.setSpan(r, 0, 1, len(COLUMNS))
            continue
        cells = row_cells(row)
        for c, text in enumerate(cells):
            item = QTableWidgetItem(text)
            if c in (0, 3, 4):
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight
                                      | Qt.AlignmentFlag.AlignVCenter)
            elif c in (1, 6):
                item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
            if c == 1 and text:
                item.setForeground(QBrush(BETTER if text == "+" else WORSE))
                f = QFont(item.font())
                f.setBold(True)
                item.setFont(f)
            elif c == 6 and text:
                item.setForeground(QBrush(BETTER if row.kind == "bundle" else WORSE))
            elif row.kind != "bundle":
                item.setForeground(QBrush(muted))
            if c == 2:
                item.setToolTip(row.path)
            elif c == COLUMNS.index("Stages") and row.stages:  # "kw hot" in words
                item.setToolTip(stages_text(row.stages))
            t.setItem(r, c, item)


def stages_legend() -> str:
    """The Stages heading's tooltip: each abbreviation spelt out, with what brings a file in
    at that stage (rn 7: "kw hot fan" had no legend a reader could find)."""
    rows = "".join(f"<tr><td><b>{short}</b></td><td>{STAGE_MEANING[stage][0]}:</td>"
                   f"<td>{STAGE_MEANING[stage][1]}</td></tr>"
                   for stage, short in STAGE_SHORT.items())
    return ("<p>The candidate stages that brought the file into the ranking:</p>"
            f"<table cellspacing='0' cellpadding='2'>{rows}</table>")


def stages_text(stages: tuple[str, ...]) -> str:
    """A row's stages in words, its cell's tooltip: "keyword, hot zone, similar commits"."""
    return "stages: " + ", ".join(STAGE_MEANING[x][0] if x in STAGE_MEANING
                                  else x.replace("_", " ") for x in stages)


def row_cells(row: Row) -> tuple[str, ...]:
    """A file row's texts, one per column."""
    return ("" if row.rank is None else str(row.rank), row.mark, row.path,
            "" if row.score is None else f"{row.score:.3f}",
            "" if row.tokens is None else f"{row.tokens:,.0f}",
            " ".join(STAGE_SHORT.get(x, x) for x in row.stages),
            "✓" if row.needed else "", row.note)
