"""The line under the Tune tab's Start says what Start will do, true at every moment (review
dr1, 2026-11-29): after a run or a Cancel it counts what that run left stored in the studies
Start would continue (dr1 2: "Start runs 24 trials" stood over a run that added none, and
over a cancelled one that would add 179); before, it says "up to", for the storage is not
opened before Start (dr4 1-5: reading it had written to a file and hung on a silent
server)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import optuna
from conftest import SAMPLES
from pytestqt.qtbot import QtBot

from workbench.core.session import TuningSession
from workbench.gui.tune_panel import TunePanel

RUN_MS = 120_000  # a bound on waiting, not a timing assertion
READ_MS = 10_000  # … on the line being said


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
    """Wait for the line under Start to read `text`."""
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
    says(qtbot, panel, "Start runs up to 6 trials: 2 × 3 studies (2 folds, then all queries)")
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
    says(qtbot, panel, "Start runs up to 9 trials: 3 × 3 studies (2 folds, then all queries)")
    assert not (tmp_path / "other.db").exists()  # not made


def test_other_starting_values_are_another_study(qtbot: QtBot, tmp_path: Path) -> None:
    """A slider moved is another study (its name holds the values tuned from): its stored
    trials are read again."""
    panel = shown_panel(qtbot, tmp_path / "s.db")
    k_fold(panel, trials=2, folds=2)
    run(qtbot, panel)
    says(qtbot, panel, "Start adds none: the stored studies already hold 6 (2 × 3 studies: 2 "
         "folds, then all queries) — raise the budget to run more")
    panel.session.set_params({"k1": 0.9})
    says(qtbot, panel, "Start runs up to 6 trials: 2 × 3 studies (2 folds, then all queries)")
    panel.session.undo()
    says(qtbot, panel, "Start adds none: the stored studies already hold 6 (2 × 3 studies: 2 "
         "folds, then all queries) — raise the budget to run more")


def test_after_cancel_the_line_counts_what_the_run_stored(qtbot: QtBot,
                                                         tmp_path: Path) -> None:
    """dr1 2 (t3.py): cancelled after 61 trials of 40 × 6 studies, the line still read 'Start
    runs 240 trials'; the next Start ran 179."""
    db = tmp_path / "s.db"
    panel = shown_panel(qtbot, db)
    k_fold(panel, trials=20, folds=2)
    says(qtbot, panel, "Start runs up to 60 trials: 20 × 3 studies (2 folds, then all queries)")
    reports: list[Any] = []

    def on_trial(report: Any) -> None:
        reports.append(report)
        if len(reports) == 25:  # in the second study
            panel.cancel()

    panel.trial_done.connect(on_trial)
    with qtbot.waitSignal(panel.stopped, timeout=RUN_MS):
        panel.start_button.click()
    panel.trial_done.disconnect(on_trial)
    held = stored(db)
    # the worker may run on a few trials before the cancel reaches it (under load it ran 4)
    assert 25 <= held < 60
    if held < 40:  # the third study not reached: what it holds is not known
        says(qtbot, panel, f"Start adds up to {60 - held} trials to {held} stored in 2 of 3 "
             "studies (20 × 3 studies: 2 folds, then all queries)")
    else:
        says(qtbot, panel, f"Start adds {60 - held} trials to {held} stored (60 = 20 × 3 "
             "studies: 2 folds, then all queries)")
    run(qtbot, panel)
    assert f"{60 - held} new, {held} stored before" in panel.status.text()


def test_while_a_run_goes_on_the_line_speaks_of_it(qtbot: QtBot, tmp_path: Path) -> None:
    panel = shown_panel(qtbot, tmp_path / "s.db")
    k_fold(panel, trials=2, folds=2)
    says(qtbot, panel, "Start runs up to 6 trials: 2 × 3 studies (2 folds, then all queries)")
    lines: list[str] = []
    panel.trial_done.connect(lambda _: lines.append(panel.settings.budget_note.text()))
    run(qtbot, panel)
    assert lines and set(lines) == {
        "This run adds up to 6 trials: 2 × 3 studies (2 folds, then all queries)"}
    says(qtbot, panel, "Start adds none: the stored studies already hold 6 (2 × 3 studies: 2 "
         "folds, then all queries) — raise the budget to run more")


def test_a_slider_moved_during_a_run_leaves_its_line(qtbot: QtBot, tmp_path: Path) -> None:
    """dr4 7 (s18.py): k1 moved at the 10th trial turned 'This run adds 216 trials to 24
    stored' into 'This run adds up to 240 trials'; the run added 216."""
    panel = shown_panel(qtbot, tmp_path / "s.db")
    k_fold(panel, trials=2, folds=2)
    run(qtbot, panel)
    panel.settings.budget.setValue(4)
    says(qtbot, panel, "Start adds 6 trials to 6 stored (12 = 4 × 3 studies: 2 folds, then all "
         "queries)")
    lines: list[str] = []

    def on_trial(_: Any) -> None:
        if not lines:
            panel.session.set_params({"k1": 1.5})
        lines.append(panel.settings.budget_note.text())

    panel.trial_done.connect(on_trial)
    run(qtbot, panel)
    assert len(lines) == 6 and set(lines) == {
        "This run adds 6 trials to 6 stored (12 = 4 × 3 studies: 2 folds, then all queries)"}
    assert "6 new, 6 stored before" in panel.status.text()
    # k1 moved names other studies: what they hold is not known
    says(qtbot, panel, "Start runs up to 12 trials: 4 × 3 studies (2 folds, then all queries)")


