"""The delta chart's words in a narrow chart (r53 5): presenting eight configurations at 1,920
× 1,080 the chart beside the metric table is 180 px wide, its caption had wrapped to six lines
over the bars and the line under them had dropped "(click a bar)"."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QFontMetricsF, QMouseEvent
from pytestqt.qtbot import QtBot

from tests.gui.test_compare_many_lists import _eight
from tests.gui.test_compare_scroll_explain import _screen


def test_a_narrow_presenting_chart_keeps_its_caption_short_and_says_click_a_bar(
        qtbot: QtBot, window: Any, styled: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    view = _eight(qtbot, window, (1920, 1080))
    _screen(view, monkeypatch, 1920, 1080)
    view.set_presentation(True)
    view.showNormal()
    view.resize(1920, 1080)
    qtbot.wait(30)
    chart = view.chart
    assert chart.width() < 260 and view.table.font_scale > 1.0  # narrow, in large type
    chart.grab()  # painted: the words chosen for its width
    bold = chart.font()
    bold.setPointSizeF(chart._font.pointSizeF())
    bold.setBold(True)
    spacing = QFontMetricsF(bold).lineSpacing()
    # four lines at most over the bars (the whole caption took six)
    assert chart._caption_rect().height() <= 4.5 * spacing
    assert "(click a bar)" in chart.axis_text
    small = QFontMetricsF(chart._font)
    assert all(small.horizontalAdvance(line) <= chart.width() - 8
               for line in chart.axis_text.split("\n"))
    # the pair left out of the caption drawn: whole in the tooltip off the bars
    whole = chart.caption()
    assert whole.startswith("nDCG@10: w_content x0.84 − defaults, per query — ")
    event = QMouseEvent(QMouseEvent.Type.MouseMove, QPoint(5, 5).toPointF(),
                        chart.mapToGlobal(QPoint(5, 5)).toPointF(),
                        Qt.MouseButton.NoButton, Qt.MouseButton.NoButton,
                        Qt.KeyboardModifier.NoModifier)
    chart.mouseMoveEvent(event)
    assert chart.toolTip() == whole
    view.set_presentation(False)
