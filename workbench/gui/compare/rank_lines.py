"""One query's ranked lists under two or more configurations, side by side, with a line joining
each document's two positions between adjacent columns: green when it rose, red when it fell,
grey when it stayed; a document entering the top k comes from the "below top k" slot at the
column's foot, one leaving goes down into it.

The tags are measured against the first list, as the metric table's Δ and ▲/▼ are: ▲new on a
document in a list's top k that is not in the first's; each later list's box says which of the
first's top k it lacks ("▼ 2 of defaults' top 10 out: d100, d032"); the legend says so, and a
row's tooltip also where the list to its left has it, since that is where its line comes from.
(They had been against the list to the left: "▲new" beside the third list read as new against
the baseline. A ▼out tag in the first list then sat on a flat grey line to the same rank in
the second, the list that lacked it three columns away: review r48, dr1 6.)

`replay()` plays the change as one list: each document slides from its place in the first
column to its place in the second (entering ones rise in from the foot and fade in, leaving
ones sink and fade out); `set_replay_position(t)` draws one frame of it.

A row shows rank, a mark of the judged relevance (filled by grade, hollow when not judged),
document id and title. Clicking a row selects that document in every column (`doc_selected`,
corpus index). Painted in `paintEvent` (each row by `rank_rows`) from `_Geometry`, the one
place that says where things are, so painting, clicking and the tests' `lines()` / `row_at()`
agree.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import numpy as np
from PySide6.QtCore import (
    QEasingCurve,
    QPoint,
    QPointF,
    QRectF,
    QSize,
    Qt,
    QVariantAnimation,
    Signal,
)
from PySide6.QtGui import (
    QColor,
    QFontMetricsF,
    QMouseEvent,
    QPainter,
    QPainterPath,
    QPaintEvent,
    QPen,
)
from PySide6.QtWidgets import QWidget

from workbench.core.compare import gate_of, is_scored
from workbench.core.comparison import LIMIT_GATE, MIN_SCORE_GATE, Comparison
from workbench.gui.charts._base import MUTED
from workbench.gui.palette import BETTER, NEUTRAL, WORSE

from .list_end import (
    FLOOR,
    LIMIT,
    OUT,
    ListEnd,
    list_end,
    out_captions,
    out_tip,
    slot_captions,
    slot_tip,
)
from .rank_rows import (
    Row,
    fitting,
    grade_brush,
    grade_text,
    paint_header,
    paint_row,
    paint_slot,
    points,
    scaled_font,
    shown_title,
)

NEW = "▲new"  # the tag, against the first list (`RankLines.marks`); OUT marks a box
# the characters of a document id a list has room for at least (twelve drawn beside "…"):
# narrower, eight lists at 1,024 px had read "…" and "t…y" in every row; the lists scroll
# sideways instead (r51 1)
READABLE_ID_CHARS = 14
# a row's tooltip, last: what a click on it does (the window's explain pane)
CLICK_TIP = "click to explain why it moved (in the pane beside the lists)"

Line = tuple[int, int, int | None, int | None]
"""(doc, left column, rank in the left column or None, rank in the right column or None)."""


@dataclass(frozen=True)
class _Geometry:
    """Where everything is for the widget's current size, font scale, columns and k."""

    margin: float
    header_h: float
    row_h: float
    col_w: float
    gap: float
    rows: int  # row places above the slot: the longest shown list (≤ k)

    def col_x(self, c: int) -> float:
        return self.margin + c * (self.col_w + self.gap)

    def row_top(self, rank: int) -> float:
        """Top of the row of 1-based `rank`."""
        return self.margin + self.header_h + (rank - 1) * self.row_h

    def row_rect(self, c: int, rank: int) -> QRectF:
        return QRectF(self.col_x(c), self.row_top(rank), self.col_w, self.row_h)

    def slot_rect(self, c: int) -> QRectF:
        top = self.row_top(self.rows + 1) + 0.35 * self.row_h
        return QRectF(self.col_x(c), top, self.col_w, self.row_h)


