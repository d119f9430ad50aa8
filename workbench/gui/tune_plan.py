"""What Start will do, said beside it (`budget_line`): the trials the budget comes to over
the run's studies, less those the storage holds already — read off the GUI thread
(`StoredReader`), for a storage can be a database server or a long journal.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QObject, QRunnable, QThreadPool, QTimer, Signal

READ_DELAY_MS = 150  # a burst of changes (a path typed, the form rebuilt) is read once


def budget_line(studies: int, budget: int, *, seconds: bool = False,
                stored: Sequence[int] | None = None, running: bool = False) -> str:
    """What Start does with `budget` (trials per study, or `seconds` in all) over `studies`
    studies (k folds and one on all queries, or one), `stored` trials already in each (None:
    not read yet); "" where there is nothing to add to the budget's own word (one study,
    none stored). `running`: said of the run going on, not of Start."""
    lead, runs = ("This run", "adds") if running else ("Start", "runs")
    n = studies
    split = f"{n - 1} folds, then all queries"
    known = stored is not None
    held = sum(stored) if stored is not None else 0
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
