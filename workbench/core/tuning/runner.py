"""A whole tuning run: one study per fold, held-out scores, the settings to ship.

Nothing reported as the result is a training score. For every fold the study tunes on the
fold's training queries only; its best settings and the defaults are then scored on the fold's
held-out queries, and the held-out per-query values of all folds are compared with the paired
randomisation test the window uses. With k folds the settings to ship are tuned once more on
every query (their training score is shown as such); with a held-out split or a time split
they are the fold's own.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
from numpy.typing import NDArray

from workbench.core.engine import NO_PROGRESS, Progress
from workbench.core.metrics import PairedTest, paired_test
from workbench.core.params import ParamValue
from workbench.core.tuning import study as st
from workbench.core.tuning.evaluator import Evaluator
from workbench.core.tuning.lock import Busy, StudyLock, hold, lock_path
from workbench.core.tuning.objectives import direction, masked_mean
from workbench.core.tuning.pick import pick_trial
from workbench.core.tuning.settle import chosen_last, settle, settle_ties
from workbench.core.tuning.space import SearchSpace
from workbench.core.tuning.storage import check_settings, clock, open_storage, open_study, release
from workbench.core.tuning.validation import Mask, Validation


@dataclass(frozen=True)
class TuneSpec:
    space: SearchSpace
    objectives: tuple[str, ...]
    constraints: tuple[st.Constraint, ...] = ()
    sampler: str = "tpe"
    seed: int = 0
    trials: int | None = 100
    timeout: float | None = None  # seconds for the whole run, shared by its studies
    storage: str = ""  # an SQLAlchemy URL (st.storage_url)
    study: str = ""  # base name; "" = derived from the settings
    fresh: bool = False
    shared: bool = False  # other processes work on the same studies (--workers, PostgreSQL)
    worker: int = 0  # this process's index among them: its samplers get their own seeds
    pick: str = "bound"  # which trial a study keeps (pick.PICKS); one objective only


@dataclass
class FoldResult:
    name: str
    study: str
    trials: int
    best: dict[str, ParamValue]  # empty when no trial was feasible
    train_best: tuple[float, ...]
    train_default: tuple[float, ...]
    held_tuned: NDArray[np.float64]  # primary objective per query, NaN outside the fold
    held_default: NDArray[np.float64]
    front: list[dict[str, Any]] = field(default_factory=list)  # several objectives
    kept_start: bool = False  # no trial's gain was sure enough: `best` is the start
    bound: float = math.nan  # the kept trial's lower bound of gain (pick.lower_bound)
    bound_n: int = 0  # the training queries behind it (pick.errors); < 2: no bound exists
    top: tuple[int, float] | None = None  # the highest training mean: (trial, mean)
    # the highest training mean is the start's: its own trial is the top, or the settled start
    # scores at least the top trial (a --range that leaves it out: dI 1)
    top_start: bool = False
    picked: int | None = None  # the kept trial's number (None: the start)
    new: int = -1  # trials run by this call (the others were stored before it); -1: unknown
    # each constraint: (text, its training mean at the starting values, at the kept values)
    constrained: tuple[tuple[str, float, float], ...] = ()
    start_breaks: bool = False  # the starting values break a constraint: they cannot be kept
    # the start's chosen_last values moved to meet the constraints (`settle`: sufficiency
    # under nDCG), and each constraint's training mean with them: the start as the pick
    # weighs and keeps it (dr8 1); empty where the start is kept as it is
    start_moved: dict[str, ParamValue] = field(default_factory=dict)
    start_moved_means: tuple[float, ...] = ()
    # why the start was kept, where not for the pick's own reason (`pick.start_kept_because`):
    # no trial met the constraints (rv53 b), or the Pareto front's start (rv53 a)
    kept_why: str = ""
    start_on_front: bool = False  # the settled start is a point of the Pareto front (rv53 a)
    # values of the kept trial put back to their starts, the training objectives tied
    # (`settle_ties`, rv53 d): name → the trial's own draw
    put_back: dict[str, ParamValue] = field(default_factory=dict)
    # trials another process was still running when this result was built (`await_others`):
    # not counted in it, so a run that reads the study later may keep another
    running: int = 0


@dataclass
class TuneResult:
    spec: TuneSpec
    validation: Validation
    defaults: dict[str, ParamValue]
    folds: list[FoldResult]
    final: FoldResult  # tuned on `validation.final_train`: the settings to ship
    test: PairedTest | None  # defaults vs tuned on every held-out query
    studies: dict[str, Any] = field(default_factory=dict)  # label → optuna.Study
    # other measures on the same held-out queries: name → (defaults mean, tuned mean)
    also: dict[str, tuple[float, float]] = field(default_factory=dict)

    @property
    def fold_means(self) -> list[tuple[float, float]]:
        """(defaults, tuned) mean of the primary objective on each fold's held-out queries."""
        out = []
        for f in self.folds:
            keep = ~np.isnan(f.held_tuned)
            out.append((float(np.mean(f.held_default[keep])) if keep.any() else math.nan,
                        float(np.mean(f.held_tuned[keep])) if keep.any() else math.nan))
        return out

    @property
    def tuned(self) -> dict[str, ParamValue]:
        return self.final.best


