"""The query list: id, text, the query's metric (nDCG@k) and its change against the baseline;
sortable, filterable; clicking a row selects the session's query."""

from __future__ import annotations

import math
import re
from typing import Any

import numpy as np
from PySide6.QtCore import (
    QAbstractTableModel,
    QEvent,
    QItemSelectionModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QRect,
    QSortFilterProxyModel,
    Qt,
)
from PySide6.QtGui import (
    QAction,
    QColor,
    QFont,
    QFontMetrics,
    QKeyEvent,
    QKeySequence,
    QPainter,
    QPalette,
    QResizeEvent,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLineEdit,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from workbench.core.cases import CaseResult, check_cases, has_cases
from workbench.core.data import Dataset
from workbench.core.session import TuningSession
from workbench.report.text import metric_meaning

from .bind import subscribe_many
from .elided import TEXT_MARGIN, MiddleElided
from .palette import GATED, WORSE, delta_color, signed
from .throttle import IdleThrottle

SORT_ROLE = Qt.ItemDataRole.UserRole + 1
ASIDE = GATED  # the metric and Δ of a query the live values were tuned on: not counted
Index = QModelIndex | QPersistentModelIndex
_R = Qt.ItemDataRole
# the roles answered; every other role (asked for each visible cell on every paint) returns at
# once, without touching the arrays
_ROLES = frozenset({int(_R.DisplayRole), int(SORT_ROLE), int(_R.ForegroundRole),
                    int(_R.TextAlignmentRole), int(_R.ToolTipRole), int(_R.BackgroundRole)})
FAIL_BG = QColor("#ffebe9")  # a failing eval case's id, as the Eval cases tab marks FAIL


_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)