def test_a_grid_says_its_size_not_the_budget(qtbot: QtBot, tmp_path: Path) -> None:
    """dr1 3 (t4.py): with the grid sampler the line read 'Start runs 18 trials: 3 × 6
    studies' while the run went through 3,843 points a study ('trial 1/3843')."""
    panel = shown_panel(qtbot, tmp_path / "s.db")
    s = panel.settings
    s.budget.setValue(3)
    s.sampler.setCurrentText("grid")
    # k1 0–3 and b 0–1 in steps of 0.05, three variants: 61 × 21 × 3
    says(qtbot, panel, "Start runs what is not stored yet of the grid: 3,843 points × 6 studies "
         "= 23,058 trials (5 folds, then all queries); the budget does not apply to a grid")
    rows = panel.checklist.rows
    for name, low, high in (("k1", 1.0, 1.1), ("b", 0.7, 0.75)):  # 3 × 2 points
        spin_low, spin_high = rows[name].low, rows[name].high
        assert spin_low is not None and spin_high is not None
        spin_low.setValue(low)
        spin_high.setValue(high)
    k_fold(panel, trials=3, folds=2)
    says(qtbot, panel, "Start runs what is not stored yet of the grid: 18 points × 3 studies = "
         "54 trials (2 folds, then all queries); the budget does not apply to a grid")
    run(qtbot, panel)
    assert panel.status.text().startswith("done: 54 trials (18 × 3 studies")
    says(qtbot, panel, "Start adds none: the stored studies already hold every point of the "
         "grid: 18 points × 3 studies = 54: 2 folds, then all queries")


def test_what_start_cannot_run_is_said_and_start_is_off(qtbot: QtBot, tmp_path: Path) -> None:
    """dr1 3 (t9.py): code-repo with k = 15 read 'Start runs 48 trials: 3 × 16 studies', then
    Start failed: '15 folds need at least 15 judged queries; there are 12'. A grid over
    codeledger's parameters is far past what a run takes: said too."""
    s = TuningSession()
    s.open(SAMPLES / "code-repo")
    s.set_model("codeledger")
    s.recompute()
    panel = TunePanel(s)
    qtbot.addWidget(panel)
    panel.resize(1300, 480)
    panel.show()
    qtbot.waitExposed(panel)
    panel.settings.storage.setText(str(tmp_path / "s.db"))
    # the data's noun, as the rest of the tab says it (task 4 of r50)
    k_fold(panel, trials=3, folds=15)
    note = panel.settings.budget_note
    assert note.text() == ("15 folds need at least 15 judged tasks; this data has 12: set k to "
                           "12 or less")
    assert note.isVisibleTo(panel) and not panel.start_button.isEnabled()
    panel.settings.folds.setValue(12)
    # the data's noun (dr3 7)
    says(qtbot, panel, "Start runs up to 39 trials: 3 × 13 studies (12 folds, then all "
         "tasks)")
    assert panel.start_button.isEnabled()
    # the grid over every parameter ticked: refused by the run, said here first
    panel.settings.sampler.setCurrentText("grid")
    qtbot.waitUntil(lambda: note.text().startswith("the grid has "), timeout=READ_MS)
    assert "points, more than the 100,000 a run takes: tick fewer parameters" in note.text()
    assert not panel.start_button.isEnabled()
    first = next(iter(panel.checklist.rows))
    panel.checklist.untick(set(panel.checklist.rows) - {first})
    qtbot.waitUntil(lambda: note.text().startswith("Start runs what is not stored yet of the "
                                                   "grid: "), timeout=READ_MS)
    assert panel.start_button.isEnabled()


def test_after_a_run_of_one_study_the_line_does_not_blink(qtbot: QtBot, tmp_path: Path) -> None:
    """With one study (validation none) the line is blank while nothing is stored, and it
    went blank a moment after each run, until the storage was read: the run's own count
    says what the study holds."""
    panel = shown_panel(qtbot, tmp_path / "s.db")
    s = panel.settings
    s.budget.setValue(2)
    s.validation.setCurrentIndex(s.validation.findData("none"))
    qtbot.wait(300)
    assert not s.budget_note.isVisibleTo(panel)
    with qtbot.waitSignal(panel.finished, timeout=RUN_MS):
        panel.start_button.click()
    assert s.budget_note.text() == ("Start adds none: the stored study already holds 2 — "
                                    "raise the budget to run more")