def study_name(spec: TuneSpec, evaluator: Evaluator, validation: Validation) -> str:
    """A name that is the same for the same run, so starting it again continues it."""
    if spec.study:
        return spec.study
    digest = _digest(config(spec, evaluator, validation))
    return f"{evaluator.model.id}-{evaluator.dataset.name}-{digest}"


def config(spec: TuneSpec, evaluator: Evaluator, validation: Validation) -> dict[str, Any]:
    """What a stored study must match to be continued."""
    return {"model": evaluator.model.id, "version": evaluator.model.version,
            "dataset": evaluator.dataset.fingerprint(),
            # the objectives read the judgments: corrected qrels must not continue a study
            # whose stored values were computed against the old ones
            "judgments": _digest(evaluator.dataset.qrels) if evaluator.dataset.qrels else "",
            "base": evaluator.model.schema.changed(evaluator.base),
            "space": spec.space.to_json(), "objectives": list(spec.objectives),
            "constraints": [str(c) for c in spec.constraints], "sampler": spec.sampler,
            "seed": spec.seed, "validation": validation.to_json()}


def _process_salt(spec: TuneSpec) -> int:
    """0 for a run alone on its studies (repeatable from its seed). Processes sharing a
    study — started apart, on one machine or several — each draw from their own seed, or
    they would try the same points side by side (a shared run is not repeatable anyway: who
    finishes which trial first decides)."""
    if not spec.shared:
        return 0
    import os
    import socket

    return int(hashlib.sha256(f"{socket.gethostname()}:{os.getpid()}".encode())
               .hexdigest()[:8], 16)


def _digest(obj: Any) -> str:
    return hashlib.sha256(json.dumps(obj, sort_keys=True, default=str).encode()).hexdigest()[:10]


def study_runs(validation: Validation) -> list[tuple[str, Mask, Mask | None]]:
    """(label, tuned-on queries, held-out queries) of every study a validation needs."""
    runs: list[tuple[str, Mask, Mask | None]] = [
        (f.name, f.train, f.test) for f in validation.folds]
    if validation.kind in ("kfold", "none"):
        runs.append(("all", validation.final_train, None))
    return runs


IN_USE_S = 600.0  # a trial running that began this recently: someone is tuning the study


def _local_now() -> Any:
    import datetime as dt

    return dt.datetime.now()


def check_unused(spec: TuneSpec, storage: Any, names: Sequence[str]) -> None:
    """Before --fresh deletes studies no lock guards (a server's: lock.py): Busy while one of
    their trials runs, begun in the last `IN_USE_S` seconds — another process, maybe on
    another machine, is tuning them, and would report a result from trials deleted under it
    (a trial left running longer ago belongs to a process that was killed)."""
    if lock_path(spec.storage) is not None:  # a file storage: its lock says so
        return
    now, utc = _local_now(), clock(storage)
    for name, t in _running(storage, names):
        said = [float(t.user_attrs[k]) for k in (st.ALIVE, st.BEGAN)
                if isinstance(t.user_attrs.get(k), int | float)]
        if said:  # a workbench trial, by the server's clock: its last word (it beats)
            # the server's clock unread: counted as in use (--fresh would delete its trials)
            age: float | None = 0.0 if utc is None else utc - max(said)
        else:  # optuna's naive local time, as good as the writer's time zone is this one
            age = None if t.datetime_start is None else (now - t.datetime_start).total_seconds()
        if age is not None and age < IN_USE_S:
            ago = max(0, round(age))
            raise Busy(f"study {name!r} is in use: trial {t.number} is running and said so "
                       f"{ago} s ago, another process tuning it; --fresh would delete its "
                       "trials under it — wait until it has ended, or name another study with "
                       "--study", name)


def delete_studies(spec: TuneSpec, evaluator: Evaluator, validation: Validation) -> None:
    """Remove this run's studies from storage (--fresh before workers start)."""
    storage = open_storage(spec.storage)
    base = study_name(spec, evaluator, validation)
    with hold(spec.storage, base, exclusive=True):
        names = [f"{base}/{label}" for label, _, _ in study_runs(validation)]
        check_unused(spec, storage, names)
        _delete(storage, names)


def _delete(storage: Any, names: Sequence[str]) -> None:
    """Delete the studies `names`, each checked gone: one another process wrote to while it
    was deleted (a trial stored that moment, on a server) is said, Busy, not kept unsaid."""
    import optuna

    for name in names:
        try:
            optuna.delete_study(study_name=name, storage=storage)
        except KeyError:
            continue  # none stored
        except Exception as exc:  # the database refused (another process writing to it,
            # a lost connection): said as it is, nothing of the run begun
            raise Busy(f"study {name!r} could not be deleted for --fresh "
                       f"({str(exc).splitlines()[0]}); where another process is tuning it, "
                       "wait until it has ended, or name another study with --study",
                       name) from None
        if name in optuna.get_all_study_names(storage):
            raise Busy(f"study {name!r} is still stored: --fresh asked to delete it, and the "
                       "storage kept it (another process is tuning it); wait until it has "
                       "ended, or name another study with --study", name)


