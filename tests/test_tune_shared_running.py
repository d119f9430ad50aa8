"""A shared study's result waits for the trials other processes are still running, and says
where some did not end in time (review rb 3: of two processes on one PostgreSQL study, one
built its result from 19 trials while the other's 20th ran)."""

from __future__ import annotations

import threading

import optuna
import pytest

from tests.conftest import SAMPLES
from tests.postgres_server import postgres
from workbench.cli import main
from workbench.core.tuning import runner

TEA = str(SAMPLES / "tea-beir")
ARGS = ["tune", TEA, "-m", "bm25", "--tune", "k1", "--folds", "0", "--trials", "3",
        "--study", "sh", "--pick", "best"]


def _rdb(url: str) -> optuna.storages.RDBStorage:
    return optuna.storages.RDBStorage("postgresql+psycopg://" + url.split("://", 1)[1])


# tune's pooled server connections outlive the command, as a command's would until its
# process exits
@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
@pytest.mark.filterwarnings("ignore::ResourceWarning")
def test_another_process_trial_that_ends_in_the_wait_is_counted(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(runner, "WAIT_S", 30.0, raising=False)
    with postgres(tmp_path / "pg") as url:
        assert main([*ARGS, "--storage", url]) == 0  # the study, 3 trials
        capsys.readouterr()
        storage = _rdb(url)
        try:
            other = optuna.load_study(study_name="sh/all", storage=storage)
            running = other.ask()  # another process, mid-trial: a 4th
            running.suggest_float("k1", 0.0, 3.0)
            ends = threading.Timer(2.0, lambda: other.tell(running, 0.99))
            ends.start()
            try:
                assert main([*ARGS, "--storage", url]) == 0
            finally:
                ends.join()
            out = " ".join(capsys.readouterr().out.split())
        finally:
            storage.engine.dispose()  # before the server stops
    # the other process's trial, counted in the result
    assert "trials: 4 — 1 new since this run began" in out and "still running" not in out


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
@pytest.mark.filterwarnings("ignore::ResourceWarning")
def test_a_trial_still_running_after_the_wait_is_said(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(runner, "WAIT_S", 1.0, raising=False)
    with postgres(tmp_path / "pg") as url:
        assert main([*ARGS, "--storage", url]) == 0
        capsys.readouterr()
        storage = _rdb(url)
        try:
            other = optuna.load_study(study_name="sh/all", storage=storage)
            running = other.ask()  # another process, mid-trial, for longer than the wait
            assert main([*ARGS, "--storage", url]) == 0
            out = " ".join(capsys.readouterr().out.split())
            other.tell(running, 0.5)
        finally:
            storage.engine.dispose()
    assert "trials: 3 — every one stored by an earlier run" in out
    assert ("3 of 4 trials: 1 still running in another process after waiting 1 s; "
            "the result may change" in out)
