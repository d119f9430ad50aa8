"""The Tune tab in a laptop's window, reached by a click on its tab (review rn, 2026-11-29):
its left column fits the scroll area it sits in, scroll bar included (rn 1: "Untick those"
read "Untick tho", the seed box ran under the bar), and the tab takes the room every chart tab
has, so the window does not re-split when it is chosen (rn 3: the query list lost 125 px and
the selected query scrolled out of view)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import SAMPLES
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from workbench.gui.main_window import MainWindow
from workbench.gui.tune_panel import TunePanel

SIZES = ((1280, 800), (1024, 768))


@pytest.fixture
def laptop(qtbot: QtBot, styled: object) -> Iterator[MainWindow]:
    w = MainWindow(synchronous=True, restore=False)
    qtbot.addWidget(w)
    w.resize(*SIZES[0])
    w.show()
    qtbot.waitExposed(w)
    yield w
    w.close()


def settle(qtbot: QtBot, w: MainWindow) -> None:
    """Until the window's layout stops moving (the Tune form settles in a few passes)."""
    last: list[object] = []
    for _ in range(50):
        qtbot.wait(20)
        now = [c.geometry() for c in w.findChildren(QWidget) if c.isVisible()]
        if now == last:
            return
        last = now
    raise AssertionError("the window's layout did not settle")


def tune_tab(qtbot: QtBot, w: MainWindow) -> TunePanel:
    panel = w.charts.panels["TunePanel"]
    assert isinstance(panel, TunePanel)
    w.charts.setCurrentWidget(panel)  # what a click on its tab does
    settle(qtbot, w)
    return panel


@pytest.mark.parametrize("sample", ["story", "code-repo"])
def test_the_tune_column_fits_its_scroll_area(qtbot: QtBot, laptop: MainWindow,
                                              sample: str) -> None:
    assert laptop.open_path(SAMPLES / sample)
    panel = tune_tab(qtbot, laptop)
    column = panel.form.column
    viewport = column.viewport()
    assert panel.form.ship_only.isVisible()  # the ⊘ note's button: it was cut
    # by a click on the tab, and with Tools ▸ Tune…'s room (where the column is tall: the
    # layout the 463-px body had shown in, dD 6)
    for how, size in [(how, size) for how in ("click", "Ctrl+T") for size in SIZES]:
        laptop.resize(*size)
        if how == "Ctrl+T":
            laptop.charts.setCurrentIndex(0)
            settle(qtbot, laptop)
            laptop.menu_actions.tune.trigger()
        settle(qtbot, laptop)
        cut = []
        for child in column.widget().findChildren(QWidget):
            if not child.isVisible():
                continue
            right = child.mapTo(viewport, QPoint(child.width(), 0)).x()
            if right > viewport.width():
                cut.append((type(child).__name__, child.property("text"), right))
        assert not cut, (how, size, viewport.width(), cut)
        button = panel.form.ship_only
        assert button.width() >= button.sizeHint().width(), size  # "Untick those" whole
        # the column scrolls down in the tab's height: its bar takes part of the width
        assert column.verticalScrollBar().isVisible(), (how, size)
        assert column.widget().width() <= viewport.width(), (how, size)


