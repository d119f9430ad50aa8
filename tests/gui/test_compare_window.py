"""The compare view in the window, on bm25 over tea-beir: configurations saved, switched,
renamed, deleted and exchanged as TOML from the list and the Configurations menu; the
comparison it shows equals `compare_configurations` run alone; a click on the delta chart
selects the query in the whole window, a click on a document explains its move; presentation
mode, stepping through the queries that moved most, the replay, and File ▸ Export report."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from tests.gui.conftest import SAMPLES
from workbench.core.compare import compare_metrics
from workbench.core.comparison import Configuration, compare_configurations
from workbench.core.metrics import metric_label
from workbench.core.models import get_model
from workbench.gui.compare.window import CompareWindow, moved_order
from workbench.gui.palette import BETTER, NEUTRAL, WORSE


@pytest.fixture
def tea(window: Any) -> Any:
    """The main window on tea-beir (bm25) with three saved configurations."""
    assert window.open_path(SAMPLES / "tea-beir", model="bm25")
    s = window.session
    s.recompute()
    s.save_configuration("defaults")
    s.set_params({"k1": 0.9, "b": 0.9})
    s.save_configuration("short docs")
    s.set_params({"k1": 2.5, "b": 0.1})
    s.save_configuration("flat")
    s.recompute()
    return window


def _open(qtbot: QtBot, window: Any) -> CompareWindow:
    # the size it opens at on a large screen (the offscreen one is 800 px: within it, it
    # opens at 720, narrow enough to fold the explain pane)
    window.compare_window().resize(1400, 860)
    window.config_menu.compare.trigger()
    view = window.compare_window()
    qtbot.waitExposed(view)
    assert view.comp is not None, view.status.text()
    return view


def test_the_view_shows_the_comparison_run_alone(qtbot: QtBot, tea: Any) -> None:
    view = _open(qtbot, tea)
    s = tea.session
    assert view.configs.checked() == ["defaults", "short docs", "flat"]
    alone = compare_configurations(get_model("bm25"), s.dataset, s.comparable(),
                                   compare_metrics(get_model("bm25"), s.dataset))
    assert view.comp is not None and view.comp.rows == alone.rows
    assert [text for _, text in view.lines.legend()] == [
        "relevant (darker: higher grade)", "judged not relevant", "not judged"]
    assert view.table.cell_texts()[0][0] == "nDCG@10" == metric_label(alone.rows[0].metric)
    # unchecking one compares the others only
    view.configs.set_checked("short docs", False)
    assert [c.name for c in view.comp.configs] == ["defaults", "flat"]
    # the baseline goes first
    view.configs.use_as_baseline("flat")
    assert view.configs.checked()[0] == "flat" and view.comp.configs[0].name == "flat"
    assert "★ baseline" in view.configs.list.item(0).text()


def test_fewer_than_two_configurations_say_what_to_do(qtbot: QtBot, window: Any) -> None:
    assert window.open_path(SAMPLES / "tea-beir", model="bm25")
    window.session.recompute()
    window.show_compare()
    view = window.compare_window()
    assert view.comp is None and "nothing saved to compare" in view.status.text()
    assert not view.export_report(Path("/nonexistent/never.html"))


def test_a_pinned_baseline_and_a_moved_slider_compare_at_once(qtbot: QtBot,
                                                             window: Any) -> None:
    """Ctrl+B, a slider moved, Compare: the live sliders are a row of their own, checked,
    and B (the view had said "save the current sliders … and save again", what Ctrl+B had
    just done, four of its five panes blank)."""
    from workbench.gui.compare.config_list import LIVE

    assert window.open_path(SAMPLES / "tea-beir", model="bm25")
    s = window.session
    s.recompute()
    window.menu_actions.pin.trigger()
    window.show_compare()
    view = window.compare_window()
    qtbot.waitExposed(view)
    # the sliders are the baseline's values: nothing to compare yet, and what to do
    assert view.comp is None and "move a slider" in view.status.text()
    s.set_params({"k1": 0.6})
    assert view.configs.checked() == ["baseline", LIVE]
    assert view.comp is not None
    assert [c.name for c in view.comp.configs] == ["baseline", LIVE]
    assert view.comp.configs[1].params["k1"] == 0.6 and view.b_index == 1
    # its column in the metric table is headed whole (it read "current …nsaved)"); in this
    # narrow window on two lines
    heading = view.table.horizontalHeaderItem(2)
    assert heading is not None and heading.text().replace("\n", " ") == LIVE
    alone = compare_configurations(get_model("bm25"), s.dataset,
                                   [*s.comparable(), Configuration(LIVE, dict(s.params))],
                                   compare_metrics(get_model("bm25"), s.dataset))
    assert view.comp.rows == alone.rows
    s.set_params({"k1": 0.7})  # the row follows the sliders
    assert view.comp.configs[1].params["k1"] == 0.7
    # nothing can switch to, rename or delete the live row
    view.configs.list.setCurrentRow(1)
    assert view.configs.selected() is None
    assert not view.configs.buttons["delete"].isEnabled()
    # saved, its saved row stands for it
    assert view.configs.save_current("moved")
    assert view.configs.checked() == ["baseline", "moved"]


def test_the_live_rows_name_is_not_taken_by_a_saved_one(qtbot: QtBot, window: Any,
                                                         tmp_path: Path) -> None:
    """Saved as "current (unsaved)", a configuration took the live row's unchecked state and
    pushed the live row to "current (unsaved) (2)" (rev1 F4): save, rename and import refuse
    the name, with one line saying why."""
    from workbench.core.configurations import SavedConfiguration, write_configuration_toml
    from workbench.gui.compare.config_list import LIVE

    assert window.open_path(SAMPLES / "tea-beir", model="bm25")
    s = window.session
    s.recompute()
    view = window.compare_window()
    said: list[str] = []
    view.configs.message.connect(said.append)
    assert view.configs.save_current("a")
    s.set_params({"k1": 0.6})
    view.configs.set_checked(LIVE, False)
    for name in (LIVE, "  Current  (unsaved) "):
        assert not view.configs.save_current(name)
        assert said[-1] == f"{LIVE!r} is the name of the live sliders' row; save the " \
            "configuration under another name"
    assert not view.configs.rename("a", LIVE)
    assert said[-1] == f"{LIVE!r} is the name of the live sliders' row; choose another name"
    toml = tmp_path / f"{LIVE}.toml"
    write_configuration_toml(SavedConfiguration("x", "bm25", {"k1": 2.0}), toml)
    assert view.configs.import_toml(toml)
    assert [c.name for c in s.configurations] == ["a", "imported"]
    # the live row keeps its name and its unchecked state
    assert view.configs.live_name() == LIVE
    assert view.configs.checked() == ["a", "imported"]


def test_a_bar_click_selects_the_query_everywhere(qtbot: QtBot, tea: Any) -> None:
    view = _open(qtbot, tea)
    chart = view.chart
    n = len(chart.bar_queries()) - 1  # the most worsened query
    q = chart.bar_queries()[n]
    qtbot.mouseClick(chart, Qt.MouseButton.LeftButton, pos=chart.bar_center(n))
    assert tea.session.query == q and view.lines.query == q
    assert tea.session.dataset.queries[q].id in view.query_label.text()
    # the line of changes is about this query: the table below counts every one
    assert "\nthis query, " in view.query_label.text()
    tea.session.select_query(0)  # and the view follows the main window
    assert view.lines.query == 0


def test_a_document_click_explains_its_move(qtbot: QtBot, tea: Any) -> None:
    view = _open(qtbot, tea)
    view.show_query(moved_order(view.comp, 1, view.metric_name)[0])  # type: ignore[arg-type]
    a_doc = view.lines.lines()[0][0]
    view.lines.doc_selected.emit(a_doc)
    move = view.explain.explained
    assert move is not None and move.doc == a_doc and move.query == view.lines.query
    assert view.explain.sentence.text() == move.sentence()


def test_stepping_presentation_and_replay(qtbot: QtBot, tea: Any) -> None:
    view = _open(qtbot, tea)
    order = view.moved()
    assert order and len(set(order)) == len(order)
    deltas = np.abs(np.nan_to_num(view.comp.per_query_delta(view.metric_name, 1)))  # type: ignore[union-attr]
    assert list(deltas[order]) == sorted(deltas[order], reverse=True)
    view.show_query(order[0])
    qtbot.keyClick(view, Qt.Key.Key_Right)
    assert view.lines.query == order[1 % len(order)]
    view.step(-1)
    assert view.lines.query == order[0]
    row_height = view.lines.row_height
    # the app's style sheet sets fonts in pixels (pointSizeF -1): presentation scaled
    # "-1 points" with a Qt warning, and a style sheet's size overrides setFont
    from PySide6.QtGui import QFontInfo

    view.setStyleSheet("QWidget { font-size: 13px; }")
    query_px = QFontInfo(view.query_label.font()).pixelSize()
    if len(order) > 2:  # shown: one that barely moved; presenting opens on the top mover
        view.show_query(order[2])
    split, size = view.top_split.sizes(), view.size()
    view.set_presentation(True)
    assert view.lines.query == order[0]
    # the explain pane gives its room to the lists until a document is clicked
    assert view.top_split.sizes()[1] == 0
    doc = int(view.comp.results[0].ranking.docs[order[0], 0])  # type: ignore[union-attr]
    view._on_doc(doc)
    assert view.top_split.sizes()[1] > 0 and view.explain.explained is not None
    assert view.presenting and not view.controls.isVisible()
    assert view.lines.row_height > row_height
    # the lists get the height their top k and legend need, the table and chart the rest
    # (half the height cut the legend on a 1080-px screen)
    view.resize(1920, 1080)
    qtbot.wait(10)
    assert view.lines.height() >= view.lines.sizeHint().height()
    assert view.right_split.sizes()[1] >= sum(view.right_split.sizes()) // 3
    assert QFontInfo(view.query_label.font()).pixelSize() > query_px
    # every metric column shows whole (Δ, p and ▲/▼ scrolled away at the narrow pane's
    # width), and the header grows with the cells (the style sheet kept it small)
    half = view.screen().availableGeometry().width() // 2  # … within half the screen
    assert view.table.width() >= min(view.table.content_width(), half)
    header = view.table.horizontalHeader()
    # the header's text as large as the cells', above the style sheet's 13 px
    cell_px = QFontInfo(view.table.item(0, 0).font()).pixelSize()
    assert QFontInfo(header.font()).pixelSize() == cell_px
    # above 13 px, or, where even the least large type cut metric rows, the window's own
    # with every row in sight (r51 dr3 9)
    assert cell_px > 13 or view.table.verticalScrollBar().maximum() == 0
    view.replay()
    assert view.lines.replaying
    with qtbot.waitSignal(view.lines.replay_finished, timeout=5000):
        pass
    assert not view.lines.replaying and len(view.lines.lines()) > 0
    qtbot.keyClick(view, Qt.Key.Key_Escape)
    assert not view.presenting and view.controls.isVisible()
    assert view.lines.row_height == row_height
    assert view.table.minimumWidth() == 0 and "font-size" not in header.styleSheet()
    assert view.isVisible()  # the first Esc only left presentation mode
    # bars of training scores say so in their caption
    assert "training scores" not in view.chart.caption()
    assert {BETTER.name(), WORSE.name()} & set(view.chart.bar_colors())  # some moved
    view.comp = dataclasses.replace(view.comp, training=frozenset({view.comp.configs[1].name}))
    view.chart.set_comparison(view.comp, 1, view.metric_name)
    # as the report says and draws them (review F, 4): "higher … lower", every bar grey
    assert "improved" not in view.chart.caption()
    assert "(training scores: no evidence either way)" in view.chart.caption()
    assert set(view.chart.bar_colors()) == {NEUTRAL.name()}
    assert QFontInfo(view.query_label.font()).pixelSize() == query_px
    view.resize(size)  # resized while presenting (offscreen, no window manager restores it)
    qtbot.wait(10)
    # folded before, nothing explained (r51 1: at every width); the document explained
    # while presenting stays in sight, its query kept (r51 2)
    assert split[1] == 0 and view.explain.explained is not None
    assert view.top_split.sizes()[1] > 0 and view.lines.query == order[0]


def test_export_report_from_the_file_menu(qtbot: QtBot, tea: Any, tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "cmp.html"
    from PySide6.QtWidgets import QFileDialog

    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        staticmethod(lambda *a, **kw: (str(out), "")))
    tea.menu_actions.export_report.trigger()  # the view hidden: compared for the report
    text = out.read_text(encoding="utf-8")
    assert "short docs" in text and "flat" in text and "<svg" in text
    assert tea.compare_window().export_report(tmp_path / "cmp.md")
    assert (tmp_path / "cmp.md").read_text().startswith("# Ranking comparison")


def test_the_exported_report_shows_the_command_line_reports_metrics(
        qtbot: QtBot, tea: Any, tmp_path: Path) -> None:
    """Export report… and `workbench report` on the same configurations: the same metric
    rows (review F, 5: the window's had r@10 and no map@100)."""
    from workbench.cli import main
    from workbench.core.params import params_toml

    view = _open(qtbot, tea)
    assert view.export_report(tmp_path / "view.md")
    files = []
    for name in ("short docs", "flat"):
        files += ["-c", str(tmp_path / f"{name}.toml")]
        entry = view.configs.entry(name)
        (tmp_path / f"{name}.toml").write_text(params_toml(dict(entry.params)))
    assert main(["report", str(SAMPLES / "tea-beir"), "-m", "bm25", "--defaults", *files,
                 "-o", str(tmp_path / "cli.md")]) == 0

    def rows(path: Path) -> list[str]:
        return re.findall(r"^\| ([a-z]+@\d+) \|", path.read_text(), re.M)

    assert rows(tmp_path / "view.md") == rows(tmp_path / "cli.md")
    assert "map@100" in rows(tmp_path / "cli.md")


def test_configurations_from_the_menu_and_the_list(qtbot: QtBot, tea: Any,
                                                   tmp_path: Path) -> None:
    s, menu = tea.session, tea.config_menu
    view = _open(qtbot, tea)
    lst = view.configs
    menu.refresh()
    names = [a.text() for a in menu.switch_menu.actions()]
    assert names == ["defaults", "short docs", "flat"]
    menu.switch_menu.actions()[1].trigger()
    assert (s.params["k1"], s.params["b"]) == (0.9, 0.9)
    menu.baseline_menu.actions()[2].trigger()
    assert s.baseline is not None and s.baseline.name == "flat"
    assert lst.rename("flat", "flat docs") and s.baseline.name == "flat docs"
    assert not lst.rename("flat docs", "defaults")  # taken: said, nothing changes
    assert "exists already" in view.status.text()
    assert lst.export_toml("short docs", tmp_path / "short.toml")
    lst.delete("short docs")
    assert "short docs" not in s.configurations
    assert lst.import_toml(tmp_path / "short.toml")
    assert s.configurations.get("short").params["k1"] == 0.9
    assert "imported short.toml as \u201cshort\u201d" in view.status.text()  # not repr's 'short'
    # a tune --out file keeps its record of the queries it was tuned on: the view then sets
    # them aside (or labels training scores) as compare and report do
    (tmp_path / "tuned.toml").write_text('[params]\nk1 = 1.5\n\n[tuned]\ndataset = "tea-beir"\n'
                                         'validation = "none"\ntrained_on = ["q01", "q02"]\n')
    assert lst.import_toml(tmp_path / "tuned.toml")
    record = s.configurations.get("tuned").tuned_on
    assert record is not None and record.trained_on == ("q01", "q02")
    lst.delete("tuned")
    (tmp_path / "bad.toml").write_text("[params]\nk1 = -1\n")
    assert not lst.import_toml(tmp_path / "bad.toml") and "bad.toml" in view.status.text()
    # the session file keeps them, and the baseline's name
    path = tmp_path / "session.json"
    s.save(path)
    s.remove_configuration("defaults")
    assert tea.menu_actions.load_session_file(str(path))
    assert s.configurations.names == ["defaults", "flat docs", "short"]
    assert s.baseline is not None and s.baseline.name == "flat docs"
    assert lst.checked()[0] == "flat docs"


def test_a_baseline_that_prepares_apart_is_computed_on_a_worker(qtbot: QtBot) -> None:
    from workbench.core.pipeline import Pipeline
    from workbench.core.session import TuningSession
    from workbench.gui.compare.config_list import ConfigurationList

    s = TuningSession()
    s.open(SAMPLES / "tea-beir")
    s.set_model("bm25")
    s.recompute()
    s.configurations.save("unstemmed", "bm25", {"stemmer": "none"})
    lst = ConfigurationList(s)  # not synchronous: as in the window
    qtbot.addWidget(lst)
    said: list[str] = []
    lst.message.connect(said.append)
    lst.use_as_baseline("unstemmed")
    assert s.baseline is None  # the GUI thread went on; the worker delivers later
    qtbot.waitUntil(lambda: s.baseline is not None, timeout=20_000)
    alone = Pipeline(get_model("bm25"), s.dataset, {"stemmer": "none"}).run(
        s.metric_names, depth=s.depth)
    assert s.baseline is not None and s.baseline.name == "unstemmed"
    for metric in s.metric_names:
        assert np.array_equal(s.baseline.result.per_query[metric], alone.per_query[metric],
                              equal_nan=True)
    assert said[-1] == "'unstemmed' is the baseline"
    assert s.params["stemmer"] != "none"  # the live sliders untouched


def test_codeledger_configurations_compare_their_bundles(qtbot: QtBot, window: Any) -> None:
    """For a model that selects bundles, the table has its bundles' recall, precision, F1,
    files and tokens, as `compare_configurations` computes them; fewer tokens reads as better
    (green); the delta chart's metric list keeps the figures where higher is better."""
    from PySide6.QtGui import QBrush

    from workbench.gui.palette import BETTER, WORSE

    assert window.open_path(SAMPLES / "code-repo", model="codeledger")
    s = window.session
    s.recompute()
    s.save_configuration("8k")
    s.set_params({"token_budget": 150})
    s.save_configuration("150")
    view = _open(qtbot, window)
    # what `workbench compare` shows on a repository: recall first, then the bundle's own
    metrics = ["r@10", "ndcg@10", "mrr@10", "p@10", "r@100", "map@100", "bundle_recall",
               "bundle_precision", "bundle_f1", "bundle_files", "bundle_tokens"]
    alone = compare_configurations(get_model("codeledger"), s.dataset, s.comparable(), metrics)
    assert view.comp is not None and [r.metric for r in view.comp.rows] == metrics
    assert view.comp.rows == alone.rows
    cells = {row[0]: row for row in view.table.cell_texts()}
    tokens = next(r for r in alone.rows if r.metric == "bundle_tokens")
    assert tokens.deltas[1] < 0 and cells["bundle tokens"][3].startswith("−")
    # every Δ as `workbench compare` prints it (dr5 2: bundle_precision 0.0731 / 0.0635 read
    # −0.0097 here, −0.0096 there), in the window's signs
    from workbench.report.text import metric_table

    for printed, shown in zip(metric_table(alone, agree=True)[1], view.table.cell_texts(),
                              strict=True):
        assert shown[1:3] == printed[1:3]
        if printed[3]:
            assert (float(shown[3].replace("±0", "0").replace("−", "-").replace(",", ""))
                    == float(printed[3].replace(",", ""))), (printed, shown)
    # the difference of its means as shown, thousands grouped (dr5 2)
    a, b = (float(cells["bundle tokens"][j].replace(",", "")) for j in (1, 2))
    places = len(cells["bundle tokens"][1].split(".")[1])
    assert cells["bundle tokens"][3] == "−" + f"{a - b:,.{places}f}"
    at = [r.metric for r in alone.rows].index("bundle_tokens")
    # fewer tokens is a cost saved, no gain by itself (recall fell with it): not coloured
    assert view.table.item(at, 3).foreground() not in (QBrush(BETTER), QBrush(WORSE))
    assert cells["bundle tokens"][5].startswith("↓")
    recall_at = [r.metric for r in alone.rows].index("bundle_recall")
    recall = alone.rows[recall_at]
    assert recall.deltas[1] < 0  # a budget of 150 tokens finds less
    assert view.table.item(recall_at, 3).foreground() == QBrush(WORSE)
    picks = [view.metric_pick.itemData(i) for i in range(view.metric_pick.count())]
    assert "bundle_recall" in picks and "bundle_tokens" not in picks
    # a file's path is its id and its title: named once beside its rank
    doc = int(view.comp.results[0].ranking.docs[view.lines.query, 0])
    path = s.dataset.corpus[doc].id
    assert view.lines._tooltip(doc).count(path) == 1
    # the query line counts tokens in whole tokens
    view.show_query(next(q for q in range(len(s.dataset.queries))
                         if view.comp.per_query_delta("bundle_tokens", 1)[q] != 0))
    assert re.search(r"bundle tokens [+−][0-9,]+(,|$)", view.query_label.text()), (
        view.query_label.text())


def test_a_tuned_configuration_is_compared_on_the_queries_it_was_not_tuned_on(
        qtbot: QtBot, window: Any, tmp_path: Path) -> None:
    """A configuration a tuning run saved carries the queries it was tuned on: the view
    compares on the others (their judgments only) and says so; the check box takes every
    query; the record survives a session file and a TOML file."""
    from workbench.core.data import Dataset
    from workbench.core.tuned_on import TunedOn

    assert window.open_path(SAMPLES / "tea-beir", model="bm25")
    s = window.session
    s.recompute()
    s.save_configuration("defaults")
    trained = [f"q{i:02d}" for i in range(1, 11)]
    note = TunedOn("tea-beir", "3-fold over 25 queries (seed 0)", tuple(trained), "ndcg@10",
                   0.61, 0.62, 0.5, 25)
    s.configurations.save("tuned", "bm25", {"k1": 2.0, "b": 0.3}, tuned_on=note)
    view = _open(qtbot, window)
    assert view.comp is not None and set(view.comp.dataset.qrels or {}) == set(
        q for q in s.dataset.qrels or {} if q not in trained)
    held = [q for q in s.dataset.queries.ids if q not in trained]
    alone = compare_configurations(get_model("bm25"), Dataset(
        s.dataset.name, s.dataset.corpus, s.dataset.queries.subset(held),
        {q: s.dataset.qrels[q] for q in held} if s.dataset.qrels else None),
        s.comparable(), compare_metrics(get_model("bm25"), s.dataset))
    assert [r.means for r in view.comp.rows] == [r.means for r in alone.rows]
    # said above the table the figures are of (it sat at the foot of the side panel)
    assert "compared on the 15 of 25 judged queries no configuration was tuned on" in (
        view.table_note.text())
    assert not view.table_note.isHidden()
    # the chart under it: those ten are set aside as tuned on, not "without judgments"
    assert view.chart.caption().endswith("; 10 tuned on set aside")
    assert "without judgments" not in view.chart.caption()
    view.show_query(s.dataset.queries.index["q01"])  # tuned on: said, not counted
    assert "not counted: a configuration was tuned on this query" in view.query_label.text()
    view.show_query(s.dataset.queries.index["q20"])
    assert "not counted" not in view.query_label.text()
    assert view.all_queries.isEnabled()  # a configuration was tuned on some queries
    view.all_queries.setChecked(True)
    assert view.comp is not None and len(view.comp.dataset.qrels or {}) == 25
    assert "10 of these 25 judged queries were tuned on" in view.table_note.text()
    # kept by a session file and by the configuration's TOML
    path = tmp_path / "s.json"
    s.save(path)
    s.load(path)
    assert s.configurations.get("tuned").tuned_on == note
    from workbench.core.configurations import read_configuration_toml, write_configuration_toml
    write_configuration_toml(s.configurations.get("tuned"), tmp_path / "t.toml")
    assert read_configuration_toml(tmp_path / "t.toml", "bm25").tuned_on == note


def test_b_opens_on_a_configuration_that_differs_and_the_table_shows_every_column(
        qtbot: QtBot, window: Any) -> None:
    """Pinned at the defaults with a second copy of them saved: B is not that copy (it would
    open on "no metric changed") but the first that differs; once picked, B keeps its name.
    The metric table is as wide as its columns: B's Δ, p and ▲/▼ are not scrolled away."""
    assert window.open_path(SAMPLES / "tea-beir", model="bm25")
    s = window.session
    s.recompute()
    s.pin_baseline()
    s.save_configuration("defaults")
    s.set_params({"k1": 0.5, "b": 0.3})
    s.save_configuration("k1 low b low")
    s.set_params({"k1": 2.0, "b": 0.9})
    s.save_configuration("k1 high")
    s.recompute()
    window.resize(1600, 1000)
    view = _open(qtbot, window)
    view.resize(1600, 1000)
    qtbot.wait(20)
    view._show_comparison()
    assert view.comp is not None and view.comp.configs[0].name == "baseline"
    assert view.comp.configs[view.b_index].name == "k1 low b low"
    assert view.b_pick.currentText() == "k1 low b low"
    t = view.table
    assert t.horizontalScrollBar().maximum() == 0, "columns scrolled out of view"
    view.b_pick.setCurrentText("k1 high")
    view.configs.set_checked("defaults", False)  # a new comparison keeps B by name
    assert view.comp.configs[view.b_index].name == "k1 high"
    assert view.configs.list.item(0).text() == "baseline ★"


def test_the_tuned_on_box_is_off_where_no_configuration_was_tuned(qtbot: QtBot,
                                                                   tea: Any) -> None:
    view = _open(qtbot, tea)
    assert not view.all_queries.isEnabled()  # it did nothing, enabled


def test_b_skips_a_configuration_that_ranks_as_the_baseline_does(
        qtbot: QtBot, window: Any) -> None:
    """codeledger: a larger token budget cuts no bundle of the sample, so every figure
    equals the baseline's; B opened on it ("no metric changed") though its values differ."""
    assert window.open_path(SAMPLES / "code-repo", model="codeledger")
    s = window.session
    s.recompute()
    s.pin_baseline()
    s.set_params({"token_budget": 20_000})
    s.save_configuration("budget wide")
    s.set_params({"token_budget": 8000, "w_content": 0.2})
    s.save_configuration("content low")
    s.recompute()
    view = _open(qtbot, window)
    view._show_comparison()
    assert view.comp is not None
    names = [c.name for c in view.comp.configs]
    assert names[:1] == ["baseline"] and "budget wide" in names
    assert view.comp.configs[view.b_index].name == "content low"
    # bundle recall, where Tune starts for codeledger, did not move here: the chart opens on
    # the first metric that did (it had opened on bundle recall, a flat line)
    a, b = view.comp.results[0].per_query, view.comp.results[view.b_index].per_query
    assert np.array_equal(a["bundle_recall"], b["bundle_recall"])
    assert view.metric_name == "ndcg@10" and not np.array_equal(a["ndcg@10"], b["ndcg@10"])
    # a metric the user picks stays picked when the view compares again
    at = view.metric_pick.findData("bundle_recall")
    view.metric_pick.setCurrentIndex(at)
    view.metric_pick.activated.emit(at)  # what a pick in the box sends
    view.compare()
    qtbot.waitUntil(lambda: view.comp is not None and view.status.text().startswith("compared"))
    assert view.metric_name == "bundle_recall"


def test_a_metric_has_one_name_in_every_view(qtbot: QtBot, tea: Any) -> None:
    """nDCG@10 on the cards is nDCG@10 in the Tune form, Metric vs parameter, the compare
    view's pick, table and chart; the code still gets the id (ndcg@10) from each box."""
    from workbench.gui.metric_names import combo_metric

    card = tea.metrics.cards[0].name.text()
    tune, curve = tea.charts.panels["TunePanel"], tea.charts.panels["MetricCurve"]
    tune.rebuild()  # as on showing its tab
    view = _open(qtbot, tea)
    shown = [card, tune.settings.objective.currentText(), curve.metric_box.currentText(),
             view.metric_pick.currentText(), view.table.item(0, 0).text()]
    assert shown == ["nDCG@10"] * 5
    assert view.chart.caption().startswith("nDCG@10: ")
    assert combo_metric(tune.settings.objective) == "ndcg@10"
    assert tune.settings.choices()["objective"] == "ndcg@10"
    assert combo_metric(curve.metric_box) == curve.metric_name == "ndcg@10"
    assert view.metric_name == "ndcg@10"
    # every name the three boxes offer is its label, and each carries its id
    for box in (tune.settings.objective, curve.metric_box, view.metric_pick):
        for i in range(box.count()):
            assert box.itemText(i) != box.itemData(i) or "@" not in box.itemData(i)
    view.metric_pick.setCurrentIndex(view.metric_pick.findData("mrr@10"))
    assert view.metric_name == "mrr@10" and view.chart.caption().startswith("MRR@10: ")


def test_the_view_says_which_fixture_cases_pass(qtbot: QtBot, window: Any) -> None:
    """On pi-lodestone's eval cases the status line gives cases passing per configuration,
    and the metric table's cases row the case min_strong 1 now passes, as `workbench
    compare` does."""
    assert window.open_path(SAMPLES / "decisions-eval", model="decision-memory")
    s = window.session
    s.recompute()
    s.save_configuration("defaults")
    s.set_params({"min_strong": 1})
    s.save_configuration("one")
    view = _open(qtbot, window)
    text = view.status.text()
    assert "cases passing: defaults 20/30, one 21/30" in text, text
    assert "one against defaults: now passes partial-matches-only" in \
        view.table.item(0, 0).toolTip()
    # one case: the verbs singular ("1 case passes … that fail": dr3 10)
    assert view.table.item(0, 5).text() == "1/0"
    assert view.table.item(0, 5).toolTip() == (
        "1 case passes under one that fails under defaults (▲), 0 fail that passed (▼)")


def test_without_judgments_the_view_says_why_no_metric_shows(qtbot: QtBot, window: Any) -> None:
    # the no-judgments line was written, then overwritten by "compared … on 0 judged
    # queries"; the chart under the empty metric table said "No comparison to show"
    assert window.open_path(SAMPLES / "decisions", model="decision-memory")
    s = window.session
    s.recompute()
    s.save_configuration("defaults")
    s.set_params({"inject_min_score": 4})
    s.save_configuration("lower")
    view = _open(qtbot, window)
    assert view.status.text().startswith(
        "compared defaults, lower per query: decisions has no judgments, so no metric")
    assert view.chart.caption().startswith("decisions has no judgments: no metric to compare")
    # the table beside it: how alike the two top k are (it had stood empty under a header)
    assert view.comp is not None
    k = s.k
    a, b = (r.ranking for r in view.comp.results)
    tops = [tuple([int(d) for d in r.docs[q, :min(k, int(r.count[q]))]] for r in (a, b))
            for q in range(len(a.count))]
    # a query neither ranks anything for is counted apart, not as agreeing (7 of 21 here)
    ranked = [(x, y) for x, y in tops if x or y]
    shared = [len(set(x) & set(y)) / max(len(x), len(y)) for x, y in ranked]
    n, empty = len(ranked), len(tops) - len(ranked)
    assert 0 < empty < len(tops)
    assert view.table.cell_texts() == [
        ["documents shared (mean)", f"{sum(shared) / n:.0%}"],
        ["queries: same order", f"{sum(x == y for x, y in ranked)} of {n}"],
        ["queries: same first", f"{sum(x[:1] == y[:1] for x, y in ranked)} of {n}"],
        ["queries: neither ranks any", f"{empty}"]]
    assert f"the table how alike the top {k} are" in view.chart.caption()
    # no key to relevant and judged-not-relevant marks none of the documents can carry
    assert view.lines.legend() == [(None, "not judged (the data has no judgments)")]


def test_in_a_narrow_window_the_explain_pane_waits_for_a_click(qtbot: QtBot, tea: Any) -> None:
    # at 1,024 px ids were cut to "r…d" beside a third of the width of placeholder text
    view = _open(qtbot, tea)
    view.resize(1024, 768)
    qtbot.wait(10)
    assert view.top_split.sizes()[1] == 0
    q = view.lines_query()
    doc = int(view.comp.results[0].ranking.docs[q, 0])  # type: ignore[union-attr]
    view._on_doc(doc)
    assert view.top_split.sizes()[1] > 0 and view.explain.explained is not None
    view.resize(1000, 768)  # explained now: a resize leaves it open
    qtbot.wait(10)
    assert view.top_split.sizes()[1] > 0


def test_a_count_delta_groups_its_thousands_as_its_means_do() -> None:
    # +2345.0 stood beside means printed 12,345.0
    from workbench.gui.compare.metric_table import _count_delta

    assert (_count_delta(2345.0), _count_delta(-2345.04), _count_delta(0.0)) == (
        "+2,345.0", "−2,345.0", "±0")


def test_a_configuration_moved_off_its_tuned_values_loses_tunes_figures(
        qtbot: QtBot, window: Any) -> None:
    # Apply best, a slider moved, Save current as: the compare view and its report still
    # printed tune's held-out figures for values tune never tried
    from workbench.core.tuned_on import TunedOn, values_key

    assert window.open_path(SAMPLES / "tea-beir", model="bm25")
    s = window.session
    s.recompute()
    s.save_configuration("defaults")
    tuned = s.model.schema.resolve({"k1": 2.0, "b": 0.3})
    note = TunedOn("tea-beir", "3-fold over 25 queries (seed 0)",
                   tuple(f"q{i:02d}" for i in range(1, 26)), "ndcg@10", 0.61, 0.62, 0.5, 25,
                   s.dataset.corpus.content_key(), "bm25", values_key("bm25", tuned))
    s.configurations.save("moved", "bm25", {**tuned, "k1": 0.7}, tuned_on=note)
    view = _open(qtbot, window)
    assert view.comp is not None
    text = view.table_note.text()
    assert "'moved': its values differ from those tune wrote (edited since)" in text
    assert "tune's held-out ndcg@10" not in text


def test_the_compare_window_closes_from_the_keyboard(qtbot: QtBot, tea: Any) -> None:
    # only the window manager closed it: Esc left presentation mode, nothing else
    view = _open(qtbot, tea)
    view.show()
    qtbot.waitExposed(view)
    qtbot.keyClick(view, Qt.Key.Key_Escape)
    assert not view.isVisible()
    view.show()
    view.activateWindow()
    qtbot.waitActive(view)
    from PySide6.QtGui import QKeySequence, QShortcut

    (close,) = [sc for sc in view.findChildren(QShortcut)
                if sc.key() == QKeySequence("Ctrl+W")]
    close.activated.emit()  # offscreen, QTest's Ctrl+W never reached this second window's shortcut
    assert not view.isVisible()


def test_a_1024_by_640_window_shows_the_legend_and_the_chart_line_whole(qtbot: QtBot,
                                                                        tea: Any) -> None:
    """At 1,024 × 640 the lists' legend was cut in half by the split, the line under the
    delta chart lost its first and last characters, and the side column held 300 px for a
    checkbox's text."""
    from PySide6.QtGui import QFontMetricsF

    view = _open(qtbot, tea)
    view.resize(1024, 640)
    qtbot.wait(50)
    # the query's two lines and the legend's last whole (measured as drawn: the label's
    # size hint, for a narrower width than it has, had asked 28 px more than it takes)
    label, lines = view.query_label, view.lines
    assert label.height() >= label.heightForWidth(label.width())
    legend = 1.3 if lines._marks_key_inline() is not None else 2.3  # rows under the slots
    assert lines.slot_rect(0).bottom() + legend * lines.row_height <= lines.height()
    need = view.query_label.sizeHint().height() + view.lines.sizeHint().height()
    assert view.controls.minimumSizeHint().width() < 240
    view.chart.grab()  # painted: the line under the bars chosen to fit
    width = QFontMetricsF(view.chart.font()).horizontalAdvance(view.chart.axis_text)
    assert view.chart.axis_text.startswith("25 ") and width <= view.chart.width() - 8
    # a split the user dragged is theirs: a resize leaves it
    view.right_split.setSizes([200, 400])
    view.right_split.splitterMoved.emit(200, 1)
    view.resize(1000, 620)
    qtbot.wait(20)
    assert view.right_split.sizes()[0] < need


def test_long_names_leave_the_figures_in_sight(qtbot: QtBot, window: Any) -> None:
    """Columns are as wide as their headers: two 40-character names pushed B, Δ, p and ▲/▼
    out of the metric table at 1,280 px and every number out of the explain table; and the
    explain pane kept the width a narrow window gave it, its Δ scrolled away at 1,920."""
    assert window.open_path(SAMPLES / "tea-beir", model="bm25")
    s = window.session
    s.recompute()
    s.save_configuration("defaults with the standard lucene settings")
    s.set_params({"k1": 0.9, "b": 0.9})
    s.save_configuration("short docs tuned on the train split, second try")
    s.recompute()
    view = _open(qtbot, window)

    def cut(table: Any) -> list[int]:
        header, room = table.horizontalHeader(), table.viewport().width()
        return [c for c in range(header.count())
                if header.sectionViewportPosition(c) + header.sectionSize(c) > room]

    view.resize(1024, 768)
    qtbot.wait(20)
    q = view.lines_query()
    assert view.comp is not None
    view._on_doc(int(view.comp.results[0].ranking.docs[q, 0]))
    qtbot.wait(20)
    view.resize(1280, 800)
    qtbot.wait(20)
    assert cut(view.table) == [] and cut(view.explain.table) == []
    item = view.explain.table.horizontalHeaderItem(2)
    assert item.text() == "B"  # named in the line above it and in the tooltip
    assert item.toolTip() == "B: short docs tuned on the train split, second try"
    narrow = view.top_split.sizes()[1]
    view.resize(1920, 1080)
    qtbot.wait(20)
    assert view.top_split.sizes()[1] > narrow + 150


def test_at_1280_by_800_the_explain_pane_shows_b_and_its_difference(qtbot: QtBot,
                                                                     window: Any) -> None:
    """Vault search, defaults against min_score 0.3, a document clicked at 1,280 × 800: the
    explain table's B and Δ columns had been cut behind a scroll bar (review F, 8)."""
    assert window.open_path(SAMPLES / "vault", model="vault-search")
    s = window.session
    s.recompute()
    s.save_configuration("defaults")
    s.set_params({"min_score": 0.3})
    s.save_configuration("min_score=0.3")
    s.recompute()
    view = _open(qtbot, window)
    view.resize(1280, 800)
    qtbot.wait(20)
    assert view.comp is not None
    q = view.lines_query()
    view._on_doc(int(view.comp.results[0].ranking.docs[q, 0]))
    qtbot.wait(20)
    table = view.explain.table
    header, room = table.horizontalHeader(), table.viewport().width()
    assert [header.sectionViewportPosition(c) + header.sectionSize(c) <= room
            for c in range(header.count())] == [True] * 4
    assert [table.horizontalHeaderItem(c).text() for c in range(4)] == ["signal", "A", "B",
                                                                       "Δ"]
    assert table.horizontalHeaderItem(3).toolTip() == "Δ: B − A (min_score=0.3 − defaults)"
    assert "A: defaults, rank 1 → B: min_score=0.3, " in view.explain.detail.text()


def test_with_nothing_compared_the_view_says_why_and_offers_nothing_to_act_on(
        qtbot: QtBot, window: Any) -> None:
    """One configuration: ◀ ▶ and Replay had said "no query moved", Present opened blank
    full-screen panes, and the instruction was a small line under the buttons."""
    assert window.open_path(SAMPLES / "tea-beir", model="bm25")
    s = window.session
    s.recompute()
    s.save_configuration("defaults")
    window.config_menu.compare.trigger()
    view = window.compare_window()
    qtbot.waitExposed(view)
    assert view.comp is None
    actions = (view.prev_button, view.next_button, view.replay_button, view.present_button,
               view.export_button)
    assert not any(b.isEnabled() for b in actions)
    assert view.lines.empty_text.startswith("Only 'defaults' to compare: move a slider")
    view.set_presentation(True)  # F11
    assert not view.presenting and view.controls.isVisible()
    s.set_params({"k1": 0.9})
    s.save_configuration("short")
    qtbot.waitUntil(lambda: view.comp is not None)
    assert all(b.isEnabled() for b in actions)
    assert view.lines.comparison is not None
    view.configs.set_checked("short", False)  # back to one: the old comparison goes
    qtbot.waitUntil(lambda: view.comp is None)
    assert view.lines.comparison is None and view.table.rowCount() == 0
    assert not any(b.isEnabled() for b in actions)


def test_a_document_explained_while_presenting_stays_explained_after(qtbot: QtBot,
                                                                     tea: Any) -> None:
    # in a narrow window the explain pane waits folded; one clicked while presenting folded
    # away again when the presentation ended
    view = _open(qtbot, tea)
    view.resize(1024, 700)
    qtbot.wait(20)
    assert view.top_split.sizes()[1] == 0  # folded until a click
    view.set_presentation(True)
    q = view.lines_query()
    assert view.comp is not None
    view._on_doc(int(view.comp.results[0].ranking.docs[q, 0]))
    view.set_presentation(False)
    qtbot.wait(20)
    assert view.explain.explained is not None and view.top_split.sizes()[1] > 0


def test_a_narrow_window_explaining_a_document_lists_a_and_b(qtbot: QtBot, tea: Any) -> None:
    # three lists of about 100 px beside the explain pane showed no ids at 1,024
    view = _open(qtbot, tea)
    view.resize(1024, 700)
    qtbot.wait(20)
    assert view.comp is not None and len(view.comp.configs) == 3
    assert view.lines.columns == [0, 1, 2]  # the pane folded: every list
    q = view.lines_query()
    view._on_doc(int(view.comp.results[0].ranking.docs[q, 0]))
    assert view.lines.columns == [0, view.b_index] and view.top_split.sizes()[1] > 0
    view.resize(1600, 900)
    qtbot.wait(20)
    assert view.lines.columns == [0, 1, 2]


def test_a_long_configuration_name_is_cut_in_its_middle_in_the_list(qtbot: QtBot,
                                                                     window: Any) -> None:
    # it scrolled sideways, the end where names differ ("…second try", "run-2") out of sight
    assert window.open_path(SAMPLES / "tea-beir", model="bm25")
    s = window.session
    s.save_configuration("defaults with the standard lucene settings, first try")
    s.set_params({"k1": 0.9})
    s.save_configuration("defaults with the standard lucene settings, run-2")
    view = _open(qtbot, window)
    lst = view.configs.list
    assert lst.textElideMode() == Qt.TextElideMode.ElideMiddle
    assert lst.horizontalScrollBarPolicy() == Qt.ScrollBarPolicy.ScrollBarAlwaysOff
    assert lst.item(1).toolTip().startswith("defaults with the standard lucene settings, run-2:")


def test_presenting_on_a_small_screen_keeps_the_table_within_half_of_it(
        qtbot: QtBot, tea: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    # on a 1,024-px screen the table's minimum held the window at 1,078 px
    from PySide6.QtCore import QRect

    view = _open(qtbot, tea)
    small = type("Screen", (), {"availableGeometry": lambda self: QRect(0, 0, 1024, 600),
                                "geometry": lambda self: QRect(0, 0, 1024, 640)})()
    monkeypatch.setattr(view, "screen", lambda: small)
    view.set_presentation(True)
    assert view.table.minimumWidth() <= 512
    view.set_presentation(False)


def test_every_list_comes_back_when_nothing_is_explained(qtbot: QtBot, tea: Any) -> None:
    # after another query (its explanation cleared) the narrow view kept showing A and B only
    view = _open(qtbot, tea)
    view.resize(1024, 700)
    qtbot.wait(20)
    assert view.comp is not None
    q = view.lines_query()
    view._on_doc(int(view.comp.results[0].ranking.docs[q, 0]))
    assert view.lines.columns == [0, view.b_index]
    view.step(1)  # the next query: nothing explained
    assert view.explain.explained is None and view.lines.columns == [0, 1, 2]


def test_a_column_that_returned_fewer_than_k_says_not_returned(qtbot: QtBot,
                                                               window: Any) -> None:
    """vault-search with a limit of 5 returns five notes: the lines of A's others went down
    to B's 'below top 10', as if B had ranked them lower."""
    assert window.open_path(SAMPLES / "vault", model="vault-search")
    s = window.session
    s.recompute()
    s.save_configuration("defaults")
    s.set_params({"limit": 5})
    s.save_configuration("five")
    view = _open(qtbot, window)
    lines = view.lines
    a, b = lines._tops[0], lines._tops[1]
    assert len(a) == 10 and len(b) == 5
    gone = next(d for d in a if d not in b)
    tip = lines._tooltip(gone)
    assert "five: not returned (past the limit of 5)" in tip and "defaults: " in tip
