"""The pair on screen in every part of the compare window (r52 dr5): after a click made
another list B, the metric table still showed the configurations before it, B's columns
scrolled out of sight."""

from __future__ import annotations

from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from tests.gui.test_compare_many_lists import EIGHT, _eight
from tests.gui.test_compare_scroll_explain import _click


def _order(table: Any) -> list[int]:
    """The columns (logical) left to right as drawn."""
    header = table.horizontalHeader()
    return [header.logicalIndex(v) for v in range(table.columnCount())]


def _in_sight(table: Any) -> list[str]:
    """The heads of the columns the table shows whole, left to right."""
    header, room = table.horizontalHeader(), table.viewport().width()
    shown = []
    for c in _order(table):
        left = header.sectionViewportPosition(c)
        if left >= 0 and left + header.sectionSize(c) <= room:
            shown.append(table.horizontalHeaderItem(c).text().replace("\n", " "))
    return shown


def _b_in_sight(view: Any) -> None:
    """A's mean and B's mean, Δ, p and ▲/▼ shown whole, B's beside A's."""
    table, b = view.table, view.b_index
    name = view.comp.configs[b].name
    heads = _in_sight(table)
    assert heads[:3] == ["metric", EIGHT[0], name], heads
    assert heads[3:6] == ["Δ", "p", "▲/▼"], heads
    # the cells under the pair's heads are the pair's figures (logical columns kept)
    base = 2 + (b - 1) * 4
    assert _order(table)[2:6] == list(range(base, base + 4))


@pytest.mark.parametrize("size", [(1024, 768), (1280, 800)])
def test_a_click_that_makes_b_brings_its_columns_into_the_table(
        qtbot: QtBot, window: Any, styled: Any, size: tuple[int, int]) -> None:
    """dr5 1: at 1,024 × 768 with eight configurations, a click in w_churn's list made it B;
    the table showed defaults, w_content's, w_mention's and part of w_graph's columns, B's
    behind a scroll bar."""
    view = _eight(qtbot, window, size)
    bar = view.lines_scroll.horizontalScrollBar()
    bar.setValue(bar.maximum())
    qtbot.wait(10)
    _click(qtbot, view, 7, 2)
    qtbot.wait(20)
    assert view.b_index == 7
    _b_in_sight(view)
    # picked by hand: the same
    view.b_pick.setCurrentIndex(4)  # w_similar
    qtbot.wait(20)
    assert view.b_index == 5
    _b_in_sight(view)


def test_a_click_that_makes_b_says_what_the_moved_buttons_now_step(
        qtbot: QtBot, window: Any, styled: Any) -> None:
    """dr5 4: a click in w_centrality's list made it B, and "moved ▶" then stepped the queries
    w_centrality moved, not w_keyword's; the status still said "compared 8 configurations"
    and the buttons' tooltips "the next of the queries that moved most"."""
    view = _eight(qtbot, window, (1024, 768))
    a, b = EIGHT[0], EIGHT[view.b_index]
    assert f"between {a} and {b} on " in view.next_button.toolTip()
    assert f"between {a} and {b} on " in view.prev_button.toolTip()
    assert "B is now" not in view.status.text()
    _click(qtbot, view, 7, 2)
    qtbot.wait(20)
    assert view.b_index == 7
    metric = view.metric_pick.currentText()
    assert (f"B is now {EIGHT[7]}: ◀ ▶ step the queries it moved most against {a} on "
            f"{metric}") in view.status.text()
    assert "compared 8 configurations" in view.status.text()  # the rest of the line kept
    for button in (view.next_button, view.prev_button):
        assert f"moved most between {a} and {EIGHT[7]} on {metric} (" in button.toolTip()
    # B picked by hand: the picker shows it, the line goes, the tooltips follow
    view.b_pick.setCurrentIndex(2)
    qtbot.wait(20)
    assert "B is now" not in view.status.text()
    assert f"between {a} and {EIGHT[3]} on " in view.next_button.toolTip()
