"""The explain pane shows first what moved: the signals whose contribution changed, the
largest difference first; those 0 on both sides folded into one line; the total in a row of
its own, always in sight (review rv3, F11: nine ±0 rows had filled the pane at 1,280 × 800,
"relevance factor −0.288" and the total below the fold)."""

from __future__ import annotations

import pytest
from pytestqt.qtbot import QtBot

from tests.gui.conftest import SAMPLES
from workbench.core.compare import compare_metrics
from workbench.core.comparison import Configuration, compare_configurations
from workbench.core.formats import load_dataset
from workbench.core.models import get_model
from workbench.core.signal_labels import signal_labels
from workbench.gui.compare import ExplainDiff


def test_rows_changed_first_by_size_then_equal_ones_zeros_apart() -> None:
    from workbench.gui.compare.explain_diff import signal_rows

    names = ["a", "b", "c", "d", "e", "f"]
    a = [0.5, 0.0, 0.2, 0.0, 0.1, 0.3]
    b = [0.5, 0.0, -0.1, 0.0, 0.6, 0.30001]  # f: +0.00001, shown ±0
    rows, zeros = signal_rows(names, a, b)
    assert [r[1] for r in rows] == ["e", "c", "a", "f"]  # |Δ| 0.5, 0.3; then as declared
    assert [r[0] for r in rows] == [4, 2, 0, 5]  # each keeps its signal's index (its colour)
    assert zeros == ["b", "d"]


def test_memories_q14_m44_relevance_first_total_apart(qtbot: QtBot) -> None:
    """`workbench explain sample_corpora/memories -m importance --query-id q14 --doc m44`,
    at the defaults and with boost_explicit=0.8 stale_short=0.02 relevance=coverage: base
    0.8, emphasis 0.3, outcome 0.1, repetition 0.3 and clamp −0.5 on both sides; relevance
    −0.312217 → −0.6; decision, emotion, failure, correction, explicit and decay 0 on both;
    score 0.687783 → 0.4."""
    model = get_model("importance")
    ds = load_dataset(SAMPLES / "memories")
    comp = compare_configurations(model, ds, [
        Configuration("defaults", {}),
        Configuration("coverage explicit", {"boost_explicit": 0.8, "stale_short": 0.02,
                                            "relevance": "coverage"})],
        compare_metrics(model, ds), n_resamples=200)
    view = ExplainDiff()
    qtbot.addWidget(view)
    view.show_move(comp, 1, list(ds.queries.ids).index("q14"), list(ds.corpus.ids).index("m44"))

    def label(*ids: str) -> list[str]:
        return signal_labels(model, ids)

    rows = view.values()
    assert [r[0] for r in rows] == [
        *label("relevance", "base", "emphasis", "outcome", "repetition", "clamp"), "total"]
    assert rows[0][1:] == pytest.approx((-0.312217, -0.6, -0.287783), abs=1e-6)
    assert rows[-1][1:] == pytest.approx((0.687783, 0.4, -0.287783), abs=1e-6)
    assert view.table.rowCount() == 6 and view.total_table.rowCount() == 1
    assert view.zeros.text() == "0 on both sides: " + ", ".join(
        label("decision", "emotion", "failure", "correction", "explicit", "decay"))


def test_the_total_stays_in_sight_in_a_short_pane(qtbot: QtBot) -> None:
    model = get_model("importance")
    ds = load_dataset(SAMPLES / "memories")
    comp = compare_configurations(model, ds, [
        Configuration("defaults", {}), Configuration("coverage", {"relevance": "coverage"})],
        compare_metrics(model, ds), n_resamples=200)
    view = ExplainDiff()
    qtbot.addWidget(view)
    view.resize(360, 260)  # room for two or three signal rows
    view.show()
    qtbot.waitExposed(view)
    view.show_move(comp, 1, list(ds.queries.ids).index("q14"), list(ds.corpus.ids).index("m44"))
    qtbot.wait(10)
    total = view.total_table
    assert total.isVisible() and total.item(0, 0).text() == "total"
    bottom = total.mapTo(view, total.rect().bottomLeft()).y()
    assert 0 < bottom <= view.height()
    first = view.table.visualItemRect(view.table.item(0, 0))
    assert view.table.viewport().rect().contains(first)  # the change that moved it, in sight
