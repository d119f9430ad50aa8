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
    # outside Present the terse key only where the table needs its line (rv2 5: below)
    view.set_presentation(False)
    qtbot.waitUntil(lambda: row_overhang(view.table) == {}, timeout=2000)


def _show_and_explain(qtbot: QtBot, view: Any) -> None:
    """The query whose change line wraps (c22dc43c043), B's first document explained."""
    assert view.comp is not None
    q = next(j for j, x in enumerate(view.comp.dataset.queries) if x.id == "c22dc43c043")
    view.show_query(q)
    qtbot.wait(20)
    _click(qtbot, view, 1, 1)
    qtbot.wait(30)
    assert view.explain.explained is not None and view.top_split.sizes()[1] > 0


@pytest.mark.parametrize("n", [5, 8])
def test_outside_present_a_document_explained_keeps_every_metric_row_in_sight(
        qtbot: QtBot, window: Any, styled: Any, monkeypatch: pytest.MonkeyPatch,
        n: int) -> None:
    """rv2 5: outside Present at 1,280 × 800 the same query cut 'bundle tokens' by 7 px with
    five configurations, 'bundle files' and 'bundle tokens' by 16 and 37 with eight (and so
    after leaving Present). What was taken off to make room is in a tooltip."""
    view = _eight(qtbot, window, (1280, 800), n=n)
    _screen(view, monkeypatch, 1280, 800)
    _show_and_explain(qtbot, view)
    assert row_overhang(view.table) == {}
    note, label = view.table_note, view.query_label
    assert "Not tested: " not in note.text() and "Not tested: " in note.toolTip()
    whole = label.toolTip() or label.text()
    assert whole.startswith("c22dc43c043: ") and "bundle tokens +55." in whole
    if label.toolTip():  # cut: the query and its change on a line each, "…" where cut
        assert label.height() < 3 * label.fontMetrics().lineSpacing()
        assert len(label.text().split("\n")) == 2 and label.text().endswith("\u2026")
    # after Present and back, as before it
    view.set_presentation(True)
    view.showNormal()
    view.resize(1280, 800)
    qtbot.wait(30)
    view.set_presentation(False)
    view.resize(1280, 800)
    qtbot.waitUntil(lambda: row_overhang(view.table) == {}, timeout=2000)
    assert view.explain.explained is not None


def test_with_room_the_query_line_and_the_note_stay_whole(
        qtbot: QtBot, window: Any, styled: Any) -> None:
    """Nothing is cut where every metric row fits: at 1,920 × 1,080, eight configurations."""
    view = _eight(qtbot, window, (1920, 1080))
    _show_and_explain(qtbot, view)
    assert row_overhang(view.table) == {}
    assert "Not tested: " in view.table_note.text()
    assert view.query_label.toolTip() == ""
    assert "bundle tokens +55." in view.query_label.text()
    assert not view.lines.terse_key_inline
