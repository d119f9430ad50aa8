"""Typed queries: a repeat selects the one typed before, Delete (or the list's context menu)
takes one out again (review rv4 I); the Ctrl+F filter's Down and Enter go to the matches and
Escape clears it (review rv4 J)."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from workbench.core.data import Corpus, Dataset, Document, Query, QuerySet
from workbench.core.session import TuningSession


def _active(qtbot: QtBot, window: Any) -> None:
    window.show()
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)


def _session() -> TuningSession:
    corpus = Corpus([Document("d1", "green tea", "green tea leaves"),
                     Document("d2", "coffee", "dark roast coffee")], name="tiny")
    s = TuningSession()
    s.set_model("bm25")
    s.set_dataset(Dataset("tiny", corpus, QuerySet([Query("q1", "green tea"),
                                                    Query("q2", "coffee")], name="tiny"),
                          {"q1": {"d1": 1}, "q2": {"d2": 1}}), "/data/tiny")
    s.recompute()
    return s


def test_a_repeat_selects_the_typed_one_and_a_typed_one_can_be_removed() -> None:
    s = _session()
    assert s.add_query("oolong oxidation") == 2
    s.select_query(0)
    assert s.add_query("  oolong   oxidation ") == 2  # the same words: selected, not added
    assert [q.id for q in s.dataset.queries] == ["q1", "q2", "typed-1"]
    s.add_query("dark roast")
    s.recompute()
    s.pin_baseline()
    s.select_query(2)
    with pytest.raises(ValueError, match="only a query typed"):
        s.remove_query(0)
    s.remove_query(2)  # the one shown: the one before it shown
    assert [q.id for q in s.dataset.queries] == ["q1", "q2", "typed-2"]
    assert [q.id for q in s.typed] == ["typed-2"] and s.query == 1
    assert s.judgments is not None and len(s.judgments.judged_mask) == 3
    s.recompute()
    assert s.baseline is not None and s.baseline.result.per_query["ndcg@10"].shape == (3,)


def test_delete_in_the_list_removes_a_typed_query(qtbot: QtBot, window: Any) -> None:
    s, ql = window.session, window.queries
    _active(qtbot, window)
    n = len(s.dataset.queries)
    for _ in range(2):
        qtbot.keyClicks(ql.ask_edit, "oolong oxidation")
        qtbot.keyClick(ql.ask_edit, Qt.Key.Key_Return)
    assert len(s.dataset.queries) == n + 1 and s.query == n
    assert ql.remove_typed.isEnabled()
    ql.view.setFocus()
    qtbot.keyClick(ql.view, Qt.Key.Key_Delete)
    assert len(s.dataset.queries) == n and not s.typed
    assert not ql.remove_typed.isEnabled()  # a query read with the data stays
    assert ql.remove_typed in ql.view.actions()


def test_the_filters_keys(qtbot: QtBot, window: Any) -> None:
    s, ql = window.session, window.queries
    _active(qtbot, window)
    ds = s.dataset
    s.select_query(0)
    other = next(i for i, q in enumerate(ds.queries) if i > 0)
    word = ds.queries[other].id
    ql.focus_filter()
    qtbot.keyClicks(ql.filter_edit, word)
    assert ql.proxy.rowCount() >= 1
    qtbot.keyClick(ql.filter_edit, Qt.Key.Key_Down)  # the first match, focus in the list
    first = ql.proxy.mapToSource(ql.proxy.index(0, 0)).row()
    assert s.query == first and ql.view.hasFocus()
    ql.focus_filter()
    qtbot.keyClick(ql.filter_edit, Qt.Key.Key_Escape)
    assert ql.filter_edit.text() == "" and ql.proxy.rowCount() == len(ds.queries)
    qtbot.keyClicks(ql.filter_edit, word)
    s.select_query(0 if first != 0 else 1)  # hidden by the filter now (one match)
    qtbot.keyClick(ql.filter_edit, Qt.Key.Key_Return)
    assert s.query == first and ql.view.hasFocus()
