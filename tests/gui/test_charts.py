"""The chart panels, each alone on a sample corpus, asserted on the data they plot: bar lengths
against the Result's contributions, histogram counts against the scores, the min-score line
against the session both ways, the metric curve against core.tune.sweep, the movers list
against core.compare.movers."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from tests.conftest import SAMPLES
from workbench.core.compare import movers
from workbench.core.models import get_model
from workbench.core.pipeline import Pipeline
from workbench.core.ranking import contributions_at
from workbench.core.session import TuningSession
from workbench.core.tune import sweep
from workbench.gui.charts import ContributionChart, MetricCurve, MoversList, ScoreDistribution
from workbench.gui.charts._standalone import open_session
from workbench.gui.charts.metric_curve import MAX_POINTS, sweep_values
from workbench.gui.charts.movers import EMPTY_NO_BASELINE
from workbench.gui.metric_names import select_metric

pytestmark = [pytest.mark.qt_log_level_fail("WARNING"),
              pytest.mark.qt_log_ignore("propagateSizeHints")]


@pytest.fixture
def tea() -> TuningSession:
    return open_session(SAMPLES / "tea-beir", "bm25")


@pytest.fixture
def vault() -> TuningSession:
    return open_session(SAMPLES / "vault", "vault-search")


def _show(qtbot: QtBot, widget: object) -> None:
    qtbot.addWidget(widget)
    widget.resize(900, 520)  # type: ignore[attr-defined]
    widget.show()  # type: ignore[attr-defined]
    qtbot.waitExposed(widget)


def _signed(bar: object, horizontal: bool) -> np.ndarray:
    """A bar item's signed lengths: negative parts are drawn left of (below) zero."""
    opts = bar.opts  # type: ignore[attr-defined]
    if horizontal:
        start, length = np.asarray(opts["x0"]), np.asarray(opts["width"])
    else:
        start, length = np.asarray(opts["y0"]), np.asarray(opts["height"])
    return np.where(start < 0, -length, length)


def _assert_exports(panel: object, tmp_path: Path) -> None:
    png = panel.export(tmp_path / "chart.png")  # type: ignore[attr-defined]
    svg = panel.export(tmp_path / "chart.svg")  # type: ignore[attr-defined]
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 2000
    root = ET.parse(svg).getroot()
    assert root.tag.endswith("svg") and len(list(root.iter())) > 10


# -- contributions -------------------------------------------------------------------------


def test_contribution_bars_are_the_results_contributions(qtbot: QtBot, vault: TuningSession,
                                                         tmp_path: Path) -> None:
    chart = ContributionChart(vault)
    _show(qtbot, chart)
    r = vault.result
    assert r is not None
    for q in (vault.query, 3, 0):
        vault.select_query(q)
        n = min(vault.k, int(r.ranking.count[q]))
        want = contributions_at(r.scores, r.ranking)[:, q, :n]
        assert list(chart.bars) == list(r.scores.signals)
        drawn = np.stack([_signed(chart.bars[s], True) for s in r.scores.signals])
        np.testing.assert_allclose(drawn, want, atol=1e-12)
        # the stacked parts of each bar add up to the document's score
        np.testing.assert_allclose(drawn.sum(axis=0), r.ranking.scores[q, :n], atol=1e-9)
        assert chart.docs.tolist() == r.ranking.docs[q, :n].tolist()
    # a new result redraws the bars
    vault.set_param("w_tf", 0.9)
    vault.recompute()
    r2 = vault.result
    assert r2 is not None and r2 is not r
    np.testing.assert_allclose(_signed(chart.bars["tf"], True),
                               contributions_at(r2.scores, r2.ranking)[0, 0, :len(chart.docs)])
    _assert_exports(chart, tmp_path)


def test_a_ranking_with_nothing_to_draw_leaves_no_rows_of_the_last_one(qtbot: QtBot,
                                                                       tea: TuningSession) -> None:
    # bm25 → vault-search on tea-beir (whole phrases: nothing ranks): the chart kept bm25's ten
    # document rows and its "bm25 / total" legend
    chart = ContributionChart(tea)
    _show(qtbot, chart)
    plot = chart.top_plot.getPlotItem()
    assert len(plot.getAxis("left")._tickLevels[0]) == tea.k
    tea.set_model("vault-search")
    tea.recompute()
    assert tea.result is not None and int(tea.result.ranking.count[tea.query]) == 0
    assert chart.docs.size == 0 and "ranks no document" in chart._top_hint
    # the note alone: no empty axes (ticks −0.4…0.4, 0 at the top; review r49, rg 9)
    assert not chart.top_plot.isVisible() and chart.hint.isVisible()
    assert plot.getAxis("left")._tickLevels in (None, [[]])
    names = [label.text for _, label in chart.top_legend.items]
    # vault-search's signals, by their sliders' names (tf is "Weight: term frequency"),
    # less those 0 for every pair here (proximity when shipped, the clamp at weights
    # summing to 1)
    assert tea.result.scores.signals[0] == "tf"
    assert "BM25" not in names
    assert names == ["term frequency", "position", "density", "total"]


def test_no_result_yet_draws_no_empty_axes(qtbot: QtBot) -> None:
    """During a first prepare the chart drew empty 0–1 axes under "No result yet."."""
    s = TuningSession()
    s.open(SAMPLES / "tea-beir")
    s.set_model("bm25")  # not computed: no result yet
    chart = ContributionChart(s)
    _show(qtbot, chart)
    assert s.result is None
    assert not chart.top_plot.isVisible() and chart.hint.text() == "No result yet."
    s.recompute()
    assert chart.top_plot.isVisible() and chart.docs.size == s.k


def test_the_row_labels_of_a_short_chart_are_a_line_apart(qtbot: QtBot,
                                                         tea: TuningSession) -> None:
    """In a 720-px window the chart is about 100 px tall: its ten row labels ('#1 · d030' …)
    were drawn 10 px apart, each over the next; then only every other row was named, at
    every window size (1,920 × 1,080 included). Ten rows or fewer are each named, in a
    smaller font where the rows are closer than a line; more rows, in the axis's font, a
    line apart; a tall chart names every row in the axis's font."""
    from PySide6.QtCore import QPointF
    from PySide6.QtGui import QFontMetrics

    from workbench.gui.charts.contributions import _line

    chart = ContributionChart(tea)
    qtbot.addWidget(chart)
    chart.resize(900, 190)
    chart.show()
    qtbot.waitExposed(chart)
    plot = chart.top_plot.getPlotItem()
    axis, vb = plot.getAxis("left"), plot.vb
    qtbot.waitUntil(lambda: 0 < vb.height() < 130)
    assert vb.height() / tea.k < QFontMetrics(axis.font()).height()  # rows under a line

    def centres() -> list[float]:
        return sorted(vb.mapViewToScene(QPointF(0.0, value)).y()
                      for value, _ in axis._tickLevels[0])

    assert tea.k == 10 and len(axis._tickLevels[0]) == 10  # every bar named …
    small = axis.style["tickFont"]
    assert small.pointSizeF() < axis.font().pointSizeF()  # … in a smaller font
    assert min(np.diff(centres())) >= _line(small)
    texts = [text for _, text in axis._tickLevels[0]]
    assert texts[0].startswith("#1 · ")  # the first row is always named
    tea.set_k(20)
    qtbot.waitUntil(lambda: len(axis._tickLevels[0]) < 20)
    line = QFontMetrics(axis.font()).height()
    assert axis.style["tickFont"].pointSizeF() == axis.font().pointSizeF()
    assert min(np.diff(centres())) >= line - 1 and axis._tickLevels[0][0][1].startswith("#1")
    tea.set_k(10)
    chart.resize(900, 520)
    qtbot.waitUntil(lambda: vb.height() > 300)
    assert len(axis._tickLevels[0]) == tea.k
    assert axis.style["tickFont"].pointSizeF() == axis.font().pointSizeF()
    assert min(np.diff(centres())) >= line


