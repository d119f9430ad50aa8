"""`workbench tune` as a user runs it: the plan, the closing tables, a params TOML that eval and
export read back, a second run that continues the study, and one-line errors."""

from __future__ import annotations

import contextlib
import json
import os
import re
from pathlib import Path

import optuna
import pytest

from tests.conftest import SAMPLES
from workbench.cli import main
from workbench.core.params import ParamError, load_params_file

TEA = str(SAMPLES / "tea-beir")


def _tune(capsys, tmp_path, *extra: str) -> tuple[int, str, str]:
    code = main(["tune", TEA, "-m", "bm25", "--storage", str(tmp_path / "s.db"), *extra])
    out, err = capsys.readouterr()
    return code, out, err


def test_tune_reports_held_out_scores_and_writes_settings_eval_reads(capsys, tmp_path):
    out_file = tmp_path / "best.toml"
    # --pick best: on 25 queries no gain is sure, and the default pick keeps the start
    code, out, err = _tune(capsys, tmp_path, "--tune", "k1,b", "--trials", "6", "--folds", "3",
                           "--out", str(out_file), "--pick", "best")
    assert code == 0, err
    assert "validation: 3-fold over 25 queries" in out
    assert "ndcg@10 held-out" in out and "ndcg@10 training (all queries)" in out
    assert "paired randomisation test over 25 held-out queries" in out
    values = load_params_file(out_file)
    assert set(values) == {"k1", "b"}
    assert main(["eval", TEA, "-m", "bm25", "--params", str(out_file)]) == 0
    printed = capsys.readouterr().out
    assert f"k1={values['k1']}" in printed and f"b={values['b']}" in printed


def test_without_a_sure_gain_tune_keeps_and_writes_the_starting_values(capsys, tmp_path):
    """k1 searched only in [0, 0.05], far below the start's 1.2: every trial does worse on
    the training queries, no gain is sure, and the default pick keeps the start."""
    out_file = tmp_path / "best.toml"
    code, out, err = _tune(capsys, tmp_path, "--tune", "k1", "--range", "k1=0:0.05",
                           "--trials", "5", "--folds", "0", "--out", str(out_file))
    assert code == 0, err
    assert "kept: the trial whose gain over the starting values" in out  # the plan says how
    assert "kept the starting values: no trial's gain over them" in out
    # the start scores above every trial, so --pick best keeps it too, not trial 0 (dI 1)
    assert "is the start's, which --pick best keeps too" in " ".join(out.split())
    assert load_params_file(out_file) == {"k1": 1.2}


def test_the_other_pick_reads_the_same_study_without_new_trials(capsys, tmp_path):
    args = ("--tune", "k1", "--trials", "5", "--folds", "0", "--study", "picks")
    assert _tune(capsys, tmp_path, *args)[0] == 0
    code, out, _ = _tune(capsys, tmp_path, *args, "--pick", "best")
    assert code == 0 and "kept: the highest training mean (--pick best)" in out
    study = optuna.load_study(study_name="picks/all", storage=f"sqlite:///{tmp_path / 's.db'}")
    assert len(study.trials) == 5


def test_the_same_command_continues_the_same_study(capsys, tmp_path):
    args = ("--tune", "k1", "--trials", "4", "--folds", "0", "--study", "again")
    assert _tune(capsys, tmp_path, *args)[0] == 0
    assert _tune(capsys, tmp_path, *args)[0] == 0
    study = optuna.load_study(study_name="again/all", storage=f"sqlite:///{tmp_path / 's.db'}")
    assert len(study.trials) == 4
    code, out, _ = _tune(capsys, tmp_path, "--tune", "k1", "--trials", "6", "--folds", "0",
                         "--study", "again")
    assert code == 0 and "no queries were held out" in out
    study = optuna.load_study(study_name="again/all", storage=f"sqlite:///{tmp_path / 's.db'}")
    assert [t.number for t in study.trials] == list(range(6))


@pytest.mark.parametrize(("args", "says"), [
    (["--tune", "k1", "--range", "k1=2:9"], "k1 must be a number in [0, 3]"),
    (["--tune", "k1", "--metric", "nosuch@3"], "unknown objective"),
    # dr4 5: the name as typed, said once, no nested parentheses
    (["--tune", "k1", "--metric", "NDGC@10"], "unknown objective 'NDGC@10' (did you mean "
     "ndcg@10?); use a metric such as ndcg@10 or one of bundle_recall,"),
    (["--train-split", "train"], "--train-split and --test-split go together"),
    (["--trials", "0"], "--trials must be at least 1"),
    (["--seed", "-1"], "--seed must be a whole number in [0, 4294967295]"),
    (["--seed", str(2 ** 70)], "--seed must be a whole number"),
    (["--workers", "99999"], "--workers 99999: at most"),
    (["--storage", "/no/such/folder/s.db"], "folder /no/such/folder does not exist"),
    (["--tune", "fields"], None),  # a prepare-stage choice may be tuned: no error
    (["--constraint", "results<<3"], "--constraint expects"),
    (["--metric", "bundle_recall"], "metric bundle_recall needs a model that selects bundles"),
    (["--constraint", "bundle_tokens<=900"], "metric bundle_tokens needs a model that"),
])
def test_bad_arguments_get_one_line(capsys, tmp_path, args, says):
    argv = ["tune", TEA, "-m", "bm25", "--trials", "2"]
    if "--train-split" not in args:
        argv += ["--folds", "0"]
    if "--storage" not in args:
        argv += ["--storage", str(tmp_path / "s.db")]
    code = main([*argv, *args])
    _out, err = capsys.readouterr()
    if says is None:
        assert code == 0, err
        return
    assert code == 2
    assert says in err and len(err.strip().splitlines()) == 1
    assert "Traceback" not in err
    if "--storage" not in args:  # refused before a study was made: no empty study left
        assert not (tmp_path / "s.db").exists() or not optuna.get_all_study_summaries(
            f"sqlite:///{tmp_path / 's.db'}")


