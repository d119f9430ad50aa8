"""The score distribution's bars fill its height where the legend does not cover them, and
each bin's edge is drawn (rn 10: code-repo's c9ade776950 had its axis run to about 200 % over
a 100 % top tick, the upper half empty; story's c02 drew three relevant memories at 5.22, 5.60
and 6.07, one a bin, as one wide 25 % bar)."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np
from pytestqt.qtbot import QtBot

from tests.conftest import SAMPLES
from workbench.gui.charts._standalone import open_session
from workbench.gui.charts.distribution import ScoreDistribution, bin_edges


def _panel(qtbot: QtBot, folder: str, model: str, query: str) -> ScoreDistribution:
    s = open_session(SAMPLES / folder, model)
    assert s.dataset is not None
    s.select_query(s.dataset.queries.index[query])
    panel = ScoreDistribution(s)
    qtbot.addWidget(panel)
    panel.resize(1264, 220)  # the window's chart strip at 1,280 × 800
    panel.show()
    qtbot.waitExposed(panel)
    panel.redraw()
    return panel


def test_inner_edges_rise_to_the_lower_bar() -> None:
    edges = np.array([0.0, 1.0, 2.0, 3.0, 4.0, 5.0])
    x, y = bin_edges(edges, np.array([0.0, 2.0, 2.0, 1.0, 0.0]))
    # 1.0 and 4.0 border an empty bin: the outline draws them
    assert x.tolist() == [2.0, 2.0, 3.0, 3.0]
    assert y.tolist() == [0.0, 2.0, 0.0, 1.0]
    assert [a.size for a in bin_edges(edges[:2], np.array([3.0]))] == [0, 0]


def test_a_tall_bar_clear_of_the_legend_reaches_near_the_top(qtbot: QtBot) -> None:
    panel = _panel(qtbot, "code-repo", "codeledger", "c9ade776950")
    assert panel.share.isChecked() and int(panel.counts_relevant.sum()) == 1
    vb = panel.plot.getPlotItem().vb
    top = vb.viewRange()[1][1]
    assert 100 < top < 115  # its one judged relevant file: a 100 % bar, not half the height
    ticks = panel.plot.getPlotItem().getAxis("left")._tickLevels
    assert max(v for v, _ in ticks[0]) == 100
    # every bar under the legend still ends below it
    legend = vb.mapSceneToView(panel.legend.sceneBoundingRect()).boundingRect()
    heights = np.maximum(panel.curve_relevant.yData, panel.curve_other.yData)
    under = panel.edges[1:] > min(legend.left(), legend.right())
    assert (heights[under] <= min(legend.top(), legend.bottom())).all()


def test_adjacent_relevant_bins_are_drawn_apart(qtbot: QtBot) -> None:
    panel = _panel(qtbot, "story", "hybrid", "c02")
    x = panel.edges_relevant.xData
    assert x is not None
    # the finding's scores (`workbench rank … --query-id c02`): a bin edge between each two
    for lo, hi in ((5.22, 5.60), (5.60, 6.07)):
        assert ((x > lo) & (x < hi)).any(), (lo, hi, x)


def test_a_case_with_its_own_min_score_draws_it_not_the_slider(qtbot: QtBot) -> None:
    # rA 1: decisions-eval's search-release-checklist sets minScore 1 (eval.jsonl); the line
    # had read "Inject min score = 30", left of two candidates the case returns at 17 and 18
    panel = _panel(qtbot, "decisions-eval", "decision-memory", "search-release-checklist")
    panel.session.set_param("inject_min_score", 30.0)
    panel.redraw()
    assert panel.line.value() == 1.0
    assert panel.line.label.format == "this case's min score = 1"
    assert not panel.line.movable
    # the slider's own line where the case takes the slider (no minScore in eval.jsonl)
    s = panel.session
    assert s.dataset is not None
    s.select_query(s.dataset.queries.index["incremental-cache-key"])
    panel.redraw()
    assert panel.line.value() == 30.0 and panel.line.movable
    assert panel.line.label.format == "Inject min score = 30"


def test_the_rear_group_is_outlined_over_the_front_one(qtbot: QtBot) -> None:
    # rA 9: vault v02's two "other" notes (50 % + 50 %) had one bar hidden behind the
    # 60 % judged relevant bar in the same bin
    panel = _panel(qtbot, "vault", "vault-search", "v02")
    assert int(panel.counts_other.sum()) == 2 and int(panel.counts_relevant.sum()) > 0
    assert panel.outline_other.yData.tolist() == panel.curve_other.yData.tolist()
    items = panel.plot.getPlotItem().items
    assert items.index(panel.outline_other) > items.index(panel.curve_relevant)
    assert panel.outline_other.opts["fillLevel"] is None  # an outline: no fill over it


def test_one_candidate_gets_a_visible_bar(qtbot: QtBot) -> None:
    # rA 9: near-miss-ranked-list's one candidate at 38 was a 4 px sliver on a 6–39 axis
    panel = _panel(qtbot, "decisions-eval", "decision-memory", "near-miss-ranked-list")
    assert int(panel.counts_relevant.sum() + panel.counts_other.sum()) == 1
    (x0, x1), _ = panel.plot.getPlotItem().vb.viewRange()
    at = int(np.flatnonzero(panel.counts_relevant + panel.counts_other)[0])
    width = float(panel.edges[at + 1] - panel.edges[at])  # the one bar's
    assert width >= (x1 - x0) / 36
    assert width * panel.plot.getPlotItem().vb.width() / (x1 - x0) >= 25  # pixels


def test_the_threshold_label_stands_clear_of_the_bars_under_it(qtbot: QtBot) -> None:
    # review dB 1: vault v01 at Min score 0.24 drew the axis to 54 over a 50 % "other" bar,
    # and the line's "Min score = 0.24" box covered that bar's top
    panel = _panel(qtbot, "vault", "vault-search", "v01")
    assert panel.param is not None
    panel.session.set_param(panel.param.name, 0.24)
    panel.redraw()
    qtbot.wait(50)
    panel.line.label.updatePosition()
    vb = panel.plot.getPlotItem().vb
    box = vb.mapSceneToView(panel.line.label.sceneBoundingRect()).boundingRect()
    heights = np.maximum(panel.curve_relevant.yData, panel.curve_other.yData)
    under = (panel.edges[1:] > box.left()) & (panel.edges[:-1] < box.right())
    assert under.any() and heights[under].max() >= 50  # the 50 % bar the line sits on
    assert heights[under].max() < min(box.top(), box.bottom())
