"""Presenting at 1,280 × 800 with a document explained, the metric table's rows in sight (r53
1): the query's change line on three lines and the marks key on a line of its own under the
narrower lists beside the explain pane had cut the last row, bundle tokens, by 7 px."""

from __future__ import annotations

from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from tests.gui.test_compare_many_lists import _eight
from tests.gui.test_compare_scroll_explain import _click, _screen


def row_overhang(table: Any) -> dict[str, int]:
    """Each metric row whose bottom is below the table's viewport: by how many px."""
    room = table.viewport().height()
    out = {}
    for r in range(table.rowCount()):
        bottom = table.visualRect(table.model().index(r, 0)).bottom() + 1
        if bottom > room:
            out[table.item(r, 0).text()] = bottom - room
    return out


def test_presenting_with_a_document_explained_keeps_every_metric_row_in_sight(
        qtbot: QtBot, window: Any, styled: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    view = _eight(qtbot, window, (1280, 800), n=5)
    _screen(view, monkeypatch, 1280, 800)
    view.set_presentation(True)
    view.showNormal()  # the tests' screen: out of full screen, presenting as on 1,280 × 800
    view.resize(1280, 800)
    qtbot.wait(30)
    assert row_overhang(view.table) == {}
    _click(qtbot, view, 1, 1)
    qtbot.wait(30)
    assert view.explain.explained is not None and view.top_split.sizes()[1] > 0
    label = view.query_label
    assert label.height() >= 3 * label.fontMetrics().lineSpacing()  # the line on three
    assert row_overhang(view.table) == {}
    # the marks key beside the relevance legend, terse (its own line had cost the row)
    assert view.lines._marks_key_inline() == "against the first list: ▲new · ▼ in a box"
    view.set_presentation(False)
    assert view.lines._marks_key_inline() != "against the first list: ▲new · ▼ in a box"
