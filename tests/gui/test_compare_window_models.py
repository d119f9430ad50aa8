"""The compare view sets models side by side: a configuration of another model made on the
dataset is listed (named with its model), unchecked until asked for, and once checked runs
with its own model — its figures are that model's own evaluation, and a document that moved
between the two models is explained by each side's own signals, with no difference of
scores."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from tests.gui.conftest import SAMPLES
from workbench.core.comparison import CrossMove
from workbench.core.models import get_model
from workbench.core.pipeline import Pipeline


@pytest.fixture
def tea(window: Any) -> Any:
    """bm25 on tea-beir with two configurations of its own and one of importance."""
    assert window.open_path(SAMPLES / "tea-beir", model="bm25")
    s = window.session
    s.recompute()
    s.save_configuration("defaults")
    s.set_params({"k1": 2.5, "b": 0.1})
    s.save_configuration("flat")
    s.configurations.save("memory", "importance", get_model("importance").schema.defaults())
    s.recompute()
    return window


@pytest.fixture
def code(window: Any) -> Any:
    """codeledger on code-repo with two configurations of its own and one of bm25 (k1 1.5),
    the compare view open at 1,280 × 800 with bm25's checked."""
    assert window.open_path(SAMPLES / "code-repo", model="codeledger")
    s = window.session
    s.recompute()
    s.save_configuration("cl defaults")
    s.set_params({"w_content": 0.5})
    s.save_configuration("cl content .5")
    s.configurations.save("bm25 k1", "bm25", get_model("bm25").schema.resolve({"k1": 1.5}))
    s.recompute()
    window.compare_window().resize(1280, 800)
    window.config_menu.compare.trigger()
    view = window.compare_window()
    view.configs.set_checked("bm25 k1", True)
    assert view.comp is not None and names(view) == ["cl defaults", "cl content .5", "bm25 k1"]
    return window


def names(view: Any) -> list[str]:
    """The configurations the view compares, in its order."""
    return [] if view.comp is None else [c.name for c in view.comp.configs]


def rows(view: Any) -> list[tuple[str, bool]]:
    """The configuration list as it shows: (label, checked) per row."""
    lst = view.configs.list
    return [(lst.item(r).text(), lst.item(r).checkState() == Qt.CheckState.Checked)
            for r in range(lst.count())]


def test_another_models_configuration_is_compared_once_checked(
        qtbot: QtBot, tea: Any) -> None:
    window = tea
    window.compare_window().resize(1280, 800)
    window.config_menu.compare.trigger()
    view = window.compare_window()
    qtbot.waitExposed(view)
    texts = [view.configs.list.item(r).text() for r in range(view.configs.list.count())]
    assert "memory  (importance)" in texts
    # listed, not compared until checked: it prepares a model of its own
    assert view.comp is not None and [c.name for c in view.comp.configs] == ["defaults", "flat"]
    view.configs.set_checked("memory", True)
    comp = view.comp
    assert comp is not None and [c.name for c in comp.configs] == ["defaults", "flat", "memory"]
    assert comp.mixed and comp.model_of(2).id == "importance"
    alone = Pipeline(get_model("importance"), window.session.dataset).run(["ndcg@10"]).means
    assert comp.results[2].means["ndcg@10"] == pytest.approx(alone["ndcg@10"])
    # a move between the two models: each side's own signals, no Δ
    mover = comp.movers(2, k=10, top=1)[0]
    view.explain.show_move(comp, 2, mover.query, mover.doc)
    assert isinstance(view.explain.explained, CrossMove)
    rows = view.explain.values()
    assert rows and all(math.isnan(delta) for _, _, _, delta in rows)
    assert "two models (bm25, importance)" in view.explain.zeros.text()
    cells = [view.explain.table.item(r, c).text() for r in range(view.explain.table.rowCount())
             for c in (1, 2)]
    assert "—" in cells  # a signal the other model does not have
    # unchecking it compares bm25's alone again
    view.configs.set_checked("memory", False)
    assert [c.name for c in view.comp.configs] == ["defaults", "flat"]


def test_another_datasets_configuration_is_not_listed(qtbot: QtBot, tea: Any) -> None:
    s = tea.session
    s.configurations.dataset = "elsewhere"
    s.configurations.save("other data", "importance", get_model("importance").schema.defaults())
    s.configurations.dataset = s.dataset.name
    names = [c.name for c in s.comparable()]
    assert "memory" in names and "other data" not in names
    item = tea.compare_window().configs.list.item(
        tea.compare_window().configs.list.count() - 1)
    assert item.flags() == Qt.ItemFlag.NoItemFlags  # "(1 of other models on other data)"


