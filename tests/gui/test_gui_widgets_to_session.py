"""Move the widgets, assert on the tuning session."""

from __future__ import annotations

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from workbench.gui.main_window import MainWindow
from workbench.gui.param_editors import NumberEditor


def test_slider_sets_the_param(window: MainWindow) -> None:
    editor = window.params.editors["w_density"]
    assert isinstance(editor, NumberEditor)
    editor.slider.setValue(editor.slider.value() + 5)  # as a keyboard step would
    assert window.session.params["w_density"] == round(0.3 + 5 * editor.step, 10)
    assert editor.spin.value() == window.session.params["w_density"]


def test_spinbox_sets_the_param(window: MainWindow) -> None:
    editor = window.params.editors["min_score"]
    assert isinstance(editor, NumberEditor)
    editor.spin.setValue(0.25)
    assert window.session.params["min_score"] == 0.25
    assert editor.slider.value() == 25


def test_a_drag_is_one_undo_step(window: MainWindow) -> None:
    s = window.session
    editor = window.params.editors["w_tf"]
    assert isinstance(editor, NumberEditor)
    start = s.params["w_tf"]
    editor.slider.sliderPressed.emit()
    editor.slider.setSliderDown(True)
    for i in range(1, 8):
        editor.slider.setValue(editor.slider.value() + 1)
        assert s.params["w_tf"] == round(0.4 + i * 0.01, 10)
    editor.slider.setSliderDown(False)
    editor.slider.sliderReleased.emit()
    s.undo()
    assert s.params["w_tf"] == start and editor.spin.value() == start


def test_reset_buttons(window: MainWindow) -> None:
    s = window.session
    s.set_params({"w_tf": 0.9, "w_position": 0.1})
    window.params._reset("w_tf")
    assert s.params["w_tf"] == 0.4 and s.params["w_position"] == 0.1
    window.params.reset_all.click()
    assert s.params["w_position"] == 0.3


def test_bool_and_choice_editors(window: MainWindow) -> None:
    box = window.params.editors["early_stop"]
    box.box.setChecked(True)  # type: ignore[attr-defined]
    assert window.session.params["early_stop"] is True
    window.session.set_model("bm25")
    combo = window.params.editors["variant"].combo  # type: ignore[attr-defined]
    other = next(combo.itemText(i) for i in range(combo.count())
                 if combo.itemText(i) != combo.currentText())
    combo.setCurrentText(other)
    assert window.session.params["variant"] == other


def test_model_combo_sets_the_model(window: MainWindow) -> None:
    combo = window.header.model_combo
    i = combo.findData("bm25")
    combo.setCurrentIndex(i)
    combo.activated.emit(i)
    assert window.session.model is not None and window.session.model.id == "bm25"
    assert window.session.result is not None


def test_query_list_click_selects_the_query(window: MainWindow, qtbot: QtBot) -> None:
    view = window.queries.view
    window.show()
    qtbot.waitExposed(window)
    rect = view.visualRect(window.queries.proxy.index(4, 0))
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert window.session.query == 4
    qtbot.keyClick(view, Qt.Key.Key_Down)
    assert window.session.query == 5
    qtbot.keyClick(view, Qt.Key.Key_Up)
    assert window.session.query == 4


def test_filter_and_sort_the_query_list(window: MainWindow) -> None:
    q = window.queries
    q.filter_edit.setText("crack")
    ids = {q.proxy.index(r, 0).data() for r in range(q.proxy.rowCount())}
    texts = [window.session.dataset.queries[window.session.dataset.queries.index[i]].text  # type: ignore[union-attr]
             for i in ids]
    assert ids and all("crack" in t.lower() or "crack" in i for i, t in zip(ids, texts,
                                                                              strict=True))
    q.filter_edit.clear()
    q.view.sortByColumn(2, Qt.SortOrder.DescendingOrder)
    values = [q.proxy.index(r, 2).data() for r in range(q.proxy.rowCount())]
    numbers = [float(v) for v in values if v]
    assert numbers == sorted(numbers, reverse=True)


