"""The window leaves vault-search's idle signals (0 for every pair at the values in use) out
of the ranked table's legend, its bars' tooltips, the breakdown and the Contributions chart's
legend (review 45 rv1, F10): the legend read "… density ■ proximity ■ clamp" on the shipped
variant, where neither can be other than 0."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from pytestqt.qtbot import QtBot

from tests.conftest import SAMPLES
from workbench.gui.charts.contributions import ContributionChart
from workbench.gui.main_window import MainWindow


def test_the_legends_and_breakdown_leave_them_out(qtbot: QtBot) -> None:
    w = MainWindow(synchronous=True, restore=False)
    qtbot.addWidget(w)
    assert w.open_path(SAMPLES / "vault", model="vault-search")
    s = w.session
    assert s.result is not None
    legend = w.ranked.legend.text()
    assert "density" in legend and "proximity" not in legend and "clamp" not in legend
    chart = w.charts.panels["ContributionChart"]
    assert isinstance(chart, ContributionChart)
    w.charts.setCurrentWidget(chart)
    chart.redraw()
    names = [label.text for _, label in chart.top_legend.items]
    assert names == ["term frequency", "position", "density", "total"]
    breakdown = w.preview.browser.toPlainText()
    assert "density" in breakdown and "proximity" not in breakdown
    # weights past 1 in all: the clamp can cut (the chart shows it again); the ranked
    # table's legend names the signals that draw on the data, and here it cuts no score
    s.set_params({"w_tf": 1.0})
    s.recompute()
    legend = w.ranked.legend.text()
    assert "clamp" not in legend and "proximity" not in legend
    assert "clamp" in w.ranked.legend.toolTip().split("not drawing on this data:")[1]
    chart.redraw()
    assert "clamp" in [label.text for _, label in chart.top_legend.items]
    # every weight at 1: the clamp cuts scores, and the legend names it
    s.set_params({"w_position": 1.0, "w_density": 1.0})
    s.recompute()
    legend = w.ranked.legend.text()
    assert "clamp" in legend and "proximity" not in legend
    w.close()