def test_the_legend_of_a_short_chart_fits_it(qtbot: QtBot, vault: TuningSession) -> None:
    """In a 720-px window the chart is about 100 px tall: vault's legend, six rows (tf …
    clamp, total), was cut after the fourth. Its entries take more columns instead. (The
    documented variant's: shipped, proximity and the clamp are 0 and left out.)"""
    vault.set_params({"variant": "documented"})
    vault.recompute()
    chart = ContributionChart(vault)
    qtbot.addWidget(chart)
    chart.resize(900, 190)
    chart.show()
    qtbot.waitExposed(chart)
    vb = chart.top_plot.getPlotItem().vb
    qtbot.waitUntil(lambda: 0 < vb.height() < 130)
    legend = chart.top_legend
    assert [label.text for _, label in legend.items] == [
        "term frequency", "position", "density", "proximity", "clamp", "total"]
    shown = vb.sceneBoundingRect()
    for sample, label in legend.items:
        for item in (sample, label):
            assert shown.contains(item.sceneBoundingRect()), label.text
    assert legend.sceneBoundingRect().bottom() <= shown.bottom()


def test_a_legend_too_wide_for_the_bars_is_left_out(qtbot: QtBot) -> None:
    """codeledger's 18 signals in a short chart took 3 rows × 6 columns over bars #2–#9; a
    legend of more than two columns is left out (the ranked table keys the colours), and the
    bars keep the plot's width."""
    code = open_session(SAMPLES / "code-repo", "codeledger")
    chart = ContributionChart(code)
    qtbot.addWidget(chart)
    chart.resize(1000, 190)
    chart.show()
    qtbot.waitExposed(chart)
    vb = chart.top_plot.getPlotItem().vb
    qtbot.waitUntil(lambda: 0 < vb.height() < 130)
    assert len(chart.top_legend.items) > 12
    assert not chart.top_legend.isVisible()
    chart.resize(1000, 700)  # tall: two columns hold them, shown
    qtbot.waitUntil(lambda: vb.height() > 400)
    assert chart.top_legend.isVisible()


def test_two_documents_side_by_side(qtbot: QtBot, vault: TuningSession) -> None:
    chart = ContributionChart(vault)
    _show(qtbot, chart)
    assert chart.pair_values.size == 0 and "two documents" in chart._pair_hint
    chart.tabs.setCurrentIndex(1)
    item = chart.pair_plot.getPlotItem()  # no empty 0–1 axes and legend box
    assert not item.getAxis("left").isVisible() and not chart.pair_legend.isVisible()
    chart.tabs.setCurrentIndex(0)
    r = vault.result
    assert r is not None
    q = vault.query
    first, third = int(r.ranking.docs[q, 0]), int(r.ranking.docs[q, 2])
    chart.pick(third)  # clicking bars: the lower-ranked one first
    chart.pick(first)
    assert vault.docs == (third, first) and chart.tabs.currentIndex() == 1
    assert item.getAxis("left").isVisible()
    # the key is the title's second line, not a legend box over the last group's bars
    assert not chart.pair_legend.isVisible()
    ids = [vault.dataset.corpus[d].id for d in (first, third)]  # type: ignore[union-attr]
    assert chart.pair_key.count("■") == 3 and all(i in chart.pair_key for i in ids)
    assert chart.pair_key in item.titleLabel.text
    # expected by scanning the query's candidates for each document
    s = r.scores
    row = range(s.row(q).start, s.row(q).stop)
    parts = {d: s.contributions_of(np.array([p for p in row if s.docs[p] == d]))[:, 0]
             for d in (first, third)}
    a = np.append(parts[first], parts[first].sum())  # A is the higher-scoring one
    b = np.append(parts[third], parts[third].sum())
    np.testing.assert_allclose(chart.pair_values, np.stack([a, b, a - b]), atol=1e-12)
    # drawn: the total first (clear of the legend, top right), then the signals either holds
    shown = [len(a) - 1, *(i for i in range(len(a) - 1) if a[i] or b[i])]
    assert chart.pair_names == [[*s.signals, "total"][i] for i in shown]
    assert chart.pair_names[0] == "total" and len(shown) <= len(a)
    for key, values in (("A", a), ("B", b), ("A − B", a - b)):
        np.testing.assert_allclose(_signed(chart.pair_bars[key], False), values[shown],
                                   atol=1e-12)
    assert "A outranks B by +" in chart.pair_caption


def test_single_signal_model(qtbot: QtBot, tea: TuningSession) -> None:
    chart = ContributionChart(tea)
    _show(qtbot, chart)
    r = tea.result
    assert r is not None and list(chart.bars) == ["bm25"]
    np.testing.assert_allclose(_signed(chart.bars["bm25"], True),
                               r.ranking.scores[tea.query, : len(chart.docs)])


# -- score distribution --------------------------------------------------------------------


