"""A Tune-tab run that keeps the starting values is saved with its record, as `tune --out`
writes one (dr8 3), and keeps the verdict of a start its own run advised against, by the rule
`tune --out` follows (T4)."""

from __future__ import annotations

import tomllib
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pytestqt.qtbot import QtBot

from tests.gui.test_tune_panel import _run, _session, _settings, _shown_panel
from workbench.core.configurations import configuration_toml
from workbench.core.tuned_on import TunedOn, values_key

# what a k-fold run that advised against k1 2.5, b 0.3 on tea-beir wrote as its verdict
GROUNDS = "tuning this way gained nothing held out (k-fold estimate, ndcg@10 0.6131 → 0.6111)"


def _kept_run(qtbot: QtBot, tmp_path: Path, verdict: str) -> tuple[str, dict[str, object]]:
    """A 2-fold run from k1 2.5, b 0.3 (a saved configuration "flagged" carrying `verdict`)
    that searches k1 in [0, 0.05] only, far below the start: no trial's gain is sure, so the
    start is kept. The saved configuration's TOML and its [tuned] table."""
    panel, s = _kept_panel(qtbot, tmp_path, verdict)
    text = configuration_toml(s.configurations.get(panel.tuned_name))
    return text, tomllib.loads(text)["tuned"]


def _kept_panel(qtbot: QtBot, tmp_path: Path, verdict: str, owner: str = "") -> Any:
    """`_kept_run`'s panel and session, after the run."""
    s = _session("tea-beir", "bm25")
    ds = s.dataset
    assert ds is not None
    values = {"k1": 2.5, "b": 0.3}
    record = TunedOn(ds.name, "5-fold over 25 queries (seed 0)", ("q01",), "ndcg@10",
                     corpus=ds.corpus.content_key(), model="bm25",
                     values=values_key("bm25", {**s.params, **values}), verdict=verdict,
                     owner=owner)
    s.set_params(values, tuned_on=record)
    s.recompute()
    s.configurations.save("flagged", "bm25", dict(s.params), tuned_on=record)
    panel = _shown_panel(qtbot, s, tmp_path / "s.db")
    _settings(panel, trials=3, validation="kfold", pick="bound")
    panel.settings.folds.setValue(2)
    panel.checklist.rows["k1"].high.setValue(0.05)  # type: ignore[union-attr]
    outcome = _run(qtbot, panel)
    assert outcome.result.final.kept_start, panel.status.text()  # the case under test
    assert not panel.apply_button.isEnabled()
    assert panel.tuned_name == "kept start (nDCG@10)", panel.status.text()
    assert f"saved as the configuration {panel.tuned_name}" in panel.status.text()
    return panel, s


def test_a_kept_start_is_saved_with_its_record(qtbot: QtBot, tmp_path: Path) -> None:
    """dr8 3: the run left nothing: Save current and Export wrote no [tuned] record, while
    `tune --out` records the held-out figures and how the run went."""
    text, tuned = _kept_run(qtbot, tmp_path, "")
    assert tuned["kept_trial"] == "start" and tuned["pick"] == "bound"
    # q01, which the start was tuned on, is set aside: 24 of tea-beir's 25 held out
    assert tuned["held_out_queries"] == 24
    assert tuned["held_out_start_score"] == tuned["held_out_tuned"]
    assert tuned["validation"].startswith("2-fold over 25 queries")
    # whose starting values scored held_out_start_score: the configuration's, not the defaults'
    assert tuned["held_out_start"] == "the configuration flagged's"
    assert "verdict" not in tuned  # a start with no verdict: none carried
    assert tomllib.loads(text)["params"]["k1"] == 2.5


