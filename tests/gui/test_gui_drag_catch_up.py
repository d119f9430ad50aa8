"""During a slider drag only the ranked table and the metric strip follow every result; the
throttled panels (query list, charts, preview, the paired test) wait, and once the drag ends
they show the final result."""

from __future__ import annotations

import numpy as np
from pytestqt.qtbot import QtBot

from workbench.gui.charts import ContributionChart
from workbench.gui.drag import drag_state
from workbench.gui.main_window import MainWindow
from workbench.gui.param_editors import NumberEditor


def _throttled(window: MainWindow) -> ContributionChart:
    """The window's throttles as in the app (the fixture's synchronous window has none)."""
    window.queries._throttle.interval_ms = 120
    window.preview.defer_ms = 120
    window.metrics.defer_ms = 150
    for panel in window.charts.panels.values():
        panel.throttle_ms = 150  # type: ignore[attr-defined]
    window.charts.setCurrentWidget(window.charts.panels["ContributionChart"])
    chart = window.charts.panels["ContributionChart"]
    assert isinstance(chart, ContributionChart)
    return chart


def test_throttled_panels_wait_for_the_drag_then_show_the_final_result(
        window: MainWindow, qtbot: QtBot) -> None:
    s = window.session
    window.show()
    qtbot.waitExposed(window)
    chart = _throttled(window)
    assert chart.isVisible()
    s.pin_baseline()
    qtbot.waitUntil(lambda: "p =" in window.metrics.comparison.text())
    editor = window.params.editors["w_tf"]
    assert isinstance(editor, NumberEditor)
    slider = editor.slider
    slider.setSliderDown(True)  # sliderPressed: a drag
    assert drag_state(s).dragging
    drawn = chart.values.copy()
    for _ in range(6):
        slider.setValue(slider.value() + 8)
        qtbot.wait(5)
    # every tick reached the ranked table and the metric strip's cards …
    assert window.ranked.model.rows and s.params["w_tf"] == round(0.4 + 48 * 0.01, 10)
    text = f"{s.result.means[s.metric_names[0]]:.3f}"  # type: ignore[union-attr]
    assert window.metrics.cards[0].value.text() == text
    # … the throttled panels only noted that they are behind
    assert window.queries._throttle.pending and chart._idle.pending
    assert np.array_equal(chart.values, drawn)
    slider.setSliderDown(False)  # sliderReleased: the drag ends, everything catches up
    assert not drag_state(s).dragging
    qtbot.waitUntil(lambda: not window.queries._throttle.pending
                    and not chart._idle.pending and not window.preview._timer.isActive()
                    and not window.metrics._timer.isActive())
    final = s.result
    assert final is not None
    # the query list shows the final per-query metric
    name = s.metric_names[0]
    mask = s.judgments.judged_mask  # type: ignore[union-attr]
    shown = np.array(window.queries.model._metric, dtype=float)
    assert np.allclose(shown[mask], final.per_query[name][mask])
    # the chart, the preview and the paired test are what a fresh refresh would draw
    test = s.comparison()
    assert test is not None and (test.improved, test.worsened) != (0, 0)
    expected = f"▲{test.improved}</span> <span style='color:#c0392b'>▼{test.worsened}"
    qtbot.waitUntil(lambda: expected in window.metrics.comparison.text())
    values = chart.values.copy()
    page = window.preview._html
    chart.redraw()
    window.preview.refresh()
    assert np.array_equal(chart.values, values) and values.size
    assert window.preview._html == page and "score" in page
