"""An exported chart is laid out for the picture's size, not the screen strip's (review r49,
dr4 5–8): the y range keeps the legend's room for that height, the left axis is as wide as
the tick labels drawn at that height, the legend is drawn at the picture's scale, and the
title and context wrap instead of losing their ends."""

from __future__ import annotations

import re
from pathlib import Path

from conftest import SAMPLES
from PySide6.QtGui import QFontMetrics, QImage, QPainter, QTransform
from pytestqt.qtbot import QtBot

from workbench.gui.charts import MetricCurve, ScoreDistribution
from workbench.gui.charts._standalone import open_session
from workbench.gui.charts.export_image import (
    CONTEXT_PX,
    MARGIN,
    SCALE,
    SIZE,
    _font,
    _plot_at,
    header_height,
    wrapped,
)


def _strip(qtbot: QtBot, widget: object) -> None:
    """Shown as the window's chart strip is: wide and short."""
    qtbot.addWidget(widget)
    widget.resize(1200, 220)  # type: ignore[attr-defined]
    widget.show()  # type: ignore[attr-defined]
    qtbot.waitExposed(widget)


def test_the_distribution_is_fitted_to_the_picture(qtbot: QtBot, tmp_path: Path) -> None:
    tea = open_session(SAMPLES / "tea-beir", "bm25")
    tea.set_params({"k1": 0.6, "b": 0.3})
    tea.recompute()
    panel = ScoreDistribution(tea)
    _strip(qtbot, panel)
    panel.share.setChecked(True)  # "% of group": the tallest bar 60 % for q01
    item = panel.plot.getPlotItem()
    tallest = max(panel.curve_relevant.yData.max(), panel.curve_other.yData.max())
    on_screen = item.vb.viewRange()[1]
    # the short strip keeps room for the legend over the bars under it only: q01's tallest
    # bar stands left of it, and reaches near the top (rn 10)
    assert tallest < on_screen[1] < 1.2 * tallest
    legend = panel.legend
    w, h = SIZE.width(), SIZE.height() - header_height(SIZE.width(), "t", "c")
    with _plot_at(item, w, h, panel.fit_to_size):
        top = item.vb.viewRange()[1][1]
        # the bars fill most of the height; the legend's room is that of this height
        assert tallest < top < 1.4 * tallest
        # drawn at the picture's scale: the legend had kept screen pixels (half size)
        assert legend.deviceTransform(QTransform.fromScale(SCALE, SCALE)).m11() == SCALE
    assert item.vb.viewRange()[1] == on_screen  # the panel on screen as it was
    assert legend.deviceTransform(QTransform.fromScale(SCALE, SCALE)).m11() == 1
    png = QImage(str(panel.export(tmp_path / "d.png")))
    assert (png.width(), png.height()) == (SCALE * SIZE.width(), SCALE * SIZE.height())


def test_the_left_axis_holds_the_pictures_tick_labels(qtbot: QtBot) -> None:
    tea = open_session(SAMPLES / "tea-beir", "bm25")
    curve = MetricCurve(tea, synchronous=True)
    _strip(qtbot, curve)
    tea.set_param("k1", 0.6)
    tea.set_param("b", 0.3)  # the curve follows the parameter moved last
    tea.recompute()
    assert curve.points and curve.param_name == "b"
    item = curve.plot.getPlotItem()
    axis = item.getAxis("left")
    # sized for narrower labels than the picture draws ("0.61" on screen, "0.605" there)
    axis.textWidth = 10
    axis._updateWidth()
    with _plot_at(item, 800, 370, curve.fit_to_size):
        room, width = axis.textWidth, axis.width()
        scratch = QImage(8, 8, QImage.Format.Format_ARGB32)
        painter = QPainter(scratch)
        texts = axis.generateDrawSpecs(painter)[2]  # what the axis draws at this size
        painter.end()
        widest = max(rect.width() for rect, _, _ in texts)
        # the labels, their offset and the axis title all fit in the axis
        assert room >= widest
        assert width >= widest + axis.label.boundingRect().height() * 0.8
    assert axis.textWidth == 10  # the panel on screen as it was


def test_a_long_context_wraps_to_three_lines() -> None:
    font = _font(CONTEXT_PX)
    room = SIZE.width() - 2 * MARGIN
    text = ("dataset decisions · model decision-memory · values w_title = 3, w_body = 2, "
            "w_partial = 2, inject_min_score = 40, inject_limit = 2, now = "
            "2026-11-20T12:00:00.000Z")
    lines = wrapped(text, font, room)
    assert len(lines) == 2 and " ".join(lines) == text  # every value kept
    fm = QFontMetrics(font)
    assert all(fm.horizontalAdvance(line) <= room for line in lines)
    assert header_height(SIZE.width(), "title", text) == header_height(
        SIZE.width(), "title", "short") + fm.lineSpacing()
    long = " ".join([text] * 3)  # more than three lines' worth: the third ends in "…"
    lines = wrapped(long, font, room)
    assert len(lines) == 3 and lines[2].endswith("…")
    assert " ".join(lines[:2]) == long[:len(" ".join(lines[:2]))]



def test_a_wrapped_context_keeps_each_name_with_its_value(qtbot: QtBot) -> None:
    """dr6 3: at 1,280 px the decisions header broke "now" | "= 2026-11-20T…" across its
    lines. At any width, each "name = value" is on one line, and no line starts with "·"."""
    font = _font(CONTEXT_PX)
    text = ("dataset decisions · model decision-memory · values w_title = 3, w_body = 2, "
            "w_partial = 2, inject_min_score = 40, inject_limit = 2, now = "
            "2026-11-20T12:00:00.000Z")
    pairs = re.findall(r"\S+ = \S+", text)
    assert len(pairs) == 6
    for room in range(420, 1300, 9):
        lines = wrapped(text, font, room, max_lines=9)
        assert " ".join(lines) == text, room  # every value kept, none elided
        for pair in pairs:
            assert any(pair in line for line in lines), (room, pair, lines)
        assert not any(line.startswith(("·", "=")) for line in lines), (room, lines)