def _claim(lock: StudyLock, spec: TuneSpec, storage: Any, names: Sequence[str],
           grid: bool = False) -> None:
    """Hold this run's studies (lock.py): a plain run alone, a shared one beside the other
    processes sharing them. Whoever finds nobody else on them first fails the trials still
    RUNNING there (their processes were killed), a grid's points queued again. A shared
    process that finds the studies held alone waits a little: another of its run may be
    doing just that; a plain run holding them is still there after the wait."""
    alone = lock.lockable and lock.try_take(True)
    if alone:
        fail_stale(storage, names, requeue=grid and spec.shared)
    elif not lock.lockable:  # a server: the trials silent past storage.GRACE_S (killed)
        fail_stale(storage, names, requeue=grid and spec.shared, silent_only=True)
    if not spec.shared:
        if not alone:
            lock.take(True)  # raises Busy
        lock.mark_plain()  # held for the whole run: a shared run is refused at once
        return
    _take_shared(lock)


SHARED_WAIT_S = 15.0


def _take_shared(lock: StudyLock) -> None:
    deadline = time.monotonic() + SHARED_WAIT_S
    while not lock.try_take(False):
        # a plain run holds it for its whole run (its mark): no use waiting; another of a
        # shared run, clearing stale trials a moment, has none
        if time.monotonic() > deadline or lock.plain_held():
            lock.take(False)  # raises Busy
        time.sleep(0.1)


def check_free(spec: TuneSpec, evaluator: Evaluator, validation: Validation) -> None:
    """Busy now when the run's studies are held in a way it cannot share (before helper
    processes are started, so that they are not started at all)."""
    lock = StudyLock(spec.storage, study_name(spec, evaluator, validation))
    try:
        if spec.shared:
            _take_shared(lock)
        else:
            lock.take(True)
    finally:
        lock.release()
    if not spec.fresh:  # a study stored with other settings: refused before helpers start
        base, cfg = study_name(spec, evaluator, validation), config(spec, evaluator, validation)
        check_settings(open_storage(spec.storage),
                       [(f"{base}/{label}", {**cfg, "fold": label})
                        for label, _, _ in study_runs(validation)])


def stored_counts(spec: TuneSpec, evaluator: Evaluator,
                  validation: Validation) -> dict[str, int]:
    """The trials each study of the run holds now, by label (0 where it does not exist yet):
    taken before helper processes start, so that what they add counts as this run's. A study
    stored with other settings is refused first (ParamError): the plan had called its trials
    "stored already …, every one used", and the run was refused three lines later."""
    from workbench.core.tuning.study import DONE

    storage = open_storage(spec.storage)
    base = study_name(spec, evaluator, validation)
    cfg = config(spec, evaluator, validation)
    check_settings(storage, [(f"{base}/{label}", {**cfg, "fold": label})
                             for label, _, _ in study_runs(validation)])
    out = {}
    for label, _, _ in study_runs(validation):
        try:
            sid = storage.get_study_id_from_name(f"{base}/{label}")
        except KeyError:
            out[label] = 0
            continue
        out[label] = storage.get_n_trials(sid, DONE)
    return out


def _running(storage: Any, names: Sequence[str]) -> Iterator[tuple[str, Any]]:
    """(study name, trial) of every RUNNING trial of the named studies that exist."""
    from optuna.trial import TrialState

    for name in names:
        try:
            sid = storage.get_study_id_from_name(name)
        except KeyError:
            continue
        for t in storage.get_all_trials(sid, deepcopy=False, states=(TrialState.RUNNING,)):
            yield name, t


WAIT_S = 120.0  # how long a shared run waits for others' running trials (storage.GRACE_S)
BEAT_MARGIN_S = 5.0  # a beat this late past storage.HEARTBEAT_S still counts as on time


@dataclass(frozen=True)
class Began:
    """When a run began, by the clock its storage stamps trials with (`clock`; None where a
    server's could not be read) and by this machine's (optuna's own naive start time)."""

    utc: float | None
    local: Any  # datetime.datetime


def began_now(storage: Any) -> Began:
    return Began(clock(storage), _local_now())


def run_began(spec: TuneSpec) -> Began:
    """`began_now` on the run's storage: taken before its helper processes start, so that
    their trials count as begun in this run."""
    storage = open_storage(spec.storage)
    try:
        return began_now(storage)
    finally:
        release(storage)


