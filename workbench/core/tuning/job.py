"""A tuning run as the window asks for it: a request captured from the session on the GUI
thread, run on a worker with progress and cancel, an outcome applied back.

    request = job_from_session(session, names=[...], objective="ndcg@10", trials=100)
    outcome = run_job(request, on_trial=..., progress=Progress(should_stop=...))
    session.set_params(outcome.best)          # one undoable step

The outcome adds what the window draws after a run: optuna's parameter importances for the
study that tuned the settings to ship, and its trials (parameters, training and held-out
values) for the slice and contour charts.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import optuna

from workbench.core.data import Dataset
from workbench.core.engine import NO_PROGRESS, Model, Progress
from workbench.core.params import ParamError, Params, ParamValue
from workbench.core.store import cache_dir
from workbench.core.tuning.data import choose_validation, merge_splits
from workbench.core.tuning.evaluator import Evaluator
from workbench.core.tuning.lock import Busy
from workbench.core.tuning.runner import TuneResult, TuneSpec, tune
from workbench.core.tuning.space import SearchSpace, build_space
from workbench.core.tuning.storage import release, storage_url
from workbench.core.tuning.study import OnTrial
from workbench.core.tuning.validation import StartCoversHeldOut, Validation, set_aside

# "split": tune on another judged split of the folder (`train_split`), hold the open one out
VALIDATIONS = ("auto", "kfold", "time", "none", "split")


@dataclass(frozen=True)
class TuneJob:
    model: Model
    dataset: Dataset
    params: Params  # the session's values: the start, and the fixed values of what is not tuned
    prepared: Any
    names: tuple[str, ...]
    ranges: Mapping[str, tuple[float, float]] = field(default_factory=dict)
    objective: str = "ndcg@10"
    trials: int | None = 100
    timeout: float | None = None
    validation: str = "auto"  # one of VALIDATIONS
    folds: int = 5
    time_fraction: float = 0.5
    sampler: str = "tpe"
    seed: int = 0
    storage: str = ""  # a file or URL; "" = studies.db in the cache folder
    fresh: bool = False  # start the study anew instead of continuing it
    pick: str = "bound"  # which trial a study keeps (pick.PICKS)
    train_split: str = ""  # validation "split": the split tuned on …
    source: str = ""  # … read from the folder the dataset came from …
    split: str = ""  # … beside the dataset's own split, held out
    # the record of the queries the starting values were tuned on (a tuned configuration
    # applied): never held out here (`validation.set_aside`)
    tuned_on: Any = None


@dataclass
class TrialPoint:
    number: int
    params: dict[str, Any]
    train: float
    held_out: float


@dataclass
class TuneOutcome:
    result: TuneResult
    best: dict[str, ParamValue]  # the settings to ship ({} when no trial succeeded)
    importances: dict[str, float]  # parameter → share, most important first
    trials: list[TrialPoint]  # of the study that tuned `best`
    storage: str
    dataset: Dataset  # the queries the result's masks index (both splits for "split")


def job_from_session(session: Any, names: Sequence[str], **choices: Any) -> TuneJob:
    """Capture what a run needs from a `TuningSession` (on the GUI thread)."""
    if session.model is None or session.dataset is None or session.prepared is None:
        raise ParamError("open a dataset and let it prepare before tuning")
    if session.needs_prepare:
        raise ParamError("recompute the prepare-stage parameters before tuning")
    return TuneJob(session.model, session.dataset, dict(session.params), session.prepared,
                   tuple(names), **choices, source=session.source or "", split=session.split,
                   tuned_on=session.tuned_on)


def run_job(job: TuneJob, *, on_trial: OnTrial | None = None,
            progress: Progress = NO_PROGRESS) -> TuneOutcome:
    """Every study of the job (cancelling keeps the trials done; a cancelled job raises
    `Cancelled`, and starting it again continues where it stopped)."""
    space, dataset, evaluator, validation, spec = _plan(job, progress)
    try:
        result = tune(evaluator, validation, spec, on_trial=on_trial, progress=progress)
    except Busy as exc:  # in the window's words, not the command line's options
        raise ParamError(f"This study is being tuned right now by another workbench tune (a "
                         f"terminal, or another window), in {exc.where}: a second run would "
                         "evaluate and store its trials again. Wait for it to finish.") from None
    assert result is not None
    study = result.studies.get(result.final.name)
    outcome = TuneOutcome(result, dict(result.final.best),
                          importances(study) if study is not None else {},
                          trial_points(study, space) if study is not None else [], spec.storage,
                          dataset)
    for kept in result.studies.values():  # the window keeps the outcome, not the connections
        release(kept._storage)
    return outcome


def _plan(job: TuneJob, progress: Progress = NO_PROGRESS) -> tuple[
        SearchSpace, Dataset, Evaluator, Validation, TuneSpec]:
    """What a run of `job` is before its first trial: the space, the queries (both splits
    for "split"), the evaluator, the validation and the spec naming the storage."""
    if not job.names:
        raise ParamError("tick at least one parameter to tune")
    space = build_space(job.model.schema, list(job.names), dict(job.ranges))
    kind = job.validation
    if kind not in VALIDATIONS:
        raise ParamError(f"validation must be one of {', '.join(VALIDATIONS)}")
    dataset, prepared, split_masks = job.dataset, job.prepared, None
    if kind == "split":
        dataset, split_masks = _with_training_split(job)
        prepared = None  # prepared again, with the training split's queries
    evaluator = Evaluator(job.model, dataset, job.params, [job.objective],
                          prepared=prepared, progress=progress)
    counted = evaluator.counted()
    if not counted.any():
        raise ParamError("no query counts for this objective (no judgments or cases)")
    validation = choose_validation(
        dataset, counted, folds=0 if kind == "none" else
        (job.folds if kind == "kfold" else None),
        time_fraction=job.time_fraction if kind == "time" else None, seed=job.seed,
        split_masks=split_masks)
    if job.tuned_on is not None and job.tuned_on.same_data(dataset):
        from workbench.core.tuning.validation import start_prior

        # a twin of a query tuned on (same text and judgments, any split) counts too (rB 2),
        # said as a repeat of one (dI 3)
        prior, repeats = start_prior(dataset, list(job.tuned_on.trained_on))
        try:
            from workbench.core.tuning.data import dataset_nouns

            validation = set_aside(validation, prior, dataset_nouns(dataset)[1], repeats)
        except StartCoversHeldOut as exc:  # in the window's words, with its ways out
            side = (f"split {job.split}, the one held out" if kind == "split" else
                    "the newer tasks the time split holds out")
            raise ParamError(
                f"The values in use were tuned on all {exc.held:,} queries of {side}, by an "
                "earlier run: no score there would be held out. Reset all (the model's "
                "defaults) to tune from those"
                + (f", or open split {job.train_split} (File ▸ Split) and choose validation "
                   "none to tune from these values on it, with no held-out score"
                   if kind == "split" and job.train_split else
                   ", or choose validation none to tune from these values with no held-out "
                   "score (on the queries they were tuned on: training scores)")
                + ".") from None
    url = storage_url(job.storage or None, Path(cache_dir()) / "studies.db")
    spec = TuneSpec(space, (job.objective,), (), job.sampler, job.seed, job.trials,
                    job.timeout, url, fresh=job.fresh, pick=job.pick)
    return space, dataset, evaluator, validation, spec


def _with_training_split(job: TuneJob) -> tuple[Dataset, tuple[Any, Any, str]]:
    """The job's dataset with the queries of its folder's `train_split` before its own, and
    the masks of each: tuned on the first, held out on the second (as `tune --train-split`)."""
    from workbench.core.formats import load_dataset

    if not job.train_split or not job.source:
        raise ParamError("a split validation needs the split to tune on and the folder")
    if job.train_split == job.split:
        raise ParamError(f"split {job.split} is the one held out; tune on another")
    train = load_dataset(job.source, split=job.train_split)
    merged, train_mask, test_mask, dropped = merge_splits(train, job.dataset, job.train_split,
                                                          job.split)
    overlap = f"; {len(dropped)} in both held out, not tuned on" if dropped else ""
    describe = (f"tuned on split {job.train_split} ({int(train_mask.sum())} queries), "
                f"held out: split {job.split} ({int(test_mask.sum())}){overlap}")
    return merged, (train_mask, test_mask, describe)


def importances(study: optuna.Study) -> dict[str, float]:
    """optuna's parameter importances (its default evaluator), {} when too few trials or
    parameters vary to tell."""
    done = study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.COMPLETE,))
    if len(done) < 2 or len(study.directions) != 1:
        return {}
    try:
        with warnings.catch_warnings():
            # optuna warns when a few trials cannot separate good from bad ("quantiles select
            # the same set of trials"); the importances are then simply uninformative
            warnings.simplefilter("ignore", UserWarning)
            return dict(optuna.importance.get_param_importances(study))
    except (RuntimeError, ValueError):
        return {}


def trial_points(study: optuna.Study, space: SearchSpace) -> list[TrialPoint]:
    """The finished trials, each at the values it was scored with (on the sliders' steps)."""
    out = []
    for t in study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.COMPLETE,)):
        held = t.user_attrs.get("held_out") or [None]
        out.append(TrialPoint(t.number, space.snap(t.params), float(t.values[0]),
                              math.nan if held[0] is None else float(held[0])))
    return out
