"""The ranked table for the selected query: rank, change against the baseline, id, title,
score, judged relevance, the stacked bar of signal contributions, and the gate that zeroed a
document; selecting rows selects the session's documents.

The title column hides while every row's title is its id (source files: the path twice), and
for a model that cuts a bundle (codeledger) a line marks the cut, rows below it shaded."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from PySide6.QtCore import (
    QAbstractTableModel,
    QEvent,
    QItemSelectionModel,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
)
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontMetrics,
    QHelpEvent,
    QPainter,
    QPaintEvent,
    QPen,
    QTextDocument,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QSizePolicy,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QToolTip,
    QVBoxLayout,
    QWidget,
)

from workbench.core.data import display_title
from workbench.core.session import TuningSession

from .bind import subscribe_many
from .contribution_bar import CONTRIB_ROLE, SCALE_ROLE, ContributionDelegate
from .elided import TEXT_MARGIN, ElidingLabel, MiddleElided, WordElided, elide_words, esc
from .nothing_ranked import nothing_ranked
from .palette import BETTER, GATED, WORSE, score_decimals, signal_hex
from .ranked_rows import (
    RankedRow,
    bundle_cut,
    gate_words,
    left_top_k,
    model_bundles,
    ranked_rows,
)
from .signal_names import idle_signals, signal_labels

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
MUTED = "#57606a"  # the legend's own words ("signals:", "+6 more")


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
        self._decimals = score_decimals([r.score for r in rows])
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


class GateElided(WordElided):
    """A gate's words where every gate's words fit; else, in every row, the model's label for
    it ("one word", "ops title": `Model.gate_labels`), cut after a whole word only where even
    that does not fit (its first words had read "not in…", "long…" or "…" at 1,024 px: rv2
    dr2 4; then one column had mixed "one word" with "not in project", a cell's form set by
    its own width: rv2 dr5 5). `widest`: the px the model's widest gate's words take."""

    widest = 0

    def initStyleOption(self, option: QStyleOptionViewItem,  # Qt override
                        index: QModelIndex | QPersistentModelIndex) -> None:
        QStyledItemDelegate.initStyleOption(self, option, index)  # the words, not cut
        room = option.rect.width() - 2 * TEXT_MARGIN
        fm = option.fontMetrics
        if (not option.text or room <= 0
                or max(self.widest, fm.horizontalAdvance(option.text)) <= room):
            return
        label = index.data(LABEL_ROLE)
        option.text = elide_words(label if isinstance(label, str) else option.text, fm, room)


@dataclass(frozen=True)
class Legend:
    """What the signals' legend says, in rich text: each signal's entry in the bars' order,
    then `tail` ("hatched: negative", shown where `hatched`). `order`: the entries' indexes,
    those drawing most over the data first (`RankedTable._signal_sizes`): where the entries
    take more than `LegendLabel.MOST_LINES` lines, the last of them are left out ("+6 more
    (hover)"), every one in the tooltip with `idle`, the signals that do not draw on this
    data. Nothing here depends on the selected query, and on the values only where one makes
    a signal draw or not: the legend's text and height stay as they are when another query
    is selected or a slider moves (dr3 2, 3)."""

    signals: tuple[str, ...] = ()
    order: tuple[int, ...] = ()
    tail: str = ""
    hatched: bool = False
    idle: str = ""

    def text(self, keep: int | None = None, tail: bool | None = None) -> str:
        """The legend with the first `keep` signals of `order` (None: all), the others
        counted; the tail where `hatched` (`tail`: with it or without, whatever `hatched`
        says)."""
        kept = set(self.order[:keep]) if keep is not None else set(range(len(self.signals)))
        entries = [e for i, e in enumerate(self.signals) if i in kept]
        left = len(self.signals) - len(entries)
        if left:
            entries.append(f"<span style='color:{MUTED}'>+{left}&nbsp;more&nbsp;(hover)</span>")
        head = f"<span style='color:{MUTED}'>signals:</span> " if self.signals else ""
        with_tail = self.hatched if tail is None else tail
        return head + " ".join(entries) + (self.tail if with_tail else "")

    def tooltip(self) -> str:
        if not self.signals and not self.idle:
            return ""
        return self.text() + (f"<br><span style='color:{MUTED}'>not drawing on this data: "
                              f"{self.idle}</span>" if self.idle else "")


class LegendLabel(QLabel):
    """The signals' legend, as high as its wrapped lines at its width, up to `MOST_LINES`
    (`set_legend`): its height is a function of its text and its width alone. (It had been
    read from the label's heightForWidth, which never answers less than the label's own
    height: 2 px more on every fit, never less.) At 1,024 × 768 codeledger's 17 signals took
    six lines and left the table four rows; held to three, the signals drawing least over
    the data are left out, counted, and named in the tooltip. It is laid out with the
    "hatched: negative" tail whether that shows or not: the tail never moves an entry or the
    table."""

    MOST_LINES = 3

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTextFormat(Qt.TextFormat.RichText)
        self.setWordWrap(True)
        self.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.legend = Legend()
        self._laid: dict[int, tuple[str, int]] = {}  # width → (text shown, height)
        self.fit()

    def set_legend(self, legend: Legend) -> None:
        if legend == self.legend:
            return  # unchanged (most slider ticks, every other query): not measured again
        self.legend = legend
        self._laid = {}
        self.setToolTip(legend.tooltip())
        self.fit()

    def fit(self) -> None:
        # not shown, it has no width of its own yet: every signal said
        text, height = self.layout_at(self.contentsRect().width(), whole=not self.isVisible())
        if text != self.text():
            self.setText(text)
        if not height == self.minimumHeight() == self.maximumHeight():
            self.setFixedHeight(height)

    def layout_at(self, width: int, whole: bool = False) -> tuple[str, int]:
        """The text shown and the height at `width` px (`whole`: every signal, at its least
        height until it is shown and measured)."""
        key = -width if whole else width
        if key not in self._laid:
            if len(self._laid) > 16:
                self._laid = {}
            self._laid[key] = self._lay_out(width, whole)
        return self._laid[key]

    def _lay_out(self, width: int, whole: bool) -> tuple[str, int]:
        legend = self.legend
        least = self._rich_line() + 2
        if not legend.signals:
            return "", least
        if whole:  # measured when shown
            return legend.text(), least
        keep = None
        lines, height = self._measure(legend.text(tail=True), width)
        if lines > self.MOST_LINES:
            # the most signals that leave it within its lines (fewer kept, never more lines)
            lo, hi = 0, len(legend.signals) - 1
            while lo < hi:
                mid = (lo + hi + 1) // 2
                if self._measure(legend.text(mid, tail=True), width)[0] <= self.MOST_LINES:
                    lo = mid
                else:
                    hi = mid - 1
            keep = lo
            height = self._measure(legend.text(lo, tail=True), width)[1]
        return legend.text(keep), max(least, height + 2)

    def _measure(self, text: str, width: int) -> tuple[int, int]:
        """(lines, px) `text` takes at `width` px in the label's font: laid out as the label
        lays out its rich text, without the label's own least height."""
        doc = QTextDocument()
        doc.setDocumentMargin(0)
        doc.setDefaultFont(self.font())
        doc.setHtml(text)
        doc.setTextWidth(max(width, 1))
        height = math.ceil(doc.size().height())  # laid out here
        block, lines = doc.firstBlock(), 0
        while block.isValid():
            lines += block.layout().lineCount()
            block = block.next()
        return lines, height

    def _rich_line(self) -> int:
        """The height of one line of the legend's rich text, in its font (kept per font): a
        line with the ■ marks is taller than the font's line spacing."""
        key = self.font().key()
        if getattr(self, "_line_for", None) != key:
            self._line_for = key
            self._line = self._measure(
                f"<span style='color:{MUTED}'>signals:</span> "
                "<span style='color:#000'>■</span>&nbsp;x", 1000)[1]
        return int(self._line)

    def changeEvent(self, event: QEvent) -> None:  # Qt override
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:  # the style sheet's font, once polished
            self._laid = {}
            self.fit()

    def resizeEvent(self, event: Any) -> None:  # Qt override
        super().resizeEvent(event)
        self.fit()

    def showEvent(self, event: Any) -> None:  # Qt override
        super().showEvent(event)
        self.fit()


ID_CAP = 200  # px the id column takes beside a title at least, where its ids need it


class RankedTable(QWidget):
    """A legend and summary line above the table of the selected query's ranking."""

    def __init__(self, session: TuningSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        # fixed heights: a label that changed height on a slider tick would re-lay out the
        # whole window. The query on one line (cut at the right), the notes at its right
        # (`_update_notes`: a note that came with a tick had taken a signal's room in the
        # legend, or a line; dr3 2, 3); the signals' legend below, on the lines it needs at
        # the table's width, three at most (`LegendLabel`)
        self.summary = ElidingLabel(self)  # the query's id and text, elided at the right
        self.summary.setWordWrap(False)
        self.summary.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.summary.setFixedHeight(self.summary.fontMetrics().lineSpacing() + 4)
        self.notes = ElidingLabel(self)  # the bundle's cut, what left the top k
        self.notes.setWordWrap(False)
        self.notes.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        self.notes.setFixedHeight(self.summary.height())
        self.notes.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.notes.hide()
        self.legend = LegendLabel(self)
        # per dataset, model and preparation (`_signal_sizes`): each signal's mean size over
        # every pair the first time it drew, whether a contribution was ever negative, and
        # the signals 0 at every pair, for the values that make a signal draw or not
        self._sizes_for: tuple[object, ...] | None = None
        self._sizes: dict[str, float] = {}
        self._negative = False
        self._zero: frozenset[str] = frozenset()
        self._zero_for: tuple[object, ...] | None = None
        self._zero_checks = 0
        self.model = RankedTableModel(session, self)
        self.view = _RankedView(self.model, self)
        self.view.setAccessibleName("Ranked results")
        self.view.setModel(self.model)
        self.view.setItemDelegateForColumn(BAR_COLUMN, ContributionDelegate(self.view))
        # ids (often paths) elided in the middle: their ends tell them apart
        self.view.setItemDelegateForColumn(COLUMNS.index("id"), MiddleElided(self.view))
        # a gate's words cut after a whole word ("single token…", else "…"), the code and the
        # reason in the tooltip
        self.view.setItemDelegateForColumn(COLUMNS.index("gate"), GateElided(self.view))
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.view.setTabKeyNavigation(False)  # Tab leaves the table (arrows move in it)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.view.verticalHeader().hide()
        self.view.verticalHeader().setDefaultSectionSize(22)
        self.view.setWordWrap(False)
        # fixed widths from the font, the id column measured once per dataset: ResizeToContents
        # would measure every row again on every slider tick
        header = self.view.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        # a heading too long for its column ends in "…": centred and clipped at both sides,
        # "contributions" beside decision-memory's gate column read "ntributio"
        header.setTextElideMode(Qt.TextElideMode.ElideRight)
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        self._title_hidden = False
        self._id_width = 120
        self._widest_id: int | None = None  # the widest id and its margins, px
        self._id_dragged = False  # the user set the id column's width: kept
        self.view.horizontalHeader().sectionResized.connect(self._on_section_resized)
        fm = self.view.fontMetrics()
        for col, sample in ((0, "rank"), (1, "▼100"), (4, "00.0000"), (5, "rel"),
                            (BAR_COLUMN, "x" * 22), (7, "missing word")):
            header.resizeSection(col, fm.horizontalAdvance(sample) + 16)
        self._bar_width = header.sectionSize(BAR_COLUMN)  # the bars' width where there is room
        self._gate_width = header.sectionSize(7)  # the widest gate's words (`_fit_gate`)
        self._gates: tuple[str, ...] = ()  # the gates `_gate_width` was measured for
        # what `_fit_score` measured for: (dataset, model), and the widest score text since
        self._score_for: tuple[int, str | None] | None = None
        self._score_text = 0
        self._score_rows: tuple[int, int] | None = None  # the rows' (longest text, decimals)
        # the dataset's widest title and id, px with margins (`_on_dataset_changed`), and
        # whether every title is the document's id (source files: the path twice)
        self._names_need = (0, 0)
        self._title_is_id = False
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        line = QHBoxLayout()
        line.setContentsMargins(0, 0, 0, 0)
        line.setSpacing(12)
        line.addWidget(self.summary, 1)
        line.addWidget(self.notes)
        layout.addLayout(line)
        layout.addWidget(self.legend)
        layout.addWidget(self.view)
        self.view.selectionModel().selectionChanged.connect(self._on_selection)
        subscribe_many(self, [
            (session.result_changed, self.refresh),
            (session.query_changed, self.refresh),
            (session.baseline_changed, self.refresh),
            (session.dataset_changed, self._on_dataset_changed),
            (session.docs_changed, self._on_docs_changed),
        ])
        self._on_dataset_changed()  # (a table made after the data opened: measured now)

    def _on_section_resized(self, index: int, _old: int, new: int) -> None:
        if index == BAR_COLUMN:
            self._fit_bar_heading(new)
        # a drag of the header's handle, not the code's own widths
        if index == 2 and not self._title_hidden and new != self._id_width \
                and QApplication.mouseButtons() & Qt.MouseButton.LeftButton:
            self._id_dragged = True

    def _on_dataset_changed(self, *_: object) -> None:
        """The names' needs, over the dataset's documents (its first 2,000), not the rows of
        one query: measured per query, the name's column and so the bars' changed between
        neighbouring queries (memories at 1,024 px: bars 95 px under "signals", then 126
        under "contributions"; dr3 6)."""
        ds = self.session.dataset
        if ds is not None and len(ds.corpus):
            fm = self.view.fontMetrics()
            docs = ds.corpus.documents[:2000]
            self._widest_id = max(fm.horizontalAdvance(d.id) for d in docs) + 16
            titles = [display_title(ds.corpus, d) for d in docs]
            self._title_is_id = all(not t or t == d.id for t, d in zip(titles, docs,
                                                                         strict=True))
            pad = 2 * TEXT_MARGIN + 2
            self._names_need = (max(fm.horizontalAdvance(t) for t in titles) + pad,
                                max(fm.horizontalAdvance(d.id) for d in docs) + pad)
            self._fit_id()
        self.refresh()

    def _fit_id(self) -> None:
        """The widths of the id, contributions and gate columns at the table's width; the
        title stretches into the rest (`share_width`). The title keeps about 14 characters
        before the bars or the gate's words grow (at 1,024 px decision-memory's titles read
        "Incre…" beside a gate column of 110 px), and grows with them up to what its rows
        need; the id its widest id, up to 200 px or a third of the table (at 1,920 px ids
        were elided at 200 px beside a title column with room to spare). A width the user
        dragged is not undone on a resize."""
        if self._widest_id is None:
            return
        fm = self.view.fontMetrics()
        title_min = fm.horizontalAdvance("x" * 14) + 2 * TEXT_MARGIN
        # the table's own width (the view fills it): its viewport is not resized yet here
        inner = self.width() - 2 * self.view.frameWidth() \
            - self.view.verticalScrollBar().sizeHint().width()
        fixed = sum(self.view.columnWidth(c) for c in range(self.model.columnCount())
                    if c not in (2, 3, BAR_COLUMN, 7) and not self.view.isColumnHidden(c))
        # the id whole up to ID_CAP before the bars grow: they kept 180 px at 1,280 while the
        # vault's paths read "roa….md"; at least eight characters
        id_want = min(self._widest_id, max(ID_CAP, self.width() // 3))
        id_least = min(self._widest_id, fm.horizontalAdvance("x" * 8) + 16)
        gated = not self.view.isColumnHidden(7)
        gate_want = self._gate_width if gated else 0
        gate_least = min(gate_want, fm.horizontalAdvance("x" * 7) + 2 * TEXT_MARGIN + 4)
        # the name (the title, or the id in its place) no more than the dataset's widest
        # before the bars grow: code-repo's paths took 288 px at 1,280 where they needed 225,
        # and the bars had 148 (`_on_dataset_changed`)
        need_title, need_id = self._names_need
        if self._title_hidden:  # the id stretches in the title's place: it is the name
            least = max(title_min, min(self._widest_id, ID_CAP))
            names = Share(least, max(least, need_id))
            ids = Share(0, 0)
        else:
            names = Share(title_min, max(title_min, need_title))
            ids = Share(id_least, id_want)
        gate_floor = fm.horizontalAdvance("x" * 5) + 2 * TEXT_MARGIN + 4
        bar_floor = self._bar_width // 4
        if gated and inner - fixed < (names.least + ids.least + self._bar_width // 3
                                      + gate_least):
            # too narrow for every least: the gate keeps 9 characters (its gates' first
            # words, "single…", "source…", `elide_words`), the title 10 and the bars a sixth
            # of their width (at 1,024 px with a baseline pinned the gate had 50 px, "…" in
            # most of its cells: rv2 1)
            gate_least = gate_floor = min(gate_want,
                                          fm.horizontalAdvance("x" * 9) + 2 * TEXT_MARGIN + 4)
            bar_floor = self._bar_width // 6
            if not self._title_hidden:
                least = fm.horizontalAdvance("x" * 10) + 2 * TEXT_MARGIN
                names = Share(least, max(least, need_title))
        bar, gate = Share(self._bar_width // 3, self._bar_width), Share(gate_least, gate_want)
        widths = share_width(inner - fixed, names, ids, bar, gate,
                             floors=(gate_floor, bar_floor))
        _, id_width, bar_width, gate_width = widths
        if bar_width != self.view.columnWidth(BAR_COLUMN):
            self.view.setColumnWidth(BAR_COLUMN, bar_width)
        if gated and gate_width != self.view.columnWidth(7):
            self.view.setColumnWidth(7, gate_width)
        width = self._widest_id if self._title_hidden else id_width
        if width != self._id_width:
            self._id_width = width
            if not self._title_hidden and not self._id_dragged:
                self.view.setColumnWidth(2, width)

    def _fit_bar_heading(self, width: int) -> None:
        """The contributions' heading as it fits its column, in the heading's semi-bold font
        within the style sheet's padding (6 px a side): "contributions", else cut at the right
        with "…" ("contribu…"), a function of the column's width alone. (The header elided in
        its own font: in 100 px it drew ":ontributions:". "sig." had read as significance in
        a window of p-values; dr3 6.) The header's tooltip says what the bars are."""
        font = QFont(self.view.horizontalHeader().font())
        font.setWeight(QFont.Weight.DemiBold)
        fm = QFontMetrics(font)
        text = next((t for t in (COLUMNS[BAR_COLUMN], *BAR_HEADINGS)
                     if fm.horizontalAdvance(t) <= width - 16), BAR_HEADINGS[-1])
        if text != self.model.bar_heading:
            self.model.bar_heading = text
            self.model.headerDataChanged.emit(Qt.Orientation.Horizontal, BAR_COLUMN,
                                              BAR_COLUMN)

    def _fit_gate(self) -> None:
        """The gate column's most: the words of the model's widest gate, up to about 24
        characters; measured when the model's gates change, not per tick."""
        res = self.session.result
        gates = tuple(res.scores.gates) if res is not None else ()
        if gates == self._gates:
            return
        self._gates = gates
        fm = self.view.fontMetrics()
        widest = max((fm.horizontalAdvance(gate_words(g)) for g in gates), default=0)
        header = self.view.horizontalHeader().sectionSizeHint(7)
        self._gate_width = max(header, min(widest, fm.horizontalAdvance("x" * 24))
                               + 2 * TEXT_MARGIN + 4)
        delegate = self.view.itemDelegateForColumn(7)
        if isinstance(delegate, GateElided):
            delegate.widest = widest  # one form for the column: words or labels
        self._fit_id()

    def _fit_score(self) -> None:
        """The score column as wide as its header or its widest score (decision-memory's
        whole numbers took 70 px, room its titles lacked at 1,024 px): at the first result on
        a dataset and model, the widest any query's scores take (every query's largest, at
        the decimals its column would show); then wider only where a result's scores need
        it, never narrower, so that selecting another query moves no column (dr3 6)."""
        s, res = self.session, self.session.result
        if res is None:
            return
        key = (id(s.dataset), s.model.id if s.model is not None else None)
        fm = self.view.fontMetrics()
        texts = [t[4] for t in self.model._texts]
        # measured where the rows' longest text or decimals change, not on every tick
        rows = (max((len(t) for t in texts), default=0), self.model._decimals)
        if key != self._score_for:
            self._score_for, self._score_rows = key, None
            self._score_text = self._widest_score(res.scores.total, fm)
        if rows == self._score_rows:
            return
        self._score_rows = rows
        widest = max((fm.horizontalAdvance(t) for t in texts), default=0)
        self._score_text = max(self._score_text, widest)
        width = max(self.view.horizontalHeader().sectionSizeHint(4),
                    self._score_text + 2 * TEXT_MARGIN + 8)
        if width != self.view.columnWidth(4):
            self.view.setColumnWidth(4, width)
            self._fit_id()

    @staticmethod
    def _widest_score(total: np.ndarray, fm: QFontMetrics) -> int:
        """The widest score text a query's rows can show, over every pair's score: all whole,
        the largest whole number; else four significant digits, "0.0000" (`score_decimals`),
        or the largest's whole part where that is longer; with a sign where any is
        negative."""
        finite = total[np.isfinite(total)]
        if not len(finite):
            return 0
        sign = "−" if (finite < 0).any() else ""
        whole = fm.horizontalAdvance(f"{sign}{int(np.abs(finite).max())}")
        if (finite == np.round(finite)).all():
            return whole
        return max(whole, fm.horizontalAdvance(f"{sign}0.0000"))

    def resizeEvent(self, event: Any) -> None:  # Qt override
        super().resizeEvent(event)
        self._fit_id()
        self._fit_notes()

    def refresh(self, *_: object) -> None:
        self.model.refresh()
        self._fit_score()
        self._fit_gate()
        # the Δ column only with a baseline to differ from: empty, it took 50 px of the
        # titles' room
        based = self.session.baseline is not None
        if based == self.view.isColumnHidden(1):
            self.view.setColumnHidden(1, not based)
            self._fit_id()
        # the gate column only where the model's gates zero a document of the data, at any
        # query (a column shown per query moved the bars and their heading between
        # neighbouring queries; dr3 6)
        res = self.session.result
        gated = any(r.gate for r in self.model.rows) or (
            res is not None and bool(res.scores.gates) and bool((res.scores.gate > 0).any()))
        if gated == self.view.isColumnHidden(7):  # its width given to the id, or taken back
            self.view.setColumnHidden(7, not gated)
            self._fit_id()
        # the relevance column only where something is judged (review gv 10: an empty "rel"
        # on decisions took the room the titles lacked at 1,024 px)
        ds = self.session.dataset
        judged = ds is not None and bool(ds.qrels)
        if judged == self.view.isColumnHidden(5):
            self.view.setColumnHidden(5, not judged)
            self._fit_id()
        self._show_title(not self._title_is_id)
        self._update_summary()
        # a blank grid said why (rows gated or cut still list, and say it in their gate cells)
        self.view.set_empty_note("" if self.model.rows else nothing_ranked(self.session))
        self._on_docs_changed(self.session.docs)

    def _show_title(self, show: bool) -> None:
        """The title column, or (hidden) the id column stretched into its room; switched
        only when it changes, not per tick."""
        if show != self._title_hidden:
            return
        self._title_hidden = not show
        header = self.view.horizontalHeader()
        self.view.setColumnHidden(3, not show)
        if show:
            header.setSectionResizeMode(2, QHeaderView.ResizeMode.Interactive)
            self.view.setColumnWidth(2, self._id_width)
            header.setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        else:
            header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        self._fit_id()  # the names' room differs with a title or without

    def _update_summary(self) -> None:
        s = self.session
        if s.dataset is None or s.result is None or not len(s.dataset.queries):
            text = "no ranking yet"
            if s.model is not None and s.dataset is not None and s.prepared is None \
                    and len(s.dataset.queries):
                # while it prepares, or after a Cancel: where to look, what to press
                text += (f": {s.model.id} is not prepared yet (progress in the Prepare "
                         "box; Ctrl+R runs it again)")
            self.summary.set_texts(f"<i>{esc(text)}</i>", text)
            self.notes.hide()
            self.legend.set_legend(Legend())
            return
        q = s.dataset.queries[s.query]
        clipped = _clip(q.text, 140)
        text = f"<b>{esc(q.id)}</b> {esc(clipped)}"
        # unchanged on most ticks: no relayout of the labels
        self.summary.set_texts(text, f"{q.id} {clipped}",
                               q.text if clipped != " ".join(q.text.split()) else "")
        self._update_notes()
        self.legend.set_legend(self._legend())

    def _update_notes(self) -> None:
        """The notes at the right of the query's line: the bundle's cut, the documents that
        left the baseline's top k. On the query's line they take no line of their own, and
        never a signal's room in the legend: a note that comes or goes with a tick moves
        nothing below it."""
        s = self.session
        rich, plain = [], []
        if self.model.cut is not None:
            skipped = len(self.model.skipped)
            said = (f"- - bundle: {self.model.cut - skipped} files"
                    + (f" ({skipped} skipped: over the budget)" if skipped else ""))
            rich.append(f"<span style='color:{CUT_PEN.name()}'>{esc(said)}</span>")
            plain.append(said)
        left = left_top_k(s)
        if left:
            said = f"left the top {s.k}: {', '.join(left)}"
            rich.append(f"<span style='color:#c0392b'>{esc(said)}</span>")
            plain.append(said)
        self.notes.set_texts(" &nbsp; ".join(rich), " · ".join(plain))
        self.notes.setVisible(bool(rich))
        self._fit_notes()

    def _fit_notes(self) -> None:
        """The notes as wide as they need, up to half the line: the query's text the rest."""
        if self.notes.isHidden():
            return
        most = max(120, self.width() // 2)
        width = min(math.ceil(self.notes.ideal_width()) + 4, most)
        if width != self.notes.width() or self.notes.minimumWidth() != width:
            self.notes.setFixedWidth(width)

    def _legend(self) -> Legend:
        """The signals' legend for the result: the signals that draw on this data, by their
        sliders' names, no space inside one (the label wraps between signals), each in its
        bars' colour; those left out (0 at every pair: codeledger's "named in the task" on
        code-repo, vault-search's proximity when shipped, a weight at 0) named in the
        tooltip."""
        s = self.session
        assert s.result is not None
        signals = s.result.scores.signals
        names = signal_labels(s.model, signals)
        sizes, zero, negative = self._signal_sizes()
        idle = idle_signals(s) | zero
        shown = [i for i, sid in enumerate(signals) if sid not in idle]
        entries = tuple(f"<span style='color:{signal_hex(i)}'>■</span>&nbsp;"
                        + esc(names[i]).replace(" ", "&nbsp;") for i in shown)
        # where they do not all fit, those drawing least over the data are left out first
        order = tuple(sorted(range(len(shown)), key=lambda j: -sizes.get(signals[shown[j]], 0)))
        # the bars draw a negative contribution hatched, left of the zero line
        tail = f" <span style='color:{MUTED}'>▨&nbsp;hatched:&nbsp;negative</span>"
        return Legend(entries, order, tail, negative,
                      ", ".join(esc(n) for n, sid in zip(names, signals, strict=True)
                                if sid in idle))

    def _signal_sizes(self) -> tuple[dict[str, float], frozenset[str], bool]:
        """(each signal's mean size over every pair of the data, as it was the first time
        it drew there, since the data, the model or its preparation changed: the legend's
        order, the same for every query and tick; the signals 0 at every pair; whether the
        model gave a negative contribution, over the data or a query's top k, since).
        Every pair is read where the values that can make a signal draw or not change (a
        weight to or from 0, an option, the model's idle signals), and at the result after,
        or where one said to be 0 everywhere draws in the query's top k (vault-search's
        clamp once the weights' sum passes 1), not on other ticks: the live path reads the
        top k alone."""
        s, res = self.session, self.session.result
        assert res is not None and s.model is not None
        data = (id(s.dataset), s.model.id, id(s.prepared))
        if data != self._sizes_for:
            self._sizes_for, self._sizes, self._negative = data, {}, False
            self._zero_for = None
        switches = (idle_signals(s), tuple(sorted(
            (n, v == 0 if isinstance(v, int | float) and not isinstance(v, bool) else repr(v))
            for n, v in s.params.items())))
        if switches != self._zero_for:
            self._zero_for, self._zero_checks = switches, 0
        drawn, negative = _top_k_parts(s)
        signals = res.scores.signals
        if any(d > 0 and sid in self._zero for d, sid in zip(drawn, signals, strict=True)):
            self._zero_checks = 0  # one said to be 0 everywhere draws here: read again
        # twice: the first result after a change may answer the values before it
        if self._zero_checks < 2:
            self._zero_checks += 1
            means, anywhere = _data_wide(res.scores)
            self._zero = frozenset(sid for sid, m in zip(signals, means, strict=True)
                                   if m == 0)
            for sid, m in zip(signals, means, strict=True):
                if m > 0:
                    self._sizes.setdefault(sid, float(m))
            self._negative |= anywhere
        self._negative |= negative
        return self._sizes, self._zero, self._negative

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


@dataclass(frozen=True)
class Share:
    """A column's least and most width, px (most 0: it takes what is left, as the title)."""

    least: int
    most: int


def share_width(room: int, name: Share, ids: Share, bar: Share, gate: Share,
                floors: tuple[int, int] = (0, 0)) -> tuple[int, int, int, int]:
    """The widths (name, id, bars, gate) sharing `room` px. Each first gets its least; the id
    then grows to its most; what is left is shared in equal parts between the name, the gate
    and the bars, each up to its most (the name's most 0: no most), the name taking the
    rest. Where even the leasts do not fit, the gate and the bars give way alike down to
    their floors (`floors`: gate, bars), then the name."""
    widths = [name.least, ids.least, bar.least, gate.least]
    spare = room - sum(widths)
    if spare < 0:
        floor = {3: min(floors[0], widths[3]), 2: min(floors[1], widths[2])}
        while spare < 0 and any(widths[i] > f for i, f in floor.items()):
            active = [i for i, f in floor.items() if widths[i] > f]
            each = -(spare // len(active))  # a ceiling: -(-d // n)
            for i in active:
                give = min(each, widths[i] - floor[i], -spare)
                widths[i] -= give
                spare += give
        widths[0] = max(0, widths[0] + min(spare, 0))
        return widths[0], widths[1], widths[2], widths[3]
    grow = min(spare, max(0, ids.most - widths[1]))
    widths[1] += grow
    spare -= grow
    unbounded = 1 << 30
    want = {0: max(0, name.most - widths[0]) if name.most else unbounded,
            2: max(0, bar.most - widths[2]), 3: max(0, gate.most - widths[3])}
    while spare > 0:
        active = [i for i, w in want.items() if w > 0]
        each = spare // len(active) if active else 0
        if each == 0:
            break
        for i in active:
            g = min(each, want[i])
            widths[i] += g
            want[i] -= g
            spare -= g
    widths[0] += max(spare, 0)
    return widths[0], widths[1], widths[2], widths[3]


PAIRS_AT_ONCE = 1 << 16  # pairs read at a time over the whole data (`_data_wide`)


def _data_wide(scores: Any) -> tuple[list[float], bool]:
    """Per signal, the mean size of its contributions over every pair of the data; and
    whether one of them is negative. Read in slices, not as one (signals × pairs) table."""
    n, sums, negative = int(scores.n_pairs), np.zeros(len(scores.signals)), False
    for start in range(0, n, PAIRS_AT_ONCE):
        parts = np.nan_to_num(scores.contributions_of(
            np.arange(start, min(n, start + PAIRS_AT_ONCE), dtype=np.intp)))
        sums += np.abs(parts).sum(axis=1)
        negative = negative or bool((parts < 0).any())
    return (sums / max(n, 1)).tolist(), negative


def _top_k_parts(s: TuningSession) -> tuple[list[float], bool]:
    """Per signal, the sum of its contributions' sizes over the selected query's top k (what
    it draws there); and whether one of them is negative (drawn hatched)."""
    r = s.result
    if r is None or s.query >= r.ranking.docs.shape[0]:
        return [0.0] * (len(r.scores.signals) if r is not None else 0), False
    n = min(s.k, int(r.ranking.count[s.query]), r.ranking.docs.shape[1])
    if n == 0:
        return [0.0] * len(r.scores.signals), False
    parts = np.nan_to_num(r.scores.contributions_of(r.ranking.pair[s.query, :n]))
    return np.abs(parts).sum(axis=1).tolist(), bool((parts < 0).any())


def _clip(text: str, n: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[: n - 1] + "…"


class _RankedView(QTableView):
    """The table view, with the bundle's cut drawn as a line under its last row."""

    def __init__(self, model: RankedTableModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setModel(model)
        self._ranked = model
        self._pen = QPen(CUT_PEN, 2, Qt.PenStyle.DashLine)
        # why the query ranks nothing, over the empty grid (`nothing_ranked`)
        self.empty_note = QLabel(self.viewport())
        self.empty_note.setWordWrap(True)
        self.empty_note.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.empty_note.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.empty_note.setStyleSheet("color: #57606a")
        self.empty_note.hide()

    def set_empty_note(self, text: str) -> None:
        """The line shown over the table where it has no row ("" hides it)."""
        if text != self.empty_note.text():
            self.empty_note.setText(text)
        self.empty_note.setVisible(bool(text))
        self._place_empty_note()

    def _place_empty_note(self) -> None:
        if self.empty_note.isVisible():
            self.empty_note.setGeometry(self.viewport().rect().adjusted(8, 6, -8, -6))

    def resizeEvent(self, event: Any) -> None:  # Qt override
        super().resizeEvent(event)
        self._place_empty_note()

    def cut_y(self) -> int | None:
        """The viewport y of the cut line (None: no cut, or scrolled out of view)."""
        cut = self._ranked.cut
        if cut is None or cut <= 0:
            return None
        y = self.rowViewportPosition(cut - 1)
        if y < 0:
            return None
        return y + self.rowHeight(cut - 1) - 1

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        y = self.cut_y()
        if y is not None and y <= self.viewport().height():
            p = QPainter(self.viewport())
            p.setPen(self._pen)
            p.drawLine(0, y, self.viewport().width(), y)
            p.end()

    def viewportEvent(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip and isinstance(event, QHelpEvent):
            y = self.cut_y()
            if y is not None and abs(event.pos().y() - y) <= 4:
                QToolTip.showText(event.globalPos(),
                                  f"bundle cut: {self._ranked.stop_reason()}", self)
                return True
        return super().viewportEvent(event)