def test_a_filter_never_changes_the_selected_query(window: MainWindow) -> None:
    """Typing a filter that hides the selected query leaves it selected in the session (the
    view would move its current row to a neighbour); clearing the filter shows it selected
    again; a filter that keeps it keeps its row highlighted."""
    s, q = window.session, window.queries
    s.select_query(2)
    text = s.dataset.queries[2].text.lower()  # type: ignore[union-attr]
    others = [w for i in (0, 1, 3, 4) for w in s.dataset.queries[i].text.lower().split()]  # type: ignore[union-attr]
    hide = next(w for w in others if len(w) > 3 and w not in text)
    q.filter_edit.setText(hide)
    assert q.proxy.rowCount() > 0  # other queries shown, the selected one hidden
    assert s.query == 2
    assert not q.view.selectionModel().hasSelection()
    q.filter_edit.clear()
    assert s.query == 2
    current = q.proxy.mapToSource(q.view.selectionModel().currentIndex())
    assert current.row() == 2
    q.filter_edit.setText(text.split()[0])  # a word of its own text: still shown
    assert s.query == 2
    assert q.proxy.mapToSource(q.view.selectionModel().currentIndex()).row() == 2


def test_ranked_rows_select_documents(window: MainWindow) -> None:
    view = window.ranked.view
    view.selectRow(2)
    doc = window.ranked.model.rows[2].doc
    assert window.session.docs == (doc,)
    assert window.preview.doc == doc


def test_k_spin_sets_k(window: MainWindow) -> None:
    window.metrics.k_spin.setValue(20)
    assert window.session.k == 20
    assert "ndcg@20" in window.session.result.means  # type: ignore[union-attr]


def test_typing_a_query_ranks_it(window: MainWindow, qtbot: QtBot) -> None:
    """Enter in the query box: a new query selected in the list, ranked in the table."""
    s = window.session
    assert s.dataset is not None
    n = len(s.dataset.queries)
    qtbot.keyClicks(window.queries.ask_edit, "cold brew")
    qtbot.keyClick(window.queries.ask_edit, Qt.Key.Key_Return)
    assert window.queries.ask_edit.text() == ""
    assert s.dataset.queries[s.query].text == "cold brew" and s.query == n
    qtbot.waitUntil(lambda: s.result is not None and s.result.scores.n_queries == n + 1)
    assert window.queries.model.rowCount() == n + 1
    current = window.queries.view.selectionModel().currentIndex()
    assert window.queries.proxy.mapToSource(current).row() == n
    assert window.ranked.model.rows  # the typed query's results are on show


def test_a_parameter_greys_while_one_it_needs_is_off(window: MainWindow) -> None:
    """vault-search: Offset acts only with a Limit, the early stop's threshold and batch size
    only with Early stop on (and a Limit); Limit 0 reads "all"."""
    p = window.params
    s = window.session
    limit = p.editors["limit"]
    assert isinstance(limit, NumberEditor) and limit.spin.text() == "all"
    for name in ("offset", "early_stop", "early_stop_threshold", "batch_size"):
        assert not p.editors[name].isEnabled() and not p.needing[name].isEnabled()
    assert "no effect while Limit is 0" in p.editors["offset"].toolTip()
    s.set_params({"limit": 5})
    assert p.editors["offset"].isEnabled() and p.editors["early_stop"].isEnabled()
    assert "no effect" not in p.editors["offset"].toolTip()
    assert not p.editors["batch_size"].isEnabled()
    assert "no effect while Early stop is off" in p.editors["batch_size"].toolTip()
    s.set_params({"early_stop": True})
    assert p.editors["batch_size"].isEnabled() and p.editors["early_stop_threshold"].isEnabled()
    s.undo()
    assert not p.editors["batch_size"].isEnabled()


def test_the_keyboard_reaches_and_leaves_each_pane(window: MainWindow, qtbot: QtBot) -> None:
    """Tab stepped through the query list's and ranked table's cells for ever (and each Tab
    picked another query); Alt+1/2/3 go to the query list, the ranked table, the sliders."""
    from PySide6.QtWidgets import QApplication, QSlider

    window.show()
    window.activateWindow()
    qtbot.waitActive(window)
    assert not window.queries.view.tabKeyNavigation()
    assert not window.ranked.view.tabKeyNavigation()
    titles = {a.text().replace("&", ""): a
              for a in window.menuBar().actions()[2].menu().actions()}
    titles["Go to the ranked table"].trigger()
    qtbot.wait(10)
    assert QApplication.activeWindow() is window, QApplication.activeWindow()
    assert QApplication.focusWidget() is window.ranked.view
    query = window.session.query
    qtbot.keyClick(window.ranked.view, Qt.Key.Key_Tab)
    assert QApplication.focusWidget() is not window.ranked.view  # Tab moved on
    titles["Go to the query list"].trigger()
    assert QApplication.focusWidget() is window.queries.view
    qtbot.keyClick(window.queries.view, Qt.Key.Key_Tab)
    assert window.session.query == query  # Tab no longer picks another query
    titles["Go to the parameters"].trigger()
    assert isinstance(QApplication.focusWidget(), QSlider)
    assert window.params.isAncestorOf(QApplication.focusWidget())


