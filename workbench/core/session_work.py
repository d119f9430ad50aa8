"""What crosses from the session to a worker thread and back: immutable requests captured on
the caller's thread with a generation number, the functions a worker runs on them, and the
results the session takes only when they are still the newest (`TuningSession.apply`,
`apply_prepared`)."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from workbench.core import engine
from workbench.core.data import Dataset
from workbench.core.engine import NO_PROGRESS, Model, Progress
from workbench.core.metrics import Judgments
from workbench.core.params import Params
from workbench.core.pipeline import Result, run_live


@dataclass(frozen=True)
class ComputeRequest:
    generation: int
    model: Model
    prepared: Any
    params: Params
    judgments: Judgments | None
    metrics: tuple[str, ...]
    depth: int
    hint: Any = None  # the previous result's ranking.pair: a faster top k, same result


@dataclass(frozen=True)
class ComputeResult:
    generation: int
    params: Params
    result: Result
    seconds: float


def compute(request: ComputeRequest) -> ComputeResult:
    """Combine, rank and evaluate: safe to run on a worker thread."""
    t0 = time.perf_counter()
    result = run_live(request.model, request.prepared, request.params, request.judgments,
                      request.metrics, request.depth, hint=request.hint)
    return ComputeResult(request.generation, request.params, result,
                         time.perf_counter() - t0)


@dataclass(frozen=True)
class PrepareRequest:
    generation: int
    model: Model
    dataset: Dataset
    params: Params


@dataclass(frozen=True)
class PrepareResult:
    generation: int
    params: Params
    prepared: Any


def run_prepare(request: PrepareRequest, progress: Progress = NO_PROGRESS) -> PrepareResult:
    """The prepare stage (cached on disk): may run on a worker; raises Cancelled on stop."""
    prepared = engine.prepare(request.model, request.dataset, request.params, progress)
    return PrepareResult(request.generation, request.params, prepared)
