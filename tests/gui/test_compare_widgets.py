"""The compare view's widgets on real comparisons (vault-search on the vault sample, some
queries' judgments removed so that they are unjudged; bm25 on tea-beir with three
configurations), each checked against numbers computed here from the results themselves: the
rank lines against the rankings, the delta bars against the per-query metrics, the metric table
against the comparison's rows, the explain diff against `doc_contributions` of each side."""

from __future__ import annotations

import dataclasses
import math
from decimal import Decimal

import numpy as np
import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QColor
from pytestqt.qtbot import QtBot

from tests.gui.conftest import SAMPLES
from workbench.core.compare import doc_contributions
from workbench.core.comparison import Comparison, Configuration, compare_configurations
from workbench.core.formats import load_dataset
from workbench.core.metrics import metric_label
from workbench.core.models import get_model
from workbench.gui.compare import ExplainDiff, MetricTable, QueryDeltaChart, RankLines
from workbench.gui.compare.explain_diff import HINT
from workbench.gui.palette import BETTER, WORSE
from workbench.report.text import p_text

UNJUDGED = ("v03", "v10", "v16")  # their judgments removed: NaN in every per-query metric


@pytest.fixture(scope="module")
def vault() -> Comparison:
    model = get_model("vault-search")
    ds = load_dataset(SAMPLES / "vault")
    assert ds.qrels
    ds = dataclasses.replace(ds, qrels={q: j for q, j in ds.qrels.items() if q not in UNJUDGED})
    configs = [Configuration("defaults", model.schema.resolve({})),
               Configuration("position first", model.schema.resolve(
                   {"w_tf": 0.1, "w_position": 0.6, "w_density": 0.2}))]
    return compare_configurations(model, ds, configs, n_resamples=2000)


@pytest.fixture(scope="module")
def tea() -> Comparison:
    model = get_model("bm25")
    settings = {"defaults": {}, "short docs": {"k1": 0.9, "b": 0.9}, "flat": {"k1": 2.5, "b": 0.1}}
    configs = [Configuration(n, model.schema.resolve(v)) for n, v in settings.items()]
    return compare_configurations(model, load_dataset(SAMPLES / "tea-beir"), configs,
                                  n_resamples=2000)


@pytest.fixture(params=["vault", "tea"])
def comp(request: pytest.FixtureRequest) -> Comparison:
    c: Comparison = request.getfixturevalue(request.param)
    return c


def top(comp: Comparison, i: int, q: int, k: int) -> list[int]:
    r = comp.results[i].ranking
    return [int(d) for d in r.docs[q, :min(k, int(r.count[q]))]]


def expected_lines(comp: Comparison, q: int, k: int) -> set[tuple[int, int, int | None,
                                                                  int | None]]:
    """Every document in either top k of each adjacent pair, with its rank on each side."""
    out = set()
    for c in range(len(comp.configs) - 1):
        left, right = top(comp, c, q, k), top(comp, c + 1, q, k)
        for doc in set(left) | set(right):
            out.add((doc, c, left.index(doc) + 1 if doc in left else None,
                     right.index(doc) + 1 if doc in right else None))
    return out


@pytest.fixture
def lines(qtbot) -> RankLines:  # type: ignore[no-untyped-def]
    w = RankLines()
    qtbot.addWidget(w)
    w.resize(1100, 460)
    w.show()
    qtbot.waitExposed(w)
    return w


def test_rank_lines_follow_the_rankings(lines: RankLines, comp: Comparison) -> None:
    lines.set_comparison(comp)
    moved = entered = 0
    for k in (10, 5):
        lines.set_k(k)
        for q in range(len(comp.dataset.queries)):
            lines.set_query(q)
            drawn = lines.lines()
            assert len(drawn) == len(set(drawn))
            assert set(drawn) == expected_lines(comp, q, k)
            for (_doc, c, a, b), (start, end) in zip(drawn, lines.line_ends(), strict=True):
                for col, rank, point in ((c, a, start), (c + 1, b, end)):
                    if rank is None:  # entering or leaving: into the slot at the column foot
                        slot = lines.slot_rect(col)
                        assert slot.top() <= point.y() <= slot.bottom()
                        assert point.x() in (slot.left(), slot.right())
                    else:
                        assert point.y() == pytest.approx(lines.row_rect(col, rank).center().y())
            moved += sum(a is not None and b is not None and a != b for _d, _c, a, b in drawn)
            entered += sum(a is None for _d, _c, a, _b in drawn)
    assert moved and entered  # the samples do exercise both kinds of line


def test_columns_are_configurations_in_the_order_given(lines: RankLines, tea: Comparison) -> None:
    lines.set_comparison(tea)
    lines.set_query(0)
    lines.set_columns([2, 0])
    for _doc, c, a, b in lines.lines():
        assert c == 0
        assert (a is None or top(tea, 2, 0, 10)[a - 1] == _doc)
        assert (b is None or top(tea, 0, 0, 10)[b - 1] == _doc)
    with pytest.raises(ValueError, match="no configuration 3"):
        lines.set_columns([0, 3])


