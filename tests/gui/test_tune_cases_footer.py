"""The Tune tab under a cases metric (decisions-eval) says cases in its footer and training
line, as the rest of the tab does (item 7): it read '3-fold over 30 queries'."""

from __future__ import annotations

import re
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
    # counted as cases passing, as the command line says them (dr6 5)
    assert re.search(r"training \(all cases\): \d+/30 → \d+/30", text), text


def test_the_studies_are_said_in_the_datas_noun(qtbot: QtBot, tmp_path: Path) -> None:
    """dr3 7: the status and plan lines said '(20 × 4 studies: 3 folds, then all queries)'
    over decisions-eval's cases, and the Result 'on all the queries'."""
    w = _shown_panel(qtbot, _session("decisions-eval", "decision-memory"), tmp_path / "s.db")
    _settings(w, trials=2, validation="kfold")
    w.settings.folds.setValue(3)
    for name in w.checklist.names()[1:]:
        w.checklist.rows[name].tick.setChecked(False)
    assert "3 folds, then all cases" in w.settings.budget_note.text()
    _run(qtbot, w)
    assert "3 folds, then all cases" in w.status.text(), w.status.text()
    assert "queries" not in w.view.results.summary.text()


def test_the_kept_starts_best_is_called_the_starts() -> None:
    """dr3 10: 'the best on training, trial 0 (0.7251), is theirs', where the command line
    and the file say the start."""
    from types import SimpleNamespace

    from workbench.gui.tune_results import _picked

    final = SimpleNamespace(top=(0, 0.7251), picked=-1, train_default=[0.7251],
                            kept_start=True, bound_n=6)
    line = _picked(final, "ndcg@10", "best", "tasks")[0]
    assert "the best on training, 0.7251, is the start's" in line and "trial 0" not in line


def test_the_kept_starts_best_under_cases_is_counted_as_cases() -> None:
    """dr6 5: under cases the window said 'the best on training, 0.6667, is the start's',
    where the command line says 'the most training cases passing, 20/30, are the start's'."""
    from types import SimpleNamespace

    from workbench.gui.tune_results import _picked, _share

    final = SimpleNamespace(top=(0, 20 / 30), picked=-1, train_default=[20 / 30],
                            kept_start=True, bound_n=30)
    line = _picked(final, "cases", "best", "cases")[0]
    assert "the most training cases passing, 20/30, are the start's" in line
    assert "0.6667" not in line
    assert _share("cases", 21 / 30, 30) == "21/30" and _share("mrr@10", 0.5, 30) == "0.5000"