class QueryTableModel(QAbstractTableModel):
    """Rows are the dataset's queries in order; columns id, text, metric, Δ."""

    COLUMNS = ("id", "query", "nDCG", "Δ")
    HELP = ("the query's id in the dataset; a commit id too long for the column shows the "
            "start that tells it apart from the others and \"…\" (the whole id is each "
            "cell's tooltip)",
            "the query's text (the whole text is each cell's tooltip); click a header to sort",
            "",  # the metric's meaning, at the k in use
            "change of the query's nDCG against the pinned baseline")

    def __init__(self, session: TuningSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        # the metric's heading in a smaller font where the list is narrow (`QueryList._fit`):
        # "nDCG@10" held its column at 80 px for values of five characters; cut to "nDCG" it
        # lost the k the values change with (rA 10)
        self.short_header = False
        self.small_font: QFont | None = None  # that font (`QueryList`), semi-bold
        self.blank = -1  # the section `SmallHeadings` is painting: its text its own
        # the metric's column left out where the list is narrow and Δ shows (`_fit_numbers`):
        # Δ's heading names the metric ("Δ nDCG"), each Δ's tooltip gives the value
        self.metric_hidden = False
        # Δ's column left out instead where the list is narrow and sorted by the metric: each
        # value's tooltip gives its Δ
        self.delta_hidden = False
        # the query's heading as it fits its column (`QueryList._fit_query_heading`): centred,
        # a heading wider than its column was cut at both sides ("|uer")
        self.query_heading = self.COLUMNS[1]
        self.sorted_column = -1  # the column the list is sorted by (its arrow shown), or -1
        self._metric = np.zeros(0)
        self._delta = np.zeros(0)
        self._aside: list[bool] = []  # judged, but tuned on: the strip does not count it
        # eval cases (decisions-eval): each case's verdict by row, its id red where it fails —
        # nDCG@10 read 1.000 for failing cases and nothing in the list said pass or fail (rA 3)
        self._has_cases = False
        self._cases: dict[int, CaseResult] = {}
        self._rows = 0  # asked ~1,000 times per paint: kept, not recomputed

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 (Qt signature)
        return 0 if parent.isValid() else self._rows

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            if section == self.blank:  # drawn in the small font by `SmallHeadings`
                return ""
            if section == 2:
                return self.metric_name()
            if section == 3:
                return self.delta_heading()
            return self.query_heading if section == 1 else self.COLUMNS[section]
        if role == Qt.ItemDataRole.TextAlignmentRole and section in (2, 3) \
                and section == self.sorted_column and orientation == Qt.Orientation.Horizontal:
            # at the left, clear of the sort arrow at the right (centred, it took the "G")
            return int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ToolTipRole and orientation == Qt.Orientation.Horizontal:
            if section == 2 and self.delta_hidden:
                return (f"{self.metric_name()}: {metric_meaning(self.metric_id())} (the Δ "
                        "column is left out where the list is this narrow and sorted by "
                        f"{self.metric_name()}: each value's tooltip gives its Δ)")
            if section == 2:
                return f"{self.metric_name()}: {metric_meaning(self.metric_id())}"
            if section == 3 and self.metric_hidden:
                return (f"{self.HELP[3]} (the {self.metric_name()} column is left out where "
                        "the list is this narrow: each Δ's tooltip gives the value)")
            return self.HELP[section] if 0 <= section < len(self.HELP) else None
        return None

    def small_heading(self, section: int) -> str:
        """The heading drawn in the small font ("nDCG@10", "Δ nDCG@10"), or ""."""
        if section == 2 and self.short_header:
            return self.metric_name()
        if section == 3 and self.metric_hidden:
            return self.delta_heading()
        return ""

    def metric_name(self) -> str:
        return f"nDCG@{self.session.k}"

    def delta_heading(self) -> str:
        """Δ's heading: "Δ", or with the metric's column left out "Δ nDCG@10" in the small
        font (nothing else on screen said whose change it was, and the ranked table has a Δ of
        its own)."""
        return f"Δ {self.metric_name()}" if self.metric_hidden else "Δ"

    def metric_id(self) -> str:
        return f"ndcg@{self.session.k}"

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if int(role) not in _ROLES:
            return None
        ds = self.session.dataset
        if ds is None or not index.isValid():
            return None
        row, col = index.row(), index.column()
        if role == _R.TextAlignmentRole:
            return _RIGHT if col >= 2 else None
        q = ds.queries[row]
        value = self._metric[row] if row < len(self._metric) else math.nan
        delta = self._delta[row] if row < len(self._delta) else math.nan
        if role == Qt.ItemDataRole.DisplayRole:
            if col == 0:
                return q.id
            if col == 1:
                return q.text.replace("\n", " ")[:200]
            if col == 2:
                return "" if math.isnan(value) else f"{value:.3f}"
            return "" if math.isnan(delta) else signed(delta)
        if role == SORT_ROLE:
            if col == 0:
                return q.id
            if col == 1:
                return q.text
            v = value if col == 2 else delta
            return -math.inf if math.isnan(v) else float(v)
        case = self._cases.get(row) if col == 0 else None
        if case is not None and not case.passed:
            if role == Qt.ItemDataRole.ForegroundRole:
                return WORSE
            if role == Qt.ItemDataRole.BackgroundRole:
                return FAIL_BG
        if role == Qt.ItemDataRole.ToolTipRole and case is not None:
            return f"{q.id}\n{case_text(case)}"
        aside = col >= 2 and row < len(self._aside) and self._aside[row]
        if role == Qt.ItemDataRole.ForegroundRole and aside:
            return ASIDE
        if role == Qt.ItemDataRole.ForegroundRole and col == 3 and not math.isnan(delta):
            return delta_color(delta)
        if role == Qt.ItemDataRole.ToolTipRole and aside:
            return ("tuned on: a training score, which the metric strip does not count "
                    f"({self.session.held_out().note})")
        if role == Qt.ItemDataRole.ToolTipRole and col == 1:
            return q.text
        if role == Qt.ItemDataRole.ToolTipRole and col == 0:
            return q.id
        if role == Qt.ItemDataRole.ToolTipRole and col == 3 and self.metric_hidden \
                and not math.isnan(delta):  # the metric's column left out: its value here
            return f"{self.metric_name()} {value:.3f}, the baseline's {value - delta:.3f}"
        if role == Qt.ItemDataRole.ToolTipRole and col == 2 and self.delta_hidden \
                and not math.isnan(delta):  # Δ's column left out: the change here
            return f"Δ {signed(delta)} against the baseline's {value - delta:.3f}"
        return None

    def reset(self) -> None:
        self.beginResetModel()
        ds = self.session.dataset
        self._rows = 0 if ds is None else len(ds.queries)
        self._has_cases = ds is not None and has_cases(ds)
        self._refresh_arrays()
        self.endResetModel()

    def refresh_values(self) -> None:
        self._refresh_arrays()
        n = self.rowCount()
        if n:
            self.dataChanged.emit(self.index(0, 0 if self._has_cases else 2),
                                  self.index(n - 1, 3))
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, 2, 2)

    def _refresh_arrays(self) -> None:
        s = self.session
        n = 0 if s.dataset is None else len(s.dataset.queries)
        name = s.metric_names[0]
        res = s.result
        cur = res.per_query.get(name) if res is not None else None
        self._metric = np.full(n, np.nan) if cur is None or len(cur) != n else cur
        base = s.baseline.result.per_query.get(name) if s.baseline is not None else None
        ok = base is not None and cur is not None and len(base) == n
        self._delta = (cur - base) if ok else np.full(n, np.nan)  # type: ignore[operator]
        if s.judgments is not None and len(self._metric) == n:
            mask = ~s.judgments.judged_mask
            self._metric = np.where(mask, np.nan, self._metric)
            self._delta = np.where(mask, np.nan, self._delta)
        held = s.held_out().mask
        self._aside = ([] if held is None or s.judgments is None or len(held) != n else
                       (s.judgments.judged_mask & ~held).tolist())
        self._cases = {}
        if self._has_cases and s.dataset is not None and res is not None:
            index = s.dataset.queries.index
            self._cases = {index[c.query]: c for c in check_cases(s.dataset, res.ranking).cases
                           if c.query in index}
        # Python floats: data() runs per visible cell per paint, numpy scalars cost more there
        self._metric = self._metric.tolist()  # type: ignore[assignment]
        self._delta = self._delta.tolist()  # type: ignore[assignment]