def test_choosing_the_tune_tab_does_not_re_split_the_window(qtbot: QtBot,
                                                             laptop: MainWindow) -> None:
    assert laptop.open_path(SAMPLES / "story")
    view = laptop.queries.view
    view.selectRow(12)
    view.scrollTo(view.model().index(12, 0))
    for size in SIZES:
        laptop.resize(*size)
        laptop.charts.setCurrentIndex(0)
        settle(qtbot, laptop)
        before = (laptop.v_split.sizes(), view.viewport().height())
        assert view.viewport().rect().contains(view.visualRect(view.model().index(12, 0)))
        tabs = laptop.charts
        for i in [i for i in range(tabs.count()) if tabs.isTabVisible(i)] + [0]:
            tabs.setCurrentIndex(i)
            settle(qtbot, laptop)
            now = (laptop.v_split.sizes(), view.viewport().height())
            assert now == before, (size, tabs.tabText(i), before, now)
            row = view.visualRect(view.model().index(12, 0))
            assert view.viewport().rect().contains(row), (size, tabs.tabText(i))
        assert tabs.tabText(tabs.indexOf(tune_tab(qtbot, laptop))) == "Tune"
        assert laptop.v_split.sizes() == before[0]
        # the form in that height: the tab itself does not scroll, one bar beside the form,
        # the column's
        panel = laptop.charts.panels["TunePanel"]
        assert isinstance(panel, TunePanel)
        assert not panel.form_area.verticalScrollBar().isVisible(), size


def test_a_run_s_status_line_shows_only_with_its_text(qtbot: QtBot, laptop: MainWindow,
                                                      tmp_path: Path) -> None:
    """The empty line under the progress bar had taken 19 px of a chart tab's height."""
    assert laptop.open_path(SAMPLES / "tea-beir", model="bm25")
    panel = tune_tab(qtbot, laptop)
    assert panel.status.text() == "" and not panel.status.isVisible()
    panel.settings.storage.setText(str(tmp_path / "s.db"))
    panel.settings.storage.textEdited.emit(panel.settings.storage.text())
    panel.settings.budget.setValue(2)
    panel.settings.validation.setCurrentIndex(panel.settings.validation.findData("none"))
    with qtbot.waitSignal(panel.finished, timeout=120_000) as blocker:
        blocker.connect(panel.stopped)
        panel.start_button.click()
    assert panel.status.text().startswith("done: 2 trials")
    assert panel.status.isVisible()


def rows_cut(panel: TunePanel) -> list[tuple[str, object, int, int]]:
    """The form's fields and lines above the column lower than their text (dD 1: 11 px)."""
    form = panel.form
    own = Qt.FindChildOption.FindDirectChildrenOnly  # a spin box's line edit is its own
    widgets = [form.status, panel.settings.budget_note, panel.start_button,
               *panel.settings.findChildren(QWidget, options=own)]
    out = []
    for w in widgets:
        if not w.isVisible() or w is panel.settings.more:
            continue
        need = (w.heightForWidth(w.width()) if w.hasHeightForWidth()
                else w.sizeHint().height())
        if w.height() < need:
            out.append((type(w).__name__, w.property("text"), w.height(), need))
    return out


def bars(panel: TunePanel) -> int:
    """The tab's own vertical scroll bars in sight: the form's page and the charts' view."""
    return sum(a.verticalScrollBar().isVisible() for a in (panel.form_area, panel.view_area))


def test_a_long_status_line_scrolls_the_tab_not_squeezes_the_rows(qtbot: QtBot,
                                                                   laptop: MainWindow) -> None:
    """dD 1: a three-line status line under a tab click's height had squeezed the Metric,
    Budget, Validation and Storage rows to 11 px, their text cut in half."""
    assert laptop.open_path(SAMPLES / "story")
    panel = tune_tab(qtbot, laptop)
    for size in SIZES:
        laptop.resize(*size)
        panel.status.setText("done: 12 trials (2 × 6 studies: 5 folds, then all chat "
                             "moments), stored in s.db; the starting values kept: nothing to "
                             "apply; saved as the configuration kept start (nDCG@10)")
        panel.status.show()
        settle(qtbot, laptop)
        assert panel.status.height() >= 3 * panel.status.fontMetrics().height(), size
        assert not rows_cut(panel), (size, rows_cut(panel))
        # the page scrolls instead, to the Keep row
        scroll = panel.form_area.verticalScrollBar()
        scroll.setValue(scroll.maximum())
        settle(qtbot, laptop)
        keep = panel.settings.pick
        top = keep.mapTo(panel.form_area.viewport(), QPoint(0, 0)).y()
        column = panel.form.column.viewport()
        assert keep.mapTo(column, QPoint(0, keep.height())).y() <= column.height(), size
        assert top + keep.height() <= panel.form_area.viewport().height(), size


