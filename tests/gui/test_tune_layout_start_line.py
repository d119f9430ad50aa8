"""The line under the Tune tab's Start says what Start will do, true at every moment (review
dr1, 2026-11-29): it counts the trials the storage holds already of the studies Start would
continue (dr1 2: "Start runs 24 trials" stood over a run that added none, and over a
cancelled one that would add 179)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import optuna
from conftest import SAMPLES
from pytestqt.qtbot import QtBot

from workbench.core.session import TuningSession
from workbench.gui.tune_panel import TunePanel

RUN_MS = 120_000  # a bound on waiting, not a timing assertion
READ_MS = 10_000  # … on the storage being read


def shown_panel(qtbot: QtBot, storage: Path) -> TunePanel:
    s = TuningSession()
    s.open(SAMPLES / "tea-beir")
    s.set_model("bm25")
    s.recompute()
    w = TunePanel(s)
    qtbot.addWidget(w)
    w.resize(1300, 480)
    w.show()
    qtbot.waitExposed(w)
    w.settings.storage.setText(str(storage))
    w.settings.storage.textEdited.emit(w.settings.storage.text())
    return w


def k_fold(panel: TunePanel, trials: int, folds: int) -> None:
    s = panel.settings
    s.budget.setValue(trials)
    s.validation.setCurrentIndex(s.validation.findData("kfold"))
    s.folds.setValue(folds)


def says(qtbot: QtBot, panel: TunePanel, text: str) -> None:
    """Wait for the line under Start to read `text` (the storage is read off the GUI
    thread)."""
    note = panel.settings.budget_note
    qtbot.waitUntil(lambda: note.text() == text, timeout=READ_MS)
    assert note.isVisibleTo(panel)


def run(qtbot: QtBot, panel: TunePanel) -> None:
    with qtbot.waitSignal(panel.finished, timeout=RUN_MS) as blocker:
        blocker.connect(panel.stopped)
        panel.start_button.click()
    assert panel.outcome is not None, panel.status.text()


def stored(db: Path) -> int:
    """The finished trials in every study of `db`, read with optuna itself."""
    url = f"sqlite:///{db}"
    done = (optuna.trial.TrialState.COMPLETE, optuna.trial.TrialState.PRUNED)
    return sum(len(optuna.load_study(study_name=name, storage=url).get_trials(states=done))
               for name in optuna.get_all_study_names(url))


def test_after_a_run_the_line_says_start_adds_none(qtbot: QtBot, tmp_path: Path) -> None:
    """dr1 2 (t1.py): after a run of 4 × 6 studies, Start again ran nothing in 0.7 s under
    'Start runs 24 trials'."""
    panel = shown_panel(qtbot, tmp_path / "s.db")
    k_fold(panel, trials=2, folds=2)
    says(qtbot, panel, "Start runs 6 trials: 2 × 3 studies (2 folds, then all queries)")
    run(qtbot, panel)
    says(qtbot, panel, "Start adds none: the stored studies already hold 6 (2 × 3 studies: 2 "
         "folds, then all queries) — raise the budget to run more")
    assert panel.start_button.isEnabled()  # it may still run: it shows the stored result
    # a larger budget goes on from them: the difference
    panel.settings.budget.setValue(3)
    says(qtbot, panel, "Start adds 3 trials to 6 stored (9 = 3 × 3 studies: 2 folds, then all "
         "queries)")
    run(qtbot, panel)
    assert "3 new, 6 stored before" in panel.status.text()
    # another storage holds none
    other = str(tmp_path / "other.db")
    panel.settings.storage.setText(other)
    panel.settings.storage.textEdited.emit(other)
    says(qtbot, panel, "Start runs 9 trials: 3 × 3 studies (2 folds, then all queries)")
    assert not (tmp_path / "other.db").exists()  # read, not made


def test_other_starting_values_are_another_study(qtbot: QtBot, tmp_path: Path) -> None:
    """A slider moved is another study (its name holds the values tuned from): its stored
    trials are read again."""
    panel = shown_panel(qtbot, tmp_path / "s.db")
    k_fold(panel, trials=2, folds=2)
    run(qtbot, panel)
    says(qtbot, panel, "Start adds none: the stored studies already hold 6 (2 × 3 studies: 2 "
         "folds, then all queries) — raise the budget to run more")
    panel.session.set_params({"k1": 0.9})
    says(qtbot, panel, "Start runs 6 trials: 2 × 3 studies (2 folds, then all queries)")
    panel.session.undo()
    says(qtbot, panel, "Start adds none: the stored studies already hold 6 (2 × 3 studies: 2 "
         "folds, then all queries) — raise the budget to run more")


def test_after_cancel_the_line_counts_what_the_run_stored(qtbot: QtBot,
                                                         tmp_path: Path) -> None:
    """dr1 2 (t3.py): cancelled after 61 trials of 40 × 6 studies, the line still read 'Start
    runs 240 trials'; the next Start ran 179."""
    db = tmp_path / "s.db"
    panel = shown_panel(qtbot, db)
    k_fold(panel, trials=4, folds=2)
    says(qtbot, panel, "Start runs 12 trials: 4 × 3 studies (2 folds, then all queries)")
    reports: list[Any] = []

    def on_trial(report: Any) -> None:
        reports.append(report)
        if len(reports) == 5:  # in the second study
            panel.cancel()

    panel.trial_done.connect(on_trial)
    with qtbot.waitSignal(panel.stopped, timeout=RUN_MS):
        panel.start_button.click()
    panel.trial_done.disconnect(on_trial)
    held = stored(db)
    assert 5 <= held < 12
    says(qtbot, panel, f"Start adds {12 - held} trials to {held} stored (12 = 4 × 3 studies: 2 "
         "folds, then all queries)")
    run(qtbot, panel)
    assert f"{12 - held} new, {held} stored before" in panel.status.text()


def test_while_a_run_goes_on_the_line_speaks_of_it(qtbot: QtBot, tmp_path: Path) -> None:
    panel = shown_panel(qtbot, tmp_path / "s.db")
    k_fold(panel, trials=2, folds=2)
    says(qtbot, panel, "Start runs 6 trials: 2 × 3 studies (2 folds, then all queries)")
    lines: list[str] = []
    panel.trial_done.connect(lambda _: lines.append(panel.settings.budget_note.text()))
    run(qtbot, panel)
    assert lines and set(lines) == {
        "This run adds 6 trials: 2 × 3 studies (2 folds, then all queries)"}
    says(qtbot, panel, "Start adds none: the stored studies already hold 6 (2 × 3 studies: 2 "
         "folds, then all queries) — raise the budget to run more")