def await_others(storage: Any, names: Sequence[str], progress: Progress = NO_PROGRESS,
                 poll_s: float = 0.5, since: Began | None = None,
                 say: Callable[[str], None] | None = None) -> dict[str, int]:
    """Wait, up to `WAIT_S`, while the named studies hold trials another process is running
    (this process's have all ended by now; one silent past storage.GRACE_S is a killed
    process's and not waited for); per study, those still running when the wait ends.
    `since` (a server's studies, which no lock guards): a trial begun or heard from
    (`ALIVE`) since this run began is another process's at work; one last heard before it
    is waited for until `since` + storage.HEARTBEAT_S (+ BEAT_MARGIN_S): if it beats by
    then it is at work too (dr5 1: one begun a second before the run and shorter than a
    beat was never waited for), else it is a killed process's, no sign of anyone working
    on the study (dr1 1: a lone run waited 120 s for it). `say`: told once, as the wait
    begins (the bar's message is not shown in a log)."""
    from workbench.core.tuning.storage import GRACE_S, HEARTBEAT_S

    deadline = time.monotonic() + WAIT_S
    told: set[str] = set()
    while True:
        utc = clock(storage)
        live: dict[str, int] = {}
        unsure: dict[str, int] = {}
        for name, t in _running(storage, names):
            if utc is not None and _silent(t, GRACE_S, utc):
                continue
            if _heard_since(t, since):
                live[name] = live.get(name, 0) + 1
            elif _may_beat(t, since, utc, HEARTBEAT_S + BEAT_MARGIN_S):
                unsure[name] = unsure.get(name, 0) + 1
        if (not live and not unsure) or time.monotonic() >= deadline:
            return {name: live.get(name, 0) + unsure.get(name, 0)
                    for name in {*live, *unsure}}
        n = sum(live.values())
        if n:
            line = (f"waiting for {n} trial{'' if n == 1 else 's'} running in another process "
                    "before building the result")
            until = f"up to {WAIT_S:g} s"
        else:
            n = sum(unsure.values())
            line = (f"waiting to see whether {n} trial{'' if n == 1 else 's'} another process "
                    f"began before this run {'is' if n == 1 else 'are'} still running")
            until = f"up to {HEARTBEAT_S + BEAT_MARGIN_S:g} s"
        progress(0.0, line)
        kind = "live" if live else "unsure"
        if say is not None and kind not in told:
            say(f"{line} ({until})")
            told.add(kind)
        time.sleep(poll_s)


def _heard_since(t: Any, since: Began | None) -> bool:
    """Whether RUNNING trial `t` began or last said it runs at or after `since` (its `ALIVE`
    or `BEGAN` by the storage's clock, else optuna's local start time); True without
    `since`, or where that clock was not read."""
    if since is None:
        return True
    said = [float(t.user_attrs[k]) for k in (st.ALIVE, st.BEGAN)
            if isinstance(t.user_attrs.get(k), int | float)]
    if said:
        return since.utc is None or max(said) >= since.utc
    start = t.datetime_start
    return start is None or start >= since.local


def _may_beat(t: Any, since: Began | None, utc: float | None, window_s: float) -> bool:
    """Whether RUNNING trial `t`, last heard before `since`, may yet beat: by `utc` (the
    storage's clock now) less than `window_s` has passed since the run began. Only a
    workbench trial beats (`BEGAN`/`ALIVE`); one of optuna's own never will."""
    if since is None or since.utc is None or utc is None:
        return False
    if not any(isinstance(t.user_attrs.get(k), int | float) for k in (st.ALIVE, st.BEGAN)):
        return False
    return utc < since.utc + window_s


def _silent(t: Any, grace_s: float, utc: float) -> bool:
    """A RUNNING trial that has said nothing for `grace_s` by `utc` (storage.clock): its last
    `ALIVE`, else its `BEGAN` (a worker killed before its first beat), else optuna's start
    (a trial of a workbench from before either, in the writer's local time)."""
    said = [float(t.user_attrs[k]) for k in (st.ALIVE, st.BEGAN)
            if isinstance(t.user_attrs.get(k), int | float)]
    if said:
        return utc - max(said) > grace_s
    start = t.datetime_start
    return start is not None and (_local_now() - start).total_seconds() > grace_s


def fail_stale(storage: Any, names: Sequence[str], *, requeue: bool = False,
               silent_only: bool = False) -> int:
    """Store every RUNNING trial of the named studies as failed; how many there were. With
    `requeue`, a grid point a failed trial held is queued again (a shared grid's workers
    take only waiting points; a plain run queues every point it has not scored itself).
    `silent_only`: only those silent past storage.GRACE_S (`_silent`: their last `ALIVE`,
    else `BEGAN`, else optuna's start; by the database server's clock, so that the
    workers' own clocks need not agree)."""
    import optuna
    from optuna.trial import TrialState

    from workbench.core.tuning.storage import GRACE_S

    n, utc = 0, clock(storage) if silent_only else 0.0
    if utc is None:  # the server's clock unread: none can be told silent (the next run can)
        return 0
    for name, t in _running(storage, names):
        if silent_only and not _silent(t, GRACE_S, utc):
            continue
        with contextlib.suppress(optuna.exceptions.UpdateFinishedTrialError):
            storage.set_trial_state_values(t._trial_id, TrialState.FAIL)
            n += 1
            point = t.system_attrs.get("fixed_params")
            if requeue and point:
                optuna.load_study(study_name=name, storage=storage).enqueue_trial(
                    dict(point), skip_if_exists=False)
    return n


