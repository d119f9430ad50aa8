"""Tab goes in reading order (review rv4 M): the header's model box and Pin first (the
dataset line above them takes no focus), then the query list, the ranked table, the preview,
the parameters, each group's fold title before its own rows."""

from __future__ import annotations

from conftest import SAMPLES
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from workbench.gui.main_window import MainWindow


def _stops(w: MainWindow) -> list[QWidget]:
    out: list[QWidget] = []
    x: QWidget = w
    for _ in range(2000):
        x = x.nextInFocusChain()
        if x is w:
            break
        if x.focusPolicy() & Qt.FocusPolicy.TabFocus and x.isVisibleTo(w) and x.isEnabled():
            out.append(x)
    return out


def test_tab_starts_at_the_model_box_and_reaches_each_group_title_before_its_rows(
        qtbot: QtBot) -> None:
    w = MainWindow(synchronous=True, restore=False)
    qtbot.addWidget(w)
    assert w.open_path(SAMPLES / "memories")
    for button in w.params.groups.values():
        button.setChecked(True)  # every group unfolded: its rows take Tab too
    stops = _stops(w)
    assert stops[:3] == [w.header.model_combo, w.header.pin_button, w.queries.filter_edit]
    order = [stops.index(x) for x in (w.queries.view, w.ranked.view, w.preview.browser)]
    assert order == sorted(order)
    first_param = min(i for i, x in enumerate(stops) if w.params.isAncestorOf(x))
    assert first_param > order[-1]
    column = w.params.more.layout()
    for button in w.params.groups.values():
        # each group's rows: the holder laid out under its title
        holder = column.itemAt(column.indexOf(button) + 1).widget()
        rows = [i for i, x in enumerate(stops) if holder.isAncestorOf(x)]
        assert rows and stops.index(button) == rows[0] - 1, button.text()