def _loop_counts(session: TuningSession, queries: list[int],
                 edges: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Relevant / other histograms of the ungated candidate scores, by loops over qrels."""
    r, ds = session.result, session.dataset
    assert r is not None and ds is not None and ds.qrels is not None
    rel_scores, other_scores = [], []
    for q in queries:
        judged = ds.qrels.get(ds.queries[q].id, {})
        for p in range(r.scores.row(q).start, r.scores.row(q).stop):
            if r.scores.gate[p]:
                continue
            doc_id = ds.corpus[int(r.scores.docs[p])].id
            (rel_scores if judged.get(doc_id, 0) > 0 else other_scores).append(r.scores.total[p])
    return np.histogram(rel_scores, edges)[0], np.histogram(other_scores, edges)[0]


def test_histogram_counts_equal_the_scores(qtbot: QtBot, tea: TuningSession,
                                          tmp_path: Path) -> None:
    chart = ScoreDistribution(tea)
    _show(qtbot, chart)
    r = tea.result
    assert r is not None
    q = tea.query
    assert not chart.line.isVisible()  # bm25 has no min-score parameter
    rel, other = _loop_counts(tea, [q], chart.edges)
    assert chart.counts_relevant.tolist() == rel.tolist()
    assert chart.counts_other.tolist() == other.tolist()
    assert rel.sum() > 0 and rel.sum() + other.sum() == r.scores.row(q).stop - r.scores.row(q).start
    # drawn as each group's share of itself (6 relevant against 131 others were slivers)
    assert chart.share.isChecked() and chart.share.isEnabled()
    assert chart.curve_relevant.yData.tolist() == pytest.approx((100 * rel / rel.sum()).tolist())
    assert chart.curve_other.yData.tolist() == pytest.approx((100 * other / other.sum()).tolist())
    assert chart.curve_relevant.yData.max() > 10
    assert chart.plot.getPlotItem().getAxis("left").labelText == "% of group"
    chart.share.setChecked(False)
    chart.redraw()
    assert chart.curve_relevant.yData.tolist() == rel.tolist()
    assert chart.curve_other.yData.tolist() == other.tolist()
    assert chart.plot.getPlotItem().getAxis("left").labelText == "candidates"
    chart.all_queries.setChecked(True)
    rel, other = _loop_counts(tea, list(range(len(r.ranking.count))), chart.edges)
    assert chart.counts_relevant.tolist() == rel.tolist()
    assert chart.counts_other.tolist() == other.tolist()
    assert rel.sum() + other.sum() == r.scores.n_pairs
    _assert_exports(chart, tmp_path)


def test_the_caption_counts_the_judged_relevant_the_candidates_miss(
        qtbot: QtBot, tea: TuningSession) -> None:
    """A query whose judged relevant document no term reached read "0 judged relevant"
    beside a judgment of one: the caption says how many of them are among the candidates."""
    chart = ScoreDistribution(tea)
    _show(qtbot, chart)
    ds = tea.dataset
    assert ds is not None and ds.qrels is not None
    said = []
    for q in range(len(ds.queries)):
        tea.select_query(q)
        chart.redraw()
        judged = sum(g > 0 for g in ds.qrels.get(ds.queries[q].id, {}).values())
        rel, _ = _loop_counts(tea, [q], chart.edges)
        among = int(rel.sum())
        want = (f", {among} judged relevant" if among == judged
                else f", {among} of the {judged} judged relevant among them")
        assert chart.caption.text().endswith(want), (ds.queries[q].id, chart.caption.text())
        said.append(among < judged)
    assert any(said) and not all(said)  # both kinds of query in the sample


def test_share_ticks_fit_what_shows() -> None:
    from workbench.gui.charts.distribution import share_ticks

    assert share_ticks(100) == [0, 25, 50, 75, 100]
    assert share_ticks(62) == [0, 20, 40, 60]
    assert share_ticks(7.3) == [0, 2, 4, 6]  # a flat spread's short bars: not a lone 0
    assert share_ticks(0.0) == [0.0]


def test_a_share_axis_stops_at_100(qtbot: QtBot, tea: TuningSession) -> None:
    chart = ScoreDistribution(tea)
    _show(qtbot, chart)
    assert chart.share.isChecked()
    ticks = chart.plot.getPlotItem().getAxis("left")._tickLevels
    # at most 100: the room above it is the legend's
    assert ticks and len(ticks[0]) >= 3 and max(v for v, _ in ticks[0]) <= 100
    chart.share.setChecked(False)
    chart.redraw()
    assert chart.plot.getPlotItem().getAxis("left")._tickLevels is None  # counts: its own


def test_min_score_line_follows_the_session_and_sets_it(qtbot: QtBot,
                                                        vault: TuningSession) -> None:
    chart = ScoreDistribution(vault)
    _show(qtbot, chart)
    assert chart.param is not None and chart.param.name == "min_score"
    assert chart.line.isVisible() and chart.line.value() == pytest.approx(0.0)
    vault.set_param("min_score", 0.3)  # session → line
    assert chart.line.value() == pytest.approx(0.3)
    label = vault.model.schema["min_score"].label  # type: ignore[union-attr]
    assert chart.line.label.format == f"{label} = 0.3"  # the slider's name, not its id
    # line → session: a finished drag sets the parameter at once, snapped to its step
    chart.line.setValue(0.2512)
    chart.line.sigPositionChangeFinished.emit(chart.line)
    assert vault.params["min_score"] == pytest.approx(0.25)
    # mid-drag the change is throttled: it lands when the throttle fires
    with qtbot.waitSignal(chart._throttle.timeout, timeout=2000):
        chart.line.setValue(0.4)
        assert vault.params["min_score"] == pytest.approx(0.25)
    assert vault.params["min_score"] == pytest.approx(0.4)
    # another model without the parameter hides the line
    vault.set_model("bm25")
    assert not chart.line.isVisible()


# -- metric curve --------------------------------------------------------------------------


def _reference(session: TuningSession, name: str, metric: str) -> list[tuple[object, float]]:
    assert session.model is not None and session.dataset is not None
    pipe = Pipeline(get_model(session.model.id), session.dataset, session.params)
    param = session.model.schema[name]
    return [(p.value, p.metrics[metric])
            for p in sweep(pipe, name, sweep_values(param), [metric])]


def test_metric_curve_equals_tune_sweep_and_marks_the_best(qtbot: QtBot, tea: TuningSession,
                                                            tmp_path: Path) -> None:
    curve = MetricCurve(tea, synchronous=True)
    _show(qtbot, curve)
    metric = tea.metric_names[0]
    assert curve.param_name == "k1" and curve.metric_name == metric  # the first live number
    want = _reference(tea, "k1", metric)
    assert [v for v, _ in curve.points] == [v for v, _ in want]
    np.testing.assert_allclose([m for _, m in curve.points], [m for _, m in want], atol=1e-12)
    _, ys = curve.curve.getData()
    np.testing.assert_allclose(ys, [m for _, m in want], atol=1e-12)
    best = max(want, key=lambda t: t[1])
    assert curve.best is not None and curve.best[1] == pytest.approx(best[1])
    bx, by = curve.best_dot.getData()
    assert bx[0] == pytest.approx(float(curve.best[0])) and by[0] == pytest.approx(best[1])
    assert curve.current == (tea.params["k1"], pytest.approx(tea.result.means[metric]))
    # the parameter last changed is swept next, with k1 held at its new value
    tea.set_param("k1", 0.8)
    tea.set_param("b", 0.4)
    tea.recompute()
    assert curve.param_name == "b"
    want_b = _reference(tea, "b", metric)
    np.testing.assert_allclose([m for _, m in curve.points], [m for _, m in want_b], atol=1e-12)
    assert curve.current is not None and curve.current[0] == 0.4
    cx, _ = curve.current_dot.getData()
    assert cx[0] == pytest.approx(0.4)
    assert curve.baseline_value is None and not curve.baseline_line.isVisible()
    tea.pin_baseline()  # a pinned baseline draws its metric as a level line
    assert tea.baseline is not None
    assert curve.baseline_value == pytest.approx(tea.baseline.result.means[metric])
    assert curve.baseline_line.value() == pytest.approx(curve.baseline_value)
    # a choice parameter is swept over its choices, drawn at 0, 1, 2 with their names
    tea.set_param("variant", "robertson")
    assert curve.param_name == "variant"
    want_v = _reference(tea, "variant", metric)
    assert [v for v, _ in curve.points] == ["lucene", "robertson", "atire"]
    np.testing.assert_allclose([m for _, m in curve.points], [m for _, m in want_v], atol=1e-12)
    _assert_exports(curve, tmp_path)


def test_metric_curve_draws_a_bundle_figure_against_the_budget(qtbot: QtBot) -> None:
    """codeledger's bundle recall and precision are on the curve's metric list, and a sweep
    of the token budget draws bundle recall as each budget's own evaluation gives it."""
    code = open_session(SAMPLES / "code-repo", "codeledger")
    curve = MetricCurve(code, synchronous=True)
    _show(qtbot, curve)
    names = [curve.metric_box.itemText(i) for i in range(curve.metric_box.count())]
    ids = [curve.metric_box.itemData(i) for i in range(curve.metric_box.count())]
    assert names[-2:] == ["bundle recall", "bundle precision"]  # as the metric cards name them
    assert ids[-2:] == ["bundle_recall", "bundle_precision"] and names[0] == "nDCG@10"
    assert select_metric(curve.metric_box, "bundle_recall")
    code.set_param("token_budget", 400)
    code.recompute()
    assert curve.param_name == "token_budget" and curve.metric_name == "bundle_recall"
    param = code.model.schema["token_budget"]
    assert code.dataset is not None
    want = [Pipeline(get_model("codeledger"), code.dataset, {**code.params, "token_budget": v})
            .run(("r@10",)).means["bundle_recall"] for v in sweep_values(param, current=400)]
    np.testing.assert_allclose([m for _, m in curve.points], want, atol=1e-12)
    assert len(set(want)) > 1  # the budget moves it
    assert curve.current == (400, pytest.approx(code.result.means["bundle_recall"]))
    code.set_model("bm25")  # no bundles: ranking metrics only
    assert "bundle_recall" not in [curve.metric_box.itemData(i)
                                   for i in range(curve.metric_box.count())]


def test_a_wide_count_is_swept_near_the_values_in_use() -> None:
    """A token budget (100..1,000,000, default 8,000) is swept from 100 to 4 × the default,
    doubled while the current value lies beyond; weights and counts of modest range, or
    whose default is 0 (none), keep their whole range."""
    from workbench.gui.charts.metric_curve import sweep_span

    budget = get_model("codeledger").schema["token_budget"]
    assert sweep_span(budget) == (100, 32_000) == sweep_span(budget, 20_000)
    assert sweep_span(budget, 50_000) == (100, 64_000)
    assert sweep_span(budget, 900_000) == (100, 1_000_000)  # the doubling stops at the top
    values = sweep_values(budget)
    assert values[0] == 100 and values[-1] == 32_000 and len(values) <= MAX_POINTS
    assert values[1:4] == [1000, 2000, 3000]  # round multiples of its step, as `sweep` runs
    k1 = get_model("bm25").schema["k1"]
    assert sweep_span(k1) == (k1.low, k1.high)
    # every point a value the slider can take: k1's step is 0.05 (the curve had 2.025)
    grid = sweep_values(k1)
    assert all(abs(v / 0.05 - round(v / 0.05)) < 1e-9 for v in grid), grid
    assert grid[:3] == [0.0, 0.1, 0.2] and grid[-1] == 3.0
    assert 0.95 in sweep_values(k1, current=0.95)  # the value in use is one of them
    limit = get_model("vault-search").schema["limit"]  # 0: no limit
    assert sweep_span(limit) == (limit.low, limit.high)
    assert sweep_span(get_model("bm25").schema["variant"]) is None


def test_metric_curve_sweeps_in_the_background_and_drops_stale_sweeps(
        qtbot: QtBot, tea: TuningSession) -> None:
    curve = MetricCurve(tea)
    _show(qtbot, curve)
    # while the first sweep runs: the hint, no empty 0–1 axes under it
    assert curve.busy and not curve.plot.isVisibleTo(curve)
    with qtbot.waitSignal(curve.sweep_finished, timeout=20_000):
        pass  # the first sweep (k1) started on construction
    assert curve.plot.isVisibleTo(curve)
    with qtbot.waitSignal(curve.sweep_finished, timeout=20_000):
        tea.set_param("b", 0.5)  # a sweep of b …
        tea.set_param("k1", 1.5)  # … made stale at once by k1
    assert curve.param_name == "k1" and not curve.busy
    metric = curve.metric_name
    want = _reference(tea, "k1", metric)
    np.testing.assert_allclose([m for _, m in curve.points], [m for _, m in want], atol=1e-12)
    # an answer from an older generation is dropped; a stale sweep stops before its next point
    drawn = list(curve.points)
    curve._on_done(curve._generation - 1, [(0.0, 0.0)])
    assert curve.points == drawn
    from workbench.gui.charts.metric_curve import SweepRequest, run_sweep

    assert tea.model is not None
    request = SweepRequest(1, "k1", (0.5, 1.0), metric, tea.model, tea.prepared,
                           dict(tea.params), tea.judgments, tea.depth)
    assert run_sweep(request, should_stop=lambda: True) == []
    assert len(run_sweep(request)) == 2
    curve.shutdown()


# -- movers --------------------------------------------------------------------------------


def test_movers_list_shows_compare_movers(qtbot: QtBot, tea: TuningSession,
                                          tmp_path: Path) -> None:
    panel = MoversList(tea)
    _show(qtbot, panel)
    assert panel.empty_text == EMPTY_NO_BASELINE and panel.table.rowCount() == 0
    tea.pin_baseline()
    assert panel.empty_text.startswith("Nothing moved")
    tea.set_params({"k1": 0.4, "b": 0.3})
    tea.recompute()
    assert tea.baseline is not None and tea.result is not None and tea.dataset is not None
    want = movers(tea.result, tea.baseline.result, tea.k, 50)
    assert want and panel.empty_text == "" and panel.table.rowCount() == len(want)
    # the caption counts over every query, by hand here from the two top-k lists
    now_docs, base_docs = tea.result.ranking.docs, tea.baseline.result.ranking.docs
    entered = left = 0
    for q in range(len(tea.dataset.queries)):
        a_top = {int(d) for d in now_docs[q, :tea.k] if d >= 0}
        b_top = {int(d) for d in base_docs[q, :tea.k] if d >= 0}
        entered, left = entered + len(a_top - b_top), left + len(b_top - a_top)
    assert f"{entered:,} entered, {left:,} left" in panel.caption.text()
    rows = panel.row_texts()
    assert any(r[2] for r in rows) and not panel.table.isColumnHidden(2)  # judged moves
    for m, row in zip(want, rows, strict=True):
        assert row[0] == tea.dataset.queries[m.query].id
        assert row[1].startswith(tea.dataset.corpus[m.doc].id)
        # the judged grade, from the judgments file's own (review gv 8)
        qrels = tea.dataset.qrels or {}
        grade = qrels.get(tea.dataset.queries[m.query].id, {}).get(tea.dataset.corpus[m.doc].id)
        assert row[2] == ("" if grade is None else str(grade))
        row = row[:2] + row[3:]  # the columns after it, as before
        assert ("new" in row[3]) == m.entered and ("left" in row[3]) == m.left
        # a number only where both sides rank it: from beyond a ranking's depth it is not
        # known ("new ▲100" had been that depth less its rank)
        both = m.rank is not None and m.baseline_rank is not None
        assert (str(abs(m.jump)) in row[3]) == both, (row, m)
        # "> depth" only for a row cut at the depth asked for; fewer ranked: "–"
        counts = (tea.baseline.result.ranking.count[m.query], tea.result.ranking.count[m.query])
        sides = [str(r) if r is not None else f">{tea.depth}" if n >= tea.depth else "–"
                 for r, n in zip((m.baseline_rank, m.rank), counts, strict=True)]
        assert row[2] == " → ".join(sides)
        assert row[5].startswith("BM25 ")  # the signal by its label
    # from beyond the baseline's depth (100): its distance is not known
    from dataclasses import replace

    from workbench.gui.charts.movers import move_text, rank_text

    beyond = replace(want[0], rank=1, baseline_rank=None, entered=True, left=False, jump=100)
    assert (move_text(beyond), rank_text(beyond, 100, 100)) == ("new", ">100 → 1")
    gone = replace(beyond, rank=None, baseline_rank=3, entered=False, left=True, jump=-98)
    assert (move_text(gone), rank_text(gone, 100, 100)) == ("left", "3 → >100")
    risen = replace(beyond, rank=2, baseline_rank=40, jump=38)
    assert (move_text(risen), rank_text(risen, 100, 100)) == ("new ▲38", "40 → 2")
    # double-click selects that query (and document)
    target = next(i for i, m in enumerate(want) if m.query != tea.query)
    rect = panel.table.visualItemRect(panel.table.item(target, 0))
    viewport = panel.table.viewport()
    qtbot.mouseClick(viewport, Qt.MouseButton.LeftButton, pos=rect.center())  # as a user would:
    qtbot.mouseDClick(viewport, Qt.MouseButton.LeftButton, pos=rect.center())  # press, then double
    assert tea.query == want[target].query and tea.docs == (want[target].doc,)
    _assert_exports(panel, tmp_path)
    csv_text = panel.export(tmp_path / "movers.csv").read_text(encoding="utf-8")
    assert csv_text.count("\n") == len(want) + 1
    # the picture lists every row, not the few in sight under the Export button (rg 5, 6)
    from PySide6.QtGui import QImage

    on_screen = panel.table.size()
    rows = panel.row_texts()
    assert panel.table.verticalScrollBar().maximum() > 0  # the panel scrolls: rows unseen
    png = QImage(str(panel.export(tmp_path / "all.png")))
    assert png.height() > 2 * 22 * len(rows) and png.width() == 2400
    svg = panel.export(tmp_path / "all.svg").read_text(encoding="utf-8")
    assert panel.caption.text() in svg and "dataset tea-beir · model bm25" in svg
    assert rows[-1][1] in svg and "Export" not in svg
    assert panel.table.size() == on_screen
    tea.clear_baseline()
    assert panel.empty_text == EMPTY_NO_BASELINE


# -- each panel alone ----------------------------------------------------------------------


@pytest.mark.parametrize("module", ["contributions", "distribution", "metric_curve", "movers"])
def test_each_panel_runs_standalone(qtbot: QtBot, module: str, tmp_path: Path) -> None:
    import importlib

    main = importlib.import_module(f"workbench.gui.charts.{module}").main
    out = tmp_path / f"{module}.png"
    assert main(["--screenshot", str(out), "--size", "640x360"]) == 0
    assert out.read_bytes()[:4] == b"\x89PNG"


def test_threshold_parameter_by_name() -> None:
    from types import SimpleNamespace

    from workbench.core.params import Param, ParamSchema
    from workbench.gui.charts.distribution import threshold_param

    found = {m: threshold_param(get_model(m)) for m in ("bm25", "vault-search", "dense")}
    assert found["bm25"] is None
    assert found["vault-search"] is not None and found["vault-search"].name == "min_score"
    assert found["dense"] is not None and found["dense"].name == "min_similarity"
    other = SimpleNamespace(schema=ParamSchema([
        Param("alpha", "alpha", 0.5, low=0, high=1),
        Param("inject_minScore", "Inject min score", 0.2, low=0, high=1)]))
    p = threshold_param(other)  # type: ignore[arg-type]
    assert p is not None and p.name == "inject_minScore"
    # codeledger's "Overshoot: min score" is a bundle's stopping rule, no cut of the ranking:
    # drawn as the threshold, it read as where the bundle ends (files at 0.29 were in it)
    assert threshold_param(get_model("codeledger")) is None
    assert threshold_param(get_model("decision-memory")).name == "inject_min_score"  # type: ignore[union-attr]


def test_a_hidden_panel_draws_when_shown(qtbot: QtBot, tea: TuningSession) -> None:
    chart = ContributionChart(tea)
    qtbot.addWidget(chart)
    tea.select_query(4)
    assert len(chart.docs) == 0  # hidden (another tab, say): nothing computed yet
    _show(qtbot, chart)
    r = tea.result
    assert r is not None and chart.docs.tolist() == r.ranking.docs[4, : len(chart.docs)].tolist()
    assert len(chart.docs) == min(tea.k, int(r.ranking.count[4]))


def test_a_panel_runs_as_a_module(tmp_path: Path) -> None:
    """`python -m workbench.gui.charts.contributions` itself, warnings as errors."""
    import subprocess
    import sys

    out = tmp_path / "alone.png"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run([sys.executable, "-W", "error", "-m",
                           "workbench.gui.charts.contributions", str(SAMPLES / "vault"),
                           "--screenshot", str(out)], env=env, capture_output=True, text=True,
                          timeout=60, cwd=Path(__file__).resolve().parents[2])
    assert done.returncode == 0, done.stderr
    assert out.read_bytes()[:4] == b"\x89PNG"


def test_mover_text_names_a_side_that_did_not_score_it() -> None:
    from workbench.core.compare import Mover
    from workbench.gui.charts.movers import deltas_text

    def mover(candidate: bool, baseline_candidate: bool) -> Mover:
        return Mover(query=0, doc=3, rank=2, baseline_rank=None, entered=True, left=False,
                     jump=99, total=1.5, baseline_total=0.0, signals=("bm25",),
                     baseline_signals=("bm25",), contributions=np.array([1.5]),
                     baseline_contributions=np.array([0.0]), candidate=candidate,
                     baseline_candidate=baseline_candidate)

    assert deltas_text(mover(True, True)) == "bm25 +1.500"
    assert deltas_text(mover(True, False)) == "not a candidate (baseline); bm25 +1.500"


def test_the_best_label_stays_inside_the_plot(qtbot: QtBot) -> None:
    """decisions-eval's inject_min_score is best at 0, the left end of a 0–1000 sweep: the
    label "best … at inject_min_score = 0" lies inside the plot (centred on the star, half of
    it was cut off), and the baseline's label moves to the other end, off the star."""
    s = TuningSession()
    s.open(SAMPLES / "decisions-eval")
    s.set_model("decision-memory")
    s.recompute()
    s.pin_baseline()
    curve = MetricCurve(s, synchronous=True)
    _show(qtbot, curve)
    s.set_param("inject_min_score", 12)
    s.recompute()
    assert curve.param_name == "inject_min_score"
    assert curve.best is not None and curve.best[0] == 0
    vb = curve.plot.getPlotItem().getViewBox()
    qtbot.wait(20)
    box = vb.sceneBoundingRect()
    text = curve.best_text.sceneBoundingRect()
    assert box.left() <= text.left() and text.right() <= box.right(), (box, text)
    assert curve.baseline_line.label.orthoPos > 0.5
    # named as the slider and the axis name it, not by its id
    label = s.model.schema["inject_min_score"].label  # type: ignore[union-attr]
    assert curve.best_text.textItem.toPlainText().startswith("best ")
    assert f"at {label} = 0" in curve.best_text.textItem.toPlainText()
    assert "inject_min_score" not in curve.best_text.textItem.toPlainText()


def test_without_judgments_the_curve_says_so_over_no_axes(qtbot: QtBot) -> None:
    """It drew empty 0–1 axes under the hint; now the hint alone, saying how to add some
    (bm25 has no min score or limit, so no selection figure to draw either)."""
    s = TuningSession()
    s.open(SAMPLES / "decisions")  # not judged
    s.set_model("bm25")
    s.recompute()
    curve = MetricCurve(s, synchronous=True)
    _show(qtbot, curve)
    assert not curve.plot.isVisible() and curve.hint.isVisible()
    assert "File ▸ Open judgments" in curve.hint.text()
    assert curve.metric_box.count() == 0 and not curve.metric_box.isVisible()
    judged = open_session(SAMPLES / "tea-beir", "bm25")
    again = MetricCurve(judged, synchronous=True)
    _show(qtbot, again)
    assert again.plot.isVisible() and again.points


def test_without_judgments_the_curve_draws_what_the_selection_returns(
        qtbot: QtBot, tmp_path: Path) -> None:
    """A memory folder with no judgments: the min score and limit still decide how much is
    injected, so the curve draws results per query, the share returning nothing and the
    tokens against them, with no best. Counted by hand: three notes, "apple" in two (16 and
    17 characters), a query "apple" and a query "zzz" that matches none."""
    notes = tmp_path / "v" / "notes"
    notes.mkdir(parents=True)
    (notes / "a.md").write_text("apple banana pie\n", encoding="utf-8")
    (notes / "b.md").write_text("apple   cherry\ntart\n", encoding="utf-8")
    (notes / "c.md").write_text("durian\n", encoding="utf-8")
    (tmp_path / "v" / "queries.jsonl").write_text(
        '{"_id": "q1", "text": "apple"}\n{"_id": "q2", "text": "zzz"}\n', encoding="utf-8")
    s = TuningSession()
    s.open(tmp_path / "v")
    s.set_model("vault-search")
    s.recompute()
    assert s.judgments is None
    curve = MetricCurve(s, synchronous=True)
    _show(qtbot, curve)
    ids = [curve.metric_box.itemData(i) for i in range(curve.metric_box.count())]
    assert ids == ["results", "empty", "injected_tokens"]
    assert curve.param_name in ("min_score", "limit")  # a selection parameter, not a weight
    s.set_param("limit", 1)
    s.recompute()
    assert curve.param_name == "limit" and curve.plot.isVisible()
    # limit 0 is no limit: both notes for "apple", none for "zzz"
    assert dict(curve.points) == {0: 1.0, 1: 0.5, 2: 1.0}
    assert curve.best is None and curve.best_text.textItem.toPlainText() == ""
    assert curve.current == (1, 0.5)
    assert "no best" in curve.caption.text()
    select_metric(curve.metric_box, "empty")
    assert dict(curve.points) == {0: 50.0, 1: 50.0, 2: 50.0}
    select_metric(curve.metric_box, "injected_tokens")
    # ⌊(16 + 17) / 4 + ½⌋ = 8 tokens for "apple", 0 for "zzz"; one note (either: 4) at 1
    assert dict(curve.points) == {0: 4.0, 1: 2.0, 2: 4.0}
    assert curve.current == (1, 2.0)
    # a short axis title ("tokens injected per query" was cut on a short plot)
    assert curve.plot.getPlotItem().getAxis("left").labelText == "tokens / query"


def test_the_best_on_training_is_a_step_line(qtbot: QtBot) -> None:
    """The best so far holds until a trial beats it: no ramp through values no trial had."""
    from workbench.gui.charts.tune import TrialCurve

    curve = TrialCurve()
    qtbot.addWidget(curve)
    curve.reset("all", maximize=True)
    for number, value in enumerate([0.50, 0.40, 0.70, 0.60]):
        curve.add(number, value, float("nan"))
    x, y = curve.train_line.getData()
    assert list(x) == [0, 1, 1, 2, 2, 3, 3]
    assert list(y) == [0.50, 0.50, 0.50, 0.50, 0.70, 0.70, 0.70]


def test_the_distribution_without_judgments_says_candidates_only(qtbot: QtBot) -> None:
    """decisions is not judged: no "judged relevant" entry in the legend or the caption, and
    counts read "1 candidate", not "1 candidates"."""
    s = TuningSession()
    s.open(SAMPLES / "decisions")
    s.set_model("decision-memory")
    s.recompute()
    chart = ScoreDistribution(s)
    _show(qtbot, chart)
    chart.redraw()
    labels = [label.text for _, label in chart.legend.items]
    assert labels == ["candidates"]
    # one group, counts: no "% of each group" box (it had stayed ticked, greyed, F12)
    assert not chart.share.isVisibleTo(chart)
    assert chart.plot.getPlotItem().getAxis("left").labelText == "candidates"
    assert "judged relevant" not in chart.caption.text()
    n = len(chart.shown_pairs())
    assert chart.caption.text().endswith(f"{n} candidate" + ("" if n == 1 else "s"))


def test_the_export_dialog_writes_the_format_typed_or_refuses_one_it_cannot(
        qtbot: QtBot, tea: TuningSession, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from PySide6.QtWidgets import QFileDialog, QMessageBox

    chart = ContributionChart(tea)
    _show(qtbot, chart)
    typed: list[str] = []
    warned: list[str] = []
    options: list[object] = []
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        staticmethod(lambda *a, **kw: (options.append(a[-1]), (typed[-1], ""))[1]))
    monkeypatch.setattr(QMessageBox, "warning",
                        staticmethod(lambda _parent, _title, text: warned.append(text)))
    for name in ("a", "b.svg", "c.PNG", "d.jpg", "e.v2"):
        typed.append(str(tmp_path / name))
        chart._export_dialog(".png")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.png", "b.svg", "c.PNG",
                                                          "e.v2.png"]
    assert (tmp_path / "b.svg").read_text(encoding="utf-8").lstrip().startswith("<")
    assert (tmp_path / "c.PNG").read_bytes().startswith(b"\x89PNG")
    assert len(warned) == 1 and warned[0].startswith("d.jpg: this panel exports PNG, SVG, not JPG")
    assert "nothing was written" in warned[0]
    # the dialog asks about nothing: it would ask about "a" where "a.png" is written
    assert options and all(o == QFileDialog.Option.DontConfirmOverwrite for o in options)
    # "a" again: a.png exists, asked once, here; so is "c.PNG" typed whole
    (tmp_path / "a.png").write_bytes(b"yesterday's")
    answers = [QMessageBox.StandardButton.No, QMessageBox.StandardButton.Yes]
    asked: list[str] = []
    monkeypatch.setattr(QMessageBox, "question", staticmethod(
        lambda _p, _t, text, *a: (asked.append(text), answers.pop(0))[1]))
    typed.append(str(tmp_path / "a"))
    chart._export_dialog(".png")
    assert asked == ["a.png already exists. Replace it?"]
    assert (tmp_path / "a.png").read_bytes() == b"yesterday's"
    chart._export_dialog(".png")
    assert (tmp_path / "a.png").read_bytes().startswith(b"\x89PNG")
    (tmp_path / "c.PNG").write_bytes(b"yesterday's")
    answers.append(QMessageBox.StandardButton.No)
    typed.append(str(tmp_path / "c.PNG"))
    chart._export_dialog(".png")
    assert asked[-1] == "c.PNG already exists. Replace it?"
    assert (tmp_path / "c.PNG").read_bytes() == b"yesterday's"