def test_a_kept_flagged_start_carries_its_verdict(qtbot: QtBot, tmp_path: Path) -> None:
    """T4: kept unchanged from a configuration its run advised against, the values were saved
    clean (nothing was saved at all), where `tune --params FILE --out` carries the verdict."""
    _text, tuned = _kept_run(qtbot, tmp_path, f"keep the starting values; {GROUNDS}")
    assert tuned["verdict"] == (
        "keep the values the configuration flagged's run started from, not these; the "
        f"configuration flagged's run advised against them: {GROUNDS}; a run from the "
        "configuration flagged kept them unchanged")


def test_a_rerun_from_the_same_start_credits_its_configuration_and_adds_no_copy(
        qtbot: QtBot, tmp_path: Path) -> None:
    """dr3 3, 9: a second run from the flagged values, adding no trial, credited the verdict
    to the first run's own save ('kept start (nDCG@10)''s run advised against them') and
    saved an identical 'kept start (nDCG@10) (2)'. dr3 4: the Result pane's headline said
    'keep the starting values' where the record says not to."""
    panel, s = _kept_panel(qtbot, tmp_path, f"keep the starting values (the model's defaults); "
                           f"{GROUNDS}", owner="the model's defaults")
    first = s.configurations.get(panel.tuned_name)
    assert first.tuned_on is not None
    verdict = first.tuned_on.verdict
    assert verdict == ("keep the values the configuration flagged's run started from (the "
                       "model's defaults), not these; the configuration flagged's run advised "
                       f"against them: {GROUNDS}; a run from the configuration flagged kept "
                       "them unchanged")
    summary = panel.view.results.summary.text()
    assert "keep the starting values</b>" not in summary
    assert "kept the starting values, but not recommended</b> — keep the values the " \
        "configuration flagged&#x27;s run started from" in summary, summary
    # one undo step: Edit ▸ Undo takes the save back, Redo puts it back
    assert s.undo_name == "save \u201ckept start (nDCG@10)\u201d"
    names = s.configurations.names
    s.undo()
    assert "kept start (nDCG@10)" not in s.configurations.names
    s.redo()
    assert s.configurations.names == names
    # again, from the same values: nothing new to save, and cl's record still the one carried
    outcome = _run(qtbot, panel)
    assert outcome.result.final.kept_start
    assert s.configurations.names == names, panel.status.text()
    assert panel.tuned_name == "kept start (nDCG@10)"
    assert "already saved as the configuration kept start (nDCG@10), from the run of " in \
        panel.status.text()


def test_a_start_moved_off_its_configuration_is_credited_with_the_moves(
        qtbot: QtBot, tmp_path: Path) -> None:
    """dr6 2: sliders moved off a flagged configuration's values kept its record, and the run
    credited the configuration with figures its values never scored ('the configuration
    'clnew''s'), where `tune -p` says 'clnew.toml's with -p …'. dr6 3: a name was written as
    Python's repr ('it\\'s "q"''s), where the command line writes it as it is."""
    s = _session("tea-beir", "bm25")
    ds = s.dataset
    assert ds is not None
    values = {"k1": 2.5, "b": 0.3}
    record = TunedOn(ds.name, "5-fold over 25 queries (seed 0)", ("q01",), "ndcg@10",
                     corpus=ds.corpus.content_key(), model="bm25",
                     values=values_key("bm25", {**s.params, **values}),
                     verdict=f"keep the starting values (the model's defaults); {GROUNDS}",
                     owner="the model's defaults")
    s.set_params(values, tuned_on=record)
    s.recompute()
    name = 'it\'s "q"'
    s.configurations.save(name, "bm25", dict(s.params), tuned_on=record)
    s.set_param("b", 0.35)  # a slider: the record stays, the values leave the configuration's
    panel = _shown_panel(qtbot, s, tmp_path / "s.db")
    _settings(panel, trials=3, validation="kfold", pick="bound")
    panel.settings.folds.setValue(2)
    panel.checklist.rows["k1"].high.setValue(0.05)  # type: ignore[union-attr]
    _run(qtbot, panel)
    tuned = tomllib.loads(configuration_toml(s.configurations.get(panel.tuned_name)))["tuned"]
    assert tuned["held_out_start"] == 'the configuration it\'s "q"\'s with b=0.35'
    # its record's advice is not of these values: not carried
    assert "advised against" not in tuned.get("verdict", "")
    assert f"saved as the configuration {panel.tuned_name}" in panel.status.text()
    assert "\\" not in panel.status.text()


