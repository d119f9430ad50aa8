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
def _holder(url: str, name: str, exclusive: bool,
            plain: bool = False) -> Iterator[subprocess.Popen[str]]:
    """Another process holding study `name` until it is killed at the block's end; `plain`:
    held as a plain run holds it (exclusive, marked for the whole run)."""
    code = textwrap.dedent(f"""
        import sys
        from workbench.core.tuning.lock import StudyLock
        lock = StudyLock({url!r}, {name!r})
        lock.take({exclusive!r})
        if {plain!r}:
            lock.mark_plain()
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
    # a relative SQLite URL is relative to the current folder, as SQLAlchemy reads it (the
    # lock was looked for at /sub/.rel.db.wb-lock, could not be made, and was silently off)
    here = Path.cwd()
    assert lock_path("sqlite:///sub/rel.db?timeout=30") == here / "sub" / ".rel.db.wb-lock"
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
    with _holder(f"sqlite:///{db}", "shared-name", exclusive=True, plain=True):
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


KILLED_WORKER = textwrap.dedent("""
    import os, sys
    import workbench.core.tuning.evaluator as ev
    from workbench.cli import main
    orig, n = ev.Evaluator.evaluate, [0]
    def evaluate(self, values, *a, **k):
        if values:  # a trial's values ({}: the defaults)
            n[0] += 1
            if n[0] == 2:
                os._exit(9)  # as if killed in the middle of its second trial
        return orig(self, values, *a, **k)
    ev.Evaluator.evaluate = evaluate
    main(sys.argv[1:] + ["--worker-index", "1"])
""")
GRID = ["tune", str(SAMPLES / "tea-beir"), "-m", "bm25", "--sampler", "grid", "--tune",
        "variant", "--folds", "0", "--study", "g"]


@pytest.mark.parametrize("then", [[], ["--workers", "2"]])
def test_a_grid_point_a_killed_worker_held_is_scored_by_the_next_run(tmp_path, then):
    """Failing the killed worker's trial made its grid point 'seen' (a plain run) or left it
    unqueued (a shared one): the grid finished without it."""
    db = tmp_path / "g.db"
    args = [*GRID, "--storage", str(db)]
    killed = subprocess.run([sys.executable, "-c", KILLED_WORKER, *args], cwd=REPO,
                            capture_output=True, text=True, timeout=300,
                            env={**os.environ, "PYTHONPATH": str(REPO)})
    assert killed.returncode == 9, killed.stderr
    done = _cli(*args, *then)
    assert done.returncode == 0, done.stderr
    storage = optuna.storages.RDBStorage(f"sqlite:///{db}")
    try:
        trials = optuna.load_study(study_name="g/all", storage=storage).get_trials()
    finally:
        storage.engine.dispose()
    State = optuna.trial.TrialState
    scored = [t.params["variant"] for t in trials if t.state == State.COMPLETE]
    from workbench.core.models import get_model

    variants = get_model("bm25").schema["variant"].choices
    assert sorted(scored) == sorted(variants)  # every point once
    assert [t.state for t in trials].count(State.FAIL) == 1
    assert not [t for t in trials if t.state == State.RUNNING]
    if then:  # the shared run takes every queued point (a plain one scores its own copy)
        assert not [t for t in trials if t.state == State.WAITING]


def test_workers_of_one_run_wait_for_each_other_while_one_fails_stale_trials(tmp_path):
    """A shared process found the studies held alone for a moment (another of its run
    failing stale trials) and was refused as if a plain run held them."""
    from workbench.core.tuning.runner import TuneSpec, _claim

    url = f"sqlite:///{tmp_path / 's.db'}"
    spec = TuneSpec(space=None, objectives=("ndcg@10",), shared=True)  # type: ignore[arg-type]
    holder = textwrap.dedent(f"""
        import sys, time
        from workbench.core.tuning.lock import StudyLock
        lock = StudyLock({url!r}, "base")
        lock.take(True)  # as a process failing stale trials holds it
        print("held", flush=True)
        time.sleep(1.0)
        lock.take(False)  # then shares it, as _claim does
        sys.stdin.read()
    """)
    proc = subprocess.Popen([sys.executable, "-c", holder], cwd=REPO, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": str(REPO)})
    lock = StudyLock(url, "base")
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "held"
        _claim(lock, spec, None, [])  # waits, then shares
        assert not lock.try_take(True)  # shared with the other: not alone
    finally:
        lock.release()
        proc.kill()
        proc.communicate()


def test_trials_one_on_a_new_study_runs_one_trial(tmp_path):
    # the queued starting values counted toward --trials: 1 ≥ 1 and nothing ran
    db = tmp_path / "one.db"
    done = _cli(*TUNE, "--trials", "1", "--storage", str(db))
    assert done.returncode == 0, done.stderr
    assert "trials: 1\n" in done.stdout, done.stdout


def test_two_holders_in_one_process_exclude_each_other_as_two_processes_do(tmp_path):
    """Record locks never conflict within a process: two locks on one study both got it
    alone, and the first to let go freed the study under the other."""
    url = f"sqlite:///{tmp_path / 'studies.db'}"
    first, second = StudyLock(url, "a"), StudyLock(url, "a")
    try:
        assert first.try_take(True)
        assert not second.try_take(True) and not second.try_take(False)
        first.take(False)  # shared now: another shared holder is welcome, a lone one not
        assert second.try_take(False)
        assert not first.try_take(True)
        first.release()
        with _holder(url, "b", exclusive=False):  # another study: untouched
            pass
        probe = textwrap.dedent(f"""
            from workbench.core.tuning.lock import StudyLock
            print(StudyLock({url!r}, "a").try_take(True))
        """)
        other = subprocess.run([sys.executable, "-c", probe], cwd=REPO, capture_output=True,
                               text=True, timeout=60, env={**os.environ,
                                                           "PYTHONPATH": str(REPO)})
        assert other.stdout.strip() == "False"  # `second` still holds it for the process
    finally:
        first.release()
        second.release()


@pytest.mark.parametrize("where", ["suggest", "writes", "ask"])
def test_ctrl_c_anywhere_in_a_shared_trial_stores_it_as_failed(tmp_path, monkeypatch, where):
    """On shared storage a Ctrl-C in a trial's suggest or in its writes after the evaluation
    left it RUNNING: PostgreSQL has no lock to find it stale, so it counted in every later
    budget and --fresh was refused as "in use". The interrupt is a fake (named so), raised
    where a real one landed; in `ask`, a real SIGINT once the storage has made the trial."""
    import workbench.core.tuning.study as study_mod
    from workbench.cli import main

    calls = {"n": 0}
    real_suggest = study_mod.suggest

    def interrupted_suggest(trial, d):  # the third trial's suggest is interrupted
        calls["n"] += 1
        if calls["n"] == 3:
            raise KeyboardInterrupt
        return real_suggest(trial, d)

    if where == "suggest":
        monkeypatch.setattr(study_mod, "suggest", interrupted_suggest)
    elif where == "ask":
        import signal

        real_ask = optuna.Study.ask

        def interrupted_ask(self, *args, **kwargs):  # the second trial, once it is stored
            trial = real_ask(self, *args, **kwargs)
            if trial.number == 1:
                os.kill(os.getpid(), signal.SIGINT)
            return trial

        monkeypatch.setattr(optuna.Study, "ask", interrupted_ask)
    else:
        real_set = optuna.trial.Trial.set_user_attr

        def interrupted_write(self, key, value):  # the second trial's first write after it
            if key == "scored" and self.number == 1:
                raise KeyboardInterrupt
            return real_set(self, key, value)

        monkeypatch.setattr(optuna.trial.Trial, "set_user_attr", interrupted_write)
    db = tmp_path / "s.db"
    assert main(["tune", str(SAMPLES / "tea-beir"), "-m", "bm25", "--tune", "k1", "--trials",
                 "5", "--folds", "0", "--storage", str(db), "--study", "x",
                 "--worker-index", "1"]) == 130  # as a helper of --workers runs
    State = optuna.trial.TrialState
    (summary,) = [s for s in optuna.get_all_study_summaries(f"sqlite:///{db}")
                  if s.study_name.startswith("x")]
    trials = optuna.load_study(study_name=summary.study_name,
                               storage=f"sqlite:///{db}").get_trials()
    states = [t.state for t in trials]
    assert State.RUNNING not in states and states.count(State.FAIL) == 1, states


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_a_helper_ends_when_its_run_is_killed(tmp_path):
    """SIGKILL of a --workers run left its helpers tuning, unseen, to the whole budget, and
    the next run was refused as "being tuned by another". The parent here is a stand-in
    that starts one helper as --workers does, then is killed."""
    import signal
    import time

    helper = [sys.executable, "-m", "workbench.cli", *TUNE, "--trials", "100000",
              "--storage", str(tmp_path / "s.db"), "--study", "orphan", "--worker-index", "1"]
    parent = subprocess.Popen(
        [sys.executable, "-c", "import subprocess, sys, time\n"
         f"p = subprocess.Popen({helper!r}, stdout=subprocess.DEVNULL, "
         "stderr=subprocess.DEVNULL)\nprint(p.pid, flush=True)\ntime.sleep(120)"],
        cwd=REPO, stdout=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONPATH": str(REPO)})
    with parent.stdout:
        pid = int(parent.stdout.readline())
    # the helper is tuning (its parent watch is set before it reads the data): a trial of
    # it is stored. Waited for, not slept on: on a slow runner 4 s caught it starting up
    try:
        deadline = time.monotonic() + 90
        while (not _a_trial_done(tmp_path / "s.db") and _alive(pid)
               and time.monotonic() < deadline):
            time.sleep(0.2)
        assert _a_trial_done(tmp_path / "s.db"), "the helper stored no trial"
        assert _alive(pid)
        parent.send_signal(signal.SIGKILL)
        parent.wait()
        deadline = time.monotonic() + 60
        while _alive(pid) and time.monotonic() < deadline:
            time.sleep(0.5)
        assert not _alive(pid), "the helper tuned on after its run was killed"
    finally:  # a failed check leaves neither process running
        parent.kill()
        parent.wait()
        if _alive(pid):
            os.kill(pid, signal.SIGKILL)


def _a_trial_done(db: Path) -> bool:
    """Whether the optuna storage `db` holds a finished trial (read only, as it is written)."""
    import sqlite3

    if not db.exists():
        return False
    try:
        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=1)
        try:
            return con.execute("SELECT 1 FROM trials WHERE state = 'COMPLETE' LIMIT 1"
                               ).fetchone() is not None
        finally:
            con.close()
    except sqlite3.OperationalError:  # no tables yet, or locked by a write: not yet
        return False


def _alive(pid: int) -> bool:
    """Running (a zombie, ended but not yet reaped by its new parent, counts as ended)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_a_running_trial_on_shared_storage_says_it_is_alive(tmp_path, monkeypatch):
    """What lets the next run tell a killed worker's trial from a live one on a server."""
    import time

    from workbench.core.tuning import storage as tuning_storage
    from workbench.core.tuning.study import ALIVE, _heartbeat

    monkeypatch.setattr(tuning_storage, "HEARTBEAT_S", 0.05)
    study = optuna.create_study(storage=f"sqlite:///{tmp_path / 's.db'}", study_name="x")
    trial = study.ask()
    with _heartbeat(trial, study, mirror=False):
        time.sleep(0.4)
    said = study.trials[0].user_attrs.get(ALIVE)
    assert isinstance(said, float) and time.time() - said < 5
    other = study.ask()
    with _heartbeat(other, study, mirror=True):  # a private copy: nothing written
        time.sleep(0.2)
    assert ALIVE not in study.trials[1].user_attrs


def test_a_server_clock_that_cannot_be_read_fails_no_trial(tmp_path, monkeypatch):
    """Unread, the server's clock fell back to this machine's, which may disagree with the
    one the trials were stamped by: a live trial could be failed. Now none is judged silent
    until the clock reads again, and no beat is stamped by another clock."""
    import time

    from workbench.core.tuning import runner
    from workbench.core.tuning import storage as tuning_storage
    from workbench.core.tuning.study import ALIVE, BEGAN, _heartbeat

    url = f"sqlite:///{tmp_path / 's.db'}"
    study = optuna.create_study(storage=url, study_name="x/all")
    old = study.ask()
    old.set_user_attr(BEGAN, time.time() - 3600)  # silent for an hour by any clock
    # the storage taken for a server's whose clock cannot be read (no server here)
    monkeypatch.setattr(tuning_storage, "on_server", lambda _storage: True)
    monkeypatch.setattr(tuning_storage, "server_clock", lambda _storage: None)
    monkeypatch.setattr(tuning_storage, "HEARTBEAT_S", 0.05)
    storage = tuning_storage.open_storage(url)
    assert runner.fail_stale(storage, ["x/all"], silent_only=True) == 0
    live = study.ask()
    with _heartbeat(live, study, mirror=False):
        time.sleep(0.3)
    assert ALIVE not in study.trials[live.number].user_attrs
    monkeypatch.setattr(tuning_storage, "server_clock", lambda _storage: time.time())
    assert runner.fail_stale(storage, ["x/all"], silent_only=True) == 1  # read: the old one


def test_a_study_whose_creator_stopped_before_its_settings_is_made_again_by_a_plain_run(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    # stopped between create_study and the settings it writes next, the study was waited on
    # for two minutes by the run said to continue it, then refused ("start it again with
    # --fresh"); a plain run holds it alone, so nobody else can be creating it
    from workbench.cli import main
    from workbench.core.tuning import storage

    monkeypatch.setattr(storage, "_WAIT_FOR_GRID_S", 0.0)  # a refusal would come at once
    db = tmp_path / "s.db"
    url = f"sqlite:///{db}"
    optuna.create_study(storage=url, study_name="shared-name/all", direction="maximize")
    assert main([*TUNE, "--trials", "2", "--storage", str(db)]) == 0, capsys.readouterr().err
    study = optuna.load_study(study_name="shared-name/all", storage=url)
    assert len(study.trials) == 2 and "workbench_config" in study.user_attrs


def test_a_plain_runs_hold_is_told_from_a_shared_runs_moment(tmp_path):
    # a shared run that found its study held alone waited 15 s before it was refused, also
    # where a plain run held it for its whole run; the plain run's mark says so at once
    url = f"sqlite:///{tmp_path / 'studies.db'}"
    lock = StudyLock(url, "a")
    try:
        with _holder(url, "a", exclusive=True, plain=True):
            assert not lock.try_take(False)
            assert lock.plain_held()
        with _holder(url, "a", exclusive=True):  # a shared run clearing stale trials
            assert not lock.try_take(False)
            assert not lock.plain_held()
        assert lock.try_take(False) and not lock.plain_held()
    finally:
        lock.release()
    # in this process: the mark is kept until the plain run lets go
    plain, other = StudyLock(url, "b"), StudyLock(url, "b")
    try:
        assert plain.try_take(True)
        plain.mark_plain()
        assert other.plain_held()
    finally:
        plain.release()
    assert not other.plain_held()
