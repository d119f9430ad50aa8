"""Tuning that finds the settings: optuna studies over a model's parameters, scored on
queries they never saw.

- `space`: the search space from the parameter schema (`--tune`, `--range`)
- `objectives`: what a study maximises or minimises, per query
- `validation`: held-out splits, k folds, time splits
- `evaluator`: a trial as a live tick (prepared states built once)
- `storage`: optuna storages, the in-memory working copy of a study
- `study`: samplers, the trial loop, the best trials
- `runner`: every fold's study, held-out scores, the settings to ship
"""

import optuna

from workbench.core.tuning import data, runner
from workbench.core.tuning.evaluator import Evaluator
from workbench.core.tuning.job import TuneJob, TuneOutcome, job_from_session, run_job
from workbench.core.tuning.runner import FoldResult, TuneResult, TuneSpec, tune
from workbench.core.tuning.space import (
    SearchSpace,
    build_space,
    default_names,
    model_names,
    parse_names,
    parse_ranges,
)
from workbench.core.tuning.storage import storage_url
from workbench.core.tuning.study import SAMPLERS, Constraint, TrialReport
from workbench.core.tuning.validation import Validation, holdout, kfold, no_validation, time_split

# optuna announces every study it creates at INFO; the workbench reports progress itself
optuna.logging.set_verbosity(optuna.logging.WARNING)

__all__ = [
    "SAMPLERS",
    "Constraint",
    "Evaluator",
    "FoldResult",
    "SearchSpace",
    "TrialReport",
    "TuneJob",
    "TuneOutcome",
    "TuneResult",
    "TuneSpec",
    "Validation",
    "build_space",
    "data",
    "default_names",
    "holdout",
    "job_from_session",
    "kfold",
    "model_names",
    "no_validation",
    "parse_names",
    "parse_ranges",
    "run_job",
    "runner",
    "storage_url",
    "time_split",
    "tune",
]