def test_on_macos_the_save_panel_asks_about_the_name_typed_itself(
        qtbot: QtBot, tea: TuningSession, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """macOS's own save panel asks before replacing whatever it is told: asked again here, a
    person answered twice."""
    import sys

    from PySide6.QtWidgets import QFileDialog, QMessageBox

    chart = ContributionChart(tea)
    _show(qtbot, chart)
    monkeypatch.setattr(sys, "platform", "darwin")
    typed: list[str] = []
    asked: list[str] = []
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        staticmethod(lambda *a, **kw: (typed[-1], "")))
    monkeypatch.setattr(QMessageBox, "question", staticmethod(
        lambda _p, _t, text, *a: (asked.append(text), QMessageBox.StandardButton.Yes)[1]))
    for name in ("x.png", "a.png"):
        (tmp_path / name).write_bytes(b"old")
    typed.append(str(tmp_path / "x.png"))  # the panel asked about x.png: not again
    chart._export_dialog(".png")
    typed.append(str(tmp_path / "a"))  # it asked about "a"; a.png is written: asked here
    chart._export_dialog(".png")
    assert asked == ["a.png already exists. Replace it?"]
    assert (tmp_path / "x.png").read_bytes().startswith(b"\x89PNG")


def test_the_trial_key_fits_and_keys_only_the_lines_drawn(qtbot: QtBot) -> None:
    """At 1,280 px the key read '… its held-out value (none: this study tunes o', cut off;
    the study of every query draws no held-out line, so it keys none."""
    from workbench.gui.charts.tune import TrialCurve

    curve = TrialCurve()
    qtbot.addWidget(curve)
    curve.resize(520, 300)
    curve.show()
    curve.reset("fold 1 of 5")
    assert "(held out: when it ends)" in curve.caption.text()
    curve.reset("all")
    assert "its held-out value" not in curve.caption.text()
    assert "(no held-out value)" in curve.caption.text()
    # with the kept mark, it fits the chart's width at 1,280 px (a wrapped label grew the
    # panel past its scroll area's height instead)
    curve.mark_kept(3, 0.5)
    assert curve.caption.sizeHint().width() <= 480


