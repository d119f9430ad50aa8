"""What the Tune tab records and refuses about the queries a run's starting values were tuned
on, as `workbench tune` does: the saved record keeps them, a held-out split they cover is
refused, and query texts shared across the two sides are said."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pytestqt.qtbot import QtBot

from tests.test_tune_starts import FIRST, LATER, two_splits, with_twin
from workbench.core.session import TuningSession
from workbench.core.tuned_on import TunedOn
from workbench.gui.tune_panel import TunePanel

RUN_MS = 120_000  # a bound on waiting, not a timing assertion


def _panel(qtbot: QtBot, folder: Path, storage: Path) -> TunePanel:
    s = TuningSession()
    s.open(folder)  # split test
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


def _tuned_start(session: TuningSession, trained_on: list[str]) -> TunedOn:
    """Values applied as Apply best applies them: with the record of the queries they were
    tuned on (here by hand: an earlier run's)."""
    ds = session.dataset
    assert ds is not None
    record = TunedOn(ds.name, "earlier run", tuple(trained_on), "ndcg@10",
                     corpus=ds.corpus.content_key(), model="bm25")
    session.set_params({"k1": 1.0}, tuned_on=record)
    session.recompute()
    return record


def _run(qtbot: QtBot, w: TunePanel, validation: str, trials: int, folds: int = 2) -> Any:
    w.settings.budget.setValue(trials)
    w.settings.validation.setCurrentIndex(w.settings.validation.findData(validation))
    w.settings.pick.setCurrentIndex(w.settings.pick.findData("best"))
    w.settings.folds.setValue(folds)
    with qtbot.waitSignal(w.finished, timeout=RUN_MS) as blocker:
        blocker.connect(w.stopped)
        w.start_button.click()
    return w.outcome


def test_a_run_from_tuned_values_records_the_queries_they_were_tuned_on(
        qtbot: QtBot, tmp_path: Path) -> None:
    # tuned on split train, applied, then tuned again by k-fold on split test: the saved
    # record named test's queries only, so split train's counted as never seen by values
    # grown from them (the command line's --out kept them)
    w = _panel(qtbot, two_splits(tmp_path / "sp"), tmp_path / "s.db")
    _tuned_start(w.session, FIRST)
    # k1 searched above the start's 1.0: the start is no trial, the best one is kept
    w.checklist.rows["k1"].low.setValue(1.5)  # type: ignore[union-attr]
    outcome = _run(qtbot, w, "kfold", trials=3)
    assert outcome is not None and outcome.best and not outcome.result.final.kept_start, \
        w.status.text()
    assert w.tuned_on is not None
    assert set(w.tuned_on.trained_on) == set(FIRST) | set(LATER)
    saved = w.session.configurations.get(w.tuned_name)
    assert saved.tuned_on is not None and set(saved.tuned_on.trained_on) == set(w.tuned_on
                                                                               .trained_on)


def test_a_held_out_split_the_values_in_use_were_tuned_on_is_refused(
        qtbot: QtBot, tmp_path: Path) -> None:
    # the values in use tuned on split test's queries, then "train → test": the run tuned on
    # both splits (the held-out one too) under a held-out validation
    w = _panel(qtbot, two_splits(tmp_path / "sp"), tmp_path / "s.db")
    _tuned_start(w.session, LATER)
    stopped: list[str] = []
    w.stopped.connect(stopped.append)
    _run(qtbot, w, "split:train", trials=2)
    assert w.outcome is None and stopped
    said = w.status.text()
    assert said.startswith("tuning failed: The values in use were tuned on all 15 queries of "
                           "split test, the one held out, by an earlier run: no score there "
                           "would be held out."), said
    assert "Reset all" in said and "validation none" in said
    # where validation none tunes: on split train, not on the queries the values saw
    assert "open split train (File ▸ Split) and choose validation none" in said
    assert "--" not in said  # the window's words, not the command line's


def test_a_training_query_asked_again_under_a_held_out_id_is_said_and_not_tuned_on(
        qtbot: QtBot, tmp_path: Path) -> None:
    # q26 in train is q11 of test again (text and judgments): "train → test" tuned on it and
    # scored q11 as held out, without a word
    w = _panel(qtbot, with_twin(tmp_path / "tw"), tmp_path / "s.db")
    w.checklist.rows["k1"].low.setValue(1.5)  # type: ignore[union-attr]
    outcome = _run(qtbot, w, "split:train", trials=2)
    assert outcome is not None, w.status.text()
    validation = outcome.result.validation
    trained = {outcome.dataset.queries.ids[i] for i in range(len(outcome.dataset.queries))
               if validation.final_train[i]}
    assert trained == set(FIRST)
    assert ("1 training query has the same text and judgments as a held-out one (q26≡q11): "
            "not tuned on") in w.view.results.summary.text()
