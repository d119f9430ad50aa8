"""Several processes on one study: three `workbench tune` processes sharing a PostgreSQL study
(a throw-away server), and `--workers 2` on the default SQLite file. Every grid point is
evaluated exactly once, no trial is stored twice or lost, and the best equals the exhaustive
optimum computed here with the plain pipeline."""

from __future__ import annotations

import itertools
import os
import subprocess
import sys

import optuna
import pytest

from tests.conftest import REPO, SAMPLES
from tests.postgres_server import postgres
from workbench.core.formats import load_dataset
from workbench.core.models import get_model
from workbench.core.pipeline import Pipeline

K1 = [round(1.0 + 0.05 * i, 10) for i in range(11)]
B = [round(0.5 + 0.05 * i, 10) for i in range(7)]
TUNE = ["tune", str(SAMPLES / "tea-beir"), "-m", "bm25", "--tune", "k1,b", "--range",
        "k1=1:1.5", "--range", "b=0.5:0.8", "--sampler", "grid", "--folds", "0"]


@pytest.fixture(scope="module")
def optimum() -> float:
    pipe = Pipeline(get_model("bm25"), load_dataset(SAMPLES / "tea-beir"))
    best = -1.0
    for k1, b in itertools.product(K1, B):
        pipe.update({"k1": k1, "b": b})
        best = max(best, pipe.run(["ndcg@10"]).means["ndcg@10"])
    return best


def _workbench(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "workbench.cli", *args], cwd=REPO,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": str(REPO)})


def _check_study(study: optuna.Study, optimum: float) -> None:
    trials = study.get_trials()
    assert len(trials) == len(K1) * len(B)
    assert all(t.state == optuna.trial.TrialState.COMPLETE for t in trials)
    points = [(t.params["k1"], t.params["b"]) for t in trials]
    assert len(set(points)) == len(points)  # each point once
    assert {(round(k, 10), round(b, 10)) for k, b in points} == set(itertools.product(K1, B))
    assert sorted(t.number for t in trials) == list(range(len(trials)))
    assert study.best_value == pytest.approx(optimum, abs=1e-12)


def test_three_processes_share_a_postgresql_study(tmp_path, optimum):
    with postgres(tmp_path / "pg") as url:
        procs = [_workbench(*TUNE, "--storage", url, "--study", "shared") for _ in range(3)]
        outs = [p.communicate(timeout=300) for p in procs]
        for p, (_out, err) in zip(procs, outs, strict=True):
            assert p.returncode == 0, err
            assert "Traceback" not in err
        storage = optuna.storages.RDBStorage("postgresql+psycopg://" + url.split("://", 1)[1])
        try:
            _check_study(optuna.load_study(study_name="shared/all", storage=storage), optimum)
        finally:
            storage.engine.dispose()  # before the server stops
        # every process reports the same best settings (from the table of values on: the
        # plan above it counts the trials stored when each started, which a loaded machine
        # staggers)
        tables = {out.split("ndcg@10 training")[0].partition("\nparameter ")[2]
                  for out, _ in outs}
        assert len(tables) == 1 and "k1" in next(iter(tables))
        # the storage named with its kind and user ("storage: 127.0.0.1:5999/db" had neither)
        assert "storage: postgresql://wb@127.0.0.1:" in outs[0][0]


def test_two_local_workers_share_an_sqlite_study(tmp_path, optimum):
    db = tmp_path / "study.db"
    proc = _workbench(*TUNE, "--storage", str(db), "--study", "local", "--workers", "2")
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    # a fresh study: every trial is this run's, the helper's included
    assert "\ntrials: " in out and "stored before" not in out, out
    storage = optuna.storages.RDBStorage(f"sqlite:///{db}")
    try:
        _check_study(optuna.load_study(study_name="local/all", storage=storage), optimum)
    finally:
        storage.engine.dispose()