def test_no_held_out_value_is_drawn_while_the_study_runs(qtbot: QtBot) -> None:
    """The command line prints no held-out value while a study runs (one to watch is one to
    stop or rerun on); the window had drawn the best trial's, trial by trial. Once the study
    ends, the kept trial's is marked."""
    from workbench.gui.charts.tune import TrialCurve

    curve = TrialCurve()
    qtbot.addWidget(curve)
    curve.resize(520, 300)
    curve.show()
    curve.reset("fold 1 of 2")
    for number, (train, held) in enumerate([(0.50, 0.41), (0.55, 0.47), (0.52, 0.45)]):
        curve.add(number, train, held)
        assert len(curve.held_line.getData()[0] or []) == 0  # nothing held out drawn yet
    curve.mark_kept(2, 0.52)  # the surest gain, not the best on training
    x, y = curve.held_line.getData()
    assert list(x) == [2.0] and list(y) == [0.45]
    assert "its held-out value" in curve.caption.text()
    assert not curve.start_held.isVisible()
    # the study's own figures: the kept values' held-out mean and the start's beside it (a
    # cross above the training curve had read as good where the start did better held out)
    curve.mark_kept(2, 0.52, (0.45, 0.48))
    assert list(curve.held_line.getData()[1]) == [0.45]
    assert curve.start_held.isVisible() and curve.start_held.value() == 0.48
    assert "the start's" in curve.caption.text()
    curve.mark_kept(None, 0.5)  # the start kept: no trial's value to show
    assert len(curve.held_line.getData()[0] or []) == 0 and not curve.start_held.isVisible()