def tune(evaluator: Evaluator, validation: Validation, spec: TuneSpec, *,
         on_trial: st.OnTrial | None = None, progress: Progress = NO_PROGRESS,
         score: bool = True, report: Sequence[str] = (),
         stored_before: Mapping[str, int] | None = None, began: Began | None = None,
         say_wait: Callable[[str], None] | None = None) -> TuneResult | None:
    """Run (or continue) every study of the validation. `score=False` only adds trials (a
    helper worker); the process that reports calls it with True. `report`: other measures
    to compare on the held-out queries (`TuneResult.also`). `stored_before`: each study's
    trials before the run's helper processes started (`stored_counts`); by default, those
    stored when this process opens it. `began`: when the run began, before its helpers
    started (`run_began`; by default when this process opens the storage): on a server, only
    trials begun or heard from since are waited for (`await_others`), told to `say_wait`."""
    storage = open_storage(spec.storage)
    try:
        return _tune(storage, evaluator, validation, spec, on_trial=on_trial,
                     progress=progress, score=score, report=report,
                     stored_before=stored_before,
                     began=began if began is not None else began_now(storage),
                     say_wait=say_wait)
    finally:  # a study read later (a shared run's) opens a connection again
        release(storage)


def _tune(storage: Any, evaluator: Evaluator, validation: Validation, spec: TuneSpec, *,
          on_trial: st.OnTrial | None, progress: Progress, score: bool,
          report: Sequence[str], stored_before: Mapping[str, int] | None,
          began: Began, say_wait: Callable[[str], None] | None) -> TuneResult | None:
    base = study_name(spec, evaluator, validation)
    cfg = config(spec, evaluator, validation)
    runs = study_runs(validation)
    timeout = spec.timeout / len(runs) if spec.timeout else None
    grid = spec.sampler == "grid"
    studies = []
    ran: dict[str, int] = {}  # each study's trials before this run
    with contextlib.closing(StudyLock(spec.storage, base)) as lock:
        # held until the result is built: a shared run scores the stored studies themselves
        _claim(lock, spec, storage, [f"{base}/{label}" for label, _, _ in runs], grid)
        if spec.fresh:
            names = [f"{base}/{label}" for label, _, _ in runs]
            check_unused(spec, storage, names)
            # every study deleted now, not each when its turn came: a process that joined in
            # the meantime kept the old ones, trials and all, unsaid (PostgreSQL)
            _delete(storage, names)
        else:  # every study's settings before the first trial of any
            check_settings(storage, [(f"{base}/{label}", {**cfg, "fold": label})
                                     for label, _, _ in runs])
        for i, (label, train, test) in enumerate(runs):
            sampler = st.make_sampler(spec.sampler, spec.seed + i + 1000 * spec.worker
                                      + _process_salt(spec),
                                      len(spec.objectives),
                                      bool(spec.constraints), spec.space)
            handle = open_study(storage, f"{base}/{label}", spec.objectives, sampler,
                                {**cfg, "fold": label}, spec.space, grid, fresh=False,
                                shared=spec.shared, start=evaluator.base,
                                owner=lock.held_alone)
            stored = st.n_done(handle.work)
            if stored and not grid:
                # a continued study: the run's own seed would draw the points already tried
                # again; seeded by how far it got, it goes on to new ones, still repeatably
                handle.work.sampler = st.make_sampler(
                    spec.sampler, spec.seed + i + 1000 * spec.worker + 7919 * stored
                    + _process_salt(spec),
                    len(spec.objectives), bool(spec.constraints), spec.space)
            share = TRIALS_SHARE if score else 1.0  # no scoring after them: the whole bar
            st.run_trials(handle, evaluator, spec.space, spec.objectives, spec.constraints, train,
                          test, trials=spec.trials, timeout=timeout, grid=grid, on_trial=on_trial,
                          progress=progress.span(share * i / len(runs),
                                                 share * (i + 1) / len(runs)))
            studies.append((label, handle.work, train, test))
            ran[label] = stored if stored_before is None else stored_before.get(label, 0)
        if not score:
            return None
        # another process's trial still running (a shared study): waited for, boundedly, so
        # that two processes on one study build their results from the same trials (rb 3:
        # one had built its from 19 while the other's 20th ran)
        # a file storage's lock fails a killed process's trials at the claim; a server's
        # keeps them RUNNING for storage.GRACE_S: only those begun or heard from since this
        # run began, or beating within a beat of it, are another process's at work (dr1 1,
        # dr5 1)
        still = (await_others(storage, [f"{base}/{label}" for label, _, _, _ in studies],
                              progress.span(TRIALS_SHARE, TRIALS_SHARE),
                              since=None if lock.lockable else began, say=say_wait)
                 if spec.shared else {})
        defaults = evaluator.evaluate({})
        # new: what the study holds when scored less what it held before the run (a helper
        # may finish a trial after this process's loop ended: it is this run's too)
        # the rest of the bar: picking and scoring each study's result (half the run's time
        # on a small set, at 100 % and unsaid)
        n = len(studies)
        results = [replace(_with_new(_fold_result(label, study, train, test, spec, evaluator,
                                                  defaults, _scoring(progress, label, j, n)),
                                     ran[label]), running=still.get(f"{base}/{label}", 0))
                   for j, (label, study, train, test) in enumerate(studies)]
    folds = [r for r in results if r.name != "all"]
    final = results[-1]
    result = TuneResult(spec, validation, dict(evaluator.base), folds, final,
                        _paired(folds) if folds else None,
                        {label: study for label, study, _, _ in studies})
    if report and folds:
        tests = {label: test for label, _, _, test in studies}
        result.also = _also(evaluator, folds, report, [tests[f.name] for f in folds])
    return result


