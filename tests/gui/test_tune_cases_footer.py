"""The Tune tab under a cases metric (decisions-eval) says cases in its footer and training
line, as the rest of the tab does (item 7): it read '3-fold over 30 queries'."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from tests.gui.test_tune_panel import _run, _session, _settings, _shown_panel


def test_k_fold_over_cases_is_said_in_cases(qtbot: QtBot, tmp_path: Path) -> None:
    w = _shown_panel(qtbot, _session("decisions-eval", "decision-memory"), tmp_path / "s.db")
    assert w.settings.objective.currentData() == "cases"
    _settings(w, trials=2, validation="kfold")
    w.settings.folds.setValue(3)
    names = w.checklist.names()
    for name in names[1:]:  # one parameter: a short run
        w.checklist.rows[name].tick.setChecked(False)
    _run(qtbot, w)
    text = w.view.results.summary.text()
    assert "3-fold over 30 cases (seed 0)" in text, text
    assert "training (all cases)" in text and "queries" not in text