def test_fresh_refuses_a_server_study_with_a_trial_running(tmp_path):
    # no lock guards a server's studies: --fresh deleted the trials of a process tuning one,
    # which then reported a result from trials no longer stored
    with postgres(tmp_path / "pg") as url:
        storage = optuna.storages.RDBStorage("postgresql+psycopg://" + url.split("://", 1)[1])
        try:
            other = optuna.create_study(study_name="fr/all", storage=storage)
            running = other.ask()  # another process, mid-trial
            argv = ["tune", str(SAMPLES / "tea-beir"), "-m", "bm25", "--tune", "k1",
                    "--folds", "0", "--trials", "2", "--storage", url, "--study", "fr",
                    "--fresh"]
            refused = _workbench(*argv)
            _out, err = refused.communicate(timeout=300)
            assert refused.returncode == 2, err
            assert "'fr/all' is in use" in err and "Traceback" not in err
            assert len(optuna.load_study(study_name="fr/all", storage=storage).trials) == 1
            other.tell(running, 0.5)  # it ended: a fresh start is the user's to make
            done = _workbench(*argv)
            _out, err = done.communicate(timeout=300)
            assert done.returncode == 0, err
        finally:
            storage.engine.dispose()  # before the server stops


# run in this process (for the shortened grace), tune's pooled server connections outlive
# each command, as a command's would until its process exits
@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
@pytest.mark.filterwarnings("ignore::ResourceWarning")
def test_a_killed_workers_trial_is_failed_once_it_falls_silent(tmp_path, monkeypatch):
    """On a server no file lock tells a killed worker's RUNNING trial from a live one: it
    stayed RUNNING for good, filled every later budget and had --fresh refused as in use.
    A trial says it is alive while it runs; one silent past the grace period is failed by
    the next run, one that speaks is left alone. (The grace is shortened; the trials are
    made as a killed and a live worker leave them, the live one kept speaking by a thread.)"""
    import threading
    import time

    from workbench.cli import main
    from workbench.core.tuning import runner
    from workbench.core.tuning import storage as tuning_storage
    from workbench.core.tuning.study import ALIVE, BEGAN

    with postgres(tmp_path / "pg") as url:
        argv = ["tune", str(SAMPLES / "tea-beir"), "-m", "bm25", "--tune", "k1", "--folds",
                "0", "--storage", url, "--study", "hb"]
        assert main([*argv, "--trials", "2"]) == 0
        storage = optuna.storages.RDBStorage("postgresql+psycopg://" + url.split("://", 1)[1])
        stop = threading.Event()
        try:
            study = optuna.load_study(study_name="hb/all", storage=storage)
            killed, live, unsaid = study.ask(), study.ask(), study.ask()
            killed.set_user_attr(BEGAN, time.time() - 60)
            killed.set_user_attr(ALIVE, time.time() - 30)
            unsaid.set_user_attr(BEGAN, time.time() - 60)  # killed before its first beat
            live.set_user_attr(BEGAN, time.time() - 60)
            live.set_user_attr(ALIVE, time.time())  # its last beat, a moment ago

            def speak() -> None:  # its worker, still at it
                while not stop.wait(0.5):
                    live.set_user_attr(ALIVE, time.time())

            speaker = threading.Thread(target=speak, daemon=True)
            speaker.start()
            monkeypatch.setattr(tuning_storage, "GRACE_S", 10)
            # the live trial runs on past the run, which waits for it up to runner.WAIT_S
            # (120 s) before building its result: shortened, it still beats meanwhile
            monkeypatch.setattr(runner, "WAIT_S", 3.0)
            assert main([*argv, "--trials", "5"]) == 0
            stop.set()
            speaker.join()
            states = {t.number: t.state for t in
                      optuna.load_study(study_name="hb/all", storage=storage).trials}
            assert states[killed.number] == optuna.trial.TrialState.FAIL
            assert states[unsaid.number] == optuna.trial.TrialState.FAIL
            assert states[live.number] == optuna.trial.TrialState.RUNNING
        finally:
            stop.set()
            storage.engine.dispose()  # before the server stops
            import gc

            gc.collect()  # the commands' connections go here, not in a later test