def test_the_trial_axis_ticks_whole_trials(qtbot: QtBot) -> None:
    # four trials had ticks at 0.5, 1.5 …
    from workbench.gui.charts.tune import TrialCurve

    curve = TrialCurve()
    qtbot.addWidget(curve)
    curve.resize(500, 300)
    curve.show()
    curve.reset("all", maximize=True)
    for number, value in enumerate([0.50, 0.40, 0.70, 0.60]):
        curve.add(number, value, float("nan"))
    axis = curve.plot.getPlotItem().getAxis("bottom")
    levels = axis.tickValues(0.0, 3.0, 400)
    assert levels and all(float(v).is_integer() for _, ticks in levels for v in ticks)
    for number in range(4, 40):  # many: spaced so that they read
        curve.add(number, 0.5, float("nan"))
    assert axis.tickValues(0.0, 39.0, 400)[0][0] >= 5


def test_the_best_label_stays_inside_a_short_chart(qtbot: QtBot, tea: TuningSession) -> None:
    """At 1,280 × 720 the chart is about 130 px tall: 'best 0.378 at k1 = 2' was cut in half
    by the top edge (its room was a share of the data, not of the pixels)."""
    curve = MetricCurve(tea, synchronous=True)
    qtbot.addWidget(curve)
    curve.resize(900, 150)
    curve.show()
    qtbot.waitExposed(curve)
    curve.redraw()
    vb = curve.plot.getPlotItem().vb
    assert curve.best is not None and curve.best_text.toPlainText().startswith("best ")
    label = curve.best_text.mapRectToView(curve.best_text.boundingRect())
    bottom, top = vb.viewRange()[1]
    assert max(label.top(), label.bottom()) <= top + 1e-9, (label, top)
    # the lowest point's dot (11 px, the current one's) clear of the bottom axis
    low = min(m for _, m in curve.points)
    assert (low - bottom) / (top - bottom) * vb.height() >= 8


