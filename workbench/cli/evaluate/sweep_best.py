"""sweep's best value: ties said as ties, an edge of the range, and the best against the
value in use."""

from __future__ import annotations

import math
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

import numpy as np

from workbench.cli.evaluate.summary import _mean_text
from workbench.cli.evaluate.sweep_points import Point, axis_key, row_label
from workbench.core.metrics import BUNDLE_METRICS


def _against_in_use(points: Sequence[Point], per_query: Sequence[dict[str, Any]], metric: str,
                    best: Sequence[int], in_use: Any, judgments: Any, param: Any = None,
                    nouns: str = "queries") -> str:
    """The one best value against the value in use, over the judged queries: the difference,
    said to be optimistic, and no p-value (rB 4: the best of the grid, picked on the same
    queries, has none that means anything, as compare and report print "—" for training
    scores). `nouns`: what the queries are called (`dataset_nouns`: "chat
    moments" of OpenVault, as eval, tune and compare say it; rm 9)."""
    from workbench.core.tuning.data import one_of

    at = next((i for i, (v, _) in enumerate(points) if v == in_use), None)
    if not best or at is None or judgments is None or len(best) == len(points):
        return ""
    if at in best:
        if len(best) == 1:
            return ""
        cost = "bundle_tokens"  # a bundle model: a tie that costs fewer tokens is a gain
        cheap = (min(best, key=lambda i: (points[i][1][cost], i))
                 if metric != cost and all(cost in points[i][1] for i in best) else at)
        saved = points[at][1][cost] - points[cheap][1][cost] if cheap != at else 0.0
        if saved > 0:
            return (f"the value in use ({in_use}) is among the tied best by {metric}; "
                    f"{row_label(param, points[cheap][0])} gives the same at "
                    f"{_mean_text(cost, saved)} fewer tokens per bundle")
        return f"the value in use ({in_use}) is among the tied best: nothing to gain here"
    # tied: the first along the axis stands for them (their means are equal), as the
    # window's Metric vs parameter chart stars it: for a limit the smallest that reaches the
    # best, 0 ("all") counted last (the value nearest the one in use had named "all" where
    # the window named 10)
    pick = min(best, key=lambda i: axis_key(param, points[i][0], i))
    a, b = per_query[at][metric], per_query[pick][metric]
    mask = judgments.judged_mask & ~np.isnan(a) & ~np.isnan(b)  # cases: only the cases
    a, b = a[mask], b[mask]
    n = int(a.size)
    if n == 0:
        return ""
    gap = _shown_gap(metric, points[at][1][metric], points[pick][1][metric])
    which = f", the tied best {row_label(param, points[pick][0])}:" if len(best) > 1 else ":"
    # no p-value (rB 4): the best of the grid, picked on these queries, is not a test's
    # candidate; compare and report print "—" for such a gap, and so does this line
    return (f"against the value in use ({in_use}){which} {gap} {metric} over {n} judged "
            f"{one_of(nouns) if n == 1 else nouns}; no p-value: the best was picked on "
            f"these same {nouns}, so the gap is optimistic and no test of it would be valid "
            f"— `workbench tune` holds {nouns} out for an honest estimate")


def _shown_gap(metric: str, a: float, b: float) -> str:
    """b − a as the table above shows the two means (`_mean_text`), the rule of compare,
    report and tune: the difference of the means as shown, so that the figures add up (the
    exact +0.00316 read +0.0032 beside compare's 0.6802 → 0.6833, +0.0031: review rn 3)."""
    shown = [_mean_text(metric, x).replace(",", "") for x in (a, b)]
    places = len(shown[0].partition(".")[2])
    gap = (Decimal(shown[1]) - Decimal(shown[0]) if not math.isnan(a + b)
           else Decimal("nan"))
    figure = BUNDLE_METRICS.get(metric)
    return f"{gap:+,.{places}f}" if figure is not None and figure.count else f"{gap:+.{places}f}"


def _lower_is_better(metric: str) -> bool:
    figure = BUNDLE_METRICS.get(metric)
    return figure is not None and not figure.higher_is_better


def _best(points: Sequence[Point], metric: str) -> list[int]:
    """The positions of the best points by `metric`: every one that ties with the best
    (equal to 1e-9), none when the metric is undefined (NaN) everywhere."""
    sign = -1.0 if _lower_is_better(metric) else 1.0
    scores = [sign * means[metric] for _, means in points]
    defined = [s for s in scores if not math.isnan(s)]
    if not defined:
        return []
    top = max(defined)
    return [i for i, s in enumerate(scores)
            if not math.isnan(s) and math.isclose(s, top, rel_tol=1e-9, abs_tol=1e-12)]


def _best_line(name: str, points: Sequence[Point], metric: str, best: Sequence[int],
               limits: tuple[float | None, float | None] = (None, None),
               param: Any = None) -> str:
    """The best value in words, ties named as ties; a best at the end of the values swept,
    short of the parameter's `limits` (low, high), said to be one. A value is written as the
    table's first cell writes it (`row_label`): hybrid's "0.0 (= 0.5)", so that a tie of 0
    with 0.5 reads as the one score it is, not a coincidence (dr4 9)."""
    if not best:
        return f"best by {metric}: none ({metric} is undefined at every value)"
    score = _mean_text(metric, points[best[0]][1][metric])
    way = " (lower is better)" if _lower_is_better(metric) else ""
    if len(best) == 1:
        value = points[best[0]][0]
        return f"best by {metric}{way}: {name} = {row_label(param, value)} ({score})" + _edge(
            value, [v for v, _ in points], limits)
    if len(best) == len(points):
        return (f"best by {metric}: none — all {len(points)} values tie at {score} "
                f"({name} makes no difference to {metric} over this range)")
    values = [row_label(param, points[i][0]) for i in best]
    if len(values) > 6 and best == list(range(best[0], best[-1] + 1)):  # one run of values
        tied = f"{values[0]} to {values[-1]} ({len(values)} values)"
    elif len(values) > 6:
        tied = f"{', '.join(map(str, values[:3]))}, … {values[-1]} ({len(values)} values)"
    else:
        tied = ", ".join(map(str, values))
    line = f"best by {metric}{way}: {score}, tied at {name} = {tied}"
    cost = "bundle_tokens"  # a bundle model: of the tied values, the one that costs least
    if metric != cost and all(cost in points[i][1] for i in best):
        cheap = min(best, key=lambda i: (points[i][1][cost], i))
        spent = _mean_text(cost, points[cheap][1][cost])
        line += (f"; of these, the fewest tokens per bundle: {name} = "
                 f"{row_label(param, points[cheap][0])} "
                 f"({spent})")
    return line


def _edge(value: Any, values: Sequence[Any], limits: tuple[float | None, float | None]) -> str:
    numbers = [v for v in values if isinstance(v, int | float) and not isinstance(v, bool)]
    if len(numbers) < 3 or value not in numbers:
        return ""
    low, high = limits
    if value == max(numbers) and (high is None or value < high):
        return "; the highest value swept: a better one may lie above it"
    if value == min(numbers) and (low is None or value > low):
        return "; the lowest value swept: a better one may lie below it"
    return ""
