"""One name per signal (reviewer A, F8): codeledger's legend, the preview's breakdown, the
Contributions chart and the parameters that speak of a signal use its weight slider's name
("named in the task"), never its id (`mention`) beside it."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import re

from pytestqt.qtbot import QtBot

from tests.conftest import SAMPLES
from workbench.core.models import get_model
from workbench.gui.charts import ContributionChart
from workbench.gui.charts._standalone import open_session
from workbench.gui.preview import DocumentPreview
from workbench.gui.ranked_table import RankedTable

# the weight sliders of codeledger, as the window labels them (under "Weight")
SLIDERS = ["keyword match", "content relevance", "named in the task", "next to a match",
           "changed together", "similar past commits", "centrality", "churn", "recent touch",
           "test relevance", "success prior", "error infrastructure", "branch changed",
           "size penalty", "fail prior", "not source code"]
IDS = ("mention", "graph", "cochange", "recency", "test_relevance", "non_code")


def _show(qtbot: QtBot, w: object) -> None:
    qtbot.addWidget(w)  # type: ignore[arg-type]
    w.resize(1200, 500)  # type: ignore[attr-defined]
    w.show()  # type: ignore[attr-defined]
    qtbot.waitExposed(w)  # type: ignore[arg-type]


def test_sliders_are_the_names_this_test_expects() -> None:
    schema = get_model("codeledger").schema
    weights = [p.label.removeprefix("Weight: ") for p in schema if p.name.startswith("w_")]
    assert weights == SLIDERS


def test_legend_breakdown_and_chart_name_signals_as_the_sliders(qtbot: QtBot) -> None:
    s = open_session(SAMPLES / "code-repo", "codeledger")
    table = RankedTable(s)
    _show(qtbot, table)
    # the legend's tooltip names every signal: those drawing on the data with their colour,
    # those 0 at every pair on their own ("not drawing on this data: named in the task …")
    legend = re.sub(r"<[^>]+>", "", table.legend.toolTip()).replace("&nbsp;", " ")
    drawing, _, rest = legend.partition("not drawing on this data:")
    idle = [n.strip() for n in rest.split(",")]
    assert all(f"■ {name}" in drawing or name in idle for name in SLIDERS), legend
    assert not any(f"■ {i} " in legend + " " for i in IDS), legend
    assert not any(i in idle for i in IDS), legend
    chart = ContributionChart(s)
    _show(qtbot, chart)
    assert [label.text for _, label in chart.top_legend.items] == [*SLIDERS, "total"]
    preview = DocumentPreview(s)
    _show(qtbot, preview)
    assert s.result is not None
    s.select_docs([int(s.result.ranking.docs[s.query, 0])])
    text = preview.browser.toPlainText()
    assert "■ named in the task 0" in text and "■ next to a match " in text
    assert "■ mention " not in text and "■ cochange " not in text


def test_parameters_name_signals_as_the_sliders() -> None:
    labels = {p.name: p.label for p in get_model("codeledger").schema}
    # they had said "×test_relevance on test_update", "Graph: hops", "Recency: band 1 days"
    assert labels["mult_test_update_test_relevance"] == "×test relevance on test_update"
    assert labels["graph_hops"] == "Next to a match: hops"
    assert labels["recency_days_1"] == "Recent touch: band 1 days"
