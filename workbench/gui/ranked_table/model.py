"""The table model behind the ranked table: one row a ranked document, its columns' texts,
colours, tooltips and bars, refreshed from the session."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QWidget

from workbench.core.session import TuningSession
from workbench.gui.contribution_bar import CONTRIB_ROLE, SCALE_ROLE
from workbench.gui.palette import BETTER, GATED, WORSE, score_decimals, signal_hex
from workbench.gui.ranked_rows import RankedRow, bundle_cut, gate_words, model_bundles, ranked_rows
from workbench.gui.signal_names import idle_signals, signal_labels

Index = QModelIndex | QPersistentModelIndex
COLUMNS = ("rank", "Δ", "id", "title", "score", "rel", "contributions", "gate")
# each column header's tooltip, in COLUMNS' order
HEADER_HELP = (
    "the document's place in the ranking for the selected query (–: not ranked, a gate "
    "zeroed it)",
    "rank change against the pinned baseline (▲ up, ▼ down, new)",
    "the document's id in the dataset",
    "the document's title",
    "the model's score for this query at the current values (the ranking sorts by it)",
    "judged relevance (blank: not judged)",
    "contributions: each signal's contribution to the score (hatched: negative)",
    "the gate that zeroed this document; where the gates' words do not fit, its short label "
    "in every row (each cell's tooltip: 'label = code', and the reason)",
)
_R = Qt.ItemDataRole
LABEL_ROLE = Qt.ItemDataRole.UserRole + 4  # a gate's label for a narrow column (`GateElided`)
_ROLES = frozenset({int(_R.DisplayRole), int(_R.ForegroundRole), int(_R.TextAlignmentRole),
                    int(_R.ToolTipRole), int(_R.BackgroundRole), int(CONTRIB_ROLE),
                    int(SCALE_ROLE), int(LABEL_ROLE)})
# the contributions' heading where "contributions" does not fit, then where "contrib." does
# not: Σ, the bars being the score's terms ("…" alone had headed them: rv2 dr2 4)
BAR_HEADINGS = ("contrib.", "Σ")
BAR_COLUMN = 6
_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
BELOW_CUT = QColor("#f0f1f3")  # rows the bundle leaves out
CUT_PEN = QColor("#bc4c00")


class RankedTableModel(QAbstractTableModel):
    def __init__(self, session: TuningSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.rows: list[RankedRow] = []
        self._texts: list[tuple[str, ...]] = []
        self._decimals = 4  # of the score column, one for every row (`score_decimals`)
        self._bars: list[tuple[float, ...]] = []
        self._fg: list[tuple[Any, Any]] = []
        self.scale = (0.0, 1.0)
        # the model's bundle: the first `cut` ranked rows (None: no bundle, or all of them),
        # less the rows it skipped for the budget
        self.cut: int | None = None
        self.skipped: frozenset[int] = frozenset()
        self.bar_heading = COLUMNS[BAR_COLUMN]  # elided to its column's width
        self._stops: tuple[object, tuple[str, ...]] | None = None  # (result, stop reasons)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation != Qt.Orientation.Horizontal:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self.bar_heading if section == BAR_COLUMN else COLUMNS[section]
        if role == Qt.ItemDataRole.ToolTipRole:
            return HEADER_HELP[section] if 0 <= section < len(HEADER_HELP) else None
        return None

    def refresh(self) -> None:
        rows = ranked_rows(self.session)
        # per row, computed once per result: a paint asks data() ~500 times (rows × columns ×
        # roles), three paints a slider tick; Python floats, not numpy, for the delegate
        bars = [tuple(0.0 if math.isnan(v) else v for v in r.contributions.tolist())
                for r in rows]
        # the scale is the ranked rows': a gated row (not in the ranking) is drawn on it,
        # clipped at the cell's edge (memories' archived m69 had set it, the ranked rows'
        # bars shrunk to slivers)
        in_ranking = [b for b, r in zip(bars, rows, strict=True) if r.rank is not None] or bars
        lo = min((sum(v for v in b if v < 0) for b in in_ranking), default=0.0)
        hi = max((sum(v for v in b if v > 0) for b in in_ranking), default=0.0)
        lo, hi = min(lo, 0.0), max(hi, 0.0)
        same_shape = len(rows) == len(self.rows) and len(rows) > 0
        if not same_shape:
            self.beginResetModel()
        old = (self._texts, self._bars, self._fg, self.rows, self.cut, self.skipped,
               self.scale)
        self.rows = rows
        res = self.session.result  # whole numbers are the model's, not one query's
        every = None if res is None else res.scores.total
        if every is not None and rows and not np.any(every):
            # every score gated to 0 (a min score above them all): the format of what the
            # rows would have scored, their bars' sums (decision-memory's whole "0", not
            # "0.0000" for the whole table: rA 7)
            every = np.round(np.asarray([sum(b) for b in bars], dtype=float), 6)
        self._decimals = score_decimals([r.score for r in rows], every=every)
        self._texts = [tuple(self._text(r, c) for c in range(len(COLUMNS))) for r in rows]
        self._bars = bars
        self._fg = [self._foreground(r) for r in rows]
        cut, skipped, bund = bundle_cut(self.session)
        if bund is not None:
            self._stops = (self.session.result, tuple(bund.stop))
        ranked = sum(1 for r in rows if r.rank is not None)
        self.cut = cut if cut is not None and 0 <= cut < ranked else None
        self.skipped = frozenset(r for r in skipped if r < len(rows))
        self.scale = (lo, hi if hi > lo else lo + 1.0)
        if same_shape:  # a slider tick: new cells, no relayout of the view
            self._emit_changed(*old)
        else:
            self.endResetModel()

    def _emit_changed(self, texts: list[tuple[str, ...]], bars: list[tuple[float, ...]],
                      fg: list[tuple[Any, Any]], rows: list[RankedRow], cut: int | None,
                      skipped: frozenset[int], scale: tuple[float, float]) -> None:
        """dataChanged for the cells a tick changed, as runs of rows with the same changed
        columns: the view repaints those cells only (an alpha tick changes the scores and
        bars of every row but the ids and titles of the rows that moved, and the title
        column's elided text is most of a whole repaint)."""
        n = len(self.rows)
        spans: list[tuple[int, int] | None] = []
        for i in range(n):
            if fg[i] != self._fg[i] or (cut != self.cut and (rows[i].rank is None)
                                        != (self.rows[i].rank is None)) \
                    or (i in skipped) != (i in self.skipped):
                spans.append((0, len(COLUMNS) - 1))
                continue
            changed = [c for c, (a, b) in enumerate(zip(texts[i], self._texts[i],
                                                        strict=True)) if a != b]
            if bars[i] != self._bars[i] or scale != self.scale:
                changed.append(BAR_COLUMN)
            spans.append((min(changed), max(changed)) if changed else None)
        if cut != self.cut:  # the shading between the two cuts, and both cut lines (each
            # drawn along the bottom of the row above its cut)
            lo, hi = sorted((n if cut is None else cut, n if self.cut is None else self.cut))
            for i in range(max(lo - 1, 0), min(hi + 1, n)):
                spans[i] = (0, len(COLUMNS) - 1)
        start = 0
        for i in range(1, n + 1):
            if i == n or spans[i] != spans[start]:
                span = spans[start]
                if span is not None:
                    self.dataChanged.emit(self.index(start, span[0]),
                                          self.index(i - 1, span[1]))
                start = i

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
        if role == LABEL_ROLE and col == 7:
            gate, model = self.rows[row].gate, self.session.model
            return model.gate_labels.get(gate) if gate and model is not None else None
        if role == Qt.ItemDataRole.ForegroundRole:
            if row in self.skipped:  # read by the bundle, left out: muted as a gated row
                return GATED
            fg = self._fg[row]
            return fg[1] if col == 1 else fg[0]
        if role == Qt.ItemDataRole.TextAlignmentRole and col in (0, 1, 4, 5):
            return _RIGHT
        if role == Qt.ItemDataRole.BackgroundRole:
            return BELOW_CUT if (self.cut is not None and self.cut <= row
                                 and self.rows[row].rank is not None) \
                or row in self.skipped else None
        if role == Qt.ItemDataRole.ToolTipRole:
            if col == 0 and self.cut is not None and self.cut <= row and \
                    self.rows[row].rank is not None:
                return f"below the bundle cut ({self.stop_reason()})"
            if col == 0 and row in self.skipped:
                return ("skipped by the bundle: over the token budget (the next file was "
                        "tried; skip_limit)")
            return self._tooltip(self.rows[row], col)
        return None

    def stop_reason(self) -> str:
        """Why the selected query's bundle stopped; computed when first asked (a tooltip),
        once per result."""
        res = self.session.result
        if self._stops is None or self._stops[0] is not res:
            b = model_bundles(self.session)
            self._stops = (res, tuple(b.stop) if b is not None else ())
        stops = self._stops[1]
        return stops[self.session.query] if self.session.query < len(stops) else "unknown"

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
            return "" if math.isnan(r.score) else f"{r.score:.{self._decimals}f}"
        if col == 5:
            return "" if r.relevance is None else str(r.relevance)
        if col == 7:
            return gate_words(r.gate)
        return ""

    def _tooltip(self, r: RankedRow, col: int) -> str | None:
        if col == BAR_COLUMN and self.session.result is not None:
            signals = self.session.result.scores.signals
            names = signal_labels(self.session.model, signals)
            idle = idle_signals(self.session)  # 0 for every pair here: left out
            parts = [f"<span style='color:{signal_hex(i)}'>■</span> {n}: {v:.4g}"
                     for i, (n, v) in enumerate(zip(names, r.contributions, strict=False))
                     if signals[i] not in idle]
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
        if col == 7 and r.gate:
            why = self._gate_reason(r)
            # the label the column may show, said to stand for the code (rv2 dr5 5)
            model = self.session.model
            label = model.gate_labels.get(r.gate) if model is not None else None
            return ((f"{label} = {r.gate}\n" if label else "")
                    + f"zeroed by the gate {r.gate}" + (f": {why}" if why else ""))
        return None

    def _gate_reason(self, r: RankedRow) -> str:
        """The model's reason for the gate on `r` (decision-memory's "injection needs at least
        min_strong strong (exact) matches"), "" where it gives none; asked when a tooltip
        shows, not per tick."""
        s = self.session
        if s.model is None or s.prepared is None or s.dataset is None or s.needs_prepare:
            return ""
        try:
            details = s.model.explain(s.prepared, s.dataset, s.query, r.doc, s.params)
        except Exception:  # a tooltip: never a failed hover
            return ""
        reason = details.get("reason")
        return reason if isinstance(reason, str) and details.get("gate") == r.gate else ""