def test_undoing_the_save_says_so(qtbot: QtBot, tmp_path: Path) -> None:
    """dr6 8: after Edit ▸ Undo took the automatic save back, the status still said 'saved as
    …' and the panel named it as the run's."""
    panel, s = _kept_panel(qtbot, tmp_path, "")
    saved = panel.tuned_name
    s.undo()
    assert saved not in s.configurations.names and panel.tuned_name == ""
    assert f"saved as the configuration {saved} (undone)" in panel.status.text()
    s.redo()
    assert panel.tuned_name == saved
    assert "(undone)" not in panel.status.text()
    assert f"saved as the configuration {saved}" in panel.status.text()


def _dated_long_ago(s: Any, name: str) -> Any:
    """The configuration `name` with its record's `created` set to 2025 (the first run, as
    one of long ago), as it is now saved."""
    first = s.configurations.get(name)
    assert first.tuned_on is not None
    old = tuple((k, '"2025-01-02T03:04:05Z"' if k == "created" else v)
                for k, v in first.tuned_on.run)
    s.configurations.save(first.name, first.model_id, first.params, replace=True,
                          tuned_on=replace(first.tuned_on, run=old))
    return s.configurations.get(name)


def test_a_rerun_that_ran_no_trial_leaves_the_record_as_it_was(
        qtbot: QtBot, tmp_path: Path) -> None:
    """r51 dr3 8: a rerun whose studies already held its budget ran nothing, yet re-dated the
    record to itself (its first run's date lost), outside the undo history (dr3 1)."""
    panel, s = _kept_panel(qtbot, tmp_path, "")
    first = _dated_long_ago(s, panel.tuned_name)
    names, undo = s.configurations.names, s.undo_name
    outcome = _run(qtbot, panel)
    assert outcome.result.final.kept_start
    assert "none new" in panel.status.text()
    assert s.configurations.names == names  # no copy
    assert s.configurations.get(first.name) == first  # the record as the first run left it
    tuned = tomllib.loads(configuration_toml(first))["tuned"]
    assert tuned["created"] == "2025-01-02T03:04:05Z"
    assert s.undo_name == undo  # no step added
    assert (f"already saved as the configuration {first.name}, from the run of "
            "2025-01-02T03:04:05Z; nothing new to save") in panel.status.text()
    assert panel.tuned_name == first.name
    # removed (as Undo of the first run's save removes it; the rerun left no step), said so
    s.configurations.remove(first.name)
    assert panel.tuned_name == ""
    assert f"already saved as the configuration {first.name} (undone)" in panel.status.text()


