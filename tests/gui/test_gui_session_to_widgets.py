"""Change the tuning session, assert on the widgets."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from tests.conftest import SAMPLES
from workbench.core.session import TuningSession
from workbench.gui.main_window import MainWindow
from workbench.gui.param_editors import NumberEditor


def test_set_param_moves_slider_and_spinbox(window: MainWindow) -> None:
    s = window.session
    editor = window.params.editors["w_tf"]
    assert isinstance(editor, NumberEditor)
    s.set_param("w_tf", 0.75)
    assert editor.spin.value() == 0.75
    assert editor.slider.value() == round(0.75 / editor.step)
    assert s.params["w_tf"] == 0.75  # no echo back from the widgets


def test_result_refills_the_ranked_table(window: MainWindow) -> None:
    s = window.session
    table = window.ranked.model
    top_before = [r.doc_id for r in table.rows[:10]]
    assert top_before and table.rows[0].rank == 1
    s.set_params({"w_tf": 0.0, "w_position": 1.0, "w_density": 0.0})
    assert [r.doc_id for r in table.rows[:10]] != top_before
    shown = table.index(0, 4).data()
    assert float(shown) == pytest.approx(table.rows[0].score, abs=5e-4)
    # every score with the same decimals, so the digits line up down the column
    texts = [table.index(r, 4).data() for r in range(min(10, table.rowCount()))]
    assert len({len(t.partition(".")[2]) for t in texts if t}) == 1
    # the contribution bar reads each row's contributions, which sum to the score
    row = table.rows[0]
    assert abs(float(row.contributions.sum()) - row.score) < 1e-9


def test_pinned_baseline_shows_deltas_everywhere(window: MainWindow) -> None:
    s = window.session
    assert window.metrics.cards[0].detail.text().endswith("no baseline</span>")
    s.pin_baseline()
    assert "pinned" in window.header.baseline_label.text()
    s.set_params({"w_position": 0.0})
    changes = {r.change for r in window.ranked.model.rows if r.rank is not None}
    assert changes - {"="}, "some document moved"
    assert any(c.startswith(("▲", "▼")) for c in changes)
    assert "vs" in window.metrics.cards[0].detail.text()
    assert "queries" in window.metrics.comparison.texts[0]
    assert "p = " in window.metrics.comparison.text()
    deltas = [window.queries.model.index(r, 3).data() for r in range(5)]
    assert all(d for d in deltas)


def test_query_selection_moves_the_list_and_preview(window: MainWindow) -> None:
    s = window.session
    s.select_query(3)
    view = window.queries.view
    assert window.queries.proxy.mapToSource(view.currentIndex()).row() == 3
    assert window.preview.doc == int(s.result.ranking.docs[3, 0])  # type: ignore[union-attr]
    html = window.preview.browser.toHtml().replace(" ", "")
    # vault-search marks where it matched the whole query (rv52 1), not words
    assert window.preview.spans and "background-color:#fff3a3" in html


def test_model_change_rebuilds_the_parameter_panel(window: MainWindow, qtbot: QtBot) -> None:
    window.session.set_model("bm25")
    assert set(window.params.editors) == {p.name for p in
                                          window.session.model.schema.stage("live")}  # type: ignore[union-attr]
    assert window.header.model_combo.currentData() == "bm25"
    assert window.session.result is not None  # synchronous: prepared and computed


def test_k_change_updates_metric_names(window: MainWindow) -> None:
    window.session.set_k(5)
    assert window.metrics.k_spin.value() == 5
    assert window.metrics.cards[0].name.text() == "nDCG@5"
    assert window.queries.model.headerData(2, Qt.Orientation.Horizontal) == "nDCG@5"


def test_a_tick_repaints_the_cells_it_changed(window: MainWindow) -> None:
    """A tick that keeps the table's shape announces the changed cells, not the whole table:
    every cell whose text, bar or colour changed lies in an announced range, and the cells of
    rows that kept their document and rank are left alone."""
    from workbench.gui.contribution_bar import CONTRIB_ROLE

    s = window.session
    table = window.ranked.model
    s.pin_baseline()
    roles = (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ForegroundRole, CONTRIB_ROLE)

    def cells() -> dict[tuple[int, int], tuple[object, ...]]:
        return {(r, c): tuple(str(table.index(r, c).data(role)) for role in roles)
                for r in range(table.rowCount()) for c in range(table.columnCount())}

    ranges: list[tuple[int, int, int, int]] = []
    table.dataChanged.connect(lambda a, b, *_: ranges.append((a.row(), b.row(),
                                                              a.column(), b.column())))
    before = cells()
    s.set_param("w_tf", float(s.params["w_tf"]) * 0.9)
    after = cells()
    assert len(after) == len(before) and ranges  # the same shape: no model reset

    def covered(r: int, c: int) -> bool:
        return any(r0 <= r <= r1 and c0 <= c <= c1 for r0, r1, c0, c1 in ranges)

    changed = [k for k in after if after[k] != before[k]]
    assert changed and all(covered(*k) for k in changed)
    untouched = [k for k in after if not covered(*k)]
    assert any(c == 2 for _, c in untouched)  # ids of rows that kept their place


def test_a_long_header_elides_and_keeps_the_whole_in_the_tooltip(qtbot: QtBot) -> None:
    """decision-memory's baseline carries a clock: the baseline label stays short, and the
    dataset line, when it does not fit, ends in "…" instead of being cut mid-word."""
    from workbench.gui.header import Header

    s = TuningSession()
    s.open(SAMPLES / "decisions")
    s.set_model("decision-memory", {"now": "2026-11-20T12:00:00.000Z"})  # the sample's
    s.recompute()
    s.pin_baseline()
    h = Header(s)
    qtbot.addWidget(h)
    h.resize(1600, 40)
    h.show()
    qtbot.waitExposed(h)
    assert "now=" in h.baseline_label.toolTip()
    assert len(h.baseline_label.text()) < 120
    # the model is in the box beside it: not repeated in the label
    assert "decision-memory" not in h.baseline_label.text()
    assert "decision-memory" in h.baseline_label.toolTip()
    full = h.dataset_label._plain
    assert full.startswith("dataset: decisions (135 docs")
    assert "<b>decisions</b>" in h.dataset_label.text()  # room enough: the rich text
    h.resize(700, 40)
    qtbot.wait(10)
    shown = h.dataset_label.text()
    # shortened first ("dataset: " and the docs' count gone: dA 4), then cut after a word
    assert shown == "decisions (21 queries,…"
    assert full in h.dataset_label.toolTip()
    # the baseline's line gives way too: it held the window 50 px past 1024
    assert h.minimumSizeHint().width() < 900
    assert h.baseline_label.text().endswith("…")
    assert "now=2026-11-20T12:00:00.000Z" in h.baseline_label.toolTip()
    h.resize(1600, 40)
    qtbot.wait(10)
    # the clock counted, whole in the tooltip (it took 350 px beside the dataset line)
    assert h.baseline_label.text() == "baseline: <b>pinned</b> (1 change)"
    assert "now=2026-11-20T12:00:00.000Z" in h.baseline_label.toolTip()


@pytest.mark.parametrize("width", [1272, 1358])  # a 1,280- and a 1,366-px window's header
def test_the_dataset_counts_keep_their_room_beside_a_long_baseline(
        qtbot: QtBot, styled: object, width: int) -> None:
    """A baseline with a long name took its whole width first and cut the dataset line to
    "21 q…": the counts and the red "not judged", which says why every card reads "–", go
    before the baseline's label gives way no more."""
    from workbench.gui.header import Header

    s = TuningSession()
    s.open(SAMPLES / "decisions")
    s.set_model("decision-memory", {"now": "2026-11-20T12:00:00.000Z"})
    s.recompute()
    s.save_configuration("the values from the Tuesday review with the whole team")
    s.set_baseline("the values from the Tuesday review with the whole team")
    h = Header(s)
    qtbot.addWidget(h)
    h.resize(width, 40)
    h.show()
    qtbot.waitExposed(h)
    qtbot.wait(10)
    assert "<span style='color:#c0392b'>not judged</span>" in h.dataset_label.text()
    assert h.baseline_label.text().endswith("…")  # it gave way
    assert "Tuesday review" in h.baseline_label.toolTip()


