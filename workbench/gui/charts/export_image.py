"""A chart as an exported picture: the panel's title and a line of context (dataset, model,
query, held values) drawn above the plot, at a fixed 16:9 size whatever the shape of the plot
on screen. The picture had been the plot alone, as wide and short as its strip (3808 × 350),
with nothing to say which data, model or query it showed (review r49, rg 5)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pyqtgraph as pg
from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QImage, QPainter
from PySide6.QtWidgets import QApplication, QGraphicsItem

from workbench.gui.export_csv import write_image, write_svg_drawing

SIZE = QSize(800, 450)  # the picture, logical px: the PNG is drawn at SCALE × that (1600 × 900)
SCALE = 2
MARGIN = 12  # px around the header's text
TITLE_PX, CONTEXT_PX = 17, 13  # the title's and the context line's font sizes
MAX_LINES = 3  # the title and the context each wrap to this many lines, the last elided
INK, MUTED = "#24292f", "#57606a"


def plain(text: str) -> str:
    """A caption's text without its markup ("<b>…</b>", "&amp;")."""
    text = re.sub(r"<br\s*/?>", " ", text)
    text = re.sub(r"<[^>]+>", "", text)
    return (text.replace("&nbsp;", " ").replace("&lt;", "<").replace("&gt;", ">")
            .replace("&amp;", "&"))


def _font(px: int, bold: bool = False) -> QFont:
    font = QFont(QApplication.font())
    font.setPixelSize(px)
    font.setBold(bold)
    return font


def wrapped(text: str, font: QFont, width: int, max_lines: int = MAX_LINES) -> list[str]:
    """`text` broken at spaces into lines of at most `width` px, at most `max_lines` of them
    (the last elided with "…" where more would follow); a word wider than a line is elided.
    One elided line had lost the values that made the picture ("…, inject_limit = 2" cut)
    (review r49, dr4 8). A "name = value" stays on one line, and a " · " ends the line it
    is on: "now" and "= 2026-…" had been split across two (dr6 3)."""
    fm = QFontMetrics(font)
    lines: list[str] = []
    line = ""
    words = _units(text)
    for i, word in enumerate(words):
        trial = f"{line} {word}" if line else word
        if fm.horizontalAdvance(trial) <= width or not line:
            line = trial
            continue
        lines.append(line)
        line = word
        if len(lines) == max_lines - 1:  # the last line: the rest, elided where it is long
            line = " ".join(words[i:])
            break
    if line:
        lines.append(line)
    return [fm.elidedText(t, Qt.TextElideMode.ElideRight, width) for t in lines]


def _units(text: str) -> list[str]:
    """`text`'s words, "name = value" kept as one, a lone "·" joined to the word before it:
    the places a line may break."""
    units: list[str] = []
    for word in text.split(" "):
        if units and (word in ("=", "·") or units[-1].endswith(" =")):
            units[-1] += f" {word}"
        else:
            units.append(word)
    return units


def _blocks(width: int, title: str, context: str) -> list[tuple[list[str], QFont, str]]:
    room = width - 2 * MARGIN
    out = []
    for text, font, color in ((title, _font(TITLE_PX, True), INK),
                              (context, _font(CONTEXT_PX), MUTED)):
        if text:
            out.append((wrapped(text, font, room), font, color))
    return out


def header_height(width: int, title: str, context: str) -> int:
    """The header's height at `width`: its margins and the lines the title and context
    wrap to."""
    blocks = _blocks(width, title, context)
    if not blocks:
        return 0
    return 2 * MARGIN + sum(len(lines) * QFontMetrics(font).lineSpacing()
                            for lines, font, _ in blocks)


def draw_header(painter: QPainter, width: int, title: str, context: str) -> None:
    """The title (bold) and the context under it, each wrapped to up to MAX_LINES lines."""
    y = MARGIN
    for lines, font, color in _blocks(width, title, context):
        painter.setFont(font)
        painter.setPen(QColor(color))
        step = QFontMetrics(font).lineSpacing()
        for line in lines:
            painter.drawText(QRectF(MARGIN, y, width - 2 * MARGIN, step),
                             int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
                             line)
            y += step