def case_text(case: CaseResult) -> str:
    """An eval case's verdict for its id's tooltip, as the Eval cases tab says it: "pass", or
    "FAIL — missing qm-049; forbidden found hb-002"."""
    if case.passed:
        return "eval case: pass (every expected id in its top K, no forbidden one)"
    why = "; ".join(part for part in (
        f"missing {', '.join(case.missing)}" if case.missing else "",
        f"forbidden found {', '.join(case.forbidden)}" if case.forbidden else "") if part)
    return f"eval case: FAIL — {why} (red in the list; the Eval cases tab lists every case)"


class SmallHeadings(QHeaderView):
    """The list's header, its narrow metric heading ("nDCG@10") drawn in the small font: the
    style sheet's section font (semi-bold) overrode a smaller font the model gave."""

    def __init__(self, model: QueryTableModel, parent: QWidget | None = None) -> None:
        super().__init__(Qt.Orientation.Horizontal, parent)
        self._queries = model
        self.setSectionsClickable(True)
        self.setHighlightSections(True)

    def paintSection(self, painter: QPainter, rect: QRect,  # Qt override
                     logicalIndex: int) -> None:
        model = self._queries
        text = model.small_heading(logicalIndex)
        if not text or model.small_font is None:
            super().paintSection(painter, rect, logicalIndex)
            return
        model.blank = logicalIndex
        try:
            super().paintSection(painter, rect, logicalIndex)  # its frame and sort arrow
        finally:
            model.blank = -1
        sorted_here = model.sorted_column == logicalIndex
        room = rect.adjusted(SMALL_PAD, 0,
                             -SMALL_PAD - (sort_arrow_width(self) if sorted_here else 0), 0)
        align = (Qt.AlignmentFlag.AlignLeft if sorted_here else Qt.AlignmentFlag.AlignHCenter) \
            | Qt.AlignmentFlag.AlignVCenter
        painter.save()
        painter.setFont(model.small_font)
        painter.setPen(self.palette().color(QPalette.ColorRole.ButtonText))
        painter.drawText(room, int(align), text)
        painter.restore()


class QueryFilter(QSortFilterProxyModel):
    """Keeps the rows whose id or text contains the filter text (case-insensitive)."""

    def filterAcceptsRow(self, source_row: int, source_parent: Index) -> bool:
        needle = self.filterRegularExpression().pattern().lower()
        if not needle:
            return True
        src = self.sourceModel()
        for col in (0, 1):
            text = str(src.data(src.index(source_row, col, source_parent),
                                Qt.ItemDataRole.ToolTipRole if col == 1 else
                                Qt.ItemDataRole.DisplayRole) or "")
            if needle in text.lower():
                return True
        return False


def placeholder(ds: Dataset | None) -> str:
    """The typing box's hint, in the data's word for its queries (`dataset_nouns`; rn 6:
    "Type a query or task" beside a header that said queries and a panel that said tasks)."""
    if ds is None:
        return "Type a query, press Enter to rank it"
    from workbench.core.tuning.data import dataset_nouns, one_of  # not optuna at start-up

    many = dataset_nouns(ds)[1]
    # a typed row on case data has no expectations: it is a query, not a case (dA 1)
    return f"Type a {'query' if many == 'cases' else one_of(many)}, press Enter to rank it"


def filter_hint(ds: Dataset | None) -> str:
    """The filter box's hint, in the same word as the header's count (dA 2)."""
    if ds is None:
        return "Filter queries (Ctrl+F)"
    from workbench.core.tuning.data import dataset_nouns  # not optuna at start-up

    return f"Filter {dataset_nouns(ds)[1]} (Ctrl+F)"


