"""A document explained stays explained through a comparison made afresh (r52 dr5 6): deleting
a configuration that was neither A nor the list explained into, or undoing that, had closed
the pane, the status saying only "compared 5 configurations"."""

from __future__ import annotations

from typing import Any

from pytestqt.qtbot import QtBot

from tests.gui.test_compare_many_lists import EIGHT, _eight
from tests.gui.test_compare_scroll_explain import _click


def _said(view: Any) -> tuple[str, str, str, str] | None:
    """The explanation shown, by name: query id, document id, A and B."""
    if view.explain.explained is None or view._explained is None:
        return None
    comp = view.comp
    q, doc, into = view._explained
    return (comp.dataset.queries[q].id, comp.dataset.corpus[doc].id, comp.configs[0].name,
            comp.configs[into].name)


def test_deleting_another_configuration_keeps_the_explanation(
        qtbot: QtBot, window: Any, styled: Any) -> None:
    view = _eight(qtbot, window, (1280, 800), n=5)
    _click(qtbot, view, 3, 2)  # w_graph's list: explained into it
    before = _said(view)
    assert before is not None and before[3] == EIGHT[3]
    view.configs.delete(EIGHT[2])  # neither A nor B
    qtbot.wait(20)
    assert [c.name for c in view.comp.configs] == [EIGHT[i] for i in (0, 1, 3, 4)]
    assert _said(view) == before
    assert view.b_pick.currentText() == EIGHT[3]
    window.session.undo()
    qtbot.wait(20)
    assert [c.name for c in view.comp.configs] == EIGHT[:5]
    assert _said(view) == before
    assert view.explain.sentence.text()


def test_deleting_b_says_why_the_explanation_closed(
        qtbot: QtBot, window: Any, styled: Any) -> None:
    view = _eight(qtbot, window, (1280, 800), n=5)
    _click(qtbot, view, 3, 2)
    doc = _said(view)[1]
    view.configs.delete(EIGHT[3])
    qtbot.wait(20)
    assert _said(view) is None
    assert (f"the explanation of {doc} closed: {EIGHT[3]} is no longer compared"
            in view.status.text())