def test_the_metrics_are_every_models_a_bundles_blank_for_bm25(qtbot: QtBot,
                                                                window: Any) -> None:
    """bm25 open on a repository, a codeledger configuration checked beside it: the table
    has codeledger's bundle rows as well as the ranking metrics both have (bm25's own list
    has no bundle row), the bundle cells blank in bm25's column."""
    assert window.open_path(SAMPLES / "code-repo", model="bm25")
    s = window.session
    s.recompute()
    s.save_configuration("bm25 defaults")
    s.configurations.save("cl defaults", "codeledger",
                          get_model("codeledger").schema.defaults())
    window.compare_window().resize(1280, 800)
    window.config_menu.compare.trigger()
    view = window.compare_window()
    view.configs.set_checked("cl defaults", True)
    assert names(view) == ["bm25 defaults", "cl defaults"]
    table = {row[0]: row for row in view.table.cell_texts()}
    for label in ("bundle recall", "bundle precision", "bundle F1", "bundle files",
                  "bundle tokens"):
        row = table[label]
        # bm25's mean (A, column 1) is a dash; codeledger's (B, column 2) a figure, with no
        # difference or test against a dash
        assert row[1] == "–" and row[2] not in ("", "–"), row
        assert row[3:] == ["", "", ""], row
    assert table["nDCG@10"][1] not in ("", "–")  # a ranking metric: both have it


def test_another_models_configuration_as_the_baseline_is_compared_first(
        qtbot: QtBot, code: Any) -> None:
    """Use as baseline on bm25's row: the view compares everything against it — first in the
    list, checked, marked ★ — as the session and the header say it is the baseline."""
    view = code.compare_window()
    view.configs.use_as_baseline("bm25 k1")
    assert code.session.baseline is not None and code.session.baseline.name == "bm25 k1"
    assert rows(view)[0] == ("bm25 k1 ★ baseline  (bm25)", True)
    assert names(view) == ["bm25 k1", "cl defaults", "cl content .5"]
    assert view.comp is not None and view.comp.model_of(0).id == "bm25"
    # unchecked, it stays unchecked (the user's word), and checked again by a new pin
    view.configs.set_checked("bm25 k1", False)
    assert rows(view)[0] == ("bm25 k1 ★ baseline  (bm25)", False)
    assert names(view) == ["cl defaults", "cl content .5"]
    view.configs.use_as_baseline("bm25 k1")
    assert names(view) == ["bm25 k1", "cl defaults", "cl content .5"]


def test_a_baseline_pinned_on_another_model_is_checked_when_the_view_opens(
        qtbot: QtBot, tea: Any) -> None:
    """The baseline pinned on importance's configuration before the view opens: it is
    compared, first, though another model's rows wait to be checked."""
    view = tea.compare_window()
    view.configs.use_as_baseline("memory")
    view.resize(1280, 800)
    tea.config_menu.compare.trigger()
    qtbot.waitExposed(view)
    assert rows(view)[:3] == [("memory ★ baseline  (importance)", True), ("defaults", True),
                              ("flat", True)]
    assert names(view) == ["memory", "defaults", "flat"]


def test_a_renamed_row_keeps_its_tick(qtbot: QtBot, code: Any) -> None:
    """Renaming a row keeps it as it was, checked or not, and the comparison follows: a
    checked row of another model had shown unchecked and dropped out (shown ticked again by
    the next refresh, still not compared), an unchecked row of the open model come back."""
    view = code.compare_window()
    assert view.configs.rename("bm25 k1", "bm25  tuned")  # kept as "bm25 tuned"
    assert ("bm25 tuned  (bm25)", True) in rows(view)
    assert names(view) == ["cl defaults", "cl content .5", "bm25 tuned"]
    view.configs.refresh()
    assert ("bm25 tuned  (bm25)", True) in rows(view)
    view.configs.set_checked("cl content .5", False)
    assert names(view) == ["cl defaults", "bm25 tuned"]
    assert view.configs.rename("cl content .5", "cl c5")
    assert ("cl c5", False) in rows(view)
    assert names(view) == ["cl defaults", "bm25 tuned"]
    # a name taken: nothing renamed, and the ticks as they were
    assert not view.configs.rename("cl c5", "cl defaults")
    assert ("cl c5", False) in rows(view) and ("cl defaults", True) in rows(view)
    assert names(view) == ["cl defaults", "bm25 tuned"]


