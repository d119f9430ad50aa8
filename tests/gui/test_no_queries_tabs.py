"""A dataset with documents and no queries yet (a JSONL of documents before --queries, a git
repository with no tasks) opens, and every tab draws: a click on Score distribution had ended
the process with a segmentation fault (an IndexError escaping the panel's showEvent)."""

from __future__ import annotations

import json
import os
import sys

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from workbench.gui.main_window import MainWindow


def test_every_tab_draws_without_queries(qtbot: QtBot, tmp_path: Path) -> None:
    docs = tmp_path / "docs.jsonl"
    docs.write_text("".join(json.dumps({"id": f"d{i}", "title": f"Note {i}",
                                        "text": f"tea and kettles {i}"}) + "\n"
                            for i in range(2)), encoding="utf-8")
    w = MainWindow(synchronous=True, restore=False)
    qtbot.addWidget(w)
    w.resize(1280, 800)
    w.show()
    qtbot.waitExposed(w)
    assert w.open_path(docs)
    assert w.session.dataset is not None and len(w.session.dataset.queries) == 0
    for i in range(w.charts.count()):
        w.charts.setCurrentIndex(i)  # shows the panel: its showEvent draws it
        qtbot.wait(20)
    for name in ("ScoreDistribution", "MetricCurve"):
        panel = w.charts.panels[name]
        w.charts.setCurrentWidget(panel)
        qtbot.wait(20)
        assert "No queries yet" in panel.hint.text(), name
    assert w.charts.panels["MetricCurve"].current is None  # no "now nan" marker


def test_a_failing_redraw_goes_to_the_error_hook(qtbot: QtBot,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Whatever else a redraw may raise is reported (the window's error dialog), never left
    to escape a Qt override."""
    from workbench.gui.charts._base import ChartPanel

    seen: list[BaseException] = []
    monkeypatch.setattr(sys, "excepthook", lambda kind, exc, tb: seen.append(exc))

    class Broken(ChartPanel):
        def redraw(self, *_: object) -> None:
            raise IndexError("index 1 is out of bounds")

    from tests.conftest import SAMPLES
    from workbench.gui.charts._standalone import open_session

    panel = Broken(open_session(SAMPLES / "tea-beir", "bm25"))
    qtbot.addWidget(panel)
    panel._stale = True
    panel.show()
    qtbot.waitExposed(panel)
    assert [str(e) for e in seen] == ["index 1 is out of bounds"]
