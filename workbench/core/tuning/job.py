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
from workbench.core.tuning.data import choose_validation
from workbench.core.tuning.evaluator import Evaluator
from workbench.core.tuning.runner import TuneResult, TuneSpec, tune
from workbench.core.tuning.space import build_space
from workbench.core.tuning.storage import storage_url
from workbench.core.tuning.study import OnTrial

VALIDATIONS = ("auto", "kfold", "time", "none")


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


def job_from_session(session: Any, names: Sequence[str], **choices: Any) -> TuneJob:
    """Capture what a run needs from a `TuningSession` (on the GUI thread)."""
    if session.model is None or session.dataset is None or session.prepared is None:
        raise ParamError("open a dataset and let it prepare before tuning")
    if session.needs_prepare:
        raise ParamError("recompute the prepare-stage parameters before tuning")
    return TuneJob(session.model, session.dataset, dict(session.params), session.prepared,
                   tuple(names), **choices)


def run_job(job: TuneJob, *, on_trial: OnTrial | None = None,
            progress: Progress = NO_PROGRESS) -> TuneOutcome:
    """Every study of the job (cancelling keeps the trials done; a cancelled job raises
    `Cancelled`, and starting it again continues where it stopped)."""
    if not job.names:
        raise ParamError("tick at least one parameter to tune")
    space = build_space(job.model.schema, list(job.names), dict(job.ranges))
    evaluator = Evaluator(job.model, job.dataset, job.params, [job.objective],
                          prepared=job.prepared, progress=progress)
    counted = evaluator.counted()
    if not counted.any():
        raise ParamError("no query counts for this objective (no judgments or cases)")
    kind = job.validation
    if kind not in VALIDATIONS:
        raise ParamError(f"validation must be one of {', '.join(VALIDATIONS)}")
    validation = choose_validation(
        job.dataset, counted, folds=0 if kind == "none" else
        (job.folds if kind == "kfold" else None),
        time_fraction=job.time_fraction if kind == "time" else None, seed=job.seed)
    url = storage_url(job.storage or None, Path(cache_dir()) / "studies.db")
    spec = TuneSpec(space, (job.objective,), (), job.sampler, job.seed, job.trials,
                    job.timeout, url, fresh=job.fresh, pick=job.pick)
    result = tune(evaluator, validation, spec, on_trial=on_trial, progress=progress)
    assert result is not None
    study = result.studies.get(result.final.name)
    return TuneOutcome(result, dict(result.final.best),
                       importances(study) if study is not None else {},
                       trial_points(study) if study is not None else [], url)


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


def trial_points(study: optuna.Study) -> list[TrialPoint]:
    out = []
    for t in study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.COMPLETE,)):
        held = t.user_attrs.get("held_out") or [None]
        out.append(TrialPoint(t.number, dict(t.params), float(t.values[0]),
                              math.nan if held[0] is None else float(held[0])))
    return out
