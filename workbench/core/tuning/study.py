"""Running one optuna study: samplers, the trial loop, the best trials.

A trial suggests a value for every dimension, runs the live path (`Evaluator`), and is told
the mean of each objective over the training queries; the held-out mean is stored beside it
(a user attribute, for the curves in the window) and never steers the search. Constraints
are stored as optuna's `constraints` convention (≤ 0 is feasible) and the TPE sampler reads
them.

Grid studies are exact under many workers: every grid point is enqueued once, by the process
that created the study, and a worker only ever takes a waiting trial (the storage's
WAITING → RUNNING transition is atomic), so each point is evaluated once and no stray trial is
stored. Other samplers run until the study holds `trials` trials (a few more when workers
race for the last ones).
"""

from __future__ import annotations

import contextlib
import math
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import optuna
from optuna.trial import FrozenTrial, Trial, TrialState

from workbench.core.engine import NO_PROGRESS, Progress
from workbench.core.params import ParamError, ParamValue
from workbench.core.tuning.evaluator import Evaluator
from workbench.core.tuning.objectives import direction, masked_mean
from workbench.core.tuning.space import Dimension, SearchSpace
from workbench.core.tuning.storage import FINISHED, Handle, clock, grid_points
from workbench.core.tuning.validation import Mask

SAMPLERS = ("tpe", "cmaes", "random", "grid")


@dataclass(frozen=True)
class Constraint:
    """`name <= bound` or `name >= bound`, on the mean over the training queries."""

    name: str
    op: str
    bound: float

    def excess(self, value: float) -> float:
        """≤ 0 when satisfied (optuna's convention)."""
        return value - self.bound if self.op == "<=" else self.bound - value

    def __str__(self) -> str:
        return f"{self.name} {self.op} {self.bound:g}"


@dataclass(frozen=True)
class TrialReport:
    """What the window and the progress bar hear after each trial."""

    study: str
    number: int
    done: int
    total: int | None
    train: tuple[float, ...]
    held_out: tuple[float, ...]
    params: dict[str, Any]
    feasible: bool


OnTrial = Callable[[TrialReport], None]


def make_sampler(name: str, seed: int, n_objectives: int,
                 constrained: bool, space: SearchSpace) -> optuna.samplers.BaseSampler:
    seed %= 2 ** 32  # the run's seed plus offsets per study, worker and stored trials
    if name == "tpe":
        # constraints reach TPE as each trial's own (`Trial.set_constraint`)
        return optuna.samplers.TPESampler(seed=seed, multivariate=True)
    if name == "random":
        return optuna.samplers.RandomSampler(seed=seed)
    if name == "cmaes":
        if n_objectives > 1:
            raise ParamError("the cmaes sampler optimises one objective; use tpe for several")
        return optuna.samplers.CmaEsSampler(seed=seed, warn_independent_sampling=False)
    if name == "grid":
        # the points are enqueued; anything else is never asked for
        return optuna.samplers.RandomSampler(seed=seed)
    raise ParamError(f"unknown sampler {name!r}; valid: {', '.join(SAMPLERS)}")


def suggest(trial: Trial, dim: Dimension) -> ParamValue:
    if dim.kind in ("choice", "bool"):
        value = trial.suggest_categorical(dim.name, list(dim.choices))
        assert isinstance(value, bool | str | int | float)
        return value
    if dim.kind == "int":
        return trial.suggest_int(dim.name, int(dim.low), int(dim.high),
                                 step=int(dim.step or 1))
    # searched as a continuous range and snapped to the slider's step here: optuna's samplers
    # handle a stepped float as a discrete one, 2-3× slower per trial (TPE), for no gain
    return dim.snap(trial.suggest_float(dim.name, dim.low, dim.high))


def finished(study: optuna.Study) -> list[FrozenTrial]:
    return study.get_trials(deepcopy=False, states=FINISHED)


DONE = (TrialState.COMPLETE, TrialState.PRUNED)
BEGAN = "began_utc"  # a trial's user attribute: when it began, seconds since the epoch


def n_done(study: optuna.Study) -> int:
    """Trials run to the end: a failed one (interrupted, its process killed) is run again."""
    return study._storage.get_n_trials(study._study_id, DONE)


def _counted(study: optuna.Study) -> int:
    """Trials that count toward --trials: those done and those running (another worker's).
    Not a failed one, nor one only queued (the starting values: `ask` takes it)."""
    return study._storage.get_n_trials(study._study_id, (*DONE, TrialState.RUNNING))


