"""What Start will do, said beside it (`budget_line`): the trials the budget or a grid comes
to over the run's studies, less those this window's last run of the same studies left
stored (the storage itself is never opened before Start: reading it had made a file's
schema, switched it to WAL and waited on servers that did not answer) — or why Start
cannot run (`too_few_queries`: more folds than judged queries; `too_large`: a grid of more
points than a run takes).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from workbench.core.cases import has_cases
from workbench.core.session import TuningSession

AUTO_FOLDS = 5  # auto's folds where the queries are not repository tasks (choose_validation)


def trials(n: int) -> str:
    """ "1 trial", "240 trials"."""
    return f"{n:,} trial{'' if n == 1 else 's'}"


def budget_line(studies: int, budget: int, *, seconds: bool = False,
                stored: Sequence[int | None] | None = None, grid: int | None = None,
                running: bool = False, nouns: str = "queries") -> str:
    """What Start does with `budget` (trials per study, or `seconds` in all) over `studies`
    studies (k folds and one on all queries, or one), `stored` trials in each as this
    window's last run left it (None: not known; a study the run did not reach: None in the
    list), `grid` points per study where the sampler is the grid; "" where there is nothing
    to add to the budget's own word (one study, nothing known). `running`: said of the run
    going on, not of Start. The storage itself is not read: the window opens it at Start.
    `nouns`: the data's word for its queries (`dataset_nouns`: tasks, cases, dr3 7)."""
    lead, runs = ("This run", "adds") if running else ("Start", "runs")
    n = studies
    split = f"{n - 1} folds, then all {nouns}"
    counts = [s for s in stored if s is not None] if stored is not None else []
    known = stored is not None and len(counts) == len(stored)  # every study's count
    partial = bool(counts) and not known  # a cancelled run's: the studies it reached
    held = sum(counts)
    if grid is not None:  # run_trials: every point of the grid, whatever the budget
        total = grid * n
        limit = (f"for at most {budget:,} seconds in all" if seconds
                 else "the budget does not apply to a grid")
        if n > 1:
            shape = f"grid: {grid:,} points × {n} studies = {total:,} trials ({split})"
            inner = f"grid: {grid:,} points × {n} studies = {total:,}: {split}"
        else:
            shape = inner = f"grid: {grid:,} points"
        if not known:
            return f"{lead} {runs} what is not stored yet of the {shape}; {limit}"
        assert stored is not None
        left = sum(max(0, grid - (s or 0)) for s in stored)
        if not held:
            return f"{lead} {runs} the {shape}; {limit}"
        if left:
            return (f"{lead} adds {'up to ' if seconds else ''}{trials(left)} to {held:,} "
                    f"stored ({inner}; {limit})")
        hold = "studies already hold" if n > 1 else "study already holds"
        return f"{lead} adds none: the stored {hold} every point of the {inner}"
    if seconds:  # as many trials as the time allows, stored or not
        if held or (running and n > 1):
            return (f"{lead} adds trials for {budget:,} seconds in all"
                    + (f" to {'at least ' if partial else ''}{held:,} stored" if held else "")
                    + (f" ({n} studies: {split})" if n > 1 else ""))
        return f"{lead} runs {n} studies ({split}) in {budget:,} seconds in all" if n > 1 else ""
    total = budget * n
    if not counts or (known and not held):
        if n == 1:
            return ""
        return (f"{lead} {runs} {'' if known else 'up to '}{trials(total)}: {budget:,} × {n} "
                f"studies ({split})")
    assert stored is not None
    if partial:  # the studies not reached hold what an earlier run left: at most the budget
        left = sum(budget if s is None else max(0, budget - s) for s in stored)
        return (f"{lead} adds up to {trials(left)} to {held:,} stored in {len(counts)} of {n} "
                f"studies ({budget:,} × {n} studies: {split})")
    left = sum(max(0, budget - (s or 0)) for s in stored)
    over = sum(1 for s in stored if (s or 0) > budget)
    if left and over:  # their extra trials are not the budget's: no total to add up to
        return (f"{lead} adds {trials(left)} to {held:,} stored (up to {budget:,} in each of "
                f"{n} studies: {split}; {over} of them hold more already)")
    if left:
        return (f"{lead} adds {trials(left)} to {held:,} stored ("
                + (f"{total:,} = {budget:,} × {n} studies: {split})" if n > 1
                   else f"{budget:,} in all)"))
    if n == 1:
        return (f"{lead} adds none: the stored study already holds {held:,} — raise the budget "
                "to run more")
    each = (f"{stored[0]:,} × {n} studies: {split}" if len(set(stored)) == 1
            else f"in {n} studies: {split}")
    return (f"{lead} adds none: the stored studies already hold {held:,} ({each}) — raise the "
            "budget to run more")


def counted_queries(session: TuningSession, objective: str) -> int:
    """The queries a run counts (`Evaluator.counted`): the judged ones, and where the
    objective is `cases`, those with an eval case."""
    ds, j = session.dataset, session.judgments
    if ds is None:
        return 0
    mask = (j.judged_mask.copy() if j is not None and j.judged_mask.size == len(ds.queries)
            else np.zeros(len(ds.queries), bool))
    if objective == "cases" and has_cases(ds):
        for qi, q in enumerate(ds.queries):
            if "expected_top_ids" in q.context:
                mask[qi] = True
    return int(mask.sum())


def too_large(grid: int | None) -> str:
    """Why Start cannot run the grid sampler: more points than a run takes ("" where it
    can; `SearchSpace.grid`)."""
    from workbench.core.tuning.space import MAX_GRID_POINTS, big_count

    if grid is None or grid <= MAX_GRID_POINTS:
        return ""
    return (f"the grid has {big_count(grid)} points, more than the {MAX_GRID_POINTS:,} a run "
            "takes: tick fewer parameters, narrow their ranges or pick another sampler")


def too_few_queries(validation: str, folds: int, task_set: bool, counted: int,
                    nouns: str = "queries") -> str:
    """Why Start cannot run: k folds over fewer than k judged queries ("" where it can).
    `nouns`: the data's word for its queries, as the rest of the tab says it (tasks, cases)."""
    if validation == "kfold":
        need = folds
    elif validation == "auto" and not task_set:
        need = AUTO_FOLDS
    else:
        return ""
    if counted >= need or counted == 0:  # none: the tab says why instead (cannot_tune)
        return ""
    do = ("choose validation none (no held-out score)" if counted < 2 else
          f"set k to {counted} or less" if validation == "kfold" else
          f"choose k-fold with k = {counted} or less, or validation none")
    said = f"{need} folds" if validation == "kfold" else f"auto's {need} folds"
    return f"{said} need at least {need} judged {nouns}; this data has {counted}: {do}"