def test_repository_tasks_get_a_time_split(capsys, tmp_path):
    code = main(["tune", str(SAMPLES / "code-repo"), "-m", "codeledger", "--tune",
                 "w_keyword,w_centrality", "--trials", "3", "--storage", str(tmp_path / "s.db")])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "time split (by date): 6 older tasks tune, 6 newer held out" in out
    assert "max bundle_recall" in out and "bundle_recall held-out" in out
    # one study, on the older tasks: no fold, nothing tuned on "all the queries"
    assert "each fold" not in out and "on all the queries" not in out
    assert ("on its 6 training tasks no trial's gain was sure, so the run kept the starting "
            "values") in out
    assert "note:" not in out and "left out" not in out  # named: searched as named


def test_the_default_search_leaves_out_what_moves_no_score(capsys, tmp_path):
    code = main(["tune", str(SAMPLES / "code-repo"), "-m", "codeledger", "--trials", "2",
                 "--storage", str(tmp_path / "s.db")])
    out, err = capsys.readouterr()
    assert code == 0, err
    plan = next(line for line in out.splitlines() if line.startswith("tuning "))
    left = next(line for line in out.splitlines() if line.startswith("left out"))
    assert "w_success_prior, w_fail_prior, maturity_min, maturity_full (the ledger names no " \
           "file)" in left and "--tune searches them anyway" in left
    assert "w_success_prior" not in plan and "w_keyword" in plan
    assert "skip_limit" not in plan and "codeledger searches its relative weights" in out


def test_a_named_budget_is_tuned_with_a_note_to_hold_the_bundle_size(capsys, tmp_path):
    code = main(["tune", str(SAMPLES / "code-repo"), "-m", "codeledger", "--tune",
                 "w_keyword,token_budget", "--trials", "2", "--storage", str(tmp_path / "s.db")])
    out, err = capsys.readouterr()
    assert code == 0, err
    note = next(line for line in out.splitlines() if line.startswith("note:"))
    assert "token_budget tuned because named" in note
    assert "--constraint bundle_tokens<=N" in note


def test_eval_cases_are_the_default_objective_and_export_reads_the_result(capsys, tmp_path):
    out_file = tmp_path / "dm.toml"
    code = main(["tune", str(SAMPLES / "decisions-eval"), "-m", "decision-memory", "--tune",
                 "inject_min_score,inject_limit", "--trials", "5", "--folds", "3", "--storage",
                 str(tmp_path / "s.db"), "--out", str(out_file)])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "max cases" in out and "cases held-out" in out
    assert main(["export", "-m", "decision-memory", "--params", str(out_file)]) == 0
    assert "PI_MEMORY_INJECT" in capsys.readouterr().out