def run_trials(handle: Handle, evaluator: Evaluator, space: SearchSpace,
               objectives: Sequence[str], constraints: Sequence[Constraint], train: Mask,
               test: Mask | None, *, trials: int | None, timeout: float | None,
               grid: bool, on_trial: OnTrial | None = None,
               progress: Progress = NO_PROGRESS) -> None:
    """Add trials to `study` until it holds `trials` (a grid: until no point is waiting), the
    timeout passes, or `progress` says stop (the trials done are kept)."""
    start = time.monotonic()
    study = handle.work
    total = len(grid_points(space)) if grid else trials
    while True:
        done = n_done(study)
        if total is not None:
            progress(done / max(total, 1), f"trial {done}/{total}")
        else:
            progress(min(1.0, (time.monotonic() - start) / (timeout or 1)), f"trial {done}")
        if timeout is not None and time.monotonic() - start >= timeout:
            return
        if not grid and trials is not None and _counted(study) >= trials:
            return
        held = _hold_ctrl_c()
        try:  # a Ctrl-C while the storage makes the trial arrives once the trial is in hand
            trial = _claim_waiting(study) if grid else study.ask()
        except BaseException:
            _let_ctrl_c(held)
            raise
        if trial is None:
            _let_ctrl_c(held)
            return
        try:
            _let_ctrl_c(held)  # a Ctrl-C held back is raised here, and fails the trial below
            with contextlib.suppress(optuna.exceptions.UpdateFinishedTrialError):
                # optuna's own start time is the writer's naive local time: no use to a
                # process in another time zone asking whether the trial is still run (--fresh)
                began = clock(study._storage)
                if began is not None:  # else its first beat speaks for it
                    trial.set_user_attr(BEGAN, began)
            # on shared storage the trial says it runs every storage.HEARTBEAT_S (`ALIVE`): a
            # killed worker's falls silent and the next run fails it (runner.fail_stale)
            with _heartbeat(trial, study, handle.mirror):
                _run_one(handle, trial, evaluator, space, objectives, constraints, train,
                         test, done + 1, total, on_trial)
        except BaseException:
            # Ctrl-C (or an error) anywhere in the trial — its suggest, its writes, not only
            # its evaluation — stores it as failed where storage is shared: on PostgreSQL,
            # with no lock to find it stale, it stayed RUNNING, counted in every later
            # budget and had --fresh refused as "in use" (a private copy never stores it)
            if not handle.mirror:  # a second signal (Ctrl-C to the group, then the run's
                # SIGTERM to its helpers) cut this write short and left the trial RUNNING
                held = _hold_ctrl_c()
                try:
                    with contextlib.suppress(Exception):
                        study.tell(trial, state=TrialState.FAIL)
                finally:
                    _let_ctrl_c(held, deliver=False)  # ending already
            raise


def _hold_ctrl_c() -> Any:
    """Hold Ctrl-C (and SIGTERM, SIGHUP) back while a trial is made: one inside `ask` stored a
    RUNNING trial this process never held, so it was never failed — on PostgreSQL, with no
    lock to find it stale, counted in the budget and refusing --fresh for minutes. The
    handlers are swapped for one that notes the signal (a mask would not do: the kernel
    hands a process's signal to any thread not masking it, and Python acts on it in the
    main thread all the same); None in another thread (the window cancels by flag)."""
    if threading.current_thread() is not threading.main_thread():
        return None
    caught: list[int] = []
    kept = {sig: signal.signal(sig, lambda n, _frame: caught.append(n))
            for sig in _HELD if sig is not None}
    return kept, caught


_HELD = (signal.SIGINT, getattr(signal, "SIGTERM", None), getattr(signal, "SIGHUP", None))


def _let_ctrl_c(held: Any, *, deliver: bool = True) -> None:
    """The handlers put back, and a signal that came meanwhile handled now, as it would have
    been (unless not `deliver`: the command is ending already)."""
    if held is None:
        return
    kept, caught = held
    for sig, handler in kept.items():
        signal.signal(sig, handler)
    if caught and deliver:
        handler = kept[caught[0]]
        if callable(handler):
            handler(caught[0], None)
        elif handler == signal.SIG_DFL:
            os.kill(os.getpid(), caught[0])


ALIVE = "alive_utc"  # a trial's user attribute: when it last said it runs (epoch seconds)