def test_a_run_from_a_tab_click_keeps_the_rows_whole(qtbot: QtBot, laptop: MainWindow,
                                                     tmp_path: Path) -> None:
    """dD 1: after a run from a tab click (not Ctrl+T) the rows had been 11 px and three
    scroll bars stood side by side: a run takes the room Tools ▸ Tune… takes."""
    assert laptop.open_path(SAMPLES / "story")
    panel = tune_tab(qtbot, laptop)
    s = panel.settings
    s.storage.setText(str(tmp_path / "s.db"))
    s.storage.textEdited.emit(s.storage.text())
    s.budget.setValue(2)
    s.validation.setCurrentIndex(s.validation.findData("kfold"))
    s.folds.setValue(2)
    with qtbot.waitSignal(panel.finished, timeout=120_000) as blocker:
        blocker.connect(panel.stopped)
        panel.start_button.click()
    settle(qtbot, laptop)
    assert panel.status.text().startswith("done: 6 trials")
    assert not rows_cut(panel), rows_cut(panel)
    assert bars(panel) <= 1
    assert not panel.form_area.verticalScrollBar().isVisible()
    # another tab gives the room back
    laptop.charts.setCurrentIndex(0)
    settle(qtbot, laptop)
    assert laptop.v_split.sizes() == [408, 300]


def test_k_fold_with_the_metric_s_note_keeps_the_rows_whole(qtbot: QtBot,
                                                            laptop: MainWindow) -> None:
    """dD 2: on code-repo, k-fold's plan line and the metric's two-line note had clipped the
    note and cut the Keep row, two scroll bars beside the results."""
    assert laptop.open_path(SAMPLES / "code-repo")
    panel = tune_tab(qtbot, laptop)
    s = panel.settings
    s.validation.setCurrentIndex(s.validation.findData("kfold"))
    for size in SIZES:
        laptop.resize(*size)
        settle(qtbot, laptop)
        assert s.objective_note.isVisible() and s.budget_note.isVisible()
        assert not rows_cut(panel), (size, rows_cut(panel))
        assert bars(panel) <= 1, size
        column = panel.form.column.viewport()
        keep = s.pick
        assert keep.mapTo(column, QPoint(0, keep.height())).y() <= column.height(), size


@pytest.mark.parametrize("sample", ["story", "code-repo", "memories"])
def test_the_column_says_where_the_parameters_are(qtbot: QtBot, laptop: MainWindow,
                                                  sample: str) -> None:
    """dD 4: after a tab click the column showed the Sampler and Keep rows only, no word of
    the parameters: its title, whole in sight, says how many are ticked below and where more
    room is."""
    assert laptop.open_path(SAMPLES / sample)
    panel = tune_tab(qtbot, laptop)
    form = panel.form
    n, ticked = len(form.checklist.rows), len(form.checklist.names())
    viewport = form.column.viewport()
    for size in SIZES:
        laptop.resize(*size)
        settle(qtbot, laptop)
        assert form.params_out_of_sight(), size
        assert f"{ticked} of {n} ticked, below ▾ · Ctrl+T: more room" in form.title.text()
        bottom = form.title.mapTo(viewport, QPoint(0, form.title.height())).y()
        assert bottom <= viewport.height(), (size, bottom, viewport.height())
        assert "Tools ▸ Tune… (Ctrl+T)" in form.title.toolTip()
    # with Tools ▸ Tune…'s room the rows show: the title as it was
    laptop.charts.setCurrentIndex(0)
    laptop.menu_actions.tune.trigger()
    settle(qtbot, laptop)
    assert not form.params_out_of_sight()
    assert form.title.text().endswith("(range: low, high)</span>")
