"""Presenting, the type keeps one size (r52 dr5 5): it had been fitted afresh each time the
explain pane opened or folded, 1.25 ↔ 1.30 at 1,920 × 1,080 and 1.04 ↔ 1.00 at 1,280 × 800 on
every click and every ▶, the whole screen re-flowing in front of an audience."""

from __future__ import annotations

from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from tests.gui.test_compare_many_lists import _eight
from tests.gui.test_compare_scroll_explain import _click, _screen


@pytest.mark.parametrize("w, h, n", [(1280, 800, 5), (1920, 1080, 8)])
def test_clicks_and_steps_keep_the_presenting_type(
        qtbot: QtBot, window: Any, styled: Any, monkeypatch: pytest.MonkeyPatch,
        w: int, h: int, n: int) -> None:
    view = _eight(qtbot, window, (w, h), n=n)
    _screen(view, monkeypatch, w, h)
    view.set_presentation(True)
    # the tests' screen is 800 px square: out of full screen, presenting as on a w × h one
    view.showNormal()
    view.resize(w, h)
    qtbot.wait(30)
    table = view.table
    scales = [round(table.font_scale, 3)]
    for _ in range(2):
        _click(qtbot, view, len(view.lines.columns) - 1, 2)
        qtbot.wait(20)
        assert view.explain.explained is not None
        scales.append(round(table.font_scale, 3))
        q = view.lines_query()
        if len(view.moved()) > 1:
            view.step(1)  # ▶
        else:  # the list clicked moved no other query: the next query shown by hand
            view.show_query((q + 1) % len(view.comp.dataset.queries))
        assert view.lines_query() != q
        qtbot.wait(20)
        assert view.explain.explained is None
        scales.append(round(table.font_scale, 3))
    assert len(set(scales)) == 1, scales
    assert view.lines.font_scale == table.font_scale
    # and the type it keeps fits, the pane open or folded: every list its ids, no list
    # scrolling sideways out of a clicker's reach
    assert view.lines.least_width() <= view.lines_scroll.width()
    view.set_presentation(False)