def test_gui_refuses_a_params_file_its_model_rejects_before_opening(capsys, tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("[params]\nk1 = 7\n")
    assert main(["gui", TEA, "-m", "bm25", "--params", str(bad)]) == 2
    assert f"{bad}:2: field 'k1': must be a number in [0, 3], got 7" in capsys.readouterr().err


def test_the_verdict_never_calls_a_chance_difference_worse(capsys, tmp_path):
    """Held out lower by a difference that may be chance: said as such, not "do worse" beside
    "may be chance" (both were printed)."""
    code = main(["tune", TEA, "-m", "bm25", "--folds", "2", "--trials", "3", "--metric",
                 "ndcg@10,mrr@10,r@100", "--storage", str(tmp_path / "s.db"), "--seed", "5"])
    out = capsys.readouterr().out
    assert code == 0
    row = next(line.split() for line in out.splitlines()
               if line.startswith("ndcg@10 held-out"))
    delta, p = float(row[4]), float(row[5])
    assert delta < 0 and p >= 0.05  # seed 5: lower, by chance (the case under test)
    assert "may be chance" in out and "do worse than" not in out
    assert "score lower than the starting values on queries they did not see, by a " \
           "difference that may be chance" in out


def test_options_that_would_go_unused_are_said(capsys, tmp_path):
    """--pick with several objectives, --trials with a grid: a note each (they were dropped
    without a word)."""
    code = main(["tune", TEA, "-m", "bm25", "--tune", "k1", "--folds", "0", "--trials", "2",
                 "--metric", "ndcg@10,mrr@10", "--pick", "best",
                 "--storage", str(tmp_path / "s.db")])
    err = capsys.readouterr().err
    assert code == 0 and "note: --pick keeps one trial of one objective" in err
    code = main(["tune", TEA, "-m", "bm25", "--tune", "variant", "--folds", "0",
                 "--sampler", "grid", "--trials", "5", "--storage", str(tmp_path / "g.db")])
    err = capsys.readouterr().err
    assert code == 0 and "note: a grid runs each of its points once; --trials is not used" in err


def test_a_constraint_no_trial_meets_fails_and_writes_nothing(capsys, tmp_path):
    """nDCG@10 ≥ 0.99 is not met on tea (its best is about 0.65): exit 1, no --out file, and
    the way out said (it ended "nothing to report" with exit 0). One no share can meet
    (≥ 3) is refused before the run (test_cli_edges)."""
    out = tmp_path / "best.toml"
    code = main(["tune", TEA, "-m", "bm25", "--tune", "k1", "--trials", "3", "--folds", "0",
                 "--constraint", "ndcg@10>=0.99", "--storage", str(tmp_path / "s.db"),
                 "--out", str(out)])
    assert code == 1 and not out.exists()
    assert "no trial met the constraints (nor did the starting values)" in capsys.readouterr().out


def test_counts_read_as_counts(capsys, tmp_path):
    """tune prints bundle files and tokens as eval does (1,100.3, right-aligned), not
    1100.3000."""
    code = main(["tune", str(SAMPLES / "code-repo"), "-m", "codeledger", "--tune", "w_keyword",
                 "--trials", "2", "--storage", str(tmp_path / "s.db")])
    out = capsys.readouterr().out
    assert code == 0
    row = next(line for line in out.splitlines() if line.startswith("bundle_tokens"))
    cells = row.split()
    assert "," in cells[1] and "," in cells[2]  # over a thousand tokens
    assert all(len(c.split(".")[-1]) == 1 for c in cells[1:4]), row  # one decimal


def test_o_is_out_as_in_report_and_tasks_from_git(capsys, tmp_path):
    out = tmp_path / "best.toml"
    assert main(["tune", TEA, "-m", "bm25", "--tune", "k1", "--trials", "2", "--folds", "0",
                 "--storage", str(tmp_path / "s.db"), "-o", str(out)]) == 0
    assert out.is_file()


def test_out_onto_a_dataset_file_is_refused_and_onto_its_params_is_written(capsys, tmp_path):
    # tune --out DATA/corpus.jsonl replaced the corpus with the TOML, exit 0
    import shutil

    data = tmp_path / "tea"
    shutil.copytree(TEA, data)
    before = (data / "corpus.jsonl").read_bytes()
    code = main(["tune", str(data), "-m", "bm25", "--tune", "k1", "--trials", "1", "--folds",
                 "0", "--storage", str(tmp_path / "s.db"), "--out", str(data / "corpus.jsonl")])
    err = capsys.readouterr().err
    assert code == 2 and "is a dataset file this command reads" in err, err
    assert (data / "corpus.jsonl").read_bytes() == before
    db = tmp_path / "kept.db"  # the study storage: its trials would go with it
    assert main(["tune", str(data), "-m", "bm25", "--tune", "k1", "--trials", "1", "--folds",
                 "0", "--storage", str(db)]) == 0
    capsys.readouterr()
    # the run's pooled connections closed now, not during the next run: the last one to
    # close checkpoints the write-ahead log into the file, which had read as the refused
    # run writing it (a failure seen once under load)
    import gc

    gc.collect()
    before_db = db.read_bytes()
    code = main(["tune", str(data), "-m", "bm25", "--tune", "k1", "--trials", "2", "--folds",
                 "0", "--storage", str(db), "--out", str(db)])
    err = capsys.readouterr().err
    assert code == 2 and "is the --storage file the study is kept in" in err, err
    assert db.read_bytes() == before_db
    # … not made yet (a first run), or named as a sqlite:/// URL
    for store in (str(tmp_path / "new.db"), f"sqlite:///{db}"):
        out = store.removeprefix("sqlite:///")
        assert main(["tune", str(data), "-m", "bm25", "--tune", "k1", "--trials", "1",
                     "--folds", "0", "--storage", store, "--out", out]) == 2
        assert "is the --storage file" in capsys.readouterr().err
    assert not (tmp_path / "new.db").exists() and db.read_bytes() == before_db
    start = tmp_path / "start.toml"  # the values that continue the file's: written over it
    start.write_text("k1 = 0.9\n")
    assert main(["tune", str(data), "-m", "bm25", "--tune", "k1", "--trials", "2", "--folds",
                 "0", "--storage", str(tmp_path / "s2.db"), "--params", str(start),
                 "--out", str(start)]) == 0
    assert "[tuned]" in start.read_text()


@pytest.mark.parametrize("record", ['{"op_code": 999}', '{"op_code": 0}',
                                    "[" * 100_000 + "]" * 100_000])
def test_a_journal_record_optuna_cannot_replay_is_one_error(capsys, tmp_path, record):
    # an unknown op code (a newer optuna), a record short of its fields, nesting past the
    # parser: AssertionError, KeyError, RecursionError tracebacks from optuna's replay
    path = tmp_path / "j.log"
    path.write_text(record + "\n")
    code = main(["tune", TEA, "-m", "bm25", "--tune", "k1", "--trials", "2", "--folds", "0",
                 "--storage", str(path)])
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert str(path) in err and "left as it is" in err
    assert path.read_text() == record + "\n"


def test_a_damaged_journal_is_refused_and_left_as_it_is(capsys, tmp_path):
    """A journal storage cut off mid-line made optuna fail with a traceback after it had
    appended to the file, so every later run failed too."""
    good = tmp_path / "study.log"
    args = ["tune", TEA, "-m", "bm25", "--tune", "k1", "--trials", "2", "--folds", "2"]
    assert main([*args, "--storage", str(good)]) == 0
    capsys.readouterr()
    lines = good.read_bytes().splitlines(keepends=True)
    cut = tmp_path / "cut.log"
    cut.write_bytes(b"".join(lines)[:-15])
    before = cut.read_bytes()
    assert main([*args, "--storage", str(cut)]) == 2
    err = capsys.readouterr().err
    assert f"{cut}:{len(lines)}: the last line is cut off" in err, err
    assert f"the {len(lines) - 1} records before it are whole" in err
    assert "Traceback" not in err and cut.read_bytes() == before
    # the command it names keeps every whole record, and the run then continues them
    size = int(re.search(r"truncate -s (\d+) ", err).group(1))
    assert size == len(b"".join(lines[:-1]))
    os.truncate(cut, size)
    assert main([*args, "--storage", str(cut)]) == 0
    capsys.readouterr()
    notes = tmp_path / "notes.log"
    notes.write_text("my own notes\n")
    before = notes.read_bytes()
    assert main([*args, "--storage", str(notes)]) == 2
    err = capsys.readouterr().err
    assert f"{notes}:1: not an optuna journal record (not JSON)" in err, err
    assert "Traceback" not in err and notes.read_bytes() == before
    # the good journal goes on: the same command continues its studies
    assert main([*args, "--storage", str(good)]) == 0


def test_a_record_another_worker_is_writing_is_waited_for(tmp_path):
    """A last line without its newline may be a record being appended this moment: looked
    at again before it counts as cut off."""
    import json
    import threading

    from workbench.core.tuning.storage import check_journal

    journal = tmp_path / "study.log"
    record = json.dumps({"op_code": 0, "worker_id": "w"}) + "\n"
    journal.write_text(record + record[:10])
    def append() -> None:
        with journal.open("a") as f:
            f.write(record[10:])

    finish = threading.Timer(0.05, append)
    finish.start()
    check_journal(journal, settle_s=0.5)  # no error: the record was finished meanwhile
    finish.join()
    journal.write_text(record + record[:10])  # and one that stays cut off is refused
    with pytest.raises(ParamError, match=r"study.log:2: the last line is cut off"):
        check_journal(journal, settle_s=0.01)


def test_tune_on_data_without_judgments_says_so(capsys):
    # it said "5 folds need at least 5 judged queries; there are 0"
    assert main(["tune", str(SAMPLES / "decisions"), "-m", "decision-memory"]) == 2
    err = capsys.readouterr().err
    assert "no judgments to tune against (give --qrels FILE" in err and "folds" not in err


def test_the_trials_line_says_what_this_run_added(capsys, tmp_path):
    """A second run of the same command continues the stored study: it ran nothing new and
    printed the same 'trials: fold 1 of 2 3, …' as the first."""
    args = ["tune", TEA, "-m", "bm25", "--tune", "k1", "--folds", "2",
            "--storage", str(tmp_path / "s.db")]

    def last_line(trials: str) -> str:
        assert main([*args, "--trials", trials]) == 0
        return capsys.readouterr().out.strip().splitlines()[-1]

    first = "trials per study: fold 1 of 2: 3, fold 2 of 2: 3, all: 3"
    assert last_line("3") == first
    assert last_line("3") == first + (" — every one stored by an earlier run with these "
                                      "settings, none new (--fresh starts anew)")
    assert last_line("5").endswith("all: 5 — 6 new this run, 9 stored before (over the 3 "
                                   "studies)")


def test_the_default_search_leaves_out_what_the_variant_ignores(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """vault-search at the shipped variant: the documented variant's constants are not
    searched (a tuned tf_multiplier 10 → 420 that changed nothing), and the plan says why."""
    assert main(["tune", str(SAMPLES / "vault"), "-m", "vault-search", "--folds", "2",
                 "--trials", "2", "--storage", str(tmp_path / "s.db")]) == 0
    out = capsys.readouterr().out
    plan = next(line for line in out.splitlines() if line.startswith("tuning "))
    assert "tf_scale" in plan and "tf_multiplier" not in plan and "w_proximity" not in plan
    assert "(no effect while variant is not documented)" in out


def test_a_disk_that_fills_up_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    """No space left while writing --out (or a study's journal): the file and the reason in
    one line, no traceback."""
    from workbench.cli.tune import command as tune_cli  # where cmd_tune looks it up

    def full(path: Path, *_: object) -> None:
        raise OSError(28, "No space left on device", str(path))

    monkeypatch.setattr(tune_cli, "_write_out", full)
    out = tmp_path / "best.toml"
    assert main(["tune", TEA, "-m", "bm25", "--folds", "2", "--trials", "2", "--storage",
                 str(tmp_path / "s.db"), "--out", str(out)]) != 0
    err = capsys.readouterr().err
    assert err.strip() == f"workbench tune: error: {out}: No space left on device", err


def test_a_cache_folder_that_cannot_hold_studies_is_said(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv("WORKBENCH_CACHE_DIR", str(blocker / "cache"))
    assert main(["tune", TEA, "-m", "bm25", "--folds", "2", "--trials", "2"]) != 0
    err = capsys.readouterr().err
    assert "cannot keep studies in" in err and "--storage FILE" in err
    assert "Traceback" not in err


def test_a_study_storage_that_cannot_be_written_is_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """SQLite on a full disk ends in optuna's StorageInternalError (its cause the OSError),
    a journal in a bare OSError without a file name: both say the storage and the reason."""
    from optuna.exceptions import StorageInternalError

    from workbench.core import tuning

    def full(*_: object, **__: object) -> None:
        try:
            raise OSError(28, "No space left on device")
        except OSError as exc:
            raise StorageInternalError("An exception is raised during the commit.") from exc

    monkeypatch.setattr(tuning, "tune", full)
    db = tmp_path / "s.db"
    assert main(["tune", TEA, "-m", "bm25", "--folds", "2", "--trials", "2", "--storage",
                 str(db)]) != 0
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1] == (f"workbench tune: error: the study storage {db}: cannot write (No "
                       "space left on device); the trials stored before are kept"), err
    assert not any("Traceback" in line for line in err)


@pytest.mark.parametrize("offset", [0, 4096 * 3])
def test_a_damaged_sqlite_storage_is_named_with_sqlites_reason_and_a_next_step(
        capsys, tmp_path, offset):
    """A zeroed page gave optuna's "invalid data in the commit, e.g. exceeding max length",
    a zeroed header "(sqlite3.DatabaseError) file is not a database", neither with a way
    out."""
    db = tmp_path / "study.db"
    args = ["tune", TEA, "-m", "bm25", "--tune", "k1", "--trials", "3", "--folds", "0",
            "--storage", str(db)]
    assert main(args) == 0
    capsys.readouterr()
    import sqlite3

    with contextlib.closing(sqlite3.connect(db)) as c:  # every page in the file itself
        c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    with db.open("r+b") as f:
        f.seek(offset)
        f.write(b"\0" * 4096)
    before = db.read_bytes()
    assert main(args) == 2
    err = capsys.readouterr().err
    assert f"study storage {db} is damaged (SQLite: " in err, err
    assert "move it aside" in err and "Traceback" not in err and "max length" not in err
    assert db.read_bytes() == before


def test_tune_out_on_a_folder_named_with_control_characters_reads_back(capsys, tmp_path):
    """A dataset folder named with U+007F wrote `dataset = "…\x7f…"` (JSON leaves DEL as it
    is; TOML refuses it) and a newline split the comment line: eval --params then failed on
    the file tune had just written."""
    import shutil

    from workbench.core.tuned_on import read_tuned_on

    name = "te\"a 'ü\x7fz\nnext"
    data = tmp_path / name
    shutil.copytree(SAMPLES / "tea-beir", data)
    out = tmp_path / "best.toml"
    assert main(["tune", str(data), "-m", "bm25", "--tune", "k1", "--trials", "2", "--folds",
                 "2", "--storage", str(tmp_path / "s.db"), "--out", str(out)]) == 0
    capsys.readouterr()
    assert "k1" in load_params_file(out)
    tuned = read_tuned_on(out)
    assert tuned is not None and tuned.dataset.endswith(name)
    assert main(["eval", str(data), "-m", "bm25", "--params", str(out)]) == 0


def test_a_journal_tail_of_zeros_or_without_its_newline_is_mended_by_the_command_said(
        capsys, tmp_path):
    """A crash's tail of zero bytes was 'not JSON … move it aside' (every record lost); a
    whole last record without its newline passed, and optuna glued the next record onto it
    (a traceback, then a file damaged in the middle). The command said is quoted for a path
    with a space, and run as said it mends the file."""
    import shlex
    import subprocess

    folder = tmp_path / "j dir"
    folder.mkdir()
    journal = folder / "s.log"
    args = ["tune", TEA, "-m", "bm25", "--tune", "k1", "--trials", "2", "--folds", "0",
            "--storage", str(journal)]
    assert main(args) == 0
    capsys.readouterr()
    good = journal.read_bytes()
    records = good.count(b"\n")
    for tail, said in ((good + b"\0" * 300, f"truncate -s {len(good)} "),
                       (good[:-1], "printf '\\n' >> ")):
        journal.write_bytes(tail)
        assert main(args) == 2
        err = capsys.readouterr().err
        assert "Traceback" not in err and journal.read_bytes() == tail, err
        command = re.search(r"`([^`]*)`", err).group(1)
        assert command == said + shlex.quote(str(journal)), err
        subprocess.run(["sh", "-c", command], check=True)
        assert journal.read_bytes() == good
        assert main(args) == 0, capsys.readouterr().err
        capsys.readouterr()
        assert journal.read_bytes().count(b"\n") >= records
        journal.write_bytes(good)


def test_a_sound_sqlite_storage_that_is_locked_is_not_called_damaged(tmp_path, monkeypatch):
    """'database is locked' is an sqlite3.DatabaseError too: a sound file another process
    held was reported damaged, 'move it aside'. Relative SQLite URLs are read as SQLAlchemy
    reads them (from the current folder)."""
    import sqlite3

    from workbench.core.tuning.storage import _refuse_damaged, storage_file

    db = tmp_path / "study.db"
    with contextlib.closing(sqlite3.connect(db)) as c:
        c.execute("CREATE TABLE t (x)")
        c.commit()
    holder = sqlite3.connect(db, isolation_level=None)
    try:
        holder.execute("PRAGMA locking_mode=EXCLUSIVE")
        holder.execute("BEGIN EXCLUSIVE")
        with pytest.raises(sqlite3.OperationalError, match="locked"):  # it is held
            sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=0).execute(
                "PRAGMA quick_check").fetchall()
        _refuse_damaged(f"sqlite:///{db}")  # no error: locked is not damaged
    finally:
        holder.close()
    monkeypatch.chdir(tmp_path)
    assert storage_file("sqlite:///study.db?timeout=30") == db
    db.write_bytes(b"not a database at all" * 100)
    with pytest.raises(ParamError, match="is damaged"):
        _refuse_damaged("sqlite:///study.db")


def test_each_folds_held_out_figures_stand_under_their_own_label(capsys, tmp_path):
    """The per-fold table's columns pool back to the held-out row: weighted by each fold's
    queries, the defaults column is the held-out defaults and the tuned column the tuned (the
    summary line used to print the tuned folds' values after "defaults")."""
    code, out, err = _tune(capsys, tmp_path, "--tune", "k1,b", "--trials", "6", "--folds", "3",
                           "--pick", "best")
    assert code == 0, err
    held = re.search(r"ndcg@10 held-out\s+([\d.]+)\s+([\d.]+)", out)
    assert held
    rows = re.findall(r"fold (\d) of 3\s+(\d+)\s+([\d.]+)\s+([\d.]+)\s+([+-][\d.]+)", out)
    assert [r[0] for r in rows] == ["1", "2", "3"]
    n = sum(int(r[1]) for r in rows)
    assert n == 25
    for col, want in ((2, held.group(1)), (3, held.group(2))):
        pooled = sum(int(r[1]) * float(r[col]) for r in rows) / n
        assert pooled == pytest.approx(float(want), abs=1e-4)
    for r in rows:
        assert float(r[4]) == pytest.approx(float(r[3]) - float(r[2]), abs=2e-4)
    folds_line = re.search(r"mean ± sd over the folds: defaults ([\d.]+) ± [\d.]+, tuned "
                           r"([\d.]+) ± [\d.]+", out)
    assert folds_line
    assert float(folds_line.group(1)) == pytest.approx(
        sum(float(r[2]) for r in rows) / 3, abs=2e-4)
    assert float(folds_line.group(2)) == pytest.approx(
        sum(float(r[3]) for r in rows) / 3, abs=2e-4)


def test_progress_shows_no_held_out_figure():
    """The trial kept is picked on training alone: a held-out value beside the best training
    one during the search was a second "held-out" result, differing from the one reported."""
    from types import SimpleNamespace

    from workbench.cli.tune import _reporter
    from workbench.core.tuning.study import TrialReport

    said: list[str] = []
    spec = SimpleNamespace(objectives=["ndcg@10"], sampler="tpe", trials=4)
    validation = SimpleNamespace(kind="split", folds=[object()])
    report = _reporter(lambda _f, text: said.append(text), spec, validation, None)
    report(TrialReport(study="s/split", number=0, done=1, total=4, train=(0.61,),
                       held_out=(0.58,), params={}, feasible=True))
    assert said == ["split trial 0 · highest training ndcg@10 0.6100"]
    # a continued study (its trial 7 is this run's first there): the best seen is this
    # run's; the stored trials may hold a higher one
    report(TrialReport(study="s/other", number=7, done=8, total=12, train=(0.5,),
                       held_out=(0.5,), params={}, feasible=True))
    assert said[-1] == "other trial 7 · highest training ndcg@10 this run 0.5000"


def test_folds_zero_points_to_no_held_out_figure(capsys, tmp_path):
    # a trial's values (the start out of range, --pick best), not the start kept (rv 6)
    code, out, err = _tune(capsys, tmp_path, "--tune", "k1,b", "--trials", "2", "--folds", "0",
                           "--range", "k1=1.5:3", "--pick", "best",
                           "--out", str(tmp_path / "t.toml"))
    assert code == 0, err
    assert "no queries were held out" in out
    assert "held-out figures above" not in out
    assert "no figure estimates how they do on new queries" in out


def test_a_constraint_the_starting_values_break_is_said_with_its_figures(capsys, tmp_path):
    code = main(["tune", str(SAMPLES / "decisions-eval"), "-m", "decision-memory",
                 "--tune", "inject_min_score,inject_limit", "--constraint",
                 "injected_tokens<=40", "--trials", "8", "--folds", "0",
                 "--storage", str(tmp_path / "s.db")])
    out = capsys.readouterr().out
    assert code == 0
    row = re.search(r"injected_tokens <= 40\s+([\d.]+)\s+([\d.]+)", out)
    assert row and float(row.group(1)) > 40 >= float(row.group(2))
    assert "the starting values break injected_tokens <= 40: they could not be kept" in out


def test_two_objectives_say_which_point_of_the_front_is_kept(capsys, tmp_path):
    code = main(["tune", str(SAMPLES / "code-repo"), "-m", "codeledger", "--metric",
                 "bundle_recall,bundle_tokens", "--tune", "token_budget,w_keyword",
                 "--trials", "6", "--storage", str(tmp_path / "s.db")])
    out = capsys.readouterr().out
    assert code == 0
    kept = re.search(r"^(\d+) \(kept\)\s", out, re.M)
    assert kept
    front = out.split("Pareto front of")[1]
    first_row = front.splitlines()[3]
    assert first_row.startswith(f"{kept.group(1)} (kept)")  # the best bundle_recall row
    assert "values (-p NAME=VALUE)" in front and "token_budget=" in first_row  # to ship one
    if len(re.findall(r"^\d+", front, re.M)) > 1:
        assert f"kept: trial {kept.group(1)} — the front's best bundle_recall" in out


def test_settings_each_case_sets_itself_are_left_out_of_the_default_search(capsys, tmp_path):
    """decisions-eval's cases set their own limit and project_only (and the search cases their
    own min score): the parameters they replace move no score there."""
    code = main(["tune", str(SAMPLES / "decisions-eval"), "-m", "decision-memory",
                 "--trials", "1", "--folds", "0", "--storage", str(tmp_path / "s.db")])
    out = capsys.readouterr().out
    assert code == 0
    left = next(line for line in out.splitlines() if line.startswith("left out"))
    plan = next(line for line in out.splitlines() if line.startswith("tuning "))
    for name in ("inject_limit", "search_limit", "global_inject", "search_min_score"):
        assert name in left and f"{name} " not in plan
    assert "every query's context sets its own limit" in left
    assert "inject_min_score [" in plan  # some cases leave it to the parameter


def test_an_interrupted_run_stops_its_helper_workers(capsys, tmp_path, monkeypatch):
    # a SIGTERM reaches the main process only; it waited for helpers that tuned on to the
    # budget. Fakes, named so: a helper that sleeps, and a tune that is interrupted.
    import signal
    import subprocess
    import sys

    import workbench.cli.tune.command as cli_tune  # where cmd_tune looks it up
    from workbench.core import tuning

    fake_helper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(20)"])
    monkeypatch.setattr(cli_tune, "_start_workers", lambda *a: [fake_helper])

    def interrupted_tune(*a, **k):
        raise KeyboardInterrupt

    monkeypatch.setattr(tuning, "tune", interrupted_tune)
    code, _, err = _tune(capsys, tmp_path, "--trials", "4", "--workers", "2")
    assert code == 130 and "interrupted" in err
    assert fake_helper.returncode == -signal.SIGTERM  # stopped, not waited out


def test_queries_the_starting_values_were_tuned_on_are_never_held_out(capsys, tmp_path):
    # a --params file from an earlier tune names the queries it was fitted on: scoring the
    # new run on them would report training scores as held out
    start = tmp_path / "start.toml"
    first = [f"q{i:02d}" for i in range(1, 11)]
    start.write_text('[params]\nk1 = 2.0\n\n[tuned]\ndataset = "tea-beir"\n'
                     'validation = "earlier"\ntrained_on = [' + ", ".join(f'"{q}"' for q in first)
                     + "]\n")
    out = tmp_path / "next.toml"
    code, printed, err = _tune(capsys, tmp_path, "--params", str(start), "--tune", "b",
                               "--trials", "3", "--folds", "5", "--out", str(out))
    assert code == 0, err
    assert "tuned on 10 of these queries by an earlier run" in err
    assert ("the 10 queries the starting values were tuned on are kept off the held-out side, "
            "so 15 are held out") in printed
    held = re.search(r"ndcg@10 held-out .*?(\d+)\s*$", printed, re.M)
    assert held and "▲" in held.group(0) and sum(
        int(n) for n in re.findall(r"[▲▼=](\d+)", held.group(0))) == 15
    from workbench.core.tuned_on import read_tuned_on

    record = read_tuned_on(out)
    assert record is not None and set(first) <= set(record.trained_on)


def test_a_chained_run_keeps_the_queries_its_start_was_tuned_on_in_another_split(
        capsys, tmp_path):
    # tuned on a train split, then tuned again from that file on the test split: the new
    # file named only the test queries, so compare on the train split called those very
    # queries held out
    start = tmp_path / "start.toml"
    other_split = [f"train-{i}" for i in range(1, 6)]  # not among the queries loaded here
    start.write_text('[params]\nk1 = 2.0\n\n[tuned]\ndataset = "tea-beir"\n'
                     'validation = "train split"\ntrained_on = ['
                     + ", ".join(f'"{q}"' for q in other_split) + "]\n")
    out = tmp_path / "next.toml"
    # a trial's values (the start out of range, --pick best): a start kept unchanged keeps
    # its own record alone (rv 6: test_tune_kept_start_record)
    code, _, err = _tune(capsys, tmp_path, "--params", str(start), "--tune", "b",
                         "--trials", "3", "--folds", "3", "--range", "b=0.1:0.5", "--pick",
                         "best", "--out", str(out))
    assert code == 0, err
    from workbench.core.tuned_on import read_tuned_on

    record = read_tuned_on(out)
    assert record is not None and set(other_split) <= set(record.trained_on)
    assert len(record.trained_on) == len(set(record.trained_on)) == 25 + 5
    # the k-fold figure in the file's comment is of tuning this way, not of its values
    head = out.read_text().split("[params]")[0]
    assert "k-fold: each query scored by the values its own fold tuned" in head


def test_a_range_that_leaves_out_the_start_is_said_and_not_blamed_on_overfitting(
        capsys, tmp_path):
    # with k1 searched in [0, 0.5] from 1.2, the report said the settings fit the training
    # queries (they scored lower there too) and advised narrower ranges. The start, scoring
    # above every trial on training, is now kept by --pick best in every study (dI 1)
    code, out, err = _tune(capsys, tmp_path, "--tune", "k1", "--range", "k1=0.2:0.3",
                           "--sampler", "grid", "--folds", "3", "--pick", "best")
    assert code == 0, err
    assert "the starting value of k1 (1.2) lies outside the range searched" in out
    assert ("kept the starting values in 4 of 4 studies (fold 1 of 3, fold 2 of 3, fold 3 of "
            "3, all): theirs is the highest training mean (--pick best)") in " ".join(out.split())
    assert "they fit the training queries" not in out


def test_a_kept_start_says_the_held_out_row_estimates_the_procedure(capsys, tmp_path):
    code, out, err = _tune(capsys, tmp_path, "--trials", "5", "--folds", "3")
    assert code == 0, err
    assert "kept the starting values" in out  # seed 0: no trial's gain is sure
    assert "the held-out row estimates tuning this way" in out and "nothing changes" in out
    code, out, err = _tune(capsys, tmp_path, "--trials", "5", "--folds", "3", "--out",
                           str(tmp_path / "t.toml"))
    assert "the starting values written to" in out and "tuned parameters written" not in out


def test_the_second_objectives_held_out_values_are_shown(capsys, tmp_path):
    # with two objectives, the second's held-out value at the start appeared nowhere
    code, out, err = _tune(capsys, tmp_path, "--metric", "ndcg@10,mrr@10", "--trials", "4",
                           "--folds", "3")
    assert code == 0, err
    block = out.split("other measures (the other objectives first):", 1)[1]
    table = block.strip().split("\n\n", 1)[0].splitlines()
    assert table[2].split()[0] == "mrr@10"


def test_a_start_that_breaks_a_constraint_is_not_said_to_be_out_of_reach(capsys, tmp_path):
    # the drop is the constraint's price; "the search never reached the starting values"
    # contradicted it
    code, out, err = _tune(capsys, tmp_path, "--tune", "k1,b", "--constraint",
                           "mrr@10<=0.78", "--trials", "30", "--folds", "3")
    assert code == 0, err
    assert "the starting values break mrr@10 <= 0.78" in out
    assert "never reached the starting values" not in out


def test_starting_values_outside_the_ranges_are_said_in_the_plural(capsys, tmp_path):
    code, out, err = _tune(capsys, tmp_path, "--tune", "k1,b", "--range", "k1=0.1:0.6",
                           "--range", "b=0.1:0.5", "--trials", "2", "--folds", "0")
    assert code == 0, err
    assert "the starting values of k1 (1.2), b (0.75) lie outside the range searched" in out


def test_an_sqlite_file_of_another_program_is_not_made_a_study_storage(capsys, tmp_path):
    # a --storage typo naming another database: optuna added its 13 tables to it
    import sqlite3

    other = tmp_path / "notes.db"
    with contextlib.closing(sqlite3.connect(other)) as db:
        db.execute("CREATE TABLE notes (x TEXT)")
        db.commit()
    code = main(["tune", TEA, "-m", "bm25", "--tune", "k1", "--trials", "2", "--folds", "0",
                 "--storage", str(other)])
    err = capsys.readouterr().err
    assert code == 2 and "an SQLite database of something else (tables: notes)" in err
    with contextlib.closing(sqlite3.connect(other)) as db:
        tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master")]
    assert tables == ["notes"]
    # a study storage opens again as before
    assert main(["tune", TEA, "-m", "bm25", "--tune", "k1", "--trials", "2", "--folds", "0",
                 "--storage", str(tmp_path / "s.db")]) == 0
    assert main(["tune", TEA, "-m", "bm25", "--tune", "k1", "--trials", "3", "--folds", "0",
                 "--storage", str(tmp_path / "s.db")]) == 0


def test_metrics_is_tunes_metric_too(capsys, tmp_path):
    # every other command spells it --metrics (and eval took --metric as its abbreviation):
    # tune refused --metrics as an unrecognised argument
    assert main(["tune", str(SAMPLES / "tea-beir"), "-m", "bm25", "--metrics", "mrr@10",
                 "--trials", "2", "--folds", "0", "--storage", str(tmp_path / "s.db")]) == 0
    assert "objective: max mrr@10" in capsys.readouterr().out


def test_a_range_end_off_the_slider_step_is_moved_onto_it_and_said(capsys, tmp_path):
    assert main(["tune", str(SAMPLES / "story"), "-m", "hybrid", "--tune", "alpha", "--range",
                 "alpha=0.33:0.9", "--trials", "2", "--folds", "0", "--storage",
                 str(tmp_path / "s.db")]) == 0
    out = capsys.readouterr().out
    assert "tuning 1 parameter: alpha [0.35, 0.9] step 0.05" in out
    assert ("note: --range alpha=0.33:0.9 is searched as 0.35:0.9, on the slider's step "
            "(0.05)") in out


def test_a_misspelt_range_name_is_one_line_and_nothing_is_made(capsys, tmp_path):
    """rn 1: `--range kl=…` had reached the plan and ended in a KeyError traceback."""
    assert main(["tune", str(SAMPLES / "tea-beir"), "-m", "bm25", "--range", "kl=0.5:1",
                 "--trials", "1", "--storage", str(tmp_path / "s.db")]) == 2
    err = capsys.readouterr().err
    # dr4 7: kl is k1 but for a lookalike, suggested
    assert "--range kl=0.5:1: unknown parameter 'kl' (did you mean k1?); valid: k1, b" in err
    assert "Traceback" not in err
    assert not (tmp_path / "s.db").exists()


def test_the_shipped_front_shows_no_held_out_score_to_choose_a_row_by(capsys, tmp_path):
    """A row of the front chosen by its held-out score is tuned on the held-out queries: the
    shipped study's rows are shown by training scores alone; the folds' fronts keep theirs
    and say that none of their rows ships."""
    code = main(["tune", str(SAMPLES / "tea-beir"), "-m", "bm25", "--metric", "ndcg@10,r@10",
                 "--trials", "8", "--folds", "2", "--storage", str(tmp_path / "s.db")])
    out = capsys.readouterr().out
    assert code == 0
    fronts = {part.split(" (", 1)[0]: part for part in out.split("Pareto front of ")[1:]}
    assert set(fronts) == {"fold 1 of 2", "fold 2 of 2", "all"}
    assert "ndcg@10 held-out" in fronts["fold 1 of 2"].splitlines()[1]
    assert "held-out" not in fronts["all"].splitlines()[1]
    assert "no row of them is shipped, and none should be chosen by its held-out score" in out
    code = main(["tune", str(SAMPLES / "code-repo"), "-m", "codeledger", "--metric",
                 "bundle_recall,bundle_tokens", "--tune", "token_budget,w_keyword",
                 "--trials", "6", "--time-split", "0.5", "--storage", str(tmp_path / "t.db")])
    out = capsys.readouterr().out
    assert code == 0
    front = out.split("Pareto front of ")[1]
    assert "held-out" not in front.splitlines()[1]


def test_k_fold_over_dated_tasks_is_said_to_mix_times(capsys, tmp_path):
    code = main(["tune", str(SAMPLES / "code-repo"), "-m", "codeledger", "--tune", "w_keyword",
                 "--trials", "1", "--folds", "2", "--storage", str(tmp_path / "s.db")])
    out = capsys.readouterr().out
    assert code == 0
    assert "note: these queries are dated" in out and "--time-split 0.5" in out
    assert main(["tune", str(SAMPLES / "tea-beir"), "-m", "bm25", "--trials", "1",
                 "--folds", "2", "--storage", str(tmp_path / "t.db")]) == 0
    assert "these queries are dated" not in capsys.readouterr().out


def test_the_table_heads_a_start_set_by_p_as_the_start(capsys, tmp_path):
    # with -p k1=0.5 the starting values were headed "default"
    assert main(["tune", TEA, "-m", "bm25", "--tune", "k1", "-p", "k1=0.5", "--trials", "2",
                 "--folds", "0", "--storage", str(tmp_path / "s.db")]) == 0
    out = capsys.readouterr().out
    assert "parameter  start  tuned" in out
    head = next(line for line in out.splitlines() if line.endswith("p  queries"))
    assert head.split() == ["start", "tuned", "Δ", "p", "queries"]  # the metric table too
    assert main(["tune", TEA, "-m", "bm25", "--tune", "k1", "--trials", "2", "--folds", "0",
                 "--storage", str(tmp_path / "s2.db")]) == 0
    assert "parameter  default  tuned" in capsys.readouterr().out


def test_a_shared_studys_trials_line_does_not_claim_the_others_trials() -> None:
    # three processes on one server study each said "120 new this run" of its 40
    from types import SimpleNamespace

    from workbench.cli.tune_report import trials_line

    studies = [SimpleNamespace(name="all", trials=130, new=120)]
    assert trials_line(studies).endswith("120 new this run, 10 stored before")
    assert trials_line(studies, shared=True).endswith(
        "120 new since this run began (by it and any process sharing the study), 10 stored "
        "before")


def test_the_k_fold_time_note_only_where_a_time_split_would_run(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # a mix of dated queries and tasks: the note advised --time-split 0.5, which refuses it
    lines = (SAMPLES / "tea-beir" / "queries.jsonl").read_text().splitlines()
    mixed = [json.loads(x) for x in lines]
    for i, q in enumerate(mixed):
        q.setdefault("metadata", {})
        q["metadata"]["date" if i % 2 else "commit"] = "2026-01-01" if i % 2 else "abc123"
    (tmp_path / "q.jsonl").write_text("".join(json.dumps(q) + "\n" for q in mixed))
    assert main(["tune", TEA, "-m", "bm25", "--tune", "k1", "--folds", "2", "--trials", "2",
                 "--queries", str(tmp_path / "q.jsonl"), "--qrels",
                 str(SAMPLES / "tea-beir" / "qrels" / "test.tsv"),
                 "--storage", str(tmp_path / "s.db")]) == 0
    assert "--time-split 0.5 tunes" not in capsys.readouterr().out


def test_out_with_another_ending_than_toml_is_refused_before_the_tuning(capsys, tmp_path,
                                                                      monkeypatch):
    """`--out t.json` wrote TOML into t.json, exit 0 (reviewer d, F7): the format follows no
    ending, so another than .toml is refused, before any trial, nothing written."""
    from workbench.cli.tune import splits  # where the data is read

    def no_load(args):
        raise AssertionError("the data was read before --out was checked")

    monkeypatch.setattr(splits, "load_data", no_load)
    for name in ("t.json", "best"):
        code, _, err = _tune(capsys, tmp_path, "--trials", "2", "--folds", "0", "--out",
                             str(tmp_path / name))
        assert code == 2
        assert err.strip().endswith(f"--out {tmp_path / name}: give a file name ending .toml; "
                                    "tune writes the values as TOML, as --params reads them")
    assert list(tmp_path.iterdir()) == []
