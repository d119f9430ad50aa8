"""What Start will do, said beside it (`budget_line`): the trials the budget or a grid comes
to over the run's studies, less those the storage holds already — read off the GUI thread
(`StoredReader`), for a storage can be a database server or a long journal — or why Start
cannot run (`too_few_queries`: more folds than judged queries; `too_large`: a grid of more
points than a run takes).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from PySide6.QtCore import QObject, QRunnable, QThreadPool, QTimer, Signal

from workbench.core.cases import has_cases
from workbench.core.session import TuningSession

READ_DELAY_MS = 150  # a burst of changes (a path typed, the form rebuilt) is read once
AUTO_FOLDS = 5  # auto's folds where the queries are not repository tasks (choose_validation)


def budget_line(studies: int, budget: int, *, seconds: bool = False,
                stored: Sequence[int] | None = None, grid: int | None = None,
                running: bool = False) -> str:
    """What Start does with `budget` (trials per study, or `seconds` in all) over `studies`
    studies (k folds and one on all queries, or one), `stored` trials already in each (None:
    not read yet), `grid` points per study where the sampler is the grid; "" where there is
    nothing to add to the budget's own word (one study, none stored). `running`: said of
    the run going on, not of Start."""
    lead, runs = ("This run", "adds") if running else ("Start", "runs")
    n = studies
    split = f"{n - 1} folds, then all queries"
    known = stored is not None
    held = sum(stored) if stored is not None else 0
    if grid is not None:  # run_trials: every point of the grid, whatever the budget
        total = grid * n
        limit = (f"for at most {budget:,} seconds in all" if seconds
                 else "the budget does not apply to a grid")
        if n > 1:
            shape = f"grid: {grid:,} points × {n} studies = {total:,} trials ({split})"
            inner = f"grid: {grid:,} points × {n} studies = {total:,}: {split}"
        else:
            shape = inner = f"grid: {grid:,} points"
        left = sum(max(0, grid - s) for s in stored) if stored is not None else total
        if not known:
            return f"{lead} {runs} what is not stored yet of the {shape}; {limit}"
        if not held:
            return f"{lead} {runs} the {shape}; {limit}"
        if left:
            return (f"{lead} adds {'up to ' if seconds else ''}{left:,} trials to {held:,} "
                    f"stored ({inner}; {limit})")
        hold = "studies already hold" if n > 1 else "study already holds"
        return f"{lead} adds none: the stored {hold} every point of the {inner}"
    if seconds:  # as many trials as the time allows, stored or not
        if held or (running and n > 1):
            return (f"{lead} adds trials for {budget:,} seconds in all"
                    + (f" to {held:,} stored" if held else "")
                    + (f" ({n} studies: {split})" if n > 1 else ""))
        return f"{lead} runs {n} studies ({split}) in {budget:,} seconds in all" if n > 1 else ""
    total = budget * n
    if not known or not held:
        if n == 1:
            return ""
        return (f"{lead} {runs} {'' if known else 'up to '}{total:,} trials: {budget:,} × {n} "
                f"studies ({split})")
    assert stored is not None
    left = sum(max(0, budget - s) for s in stored)
    if left:
        return (f"{lead} adds {left:,} trials to {held:,} stored ("
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
    from workbench.core.tuning.space import MAX_GRID_POINTS

    if grid is None or grid <= MAX_GRID_POINTS:
        return ""
    return (f"the grid has {_big(grid)} points, more than the {MAX_GRID_POINTS:,} a run takes: "
            "tick fewer parameters, narrow their ranges or pick another sampler")


def _big(n: int) -> str:
    """A count in full, or as a power of ten where it would take a line ("4.2 × 10^45")."""
    if n < 10**12:
        return f"{n:,}"
    mantissa, exponent = f"{n:.1e}".split("e")
    return f"{mantissa} × 10^{int(exponent)}"


def too_few_queries(validation: str, folds: int, task_set: bool, counted: int) -> str:
    """Why Start cannot run: k folds over fewer than k judged queries ("" where it can)."""
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
    return f"{said} need at least {need} judged queries; this data has {counted}: {do}"


class _Relay(QObject):
    """Made on the GUI thread, so that its signal's slot runs there."""

    done = Signal(int, object)  # (request, stored trials per study; None: unread)


class _Read(QRunnable):
    def __init__(self, relay: _Relay, request: int, job: Any) -> None:
        super().__init__()
        self.setAutoDelete(True)
        self.relay, self.request, self.job = relay, request, job

    def run(self) -> None:
        from workbench.core.tuning.job import stored_trials

        try:
            counts: list[int] | None = list(stored_trials(self.job).values())
        except Exception:  # the storage unread (a server down, a foreign file, a study of
            # other settings): said by Start itself, as it runs into it; the line stays
            # with what holds whatever is stored
            counts = None
        self.relay.done.emit(self.request, counts)


class StoredReader(QObject):
    """The trials a job's storage holds already of each of its studies, read on a worker of
    its own a moment after the last request, and given (`read`) only for the newest one."""

    read = Signal(object)  # list[int] in run order, or None where it could not be read

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(1)
        self._relay = _Relay(self)
        self._relay.done.connect(self._on_done)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(READ_DELAY_MS)
        self._timer.timeout.connect(self._go)
        self._request = 0
        self._job: Any = None

    def ask(self, job: Any) -> None:
        """Read `job`'s stored trials (an answer to an earlier request is dropped)."""
        self._request += 1
        self._job = job
        self._timer.start()

    def forget(self) -> None:
        """Drop the pending request (nothing to read: the job cannot be made)."""
        self._request += 1
        self._job = None
        self._timer.stop()

    @property
    def pending(self) -> bool:
        return self._job is not None

    def _go(self) -> None:
        if self._job is not None:
            self._pool.start(_Read(self._relay, self._request, self._job))

    def _on_done(self, request: int, counts: object) -> None:
        if request == self._request:
            self._job = None
            self.read.emit(counts)

    def shutdown(self, timeout_ms: int = 5000) -> None:
        self.forget()
        self._pool.waitForDone(timeout_ms)