def test_a_document_no_longer_ranked_reads_as_not_ranked(qtbot: QtBot,
                                                         vault: TuningSession) -> None:
    """Under a min score a query ranks fewer documents: one it dropped is not ranked, not
    '>11' (the longest row of another query, taken for the depth)."""
    panel = MoversList(vault)
    _show(qtbot, panel)
    vault.pin_baseline()
    vault.set_params({"min_score": 0.3})
    vault.recompute()
    rows = panel.row_texts()
    assert rows and all(">" not in r[3] for r in rows)  # no row was cut at the depth
    assert any(r[3].endswith(" → –") and r[4] == "left" for r in rows)
    # the document whole, elided in its middle at the column's width: a long path id keeps
    # its file name (cut at its end, every row read "knowledge-base/departments/…")
    from PySide6.QtWidgets import QStyleOptionViewItem

    assert any(r[1].startswith("journal/") and " · " in r[1] for r in rows)
    opt = QStyleOptionViewItem()
    panel.table.itemDelegateForColumn(1).initStyleOption(opt, panel.table.model().index(0, 1))
    assert opt.textElideMode == Qt.TextElideMode.ElideMiddle


def test_a_limit_whose_zero_means_all_is_drawn_past_the_largest(qtbot: QtBot) -> None:
    """vault-search's limit (0 = all) had its 0 drawn at the left beside 1 ("best … at Limit
    = 0" over a dip at 1) and was swept to 100,000 on a vault of 45 notes; now limits past
    the notes there are are not swept, and "all" sits right of the largest, said so."""
    vault = open_session(SAMPLES / "vault", "vault-search")
    curve = MetricCurve(vault, synchronous=True)
    _show(qtbot, curve)
    vault.set_param("limit", 5)
    vault.recompute()
    assert curve.param_name == "limit" and vault.dataset is not None
    n = len(vault.dataset.corpus)
    swept = [v for v, _ in curve.points]
    assert 0 in swept and 5 in swept and all(v == 0 or v < n for v in swept)
    metric = curve.metric_name
    want = [Pipeline(get_model("vault-search"), vault.dataset, {**vault.params, "limit": v})
            .run((metric,)).means[metric] for v in swept]
    np.testing.assert_allclose([m for _, m in curve.points], want, atol=1e-12)
    # of equal bests, the smallest limit that reaches it ("best … at 0 (all)" over a plateau)
    top = max(want)
    reach = [v for v, m in zip(swept, want, strict=True) if m >= top - 1e-12]
    assert curve.best is not None
    assert curve.best[0] == min((v for v in reach if v != 0), default=0)
    xs, _ = curve.curve.getData()
    largest = max(v for v in swept if v != 0)
    assert xs[-1] > largest and list(xs[:-1]) == sorted(float(v) for v in swept if v != 0)
    ticks = curve.plot.getPlotItem().getAxis("bottom")._tickLevels  # the labels given
    assert ticks is not None and ticks[0][-1] == (xs[-1], "all")
    vault.set_param("limit", 0)
    vault.recompute()
    assert curve.current_line.label.format.endswith("at 0 (all)")
    assert curve.current_line.value() == pytest.approx(xs[-1])


