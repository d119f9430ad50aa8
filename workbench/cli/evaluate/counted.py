"""The queries eval and sweep average the injection figures over (results, empty,
injected_tokens): for a model with query modes (decision-memory), the turns why-stats --live and
the window's Injection tab count (`diagnostics.counted_queries`: a manual search beside
injections injects nothing, a disabled project's turn is never logged; rv51 3, 6); for any
other model, every query. With judgments, of those, the judged ones: the queries the relevance
metrics are the mean over beside them, as tune and compare count them (sweep had counted an
unjudged eval case that eval left out). The relevance metrics stay over every judged query."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from workbench.core.diagnostics import LeftOut, counted_queries, counted_turns

Mask = NDArray[np.bool_]

# why a query's injection figures are not counted, per query (`not_counted`); the per-query
# files name them in this column
SEARCH, DISABLED = "manual search", "disabled project"
NOT_COUNTED = "not_counted"


def not_counted(pipe: Any) -> tuple[list[str], bool] | None:
    """Per query, why the injection figures leave it out at the pipeline's parameters
    (`SEARCH`, `DISABLED`; "" where it counts), and whether every query is a manual search
    (the figures are then of what each returns); None where every query counts (a model
    without modes)."""
    found = counted_queries(pipe.model, pipe.prepared, pipe.params)
    if found is None:
        return None
    counted, left_out = found
    # the queries in a counted mode, disabled or not: the others are searches
    injection = [bool(x) for x in pipe.model.live(pipe.prepared, pipe.params).q_injection]
    mode, _ = counted_turns(injection, [True] * len(injection))
    return (["" if c else DISABLED if m else SEARCH for c, m in zip(counted, mode, strict=True)],
            left_out.searches_only)


def figure_queries(pipe: Any, among: Mask | None = None) -> tuple[Mask | None, LeftOut | None]:
    """bool (Q,): the queries the injection figures count at the pipeline's parameters, of
    those `among` keeps (the judged ones; None: every query), and what is left out of these;
    (None, None) where every query counts (a model without modes)."""
    found = not_counted(pipe)
    if found is None:
        return None, None
    why, searches_only = found
    keep = np.ones(len(why), np.bool_) if among is None else np.asarray(among, np.bool_)
    mask = np.array([not w for w in why], np.bool_) & keep
    kept = [w for w, k in zip(why, keep, strict=True) if k]
    return mask, LeftOut(searches=kept.count(SEARCH), disabled=kept.count(DISABLED),
                         searches_only=searches_only)


def figure_mean(values: NDArray[np.float64], mask: Mask) -> float:
    """The mean of a figure over the queries `mask` keeps (NaN where it keeps none)."""
    return float(values[mask].mean()) if mask.any() else float("nan")


def left_out_notes(found: Sequence[tuple[str, LeftOut | None]], name: str = "") -> list[str]:
    """The notes of what the figures left out, each said once: `found` holds, per point
    measured, its value as shown and what it left out (None: nothing). Where every point
    leaves out the same, its lines; where they differ (a swept mode or disabled list), each
    line after the values of `name` that leave it out ("at mode = query, injection: …")."""
    kinds = list(dict.fromkeys(left for _, left in found if left is not None))
    if len(kinds) == 1 and all(left is not None for _, left in found):
        return kinds[0].lines()
    lines: dict[str, list[str]] = {}
    for value, left in found:
        for line in left.lines() if left is not None else ():
            lines.setdefault(line, []).append(value)
    return [f"at {name} = {', '.join(values)}: {line}" for line, values in lines.items()]


def counted_text(counted: int, of: int, noun: str) -> str:
    """'the 12 judged queries', or 'the 10 of the 12 judged queries counted' where some are
    left out (the notes say which)."""
    if counted == of:
        return f"the {of:,} {noun}"
    return f"the {counted:,} of the {of:,} {noun} counted (see the notes)"


def sweep_counted(name: str, values: Sequence[Any], counted: Sequence[tuple[int, LeftOut | None]],
                  n: int, noun: str = "") -> tuple[str, list[str]]:
    """What sweep's injection figures are the mean over ('all 12 queries', 'the 10 of the 12
    judged cases counted (see the notes)') and the notes of what they leave out, each said
    once (`values`: the swept values as shown, one per entry of `counted`; `n`: the queries
    they are counted among, `noun` what they are called, "judged cases": "queries" where
    "")."""
    named, noun = bool(noun), noun or ("query" if n == 1 else "queries")
    notes = left_out_notes([(str(value), left)
                            for value, (_, left) in zip(values, counted, strict=True)], name)
    sizes = {k for k, _ in counted}
    if not sizes or sizes == {n}:  # "the 12 judged cases", as eval says it
        return (counted_text(n, n, noun) if named else f"all {n:,} {noun}"), notes
    if len(sizes) == 1:
        return counted_text(sizes.pop(), n, noun), notes
    return f"the {noun} counted at each value, of {n:,} (see the notes)", notes


def idle_for_figures(pipe: Any, name: str, searches_only: bool) -> str:
    """Why the parameter `name` applies to none of the turns the injection figures count, the
    reason why-stats --live gives for a setting no turn takes (`Model.inert_params`: every
    query injects, or Mode forces the other mode); where searches sit beside injections, a
    setting only manual search reads, since the figures count the injections alone (dr4 7:
    search_snippet_chars swept over them gave a flat column with no word why). "" where it
    applies to some counted turn, or the model has no query modes."""
    from workbench.core.models.decision_memory.params import (
        FORCED_INJECTION,
        FORCED_SEARCH,
        NO_INJECTION,
        NO_SEARCH,
        SEARCH_ONLY,
    )

    if not_counted(pipe) is None:
        return ""
    why = pipe.model.inert_params(pipe.prepared, pipe.params).get(name, "")
    if why in (NO_INJECTION, NO_SEARCH, FORCED_SEARCH, FORCED_INJECTION):
        return str(why)
    if name in SEARCH_ONLY and not searches_only:
        return ("only a manual search reads it, and the figures count the injection turns "
                "alone")
    return ""