@contextlib.contextmanager
def _heartbeat(trial: Trial, study: optuna.Study, mirror: bool) -> Iterator[None]:
    """While the trial runs on shared storage, a thread stores `ALIVE` every HEARTBEAT_S: a
    killed worker's trial falls silent and the next run fails it (runner.fail_stale). Its
    own attribute, not optuna's heartbeat: that one counts a trial with no beat yet as alive
    for good, and one database error ends its thread. Nothing on a private copy."""
    if mirror:
        yield
        return
    from workbench.core.tuning.storage import HEARTBEAT_S

    done = threading.Event()

    def beat() -> None:
        while not done.wait(HEARTBEAT_S):
            with contextlib.suppress(Exception):  # a lost connection: the next beat tries
                # by the database's clock on a server: the machines' clocks need not agree
                now = clock(study._storage)
                if now is not None:
                    study._storage.set_trial_user_attr(trial._trial_id, ALIVE, now)

    thread = threading.Thread(target=beat, name="trial-heartbeat", daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()


def _claim_waiting(study: optuna.Study) -> Trial | None:
    for frozen in study.get_trials(deepcopy=False, states=(TrialState.WAITING,)):
        try:
            if study._storage.set_trial_state_values(frozen._trial_id, TrialState.RUNNING):
                return Trial(study, frozen._trial_id)
        except (optuna.exceptions.UpdateFinishedTrialError,
                optuna.exceptions.StorageInternalError):
            continue  # another worker took it first
    return None


def _run_one(handle: Handle, trial: Trial, evaluator: Evaluator, space: SearchSpace,
             objectives: Sequence[str], constraints: Sequence[Constraint], train: Mask,
             test: Mask | None, done: int, total: int | None,
             on_trial: OnTrial | None) -> None:
    """One trial, evaluated and told. Two workers can claim the same waiting grid point at the
    same moment (SQLite has no row lock): whichever tells it first stands, and the other drops
    its duplicate at its first write after that (`_told_elsewhere`)."""
    study = handle.work
    try:
        values = {d.name: suggest(trial, d) for d in space.dimensions}
    except optuna.exceptions.UpdateFinishedTrialError:
        return
    per_q = evaluator.evaluate(values)  # failed or interrupted: stored as failed by the caller
    train_v = tuple(masked_mean(per_q[o], train) for o in objectives)
    held = tuple(masked_mean(per_q[o], test) for o in objectives) if test is not None else ()
    excess = [c.excess(masked_mean(per_q[c.name], train)) for c in constraints]
    # a constrained figure is NaN on a query that is no turn (a manual search beside
    # injections, rv51 3): a training set of none has no mean to hold it to, said as such
    # rather than read as a broken constraint
    undefined = [str(c) for c, e in zip(constraints, excess, strict=True) if math.isnan(e)]
    try:
        # optuna keeps the value it sampled (k1 1.6464…); the slider's value was scored (1.65)
        trial.set_user_attr("scored", dict(values))
        trial.set_user_attr("held_out", [_json_float(v) for v in held])
        if excess and not undefined:
            trial.set_user_attr("constraints", excess)
            for c, e in zip(constraints, excess, strict=True):
                trial.set_constraint(str(c), e)
        if any(math.isnan(v) for v in train_v):
            handle.record(study.tell(trial, state=TrialState.FAIL))
            raise ParamError(f"objective {', '.join(objectives)} is undefined on the "
                             "training queries (none of them counts for it)")
        if undefined:
            handle.record(study.tell(trial, state=TrialState.FAIL))
            raise ParamError(f"constraint {', '.join(undefined)} is undefined on the training "
                             f"queries of {study.study_name} (none of them counts for it: a "
                             "manual search or a disabled project's query is no injection); "
                             "use fewer folds or drop the constraint")
        handle.record(study.tell(trial, list(train_v)))
    except (optuna.exceptions.UpdateFinishedTrialError, ValueError) as exc:
        if _told_elsewhere(exc):
            return
        raise
    if on_trial is not None:
        on_trial(TrialReport(study.study_name, trial.number, done, total, train_v, held,
                             dict(values), all(e <= 0 for e in excess)))


def _told_elsewhere(exc: Exception) -> bool:
    """Whether optuna refused a write because the trial is already finished: a write to it
    (UpdateFinishedTrialError), or a tell that read it finished (ValueError "Cannot tell a
    COMPLETE trial.")."""
    if isinstance(exc, optuna.exceptions.UpdateFinishedTrialError):
        return True
    return not isinstance(exc, ParamError) and str(exc).startswith("Cannot tell a")


def _json_float(v: float) -> float | None:
    return None if math.isnan(v) else float(v)


def ranked_trials(study: optuna.Study, objective: str) -> list[FrozenTrial]:
    """The feasible finished trials, the best mean of `objective` (the first) first; among
    equal means the lowest number first."""
    done = [t for t in study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,))
            if all(c <= 0 for c in t.user_attrs.get("constraints", ()))]
    sign = 1.0 if direction(objective) == "maximize" else -1.0
    return sorted(done, key=lambda t: (-sign * t.values[0], t.number))


def best_trials(study: optuna.Study, objectives: Sequence[str]) -> list[FrozenTrial]:
    """Single objective: the best feasible trial (lowest number among ties); several: the
    feasible Pareto front, by the first objective."""
    if len(objectives) == 1:
        return ranked_trials(study, objectives[0])[:1]
    done = [t for t in study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,))
            if all(c <= 0 for c in t.user_attrs.get("constraints", ()))]
    if not done:
        return []
    signs = np.array([1.0 if direction(o) == "maximize" else -1.0 for o in objectives])
    vals = np.array([t.values for t in done], np.float64) * signs
    front = [i for i in range(len(done))
             if not any((vals[j] >= vals[i]).all() and (vals[j] > vals[i]).any()
                        for j in range(len(done)))]
    return sorted((done[i] for i in front), key=lambda t: -t.values[0] * signs[0])
