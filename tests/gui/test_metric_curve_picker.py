"""Metric vs parameter names the parameter it sweeps in a box beside the metric's, starting on
the model's first key parameter (rA 5: memories had swept Base: ultra-short, none of its key
parameters, chosen out of sight); and while a sweep of another parameter runs, the last curve
is greyed with no marks on it (rA 2: "now 0.745 at 0.25" of Boost: user emphasis had sat on
Base: ultra-short's curve, under its x axis and best label)."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from pytestqt.qtbot import QtBot

from tests.conftest import SAMPLES
from workbench.gui.charts import MetricCurve
from workbench.gui.charts._standalone import open_session
from workbench.gui.charts.metric_curve import CURVE, STALE


def _curve(qtbot: QtBot, *, synchronous: bool = True) -> MetricCurve:
    s = open_session(SAMPLES / "memories", "importance")
    curve = MetricCurve(s, synchronous=synchronous)
    qtbot.addWidget(curve)
    curve.resize(900, 420)
    if synchronous:
        curve.show()
        qtbot.waitExposed(curve)
    else:
        with qtbot.waitSignal(curve.sweep_finished, timeout=120_000):
            curve.show()
    return curve


def test_the_sweep_starts_on_a_key_parameter_named_in_a_box(qtbot: QtBot) -> None:
    curve = _curve(qtbot)
    # memories' key parameters (models/importance headline): Boost: user emphasis first
    assert curve.param_name == "boost_emphasis"
    box = curve.param_box
    assert box.isVisible() and box.currentData() == "boost_emphasis"
    assert box.currentText() == "Boost: user emphasis"
    assert [box.itemData(i) for i in range(5)] == [
        "boost_emphasis", "boost_correction", "boost_explicit", "stale_short", "limit"]
    assert "base_ultra_short" in [box.itemData(i) for i in range(box.count())]


def test_picking_a_parameter_sweeps_it_and_a_slider_moves_the_box(qtbot: QtBot) -> None:
    curve = _curve(qtbot)
    box = curve.param_box
    box.setCurrentIndex(box.findData("base_ultra_short"))
    assert curve.param_name == "base_ultra_short"
    xs = [v for v, _ in curve.points]
    assert min(xs) == 0.0 and 0.5 in xs  # its grid, with the value in use
    item = curve.plot.getPlotItem()
    assert item.getAxis("bottom").labelText == "Base: ultra-short"
    curve.session.set_param("boost_correction", 0.5)
    assert box.currentData() == "boost_correction" and curve.param_name == "boost_correction"
    assert item.getAxis("bottom").labelText == "Boost: user correction"


def test_the_last_curve_is_greyed_until_the_new_sweep_lands(qtbot: QtBot) -> None:
    curve = _curve(qtbot, synchronous=False)
    assert curve.param_name == "boost_emphasis"
    assert curve.curve.opts["pen"].color().name() == CURVE.lower()
    assert curve.current_line.isVisible()
    with qtbot.waitSignal(curve.sweep_finished, timeout=120_000):
        curve.session.set_param("boost_correction", 0.25)
        # before the new points: no mark of the new parameter on the old curve
        assert curve.busy
        assert curve.curve.opts["pen"].color().name() == STALE.lower()
        assert not curve.current_line.isVisible()
        assert len(curve.current_dot.data) == 0 and len(curve.best_dot.data) == 0
        assert curve.best_text.textItem.toPlainText() == ""
        assert "in grey: the last sweep, of Boost: user emphasis" in curve.hint.text()
    assert curve.curve.opts["pen"].color().name() == CURVE.lower()
    assert curve.current_line.isVisible()
    assert curve.current_line.value() == 0.25
    assert "now " in curve.current_line.label.format


def test_the_box_shrinks_and_elides_and_its_list_shows_whole_names(qtbot: QtBot) -> None:
    """dF 1: sized to its longest item the box held 240–273 px, and decisions' window opened
    1,362 px wide on a 1,280 screen."""
    s = open_session(SAMPLES / "decisions", "decision-memory")
    curve = MetricCurve(s, synchronous=True)
    qtbot.addWidget(curve)
    curve.resize(700, 420)
    curve.show()
    qtbot.waitExposed(curve)
    box = curve.param_box
    longest = max(range(box.count()), key=lambda i: len(box.itemText(i)))
    assert len(box.itemText(longest)) > 20
    box.setCurrentIndex(longest)
    # as wide as its item where there is room, never wider than 260 px; down to 180 where not
    assert box.minimumSizeHint().width() <= 180 and box.sizeHint().width() <= 260
    # the whole name in its tooltip and in the list it drops
    assert box.toolTip().startswith(box.itemText(longest) + "\n")
    width = box.fontMetrics().horizontalAdvance(box.itemText(longest))
    assert box.view().minimumWidth() >= width


def test_picking_back_the_drawn_parameter_shows_its_curve_again(qtbot: QtBot) -> None:
    """dF 6: picked away and back before the other sweep landed, the curve drawn (the one
    asked for) sat greyed with no now or best mark and no word why."""
    curve = _curve(qtbot, synchronous=False)
    box = curve.param_box
    best = curve.best_text.textItem.toPlainText()
    assert best.startswith("best ")
    box.setCurrentIndex(box.findData("base_ultra_short"))
    assert curve.curve.opts["pen"].color().name() == STALE.lower()
    box.setCurrentIndex(box.findData("boost_emphasis"))
    assert curve.curve.opts["pen"].color().name() == CURVE.lower()
    assert curve.current_line.isVisible() and len(curve.current_dot.data) == 1
    assert curve.best_text.textItem.toPlainText() == best
    assert curve.hint.text() == "" and not curve.busy
    assert curve.plot.getPlotItem().getAxis("bottom").labelText == "Boost: user emphasis"
    # the metric too: away and back
    metric = curve.metric_box.currentIndex()
    curve.metric_box.setCurrentIndex(1 if metric != 1 else 0)
    assert curve.curve.opts["pen"].color().name() == STALE.lower()
    curve.metric_box.setCurrentIndex(metric)
    assert curve.curve.opts["pen"].color().name() == CURVE.lower()
    assert curve.best_text.textItem.toPlainText() == best and not curve.busy


def test_a_line_under_the_key_parameters_and_no_effect_ones_said(qtbot: QtBot) -> None:
    """dF 4: memories' key "Max results" ran straight into "Base: ultra-short"; decisions-eval
    offered Inject limit, which every case's own topK replaces (the panel greys it "no effect
    here"), with no mark, its sweep a flat line."""
    from PySide6.QtCore import Qt

    curve = _curve(qtbot)
    box = curve.param_box
    assert box.itemData(5, Qt.ItemDataRole.AccessibleDescriptionRole) == "separator"
    assert box.itemData(4) == "limit" and box.itemData(6) is not None
    s = open_session(SAMPLES / "decisions-eval", "decision-memory")
    s.set_params({**s.params, "mode": "query"})
    s.recompute()
    other = MetricCurve(s, synchronous=True)
    qtbot.addWidget(other)
    box = other.param_box
    i = box.findData("inject_limit")
    assert box.itemText(i) == "Inject limit (no effect here)"
    assert "no effect on this data" in box.itemData(i, Qt.ItemDataRole.ToolTipRole)
    assert box.itemText(box.findData("inject_min_score")) == "Inject min score"
    s.set_params({**s.params, "mode": "injection"})  # every query takes the sliders
    s.recompute()
    assert box.itemText(i) == "Inject limit"
