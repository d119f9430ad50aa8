"""The Top k chart marks the files codeledger's bundle skipped for the budget (hatched over,
"· skipped" in the label), as the ranked table greys them and explain says "[skipped: over
the budget]"; its x axis keeps room on the left by the negative bars' own size, refitted for
each query (rv2 10: #10 test/hooks.ts unmarked; the axis ran from −0.75 around a −0.07)."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np
from pytestqt.qtbot import QtBot

from tests.conftest import SAMPLES
from workbench.core.formats import load_dataset
from workbench.core.models import get_model
from workbench.core.models.codeledger import full_bundles
from workbench.core.pipeline import Pipeline
from workbench.gui.charts import ContributionChart
from workbench.gui.charts._standalone import open_session

CODE = SAMPLES / "code-repo"
TASK = "c45484912fc"


def test_skipped_files_are_marked_and_the_axis_fits_the_negative_bars(qtbot: QtBot) -> None:
    s = open_session(CODE)
    s.set_params({**s.params, "token_budget": 400})
    s.recompute()
    assert s.dataset is not None
    q = list(s.dataset.queries.ids).index(TASK)
    s.select_query(q)
    chart = ContributionChart(s)
    qtbot.addWidget(chart)
    chart.resize(1200, 300)
    chart.show()
    qtbot.waitExposed(chart)
    # the bundle's skips from the core, apart from the window
    pipe = Pipeline(get_model("codeledger"), load_dataset(CODE), {**s.params})
    _, bund = full_bundles(pipe.prepared, pipe.params)
    skipped = sorted(r for r in bund.skipped_ranks(q) if r < len(chart.docs))
    assert skipped == [4, 6, 8]  # #5, #7 and #9, as explain lists them
    assert list(chart.skipped_rows) == skipped
    labels = [text for _, text in chart._top_labels or []]
    assert [j for j, text in enumerate(labels) if text.endswith(" · skipped")] == skipped
    hatch = chart._top_hatch
    assert hatch is not None
    assert hatch.opts["y"].tolist() == skipped and (np.asarray(hatch.opts["width"]) > 0).all()
    # the negative side: room by the negative bars' size, not a third of the whole span
    lo = (chart._top_range or (0.0, 0.0, 0))[0]
    left, right = chart.top_plot.getPlotItem().vb.viewRange()[0]
    assert lo < 0 and left <= lo
    assert lo - left < 0.05 * (right - left), (lo, left, right)


def test_another_query_refits_the_axis(qtbot: QtBot) -> None:
    """A slider tick keeps the range while the bars fit it; another query's bars get their
    own (task 10 after task 12: its bars had filled 54% of the axis, the rest kept from 12)."""
    s = open_session(CODE)
    chart = ContributionChart(s)
    qtbot.addWidget(chart)
    chart.resize(1200, 300)
    chart.show()
    qtbot.waitExposed(chart)
    s.select_query(11)
    s.select_query(9)
    lo, hi, _ = chart._top_range or (0.0, 0.0, 0)
    left, right = chart.top_plot.getPlotItem().vb.viewRange()[0]
    assert (hi - lo) / (right - left) > 0.7


def test_a_query_fitted_anew_leaves_no_headroom_on_the_right(qtbot: QtBot) -> None:
    """dr2 4: the axis ran to 2.63 around bars ending at 2.02 (30% more for a query fitted
    anew); right of the bars is the legend's room and a small margin only."""
    from workbench.gui.charts._base import legend_room

    s = open_session(CODE)
    chart = ContributionChart(s)
    qtbot.addWidget(chart)
    chart.resize(1200, 300)
    chart.show()
    qtbot.waitExposed(chart)
    for q in (11, 9, 0):
        s.select_query(q)
        _, hi, _ = chart._top_range or (0.0, 0.0, 0)
        left, right = chart.top_plot.getPlotItem().vb.viewRange()[0]
        width = right - left
        room = legend_room(chart.top_plot, chart.top_legend) * width
        assert hi < right and right - hi - room <= 0.05 * width, (q, hi, right, room)
