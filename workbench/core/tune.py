"""Sweeps: a metric as a function of one live parameter, the others held.

Values are enumerated in integer steps and divided (never by adding a float step, which drifts
and drops the last value — ranx's weight grid shows how that goes wrong).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

from workbench.core.engine import NO_PROGRESS, Progress
from workbench.core.params import Param, ParamError, ParamValue
from workbench.core.pipeline import Pipeline

MAX_POINTS = 1000  # a sweep past this many values needs --force (each is a full evaluation)
DEFAULT_POINTS = 41  # a sweep without values: at most this many, on a round multiple of the step
WIDE = 50  # a count's range this many times its default is swept near the default (sweep_span)


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
        return list(param.choices) if spec is None else _once(
            [param.validate(v) for v in spec.split(",")], spec)
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
    return _once([param.validate(v) for v in values], spec)


def _once(values: list[ParamValue], spec: str | None) -> list[ParamValue]:
    """`values`, refused where one repeats: two rows of one value tie, and a sweep of one
    value said the parameter "makes no difference"."""
    for i, v in enumerate(values):
        if v in values[:i]:
            raise ParamError(f"--values {spec}: {v} is given twice")
    return values


def sweep_span(param: Param, current: ParamValue | None = None) -> tuple[float, float] | None:
    """(low, high) a sweep covers: the parameter's range, except for a count or size (an int,
    or a float on whole steps) whose range is over WIDE times its default (a token budget of
    100..1,000,000, default 8,000): from its low to 4 × the default, doubled until the
    current value lies inside, so the sweep shows where the values in use are and the span
    changes only when the value leaves it; and a fraction (a range from 0 whose model declares
    a slider top of at most 1: the useful span, `Param.slider_high`) up to that top, or the
    value in use past it — other slider tops (days, multipliers) keep the whole range. None
    for a parameter without a numeric range."""
    if param.kind not in ("int", "float") or param.low is None or param.high is None:
        return None
    low, high, default = float(param.low), float(param.high), float(param.default)
    # a count: an int, or a float on whole steps (pi-lodestone's min score, 0..1000 by 1,
    # default 8, was swept 0, 8, 50, 100, … and missed every score between 9 and 49)
    step = param.step or 0
    whole = step >= 1 and float(step).is_integer()
    at = float(current) if isinstance(current, int | float) else default
    if (param.kind == "float" and not whole and param.slider_high is not None
            and low >= 0 and param.slider_high <= 1):
        # a fraction whose useful span the model declares (its slider's top): vault-search's
        # min score, clamped scores in [0, 1] but any number taken, had been swept to 2, 23 of
        # 41 rows alike with nothing passing (rv52 8); a value in use past it widens the span
        return low, min(high, max(param.slider_high, at))
    if not (param.kind == "int" or whole) or default <= 0 or high - low <= WIDE * default:
        return low, high
    # a round end: 32,000, not low + 32,000 (the grid ended 32,000, 32,100)
    top = 4 * default if 4 * default > low else low + 4 * default
    if param.kind == "float":  # a threshold's scale is its range's, not its default's: the
        # search min score (default 1) swept 0..4 missed its best, 20; a tenth of the range
        top = max(top, high / 10 if high / 10 > low else low + (high - low) / 10)
    while top < at and top < high:
        top *= 2
    return low, min(high, top)


def default_values(param: Param, current: ParamValue | None = None,
                   max_points: int = DEFAULT_POINTS) -> list[ParamValue]:
    """What a sweep given no values runs: the choices, both switch positions, or the slider's
    grid over `sweep_span` — where that is more than `max_points` values, the multiples of m
    steps inside the span and its two ends, m the smallest of 1, 2, 5, 10, 20, 50, … that
    fits (a weight of 0..5 in steps of 0.01 is swept 0, 0.2, …, 5; a token budget 100, 1,000,
    2,000, …, 32,000), and `current`, the value in use, among them (one more)."""
    span = sweep_span(param, current)
    if span is None:
        return parse_values(param, None)
    low, high = span
    step = float(param.step or (high - low) / 20)
    if not step > 0:
        return [param.validate(low)]
    m = 1
    while True:
        values = _multiples(low, high, m * step)
        if len(values) <= max_points:
            break
        m = min(x * 10 ** e for e in range(19) for x in (1, 2, 5) if x * 10 ** e > m)
    if isinstance(current, int | float) and not isinstance(current, bool) \
            and low <= current <= high and all(abs(v - current) > 1e-9 for v in values):
        values = sorted([*values, float(current)])  # the value in use is always one
    if param.kind == "int":
        return [param.validate(round(v)) for v in values]
    return [param.validate(v) for v in values]


def values_for(param: Param, current: ParamValue | None, documents: int,
               max_points: int = DEFAULT_POINTS) -> list[ParamValue]:
    """`default_values` on data of `documents` documents: a limit whose 0 means all
    (vault-search's limit) is swept below the documents there are, and 0 ("all") with them —
    a limit past them is "all" again (vault-search's had been swept to 100,000 on 45
    notes, "no difference"); any other parameter as `default_values` has it."""
    if not param.zero_unlimited or param.high is None:
        return default_values(param, current, max_points)
    capped = replace(param, high=max(min(param.high, documents - 1), 1))
    values = [v for v in default_values(capped, current, max_points)
              if v == 0 or float(v) < documents]
    return values if 0 in values else [0, *values]


def _multiples(low: float, high: float, size: float) -> list[float]:
    """low, the multiples of `size` strictly between low and high, and high (exact to 1e-9)."""
    first = math.floor(low / size + 1e-9) + 1
    last = math.ceil(high / size - 1e-9) - 1
    inner = [round(i * size, 10) for i in range(first, last + 1)]
    return [low, *inner, high] if high > low else [low]


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