def test_the_storage_is_not_touched_before_start(qtbot: QtBot, tmp_path: Path) -> None:
    """dr4 5 (s4.py): typing the path of a study file plain optuna made switched it to WAL,
    added workbench's index and held connections open, before Start; dr4 1: a silent
    server hung the window's closing. Nothing is opened before Start now: a file that does
    not exist stays so, an existing one keeps its bytes and time, nothing beside it is made."""
    plain = tmp_path / "plain.db"
    optuna.create_study(study_name="theirs", storage=f"sqlite:///{plain}")
    before = (plain.read_bytes(), plain.stat().st_mtime_ns)
    made = sorted(p.name for p in tmp_path.iterdir())
    panel = shown_panel(qtbot, plain)
    k_fold(panel, trials=2, folds=2)
    panel.settings.sampler.setCurrentText("random")
    panel.session.set_params({"k1": 1.1})
    qtbot.wait(500)  # a reader would have read by now (it waited 150 ms)
    missing = tmp_path / "sub" / "none.db"
    panel.settings.storage.setText(str(missing))
    panel.settings.storage.textEdited.emit(str(missing))
    panel.settings.budget.setValue(3)
    qtbot.wait(500)
    assert (plain.read_bytes(), plain.stat().st_mtime_ns) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == made  # no -wal, -shm, lock, sub/
    assert not missing.exists()
    says(qtbot, panel, "Start runs up to 9 trials: 3 × 3 studies (2 folds, then all queries)")


def test_a_setting_changed_after_a_run_says_up_to(qtbot: QtBot, tmp_path: Path) -> None:
    """What the run left is known only of its own studies: another metric, sampler or seed
    makes others, and the line goes back to "up to"; the budget does not."""
    panel = shown_panel(qtbot, tmp_path / "s.db")
    k_fold(panel, trials=2, folds=2)
    run(qtbot, panel)
    done = ("Start adds none: the stored studies already hold 6 (2 × 3 studies: 2 folds, then "
            "all queries) — raise the budget to run more")
    says(qtbot, panel, done)
    s = panel.settings
    up_to = ("Start runs up to 6 trials: 2 × 3 studies (2 folds, then all queries)")
    s.seed.setValue(s.seed.value() + 1)
    says(qtbot, panel, up_to)
    s.seed.setValue(s.seed.value() - 1)
    says(qtbot, panel, done)  # the run's own studies again
    s.sampler.setCurrentText("random")
    says(qtbot, panel, up_to)


def test_a_dataset_read_again_is_not_another_one(qtbot: QtBot, tmp_path: Path) -> None:
    """dr4 (s8.py): re-opening tea-beir after a run said "Another dataset was opened (the run
    tuned on tea-beir)" and turned Apply off; the line goes back to "up to" all the same (a
    new dataset: the window does not know what its studies hold)."""
    panel = shown_panel(qtbot, tmp_path / "s.db")
    k_fold(panel, trials=2, folds=2)
    run(qtbot, panel)
    assert panel.apply_button.isEnabled() or "nothing to apply" in panel.status.text()
    panel.session.open(SAMPLES / "tea-beir")
    panel.session.set_model("bm25")
    panel.session.recompute()
    qtbot.wait(100)
    assert not panel.status.text().startswith("Another dataset"), panel.status.text()
    panel.session.open(SAMPLES / "code-repo")
    qtbot.wait(100)
    assert "another dataset was opened" in panel.status.text().lower() \
        or not panel.form_area.isVisible()


def test_the_line_adds_up_and_counts_one_trial() -> None:
    """dr4 6 (s19.py): studies holding 50, 59, 54, 69, 58 and 55 at a budget of 55 read
    'Start adds 6 trials to 345 stored (330 = 55 × 6 studies …)'; dr4 8: 'adds 1 trials';
    dr4 10: '2.9 × 10^190 points'."""
    from workbench.gui.tune_plan import budget_line, too_large

    line = budget_line(6, 55, stored=[50, 59, 54, 69, 58, 55])
    assert line == ("Start adds 6 trials to 345 stored (up to 55 in each of 6 studies: 5 folds, "
                    "then all queries; 3 of them hold more already)")
    assert budget_line(1, 5, stored=[4]) == "Start adds 1 trial to 4 stored (5 in all)"
    assert budget_line(3, 4, stored=[4, 2, None]) == (
        "Start adds up to 6 trials to 6 stored in 2 of 3 studies (4 × 3 studies: 2 folds, then "
        "all queries)")
    assert budget_line(3, 4, stored=[4, 4, 3]) == (
        "Start adds 1 trial to 11 stored (12 = 4 × 3 studies: 2 folds, then all queries)")
    said = too_large(29 * 10**189)
    assert said.startswith("the grid has 2.9 × 10¹⁹⁰ points, more than the 100,000")
