"""The window on code data (codeledger on sample_corpora/code-repo): one id column when titles
are ids, the bundle's cut in the ranked table, source files in the preview (monospace,
numbered lines, excerpt marks), bundle cards in the metric strip, the query list's widths, and
grouped parameters."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest
from pytestqt.qtbot import QtBot

from tests.conftest import SAMPLES
from tests.gui.conftest import over_budget
from workbench.core.models import get_model
from workbench.core.models.codeledger import full_bundles
from workbench.core.session import TuningSession
from workbench.gui.charts._standalone import open_session
from workbench.gui.metric_strip import MetricStrip
from workbench.gui.palette import GATED
from workbench.gui.param_panel import ParamPanel, sections
from workbench.gui.preview import EXCERPT_BG, DocumentPreview
from workbench.gui.query_list import QueryList, id_column_cap
from workbench.gui.ranked_table import BELOW_CUT, RankedTable

CODE = SAMPLES / "code-repo"


@pytest.fixture
def code() -> TuningSession:
    return open_session(CODE)


def _show(qtbot: QtBot, w: object, size: tuple[int, int] = (900, 500)) -> None:
    qtbot.addWidget(w)  # type: ignore[arg-type]
    w.resize(*size)  # type: ignore[attr-defined]
    w.show()  # type: ignore[attr-defined]
    qtbot.waitExposed(w)  # type: ignore[arg-type]


def test_title_column_hidden_when_titles_are_ids(qtbot: QtBot, code: TuningSession) -> None:
    table = RankedTable(code)
    _show(qtbot, table)
    rows = table.model.rows
    assert rows and all(r.title == r.doc_id for r in rows)
    assert table.view.isColumnHidden(3) and not table.view.isColumnHidden(2)
    # the id column takes the room the title had
    assert table.view.columnWidth(2) > 300


def test_title_column_shown_for_prose(qtbot: QtBot) -> None:
    s = open_session(SAMPLES / "vault")
    table = RankedTable(s)
    _show(qtbot, table)
    assert any(r.title != r.doc_id for r in table.model.rows)
    assert not table.view.isColumnHidden(3)
    assert table.model.cut is None  # no bundles in this model: no cut line


def test_bundle_cut_is_the_cores_bundle_size(qtbot: QtBot, code: TuningSession) -> None:
    table = RankedTable(code)
    _show(qtbot, table)
    _, bund = full_bundles(code.prepared, code.params)
    for q in range(len(code.dataset.queries)):  # type: ignore[union-attr]
        code.select_query(q)
        size = int(bund.size[q])
        ranked = sum(1 for r in table.model.rows if r.rank is not None)
        assert table.model.cut == (size if size < ranked else None)
        if table.model.cut is None:
            continue
        m = table.model
        assert m.data(m.index(size - 1, 2), 8) is None  # BackgroundRole: inside the bundle
        assert m.data(m.index(size, 2), 8) == BELOW_CUT
        assert m.stop_reason() == bund.stop[q]
        assert f"({bund.stop[q]})" in m.data(m.index(size, 0), 3)  # ToolTipRole
        assert table.view.cut_y() is not None
    # a live change that moves the cut moves the line
    code.set_params({"max_files": 2, "budget_preset": "custom"})
    code.recompute()
    _, bund = full_bundles(code.prepared, code.params)
    assert table.model.cut == int(bund.size[code.query]) == 2


def test_preview_shows_source_monospace_with_excerpt(qtbot: QtBot, code: TuningSession
                                                     ) -> None:
    code.set_params({"excerpt_threshold_lines": 10, "excerpt_window": 1})
    code.recompute()
    assert code.dataset is not None and code.model is not None
    q = code.query
    ranked = code.result.ranking.docs[q, : int(code.result.ranking.count[q])]  # type: ignore[union-attr]
    doc = next(int(d) for d in ranked
               if "excerpt" in code.model.explain(code.prepared, code.dataset, q, int(d),
                                                  code.params))
    ex = code.model.explain(code.prepared, code.dataset, q, doc, code.params)["excerpt"]
    preview = DocumentPreview(code)
    _show(qtbot, preview)
    code.select_docs([doc])
    assert preview.code and preview.excerpt == [tuple(r) for r in ex["ranges"]]
    html = preview.browser.toHtml()
    assert "monospace" in html
    assert f"excerpt: {ex['lines']} of {ex['of_lines']} lines" in html
    assert f"background-color:{EXCERPT_BG}" in html.replace(" ", "")
    plain = preview.browser.toPlainText().splitlines()
    marked = {int(line.split("▐")[0]) for line in plain
              if "▐" in line and line.split("▐")[0].strip().isdigit()}
    assert marked == {i for a, b in ex["ranges"] for i in range(a, b + 1)}
    d = code.dataset.corpus[doc]
    assert html.count(d.id) == 1  # the path once, not as title and id both
    assert any(line.strip().startswith("1 ") or line.strip() == "1" for line in plain)


def test_breakdown_prints_a_zero_penalty_as_0(qtbot: QtBot, code: TuningSession) -> None:
    # fail_prior and non_code subtract: at 0 their contribution is -0.0, which "%g" prints "-0"
    q = code.query
    doc = int(code.result.ranking.docs[q, 0])  # type: ignore[union-attr]
    preview = DocumentPreview(code)
    _show(qtbot, preview)
    code.select_docs([doc])
    text = preview.browser.toPlainText()
    # the signals by their sliders' names ("fail prior", "not source code")
    assert "fail prior 0" in text and "-0 " not in text + " " and not text.rstrip().endswith("-0")


def test_preview_prose_unchanged(qtbot: QtBot) -> None:
    s = open_session(SAMPLES / "vault")
    preview = DocumentPreview(s)
    _show(qtbot, preview)
    assert not preview.code and preview.excerpt == []
    assert "pre-wrap" in preview.browser.toHtml() or "white-space" in preview.browser.toHtml()


def test_bundle_cards_match_result_means(qtbot: QtBot, code: TuningSession) -> None:
    strip = MetricStrip(code, defer_ms=0)
    _show(qtbot, strip, (1400, 80))
    res = code.result
    assert res is not None
    for name in ("bundle_recall", "bundle_precision"):
        card = strip.extra_cards[name]
        assert card.isVisible()
        assert card.value.text() == f"{res.means[name]:.3f}"
        assert "no baseline" in card.detail.text()
    code.pin_baseline()
    code.set_params({"sufficiency": 0.9})
    code.recompute()
    res = code.result
    assert res is not None and code.baseline is not None
    card = strip.extra_cards["bundle_recall"]
    assert card.value.text() == f"{res.means['bundle_recall']:.3f}"
    assert f"vs {code.baseline.result.means['bundle_recall']:.3f}" in card.detail.text()
    # a model without bundle metrics hides them
    code.set_model("bm25")
    code.recompute()
    assert not any(c.isVisible() for c in strip.extra_cards.values())


@pytest.mark.parametrize("sample", ["code-repo", "vault", "decisions"])
def test_query_list_text_column_gets_the_width(qtbot: QtBot, sample: str) -> None:
    s = open_session(SAMPLES / sample)
    ql = QueryList(s)
    _show(qtbot, ql, (370, 400))
    v = ql.view
    fm = v.fontMetrics()
    # commit ids (code-repo's c885591bbb0, eleven characters) whole where they fit
    commits = sample == "code-repo"
    widest = max(fm.horizontalAdvance(q.id) for q in s.dataset.queries)  # type: ignore[union-attr]
    assert v.columnWidth(0) <= (widest + 10 if commits else id_column_cap(fm))
    assert v.horizontalHeader().sectionResizeMode(1).name == "Stretch"
    assert v.columnWidth(1) >= max(v.columnWidth(0), 100)
    # ids elided in the middle where cut (decisions-eval's "archived-fix" and
    # "archived-other" were both "archived-…"), the query text at the right
    from PySide6.QtWidgets import QStyleOptionViewItem

    opt = QStyleOptionViewItem()
    opt.rect = v.visualRect(ql.proxy.index(0, 0))
    v.itemDelegateForColumn(0).initStyleOption(opt, ql.proxy.index(0, 0))
    first = s.dataset.queries[0].id  # type: ignore[union-attr]
    assert opt.text == first
    assert v.itemDelegateForColumn(1) is None
    # the metric column only where there are judgments (decisions has none), Δ only with a
    # baseline too
    judged = s.judgments is not None
    assert [v.isColumnHidden(c) for c in (2, 3)] == [not judged,
                                                     not judged or s.baseline is None]
    assert judged == (sample != "decisions")


def test_many_parameters_grouped_one_editor_each(qtbot: QtBot, code: TuningSession) -> None:
    panel = ParamPanel(code)
    _show(qtbot, panel, (400, 700))
    live = list(code.model.schema.stage("live"))  # type: ignore[union-attr]
    assert set(panel.editors) == {p.name for p in live}
    secs = sections(live)
    assert sum(len(sec.params) for sec in secs) == len(live)
    # one spin box width, so the sliders line up (token budget's spin box beside 0.75's)
    widths = {e.spin.width() for e in panel.editors.values() if hasattr(e, "spin")}
    assert len(widths) == 1, widths
    titles = {sec.key: sec.title for sec in secs if sec.key}
    assert titles["w"] == "Weight" and titles["recency"] == "Recent touch"
    assert titles["mult"] == "Multipliers"  # labels without a common "Title: ": named
    dm = {sec.key: sec.title for sec in sections(
        list(get_model("decision-memory").schema.stage("live"))) if sec.key}
    assert dm["w"] == "Weights" and dm["bonus"] == "Bonuses"
    # the weights are the headline, in a box of their own: the rest are grouped
    assert set(panel.groups) == set(titles) - {"w"}
    assert all(panel.headline.isAncestorOf(panel.editors[n]) for n in code.model.headline)  # type: ignore[union-attr]
    # folded groups unfold on a click
    button = panel.groups["recency"]
    editor = panel.editors["recency_days_1"]
    assert not editor.isVisible()
    button.click()
    assert editor.isVisible()
    # a few parameters: not grouped
    assert len(sections(live[:5])) == 1


def test_skipped_rows_inside_the_cut(qtbot: QtBot, code: TuningSession) -> None:
    """At a 100-token budget the bundle skips the files that do not fit (skip_limit): the cut
    line sits under the last rank read, the skipped rows are shaded and say why, the rows
    taken are not, and the summary counts the files and the skips."""
    table = RankedTable(code)
    _show(qtbot, table)
    bund, q = over_budget(code)
    skipped = bund.skipped_ranks(q)
    reach = int(bund.reach[q])
    assert skipped and int(bund.size[q]) >= 1 and reach == int(bund.size[q]) + len(skipped)
    m = table.model
    assert m.cut == reach and m.skipped == frozenset(skipped)
    for r in range(reach):
        assert (m.data(m.index(r, 2), 8) == BELOW_CUT) == (r in skipped)  # BackgroundRole
        assert (m.data(m.index(r, 2), 9) == GATED) == (r in skipped)  # ForegroundRole: muted
    assert "over the token budget" in m.data(m.index(skipped[0], 0), 3)  # ToolTipRole
    assert m.data(m.index(reach, 2), 8) == BELOW_CUT
    # on the notes' line, above the signals' legend (which had cut it off at 1280 px)
    assert (f"bundle: {int(bund.size[q])} files ({len(skipped)} skipped: over the budget)"
            in table.notes.text())
    assert "bundle:" not in table.legend.text()
    # back to the document's rule: no skip, the cut at the bundle's size
    code.set_params({"skip_limit": 0})
    code.recompute()
    assert m.skipped == frozenset()
    _, bund = full_bundles(code.prepared, code.params)
    assert m.cut == int(bund.size[q]) == 0  # the document's rule: an empty bundle here


@pytest.mark.parametrize(("sample", "model", "hatched"), [("memories", "importance", True),
                                                        ("tea-beir", "bm25", False)])
def test_the_legend_says_what_hatching_is_where_a_bar_has_it(qtbot: QtBot, sample: str,
                                                             model: str, hatched: bool) -> None:
    # the bars draw a negative contribution hatched, left of the zero line; nothing said so
    s = TuningSession()
    s.open(SAMPLES / sample)
    s.set_model(model)
    s.recompute()
    table = RankedTable(s)
    qtbot.addWidget(table)
    r = s.result
    assert r is not None
    n = min(s.k, int(r.ranking.count[s.query]))
    negative = bool((r.scores.contributions_of(r.ranking.pair[s.query, :n]) < 0).any())
    assert negative == hatched
    assert ("hatched:&nbsp;negative" in table.legend.text()) == hatched


def test_the_signals_legend_is_as_high_as_its_lines(qtbot: QtBot, code: TuningSession) -> None:
    # codeledger's 17 signals took a third line at 600 px, drawn under the table's header
    # in a label fixed at two lines: size_penalty, fail_prior, non_code unseen
    table = RankedTable(code)
    _show(qtbot, table, (600, 500))
    legend = table.legend
    line = legend.fontMetrics().lineSpacing()
    assert legend.heightForWidth(legend.width()) > 2 * line  # three lines here
    assert legend.height() >= legend.heightForWidth(legend.width())
    table.resize(1400, 500)  # wider: back to fewer lines, never under two
    qtbot.wait(10)
    assert 2 * line <= legend.height() <= max(2 * line, legend.heightForWidth(legend.width())) + 2


def test_query_ids_that_are_words_are_read_whole_where_there_is_room(qtbot: QtBot) -> None:
    """pi-lodestone's case names ("idempotency-key") were cut to eight characters beside a
    wide query column ("in…ey" with a baseline at 1,280); commit ids are whole there too."""
    s = open_session(SAMPLES / "decisions-eval")
    ql = QueryList(s)
    _show(qtbot, ql, (700, 400))
    v = ql.view
    fm = v.fontMetrics()
    longest = max(fm.horizontalAdvance(q.id) for q in s.dataset.queries)  # type: ignore[union-attr]
    assert longest > id_column_cap(fm)  # the sample's names are longer than the cap
    assert v.columnWidth(0) == ql._id_content  # whole: as wide as its content asks
    assert v.columnWidth(1) >= v.columnWidth(0) // 2  # the text keeps its share
    code = open_session(SAMPLES / "code-repo")
    cl = QueryList(code)
    _show(qtbot, cl, (700, 400))
    # commit ids whole where there is room, and no wider than the widest
    fm = cl.view.fontMetrics()
    ids = [q.id for q in code.dataset.queries]  # type: ignore[union-attr]
    assert max(fm.horizontalAdvance(i) for i in ids) + 8 <= cl.view.columnWidth(0) \
        <= max(fm.horizontalAdvance(i) for i in ids) + 10