# the start of `FoldResult.kept_why` where no trial met the constraints and the settled start
# does (rv53 b): the start was weighed against no trial
NO_TRIAL_MET = "no trial met the constraints"

TRIALS_SHARE = 0.9  # of the progress bar; the rest is scoring the studies' results


def _scoring(progress: Progress, label: str, j: int, n: int) -> Progress:
    """Study j of n's share of the scoring, said from its start."""
    span = progress.span(TRIALS_SHARE + (1 - TRIALS_SHARE) * j / n,
                         TRIALS_SHARE + (1 - TRIALS_SHARE) * (j + 1) / n)
    span(0.0, f"{label}: scoring the result")
    return span


def _with_new(fold: FoldResult, before: int) -> FoldResult:
    return replace(fold, new=fold.trials - before)


def _also(evaluator: Evaluator, folds: Sequence[FoldResult], names: Sequence[str],
          tests: Sequence[Mask | None]) -> dict[str, tuple[float, float]]:
    """Each measure's held-out mean at the defaults and at each fold's tuned settings (every
    held-out query scored by the settings its own fold found; `tests`: each fold's held-out
    queries). A selection figure is NaN on a query that is no turn (`Evaluator`), so its mean
    is over the held-out turns; the held-out queries are the fold's own, not those where the
    objective is defined (an objective of injected_tokens had left a manual search out of
    nDCG)."""
    default = evaluator.report({}, names)
    tuned: dict[str, NDArray[np.float64]] = {
        n: np.full(evaluator.n_queries, np.nan) for n in default}
    held = np.zeros(evaluator.n_queries, bool)
    for f, given in zip(folds, tests, strict=True):  # no feasible trial: the start ({})
        test = ~np.isnan(f.held_default) if given is None else given
        held |= test
        for n, v in evaluator.report(f.best, list(default)).items():
            tuned[n][test] = v[test]
    return {n: (masked_mean(default[n], held), masked_mean(tuned[n], held)) for n in default}


