"""The Tune tab in a laptop's window, reached by a click on its tab (review rn, 2026-11-29):
its left column fits the scroll area it sits in, scroll bar included (rn 1: "Untick those"
read "Untick tho", the seed box ran under the bar), and the tab takes the room every chart tab
has, so the window does not re-split when it is chosen (rn 3: the query list lost 125 px and
the selected query scrolled out of view)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from conftest import SAMPLES
from PySide6.QtCore import QPoint
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
    for size in SIZES:
        laptop.resize(*size)
        settle(qtbot, laptop)
        # the column scrolls down in the tab's height: its bar takes part of the width
        assert column.verticalScrollBar().isVisible(), size
        assert column.widget().width() <= viewport.width(), size
        cut = []
        for child in column.widget().findChildren(QWidget):
            if not child.isVisible():
                continue
            right = child.mapTo(viewport, QPoint(child.width(), 0)).x()
            if right > viewport.width():
                cut.append((type(child).__name__, child.property("text"), right))
        assert not cut, (size, viewport.width(), cut)
        button = panel.form.ship_only
        assert button.width() >= button.sizeHint().width(), size  # "Untick those" whole
