"""With All queries on, the threshold line marks the min score the shown queries apply, not the
first min-score slider (dF 2: decisions in mode "search" drew Inject min score = 8 while every
query takes Search min score, 1); and a case's own min score names both sliders it overrides
(dF 5: a search case's tooltip named only Inject min score)."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from pytestqt.qtbot import QtBot

from tests.conftest import SAMPLES
from workbench.gui.charts import ScoreDistribution
from workbench.gui.charts._standalone import open_session


def _chart(qtbot: QtBot, sample: str) -> ScoreDistribution:
    s = open_session(SAMPLES / sample, "decision-memory")
    chart = ScoreDistribution(s)
    qtbot.addWidget(chart)
    chart.all_queries.setChecked(True)
    return chart


def test_search_mode_draws_search_min_score_for_every_query(qtbot: QtBot) -> None:
    chart = _chart(qtbot, "decisions")
    s = chart.session
    s.set_params({**s.params, "mode": "search", "search_min_score": 1.0,
                  "inject_min_score": 8.0})
    s.recompute()
    chart.redraw()
    assert chart.line.label.format == "Search min score = 1"
    assert chart.line.movable
    chart.line.setValue(5.0)
    chart._on_drag_finished()
    assert s.params["search_min_score"] == 5.0 and s.params["inject_min_score"] == 8.0


def test_query_mode_says_how_many_cases_the_line_is_of(qtbot: QtBot) -> None:
    chart = _chart(qtbot, "decisions-eval")
    s = chart.session
    s.set_params({**s.params, "mode": "query", "search_min_score": 1.0,
                  "inject_min_score": 8.0})
    s.recompute()
    chart.redraw()
    # 30 cases: 28 inject at the slider's 8, search-release-checklist and
    # superseded-wins-manual-search set minScore 1 in their context
    assert chart.line.label.format == "Inject min score = 8 (28 of 30 cases)"
    assert chart.line.toolTip().endswith("\n2 cases: their own min score = 1")
    chart.all_queries.setChecked(False)
    ids = [q.id for q in s.dataset.queries]
    s.select_query(ids.index("search-release-checklist"))
    chart.redraw()
    assert chart.line.label.format == "this case's min score = 1"
    assert not chart.line.movable
    assert "neither Inject min score nor Search min score has an effect" in \
        chart.line.toolTip()
