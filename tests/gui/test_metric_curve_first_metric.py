"""Metric vs parameter opens on the quality metric where the data is judged: a fresh window
opening the memories sample had drawn "results per query" (a fill made before the judgments
came had kept it), though 20 queries are judged."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest
from pytestqt.qtbot import QtBot

from tests.conftest import SAMPLES
from workbench.gui.main_window import MainWindow
from workbench.gui.metric_names import combo_metric, select_metric


@pytest.mark.parametrize("folder", ["memories", "decisions-eval"])
def test_a_judged_dataset_opens_on_its_quality_metric(qtbot: QtBot, folder: str) -> None:
    w = MainWindow(synchronous=True, restore=False)
    qtbot.addWidget(w)
    w.resize(1280, 800)
    assert w.open_path(SAMPLES / folder)
    assert w.session.judgments is not None
    curve = w.charts.panels["MetricCurve"]
    assert combo_metric(curve.metric_box) == w.session.metric_names[0]


def test_a_chosen_metric_is_kept_across_a_new_dataset(qtbot: QtBot) -> None:
    w = MainWindow(synchronous=True, restore=False)
    qtbot.addWidget(w)
    w.resize(1280, 800)
    assert w.open_path(SAMPLES / "memories")
    curve = w.charts.panels["MetricCurve"]
    assert select_metric(curve.metric_box, "results")  # chosen: kept while offered
    assert w.open_path(SAMPLES / "decisions-eval")
    assert combo_metric(curve.metric_box) == "results"