def write_picture(out: Path, size: QSize, title: str, draw: Callable[[QPainter], None],
                  dpi: int) -> Path:
    """What `draw` paints on a `size` canvas (white under it) as PNG (SCALE × `size`) or SVG
    vectors, by `out`'s suffix."""
    def painted(painter: QPainter) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
        painter.fillRect(QRectF(0, 0, size.width(), size.height()), QColor("white"))
        draw(painter)

    if out.suffix.lower() == ".png":
        image = QImage(size.width() * SCALE, size.height() * SCALE, QImage.Format.Format_ARGB32)
        image.fill(QColor("white"))
        painter = QPainter(image)
        try:
            painter.scale(SCALE, SCALE)
            painted(painter)
        finally:
            painter.end()
        return write_image(image, out)
    return write_svg_drawing(out, size, title, painted, dpi)


def _settle(item: pg.PlotItem, refit: Callable[[], None] | None) -> None:
    """The plot's layout brought up to date at its geometry now, its ranges fitted to it."""
    item.layout.activate()
    if refit is not None:
        refit()


@contextmanager
def _plot_at(item: pg.PlotItem, width: float, height: float,
             refit: Callable[[], None] | None = None) -> Iterator[None]:
    """The plot laid out at `width` × `height` for the time of the drawing, then as it was on
    screen: its axes uncached (vectors, full resolution), sized for the tick labels they
    draw at that size, its legends drawn at the painter's scale, and `refit` (the panel's
    ranges for the plot's size) called at that size and again after."""
    old = item.geometry()
    axes = [item.getAxis(name) for name in ("left", "bottom", "right", "top")]
    modes = [a.cacheMode() for a in axes]
    text_room = [(a.textWidth, a.textHeight) for a in axes]
    # a legend ignores the painter's transformations (pyqtgraph keeps it at screen size):
    # a PNG drawn at SCALE had it at half the size of the ticks (review r49, dr4 6)
    ignores = QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations
    legends = [it for it in item.scene().items() if isinstance(it, pg.LegendItem)
               and it.flags() & ignores]
    for a in axes:
        a.setCacheMode(QGraphicsItem.CacheMode.NoCache)
    for legend in legends:
        legend.setFlag(ignores, False)
    item.setGeometry(QRectF(old.x(), old.y(), width, height))
    try:
        _settle(item, refit)
        # drawn once aside, the axes measure the tick labels of this size and widen (a
        # 3-decimal tick had run into the axis title, the width kept from the screen's
        # 2-decimal ones: dr4 7); laid out again with that room
        scratch = QImage(int(width), int(height), QImage.Format.Format_ARGB32)
        painter = QPainter(scratch)
        try:
            item.scene().render(painter, QRectF(0, 0, width, height), item.sceneBoundingRect())
        finally:
            painter.end()
        _settle(item, refit)
        yield
    finally:
        for a, (tw, th) in zip(axes, text_room, strict=True):
            a.textWidth, a.textHeight = tw, th
            if a.orientation in ("left", "right"):
                a._updateWidth()
            else:
                a._updateHeight()
        item.setGeometry(old)
        _settle(item, refit)
        for a, mode in zip(axes, modes, strict=True):
            a.setCacheMode(mode)
        for legend in legends:
            legend.setFlag(ignores, True)


def export_chart(plot: pg.PlotWidget, path: str | Path, title: str = "",
                 context: str = "", refit: Callable[[], None] | None = None) -> Path:
    """The plot under `title` and `context` at SIZE, as PNG (SCALE × SIZE) or SVG. `refit`:
    what fits the plot's ranges to its size (called at the picture's size, then again on
    screen)."""
    out = Path(path)
    suffix = out.suffix.lower()
    if suffix not in (".png", ".svg"):
        raise ValueError(f"{out}: export writes .png or .svg, not {suffix or 'no suffix'!r}")
    item = plot.getPlotItem()
    head = header_height(SIZE.width(), title, context)
    w, h = SIZE.width(), SIZE.height()
    background = plot.backgroundBrush().color()
    if background.alpha() == 0:
        background = QColor("white")

    def draw(painter: QPainter) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
        painter.fillRect(QRectF(0, 0, w, h), background)
        draw_header(painter, w, title, context)
        plot.scene().render(painter, QRectF(0, head, w, h - head), item.sceneBoundingRect())

    with _plot_at(item, w, h - head, refit):
        if suffix == ".png":
            image = QImage(w * SCALE, h * SCALE, QImage.Format.Format_ARGB32)
            image.fill(background)
            painter = QPainter(image)
            try:
                painter.scale(SCALE, SCALE)
                draw(painter)
            finally:
                painter.end()
            write_image(image, out)
        else:
            write_svg_drawing(out, SIZE, title or "Scoring Workbench chart", draw,
                              plot.logicalDpiX())
    return out
