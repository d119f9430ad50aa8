"""A tuning run off the GUI thread: `run_job` on a worker of its own, each trial's report, the
progress and the outcome carried to the GUI thread by queued signals, Cancel a plain flag the
core polls (`Progress.should_stop`).

The session is never touched here: the job is captured on the GUI thread
(`job_from_session`) and the outcome is applied there by whoever listens to `finished`.
"""

from __future__ import annotations

import threading
import traceback
from typing import Any

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal

from workbench.core.engine import Cancelled, Progress


class _Relay(QObject):
    """Created on the GUI thread, so that its signals' slots run there."""

    trial = Signal(object, object)  # (run id, TrialReport)
    progress = Signal(object, float, str)  # (run id, fraction, message)
    done = Signal(object, object)  # (run id, TuneOutcome)
    failed = Signal(object, str)  # (run id, message; "" = cancelled)


class _Run(QRunnable):
    def __init__(self, relay: _Relay, run_id: int, job: Any, stop: threading.Event) -> None:
        super().__init__()
        self.setAutoDelete(True)
        self.relay, self.run_id, self.job, self.stop = relay, run_id, job, stop

    def run(self) -> None:
        from workbench.core.tuning import run_job

        relay, run_id = self.relay, self.run_id
        progress = Progress(on_progress=lambda f, m: relay.progress.emit(run_id, f, m),
                            should_stop=self.stop.is_set)
        try:
            outcome = run_job(self.job, on_trial=lambda r: relay.trial.emit(run_id, r),
                              progress=progress)
        except Cancelled:
            relay.failed.emit(run_id, "")
        except Exception as exc:  # any failure becomes a message, never a dead worker
            relay.failed.emit(run_id, _message(exc))
        else:
            relay.done.emit(run_id, outcome)


def _message(exc: BaseException) -> str:
    text = str(exc) or type(exc).__name__
    if not isinstance(exc, ValueError | OSError | KeyError):
        text += "\n\n" + "".join(traceback.format_exception_only(type(exc), exc)).strip()
    return text


class TuneRunner(QObject):
    """One tuning run at a time; a run started while another is cancelling waits for it."""

    trial = Signal(object)  # TrialReport, after every trial
    progress = Signal(float, str)  # fraction of the run, message
    finished = Signal(object)  # TuneOutcome
    cancelled = Signal()  # stopped by `cancel()`; the trials done are stored
    failed = Signal(str)  # the error, one message

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(1)
        self._relay = _Relay(self)
        self._relay.trial.connect(self._on_trial)
        self._relay.progress.connect(self._on_progress)
        self._relay.done.connect(self._on_done)
        self._relay.failed.connect(self._on_failed)
        self._run_id = 0
        self._stop: threading.Event | None = None

    @property
    def running(self) -> bool:
        return self._stop is not None

    def start(self, job: Any) -> None:
        """Run `job` (a `TuneJob`) on the worker."""
        self.cancel()
        self._run_id += 1
        self._stop = threading.Event()
        self._pool.start(_Run(self._relay, self._run_id, job, self._stop))

    def cancel(self) -> None:
        """Ask the run to stop after its current trial (`cancelled` follows)."""
        if self._stop is not None:
            self._stop.set()

    def shutdown(self, timeout_ms: int = 5000) -> None:
        """Cancel and wait for the worker (the window closing)."""
        self.cancel()
        self._pool.waitForDone(timeout_ms)

    # -- the worker's reports, on the GUI thread ----------------------------------------------

    def _on_trial(self, run_id: int, report: object) -> None:
        if run_id == self._run_id:
            self.trial.emit(report)

    def _on_progress(self, run_id: int, fraction: float, message: str) -> None:
        if run_id == self._run_id:
            self.progress.emit(fraction, message)

    def _on_done(self, run_id: int, outcome: object) -> None:
        if run_id == self._run_id:
            self._stop = None
            self.finished.emit(outcome)

    def _on_failed(self, run_id: int, message: str) -> None:
        if run_id == self._run_id:
            self._stop = None
            if message:
                self.failed.emit(message)
            else:
                self.cancelled.emit()
