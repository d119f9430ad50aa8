"""The explain pane beside the lists (r51 dr7 leftovers): presenting at 1,920 × 1,080 its
sentence, detail and "0 on both sides" lines stayed at the style sheet's 13 px beside its table's
large type; Present asked for twice saved the presenting splits as the ones to restore, cutting
the lists on leaving; and a 1,920-px window kept all eight lists beside the pane, scrolling
sideways."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontInfo
from PySide6.QtWidgets import QHeaderView, QWidget
from pytestqt.qtbot import QtBot

from tests.gui.test_compare_many_lists import _eight
from tests.gui.test_compare_scroll_explain import _click, _screen


def _px(widget: QWidget) -> int:
    """The pixel size `widget` draws its text at, its style sheet applied."""
    widget.ensurePolished()
    return QFontInfo(widget.font()).pixelSize()


def _ink_height(header: QHeaderView, section: int) -> int:
    """The height of the dark pixels (the text) drawn in `section` of `header`."""
    image = header.grab().toImage()
    x0 = header.sectionViewportPosition(section)
    rows = [y for y in range(image.height())
            if any(image.pixelColor(x, y).lightness() < 100
                   for x in range(x0 + 2, x0 + header.sectionSize(section) - 2))]
    return rows[-1] - rows[0] + 1 if rows else 0


def test_presenting_the_explain_pane_s_lines_grow_with_its_table(
        qtbot: QtBot, window: Any, styled: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    view = _eight(qtbot, window, (1920, 1080), n=5)
    _screen(view, monkeypatch, 1920, 1080)
    explain = view.explain
    assert _px(explain.sentence) == 13  # the style sheet's size, outside Present
    view.set_presentation(True)
    view.showNormal()
    view.resize(1920, 1080)
    qtbot.wait(30)
    _click(qtbot, view, 1, 2)
    qtbot.wait(30)
    assert explain.explained is not None and explain.font_scale > 1.2
    item = explain.table.item(0, 1)
    assert item is not None
    table_px = QFontInfo(item.font()).pixelSize()
    assert table_px >= 16
    assert explain.zeros.isVisibleTo(explain)  # codeledger has signals 0 on both sides
    for label in (explain.sentence, explain.detail, explain.zeros):
        assert _px(label) == table_px, label.text()[:40]
    view.set_presentation(False)
    qtbot.wait(30)
    for label in (explain.sentence, explain.detail, explain.zeros):
        assert _px(label) == 13


def test_present_asked_for_twice_leaves_the_splits_as_they_were(
        qtbot: QtBot, window: Any, styled: Any) -> None:
    view = _eight(qtbot, window, (1280, 800), n=5)
    qtbot.wait(20)
    rows, top = view.right_split.sizes(), view.top_split.sizes()
    view.set_presentation(True)
    qtbot.wait(20)
    presenting = (view.right_split.sizes(), view.top_split.sizes(), view.table.font_scale)
    view.set_presentation(True)  # F11's menu twin, a clicker's second press: nothing changes
    qtbot.wait(20)
    assert view.presenting
    assert (view.right_split.sizes(), view.top_split.sizes(),
            view.table.font_scale) == presenting
    view.set_presentation(False)
    view.resize(1280, 800)
    qtbot.wait(30)
    assert not view.presenting
    assert view.right_split.sizes() == rows and view.top_split.sizes() == top
    view.set_presentation(False)  # and leaving twice changes nothing either
    qtbot.wait(20)
    assert view.right_split.sizes() == rows and view.top_split.sizes() == top


def test_a_1920_window_explaining_shows_a_and_the_clicked_list_without_a_scroll(
        qtbot: QtBot, window: Any, styled: Any) -> None:
    view = _eight(qtbot, window, (1920, 1080))
    bar = view.lines_scroll.horizontalScrollBar()
    assert view.lines.columns == list(range(8)) and bar.maximum() == 0  # all eight fit
    _click(qtbot, view, 3, 2)
    qtbot.wait(30)
    assert view.explain.explained is not None and view.top_split.sizes()[1] > 0
    assert view.lines.columns == [0, 3]  # A and the list clicked, now B
    assert bar.maximum() == 0  # nothing to scroll sideways to
    assert view.lines.least_width() <= view.lines_scroll.width()
    view.show_query((view.lines_query() + 1) % len(view.comp.dataset.queries))
    qtbot.wait(30)
    assert view.lines.columns == list(range(8)) and bar.maximum() == 0


def test_presenting_the_explain_table_s_head_grows_with_its_rows(
        qtbot: QtBot, window: Any, styled: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """r53 5: the head "signal | A | B | Δ" had stayed at the style sheet's 13 px over rows
    of the presenting type."""
    view = _eight(qtbot, window, (1920, 1080), n=3)
    _screen(view, monkeypatch, 1920, 1080)
    header = view.explain.table.horizontalHeader()
    assert _px(header) == 13
    view.set_presentation(True)
    view.showNormal()
    view.resize(1920, 1080)
    qtbot.wait(30)
    _click(qtbot, view, 1, 2)
    qtbot.wait(30)
    item = view.explain.table.item(0, 1)
    assert item is not None
    row_px = QFontInfo(item.font()).pixelSize()
    assert row_px >= 16
    # the "A" over its column drawn in the rows' type: a capital's ink about 0.73 of the
    # pixel size (13 px: 9 or 10 px of ink; 17 px: 12 or 13)
    assert header.model().headerData(1, Qt.Orientation.Horizontal) == "A"
    assert _ink_height(header, 1) >= 0.65 * row_px
    view.set_presentation(False)
    qtbot.wait(30)
    assert _ink_height(header, 1) <= 0.8 * 13


def test_at_1024_the_explain_table_shows_its_last_row(
        qtbot: QtBot, window: Any, styled: Any) -> None:
    """r53 5: at 1,024 × 768 the table's last row, size penalty, had been below its fold
    (the pane's detail named the query on two lines the line above the lists names too)."""
    view = _eight(qtbot, window, (1024, 768), n=2)
    _click(qtbot, view, 1, 2)
    qtbot.wait(30)
    table = view.explain.table
    assert table.rowCount() == 10
    last = table.item(table.rowCount() - 1, 0)
    assert last is not None and last.text() == "size penalty"
    room = table.viewport().height()
    bottoms = [table.visualRect(table.model().index(r, 0)).bottom() + 1
               for r in range(table.rowCount())]
    assert max(bottoms) <= room, (bottoms, room)
    # the query it is explained on, in the line above the lists and the detail's tooltip
    query = view.comp.dataset.queries[view.lines_query()]
    assert view.query_label.text().startswith(f"{query.id}: ")
    assert view.explain.detail.toolTip().startswith(f"query {query.id} “")