def test_silence_is_told_by_the_servers_clock_not_the_workers(tmp_path, monkeypatch):
    """Workers on machines whose clocks disagree by an hour share a server study: a live
    worker whose clock is behind was failed as killed by the next run on a machine whose
    clock is ahead, and a killed one's trial stayed RUNNING for a run whose clock is behind.
    Stamped and read by the database server's clock, neither depends on the machines'."""
    import time

    from sqlalchemy import text

    from workbench.core.tuning import runner
    from workbench.core.tuning import storage as tuning_storage
    from workbench.core.tuning.study import ALIVE, BEGAN, _heartbeat

    real = time.time
    with postgres(tmp_path / "pg") as url:
        storage = optuna.storages.RDBStorage("postgresql+psycopg://" + url.split("://", 1)[1])
        try:
            study = optuna.create_study(study_name="skew/all", storage=storage)
            live, killed = study.ask(), study.ask()
            with storage.engine.connect() as conn:
                db_now = float(conn.execute(text("SELECT EXTRACT(EPOCH FROM now())")).scalar_one())
            assert abs(db_now - real()) < 5  # one machine here
            killed.set_user_attr(BEGAN, db_now - 200)  # by the server's clock, as stamped
            monkeypatch.setattr(tuning_storage, "HEARTBEAT_S", 0.1)
            monkeypatch.setattr(time, "time", lambda: real() - 3600)  # the live worker's
            with _heartbeat(live, study, mirror=False):
                time.sleep(0.6)
                said = study.trials[live.number].user_attrs[ALIVE]
                assert abs(said - real()) < 5, "stamped by the worker's own clock"
                monkeypatch.setattr(time, "time", lambda: real() + 3600)  # a run ahead
                assert runner.fail_stale(storage, ["skew/all"], silent_only=True) == 1
                monkeypatch.setattr(time, "time", lambda: real() - 3600)  # a run behind
                assert runner.fail_stale(storage, ["skew/all"], silent_only=True) == 0
            monkeypatch.setattr(time, "time", real)
            states = {t.number: t.state for t in study.trials}
            assert states[live.number] == optuna.trial.TrialState.RUNNING
            assert states[killed.number] == optuna.trial.TrialState.FAIL
        finally:
            monkeypatch.setattr(time, "time", real)
            storage.engine.dispose()  # before the server stops


def test_a_run_in_the_window_leaves_no_connection_to_the_server(tmp_path):
    """The window keeps a run's outcome (its studies) while it stays open: each run on a
    server held its pooled connections till then, one more set per Start."""
    from sqlalchemy import create_engine, text

    from workbench.core.engine import Cancelled, Progress
    from workbench.core.session import TuningSession
    from workbench.core.tuning.job import job_from_session, run_job

    s = TuningSession()
    s.open(SAMPLES / "tea-beir")
    s.set_model("bm25", {})
    s.recompute()
    with postgres(tmp_path / "pg") as url:
        watcher = create_engine("postgresql+psycopg://" + url.split("://", 1)[1])

        def others() -> int:
            with watcher.connect() as conn:
                for _ in range(50):  # a closed connection's backend exits a moment later
                    n = int(conn.execute(text(
                        "SELECT count(*) FROM pg_stat_activity WHERE datname IS NOT NULL "
                        "AND pid <> pg_backend_pid()")).scalar_one())
                    if n == 0:
                        break
                    conn.execute(text("SELECT pg_stat_clear_snapshot(), pg_sleep(0.1)"))
                return n

        try:
            job = job_from_session(s, ["b"], validation="none", trials=3, storage=url)
            outcome = run_job(job)
            assert outcome.result.final.trials == 3
            assert others() == 0
            with pytest.raises(Cancelled):  # a run cancelled mid-way
                run_job(job, progress=Progress(should_stop=lambda: True))
            assert others() == 0
        finally:
            watcher.dispose()
