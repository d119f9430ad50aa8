"""The Tune tab leaves a min score or limit unticked while the metric is a ranking metric (a
cut drops the end of each ranking, which can only lower it) and ticks it for a metric a cut
can help; where it is all the target can set, the ⊘ note says no setting can gain (reviewer
A, F5: vault-search's default search held Min score over [0, 2], and "Untick those" left a
run of it alone, which could never beat its start)."""

from __future__ import annotations

from pathlib import Path

from conftest import SAMPLES
from pytestqt.qtbot import QtBot

from workbench.core.session import TuningSession
from workbench.gui.metric_names import select_metric
from workbench.gui.tune_panel import TunePanel


def _panel(qtbot: QtBot, sample: str, model: str, storage: Path) -> TunePanel:
    s = TuningSession()
    s.open(SAMPLES / sample)
    s.set_model(model)
    s.recompute()
    w = TunePanel(s)
    qtbot.addWidget(w)
    w.resize(1300, 700)
    w.show()
    qtbot.waitExposed(w)
    w.settings.storage.setText(str(storage))
    return w


def test_min_score_is_left_out_for_ndcg_and_nothing_settable_is_offered(
        qtbot: QtBot, tmp_path: Path) -> None:
    w = _panel(qtbot, "vault", "vault-search", tmp_path / "s.db")
    assert w.settings.objective.currentData() == "ndcg@10"
    ticked = w.checklist.names()
    assert "min_score" not in ticked and "w_tf" in ticked
    assert "can only lower nDCG@10" in w.checklist.rows["min_score"].tick.toolTip()
    note = w.form.ship_note.text()
    assert "obsidian-mcp cannot take as a setting" in note
    assert ("What it can set, Min score, only cuts each ranking's end, which cannot raise "
            "nDCG@10") in note
    # "Untick those" would leave nothing a run could gain by: not offered
    assert w.form.ship_note.isVisible() and not w.form.ship_only.isVisible()


def test_a_ticked_min_score_stays_and_another_ranking_metric_keeps_it_out(
        qtbot: QtBot, tmp_path: Path) -> None:
    w = _panel(qtbot, "vault", "vault-search", tmp_path / "s.db")
    assert select_metric(w.settings.objective, "mrr@10")
    assert "min_score" not in w.checklist.names()
    w.checklist.rows["min_score"].tick.setChecked(True)  # named: searched anyway
    assert select_metric(w.settings.objective, "r@100")
    assert "min_score" in w.checklist.names()


def test_cases_keep_the_inject_min_score_a_ranking_metric_does_not(
        qtbot: QtBot, tmp_path: Path) -> None:
    """On pi-lodestone's eval cases a cut drops forbidden ids: inject min score 0 passes 14
    of 30 cases, 8 passes 20 (`workbench sweep … -s inject_min_score --metrics cases`)."""
    w = _panel(qtbot, "decisions-eval", "decision-memory", tmp_path / "s.db")
    assert w.settings.objective.currentData() == "cases"
    assert "inject_min_score" in w.checklist.names()
    assert w.form.ship_only.isVisible()  # it is what pi-lodestone can set: offered
    assert select_metric(w.settings.objective, "ndcg@10")
    assert "inject_min_score" not in w.checklist.names()
    assert not w.form.ship_only.isVisible()
    assert select_metric(w.settings.objective, "cases")
    assert "inject_min_score" in w.checklist.names() and w.form.ship_only.isVisible()
