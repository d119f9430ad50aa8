"""Metric vs parameter draws a selection figure over the turns eval, sweep and the metric
strip count (rv51 3, 6): a manual search beside injections injects nothing, so its results are
no injected tokens. The curve, the value in use and the baseline had averaged every query."""

from __future__ import annotations

import json
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np
import pytest
from pytestqt.qtbot import QtBot

from tests.conftest import SAMPLES
from workbench.core import selection_figures
from workbench.gui.charts import MetricCurve
from workbench.gui.charts._standalone import open_session
from workbench.gui.metric_names import select_metric

DM = SAMPLES / "decisions-eval"


def test_the_figure_curve_counts_the_injections_only(qtbot: QtBot) -> None:
    s = open_session(DM, "decision-memory")
    s.recompute()
    s.pin_baseline()
    curve = MetricCurve(s, synchronous=True)
    qtbot.addWidget(curve)
    curve.resize(900, 420)
    curve.show()
    qtbot.waitExposed(curve)
    assert select_metric(curve.metric_box, "results")
    # the searches as the eval file writes them (forInjection false), not as the model reads
    # them; no settings.json here, so no project is disabled
    cases = [json.loads(line) for line in (DM / "eval.jsonl").read_text().splitlines()
             if line.strip()]
    searches = {c["name"] for c in cases if c.get("forInjection") is False}
    inject = np.array([q not in searches for q in s.dataset.queries.ids])
    assert searches and not (DM / "settings.json").exists()
    assert s.result is not None
    each = selection_figures.of_result("results", s.result)  # results each query returns
    expected = float(each[inject].mean())
    assert expected != pytest.approx(float(each.mean()))  # the premise: the searches move it
    assert curve.current is not None and curve.current[1] == pytest.approx(expected)
    assert curve.baseline_value == pytest.approx(expected)  # pinned at the same values
    value = s.params[curve.param_name]
    drawn = [mean for v, mean in curve.points if v == value]
    assert drawn and drawn[0] == pytest.approx(expected)
