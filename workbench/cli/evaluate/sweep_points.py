"""sweep's measuring: each value of the parameter run through the pipeline, as eval measures
it, and where it lies along the axis."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from workbench.cli.evaluate.counted import figure_mean, figure_queries
from workbench.cli.evaluate.evaluation import _measure
from workbench.core.clamp_ties import tie_queries
from workbench.core.data import Dataset
from workbench.core.diagnostics import LeftOut
from workbench.core.engine import NO_PROGRESS, Progress
from workbench.core.params import value_text
from workbench.core.selection_figures import FIGURES, snippet_chars
from workbench.core.selection_figures import of_result as figure_per_query

Point = tuple[Any, dict[str, float]]  # (the parameter's value, the mean of each metric)


def _shown(param: Any, value: Any) -> Any:
    """A swept value as the parameter is written: a whole number of a parameter stepped in
    whole numbers without its '.0' (w_title 6, as compare and tune write it; it was 6.0); a
    switch as true or false, as `models`, -p and the TOML write it (it was Python's True;
    rm 9)."""
    if isinstance(value, bool):
        return value_text(value)
    step = getattr(param, "step", None)
    if (isinstance(value, float) and value.is_integer() and step is not None
            and float(step).is_integer()):
        return int(value)
    return value


def row_label(param: Any, value: Any) -> str:
    """A swept value (as `_shown` gives it) as the table's first cell: a 0 that means more than
    a number with what it means, as the parameter declares it (`Param.zero`) and the window's
    chart says it: "0 (all)", and hybrid's "0 (read as 0.5)", which had scored as 0.5 with
    nothing to say why (rm 9)."""
    zero = getattr(param, "zero", "")
    if zero and value == 0 and not isinstance(value, bool | str):
        return f"{value} ({zero})"
    return str(value)


# settings that decide how much is ranked or returned (speed, paging, a result budget), not
# how it is scored: a sweep's best over them is no quality result
CUTS = frozenset(("vector_candidates", "limit", "offset", "early_stop",
                  "early_stop_threshold", "early_stop_found"))


# a bundle's size (codeledger): its best is the most it may hold, a cost to choose
BUDGETS = frozenset(("token_budget", "max_files", "overshoot", "sufficiency", "skip_limit"))


CASES = "cases"  # the share of fixture cases passing


def _case_passes(dataset: Dataset, ranking: Any) -> Any:
    """float (Q,): 1 where the query's fixture case passes, 0 where it fails, NaN where the
    query is no case."""
    from workbench.core.cases import check_cases

    passed = {c.query: c.passed for c in check_cases(dataset, ranking).cases}
    return np.array([float(passed[q]) if q in passed else np.nan
                     for q in dataset.queries.ids])


def _sweep(pipe: Any, name: str, values: Sequence[Any], metrics: Sequence[str],
           progress: Progress = NO_PROGRESS,
           per_query: list[dict[str, Any]] | None = None,
           counted: list[tuple[int, LeftOut | None]] | None = None,
           ties: list[Any] | None = None, cut: int = 0) -> list[Point]:
    """Each value of `name` in turn, measured as `eval` measures (`core.tune.sweep`, with the
    bundle figures), each value's per-query figures appended to `per_query` when given; the
    pipeline's parameters are left as they were found. The injection figures are the mean
    over the judged queries (every one without judgments) that are turns why-stats --live
    counts at each value (`counted.figure_queries`, as eval counts them: a manual
    search injects nothing, a disabled project's turn is not logged; rv51 3, 6): how many, and
    what is left out (None: every query counts), appended to `counted` when given. `ties`:
    where given, each value's judged queries (bool (Q,)) on which results tied at 1 (clamped)
    take places within the first `cut` (`clamp_ties.tie_queries`)."""
    held = dict(pipe.params)
    points: list[Point] = []
    chars = None  # the documents' snippet lengths, for injected_tokens
    try:
        for i, value in enumerate(values):
            progress(i / max(len(values), 1), f"{name} = {value}")
            pipe.update({name: value})
            measured = _measure(pipe, [m for m in metrics if m != CASES and m not in FIGURES])
            means, each = dict(measured.means), dict(measured.per_query)
            if CASES in metrics:
                each[CASES] = _case_passes(pipe.dataset, measured.ranking)
                means[CASES] = float(np.nanmean(each[CASES]))
            shown = [m for m in metrics if m in FIGURES]
            # of the judged queries, as eval counts them (it had counted an unjudged case)
            judged = pipe.judgments.judged_mask if pipe.judgments is not None else None
            mask, left_out = figure_queries(pipe, judged) if shown else (None, None)
            if mask is None:
                mask = (np.ones(len(pipe.dataset.queries), np.bool_) if judged is None
                        else np.asarray(judged, np.bool_))
            for figure in shown:
                if figure == "injected_tokens" and chars is None:
                    chars = snippet_chars(pipe.dataset)
                each[figure] = figure_per_query(figure, measured, chars)
                means[figure] = figure_mean(each[figure], mask)
            if ties is not None:
                ties.append(tie_queries(measured, cut, judged))
            if counted is not None:
                counted.append((int(mask.sum()), left_out))
            points.append((value, means))
            if per_query is not None:
                per_query.append(each)
    finally:
        pipe.update(held)
    progress(1.0, "swept")
    return points


def axis_key(param: Any, value: Any, i: int) -> tuple[float, int]:
    """Where `value` lies along the parameter's axis: its number, a limit's 0 ("all") past
    every other, a choice by its place (`i`)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return (0.0, i)
    if value == 0 and getattr(param, "zero_unlimited", False):
        return (math.inf, i)
    return (float(value), i)
