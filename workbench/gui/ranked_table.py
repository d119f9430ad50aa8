"""The ranked table for the selected query: rank, change against the baseline, id, title,
score, judged relevance, the stacked bar of signal contributions, and the gate that zeroed a
document; selecting rows selects the session's documents."""

from __future__ import annotations

import math
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QItemSelectionModel,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QSizePolicy,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from workbench.core.session import TuningSession

from .bind import subscribe_many
from .contribution_bar import CONTRIB_ROLE, SCALE_ROLE, ContributionDelegate
from .palette import BETTER, GATED, WORSE, signal_hex
from .ranked_rows import RankedRow, left_top_k, ranked_rows

Index = QModelIndex | QPersistentModelIndex
COLUMNS = ("rank", "Δ", "id", "title", "score", "rel", "contributions", "gate")
_R = Qt.ItemDataRole
_ROLES = frozenset({int(_R.DisplayRole), int(_R.ForegroundRole), int(_R.TextAlignmentRole),
                    int(_R.ToolTipRole), int(CONTRIB_ROLE), int(SCALE_ROLE)})
BAR_COLUMN = 6
_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)


class RankedTableModel(QAbstractTableModel):
    def __init__(self, session: TuningSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.rows: list[RankedRow] = []
        self._texts: list[tuple[str, ...]] = []
        self._bars: list[tuple[float, ...]] = []
        self._fg: list[tuple[Any, Any]] = []
        self.scale = (0.0, 1.0)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation != Qt.Orientation.Horizontal:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return COLUMNS[section]
        if role == Qt.ItemDataRole.ToolTipRole:
            return {1: "rank change against the pinned baseline (▲ up, ▼ down, new)",
                    5: "judged relevance (blank: not judged)",
                    6: "each signal's contribution to the score (hatched: negative)",
                    7: "the gate that zeroed this document"}.get(section)
        return None

    def refresh(self) -> None:
        rows = ranked_rows(self.session)
        # per row, computed once per result: a paint asks data() ~500 times (rows × columns ×
        # roles), three paints a slider tick; Python floats, not numpy, for the delegate
        bars = [tuple(0.0 if math.isnan(v) else v for v in r.contributions.tolist())
                for r in rows]
        lo = min((sum(v for v in b if v < 0) for b in bars), default=0.0)
        hi = max((sum(v for v in b if v > 0) for b in bars), default=0.0)
        lo, hi = min(lo, 0.0), max(hi, 0.0)
        same_shape = len(rows) == len(self.rows) and len(rows) > 0
        if not same_shape:
            self.beginResetModel()
        self.rows = rows
        self._texts = [tuple(self._text(r, c) for c in range(len(COLUMNS))) for r in rows]
        self._bars = bars
        self._fg = [self._foreground(r) for r in rows]
        self.scale = (lo, hi if hi > lo else lo + 1.0)
        if same_shape:  # a slider tick: new cells, no relayout of the view
            self.dataChanged.emit(self.index(0, 0),
                                  self.index(len(rows) - 1, len(COLUMNS) - 1))
        else:
            self.endResetModel()

    @staticmethod
    def _foreground(r: RankedRow) -> tuple[Any, Any]:
        """(every column, the Δ column) foreground of a row."""
        if r.rank is None:
            return GATED, GATED
        if r.has_baseline:
            v = r.change_value
            return None, BETTER if v > 0 else WORSE if v < 0 else None
        return None, None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if int(role) not in _ROLES or not index.isValid():
            return None
        row, col = index.row(), index.column()
        if row >= len(self.rows):
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self._texts[row][col]
        if role == CONTRIB_ROLE and col == BAR_COLUMN:
            return self._bars[row]
        if role == SCALE_ROLE and col == BAR_COLUMN:
            return self.scale
        if role == Qt.ItemDataRole.ForegroundRole:
            fg = self._fg[row]
            return fg[1] if col == 1 else fg[0]
        if role == Qt.ItemDataRole.TextAlignmentRole and col in (0, 1, 4, 5):
            return _RIGHT
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tooltip(self.rows[row], col)
        return None

    def _text(self, r: RankedRow, col: int) -> str:
        if col == 0:
            return "–" if r.rank is None else str(r.rank)
        if col == 1:
            return r.change
        if col == 2:
            return r.doc_id
        if col == 3:
            return r.title
        if col == 4:
            return "" if math.isnan(r.score) else f"{r.score:.4g}"
        if col == 5:
            return "" if r.relevance is None else str(r.relevance)
        if col == 7:
            return r.gate
        return ""

    def _tooltip(self, r: RankedRow, col: int) -> str | None:
        if col == BAR_COLUMN and self.session.result is not None:
            names = self.session.result.scores.signals
            parts = [f"<span style='color:{signal_hex(i)}'>■</span> {n}: {v:.4g}"
                     for i, (n, v) in enumerate(zip(names, r.contributions, strict=False))]
            return "<br>".join(parts)
        if col == 1 and r.has_baseline:
            k = self.session.k
            if r.baseline_rank is None:
                return "not in the baseline's ranking"
            if r.rank is not None and r.rank <= k < r.baseline_rank:
                return f"entered the top {k} (baseline rank {r.baseline_rank})"
            return f"baseline rank {r.baseline_rank}"
        if col == 3:
            return r.title
        return None


class RankedTable(QWidget):
    """A legend and summary line above the table of the selected query's ranking."""

    def __init__(self, session: TuningSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.summary = QLabel(self)
        self.summary.setTextFormat(Qt.TextFormat.RichText)
        # two lines, never wrapped: a summary that changed height on every slider tick would
        # re-lay out the whole window
        self.summary.setWordWrap(False)
        self.summary.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.summary.setFixedHeight(2 * self.summary.fontMetrics().lineSpacing() + 6)
        self.model = RankedTableModel(session, self)
        self.view = QTableView(self)
        self.view.setModel(self.model)
        self.view.setItemDelegateForColumn(BAR_COLUMN, ContributionDelegate(self.view))
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.view.verticalHeader().hide()
        self.view.verticalHeader().setDefaultSectionSize(22)
        self.view.setWordWrap(False)
        # fixed widths from the font, the id column measured once per dataset: ResizeToContents
        # would measure every row again on every slider tick
        header = self.view.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        fm = self.view.fontMetrics()
        for col, sample in ((0, "rank"), (1, "▼100"), (4, "00.0000"), (5, "rel"),
                            (BAR_COLUMN, "x" * 22), (7, "missing_word")):
            header.resizeSection(col, fm.horizontalAdvance(sample) + 16)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.summary)
        layout.addWidget(self.view)
        self.view.selectionModel().selectionChanged.connect(self._on_selection)
        subscribe_many(self, [
            (session.result_changed, self.refresh),
            (session.query_changed, self.refresh),
            (session.baseline_changed, self.refresh),
            (session.dataset_changed, self._on_dataset_changed),
            (session.docs_changed, self._on_docs_changed),
        ])
        self.refresh()

    def _on_dataset_changed(self, *_: object) -> None:
        ds = self.session.dataset
        if ds is not None and len(ds.corpus):
            fm = self.view.fontMetrics()
            widest = max(fm.horizontalAdvance(d.id) for d in ds.corpus.documents[:2000])
            self.view.setColumnWidth(2, min(widest + 16, 200))
        self.refresh()

    def refresh(self, *_: object) -> None:
        self.model.refresh()
        # the gate column only while a gated document is listed
        self.view.setColumnHidden(7, not any(r.gate for r in self.model.rows))
        self._update_summary()
        self._on_docs_changed(self.session.docs)

    def _update_summary(self) -> None:
        s = self.session
        if s.dataset is None or s.result is None or not len(s.dataset.queries):
            self.summary.setText("<i>no ranking yet</i>")
            return
        q = s.dataset.queries[s.query]
        legend = " ".join(f"<span style='color:{signal_hex(i)}'>■</span>&nbsp;{name}"
                          for i, name in enumerate(s.result.scores.signals))
        text = (f"<b>{_esc(q.id)}</b> {_esc(_clip(q.text, 140))}<br>"
                f"<span style='color:#57606a'>signals:</span> {legend}")
        left = left_top_k(s)
        if left:
            text += (f" &nbsp; <span style='color:#c0392b'>left the top {s.k}: "
                     f"{_esc(', '.join(left[:6]))}{' …' if len(left) > 6 else ''}</span>")
        if text != self.summary.text():  # unchanged on most ticks: no relayout of the label
            self.summary.setText(text)

    def _on_selection(self, *_: object) -> None:
        rows = sorted({i.row() for i in self.view.selectionModel().selectedRows()})
        docs = [self.model.rows[r].doc for r in rows if r < len(self.model.rows)]
        self.session.select_docs(docs)

    def _on_docs_changed(self, docs: object) -> None:
        wanted = set(docs) if isinstance(docs, tuple) else set()
        sel = self.view.selectionModel()
        current = {self.model.rows[i.row()].doc for i in sel.selectedRows()
                   if i.row() < len(self.model.rows)}
        if current == wanted:
            return
        sel.blockSignals(True)
        self.view.clearSelection()
        for r, row in enumerate(self.model.rows):
            if row.doc in wanted:
                sel.select(self.model.index(r, 0),
                           QItemSelectionModel.SelectionFlag.Select
                           | QItemSelectionModel.SelectionFlag.Rows)
        sel.blockSignals(False)
        self.view.viewport().update()


def _esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _clip(text: str, n: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[: n - 1] + "…"