def test_clicking_a_row_selects_its_document(qtbot, lines: RankLines,  # type: ignore[no-untyped-def]
                                             vault: Comparison) -> None:
    lines.set_comparison(vault)
    lines.set_query(0)
    doc = top(vault, 1, 0, 10)[2]
    where = lines.row_rect(1, 3).center().toPoint()
    assert lines.row_at(where) == (1, doc)
    with qtbot.waitSignal(lines.doc_selected, timeout=1000) as blocker:
        qtbot.mouseClick(lines, Qt.MouseButton.LeftButton, pos=where)
    assert blocker.args == [doc]
    assert lines.selected == doc  # highlighted in every column it is in
    rank_a = top(vault, 0, 0, 10).index(doc) + 1
    assert lines.row_at(lines.row_rect(0, rank_a).center()) == (0, doc)
    assert lines.row_at(lines.slot_rect(0).center()) is None
    with qtbot.assertNotEmitted(lines.doc_selected):
        qtbot.mouseClick(lines, Qt.MouseButton.LeftButton,
                         pos=lines.slot_rect(0).center().toPoint())


def _order(lines: RankLines) -> list[int]:
    frame = [(y, doc) for doc, y, opacity in lines.replay_frame() if opacity > 0]
    return [doc for _y, doc in sorted(frame)]


def test_replay_goes_from_the_first_order_to_the_second(qtbot, lines: RankLines,  # type: ignore[no-untyped-def]
                                                        vault: Comparison) -> None:
    lines.set_comparison(vault)
    lines.set_query(0)  # v01: one document enters the top 10, one leaves
    a, b = top(vault, 0, 0, 10), top(vault, 1, 0, 10)
    assert set(a) != set(b)
    lines.set_replay_position(0.0)
    assert _order(lines) == a
    assert lines.lines() == []  # one list while replaying
    lines.set_replay_position(1.0)
    assert _order(lines) == b
    lines.set_replay_position(0.5)
    frame = {doc: (y, op) for doc, y, op in lines.replay_frame()}
    (new,) = set(b) - set(a)
    (out,) = set(a) - set(b)
    assert frame[new][1] == frame[out][1] == pytest.approx(0.5)
    lines.grab()  # a mid-replay frame paints without warnings
    lines.set_replay_position(None)
    assert lines.lines()
    with qtbot.waitSignal(lines.replay_finished, timeout=3000):
        lines.replay(duration_ms=80)
    assert not lines.replaying and lines.replay_frame() == []
    lines.replay(duration_ms=60_000)
    assert lines.replaying
    with qtbot.waitSignal(lines.replay_finished, timeout=1000):
        lines.set_query(1)  # another query cuts the replay short
    assert not lines.replaying and set(lines.lines()) == expected_lines(vault, 1, 10)


def test_font_scale_enlarges_rows(lines: RankLines, vault: Comparison) -> None:
    lines.set_comparison(vault)
    before = (lines.row_height, lines.row_rect(0, 3).bottom(), lines.sizeHint().height())
    lines.set_font_scale(1.6)
    after = (lines.row_height, lines.row_rect(0, 3).bottom(), lines.sizeHint().height())
    assert all(x > y for x, y in zip(after, before, strict=True))
    assert set(lines.lines()) == expected_lines(vault, 0, 10)


