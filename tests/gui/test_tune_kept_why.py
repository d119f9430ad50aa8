"""The Tune tab says why the run kept its starting values where the reason is the run's own
(`FoldResult.kept_why`: no trial met the constraints, the Pareto front's start), and carries
a start's verdict as "kept unchanged" only where no setting moved (`start_unchanged`), as
`tune --out` does (rv53 follow-ups 1, 2)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from pytestqt.qtbot import QtBot

from tests.gui.test_tune_kept_saved import GROUNDS
from tests.gui.test_tune_panel import (
    _folds_worse_start_kept,
    _run,
    _session,
    _settings,
    _shown_panel,
)
from workbench.core.tuned_on import TunedOn

WHY = "no trial met the constraints, and the starting values so settled do"


def test_the_verdict_gives_the_runs_own_reason_for_keeping_the_start() -> None:
    from workbench.gui.tune_results import verdict

    result = _folds_worse_start_kept()
    result = replace(result, final=replace(result.final, kept_why=WHY, bound_n=6))
    text = verdict(result, "bundle_recall")
    assert f"keep the starting values</b> — on all the queries {WHY}, so there is nothing" \
        in text, text
    assert "gain was sure" not in text and "is sure" not in text


def test_the_reason_is_said_when_nothing_is_held_out() -> None:
    from workbench.gui.tune_results import verdict

    result = _folds_worse_start_kept()
    result = replace(result, test=None,
                     final=replace(result.final, kept_why=WHY, bound_n=6))
    text = verdict(result, "bundle_recall")
    assert f"<b>kept the starting values</b>: {WHY}" in text, text
    assert "is sure" not in text


def test_a_start_kept_with_a_setting_moved_is_not_carried_as_unchanged(
        qtbot: QtBot, tmp_path: Path) -> None:
    """A start whose record holds no values key (written by hand, or before records kept
    one), kept with a setting moved: the saved record does not say "kept them unchanged"."""
    s = _session("tea-beir", "bm25")
    ds = s.dataset
    assert ds is not None
    record = TunedOn(ds.name, "5-fold over 25 queries (seed 0)", ("q01",), "ndcg@10",
                     corpus=ds.corpus.content_key(), model="bm25",
                     verdict=f"keep the starting values; {GROUNDS}")
    s.set_params({"k1": 2.5, "b": 0.3}, tuned_on=record)
    s.recompute()
    s.configurations.save("flagged", "bm25", dict(s.params), tuned_on=record)
    panel = _shown_panel(qtbot, s, tmp_path / "s.db")
    _settings(panel, trials=3, validation="kfold", pick="bound")
    panel.settings.folds.setValue(2)
    panel.checklist.rows["k1"].high.setValue(0.05)  # type: ignore[union-attr]
    outcome = _run(qtbot, panel)
    assert outcome.result.final.kept_start, panel.status.text()
    assert panel.tuned_on is not None and "kept them unchanged" in panel.tuned_on.verdict
    # the same run, had it moved b to meet a constraint (`FoldResult.start_moved`): what the
    # panel saves with it
    moved = replace(outcome, best={**outcome.best, "b": 0.35},
                    result=replace(outcome.result, final=replace(
                        outcome.result.final, start_moved={"b": 0.35})))
    panel._on_finished(moved)
    assert panel.tuned_on is not None
    assert "kept them unchanged" not in panel.tuned_on.verdict, panel.tuned_on.verdict
    assert panel.tuned_on.verdict.startswith("started from the configuration flagged's "
                                             "values"), panel.tuned_on.verdict
