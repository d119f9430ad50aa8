"""File ▸ Open session says what it opened, and the session keeps the chart tab and the query
filter (review rv4 O: the status line ended at "prepared", and the Movers tab came back as
Contributions, the filter empty)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import SAMPLES
from pytestqt.qtbot import QtBot

from workbench.gui.main_window import MainWindow


def _window(qtbot: QtBot, data: Path, *, synchronous: bool = True) -> MainWindow:
    w = MainWindow(synchronous=synchronous, restore=False)
    qtbot.addWidget(w)
    assert w.open_path(data, model="bm25")
    if not synchronous:
        qtbot.waitUntil(lambda: w.session.result is not None, timeout=20_000)
    return w


def _save(w: MainWindow, path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from PySide6.QtWidgets import QFileDialog

    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        staticmethod(lambda *a, **kw: (str(path), "")))
    w.menu_actions.save_session.trigger()


def test_a_session_keeps_its_chart_tab_and_query_filter(
        qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    w = _window(qtbot, SAMPLES / "tea-beir")
    w.charts.setCurrentWidget(w.charts.panels["MoversList"])
    w.queries.filter_edit.setText("tea")
    path = tmp_path / "s.json"
    _save(w, path, monkeypatch)
    assert json.loads(path.read_text())["view"] == {"chart": "MoversList", "filter": "tea"}

    other = _window(qtbot, SAMPLES / "vault")
    other.charts.setCurrentWidget(other.charts.panels["ScoreDistribution"])
    assert other.menu_actions.load_session_file(str(path))
    assert other.charts.currentWidget() is other.charts.panels["MoversList"]
    assert other.queries.filter_edit.text() == "tea"
    assert not other.menu_actions.unsaved()  # a view is no change to save

    # the tab the window shows by itself and no filter: no "view" (a file without it opens
    # where the key is unknown), and the session opens on that tab, not the one shown before
    other.charts.setCurrentWidget(other.charts.panels["ContributionChart"])
    other.queries.filter_edit.clear()
    plain = tmp_path / "plain.json"
    _save(other, plain, monkeypatch)
    assert "view" not in json.loads(plain.read_text())
    w.charts.setCurrentWidget(w.charts.panels["MoversList"])
    assert w.menu_actions.load_session_file(str(plain))
    assert w.charts.currentWidget() is w.charts.panels["ContributionChart"]
    assert w.queries.filter_edit.text() == ""


def test_open_session_says_which_file_dataset_model_and_what_came_back(
        qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = tmp_path / "tea"
    shutil.copytree(SAMPLES / "tea-beir", data)
    w = _window(qtbot, data)
    s = w.session
    s.set_param("k1", 1.7)
    s.pin_baseline()  # the configuration "baseline"
    s.set_param("b", 0.3)
    s.save_configuration("b 0.3")
    s.add_query("green tea antioxidants")
    path = tmp_path / "t4.json"
    _save(w, path, monkeypatch)

    other = _window(qtbot, SAMPLES / "vault", synchronous=False)
    with qtbot.waitSignal(other.loop.prepare_finished, timeout=20_000):
        assert other.menu_actions.load_session_file(str(path))
    qtbot.waitUntil(lambda: other.session.result is not None, timeout=20_000)
    assert other.statusBar().currentMessage() == (
        "opened session t4.json: tea \u00b7 test, bm25, 2 configurations "
        "(baseline \u201cbaseline\u201d), 1 typed query; prepared")