def _fold_result(label: str, study: Any, train: Mask, test: Mask | None, spec: TuneSpec,
                 evaluator: Evaluator, defaults: Mapping[str, NDArray[np.float64]],
                 progress: Progress = NO_PROGRESS) -> FoldResult:
    primary = spec.objectives[0]
    best = st.best_trials(study, spec.objectives)
    n = st.n_done(study)
    nan = np.full(evaluator.n_queries, np.nan)
    train_default = tuple(masked_mean(defaults[o], train) for o in spec.objectives)
    # the start settled as a kept trial is (a parameter no objective reads: nearest its start
    # that meets the constraints), before it is weighed: unsettled, sufficiency 0.95 broke
    # bundle_tokens <= 900, and a trial with no sure gain was kept in its place (dr8 1)
    start = settle(evaluator, spec.space, spec.objectives, spec.constraints, train,
                   {d.name: evaluator.base[d.name] for d in spec.space.dimensions})
    moved = {n: v for n, v in start.items() if not _same_value(v, evaluator.base[n])}
    at_start = evaluator.evaluate(start) if moved else defaults
    start_ok = all(c.excess(masked_mean(at_start[c.name], train)) <= 0
                   for c in spec.constraints)
    start_means = tuple(masked_mean(at_start[o], train) for o in spec.objectives)
    if not best and not start_ok:
        # no trial met the constraints, nor did the start: this run would keep the starting
        # values, so the fold's held-out queries are scored with them; dropping them would
        # leave the estimate to the folds where tuning worked
        held = nan.copy()
        if test is not None:
            held[test] = defaults[primary][test]
        return FoldResult(label, study.study_name, n, {}, (), train_default, held, held.copy())
    chosen: Any = best[0] if best else None
    extra: dict[str, Any] = {}
    if not best:  # no trial met the constraints, the settled start does: kept (rv53 b)
        extra = {"kept_start": True, "kept_why": f"{NO_TRIAL_MET}, and the "
                 "starting values" + (" so settled" if moved else "") + " do"}
    elif len(spec.objectives) == 1:
        chosen, extra = _pick(study, spec, evaluator, train, at_start, progress)
    else:  # the front's best on the first objective (st.best_trials orders them so), the
        # settled start one of the front where no trial dominates it (rv53 a)
        chosen, extra = _front_pick(evaluator, spec, best, start_means, start_ok)
    put_back: dict[str, ParamValue] = {}
    if chosen is None:  # the starting values kept, settled
        params = start
        chosen_values = start_means
    else:
        params = _settle_idle(evaluator, spec.space.snap(chosen.params))
        # a parameter no objective reads (sufficiency under nDCG): nearest its start that
        # meets the constraints, not the value the trial drew at random (dr2 1)
        params = settle(evaluator, spec.space, spec.objectives, spec.constraints, train,
                        params)
        # any other value the training objectives do not tell from its start's: put back
        # (rv53 d)
        params, put_back = settle_ties(evaluator, spec.space, spec.objectives,
                                       spec.constraints, train, params,
                                       progress.span(0.5, 1.0), label)
        chosen_values = tuple(chosen.values)
    if put_back:
        extra["put_back"] = put_back
    tuned = evaluator.evaluate(params)
    if spec.constraints:
        extra["constrained"] = tuple(
            (str(c), masked_mean(defaults[c.name], train), masked_mean(tuned[c.name], train))
            for c in spec.constraints)
        extra["start_breaks"] = any(c.excess(masked_mean(at_start[c.name], train)) > 0
                                    for c in spec.constraints)
        if moved:
            extra["start_moved"] = moved
            extra["start_moved_means"] = tuple(masked_mean(at_start[c.name], train)
                                               for c in spec.constraints)
    held_t, held_d = nan.copy(), nan.copy()
    if test is not None:
        held_t[test] = tuned[primary][test]
        held_d[test] = defaults[primary][test]
    front: list[dict[str, Any]] = []
    if len(spec.objectives) > 1:
        last = chosen_last(spec.space.names, spec.objectives, evaluator.model.schema.by_name)
        for t in best:
            if extra.get("start_on_front") and _dominates(spec.objectives, start_means,
                                                          t.values):
                continue  # the start, a point of the front, is better on both (rv53 a)
            # each row settled as the kept one is: its values are the ones to pass with -p,
            # not the trial's random draw of a parameter no objective reads (dr8 2)
            values = (params if t.number == extra.get("picked") else
                      settle(evaluator, spec.space, spec.objectives, spec.constraints, train,
                             _settle_idle(evaluator, spec.space.snap(t.params))))
            per_q = tuned if values is params else evaluator.evaluate(values)
            drawn = spec.space.snap(t.params)
            front.append({"number": t.number, "params": values,
                          "settled": [n for n in last
                                      if not _same_value(values[n], drawn[n])],
                          "train": list(t.values),
                          "held_out": [masked_mean(per_q[o], test) for o in spec.objectives]
                          if test is not None else []})
        if extra.get("start_on_front"):  # the settled start, a point of the front (rv53 a)
            front.append({"number": "start", "params": start, "settled": list(moved),
                          "train": list(start_means),
                          "held_out": [masked_mean(at_start[o], test) for o in spec.objectives]
                          if test is not None else []})
            sign = 1.0 if direction(primary) == "maximize" else -1.0
            # by the first objective, best first; a tie: the start first, as it is kept
            front.sort(key=lambda row: (-sign * row["train"][0], row["number"] != "start"))
    return FoldResult(label, study.study_name, n, params, chosen_values,
                      train_default, held_t, held_d, front, **extra)


def _front_pick(evaluator: Evaluator, spec: TuneSpec, front: Sequence[Any],
                start: tuple[float, ...], start_ok: bool) -> tuple[Any, dict[str, Any]]:
    """The trial a study of several objectives keeps from its Pareto front `front` (best
    first objective first), None for the starting values, and what the report says of it.
    The settled start (`start`: its training means) is a point of the front where it meets
    the constraints (`start_ok`) and no trial is at least as good on every objective and
    better on one; kept where its first objective is at least the front's best (a tie goes
    to the start, as one objective's pick keeps it where no gain is sure). A trial that
    scored the starting values (the study's first) is the start, kept as such."""
    signs = [1.0 if direction(o) == "maximize" else -1.0 for o in spec.objectives]
    mine = [s * v for s, v in zip(signs, start, strict=True)]

    def dominates(t: Any) -> bool:
        return _dominates(spec.objectives, t.values, start)

    top = front[0]
    if _is_start(evaluator, spec, top):
        return None, {"kept_start": True, "picked": None,
                      "kept_why": f"the starting values are the front's best {spec.objectives[0]}"
                                  " on training"}
    on_front = (start_ok and not any(_is_start(evaluator, spec, t) for t in front)
                and not any(math.isnan(v) for v in mine) and not any(dominates(t) for t in front))
    if on_front and mine[0] >= signs[0] * float(top.values[0]):
        return None, {"kept_start": True, "picked": None, "start_on_front": True,
                      "kept_why": f"no trial of the Pareto front scored a better training "
                                  f"{spec.objectives[0]} than the starting values"}
    return top, {"picked": top.number, "start_on_front": on_front}


