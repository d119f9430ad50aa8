"""How `RankLines` paints one row of a ranked list, a column's header and the "below top k"
slot: the row's rank, its relevance mark (filled by judged grade, hollow when not judged),
a ▲new tag at its right, and the document id and title sharing what room is left.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontInfo, QFontMetricsF, QPainter, QPen

from workbench.core.data import Corpus, Document, display_title
from workbench.gui.charts._base import INK, MUTED
from workbench.gui.palette import WORSE

HIGHLIGHT = QColor("#fff1b8")  # the selected document's rows (and the current query's bar)
# judged grade → fill: grey for judged not relevant, deeper green the more relevant
_GRADE_FILL = ("#d0d7de", "#a5d6a7", "#43a047", "#1b5e20")


@dataclass(frozen=True)
class Row:
    """One row to paint: `rank` "" in the replay (no rank column); `index` picks the stripe
    of alternate rows; `stripe` a coloured edge (the replay's rose / fell)."""

    rank: str
    doc: Document
    grade: int | None
    selected: bool
    tags: list[tuple[str, QColor]]
    opacity: float = 1.0
    index: int = 0
    stripe: QColor | None = None
    title: str = ""  # beside the id (`shown_title`): "" where it would repeat it


def paint_row(p: QPainter, rect: QRectF, row: Row, font: QFont, font_scale: float) -> None:
    fm = QFontMetricsF(font)
    p.save()
    p.setOpacity(row.opacity)
    back = (HIGHLIGHT if row.selected
            else QColor("#f6f8fa") if row.index % 2 == 0 else QColor("white"))
    p.fillRect(rect.adjusted(0, 1, 0, -1), back)
    if row.selected:
        p.setPen(QPen(QColor("#bf8700"), 1.2))
        p.drawRect(rect.adjusted(0.5, 1.5, -0.5, -1.5))
    if row.stripe is not None:
        p.fillRect(QRectF(rect.left(), rect.top() + 1, 3 * font_scale, rect.height() - 2),
                   row.stripe)
    x = rect.left() + 4
    mid = Qt.AlignmentFlag.AlignVCenter
    if row.rank:
        rank_w = fm.horizontalAdvance("000")
        p.setPen(QColor(MUTED))
        p.drawText(QRectF(x, rect.top(), rank_w, rect.height()),
                   Qt.AlignmentFlag.AlignRight | mid, row.rank)
        x += rank_w + 6
    else:
        x += 4 * font_scale
    side = round(fm.height() * 0.6)
    square = QRectF(x, rect.center().y() - side / 2, side, side)
    p.setPen(QPen(QColor("#57606a"), 1))
    p.setBrush(grade_brush(row.grade))
    p.drawRect(square)
    x = _names_left(rect, row, fm, font_scale)  # after the mark, as `row_texts` has it
    # the id readable first, then the tag whole, then the title (at 1,024 px a ▲new row had
    # read "□ … ▲new", its id "d003" gone: dr3 11)
    right = _paint_tags(p, rect, row.tags, font, left=x,
                        keep=readable_width(row.doc.id, fm) + 4)
    p.setFont(font)
    _paint_names(p, rect, row.doc, row.title, x, right, fm)
    p.restore()


def row_texts(rect: QRectF, row: Row, font: QFont, font_scale: float
              ) -> tuple[list[str], str, str]:
    """What `paint_row` draws of `row` in `rect`: its tags, its id and its title, each as
    fitted ("" for a title left out)."""
    fm = QFontMetricsF(font)
    x = _names_left(rect, row, fm, font_scale)
    tags, right = fit_tags(row.tags, font, x, rect.right() - 4,
                           readable_width(row.doc.id, fm) + 4)
    id_text, title = name_texts(row.doc.id, row.title, max(0.0, right - x), fm)
    return [text for text, _, _ in tags], id_text, title


def _names_left(rect: QRectF, row: Row, fm: QFontMetricsF, font_scale: float) -> float:
    """Where a row's id starts: after its rank (none in the replay) and relevance mark."""
    x = rect.left() + 4 + (fm.horizontalAdvance("000") + 6 if row.rank else 4 * font_scale)
    return x + round(fm.height() * 0.6) + 6


def tag_font(font: QFont) -> QFont:
    """The tags' font: smaller, bold."""
    small = QFont(font)
    small.setPointSizeF(points(font) * 0.85)
    small.setBold(True)
    return small


def fit_tags(tags: list[tuple[str, QColor]], font: QFont, left: float | None, right: float,
             keep: float = 0.0) -> tuple[list[tuple[str, QColor, float]], float]:
    """The tags as drawn right-aligned at `right`, never left of `left`: each (text, colour,
    its left edge); "▲new" shrinks to "▲" where it would leave less than `keep` px after
    `left` (the id's readable width), and a tag that does not fit as an arrow either is left
    out rather than drawn over the rank; and where the room left of them ends."""
    sfm = QFontMetricsF(tag_font(font))
    out = []
    for text, color in reversed(tags):
        w = sfm.horizontalAdvance(text)
        if left is not None and right - w < left + keep:
            text = text[:1]  # the arrow alone
            w = sfm.horizontalAdvance(text)
            if right - w < left:
                break
        out.append((text, color, right - w))
        right -= w + 4
    return out[::-1], right


def _paint_tags(p: QPainter, rect: QRectF, tags: list[tuple[str, QColor]],
                font: QFont, left: float | None = None, keep: float = 0.0) -> float:
    """The tags, right-aligned in a smaller bold font (`fit_tags`); where the room left of
    them ends."""
    fitted, right = fit_tags(tags, font, left, rect.right() - 4, keep)
    sfm = QFontMetricsF(tag_font(font))
    p.setFont(tag_font(font))
    for text, color, x in fitted:
        p.setPen(color)
        p.drawText(QRectF(x, rect.top(), sfm.horizontalAdvance(text), rect.height()),
                   Qt.AlignmentFlag.AlignVCenter, text)
    return right


MIN_TITLE_CHARS = 12  # a title squeezed under this leaves the id the row ("Firs…" told nothing)


def id_width(room: float, id_w: float, title_w: float, min_title: float = 0.0) -> float:
    """The width a document's id gets in a list row of `room` px: the whole row when it and
    the title fit; else the id (what tells documents apart) keeps up to 70 % of it, the title
    the rest (at 45 % a 290-px list had shown "brewi…ry.md Water chemis…" at 1,280 px with a
    document explained); and the whole row where that would leave the title under
    `min_title` px (four lists at 1,280 px had shown "roast…ck.md Firs…": review rv3, F10)."""
    if id_w + title_w <= room:
        return room
    width = max(min(id_w, room * 0.7), room - title_w)
    return room if room - width < min_title else width


def elide_id(doc_id: str, width: float, fm: QFontMetricsF) -> str:
    """`doc_id` in `width` px: whole where it fits; a path keeps its file name whole and as
    much of its folders as fits before it ("roast…/first-crack.md", not "roast…ck.md"); a
    file name too long for the row, or an id that is no path, is elided in the middle."""
    if fm.horizontalAdvance(doc_id) <= width:
        return doc_id
    head, sep, name = doc_id.rpartition("/")
    tail = sep + name
    if sep and fm.horizontalAdvance("…" + tail) <= width:
        folders = fm.elidedText(head, Qt.TextElideMode.ElideRight,
                                width - fm.horizontalAdvance(tail))
        return (folders or "…") + tail
    return fm.elidedText(name if sep else doc_id, Qt.TextElideMode.ElideMiddle, width)


def readable_width(doc_id: str, fm: QFontMetricsF) -> float:
    """The least width at which `doc_id` still tells its document apart: whole; a path, its
    file name whole after "…/"; another id, its first six and last five characters
    ("m44-co…style")."""
    _, sep, name = doc_id.rpartition("/")
    short = "…/" + name if sep else doc_id[:6] + "…" + doc_id[-5:]
    return min(fm.horizontalAdvance(doc_id), fm.horizontalAdvance(short))


def name_texts(doc_id: str, title: str, room: float, fm: QFontMetricsF) -> tuple[str, str]:
    """A row's id and title as fitted to `room` px: the id's share (`id_width`), never less
    than its readable width where the row has that (the title gives way first), elided
    (`elide_id`); the title in what is left, "" where under three characters' room."""
    title_w = fm.horizontalAdvance(title) + 8 if title else 0.0
    id_room = id_width(room, fm.horizontalAdvance(doc_id), title_w,
                       fm.averageCharWidth() * MIN_TITLE_CHARS + 8)
    id_text = elide_id(doc_id, max(id_room, min(room, readable_width(doc_id, fm))), fm)
    left = room - fm.horizontalAdvance(id_text) - 8
    if not title or left <= fm.averageCharWidth() * 3:
        return id_text, ""
    return id_text, fm.elidedText(title, Qt.TextElideMode.ElideRight, left)


def _paint_names(p: QPainter, rect: QRectF, d: Document, title: str, x: float, right: float,
                 fm: QFontMetricsF) -> None:
    mid = Qt.AlignmentFlag.AlignVCenter
    room = max(0.0, right - x)
    id_text, shown = name_texts(d.id, title, room, fm)
    p.setPen(QColor(INK))
    p.drawText(QRectF(x, rect.top(), room, rect.height()), mid, id_text)
    x += fm.horizontalAdvance(id_text) + 8
    if shown:
        p.setPen(QColor(MUTED))
        p.drawText(QRectF(x, rect.top(), right - x, rect.height()), mid, shown)


def paint_header(p: QPainter, rect: QRectF, text: str, font: QFont) -> None:
    bold = QFont(font)
    bold.setBold(True)
    p.setFont(bold)
    p.setPen(QColor(INK))
    fm = QFontMetricsF(bold)
    p.drawText(rect.adjusted(4, 0, -4, 0), Qt.AlignmentFlag.AlignLeft
               | Qt.AlignmentFlag.AlignVCenter,
               fm.elidedText(text, Qt.TextElideMode.ElideRight, rect.width() - 8))
    p.setPen(QPen(QColor("#d0d7de"), 1))
    p.drawLine(rect.bottomLeft() - QPointF(0, 2), rect.bottomRight() - QPointF(0, 2))
    p.setFont(font)


def paint_slot(p: QPainter, rect: QRectF, k: int, font: QFont,
               captions: list[str] | None = None) -> None:
    """The dashed "below top k" box at a column's foot (`captions`: another caption, longest
    first; the first that fits the box is drawn, else the last, elided)."""
    pen = QPen(QColor("#8c959f"), 1, Qt.PenStyle.DashLine)
    p.setPen(pen)
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.drawRoundedRect(rect.adjusted(0.5, 0.5, -0.5, -0.5), 4, 4)
    italic = QFont(font)
    italic.setItalic(True)
    p.setFont(italic)
    p.setPen(QColor(MUTED))
    fm = QFontMetricsF(italic)
    text = fitting(captions or [f"below top {k}"], rect.width() - 8, fm)
    # from a ▼ on (the first list's documents this one lacks) in the colour of a fall
    at = text.find("▼")
    if at < 0:
        p.drawText(rect, Qt.AlignmentFlag.AlignCenter, text)
    else:
        x = rect.center().x() - fm.horizontalAdvance(text) / 2
        for part, color in ((text[:at], QColor(MUTED)), (text[at:], WORSE)):
            w = fm.horizontalAdvance(part)
            p.setPen(color)
            p.drawText(QRectF(x, rect.top(), w + 2, rect.height()),
                       Qt.AlignmentFlag.AlignVCenter, part)
            x += w
    p.setFont(font)


def fitting(captions: list[str], width: float, fm: QFontMetricsF) -> str:
    """The first of `captions` (longest first) that fits `width` px, else the last, elided."""
    for text in captions:
        if fm.horizontalAdvance(text) <= width:
            return text
    return fm.elidedText(captions[-1], Qt.TextElideMode.ElideRight, width)


def points(font: QFont) -> float:
    """`font`'s size in points, also where it is set in pixels (style.qss's 13px, for which
    `pointSizeF` is -1)."""
    return QFontInfo(font).pointSizeF()


def scaled_font(font: QFont, base_pt: float, f: float) -> QFont:
    """`font` at `f` times `base_pt` points."""
    out = QFont(font)
    out.setPointSizeF(base_pt * f)
    return out


def grade_brush(grade: int | None) -> QBrush:
    """The relevance mark's fill: none (hollow) when not judged."""
    if grade is None:
        return QBrush(Qt.BrushStyle.NoBrush)
    return QBrush(QColor(_GRADE_FILL[min(max(grade, 0), len(_GRADE_FILL) - 1)]))


def grade_text(grade: int | None) -> str:
    if grade is None:
        return "not judged"
    return "judged not relevant (0)" if grade <= 0 else f"judged relevant, grade {grade}"


def shown_title(corpus: Corpus, doc: Document) -> str:
    """The title beside the id (`display_title`: an OpenVault memory's type and first line),
    unless it repeats it (a repository's file: its path is both)."""
    title = display_title(corpus, doc)
    return title if title != doc.id else ""
