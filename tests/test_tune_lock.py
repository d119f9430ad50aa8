"""Two `workbench tune` runs on one study: a plain run holds its studies alone, a `--workers`
run shares them, `--fresh` needs them alone; a killed holder never leaves them held; a trial a
killed process left RUNNING is failed and run again."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import optuna
import pytest

from tests.conftest import REPO, SAMPLES
from workbench.core.tuning.lock import StudyLock, lock_path

TUNE = ["tune", str(SAMPLES / "tea-beir"), "-m", "bm25", "--tune", "k1", "--folds", "0",
        "--study", "shared-name"]


@contextlib.contextmanager
def _holder(url: str, name: str, exclusive: bool) -> Iterator[subprocess.Popen[str]]:
    """Another process holding study `name` until it is killed at the block's end."""
    code = textwrap.dedent(f"""
        import sys
        from workbench.core.tuning.lock import StudyLock
        lock = StudyLock({url!r}, {name!r})
        lock.take({exclusive!r})
        print("held", flush=True)
        sys.stdin.read()
    """)
    proc = subprocess.Popen([sys.executable, "-c", code], cwd=REPO, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": str(REPO)})
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "held"
        yield proc
    finally:
        proc.kill()
        proc.communicate()


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "workbench.cli", *args], cwd=REPO,
                          capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": str(REPO)})


def test_a_study_held_alone_is_refused_to_others_and_freed_when_its_holder_is_killed(tmp_path):
    url = f"sqlite:///{tmp_path / 'studies.db'}"
    assert lock_path(url) == tmp_path / ".studies.db.wb-lock"
    assert lock_path("postgresql+psycopg://u@h/db") is None
    mine, other = StudyLock(url, "a"), StudyLock(url, "b")
    with _holder(url, "a", exclusive=True):
        assert not mine.try_take(True)
        assert not mine.try_take(False)
        assert other.try_take(True)  # another study of the same storage is free
    try:
        assert mine.try_take(True)  # the system dropped the killed holder's lock
    finally:
        mine.release()
        other.release()


def test_shared_holders_share_and_keep_out_a_run_alone(tmp_path):
    url = f"journal:///{tmp_path / 'study.log'}"
    lock = StudyLock(url, "a")
    with _holder(url, "a", exclusive=False):
        try:
            assert lock.try_take(False)
            lock.release()
            assert not lock.try_take(True)
        finally:
            lock.release()


@pytest.mark.parametrize("extra", [[], ["--fresh"], ["--workers", "2"]])
def test_tune_is_refused_in_one_line_while_a_plain_run_holds_its_study(tmp_path, extra):
    db = tmp_path / "studies.db"
    with _holder(f"sqlite:///{db}", "shared-name", exclusive=True):
        done = _cli(*TUNE, "--trials", "3", "--storage", str(db), *extra)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert "'shared-name'" in done.stderr and "being tuned by another workbench tune" in done.stderr
    assert str(db) in done.stderr
    storage = optuna.storages.RDBStorage(f"sqlite:///{db}")
    try:  # nothing stored, nothing deleted
        assert optuna.get_all_study_names(storage) == []
    finally:
        storage.engine.dispose()


def test_fresh_is_refused_while_a_workers_run_shares_the_study(tmp_path):
    db = tmp_path / "studies.db"
    first = _cli(*TUNE, "--trials", "2", "--storage", str(db))
    assert first.returncode == 0, first.stderr
    with _holder(f"sqlite:///{db}", "shared-name", exclusive=False):
        done = _cli(*TUNE, "--trials", "2", "--storage", str(db), "--fresh")
    assert done.returncode == 2 and "being tuned by another" in done.stderr, done.stderr
    storage = optuna.storages.RDBStorage(f"sqlite:///{db}")
    try:  # the study the other run uses is still there, whole
        study = optuna.load_study(study_name="shared-name/all", storage=storage)
        assert len(study.get_trials()) == 2
    finally:
        storage.engine.dispose()


def test_a_trial_left_running_by_a_killed_worker_is_failed_and_run_again(tmp_path):
    db = tmp_path / "studies.db"
    first = _cli(*TUNE, "--trials", "2", "--storage", str(db))
    assert first.returncode == 0, first.stderr
    storage = optuna.storages.RDBStorage(f"sqlite:///{db}")
    try:
        optuna.load_study(study_name="shared-name/all", storage=storage).ask()  # never told
    finally:
        storage.engine.dispose()
    done = _cli(*TUNE, "--trials", "4", "--storage", str(db), "--workers", "2")
    assert done.returncode == 0, done.stderr
    storage = optuna.storages.RDBStorage(f"sqlite:///{db}")
    try:
        states = [t.state for t in optuna.load_study(study_name="shared-name/all",
                                                     storage=storage).get_trials()]
    finally:
        storage.engine.dispose()
    State = optuna.trial.TrialState
    assert states.count(State.RUNNING) == 0
    assert states.count(State.FAIL) == 1
    assert states.count(State.COMPLETE) == 4  # the lost trial did not count toward --trials


def test_the_lock_file_sits_beside_the_storage_and_nothing_else_is_left(tmp_path):
    db = tmp_path / "studies.db"
    done = _cli(*TUNE, "--trials", "2", "--storage", str(db))
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in Path(tmp_path).iterdir()
                  if not p.name.startswith("studies.db-")) == [".studies.db.wb-lock",
                                                                "studies.db"]
