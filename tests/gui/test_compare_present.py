"""Presenting and leaving it (r51 2, rv2 dr5 7, dr2 9): leaving had moved the lists/table split
by 7–13 px (presenting had shown another query, its line of another height), and at 1,920 ×
1,080 the metric table of five configurations had shown 6 of its 11 rows in the large type."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QRect
from pytestqt.qtbot import QtBot

from tests.gui.test_compare_many_lists import _eight


def test_leaving_presentation_restores_the_query_and_the_splits(
        qtbot: QtBot, window: Any, styled: Any) -> None:
    view = _eight(qtbot, window, (1280, 800), n=5)
    order = view.moved()
    assert len(order) >= 2
    # a query other than the one that moved most, whose line is not as tall as its
    label = view.query_label

    def line_h(q: int) -> int:
        view.show_query(q)
        return label.heightForWidth(label.width())

    top = line_h(order[0])
    q = next((x for x in range(len(view.comp.dataset.queries))
              if x != order[0] and line_h(x) != top), None)
    assert q is not None
    view.show_query(q)
    qtbot.wait(20)
    rows, split = view.right_split.sizes(), view.top_split.sizes()
    view.set_presentation(True)
    qtbot.wait(20)
    assert view.lines_query() == order[0]  # presenting shows the query that moved most
    view.set_presentation(False)
    qtbot.wait(30)
    assert view.lines_query() == q and window.session.query == q
    assert view.right_split.sizes() == rows and view.top_split.sizes() == split


def test_a_query_stepped_to_while_presenting_stays_after(
        qtbot: QtBot, window: Any, styled: Any) -> None:
    view = _eight(qtbot, window, (1280, 800), n=5)
    order = view.moved()
    view.show_query(order[-1])
    view.set_presentation(True)
    view.step(1)  # the user's choice: kept
    chosen = view.lines_query()
    assert chosen == order[1]
    view.set_presentation(False)
    qtbot.wait(30)
    assert view.lines_query() == chosen


def test_presenting_at_1920_shows_every_row_of_the_table_and_the_lists_whole(
        qtbot: QtBot, window: Any, styled: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    view = _eight(qtbot, window, (1280, 800), n=5)
    screen = type("Screen", (), {"availableGeometry": lambda self: QRect(0, 0, 1920, 1080),
                                 "geometry": lambda self: QRect(0, 0, 1920, 1080)})()
    monkeypatch.setattr(view, "screen", lambda: screen)
    view.set_presentation(True)
    # the tests' screen is 800 px square: out of full screen, presenting as on a 1,920 ×
    # 1,080 one (the type's scale is the screen's height's)
    view.showNormal()
    view.resize(1920, 1080)
    qtbot.wait(30)
    table, lines = view.table, view.lines
    assert view.presenting and view.width() == 1920
    assert 1.15 <= table.font_scale <= 1.6 and lines.font_scale == table.font_scale
    assert table.rowCount() == 11
    assert table.verticalScrollBar().maximum() == 0  # every row in sight
    assert table.height() >= table.full_height()
    assert lines.height() >= lines.sizeHint().height()  # the lists and their legend whole
    # the type as large as lets both fit, and they do
    assert (view._lists_need() + view._table_want()
            <= sum(view.right_split.sizes()))
    view.set_presentation(False)