@pytest.mark.parametrize(("scores", "decimals"), [
    ([2.251, 0.9947, 0.08275, 1.0], 3), ([0.83, 0.12], 4), ([59.0, 12.0, 4.0], 0),
    ([15.32, 9.1], 2), ([float("nan")], 0),
])
def test_score_decimals(scores: list[float], decimals: int) -> None:
    from workbench.gui.palette import score_decimals

    assert score_decimals(scores) == decimals


def test_a_change_too_small_to_print_keeps_its_sign() -> None:
    # the nDCG card read "±0" (no change) while one query had moved the mean by +0.0005
    from workbench.gui.palette import signed

    assert signed(0.0) == signed(-0.0) == signed(3e-17) == "±0"
    # a change under the shown precision is one, not a zero with a sign (review gv 9)
    assert signed(0.0004) == "+<0.001" and signed(-0.0004) == "−<0.001"
    assert signed(0.04, 1) == "+<0.1" and signed(-0.3, 0) == "−<1"
    assert signed(0.0125) == "+0.013" and signed(-0.5, 2) == "−0.50"


def test_a_baseline_pinned_on_another_model_shows_its_own_values(qtbot: QtBot) -> None:
    # pinned on bm25 with k1=2.0, then vault-search chosen: the header said "bm25, defaults"
    from workbench.gui.header import Header

    s = TuningSession()
    s.open(SAMPLES / "tea-beir")
    s.set_model("bm25", {"k1": 2.0})
    s.recompute()
    s.pin_baseline()
    s.set_model("vault-search")
    h = Header(s)
    qtbot.addWidget(h)
    assert "bm25, k1=2.0" in h.baseline_label.toolTip()
    assert "defaults" not in h.baseline_label.toolTip()