def test_movers_name_a_memory_by_more_than_its_type(qtbot: QtBot, tmp_path: Path) -> None:
    """OpenVault's memories are titled by event type: Movers read "ev016 · action" on most
    rows, telling them apart by nothing; now as the ranked table: the type and its line."""
    import json

    folder = tmp_path / "events"
    (folder / "qrels").mkdir(parents=True)
    kinds = ["action", "action", "action", "emotion"]
    texts = [f"memory {i} about {'tea' if i % 2 else 'coffee'} {'brewing ' * (i % 5)}"
             for i in range(24)]
    (folder / "corpus.jsonl").write_text("".join(
        json.dumps({"_id": f"ev{i:03d}", "title": kinds[i % 4], "text": t}) + "\n"
        for i, t in enumerate(texts)))
    (folder / "queries.jsonl").write_text('{"_id": "q1", "text": "tea brewing"}\n'
                                          '{"_id": "q2", "text": "coffee brewing"}\n')
    (folder / "qrels" / "test.tsv").write_text("q1\tev001\t1\nq2\tev002\t1\n")
    s = open_session(folder, "bm25")
    panel = MoversList(s)
    _show(qtbot, panel)
    s.pin_baseline()
    s.set_params({"k1": 0.2, "b": 0.0})
    s.recompute()
    rows = panel.row_texts()
    assert rows
    for r in rows:
        doc_id = r[1].split(" · ")[0]
        text = texts[int(doc_id[2:])]
        assert r[1] == f"{doc_id} · {kinds[int(doc_id[2:]) % 4]}: {text.strip()}"


def test_a_products_bars_say_how_to_read_them(qtbot: QtBot) -> None:
    """importance scores importance × relevance, drawn as terms: relevance's bar is only ever
    ≤ 0, read as a chart of contributions it 'only hurts'. The chart now says how to read it;
    an additive model's says nothing."""
    mem = open_session(SAMPLES / "memories", "importance")
    chart = ContributionChart(mem)
    _show(qtbot, chart)
    assert chart.note.toolTip().startswith("score = importance × relevance")
    bm = ContributionChart(open_session(SAMPLES / "tea-beir", "bm25"))
    _show(qtbot, bm)
    assert bm.note.toolTip() == ""


def test_a_query_without_candidates_draws_no_histogram_axes(qtbot: QtBot,
                                                            vault: TuningSession) -> None:
    # vault's v12 ("espresso channeling") has no candidate: the tab drew axes 0.1…0.9 and
    # the "Min score = 0" line over nothing (review r49, rg 9)
    chart = ScoreDistribution(vault)
    _show(qtbot, chart)
    assert chart.plot.isVisible()
    assert vault.dataset is not None
    vault.select_query(vault.dataset.queries.index["v12"])
    chart.redraw()
    assert not chart.plot.isVisible() and chart.hint.isVisible()
    assert chart.hint.text().startswith("Nothing to draw: query v12 has no candidate")
    vault.select_query(0)
    chart.redraw()
    assert chart.plot.isVisible() and chart.counts_other.sum() > 0


def test_an_exported_chart_says_what_it_shows_at_16_by_9(qtbot: QtBot, tea: TuningSession,
                                                         tmp_path: Path) -> None:
    # rg 5 (review r49): the PNG was the plot alone, 3808 × 350, without its title, the
    # data, the model or the k1 held under a curve of b
    from PySide6.QtGui import QImage

    curve = MetricCurve(tea, synchronous=True)
    qtbot.addWidget(curve)
    curve.resize(1900, 260)  # a wide, short strip, as in the window
    curve.show()
    qtbot.waitExposed(curve)
    tea.set_param("k1", 0.6)
    tea.set_param("b", 0.3)  # swept; k1 held
    tea.recompute()
    curve.redraw()
    assert curve.param_name == "b"
    item = curve.plot.getPlotItem()
    on_screen = item.geometry()
    png = QImage(str(curve.export(tmp_path / "curve.png")))
    assert (png.width(), png.height()) == (1600, 900)
    svg = (curve.export(tmp_path / "curve.svg")).read_text(encoding="utf-8")
    # tea-beir's qrels judge all 25 queries (rn 2: the mean said; rn 10: no "vs" twice)
    assert "nDCG@10 across b — mean of the 25 judged queries" in svg
    assert "dataset tea-beir · model bm25 · held k1 = 0.6" in svg
    assert item.geometry() == on_screen  # the panel on screen as it was
    chart = ContributionChart(tea)
    _show(qtbot, chart)
    svg = chart.export(tmp_path / "bars.svg").read_text(encoding="utf-8")
    assert "Contributions — query q01, top 10" in svg
    assert ("dataset tea-beir · model bm25 · values k1 = 0.6, b = 0.3 · query q01: How does "
            "withering") in svg


def test_a_vs_b_before_two_documents_keeps_the_tabs(qtbot: QtBot, vault: TuningSession) -> None:
    """Clicking "A vs B" with no pair picked shows its "Pick two documents" hint over the tabs,
    and "Top k" is there to go back to: QTabWidget hides the page not shown, and that had been
    read as "Top k has nothing", hiding the tabs and the hint with them (dr6 1)."""
    chart = ContributionChart(vault)
    _show(qtbot, chart)
    assert len(vault.docs) < 2 and len(chart.docs) > 0
    chart.tabs.tabBar().setCurrentIndex(1)  # as a click on the tab does
    qtbot.wait(50)
    assert chart.tabs.isVisible() and chart.tabs.tabBar().isVisible()
    assert chart.hint.isVisible() and chart.hint.text().startswith("Pick two documents")
    assert not chart.export_button.isEnabled()
    assert "Pick two documents" in chart.export_button.toolTip()
    drawn = chart.values.copy()
    vault.set_param("w_tf", 0.9)  # a redraw while "A vs B" is shown: its page stays on top
    vault.recompute()
    qtbot.waitUntil(lambda: not np.array_equal(chart.values, drawn))
    assert chart.tabs.isVisible() and not chart.top_plot.isVisible()
    chart.tabs.tabBar().setCurrentIndex(0)  # back to the bars
    qtbot.wait(50)
    assert chart.tabs.isVisible() and chart.top_plot.isVisible() and not chart.hint.isVisible()
    assert chart.export_button.isEnabled()
    chart.tabs.tabBar().setCurrentIndex(1)  # and again
    qtbot.wait(50)
    assert chart.tabs.isVisible() and chart.hint.text().startswith("Pick two documents")


def test_the_best_label_is_drawn_over_the_now_line(qtbot: QtBot, tea: TuningSession) -> None:
    """dr6 6: the dashed now-line ran through "+0.007 over now, p = 0.812 …": the label is
    above the line, on an opaque background."""
    curve = MetricCurve(tea, synchronous=True)
    _show(qtbot, curve)
    curve.redraw()
    assert curve.best is not None
    assert curve.best_text.zValue() > curve.current_line.zValue()
    assert curve.best_text.fill.color().alpha() == 255