class QueryList(QWidget):
    """Filter box above a sortable table of the dataset's queries."""

    def __init__(self, session: TuningSession, parent: QWidget | None = None, *,
                 throttle_ms: int = 0) -> None:
        """`throttle_ms` > 0: while results stream in (a slider drag), refresh the column of
        per-query values at most that often — re-sorting every query per tick would cost the
        ranked table its repaint budget; 0 refreshes on every result (tests)."""
        super().__init__(parent)
        self.session = session
        # during a drag the refresh runs while the next result computes (see throttle.py)
        self._throttle = IdleThrottle(session, self._refresh_values, throttle_ms, self)
        self.filter_edit = QLineEdit(self)
        self.filter_edit.setAccessibleName("Filter queries")
        self.filter_edit.setPlaceholderText("Filter queries (Ctrl+F)")
        self.filter_edit.setClearButtonEnabled(True)
        self.model = QueryTableModel(session, self)
        self.proxy = QueryFilter(self)
        self.proxy.setSourceModel(self.model)
        self.proxy.setSortRole(SORT_ROLE)
        self.view = QTableView(self)
        self.view.setHorizontalHeader(SmallHeadings(self.model, self.view))
        self.view.setAccessibleName("Queries")
        self.view.setModel(self.proxy)
        self.model.small_font = small_heading_font(self.view.horizontalHeader().font())
        self.view.setSortingEnabled(True)
        self.view.sortByColumn(-1, Qt.SortOrder.AscendingOrder)  # dataset order until asked
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.view.setTabKeyNavigation(False)  # Tab leaves the list (arrows move in it)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.view.verticalHeader().hide()
        self.view.verticalHeader().setDefaultSectionSize(22)
        self.view.setWordWrap(False)
        self.id_delegate = IdElided(self.view)
        self.view.setItemDelegateForColumn(0, self.id_delegate)
        self._id_content = 1 << 20  # the id column's content width (measured per dataset)
        self._id_floor = 0  # the least it shows every id in (measured per dataset)
        self._hash_ids = True  # every id a hash or a number
        # widths measured once per dataset, not per result: ResizeToContents re-measures every
        # row on every slider tick (tens of ms on 300 queries)
        header = self.view.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        header.setMinimumSectionSize(40)
        # sorted by the metric, its column keeps room for the arrow (`_metric_need`)
        header.sortIndicatorChanged.connect(self._on_sorted)
        header.sectionResized.connect(self._fit_query_heading)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.filter_edit)
        layout.addWidget(self.view)
        # a query (or coding task) of the user's own, ranked beside the dataset's
        self.ask_edit = QLineEdit(self)
        self.ask_edit.setAccessibleName("Type a query or task to rank")
        self.ask_edit.setPlaceholderText(placeholder(None))
        self.ask_edit.setToolTip("Adds an unjudged query to the set (with the selected "
                                 "query's context: cwd, clock, case) and selects it; the "
                                 "model prepares again, a pinned baseline is kept.")
        self.ask_edit.returnPressed.connect(self._on_ask)
        layout.addWidget(self.ask_edit)
        # a typed query taken out again (Delete, or the list's context menu): they had piled
        # up, each probe kept and written into every session file
        self.remove_typed = QAction("Remove typed query", self.view)
        self.remove_typed.setShortcut(QKeySequence(QKeySequence.StandardKey.Delete))
        self.remove_typed.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        self.remove_typed.setToolTip("take the selected typed query out of the list "
                                     "(queries read with the data stay)")
        self.remove_typed.triggered.connect(lambda *_: self._remove_typed())
        self.view.addAction(self.remove_typed)
        self.view.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        # Down or Enter in the filter go to the matches, Escape clears it (they did nothing)
        self.filter_edit.installEventFilter(self)
        self.filter_edit.returnPressed.connect(self._to_matches)
        self._filtering = False
        self.filter_edit.textChanged.connect(self._on_filter)
        self.view.selectionModel().currentRowChanged.connect(self._on_current)
        subscribe_many(self, [
            (session.dataset_changed, self._on_dataset_changed),
            (session.result_changed, self._on_values_changed),
            (session.baseline_changed, self._on_values_changed),
            (session.baseline_changed, self._show_delta),
            (session.k_changed, self._on_values_changed),
            (session.k_changed, self._on_k_changed),
            (session.query_changed, self._on_query_changed),
        ])
        self._on_dataset_changed()

    def _on_dataset_changed(self, *_: object) -> None:
        self.model.reset()
        # the query's text takes the stretch; the id its content, whole where the text keeps
        # ten characters beside it, else its least (`_fit_id`); the full id is the tooltip
        ds, s = self.session.dataset, self.session
        self.ask_edit.setPlaceholderText(placeholder(ds))
        self.filter_edit.setPlaceholderText(filter_hint(ds))
        self.filter_edit.setAccessibleName(filter_hint(ds).removesuffix(" (Ctrl+F)"))
        ids = [q.id for q in ds.queries] if ds is not None else []
        # commit-like ids (code-repo's c885591bbb0 …) cut to a prefix that tells them apart
        # from the dataset's other ids, where cut at all: in the middle they read "c8…b0".
        # Over the ids read with the data: a typed one ("typed-1") is shown whole and does
        # not switch it off for the others
        typed = {q.id for q in s.typed}
        self.id_delegate.short = short_ids([i for i in ids if i not in typed])
        fm = self.view.fontMetrics()
        pad = 2 * TEXT_MARGIN + 2
        # the widest id whole in its cell: the size hint (7 px about the text) fell a px short
        # of the elider's margins, and "turn-10" showed as "tu…10" beside 230 px of text
        self._id_content = max(self.view.horizontalHeader().sectionSizeHint(0),
                               max((fm.horizontalAdvance(i) for i in ids[:1000]), default=0)
                               + pad)
        # the least it shows: an id of eight characters or fewer whole, a commit-like one
        # its start and "…" (`short_ids`), a longer one four characters and "…" (`IdElided`)
        self._id_floor = min(self._id_content, max(
            [_id_least(fm)] + [fm.horizontalAdvance(i) + pad for i in ids[:1000] if len(i) <= 8]
            + [fm.horizontalAdvance(cut + "…") + pad
               for cut in self.id_delegate.short.values()]))
        self._hash_ids = ds is None or all(HASH_ID.fullmatch(i) for i in ids[:200])
        # no judgments, no metric: the query's text gets those columns' room (`_fit_numbers`)
        self._show_delta()
        self._on_query_changed(self.session.query)

    def _fit_id(self) -> None:
        """The id column: whole where the query's text keeps ten characters beside it, else
        its least (`_id_floor`): ids of eight characters or fewer whole, a commit-like one
        its prefix and "…" (`short_ids`), others four characters. Where even that leaves the
        text less than ten characters (a narrow list, a sort arrow's room), the id gives way
        further, to three characters and "…" (`_id_stub`). Hash ids that are not
        commit-like (numbers) go no wider than eight characters, ids that are words
        ("idempotency-key") up to half the room they share with the text. The number
        columns first (`_fit_numbers`). Ids of words keep half the room, up to twelve
        characters (`_id_words`), even where the text then keeps fewer than ten."""
        fm = self.view.fontMetrics()
        self._fit_numbers(fm)  # first: one of them gives way where the list is narrow
        others = sum(self.view.columnWidth(c) for c in (2, 3) if not self.view.isColumnHidden(c))
        room = self.width() - self._chrome() - others  # for the id and the text
        spare = room - _text_width(fm)
        if self.id_delegate.short:
            cap = self._id_content
        elif self._hash_ids:
            cap = id_column_cap(fm)
        else:  # words are read, not told apart by their start ("in…ey" beside wide text)
            cap = max(id_column_cap(fm), room // 2)
        # (a list not shown yet has no width of its own to go by: the floor)
        least = max(_id_stub(fm), min(self._id_floor, spare)) if self.isVisible() \
            else self._id_floor
        width = max(least, min(self._id_content, cap, spare))
        if self.isVisible() and not self.id_delegate.short and not self._hash_ids:
            # ids of words share the room with the text, up to twelve characters, before the
            # text keeps its ten: at 1,024 px with a baseline they read "too-…", "ans…" beside
            # ten characters of text (dG 4)
            width = max(width, min(self._id_content, room // 2, _id_words(fm)))
        if width != self.view.columnWidth(0):
            self.view.setColumnWidth(0, width)

    def _fit_numbers(self, fm: QFontMetrics) -> None:
        """The metric's and Δ's columns. The metric's shows with judgments, Δ's with a
        baseline too; where both do not fit beside the id's least and six characters of
        text, one gives way, never the one the list is sorted by: the metric's (Δ's heading
        then names it, "Δ nDCG", and each Δ's tooltip gives the value), or, sorted by the
        metric, Δ's (each value's tooltip gives its Δ). (At 1,024 px a click on "nDCG" had
        hidden that very column: its sort arrow's room tipped the list into narrow.) The
        metric's heading whole ("nDCG@10") where the text keeps 14 characters beside it,
        else "nDCG" (the k in its tooltip and the metric strip)."""
        s, model = self.session, self.model
        judged = s.judgments is not None
        metric, delta = judged, judged and s.baseline is not None
        if metric and delta and self.isVisible():
            need = self._id_floor + fm.horizontalAdvance("x" * 6) + 12 \
                + self._metric_need(True, fm) + self._delta_need(False)
            if need > self.width() - self._chrome():
                if model.sorted_column == 2:
                    delta = False
                else:
                    metric = False
        metric_hidden, delta_hidden = judged and not metric, \
            judged and s.baseline is not None and not delta
        for col, shown in ((2, metric), (3, delta)):
            if shown == self.view.isColumnHidden(col):
                self.view.setColumnHidden(col, not shown)
        if (metric_hidden, delta_hidden) != (model.metric_hidden, model.delta_hidden):
            model.metric_hidden, model.delta_hidden = metric_hidden, delta_hidden
            model.headerDataChanged.emit(Qt.Orientation.Horizontal, 2, 3)
        if delta:
            width = self._delta_need(metric_hidden)
            if width != self.view.columnWidth(3):
                self.view.setColumnWidth(3, width)
        if not metric:
            return
        others = self.view.columnWidth(3) if delta else 0
        full = self._metric_need(short=False, fm=fm)
        text = self.width() - self._chrome() - others - full - self._id_floor
        # (a list not shown yet has no width of its own to go by: whole)
        short = self.isVisible() and text < fm.horizontalAdvance("x" * 14) + 12
        if short != model.short_header:
            model.short_header = short
            model.headerDataChanged.emit(Qt.Orientation.Horizontal, 2, 2)
        width = self._metric_need(short, fm) if short else full
        if width != self.view.columnWidth(2):
            self.view.setColumnWidth(2, width)

    def _heading_width(self, text: str, section: int, small: bool = False) -> int:
        """A heading's width in its semi-bold font and padding (style.qss: 600, 6 px a side),
        and the sort arrow while the list is sorted by `section` (drawn over the heading's
        "G" it had been). (The header's own size hint keeps room for an arrow always: 110
        px.)"""
        header = self.view.horizontalHeader()
        font = QFont(header.font())
        font.setWeight(QFont.Weight.DemiBold)
        pad = 14  # style.qss: 6 px a side, and a px or so
        if small:
            font = self.model.small_font = small_heading_font(header.font())
            pad = 2 * SMALL_PAD + 2
        width = QFontMetrics(font).horizontalAdvance(text) + pad
        if self.model.sorted_column == section:  # the heading at the left, the arrow right
            width += sort_arrow_width(header)
        return width

    def _metric_need(self, short: bool, fm: QFontMetrics) -> int:
        """The metric column's width with its heading whole or short, or a value ("0.000"),
        the wider."""
        return max(self._heading_width(self.model.metric_name(), 2, small=short),
                   fm.horizontalAdvance("0.000") + 2 * TEXT_MARGIN + 4)

    def _delta_need(self, labelled: bool) -> int:
        """Δ's column: its values, or its heading ("Δ nDCG@10" in the small font where
        `labelled`), the wider."""
        heading = f"Δ {self.model.metric_name()}" if labelled else "Δ"
        return max(self._delta_width(), self._heading_width(heading, 3, small=labelled))

    def _on_sorted(self, section: int, _order: Qt.SortOrder) -> None:
        shown = self.view.horizontalHeader().isSortIndicatorShown()
        column = section if shown else -1
        if column != self.model.sorted_column:
            old, self.model.sorted_column = self.model.sorted_column, column
            for c in {old, column} & {2, 3}:
                self.model.headerDataChanged.emit(Qt.Orientation.Horizontal, c, c)
            self._fit_id()

    def _unsort_empty(self) -> None:
        """Back to the data's order where the list was sorted by a column with nothing to
        show (Δ once the baseline is cleared, the metric on data without judgments)."""
        s, col = self.session, self.model.sorted_column
        if (col == 3 and (s.baseline is None or s.judgments is None)) \
                or (col == 2 and s.judgments is None):
            self.view.sortByColumn(-1, Qt.SortOrder.AscendingOrder)

    def _fit_query_heading(self, section: int, _old: int = 0, new: int = 0) -> None:
        """The query's heading elided at the right to its column, in the heading's semi-bold
        font within the style sheet's padding (6 px a side)."""
        if section != 1:
            return
        font = QFont(self.view.horizontalHeader().font())
        font.setWeight(QFont.Weight.DemiBold)
        text = QFontMetrics(font).elidedText(self.model.COLUMNS[1],
                                             Qt.TextElideMode.ElideRight, new - 14)
        if text != self.model.query_heading:
            self.model.query_heading = text
            self.model.headerDataChanged.emit(Qt.Orientation.Horizontal, 1, 1)

    def _metric_width(self) -> int:
        return self.view.fontMetrics().horizontalAdvance(self.model.metric_name()) + 14

    def _delta_width(self) -> int:
        return self.view.fontMetrics().horizontalAdvance("−0.000") + 2 * TEXT_MARGIN + 2

    def _chrome(self) -> int:
        """The px of the list's width that no column gets: frame and scroll bar (none where
        every row shows: code-repo's 12 queries took 15 px from the text for nothing)."""
        rows = self.proxy.rowCount() * self.view.verticalHeader().defaultSectionSize()
        header = self.view.horizontalHeader().sizeHint().height()
        layout = self.layout()
        height = self.height() - self.filter_edit.sizeHint().height() \
            - self.ask_edit.sizeHint().height() - 2 * (layout.spacing() if layout else 0)
        scroll = 0 if rows + header + 2 * self.view.frameWidth() <= height \
            else self.view.verticalScrollBar().sizeHint().width()
        return 2 * self.view.frameWidth() + scroll

    def comfortable_width(self) -> int:
        """The list's width with its four columns in sight, the query's text about ten
        characters and the id its least (narrower, the text gives way, and with a baseline
        the metric's column gives way to Δ: `_fit_numbers`)."""
        fm = self.view.fontMetrics()
        chrome = 2 * self.view.frameWidth() + self.view.verticalScrollBar().sizeHint().width()
        least = self._id_floor
        return chrome + least + _text_width(fm) + self._metric_width() + self._delta_width()

    def resizeEvent(self, event: QResizeEvent) -> None:  # Qt override
        super().resizeEvent(event)
        self._fit_id()

    def _on_k_changed(self, *_: object) -> None:
        self._fit_id()  # "nDCG@100" is wider than "nDCG@10"

    def _show_delta(self, *_: object) -> None:
        """The Δ column only with a baseline to differ from (`_fit_numbers`): empty, it took
        the room the query's text needs (30 px of it at 1,024)."""
        self._unsort_empty()
        self._fit_id()

    def _on_ask(self) -> None:
        """The text typed as a query, selected; typed before, the earlier one selected."""
        text = self.ask_edit.text().strip()
        if not text or self.session.dataset is None:
            return
        self.session.add_query(text)
        self.ask_edit.clear()

    def _remove_typed(self) -> None:
        if self.session.is_typed(self.session.query):
            self.session.remove_query(self.session.query)

    def _update_remove(self) -> None:
        self.remove_typed.setEnabled(self.session.is_typed(self.session.query))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # Qt override
        if watched is self.filter_edit and event.type() == QEvent.Type.ShortcutOverride \
                and isinstance(event, QKeyEvent) and event.key() == Qt.Key.Key_Escape \
                and self.filter_edit.text():
            # the filter's Esc, not the window's (Tools ▸ Cancel prepare had taken it while
            # a preparation ran: clearing the filter cancelled the embedding)
            event.accept()
            return True
        if watched is self.filter_edit and event.type() == QEvent.Type.KeyPress \
                and isinstance(event, QKeyEvent) and not event.modifiers() & ~(
                    Qt.KeyboardModifier.KeypadModifier):
            if event.key() == Qt.Key.Key_Down:
                self._to_matches()
                return True
            if event.key() == Qt.Key.Key_Escape and self.filter_edit.text():
                self.filter_edit.clear()
                return True
        return super().eventFilter(watched, event)

    def _to_matches(self) -> None:
        """From the filter into the list: the selected query where it matches, else the
        first match selected."""
        if self.proxy.rowCount() == 0:
            return
        if not self.view.selectionModel().hasSelection():
            self.session.select_query(self.proxy.mapToSource(self.proxy.index(0, 0)).row())
        self.view.setFocus(Qt.FocusReason.OtherFocusReason)

    def _refresh_values(self) -> None:
        self.model.refresh_values()

    def _on_values_changed(self, *_: object) -> None:
        self._throttle.poke()

    def _on_filter(self, text: str) -> None:
        """Narrow the list; the selected query stays the session's. (Hiding the current row
        makes the view move its current index to a neighbour, which must not select it.)"""
        self._filtering = True
        try:
            self.proxy.setFilterFixedString(text)
        finally:
            self._filtering = False
        shown = self.proxy.mapFromSource(self.model.index(self.session.query, 0))
        sel = self.view.selectionModel()
        if shown.isValid():
            self._on_query_changed(self.session.query)
        else:  # hidden by the filter: nothing highlighted, the query still shown on the right
            self._filtering = True
            try:
                sel.clear()
            finally:
                self._filtering = False

    def _on_current(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if current.isValid() and not self._filtering:
            self.session.select_query(self.proxy.mapToSource(current).row())

    def _on_query_changed(self, index: object) -> None:
        self._update_remove()
        if self.session.dataset is None or not isinstance(index, int):
            return
        proxy_index = self.proxy.mapFromSource(self.model.index(index, 0))
        sel = self.view.selectionModel()
        if not proxy_index.isValid():  # hidden by the filter: no other row highlighted
            self._filtering = True
            try:
                sel.clear()
            finally:
                self._filtering = False
            return
        if sel.currentIndex().row() == proxy_index.row():
            return
        flags = (QItemSelectionModel.SelectionFlag.ClearAndSelect
                 | QItemSelectionModel.SelectionFlag.Rows)
        sel.setCurrentIndex(proxy_index, flags)
        self.view.scrollTo(proxy_index)

    def focus_filter(self) -> None:
        self.filter_edit.setFocus()
        self.filter_edit.selectAll()


class IdElided(MiddleElided):
    """Ids whole where they fit; where not, a commit-like id (`short`) as the start that tells
    it apart and "…" ("c885591b…" for c885591bbb0: cut with no mark it had read as a whole id,
    one the data does not have; cut further at the right where even that does not fit), an
    id of eight characters or fewer whole (the column keeps room for it, but where the
    query's text needs it: then cut at the right, "…"), an id of words its start and "…"
    ("incremental-ca…"), any other (a hash, a path) elided in its middle (`MiddleElided`). A
    cut id never reads as a whole one."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.short: dict[str, str] = {}  # id → its prefix (`short_ids`), set per dataset

    def initStyleOption(self, option: QStyleOptionViewItem,  # Qt override
                        index: QModelIndex | QPersistentModelIndex) -> None:
        QStyledItemDelegate.initStyleOption(self, option, index)
        text = option.text
        room = option.rect.width() - 2 * TEXT_MARGIN
        fm = option.fontMetrics
        cut = self.short.get(text)
        if room <= 0 or fm.horizontalAdvance(text) <= room:
            option.textElideMode = Qt.TextElideMode.ElideRight
            return
        if cut is not None or len(text) <= 8:
            head = (cut or "") + "…"
            option.text = head if cut is not None and fm.horizontalAdvance(head) <= room \
                else fm.elidedText(text, Qt.TextElideMode.ElideRight, room)
            option.textElideMode = Qt.TextElideMode.ElideRight
            return
        if not HASH_ID.fullmatch(text) and "/" not in text:
            # an id of words (decisions-eval's "incremental-cache-key") keeps its start, as
            # its first words are read: cut in its middle it read "incre…e-key", at 1,024 px
            # "in…ey" (rA 3)
            option.text = fm.elidedText(text, Qt.TextElideMode.ElideRight, room)
            option.textElideMode = Qt.TextElideMode.ElideRight
            return
        super().initStyleOption(option, index)


# a commit-like id: "c" and hex (code-repo's tasks: "c" + ten of the commit's hex digits), or
# twelve hex digits or more with a letter among them (numbers are not commits)
COMMIT_LIKE = re.compile(r"(?P<head>c)(?P<hex>[0-9a-f]{8,64})|(?P<sha>[0-9a-f]{12,64})")
HEX_KEPT = 7  # hex digits a cut commit-like id keeps at least, after its "c"


def short_ids(ids: list[str]) -> dict[str, str]:
    """Each commit-like id of `ids` (`COMMIT_LIKE`) longer than eight characters → its
    shortest start that no other id of `ids` shares, of its "c" and seven hex digits at
    least; ids whose start would be all of them are left out (shown whole)."""
    def kept(i: str) -> int:
        m = COMMIT_LIKE.fullmatch(i)
        if m is None or len(i) <= 8 or (m["sha"] is not None and m["sha"].isdigit()):
            return 0
        return (1 if m["head"] else 0) + HEX_KEPT

    out: dict[str, str] = {}
    order = sorted(set(ids))
    for n, i in enumerate(order):
        least = kept(i)
        if not least:
            continue
        # the longest start it shares with another id: with a neighbour in sorted order
        shared = max((_common(i, order[m]) for m in (n - 1, n + 1) if 0 <= m < len(order)),
                     default=0)
        cut = max(least, shared + 1)
        if cut < len(i):
            out[i] = i[:cut]
    return out


def _common(a: str, b: str) -> int:
    """The length of the start `a` and `b` share."""
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


SMALL_HEADING = 0.62  # the narrow list's metric heading: this much of the header's font size
SMALL_PAD = 2  # px each side of a small heading (the style sheet's 6 took what "@10" needed)


def small_heading_font(font: QFont) -> QFont:
    """The header's semi-bold font at SMALL_HEADING of its size, 6 pt (8 px) at least:
    "nDCG@10" in the width "nDCG" took, the query's text keeping its ten characters."""
    small = QFont(font)
    small.setWeight(QFont.Weight.DemiBold)
    size = font.pointSizeF()
    if size > 0:
        small.setPointSizeF(max(6.0, size * SMALL_HEADING))
    else:
        small.setPixelSize(max(8, round(font.pixelSize() * SMALL_HEADING)))
    return small


def sort_arrow_width(header: QHeaderView) -> int:
    """The px a header's sort arrow takes at a section's right, beside its text: the style's
    mark and its margin."""
    style = header.style()
    return style.pixelMetric(QStyle.PixelMetric.PM_HeaderMarkSize, None, header) \
        + style.pixelMetric(QStyle.PixelMetric.PM_HeaderMargin, None, header)


def _id_least(fm: QFontMetrics) -> int:
    """The narrowest the id column goes where the list is narrow: four characters."""
    return fm.horizontalAdvance("0" * 4 + "…") + 12


def _id_stub(fm: QFontMetrics) -> int:
    """The narrowest the id column goes where the query's text would keep less than ten
    characters (a list of 205 px with a scroll bar and the sort arrow): three characters and
    "…"."""
    return fm.horizontalAdvance("0" * 3 + "…") + 12


def _id_words(fm: QFontMetrics) -> int:
    """The most an id of words takes from the query's text: twelve characters and "…"."""
    return fm.horizontalAdvance("x" * 12 + "…") + 12


def _text_width(fm: QFontMetrics) -> int:
    """What the query's text keeps before the id gives way: about ten characters."""
    return fm.horizontalAdvance("x" * 10) + 12


# an id that is a hash or a number (a commit, a BEIR id): its start tells it apart
HASH_ID = re.compile(r"[0-9a-f]{7,64}|[0-9]+")


def id_column_cap(fm: QFontMetrics) -> int:
    """The widest the id column starts: eight characters and the cell's margins."""
    return fm.horizontalAdvance("0" * 8 + "…") + 12
