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


def header_height() -> int:
    return (2 * MARGIN + QFontMetrics(_font(TITLE_PX, True)).lineSpacing()
            + QFontMetrics(_font(CONTEXT_PX)).lineSpacing())


def draw_header(painter: QPainter, width: int, title: str, context: str) -> None:
    """The title (bold) and the context line under it, each on one line (elided)."""
    y = MARGIN
    for text, font, color in ((title, _font(TITLE_PX, True), INK),
                              (context, _font(CONTEXT_PX), MUTED)):
        if not text:
            continue
        painter.setFont(font)
        painter.setPen(QColor(color))
        fm = QFontMetrics(font)
        shown = fm.elidedText(text, Qt.TextElideMode.ElideRight, width - 2 * MARGIN)
        painter.drawText(QRectF(MARGIN, y, width - 2 * MARGIN, fm.lineSpacing()),
                         int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter), shown)
        y += fm.lineSpacing()


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


@contextmanager
def _plot_at(item: pg.PlotItem, width: float, height: float) -> Iterator[None]:
    """The plot laid out at `width` × `height` (its axes uncached: vectors, full resolution)
    for the time of the drawing, then as it was on screen."""
    old = item.geometry()
    axes = [item.getAxis(name) for name in ("left", "bottom", "right", "top")]
    modes = [a.cacheMode() for a in axes]
    for a in axes:
        a.setCacheMode(QGraphicsItem.CacheMode.NoCache)
    item.setGeometry(QRectF(old.x(), old.y(), width, height))
    try:
        yield
    finally:
        item.setGeometry(old)
        for a, mode in zip(axes, modes, strict=True):
            a.setCacheMode(mode)


def export_chart(plot: pg.PlotWidget, path: str | Path, title: str = "",
                 context: str = "") -> Path:
    """The plot under `title` and `context` at SIZE, as PNG (SCALE × SIZE) or SVG."""
    out = Path(path)
    suffix = out.suffix.lower()
    if suffix not in (".png", ".svg"):
        raise ValueError(f"{out}: export writes .png or .svg, not {suffix or 'no suffix'!r}")
    item = plot.getPlotItem()
    head = header_height() if title or context else 0
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

    with _plot_at(item, w, h - head):
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