def test_a_shortcut_into_a_hidden_pane_shows_it(qtbot, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    # Alt+1 then Down changed the query in a hidden list; Ctrl+F filtered it unseen
    window.show()
    qtbot.waitExposed(window)
    menu = window.menuBar().actions()[2].menu()
    titles = {a.text().replace("&", ""): a for a in menu.actions()}
    titles["Query list"].setChecked(False)
    assert not window.queries.isVisible()
    titles["Go to the query list"].trigger()
    assert window.queries.isVisible() and titles["Query list"].isChecked()
    titles["Query list"].setChecked(False)
    window.menu_actions.filter.trigger()
    assert window.queries.isVisible()
    titles["Parameters"].setChecked(False)
    titles["Go to the parameters"].trigger()
    assert window.params.isVisible()


def test_no_menu_gives_one_access_key_twice(window: MainWindow) -> None:
    # Alt+F, F highlighted "Open file…" and the folder dialog could never open; Alt+T, P
    # only highlighted "Pin as baseline" (Cancel prepare had P too)
    import re

    for top in window.menuBar().actions():
        menu = top.menu()
        keys = [m.group(1).lower() for a in menu.actions()
                if (m := re.search(r"&([^&])", a.text()))]
        assert len(keys) == len(set(keys)), (top.text(), keys)


def test_ctrl_z_in_a_spin_box_is_the_windows_undo(qtbot, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    # the box's own text undo took Ctrl+Z and did nothing, though Edit ▸ Undo was enabled
    from PySide6.QtWidgets import QApplication

    window.show()
    window.activateWindow()
    qtbot.waitActive(window)
    editor = window.params.editors["min_score"]
    assert isinstance(editor, NumberEditor)
    before = window.session.params["min_score"]
    editor.spin.setFocus()
    qtbot.waitUntil(lambda: QApplication.focusWidget() is editor.spin)
    qtbot.keyClick(editor.spin, Qt.Key.Key_Up)
    assert window.session.params["min_score"] != before
    qtbot.keyClick(editor.spin, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert window.session.params["min_score"] == before
    assert editor.value() == before
    qtbot.keyClick(editor.spin, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier
                   | Qt.KeyboardModifier.ShiftModifier)
    assert window.session.params["min_score"] != before


def test_tab_goes_from_the_preview_to_the_parameters_and_each_is_named(
        qtbot, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    # the controls came last in the Tab order (after every chart), the panel itself was an
    # empty stop, and no slider or spin box had a name for a screen reader
    from PySide6.QtCore import Qt as QtCore_Qt
    from PySide6.QtWidgets import QApplication, QWidget

    window.show()
    window.activateWindow()
    qtbot.waitActive(window)
    w: QWidget = window.preview.browser
    for _ in range(50):
        w = w.nextInFocusChain()
        if (w.focusPolicy() & QtCore_Qt.FocusPolicy.TabFocus) and w.isVisible() \
                and w.isEnabled():
            break
    assert window.params.isAncestorOf(w), type(w).__name__
    editor = window.params.editors["min_score"]
    assert isinstance(editor, NumberEditor)
    assert editor.slider.accessibleName() == editor.spin.accessibleName() == "Min score"
    assert editor.spin.accessibleDescription() == window.session.model.schema["min_score"].help
    assert window.ranked.view.accessibleName() == "Ranked results"
    assert window.header.model_combo.accessibleName() == "Scoring model"
    # Shift+Tab from above the panel lands in sight: the panel scrolls to its last control
    window.resize(1100, 650)
    last = [c for c in window.params.widget().findChildren(QWidget)
            if c.focusPolicy() & QtCore_Qt.FocusPolicy.TabFocus and c.isVisible()
            and c.isEnabled()][-1]
    window.params.verticalScrollBar().setValue(0)
    last.setFocus(QtCore_Qt.FocusReason.BacktabFocusReason)
    qtbot.waitUntil(lambda: QApplication.focusWidget() is last
                    or last.isAncestorOf(QApplication.focusWidget()))
    top = last.mapTo(window.params.viewport(), last.rect().topLeft()).y()
    assert 0 <= top <= window.params.viewport().height()
