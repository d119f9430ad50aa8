"""dG 5: with term frequency at 0.9 vault's v02 brings "clamp" into the contribution chart's
legend (five entries, three rows) and its longest bar ends at 0.91; the legend covered that
bar in either corner and the x-axis ran to 1.23, and a slider moved to 0.9 left it at 1.21.
The axis now ends a little past the longest bar, no bar under the legend."""

from __future__ import annotations

import numpy as np
import pytest
from pytestqt.qtbot import QtBot

from tests.conftest import SAMPLES
from workbench.gui.main_window import MainWindow


@pytest.mark.parametrize("size", [(1280, 800), (1024, 768)])
@pytest.mark.parametrize("slider_first", [True, False])
def test_a_tall_legend_leaves_the_axis_near_the_longest_bar(
        qtbot: QtBot, styled: object, size: tuple[int, int], slider_first: bool) -> None:
    w = MainWindow(synchronous=True, restore=False)
    qtbot.addWidget(w)
    w.resize(*size)
    w.show()
    qtbot.waitExposed(w)
    assert w.open_path(SAMPLES / "vault")
    s = w.session
    chart = w.charts.panels["ContributionChart"]
    w.charts.setCurrentWidget(chart)
    v02 = s.dataset.queries.index["v02"]
    if slider_first:  # the query fitted anew, the legend already five entries long
        s.set_params({"w_tf": 0.9})
        s.recompute()
        s.select_query(v02)
    else:  # the slider moved under a query already shown
        s.select_query(v02)
        qtbot.wait(50)
        s.set_params({"w_tf": 0.9})
        s.recompute()
    plot = chart.top_plot.getPlotItem()
    n = int(s.result.ranking.count[s.query])
    totals = s.result.ranking.scores[s.query, :n]
    assert 0.85 < totals.max() < 0.95  # the review's 0.91
    assert len(chart.top_legend.items) == 5 and chart.top_legend.isVisible()
    qtbot.waitUntil(lambda: plot.viewRange()[0][1] <= totals.max() * 1.1, timeout=2000)
    hi = plot.viewRange()[0][1]
    assert totals.max() < hi, hi
    box = plot.vb.mapSceneToView(chart.top_legend.sceneBoundingRect()).boundingRect()
    ends = np.maximum(totals, chart.values.clip(min=0).sum(axis=0)[:n])
    for j in range(n):  # a row whose bar reaches the legend's rows ends left of it
        if box.top() <= j + 0.4 and j - 0.4 <= box.bottom():
            assert ends[j] < box.left(), (j, ends[j], box.left())
    w.close()
