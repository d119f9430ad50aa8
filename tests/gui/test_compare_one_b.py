"""One pair on screen (r51 dr7 1, 8, 9): a click in a list other than B explained that list as
"B" while the B picker, the query line and the Δ chart still described the picked B; presenting,
the pane opened without the type refitted (the lists scrolled, metric rows cut); in the window,
the lists kept their scroll bar's height once the pane left A and B alone, a metric row cut."""

from __future__ import annotations

from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from tests.gui.test_compare_many_lists import EIGHT, _eight
from tests.gui.test_compare_scroll_explain import _click, _screen
from workbench.gui.compare.window import TABLE_PRESENTATION_SCALE


def _pair(view: Any) -> tuple[str, str, str, str, str]:
    """What each element says B is: the picker, the query line's pair, the chart's, the
    explain pane's, and the list a replay animates into."""
    comp = view.comp
    line = view.query_label.text().split("this query, ", 1)[1].split(" − ", 1)[0]
    detail = view.explain.detail.text().splitlines()[-1]
    pane = detail.split("→ B: ", 1)[1].rsplit(", ", 1)[0]
    return (view.b_pick.currentText(), line, comp.configs[view.chart.index].name, pane,
            comp.configs[view.b_index].name)


def test_a_click_in_a_list_other_than_b_makes_it_b(
        qtbot: QtBot, window: Any, styled: Any) -> None:
    """dr7 1: at 1,024 px the 8th list clicked, the pane said "B: w_churn x0.36"; the picker,
    the line above the lists and the chart said B was w_content x0.84."""
    view = _eight(qtbot, window, (1024, 768))
    assert view.b_pick.currentText() == EIGHT[1]
    bar = view.lines_scroll.horizontalScrollBar()
    bar.setValue(bar.maximum())
    qtbot.wait(10)
    _click(qtbot, view, 7, 3)
    assert view.explain.explained is not None
    assert _pair(view) == (EIGHT[7],) * 5
    assert f"{EIGHT[7]} − {EIGHT[0]}" in view.query_label.text()
    assert view.lines.columns == [0, 7]
    # A's own list clicked: into B, the one now picked
    _click(qtbot, view, 0, 2)
    assert _pair(view) == (EIGHT[7],) * 5
    # another B picked: the explanation goes (the pane had kept the old one's)
    view.b_pick.setCurrentIndex(2)
    qtbot.wait(10)
    assert view.explain.explained is None and view.b_index == 3
    assert f"{EIGHT[3]} − {EIGHT[0]}" in view.query_label.text()


def test_explaining_in_the_window_keeps_the_metric_rows(
        qtbot: QtBot, window: Any, styled: Any) -> None:
    """dr7 9: the lists were fitted while all eight still scrolled, then the pane left A and B
    alone, with no scroll bar: the lists kept its 14 px, a metric row cut."""
    view = _eight(qtbot, window, (1024, 768))
    _click(qtbot, view, 7, 2)
    qtbot.wait(20)
    assert view.lines.columns == [0, 7]
    assert view.lines_scroll.horizontalScrollBar().maximum() == 0
    assert view.right_split.sizes()[0] == view._lists_need()


def test_presenting_a_click_refits_the_type_and_the_next_query_folds_the_pane(
        qtbot: QtBot, window: Any, styled: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """dr7 8: at 1,280 × 800 the pane opened beside five lists at the presenting type: they
    scrolled (132 px), the table lost two rows under their scroll bar."""
    view = _eight(qtbot, window, (1280, 800), n=5)
    _screen(view, monkeypatch, 1280, 800)
    view.set_presentation(True)
    view.showNormal()
    view.resize(1280, 800)
    qtbot.wait(30)
    table_bar = view.table.verticalScrollBar()
    assert table_bar.maximum() == 0
    _click(qtbot, view, 4, 2)
    qtbot.wait(30)
    assert view.explain.explained is not None and view.top_split.sizes()[1] > 0
    assert view.lines.columns == [0, 4]  # A and the list clicked, now B
    assert _pair(view) == (EIGHT[4],) * 5
    assert view.lines_scroll.horizontalScrollBar().maximum() == 0
    assert table_bar.maximum() == 0  # every metric row in sight
    assert view.right_split.sizes()[0] >= view._lists_need()  # the legend whole
    view.show_query((view.lines_query() + 1) % len(view.comp.dataset.queries))  # another query
    qtbot.wait(30)
    assert view.explain.explained is None and view.top_split.sizes()[1] == 0
    assert view.lines.columns == list(range(5))
    assert view.lines_scroll.horizontalScrollBar().maximum() == 0
    assert table_bar.maximum() == 0
    view.set_presentation(False)


def test_presenting_rows_that_cannot_all_fit_keep_the_most_in_sight(
        qtbot: QtBot, window: Any, styled: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """At 1,024 × 768 with eight configurations no type fits every metric row: the type had
    gone back to 1.15, 4 of the 11 rows in sight. The window's own type shows the most, the
    table's scroll bar beside them."""
    view = _eight(qtbot, window, (1024, 768))
    _screen(view, monkeypatch, 1024, 768)
    view.set_presentation(True)
    view.showNormal()
    view.resize(1024, 768)
    qtbot.wait(30)
    table = view.table
    assert view.presenting and table.font_scale == TABLE_PRESENTATION_SCALE
    bar = table.verticalScrollBar()
    assert bar.maximum() > 0 and bar.isVisible()  # the rest reached by a scroll bar in sight
    shown = table.viewport().height()
    rows = sum(1 for r in range(table.rowCount())
               if table.rowViewportPosition(r) + table.rowHeight(r) <= shown)
    assert rows >= 7, rows
    view.set_presentation(False)