def test_the_chart_offers_the_metrics_a_and_b_both_have(qtbot: QtBot, code: Any) -> None:
    """B a bm25 configuration beside codeledger's: no bundle metric in the chart's box (bm25
    selects no bundle: its bundle recall had charted "12 without judgments left out" of 12
    judged tasks); B codeledger's again, the bundle metrics come back, the one picked with
    them."""
    view = code.compare_window()

    def picks() -> list[str]:
        return [view.metric_pick.itemData(i) for i in range(view.metric_pick.count())]

    view.b_pick.setCurrentIndex(0)  # B: cl content .5
    assert "bundle_recall" in picks()
    at = view.metric_pick.findData("bundle_recall")
    view.metric_pick.setCurrentIndex(at)
    view.metric_pick.activated.emit(at)  # what a pick in the box sends
    view.b_pick.setCurrentIndex(1)  # B: bm25 k1
    assert view.comp is not None and view.comp.configs[view.b_index].name == "bm25 k1"
    assert picks() == ["r@10", "ndcg@10", "mrr@10", "p@10", "r@100", "map@100"]
    assert view.metric_name in picks()
    assert "without judgments" not in view.chart.caption()
    assert len(view.chart.bar_queries()) == 12  # every task of code-repo is judged
    view.b_pick.setCurrentIndex(0)
    assert "bundle_recall" in picks() and view.metric_name == "bundle_recall"


def test_the_notes_say_what_a_model_reads_of_the_data(qtbot: QtBot, window: Any,
                                                      tmp_path: Path) -> None:
    """decision-memory beside bm25 on tea-beir, which holds no decision record: the yellow
    note says so and that it returns nothing, as compare does, and the exported report has
    the notes its In short points to."""
    assert window.open_path(SAMPLES / "tea-beir", model="bm25")
    s = window.session
    s.recompute()
    s.save_configuration("bm25")
    s.configurations.save("dm", "decision-memory",
                          get_model("decision-memory").schema.defaults())
    window.compare_window().resize(1280, 800)
    window.config_menu.compare.trigger()
    view = window.compare_window()
    view.configs.set_checked("dm", True)
    assert names(view) == ["bm25", "dm"]
    note = view.table_note.text()
    assert not view.table_note.isHidden()
    assert "no document of tea-beir is a pi-lodestone decision record" in note, note
    assert "dm returns nothing on any of the 25 queries counted: see the warning above" in note
    path = tmp_path / "dm.md"
    assert view.export_report(path)
    text = path.read_text()
    said = text.index("the notes above say why")
    assert -1 < text.index("dm returns nothing on any of the 25 queries counted") < said


def test_switching_to_another_models_row_keeps_the_rows_ticked(qtbot: QtBot,
                                                                code: Any) -> None:
    """Switch to on bm25's row: the model becomes bm25, and the comparison the user had
    ticked stays (codeledger's rows, now another model's, had come back unticked and the
    view said 'check at least two'); a row unticked stays unticked."""
    view = code.compare_window()
    view.configs.switch_to("bm25 k1")
    s = code.session
    assert s.model is not None and s.model.id == "bm25"
    assert rows(view)[:3] == [("bm25 k1", True), ("cl defaults  (codeledger)", True),
                              ("cl content .5  (codeledger)", True)]
    assert names(view) == ["bm25 k1", "cl defaults", "cl content .5"]
    view.configs.set_checked("cl content .5", False)
    s.set_model("codeledger")  # back, from the header's box
    assert ("cl content .5", False) in rows(view)
    assert ("bm25 k1  (bm25)", True) in rows(view)
    assert names(view)[:2] == ["cl defaults", "bm25 k1"]


def test_no_comparison_no_note(qtbot: QtBot, code: Any) -> None:
    """Unticked down to one row, the comparison is gone and so are its yellow note (bm25
    k1's list-length note had stayed on screen) and its B and metric boxes; ticked again,
    B is the one picked before."""
    view = code.compare_window()
    assert not view.table_note.isHidden() and "bm25 k1" in view.table_note.text()
    view.b_pick.setCurrentIndex(1)  # B: bm25 k1
    view.configs.set_checked("cl content .5", False)
    view.configs.set_checked("bm25 k1", False)
    assert view.comp is None
    assert view.table_note.isHidden() and view.table_note.text() == ""
    assert view.b_pick.count() == 0 and view.metric_pick.count() == 0
    view.configs.set_checked("cl content .5", True)
    view.configs.set_checked("bm25 k1", True)
    assert view.comp is not None and view.comp.configs[view.b_index].name == "bm25 k1"
    assert view.b_pick.currentText() == "bm25 k1"


def test_the_live_row_follows_the_open_models_rows(qtbot: QtBot, code: Any) -> None:
    """A slider moved: the live sliders' row, codeledger's, comes after codeledger's saved
    rows and before bm25's (listed last, its column had sat after bm25's)."""
    view = code.compare_window()
    code.session.set_params({"w_content": 0.7})
    assert [text for text, _ in rows(view)] == [
        "cl defaults", "cl content .5", "current (unsaved)", "bm25 k1  (bm25)"]
    assert names(view) == ["cl defaults", "cl content .5", "current (unsaved)", "bm25 k1"]
    # bm25's row the baseline: first, then codeledger's rows, the live row after them
    view.configs.use_as_baseline("bm25 k1")
    assert [text for text, _ in rows(view)] == [
        "bm25 k1 ★ baseline  (bm25)", "cl defaults", "cl content .5", "current (unsaved)"]


