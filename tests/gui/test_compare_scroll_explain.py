"""The compare window's lists scrolled sideways, the explain pane and Present (r51 dr3): a click
in a list reached by scrolling had explained A → B and hidden that list; leaving Present had
cleared an explanation and opened the pane on its placeholder; no key or plain wheel scrolled
the lists; Replay and Tab moved them; the legend scrolled out of sight."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QPoint, QPointF, QRect, Qt
from PySide6.QtGui import QColor, QWheelEvent
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from tests.gui.test_compare_many_lists import EIGHT, _eight
from workbench.gui.compare.explain_diff import HINT
from workbench.gui.compare.window import TABLE_PRESENTATION_SCALE


def _click(qtbot: QtBot, view: Any, column: int, rank: int) -> None:
    lines = view.lines
    qtbot.mouseClick(lines, Qt.MouseButton.LeftButton,
                     pos=lines.row_rect(column, rank).center().toPoint())
    qtbot.wait(10)


def _screen(view: Any, monkeypatch: pytest.MonkeyPatch, w: int, h: int) -> None:
    """Presenting as on a w × h screen (the tests' screen is 800 px square)."""
    screen = type("Screen", (), {"availableGeometry": lambda self: QRect(0, 0, w, h),
                                 "geometry": lambda self: QRect(0, 0, w, h)})()
    monkeypatch.setattr(view, "screen", lambda: screen)


@pytest.mark.parametrize("same", [True, False])
def test_leaving_present_keeps_the_document_explained(
        qtbot: QtBot, window: Any, styled: Any, same: bool) -> None:
    """dr3 2: on the query Present shows, or on another that Present leaves and comes back to,
    the explanation open before F11 is open after Esc (it had been cleared, the pane opened on
    "Click a document …")."""
    view = _eight(qtbot, window, (1920, 1080), n=3)
    order = view.moved()
    q = order[0] if same else next(x for x in range(len(view.comp.dataset.queries))
                                   if x != order[0])
    view.show_query(q)
    _click(qtbot, view, 1, 2)
    said = view.explain.sentence.text()
    assert view.explain.explained is not None and said != HINT
    view.set_presentation(True)
    qtbot.wait(20)
    view.set_presentation(False)
    qtbot.wait(30)
    assert view.lines_query() == q
    assert view.explain.explained is not None and view.explain.sentence.text() == said
    assert view.top_split.sizes()[1] > 0


def test_a_document_explained_while_presenting_at_1024_comes_back_as_a_click_places_it(
        qtbot: QtBot, window: Any, styled: Any) -> None:
    """dr3 3: it came back beside all 8 lists, a pane of 254 px with its table cut, the lists
    scrolling: where a click outside Present shows A and B only beside a whole table."""
    view = _eight(qtbot, window, (1024, 768))
    view.set_presentation(True)
    qtbot.wait(20)
    view.showNormal()  # the tests' screen: out of full screen, at the window's size
    view.resize(1024, 768)
    qtbot.wait(20)
    _click(qtbot, view, 1, 1)
    view.set_presentation(False)
    view.resize(1024, 768)
    qtbot.wait(30)
    assert view.explain.explained is not None
    assert view.lines.columns == [0, 1]
    assert view.lines_scroll.horizontalScrollBar().maximum() == 0  # two lists, no bar
    assert view.top_split.sizes()[1] >= min(view.explain.content_width(),
                                            sum(view.top_split.sizes()) // 2) - 2 \
        or view.lines.width() == view.lines.least_width()


def test_a_click_in_a_list_reached_by_scrolling_explains_that_list(
        qtbot: QtBot, window: Any, styled: Any) -> None:
    """dr3 5: at 1,024 px a click in the 8th list, scrolled to, hid that list and explained
    A → B (w_content), a 4-px scroll bar left under A and B."""
    view = _eight(qtbot, window, (1024, 768))
    bar = view.lines_scroll.horizontalScrollBar()
    bar.setValue(bar.maximum())
    qtbot.wait(10)
    _click(qtbot, view, 7, 3)
    move = view.explain.explained
    assert move is not None
    assert (move.name_a, move.name_b) == (EIGHT[0], EIGHT[7])
    assert view.lines.columns == [0, 7]  # the list clicked stays, beside A
    assert bar.maximum() == 0 and not bar.isVisible()
    assert view.lines.width() >= view.lines.least_width()
    # another query: every list back, scrolled where they were (not ▶: the list clicked is B
    # now, dr7 1, and between A and it no query may have moved)
    view.show_query((view.lines_query() + 1) % len(view.comp.dataset.queries))
    qtbot.wait(20)
    assert view.lines.columns == list(range(8))
    assert bar.value() == bar.maximum() > 0


def test_keys_and_a_plain_wheel_scroll_the_lists_sideways(
        qtbot: QtBot, window: Any, styled: Any) -> None:
    """dr3 7: no key, and no wheel but a sideways one, scrolled them; presenting, lists 5-8
    were out of a keyboard's reach."""
    view = _eight(qtbot, window, (1024, 768))
    lines, bar = view.lines, view.lines_scroll.horizontalScrollBar()
    assert bar.maximum() > 0 and bar.value() == 0
    q = view.lines_query()
    qtbot.keyClick(lines, Qt.Key.Key_End)
    assert bar.value() == bar.maximum()
    qtbot.keyClick(lines, Qt.Key.Key_Home)
    assert bar.value() == 0
    qtbot.keyClick(lines, Qt.Key.Key_PageDown)
    assert bar.value() > 0
    qtbot.keyClick(lines, Qt.Key.Key_PageUp)
    assert bar.value() == 0
    assert view.lines_query() == q  # not a step to another query
    # a plain wheel turned down, over the lists' headers (as the lists pass it on)
    viewport = view.lines_scroll.viewport()
    at = QPointF(lines.row_rect(0, 1).center().x(), 4)
    wheel = QWheelEvent(at, viewport.mapToGlobal(at), QPoint(0, 0), QPoint(0, -120),
                        Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier,
                        Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(viewport, wheel)
    assert bar.value() > 0
    down = bar.value()
    shifted = QWheelEvent(at, viewport.mapToGlobal(at), QPoint(0, 0), QPoint(0, -120),
                          Qt.MouseButton.NoButton, Qt.KeyboardModifier.ShiftModifier,
                          Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(viewport, shifted)
    assert bar.value() > down


def test_presenting_the_type_fits_every_list_across_the_screen(
        qtbot: QtBot, window: Any, styled: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """dr3 7: at 1,920 × 1,080 eight lists scrolled at 1.4 (the scale looked at the height
    only), where a smaller type fitted them all."""
    view = _eight(qtbot, window, (1280, 800))
    _screen(view, monkeypatch, 1920, 1080)
    view.set_presentation(True)
    view.showNormal()
    view.resize(1920, 1080)
    qtbot.wait(30)
    assert view.presenting and view.lines.font_scale >= 1.15
    assert view.lines.least_width() <= view.lines_scroll.width()
    assert view.lines_scroll.horizontalScrollBar().maximum() == 0
    view.set_presentation(False)


def test_presenting_at_1280_by_800_shows_every_metric_row(
        qtbot: QtBot, window: Any, styled: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """dr3 9: five configurations' table showed 8 of its 11 rows at 1.15, the least scale."""
    view = _eight(qtbot, window, (1280, 800), n=5)
    _screen(view, monkeypatch, 1280, 800)
    view.set_presentation(True)
    view.showNormal()
    view.resize(1280, 800)
    qtbot.wait(30)
    # the type the lists and table fit at with the explain pane open or folded (r52 dr5 5)
    assert view.presenting and view.table.font_scale >= TABLE_PRESENTATION_SCALE
    assert view.table.rowCount() == 11
    assert view.table.verticalScrollBar().maximum() == 0  # every row in sight
    view.set_presentation(False)


def test_replay_and_tab_leave_the_lists_where_they_are_scrolled(
        qtbot: QtBot, window: Any, styled: Any) -> None:
    """dr3 11: after a replay the lists came back at the first four; tabbing into them
    moved them to their middle."""
    view = _eight(qtbot, window, (1024, 768))
    bar = view.lines_scroll.horizontalScrollBar()
    bar.setValue(bar.maximum())
    end = bar.value()
    with qtbot.waitSignal(view.lines.replay_finished, timeout=5000):
        view.replay()
    qtbot.wait(30)
    assert view.lines.columns == list(range(8))
    assert bar.value() == end
    bar.setValue(0)
    view.activateWindow()
    view.configs.list.setFocus()
    qtbot.wait(5)
    reached = False
    for _ in range(20):  # round the window's focus chain, into the lists and past them
        focus = QApplication.focusWidget()
        assert focus is not None
        qtbot.keyClick(focus, Qt.Key.Key_Tab)
        qtbot.wait(2)
        reached = reached or QApplication.focusWidget() is view.lines
        assert bar.value() == 0
    assert reached


def test_the_explain_pane_is_said_where_it_is_folded(
        qtbot: QtBot, window: Any, styled: Any) -> None:
    """dr3 4: its only hint sat in the pane folded to 0 px; the row tooltip said nothing of a
    click."""
    from workbench.gui.compare.rank_lines import CLICK_TIP
    from workbench.gui.compare.window import EXPLAIN_HINT

    view = _eight(qtbot, window, (1024, 768), n=2)
    assert view.top_split.sizes()[1] == 0
    assert view.query_label.isVisible() and EXPLAIN_HINT in view.query_label.text()
    lines = view.lines
    qtbot.mouseMove(lines, lines.row_rect(0, 1).center().toPoint())
    qtbot.wait(10)
    tip = lines.toolTip()
    assert tip.startswith(view.comp.dataset.corpus[lines._tops[0][0]].id)
    assert tip.endswith(f"\n{CLICK_TIP}")


def test_the_legend_stays_in_sight_when_the_lists_are_scrolled(
        qtbot: QtBot, window: Any, styled: Any) -> None:
    """dr3 6: drawn at the widget's left, it scrolled out of sight with the first lists."""
    view = _eight(qtbot, window, (1024, 768))
    lines, bar = view.lines, view.lines_scroll.horizontalScrollBar()
    bar.setValue(bar.maximum())
    qtbot.wait(10)
    image = lines.grab().toImage()
    g = lines._geometry()
    y0 = int(g.slot_rect(0).bottom() + g.row_h * 0.3)
    left = bar.value()
    seen = view.lines_scroll.viewport().width()
    inked = sum(1 for x in range(left, left + seen // 2)
                for y in range(y0, y0 + int(g.row_h))
                if QColor(image.pixel(x, y)).lightness() < 160)
    assert inked > 50  # the marks and their words, in the part in sight