def test_delta_bars_sorted_without_unjudged_queries(qtbot,  # type: ignore[no-untyped-def]
                                                    vault: Comparison) -> None:
    chart = QueryDeltaChart()
    qtbot.addWidget(chart)
    chart.resize(700, 300)
    chart.show()
    qtbot.waitExposed(chart)
    chart.set_comparison(vault)
    metric = vault.metrics[0]
    a = vault.results[0].per_query[metric]
    b = vault.results[1].per_query[metric]
    nan = {vault.dataset.queries.index[q] for q in UNJUDGED}
    assert set(np.flatnonzero(np.isnan(b - a))) == nan
    judged = [q for q in range(len(a)) if q not in nan]
    expected = sorted(judged, key=lambda q: (-(b[q] - a[q]), q))
    assert chart.bar_queries() == expected
    assert chart.bar_deltas() == pytest.approx([b[q] - a[q] for q in expected])
    row = vault.rows[0]
    up, same, down = chart.counts()
    assert (up, down) == (row.improved[1], row.worsened[1])
    assert up + same + down == len(judged)
    # each glyph kept with its count by a no-break space (the title had wrapped between them)
    assert (f"▲\u00a0{up} improved · {same} unchanged · ▼\u00a0{down} worsened"
            in chart.caption())
    assert "3 without judgments left out" in chart.caption()
    for n in (0, len(expected) // 2, len(expected) - 1):
        with qtbot.waitSignal(chart.query_clicked, timeout=1000) as blocker:
            qtbot.mouseClick(chart, Qt.MouseButton.LeftButton, pos=chart.bar_center(n))
        assert blocker.args == [expected[n]]
        assert chart.current == expected[n]
    with qtbot.assertNotEmitted(chart.query_clicked):
        qtbot.mouseClick(chart, Qt.MouseButton.LeftButton, pos=QPoint(2, 2))
    chart.set_comparison(vault, 1, "map@100")
    assert chart.metric_name == "map@100"
    with pytest.raises(ValueError, match="unknown metric"):
        chart.set_comparison(vault, 1, "nope@3")


def test_metric_table_cells_are_the_rows_formatted(qtbot, comp: Comparison) -> None:  # type: ignore[no-untyped-def]
    table = MetricTable()
    qtbot.addWidget(table)
    table.set_comparison(comp)
    n = len(comp.configs)
    assert table.columnCount() == 2 + 4 * (n - 1)
    header = [table.horizontalHeaderItem(c).text() for c in range(table.columnCount())]
    assert header[:2] == ["metric", comp.configs[0].name]
    assert header[2:6] == [comp.configs[1].name, "Δ", "p", "▲/▼"]
    expected = []
    for row in comp.rows:
        cells = [metric_label(row.metric), f"{row.means[0]:.4f}"]
        for i in range(1, n):
            # the window's: ±0 for none, a real minus sign; the Δ the difference of the
            # means shown (dr5 2), "<0.0001" where those are equal and the means are not
            d = row.deltas[i]
            diff = Decimal(f"{row.means[i]:.4f}") - Decimal(f"{row.means[0]:.4f}")
            sign = "+" if d > 0 else "−"
            shown = ("±0" if d == 0 else sign + "<0.0001" if diff == 0
                     else sign + f"{abs(diff):.4f}")
            cells += [f"{row.means[i]:.4f}", shown, p_text(row.p_values[i]),
                      f"{row.improved[i]}/{row.worsened[i]}"]
        expected.append(cells)
    assert table.cell_texts() == expected
    plain = 0
    for r, row in enumerate(comp.rows):
        for i in range(1, n):
            delta_item = table.item(r, 2 + 4 * (i - 1) + 1)
            p_item = table.item(r, 2 + 4 * (i - 1) + 2)
            p = row.p_values[i]
            # coloured by the report's rule (review F, 4): beyond chance only, never
            # coverage
            toned = p is not None and p < 0.05 and not row.metric.startswith("judged@")
            want = (None if not toned
                    else BETTER if row.deltas[i] > 5e-4 else WORSE if row.deltas[i] < -5e-4
                    else None)
            if want is not None:
                assert delta_item.foreground().color() == QColor(want)
            else:
                assert delta_item.foreground().style() == Qt.BrushStyle.NoBrush
                plain += 1
            assert p_item.font().bold() == (p is not None and p < 0.05)
            assert "paired randomisation" in p_item.toolTip()
    # some difference within chance left plain
    assert plain > 0 and any(d and p is not None and p >= 0.05 for row in comp.rows
                             for d, p in zip(row.deltas[1:], row.p_values[1:], strict=True))
    before = table.verticalHeader().defaultSectionSize()
    table.set_font_scale(1.6)
    assert table.verticalHeader().defaultSectionSize() > before
    assert table.cell_texts() == expected


def test_explain_diff_is_b_minus_a_of_each_sides_contributions(qtbot,  # type: ignore[no-untyped-def]
                                                               vault: Comparison) -> None:
    view = ExplainDiff()
    qtbot.addWidget(view)
    assert view.sentence.text() == HINT and not view.table.isVisibleTo(view)
    a, b = vault.results[0], vault.results[1]
    moved = vault.movers(1, k=10, top=8)
    assert moved
    for m in moved:
        view.show_move(vault, 1, m.query, m.doc)
        total_a, parts_a = doc_contributions(a.scores, m.query, m.doc)
        total_b, parts_b = doc_contributions(b.scores, m.query, m.doc)
        rows = view.values()
        assert a.scores.signals[0] == "tf"  # named as the sliders name them
        names = ["term frequency", "position", "density", "proximity", "clamp"]
        # every signal once: in a row (what changed first) or on the line of those 0 on
        # both sides
        zeros = view.zeros.text().removeprefix("0 on both sides: ").split(", ") \
            if view.zeros.isVisibleTo(view) else []
        assert sorted([r[0] for r in rows[:-1]] + zeros) == sorted(names)
        assert rows[-1][0] == "total"
        for name, va, vb, d in rows[:-1]:
            s = names.index(name)
            assert (va, vb, d) == pytest.approx(
                (parts_a[s], parts_b[s], parts_b[s] - parts_a[s]), abs=1e-12)
        for name in zeros:
            assert parts_a[names.index(name)] == parts_b[names.index(name)] == 0
        assert rows[-1][1:] == pytest.approx([total_a, total_b, total_b - total_a], abs=1e-12)
        assert view.table.item(0, 0).icon() is not None
        assert view.explained is not None
        assert view.sentence.text() == view.explained.sentence()
        rank = "not ranked" if m.baseline_rank is None else f"rank {m.baseline_rank}"
        assert f"A: defaults, {rank} → B: position first, " in view.detail.text()
    view.set_font_scale(1.5)
    assert math.isclose(view.table.font().pointSizeF(), view._base_pt * 1.5)
    view.clear()
    assert view.sentence.text() == HINT and view.table.rowCount() == 0


def test_each_widget_paints_alone_without_a_comparison(qtbot) -> None:  # type: ignore[no-untyped-def]
    for cls in (RankLines, QueryDeltaChart, MetricTable, ExplainDiff):
        w = cls()
        qtbot.addWidget(w)
        w.resize(500, 300)
        w.show()
        qtbot.waitExposed(w)
        assert not w.grab().isNull()
        w.close()


def test_a_file_whose_title_is_its_path_is_named_once(qtbot: QtBot) -> None:
    """codeledger's documents are titled by their path: 'api/shorty/app.py · api/shorty/app.py'."""
    model = get_model("codeledger")
    ds = load_dataset(SAMPLES / "code-repo")
    comp = compare_configurations(model, ds, [
        Configuration("defaults", model.schema.resolve({})),
        Configuration("content low", model.schema.resolve({"w_content": 0.2}))],
        n_resamples=200)
    view = ExplainDiff()
    qtbot.addWidget(view)
    m = comp.movers(1, k=10, top=1)[0]
    view.show_move(comp, 1, m.query, m.doc)
    path = ds.corpus[m.doc].id
    assert view.detail.text().splitlines()[0] == path


def test_tags_in_a_narrow_column_stay_right_of_the_rank(qtbot: QtBot) -> None:
    """At 1,100 × 700 '▲new' was drawn over the rank number ('▲n7ew')."""
    from PySide6.QtCore import QRectF
    from PySide6.QtGui import QFont, QImage, QPainter

    from workbench.gui.compare.rank_rows import _paint_tags

    image = QImage(400, 40, QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    font = QFont()
    tags = [("▲new", QColor("green")), ("▼out", QColor("red"))]
    try:
        wide = _paint_tags(painter, QRectF(0, 0, 400, 20), tags, font, left=40.0)
        assert wide > 40.0 + 100  # both whole, the room left of them wide
        for width in (95.0, 70.0, 50.0):
            assert _paint_tags(painter, QRectF(0, 0, width, 20), tags, font, left=40.0) >= 36
    finally:
        painter.end()


def test_a_tuned_configurations_head_keeps_its_name_and_its_mark(
        qtbot: QtBot, vault: Comparison) -> None:
    # "tuned on nDCG@10 (training scores)" headed its column "tuned on … scores)" (F12)
    name = "tuned on nDCG@10"
    configs = [vault.configs[0], dataclasses.replace(vault.configs[1], name=name)]
    comp = dataclasses.replace(vault, configs=configs, training=frozenset({name}))
    table = MetricTable()
    qtbot.addWidget(table)
    table.set_comparison(comp)
    head = table.horizontalHeaderItem(2)
    assert head is not None
    assert head.text() == "tuned on nDCG@10\n(training scores)"


def test_a_sentence_with_settings_figures_carries_their_key_as_its_tooltip(
        qtbot: QtBot) -> None:
    """The window shows a mover's sentence as compare does: where it has "alone:" figures, its
    tooltip says what they are (dr4 6); a move with one setting changed has none, nor a key."""
    model = get_model("bm25")
    ds = load_dataset(SAMPLES / "tea-beir")
    view = ExplainDiff()
    qtbot.addWidget(view)
    q, doc = ds.queries.ids.index("q07"), ds.corpus.index["d015"]
    for values, shown in (({"k1": 2.0, "b": 0.3}, True), ({"k1": 2.0}, False)):
        comp = compare_configurations(model, ds, [
            Configuration("defaults", model.schema.resolve({})),
            Configuration("tuned", model.schema.resolve(values))], n_resamples=50)
        view.show_move(comp, 1, q, doc)
        assert ("(only it set back: at 11; score +0.139 from it)" in view.sentence.text()) == shown
        assert view.sentence.toolTip().startswith(
            "only it set back: the document's place under the second configuration with only "
            "that setting") == shown
    view.clear()
    assert view.sentence.toolTip() == ""