class RankLines(QWidget):
    """Ranked lists of one query, one column per configuration, joined by rank-change lines."""

    doc_selected = Signal(int)
    replay_finished = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.comparison: Comparison | None = None
        self.query = 0
        self.k = 10
        self.columns: list[int] = []
        self.selected: int | None = None
        # the configuration whose list the last click was in (the compare window explains
        # the move into it: r51 dr3 5)
        self.clicked: int | None = None
        self.font_scale = 1.0
        # the terse marks key ("▲new · ▼ in a box") beside the relevance legend where no
        # longer one fits there (presenting: its own line had cut the metric table's last row
        # by 7 px at 1,280 × 800 with a document explained: r53 1)
        self.terse_key_inline = False
        self._base_pt = points(self.font())
        self._font = scaled_font(self.font(), self._base_pt, 1.0)
        self._tops: list[list[int]] = []
        self._t: float | None = None
        self._anim = QVariantAnimation(self)
        self._anim.setStartValue(0.0)
        self._anim.setEndValue(1.0)
        self._anim.setEasingCurve(QEasingCurve.Type.InOutCubic)
        self._anim.valueChanged.connect(self._on_frame)
        self._anim.finished.connect(self._on_replay_done)
        self.setMinimumSize(360, 200)
        self.setMouseTracking(True)  # the tooltip follows the row under the pointer

    # -- what is shown ------------------------------------------------------------------------

    empty_text = "No comparison to show"  # drawn while there is none: what to do

    def set_comparison(self, comp: Comparison | None) -> None:
        """Show `comp` (all its configurations as columns; the query kept if it exists)."""
        self.comparison = comp
        self.selected = None
        self.columns = list(range(len(comp.configs))) if comp is not None else []
        if comp is not None and self.query >= len(comp.dataset.queries):
            self.query = 0
        self._refresh()

    def set_query(self, q: int) -> None:
        """Show query `q` (and select no document)."""
        n = len(self.comparison.dataset.queries) if self.comparison is not None else 0
        if self.comparison is not None and not 0 <= q < n:
            raise ValueError(f"query {q} is out of range (0..{n - 1})")
        self.query = q
        self.selected = None
        self._refresh()

    def set_k(self, k: int) -> None:
        if k < 1:
            raise ValueError(f"k must be at least 1, not {k}")
        self.k = k
        self._refresh()

    def set_columns(self, indices: list[int] | None = None) -> None:
        """The configurations shown, left to right (None: all, in order)."""
        comp = self.comparison
        n = len(comp.configs) if comp is not None else 0
        cols = list(range(n)) if indices is None else list(indices)
        bad = [i for i in cols if not 0 <= i < n]
        if bad:
            raise ValueError(f"no configuration {bad[0]}: there are {n}")
        self.columns = cols
        self._refresh()

    def set_selected_doc(self, doc: int | None) -> None:
        """Highlight `doc` in every column (no signal)."""
        self.selected = doc
        self.update()

    def set_font_scale(self, f: float) -> None:
        """Larger text and rows for presenting (1.0: the application font)."""
        self.font_scale = max(0.5, float(f))
        self._font = scaled_font(self.font(), self._base_pt, self.font_scale)
        self.setMinimumWidth(self.least_width())
        self.updateGeometry()
        self.update()

    def _refresh(self) -> None:
        self._stop_replay()  # its frames were of the lists shown until now
        comp = self.comparison
        self._tops = []
        if comp is not None:
            for c in self.columns:
                self._tops.append(top_k_docs(comp, c, self.query, self.k))
        self.setMinimumWidth(self.least_width())
        self.updateGeometry()
        self.update()

    # -- geometry -----------------------------------------------------------------------------

    @property
    def row_height(self) -> float:
        return math.ceil(QFontMetricsF(self._font).height() * 1.6)

    def _geometry(self) -> _Geometry:
        fm = QFontMetricsF(self._font)
        n = max(1, len(self.columns))
        margin = 6.0
        gap = _gap(n, fm)
        rows = max((len(t) for t in self._tops), default=0)
        col_w = max(80.0, (self.width() - 2 * margin - (n - 1) * gap) / n)
        return _Geometry(margin, math.ceil(fm.height() * 1.9), self.row_height, col_w, gap,
                         rows)

    def least_width(self, lists: int | None = None) -> int:
        """The width at which every list shown (or `lists` of them) still reads its ids
        (READABLE_ID_CHARS, after the rank and the relevance mark): the compare window's lists
        scroll sideways below it, rather than draw lists of "…" (r51 1)."""
        fm = QFontMetricsF(self._font)
        n = max(1, len(self.columns) if lists is None else lists)
        rank = 4 + fm.horizontalAdvance("000") + 6 + round(fm.height() * 0.6) + 6
        column = rank + READABLE_ID_CHARS * fm.averageCharWidth() + 8
        return math.ceil(max(360.0, n * column + (n - 1) * _gap(n, fm) + 12))

    def sizeHint(self) -> QSize:  # Qt override
        fm = QFontMetricsF(self._font)
        n = max(1, len(self.columns))
        rows = max((len(t) for t in self._tops), default=self.k)
        width = n * 36 * fm.averageCharWidth() + (n - 1) * _gap(n, fm) + 12
        # the slot and the legend: the relevance marks and what the marks are against, on one
        # line where they fit side by side (the second line had cost the metric table a row
        # at 1,280 × 800: review r48, dr1 8)
        lines = 2 if self.marks_keys() and self._marks_key_inline() is None else 1
        height = 12 + fm.height() * 1.9 + (rows + 2.0 + lines) * self.row_height
        return QSize(int(width), int(height))

    def row_rect(self, column: int, rank: int) -> QRectF:
        """The rectangle of the row of 1-based `rank` in display column `column`."""
        return self._geometry().row_rect(column, rank)

    def slot_rect(self, column: int) -> QRectF:
        """The "below top k" slot at the foot of display column `column`."""
        return self._geometry().slot_rect(column)

    def list_end(self, column: int) -> ListEnd:
        """Where display column `column`'s list for the query ends, and why (`list_end`)."""
        assert self.comparison is not None
        return list_end(self.comparison, self.columns[column], self.query)

    def slot_captions(self, column: int) -> list[str]:
        """Where display column `column`'s list ends, as its box may say it, longest first."""
        return slot_captions(self.k, self.list_end(column))

    def box_captions(self, column: int) -> list[str]:
        """What the box at display column `column`'s foot may say, longest first: where its
        list ends; in a later list that lacks some of the first's top k, those too
        (`out_captions`)."""
        ends = self.slot_captions(column)
        comp = self.comparison
        if comp is None or column == 0:
            return ends
        first = comp.configs[self.columns[0]].name
        ids = [comp.dataset.corpus[d].id for d in self.missing(column)]
        return out_captions(self.k, first, ids, ends) or ends

    def slot_tooltip(self, column: int) -> str:
        comp = self.comparison
        assert comp is not None
        name = comp.configs[self.columns[column]].name
        tip = slot_tip(self.k, self.list_end(column), name)
        lacking = [(comp.dataset.corpus[d].id, self._place(column, d))
                   for d in self.missing(column)] if column > 0 else []
        out = out_tip(self.k, comp.configs[self.columns[0]].name, lacking)
        return f"{tip}\n{out}" if out else tip

    def slot_at(self, pos: QPoint | QPointF) -> int | None:
        """The display column whose foot box is under `pos`, or None."""
        if self._t is not None or self.comparison is None:
            return None
        g = self._geometry()
        return next((c for c in range(len(self._tops)) if g.slot_rect(c).contains(QPointF(pos))),
                    None)

    def marks(self, column: int) -> dict[int, str]:
        """The tag of each tagged document of display column `column`: NEW in a later list
        where the first's top k lacks it; none in the first list (what a later list lacks
        of it, its box says: `missing`)."""
        if len(self._tops) < 2 or not 0 < column < len(self._tops):
            return {}
        first = self._tops[0]
        return {doc: NEW for doc in self._tops[column] if doc not in first}

    def missing(self, column: int) -> list[int]:
        """The first list's top k that display column `column`'s top k lacks, in the first's
        order ([] for the first)."""
        if not 0 < column < len(self._tops):
            return []
        return [d for d in self._tops[0] if d not in self._tops[column]]

    def left_out(self, doc: int) -> list[int]:
        """The display columns after the first whose top k lacks `doc`."""
        return [c for c in range(1, len(self._tops)) if doc not in self._tops[c]]

    def marks_keys(self) -> list[str]:
        """What the marks are measured against, as the legend may say it, longest first ([]
        with fewer than two lists)."""
        comp = self.comparison
        if comp is None or len(self._tops) < 2:
            return []
        first, k = comp.configs[self.columns[0]].name, self.k
        return [f"against the first list, {first}: {NEW} not in its top {k} · {OUT} in a box: "
                f"its top {k} missing from that list",
                f"against the first list: {NEW} not in its top {k} · {OUT} in a box: its top "
                f"{k} that list lacks",
                f"against the first list: {NEW} not in its top {k} · {OUT} in a box: those "
                "that list lacks",
                f"against the first list: {NEW} · {OUT} in a box"]

    def _rank(self, c: int, doc: int) -> int | None:
        top = self._tops[c]
        return top.index(doc) + 1 if doc in top else None

    def lines(self) -> list[Line]:
        """Every line drawn: (doc, left column, left rank or None, right rank or None), None
        meaning the line ends in that column's below-k slot."""
        return [(doc, c, a, b) for doc, c, a, b, _s, _e in self._lines()]

    def line_ends(self) -> list[tuple[QPointF, QPointF]]:
        """The two ends of each line of `lines()`, in the same order."""
        return [(s, e) for *_, s, e in self._lines()]

    def _lines(self) -> list[tuple[int, int, int | None, int | None, QPointF, QPointF]]:
        if self._t is not None or len(self._tops) < 2:
            return []
        g = self._geometry()
        out = []
        for c in range(len(self._tops) - 1):
            left, right = self._tops[c], self._tops[c + 1]
            docs = left + [d for d in right if d not in left]
            # an entering document comes from the left column's slot, a leaving one goes
            # into the right column's
            entering = [d for d in right if d not in left]
            leaving = [d for d in left if d not in right]
            for doc in docs:
                a, b = self._rank(c, doc), self._rank(c + 1, doc)
                start = QPointF(g.col_x(c) + g.col_w, self._end_y(g, c, a, doc, entering))
                end = QPointF(g.col_x(c + 1), self._end_y(g, c + 1, b, doc, leaving))
                out.append((doc, c, a, b, start, end))
        return out

    @staticmethod
    def _end_y(g: _Geometry, c: int, rank: int | None, doc: int, in_slot: list[int]) -> float:
        if rank is not None:
            return g.row_top(rank) + g.row_h / 2
        slot = g.slot_rect(c)  # several lines into one slot: spread over its height
        j = in_slot.index(doc)
        return slot.top() + slot.height() * (j + 1) / (len(in_slot) + 1)

    def row_at(self, pos: QPoint | QPointF) -> tuple[int, int] | None:
        """(display column, doc) of the row under `pos`, or None (during a replay the single
        list counts as column 0)."""
        p = QPointF(pos)
        if self._t is not None:
            hit = [(doc, op) for doc, y, op in self.replay_frame()
                   if op > 0.5 and abs(p.y() - y) < self.row_height / 2]
            return (0, hit[-1][0]) if hit else None
        g = self._geometry()
        for c, top in enumerate(self._tops):
            x = g.col_x(c)
            if x <= p.x() < x + g.col_w:
                rank = math.floor((p.y() - g.row_top(1)) / g.row_h) + 1
                if 1 <= rank <= len(top):
                    return c, top[rank - 1]
        return None

    # -- replay -------------------------------------------------------------------------------

    def replay(self, duration_ms: int = 1500) -> None:
        """Animate one list from the first shown column's order to the second's; then back to
        the columns and `replay_finished` (also when cut short by a change of what is shown)."""
        if len(self._tops) < 2:
            raise ValueError("a replay needs two columns")
        self._anim.stop()
        self._anim.setDuration(max(1, int(duration_ms)))
        self._t = 0.0
        self._anim.start()

    @property
    def replaying(self) -> bool:
        return self._anim.state() == QVariantAnimation.State.Running

    def set_replay_position(self, t: float | None) -> None:
        """Draw the replay's frame at `t` (0: first column's order, 1: second's); None: back
        to the columns. A running replay stops here."""
        if t is not None and len(self._tops) < 2:
            raise ValueError("a replay needs two columns")
        self._stop_replay()
        self._t = None if t is None else min(1.0, max(0.0, float(t)))
        self.update()

    def _stop_replay(self) -> None:
        """Cut a running replay short (it still says `replay_finished`)."""
        self._t = None
        if self.replaying:
            self._anim.stop()  # QAbstractAnimation.stop does not emit finished
            self.replay_finished.emit()

    def replay_frame(self) -> list[tuple[int, float, float]]:
        """(doc, row centre y, opacity) of each document at the current replay position, in
        painting order ([] when not replaying)."""
        if self._t is None:
            return []
        t, g = self._t, self._geometry()
        a_top, b_top = self._tops[0], self._tops[1]
        slot_y = g.slot_rect(0).center().y()
        frame = []
        for doc in a_top + [d for d in b_top if d not in a_top]:
            a, b = self._rank(0, doc), self._rank(1, doc)
            ya = slot_y if a is None else g.row_top(a) + g.row_h / 2
            yb = slot_y if b is None else g.row_top(b) + g.row_h / 2
            opacity = t if a is None else (1 - t) if b is None else 1.0
            frame.append((doc, ya + (yb - ya) * t, opacity))
        # unchanged rows first, so moving ones pass over them
        frame.sort(key=lambda f: self._rank(0, f[0]) != self._rank(1, f[0]))
        return frame

    def _on_frame(self, value: object) -> None:
        if self.replaying:
            self._t = float(value)  # type: ignore[arg-type]
            self.update()

    def _on_replay_done(self) -> None:
        self._t = None
        self.update()
        self.replay_finished.emit()

    # -- input --------------------------------------------------------------------------------

    def mousePressEvent(self, event: QMouseEvent) -> None:  # Qt override
        hit = self.row_at(event.position())
        if hit is not None and event.button() == Qt.MouseButton.LeftButton:
            self.selected = hit[1]
            self.clicked = self.columns[hit[0]] if hit[0] < len(self.columns) else None
            self.update()
            self.doc_selected.emit(hit[1])
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:  # Qt override
        hit, slot = self.row_at(event.position()), self.slot_at(event.position())
        # and what a click does, last (the explain pane waits folded: r51 dr3 4)
        click = f"\n{CLICK_TIP}" if self._t is None else ""
        self.setToolTip(self._tooltip(hit[1], hit[0]) + click if hit is not None else
                        self.slot_tooltip(slot) if slot is not None else "")
        super().mouseMoveEvent(event)

    def _tooltip(self, doc: int, column: int | None = None) -> str:
        """`doc`'s id, title, grade and place in each list; in display column `column`, what
        its tag says, and against which list."""
        comp = self.comparison
        assert comp is not None
        d = comp.dataset.corpus[doc]
        ranks = ", ".join(f"{comp.configs[c].name}: {self._place(j, doc)}"
                          for j, c in enumerate(self.columns))
        said = self._marks_said(doc, column) if column is not None and self._t is None else ""
        return "\n".join(t for t in (d.id, shown_title(comp.dataset.corpus, d),
                                     grade_text(self._grade(doc)), ranks, said) if t)

    def _marks_said(self, doc: int, column: int) -> str:
        """What `doc`'s row in display column `column` is marked with, against the first
        list, and, where the line into it says something else, where the list to its left
        has it: a ▲new row's line can come from a rank there, an untagged row's from the
        box ("▲new: not in the top 10 of defaults, the first list; in flat, to the left, at
        rank 12")."""
        comp = self.comparison
        assert comp is not None
        names = [comp.configs[c].name for c in self.columns]
        k = self.k
        if column == 0:
            lacking = [names[c] for c in self.left_out(doc)]
            return (f"not in the top {k} of {', '.join(lacking)} ({OUT} in "
                    f"{'its box' if len(lacking) == 1 else 'their boxes'})" if lacking else "")
        if doc not in self._tops[column]:
            return ""
        first = self._rank(0, doc)
        left = "" if column == 1 else (f"; in {names[column - 1]}, to the left, "
                                       f"{self._where(column - 1, doc)}")
        if first is None:
            there = f" (there {self._where(0, doc)})" if column == 1 else left
            return f"{NEW}: not in the top {k} of {names[0]}, the first list{there}"
        if column > 1 and self._rank(column - 1, doc) is None:  # its line from the box
            return (f"no tag: in the top {k} of {names[0]}, the first list, at rank "
                    f"{first}{left}")
        return ""

    def _where(self, j: int, doc: int) -> str:
        """`doc`'s place in display column j's list, as a phrase: "at rank 3", "at rank 12,
        below its top 10", "not returned (past the limit of 5)"."""
        place = self._place(j, doc)
        if place.isdigit():
            return f"at rank {place}"
        if place.startswith("#"):
            return f"at rank {place[1:].split(',')[0]}, below its top {self.k}"
        return place

    def _place(self, j: int, doc: int) -> str:
        """`doc`'s place in display column j's list: its rank; "#14, below top 10"; or "not
        returned", with what ended the list where known ("past the limit of 5")."""
        comp = self.comparison
        assert comp is not None
        rank = self._rank(j, doc)
        if rank is not None:
            return str(rank)
        ranking = comp.results[self.columns[j]].ranking
        row = ranking.docs[self.query, :int(ranking.count[self.query])]
        hit = np.flatnonzero(row == doc)
        if hit.size:
            return f"#{int(hit[0]) + 1}, below top {self.k}"
        end = self.list_end(j)
        scores = comp.results[self.columns[j]].scores
        if not is_scored(scores, self.query, doc):
            return "not returned (not a candidate)"
        gate = gate_of(scores, self.query, doc)
        if gate == LIMIT_GATE:
            return f"not returned (past the limit of {end.returned:,})"
        if gate == MIN_SCORE_GATE:
            return "not returned (under its min score)"
        if gate is not None:
            return f"not returned (filtered out: {gate})"
        why = {LIMIT: f" (past {end.setting})", FLOOR: f" (under {end.setting})"}
        return "not returned" + why.get(end.cause, "")

    def _grade(self, doc: int) -> int | None:
        comp = self.comparison
        assert comp is not None
        qid = comp.dataset.queries[self.query].id
        return (comp.dataset.qrels or {}).get(qid, {}).get(comp.dataset.corpus[doc].id)

    # -- painting -----------------------------------------------------------------------------

    def paintEvent(self, event: QPaintEvent) -> None:  # Qt override
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.fillRect(self.rect(), QColor("white"))
        p.setFont(self._font)
        comp = self.comparison
        if comp is None or not self._tops:
            p.setPen(QColor(MUTED))
            p.drawText(self.rect().adjusted(24, 0, -24, 0),
                       int(Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap),
                       self.empty_text)
            p.end()
            return
        g = self._geometry()
        try:
            if self._t is not None:
                self._paint_replay(p, g)
            else:
                self._paint_columns(p, g)
        finally:
            p.end()

    def _paint_columns(self, p: QPainter, g: _Geometry) -> None:
        comp = self.comparison
        assert comp is not None
        for c, top in enumerate(self._tops):
            name = comp.configs[self.columns[c]].name
            paint_header(p, QRectF(g.col_x(c), g.margin, g.col_w, g.header_h), name,
                         self._font)
            marks = self.marks(c)
            for rank, doc in enumerate(top, 1):
                tag = marks.get(doc)
                tags = [] if tag is None else [(tag, BETTER if tag == NEW else WORSE)]
                self._paint_row(p, g.row_rect(c, rank), str(rank), doc, tags, 1.0, rank)
            if not top and g.rows:  # beside longer lists; where all are empty, the box
                # under the head says it alone ("nothing ranked" had been drawn over its
                # "nothing returned": dr3, outside the diff)
                p.setPen(QColor(MUTED))
                p.drawText(g.row_rect(c, 1), Qt.AlignmentFlag.AlignCenter, "nothing ranked")
            # a column that ranked fewer than k (vault-search's limit 5) did not return the
            # documents its lines go down to: they were not "below top 10"
            paint_slot(p, g.slot_rect(c), self.k, self._font, self.box_captions(c))
        self._paint_lines(p)
        self._paint_legend(p, g)

    def legend(self) -> list[tuple[int | None, str]]:
        """The relevance marks the legend keys: each grade's mark and what it means; one,
        said so, where the data judges nothing."""
        comp = self.comparison
        if comp is not None and not comp.dataset.qrels:
            return [(None, "not judged (the data has no judgments)")]
        return [(2, "relevant (darker: higher grade)"), (0, "judged not relevant"),
                (None, "not judged")]

    def _legend_width(self) -> float:
        """The width the relevance marks' legend takes, from its left edge to after its last
        text and a gap."""
        fm = QFontMetricsF(self._font)
        side = round(fm.height() * 0.6)
        return sum(side + 5 + fm.horizontalAdvance(text) + 16 for _, text in self.legend())

    def _seen_left(self) -> int:
        """Where the lists in sight begin in this widget: scrolled sideways in a scroll area,
        the viewport's left edge (the legend drawn at x = 0 had scrolled out of sight: r51 dr3
        6)."""
        parent = self.parentWidget()
        return max(0, -self.x()) if parent is not None else 0

    def _seen_width(self) -> int:
        """The width of the lists in sight: in a scroll area (`least_width`), its viewport's,
        so that the legend at their left reads whole there (it had run on out of sight)."""
        parent = self.parentWidget()
        return min(self.width(), parent.width()) if parent is not None else self.width()

    def _marks_key_inline(self) -> str | None:
        """The longest of `marks_keys` but its last (too terse without the room beside it;
        but with `terse_key_inline`) that fits after the relevance legend on its line, or
        None."""
        room = self._seen_width() - 2 * 6.0 - 4 - self._legend_width()
        fm = QFontMetricsF(self._font)
        keys = self.marks_keys()
        return next((key for key in (keys if self.terse_key_inline else keys[:-1])
                     if fm.horizontalAdvance(key) <= room), None)

    def _paint_legend(self, p: QPainter, g: _Geometry) -> None:
        """What the relevance marks mean, under the slots; then what the marks are against,
        beside them where it fits, else on a line of its own."""
        fm = QFontMetricsF(self._font)
        side = round(fm.height() * 0.6)
        x = g.margin + 4 + self._seen_left()
        y = g.slot_rect(0).bottom() + g.row_h * 0.3
        for grade, text in self.legend():
            p.setPen(QPen(QColor("#57606a"), 1))
            p.setBrush(grade_brush(grade))
            p.drawRect(QRectF(x, y + (g.row_h - side) / 2, side, side))
            x += side + 5
            p.setPen(QColor(MUTED))
            p.drawText(QRectF(x, y, fm.horizontalAdvance(text) + 2, g.row_h),
                       Qt.AlignmentFlag.AlignVCenter, text)
            x += fm.horizontalAdvance(text) + 16
        inline = self._marks_key_inline()
        if inline is not None:
            self._paint_marks_key(p, g, y, inline, x)
        else:
            self._paint_marks_key(p, g, y + g.row_h)

    def _paint_marks_key(self, p: QPainter, g: _Geometry, y: float, key: str | None = None,
                         x: float | None = None) -> None:
        """`key` at `x`, else `marks_keys`' first that fits on a line of its own; its marks in
        their colours."""
        keys = self.marks_keys()
        if not keys:
            return
        fm = QFontMetricsF(self._font)
        left = self._seen_left()
        x, right = g.margin + 4 + left if x is None else x, left + self._seen_width() - g.margin
        key = fitting(keys, right - x, fm) if key is None else key
        for part in re.split(f"({NEW}|{OUT})", key):  # the marks in their colours
            if not part:
                continue
            color = BETTER if part == NEW else WORSE if part == OUT else QColor(MUTED)
            p.setPen(color)
            w = fm.horizontalAdvance(part)
            p.drawText(QRectF(x, y, w + 2, g.row_h), Qt.AlignmentFlag.AlignVCenter, part)
            x += w

    def _paint_lines(self, p: QPainter) -> None:
        width = 1.6 * self.font_scale
        lines = self._lines()
        # the selected document's lines last, on top
        lines.sort(key=lambda ln: ln[0] == self.selected)
        for doc, _c, a, b, start, end in lines:
            if a is None or (b is not None and b < a):
                color = QColor(BETTER)
            elif b is None or b > a:
                color = QColor(WORSE)
            else:
                color = QColor(NEUTRAL)
            chosen = doc == self.selected
            if self.selected is not None and not chosen:
                color.setAlpha(70)
            pen = QPen(color, width * (2.2 if chosen else 1.0))
            pen.setCapStyle(Qt.PenCapStyle.RoundCap)
            p.setPen(pen)
            p.setBrush(Qt.BrushStyle.NoBrush)
            bend = (end.x() - start.x()) / 2
            path = QPainterPath(start)
            path.cubicTo(start + QPointF(bend, 0), end - QPointF(bend, 0), end)
            p.drawPath(path)

    def _paint_replay(self, p: QPainter, g: _Geometry) -> None:
        comp = self.comparison
        assert comp is not None
        a, b = (comp.configs[c].name for c in self.columns[:2])
        width = min(self.width() - 2 * g.margin,
                    max(g.col_w, 70 * QFontMetricsF(self._font).averageCharWidth()))
        paint_header(p, QRectF(g.margin, g.margin, width, g.header_h), f"{a}  →  {b}",
                     self._font)
        rank_w = QFontMetricsF(self._font).horizontalAdvance("000") + 8
        p.setPen(QColor(MUTED))
        for rank in range(1, g.rows + 1):
            r = QRectF(g.margin, g.row_top(rank), rank_w - 6, g.row_h)
            p.drawText(r, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, str(rank))
        paint_slot(p, QRectF(g.margin + rank_w, g.slot_rect(0).top(), width - rank_w, g.row_h),
                   self.k, self._font)
        for doc, y, opacity in self.replay_frame():
            if opacity <= 0:
                continue
            ra, rb = self._rank(0, doc), self._rank(1, doc)
            rect = QRectF(g.margin + rank_w, y - g.row_h / 2, width - rank_w, g.row_h)
            stripe = (BETTER if ra is None or (rb is not None and rb < ra)
                      else WORSE if rb is None or rb > ra else None)
            self._paint_row(p, rect, "", doc, [], opacity, 0, stripe)


    def _paint_row(self, p: QPainter, rect: QRectF, rank: str, doc: int,
                   tags: list[tuple[str, QColor]], opacity: float, index: int,
                   stripe: QColor | None = None) -> None:
        comp = self.comparison
        assert comp is not None
        corpus = comp.dataset.corpus
        paint_row(p, rect, Row(rank, corpus[doc], self._grade(doc), doc == self.selected,
                               tags, opacity, index, stripe, shown_title(corpus, corpus[doc])),
                  self._font, self.font_scale)

def _gap(columns: int, fm: QFontMetricsF) -> float:
    """The room between two lists, for the lines joining them: narrower with three lists or
    more, the lists' ids the wider (four at 1,280 px had read "roast…ck.md": rv3, F10)."""
    return max(60.0, 5.5 * fm.height()) if columns <= 2 else max(44.0, 3.5 * fm.height())


def top_k_docs(comp: Comparison, i: int, query: int, k: int) -> list[int]:
    """Configuration i's top k for `query` (corpus indices, best first)."""
    ranking = comp.results[i].ranking
    n = min(k, int(ranking.count[query]), ranking.docs.shape[1])
    return [int(d) for d in np.asarray(ranking.docs[query, :n]) if d >= 0]