def _dominates(objectives: Sequence[str], a: Sequence[float], b: Sequence[float]) -> bool:
    """Whether training means `a` are at least as good as `b` on every objective and better
    on one (a Pareto front holds no point another dominates)."""
    signs = [1.0 if direction(o) == "maximize" else -1.0 for o in objectives]
    pairs = [(s * x, s * y) for s, x, y in zip(signs, a, b, strict=True)]
    return all(x >= y for x, y in pairs) and any(x > y for x, y in pairs)


def _settle_idle(evaluator: Evaluator, params: dict[str, Any]) -> dict[str, Any]:
    """`params` with each value that is idle beside the others (the schema's `needs`: rrf k
    while the normalisation is not rrf) put back to its starting value: it changes no score,
    and reported or written as "tuned" it reads as a change to ship."""
    schema = evaluator.model.schema
    full = {**evaluator.base, **params}
    return {n: (evaluator.base[n] if schema.idle_because(n, full) else v)
            for n, v in params.items()}


def _pick(study: Any, spec: TuneSpec, evaluator: Evaluator, train: Mask,
          defaults: Mapping[str, NDArray[np.float64]],
          progress: Progress = NO_PROGRESS) -> tuple[Any, dict[str, Any]]:
    """The trial a single-objective study keeps (`pick`), None for the starting values, and
    what the report says about the choice. Scoring the candidates per query polls `progress`
    (a cancel lands between two of them)."""
    primary = spec.objectives[0]
    ranked = st.ranked_trials(study, primary)
    start = np.where(train, defaults[primary], np.nan)

    def per_query(trial: Any) -> NDArray[np.float64]:
        progress(0.5, f"{study.study_name}: scoring the best trials per query")
        return np.where(train, evaluator.evaluate(spec.space.snap(trial.params))[primary],
                        np.nan)

    feasible = all(c.excess(masked_mean(defaults[c.name], train)) <= 0
                   for c in spec.constraints)
    sign = 1.0 if direction(primary) == "maximize" else -1.0
    p = pick_trial(ranked, spec.pick, per_query, start, sign, feasible)
    # the settled start, where it meets the constraints, is a candidate of `best` too: its
    # training mean at least the top trial's, it is the highest (a tie goes to the start, as
    # `_front_pick` keeps it). Only trial 0 had been weighed as the start, so a --range that
    # left the start out kept a trial scoring below it as "the highest training mean" (dI 1)
    mine = masked_mean(defaults[primary], train)
    top_start = _is_start(evaluator, spec, p.top) or (
        feasible and not math.isnan(mine) and sign * mine >= sign * float(p.top.values[0]))
    # a kept trial at the starting values (--pick best where the start, trial 0, scores
    # highest) is the start kept: reported as tuned, it read as a change to ship
    kept = (None if p.trial is None or _is_start(evaluator, spec, p.trial)
            or (spec.pick == "best" and top_start) else p.trial)
    return kept, {"kept_start": kept is None, "bound": p.bound, "bound_n": p.n,
                  "top": (p.top.number, float(p.top.values[0])), "top_start": top_start,
                  "picked": None if kept is None else kept.number}


def _is_start(evaluator: Evaluator, spec: TuneSpec, trial: Any) -> bool:
    """Whether `trial` scored the starting values: every searched value as the start's (a
    value idle beside the others counted as the start's, as `_settle_idle` writes it)."""
    params = _settle_idle(evaluator, spec.space.snap(trial.params))
    return all(_same_value(v, evaluator.base[n]) for n, v in params.items())


def _same_value(a: object, b: object) -> bool:
    """Equal, numbers on the slider's step compared to 1e-9 (a snapped 1.2 may differ from
    the start's in its last bits)."""
    if isinstance(a, int | float) and isinstance(b, int | float) \
            and not isinstance(a, bool) and not isinstance(b, bool):
        return math.isclose(a, b, rel_tol=0.0, abs_tol=1e-9)
    return a == b


def _paired(folds: Sequence[FoldResult]) -> PairedTest | None:
    """Defaults vs tuned over every held-out query (each held out by exactly one fold)."""
    tuned, default = _merge([f.held_tuned for f in folds]), _merge([f.held_default for f in folds])
    keep = ~(np.isnan(tuned) | np.isnan(default))
    if not keep.any():
        return None
    return paired_test(default[keep], tuned[keep])


def _merge(arrays: Sequence[NDArray[np.float64]]) -> NDArray[np.float64]:
    out = np.full(arrays[0].shape, np.nan)
    for a in arrays:
        keep = ~np.isnan(a)
        out[keep] = a[keep]
    return out
