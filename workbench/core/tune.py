"""Sweeps: a metric as a function of one live parameter, the others held.

Values are enumerated in integer steps and divided (never by adding a float step, which drifts
and drops the last value — ranx's weight grid shows how that goes wrong).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from workbench.core.engine import NO_PROGRESS, Progress
from workbench.core.params import Param, ParamError, ParamValue
from workbench.core.pipeline import Pipeline

MAX_POINTS = 1000  # a sweep past this many values needs --force (each is a full evaluation)


def grid(low: float, high: float, step: float,
         max_points: int | None = None) -> list[float]:
    """low, low + step, …, high (high included when the step lands on it), exact to 1e-9.
    ParamError for a step that is not positive, low above high, or more than `max_points`."""
    if not step > 0 or not math.isfinite(step):
        raise ParamError(f"--values low:high:step needs a positive step, got {step:g}")
    if not low <= high:
        raise ParamError(f"--values low:high:step needs low <= high, got {low:g} > {high:g}")
    n = int((high - low) / step + 1e-9) + 1
    if max_points is not None and n > max_points:
        raise ParamError(f"--values {low:g}:{high:g}:{step:g} is {n:,} points, more than "
                         f"{max_points:,}: take a larger step, or give --force")
    return [round(low + i * step, 10) for i in range(n)]


def parse_values(param: Param, spec: str | None,
                 max_points: int | None = MAX_POINTS) -> list[ParamValue]:
    """`0:1:0.05` (low:high:step), `0.1,0.5,0.9`, or None for the parameter's own range."""
    if param.kind == "choice":
        return list(param.choices) if spec is None else [param.validate(v) for v in spec.split(",")]
    if param.kind == "bool":
        return [False, True]
    if param.kind not in ("float", "int") or param.low is None or param.high is None:
        raise ParamError(f"parameter {param.name} cannot be swept ({param.kind})")
    if spec is None:
        step = param.step or (param.high - param.low) / 20
        values: list[float | str] = list(grid(param.low, param.high, step))
    elif ":" in spec:
        try:
            low, high, step = (float(x) for x in spec.split(":"))
        except ValueError:
            raise ParamError(f"--values expects low:high:step, got {spec!r}") from None
        values = list(grid(low, high, step, max_points))
    else:
        values = [v.strip() for v in spec.split(",") if v.strip()]
        if not values:
            raise ParamError(f"--values expects low:high:step or a,b,c, got {spec!r}")
    return [param.validate(v) for v in values]


@dataclass(frozen=True)
class SweepPoint:
    value: ParamValue
    metrics: dict[str, float]


def sweep(pipe: Pipeline, name: str, values: Sequence[ParamValue], metrics: Sequence[str],
          progress: Progress = NO_PROGRESS) -> list[SweepPoint]:
    """Each value of `name` in turn (a prepare-stage parameter re-prepares), the pipeline's
    other parameters held; the pipeline is left as it was found."""
    held = dict(pipe.params)
    points: list[SweepPoint] = []
    try:
        for i, value in enumerate(values):
            progress(i / max(len(values), 1), f"{name} = {value}")
            pipe.update({name: value})
            points.append(SweepPoint(value, dict(pipe.run(metrics).means)))
    finally:
        pipe.update(held)
    progress(1.0, "swept")
    return points