def test_a_rerun_with_new_trials_dates_its_record_to_itself_as_one_undo_step(
        qtbot: QtBot, tmp_path: Path) -> None:
    """r51 3: a rerun that found the kept start saved already added no copy, and left the
    configuration's record dated to the first run: its exported [tuned] said nothing of the
    run that had just confirmed it, nor when. r51 dr3 1: dated outside the undo history, Edit ▸
    Undo named the first run's save, did nothing and dropped the step."""
    panel, s = _kept_panel(qtbot, tmp_path, "")
    first = _dated_long_ago(s, panel.tuned_name)
    names = s.configurations.names
    panel.settings.budget.setValue(5)  # 2 more trials in each study
    before = datetime.now(UTC).replace(microsecond=0)
    outcome = _run(qtbot, panel)
    assert outcome.result.final.kept_start
    assert s.configurations.names == names, panel.status.text()  # still no copy
    tuned = tomllib.loads(configuration_toml(s.configurations.get(first.name)))["tuned"]
    created = datetime.fromisoformat(tuned["created"].replace("Z", "+00:00"))
    assert before <= created <= datetime.now(UTC), tuned["created"]
    assert tuned["kept_trial"] == "start"
    assert tuned["trials"] == {"fold 1 of 2": 5, "fold 2 of 2": 5, "all": 5}
    dated = f"now dated to this run ({tuned['created']})"
    assert (f"not saved again: the configuration {first.name} holds these values and this "
            f"record, {dated}") in panel.status.text()
    assert s.undo_name == f"rerun record of \u201c{first.name}\u201d"
    s.undo()  # the first run's record back, said so
    assert s.configurations.get(first.name) == first
    assert s.redo_name == f"rerun record of \u201c{first.name}\u201d"
    assert dated not in panel.status.text()
    assert (f"the configuration {first.name} holds these values and its earlier record (from "
            "the run of 2025-01-02T03:04:05Z), its dating to this run undone"
            ) in panel.status.text()
    assert s.undo_name == f"save \u201c{first.name}\u201d"
    s.redo()
    again = tomllib.loads(configuration_toml(s.configurations.get(first.name)))["tuned"]
    assert again == tuned
    assert "(undone)" not in panel.status.text()


def test_undoing_a_dated_rerun_then_the_first_save_removes_the_configuration(
        qtbot: QtBot, tmp_path: Path) -> None:
    """r51 dr3 1: the rerun's dating is a step of its own, over the first run's save: two
    Undos take back both, and the panel no longer names the configuration as its run's."""
    panel, s = _kept_panel(qtbot, tmp_path, "")
    name = panel.tuned_name
    panel.settings.budget.setValue(4)
    _run(qtbot, panel)
    assert panel.tuned_name == name and "now dated to this run" in panel.status.text()
    s.undo()
    assert name in s.configurations.names
    s.undo()
    assert name not in s.configurations.names and panel.tuned_name == ""
    s.redo()
    s.redo()
    tuned = tomllib.loads(configuration_toml(s.configurations.get(name)))["tuned"]
    assert tuned["trials"] == {"fold 1 of 2": 4, "fold 2 of 2": 4, "all": 4}
    assert panel.tuned_name == name


def test_undoing_a_dated_rerun_and_the_first_save_says_the_configuration_is_gone(
        qtbot: QtBot, tmp_path: Path) -> None:
    """dr7: with the rerun's dating and the first run's save both undone, the status still
    said the configuration held these values, "now dated to this run (undone)", though it was
    gone. r52 dr5 3: then it said "not saved again: … is removed (its save undone)", a save
    presumed standing where none did; after one Undo "holds … this record, now dated to this
    run (…) (undone)", though it held the first run's record. Each Undo and Redo leaves the
    line saying what is so."""
    panel, s = _kept_panel(qtbot, tmp_path, "")
    name = panel.tuned_name
    first = tomllib.loads(configuration_toml(s.configurations.get(name)))["tuned"]["created"]
    panel.settings.budget.setValue(4)
    _run(qtbot, panel)
    holds = (f"not saved again: the configuration {name} holds these values and this record, "
             "now dated to this run (")
    earlier = (f"not saved again: the configuration {name} holds these values and its earlier "
               f"record (from the run of {first}), its dating to this run undone")
    gone = (f"not saved: the configuration {name}, which held these values, was removed "
            "(Undo); Redo saves it again")
    said = [holds, earlier, gone]

    def only(i: int) -> None:
        text = panel.status.text()
        assert [x in text for x in said] == [j == i for j in range(3)], text
        assert "(undone)" not in text and "again" not in text.replace(said[i], ""), text

    only(0)
    s.undo()  # the dating
    assert name in s.configurations.names
    only(1)
    s.undo()  # the first run's save
    assert name not in s.configurations.names
    only(2)
    s.redo()  # the save back, with the first run's record
    only(1)
    s.redo()  # dated again
    only(0)