def test_a_move_between_two_models_has_no_delta_column(qtbot: QtBot, tea: Any) -> None:
    """Between two models the explain pane has no Δ column (its heading had stood over an
    empty column); between two configurations of one model it has it again."""
    window = tea
    window.compare_window().resize(1280, 800)
    window.config_menu.compare.trigger()
    view = window.compare_window()
    view.configs.set_checked("memory", True)
    comp = view.comp
    assert comp is not None and names(view) == ["defaults", "flat", "memory"]
    explain = view.explain
    mover = comp.movers(2, k=10, top=1)[0]
    explain.show_move(comp, 2, mover.query, mover.doc)
    assert isinstance(explain.explained, CrossMove)
    assert explain.table.isColumnHidden(3) and explain.total_table.isColumnHidden(3)
    assert explain.table.columnWidth(3) == 0  # no room kept for it (`content_width`)
    mover = comp.movers(1, k=10, top=1)[0]  # defaults against flat: both bm25
    explain.show_move(comp, 1, mover.query, mover.doc)
    assert not isinstance(explain.explained, CrossMove)
    assert not explain.table.isColumnHidden(3) and not explain.total_table.isColumnHidden(3)
    assert explain.table.horizontalHeaderItem(3).text() == "Δ"


def test_a_round_trip_to_another_model_gives_back_the_comparison(qtbot: QtBot,
                                                                  code: Any) -> None:
    """codeledger → bm25 → codeledger: a bm25 row never ticked stays unticked (ticks had
    been kept by name and unticks not, so the round trip added it to the comparison)."""
    s = code.session
    s.configurations.save("bm25 d2", "bm25", get_model("bm25").schema.defaults())
    view = code.compare_window()
    before = names(view)
    assert ("bm25 d2  (bm25)", False) in rows(view)
    view.configs.switch_to("bm25 k1")
    view.configs.switch_to("cl defaults")
    assert ("bm25 d2  (bm25)", False) in rows(view)
    assert names(view) == before


def test_undo_of_a_delete_brings_the_row_back_as_it_was(qtbot: QtBot, code: Any) -> None:
    view = code.compare_window()
    view.configs.set_checked("cl content .5", False)
    view.configs.delete("cl content .5")
    view.configs.delete("bm25 k1")
    code.menu_actions.undo.trigger()
    code.menu_actions.undo.trigger()
    assert ("cl content .5", False) in rows(view) and ("bm25 k1  (bm25)", True) in rows(view)
    assert names(view) == ["cl defaults", "bm25 k1"]


def test_a_session_opened_ticks_its_rows_by_their_roles(qtbot: QtBot, code: Any,
                                                        tmp_path: Any) -> None:
    """A session whose open model is bm25, its rows named as the ones on screen: codeledger's
    rows come as another model's, unticked by their role (the rows ticked on screen before
    it opened had passed their ticks on by name)."""
    import json

    from workbench.core.session_file import write_session_file

    path = tmp_path / "s.json"
    write_session_file(code.session, path)
    raw = json.loads(path.read_text())
    raw["model"] = "bm25"
    raw["params"] = dict(get_model("bm25").schema.defaults())
    path.write_text(json.dumps(raw))
    view = code.compare_window()
    assert ("cl defaults", True) in rows(view)  # ticked on screen before
    assert code.menu_actions.load_session_file(str(path))
    assert code.session.model is not None and code.session.model.id == "bm25"
    assert ("cl defaults  (codeledger)", False) in rows(view)
    assert ("cl content .5  (codeledger)", False) in rows(view)


def test_no_comparison_no_boxes_to_pick(qtbot: QtBot, code: Any) -> None:
    view = code.compare_window()
    view.configs.set_checked("cl content .5", False)
    view.configs.set_checked("bm25 k1", False)
    assert view.comp is None
    assert not view.b_pick.isEnabled() and not view.metric_pick.isEnabled()
    view.configs.set_checked("bm25 k1", True)
    assert view.b_pick.isEnabled() and view.metric_pick.isEnabled()


def test_use_as_baseline_ticks_an_unticked_row(qtbot: QtBot, code: Any) -> None:
    """The baseline is what the others are compared with: an unticked row made the baseline
    is ticked and compared first (the status says it is the baseline)."""
    view = code.compare_window()
    view.configs.set_checked("cl content .5", False)
    view.configs.use_as_baseline("cl content .5")
    assert names(view)[0] == "cl content .5"
    assert ("cl content .5 ★ baseline", True) in rows(view)
