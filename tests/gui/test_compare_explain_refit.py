"""A document explained at 1,280 × 800 with five configurations keeps every metric row in
sight after a resize and back, and presenting (r52 dr5 2): the pane had kept the width the
smaller window gave it, the query line wrapped to three lines over the narrowed lists, and
"bundle tokens" was cut in half."""

from __future__ import annotations

from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from tests.gui.test_compare_many_lists import _eight
from tests.gui.test_compare_scroll_explain import _click, _screen


def _rows_whole(view: Any) -> bool:
    """Every metric row in sight, and the lists' pane as tall as they need."""
    return (view.table.verticalScrollBar().maximum() == 0
            and view.right_split.sizes()[0] >= view._lists_need())


def test_a_resize_and_back_gives_the_explained_layout_back(
        qtbot: QtBot, window: Any, styled: Any) -> None:
    """dr5 2 (a): top [648, 369] right [436, 348] on the click; after 980 × 700 and back,
    top [562, 455] right [444, 340], the table's scroll bar showing one row more."""
    view = _eight(qtbot, window, (1280, 800), n=5)
    _click(qtbot, view, 4, 2)
    qtbot.wait(30)
    assert view.explain.explained is not None
    top, lines_h = view.top_split.sizes(), view.query_label.height()
    assert _rows_whole(view), (view.right_split.sizes(), view._lists_need(),
                               view.table.verticalScrollBar().maximum())
    view.resize(980, 700)
    qtbot.wait(30)
    view.resize(1280, 800)
    qtbot.wait(30)
    assert view.explain.explained is not None
    assert view.top_split.sizes() == top
    assert view.query_label.height() == lines_h
    assert _rows_whole(view), (view.right_split.sizes(), view._lists_need())


def test_presenting_a_click_and_leaving_keep_every_metric_row(
        qtbot: QtBot, window: Any, styled: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """dr5 2 (b, c): presenting at 1,280 × 800, a click had left "bundle tokens" half in
    sight; leaving with the document still explained, likewise."""
    view = _eight(qtbot, window, (1280, 800), n=5)
    _click(qtbot, view, 4, 2)
    qtbot.wait(30)
    explained = view.top_split.sizes()
    assert _rows_whole(view)
    _screen(view, monkeypatch, 1280, 800)
    view.set_presentation(True)
    view.showNormal()
    view.resize(1280, 800)
    qtbot.wait(30)
    _click(qtbot, view, 4, 2)
    qtbot.wait(30)
    assert view.explain.explained is not None
    assert _rows_whole(view), (view.right_split.sizes(), view._lists_need())
    view.set_presentation(False)
    view.resize(1280, 800)
    qtbot.wait(30)
    assert view.explain.explained is not None
    assert _rows_whole(view), (view.right_split.sizes(), view._lists_need())
    assert view.top_split.sizes() == explained  # the pane as the click placed it