def test_the_model_box_is_as_wide_as_the_model_it_shows(window: MainWindow) -> None:
    # it was as wide as its longest entry (540 px for codeledger's), and the dataset line
    # beside it was elided ("25 judg…") with room to spare in the box
    combo = window.header.model_combo
    fm = combo.fontMetrics()
    widths = [fm.horizontalAdvance(combo.itemText(i)) for i in range(combo.count())]
    assert combo.width() <= max(combo.minimumWidth(), fm.horizontalAdvance(
        combo.currentText()) + 48) < max(widths)
    assert combo.view().minimumWidth() >= max(widths)  # the list drops down in full
    window.session.set_model("codeledger")
    assert combo.maximumWidth() >= fm.horizontalAdvance(combo.currentText()) + 48


def test_the_model_box_fits_its_model_before_any_dataset(qtbot: QtBot) -> None:
    # with no model set the box kept its longest entry's width
    w = MainWindow(synchronous=True, restore=False)
    qtbot.addWidget(w)
    combo = w.header.model_combo
    assert combo.maximumWidth() <= max(combo.minimumWidth(), combo.fontMetrics()
                                       .horizontalAdvance(combo.currentText()) + 48)


def test_ids_show_whole_beside_titles_where_the_table_has_room(window: MainWindow,
                                                               qtbot: QtBot) -> None:
    # at 1,920 px "journal/2026-0…ter-arrives.md" was cut at 200 px, the title column
    # holding 200 px to spare
    window.resize(1920, 1080)
    window.show()
    qtbot.waitExposed(window)
    view = window.ranked.view
    fm = view.fontMetrics()
    widest = max(fm.horizontalAdvance(d.id) for d in window.session.dataset.corpus) + 16
    assert widest > 200 and not view.isColumnHidden(3)
    assert view.columnWidth(2) >= min(widest, view.viewport().width() // 3)
    assert view.columnWidth(2) > 200


def test_a_narrow_table_keeps_room_for_its_titles(window: MainWindow, qtbot: QtBot) -> None:
    """Beside a wide parameter panel at 1,280 px the id column kept its 200 px and every
    title cell read '…' under an 'itl' header."""
    window.resize(1280, 720)
    window.show()
    qtbot.waitExposed(window)
    view = window.ranked.view
    window.ranked.resize(560, window.ranked.height())
    qtbot.wait(10)
    assert not view.isColumnHidden(3)
    fm = view.fontMetrics()
    assert view.columnWidth(3) >= fm.horizontalAdvance("x" * 14), (
        view.columnWidth(2), view.columnWidth(3), view.viewport().width())


def test_the_bars_give_way_to_a_code_files_path(qtbot: QtBot) -> None:
    """At 1,024 px a code file's path (its id, the only name) read '…' beside the
    contributions' 180 px of bars: the bars narrow first, down to a third."""
    w = MainWindow(synchronous=True, restore=False)
    qtbot.addWidget(w)
    assert w.open_path(SAMPLES / "code-repo")
    w.resize(1600, 900)
    w.show()
    qtbot.waitExposed(w)
    view = w.ranked.view
    wide = view.columnWidth(6)
    assert view.isColumnHidden(3)  # titles are the paths: the id column alone
    w.resize(1024, 640)
    qtbot.wait(20)
    fm = view.fontMetrics()
    assert wide // 3 <= view.columnWidth(6) < wide, (w.ranked.width(), view.columnWidth(6))
    assert view.columnWidth(2) >= fm.horizontalAdvance("x" * 14), [
        view.columnWidth(c) for c in range(8)]
    w.resize(1600, 900)  # room again: the bars whole
    qtbot.wait(20)
    assert view.columnWidth(6) == wide
    w.close()


def test_a_heading_too_long_for_its_column_ends_in_an_ellipsis(qtbot: QtBot,
                                                               styled: object) -> None:
    """Beside decision-memory's gate column, at 1,280 × 800, the heading read 'ntributio'."""
    w = MainWindow(synchronous=True, restore=False)
    qtbot.addWidget(w)
    w.resize(1280, 800)
    w.show()
    qtbot.waitExposed(w)
    assert w.open_path(SAMPLES / "decisions", model="decision-memory")
    qtbot.wait(20)
    view = w.ranked.view
    assert not view.isColumnHidden(7)  # the gate column takes its room
    header = view.horizontalHeader()
    if view.columnWidth(6) < header.fontMetrics().horizontalAdvance("contributions") + 12:
        # too narrow for it: it ends in "…" (its tooltip says the whole), not cut both sides
        assert header.textElideMode() == Qt.TextElideMode.ElideRight


def test_the_signals_legend_shows_its_last_line_whole(qtbot: QtBot, styled: object) -> None:
    """codeledger's legend at 1,280 × 800 needs four lines of rich text, each a little taller
    than the font's line spacing: held to 4 × the spacing, its last line ('▨ hatched:
    negative') was cut in half under the table's header."""
    w = MainWindow(synchronous=True, restore=False)
    qtbot.addWidget(w)
    w.resize(1280, 800)
    w.show()
    qtbot.waitExposed(w)
    assert w.open_path(SAMPLES / "code-repo")
    w.session.pin_baseline()
    qtbot.wait(20)
    legend = w.ranked.legend
    need = legend.heightForWidth(legend.width())
    assert need > 3 * legend.fontMetrics().lineSpacing()  # the case: more than three lines
    assert legend.height() >= need
