"""The live loop: session changes → request on the GUI thread → compute on one worker → apply
on the GUI thread, only if still the newest (napari's slicer pattern).

- Combine runs on ONE worker thread with at most one request in flight. A slider storm never
  builds a backlog: while a request computes, further changes only mark the loop dirty, and
  when the result lands the newest parameters are requested once (a throttle whose rate is
  the compute time itself).
- Prepare (tokenising, embedding) runs on a second, cancellable worker that reports progress
  through `Progress(on_progress, should_stop)`; a newer prepare request cancels the running one.
- Results cross threads only through queued Qt signals; the session is touched on the GUI
  thread alone.
- `synchronous=True` runs everything inline, for deterministic tests and screenshots.
"""

from __future__ import annotations

import threading
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal

from workbench.core.engine import Cancelled, Progress
from workbench.core.session import TuningSession
from workbench.core.session_work import ComputeResult, PrepareResult, compute, run_prepare

from .bind import subscribe_many


class _Relay(QObject):
    """Carries a worker's outcome to the GUI thread (created there, so slots run there)."""

    done = Signal(object, object)  # (token, result)
    failed = Signal(object, str)  # (token, message)
    progress = Signal(object, float, str)  # (token, fraction, message)


class _Job(QRunnable):
    def __init__(self, relay: _Relay, token: object, fn: Callable[[], Any]) -> None:
        super().__init__()
        self.setAutoDelete(True)
        self._relay, self._token, self._fn = relay, token, fn

    def run(self) -> None:
        try:
            out = self._fn()
        except Cancelled as exc:  # "": cancelled, then what it kept (its notes), after a NUL
            notes = " ".join(getattr(exc, "__notes__", []))
            self._relay.failed.emit(self._token, f"\0{notes}" if notes else "")
        except Exception as exc:  # any failure becomes a message, never a dead worker
            self._relay.failed.emit(self._token, _message(exc))
        else:
            self._relay.done.emit(self._token, out)


def _message(exc: BaseException) -> str:
    text = str(exc) or type(exc).__name__
    if not isinstance(exc, ValueError | OSError | KeyError):
        text += "\n\n" + "".join(traceback.format_exception_only(type(exc), exc)).strip()
    return text


class LiveLoop(QObject):
    """Keeps `session.result` up to date with `session.params`, off the GUI thread."""

    busy_changed = Signal(bool)  # a compute is in flight (or not)
    prepare_started = Signal(str)  # what is being prepared
    prepare_progress = Signal(float, str)  # fraction, message
    prepare_finished = Signal(str)  # "" done, "cancelled", or the error message
    # Cancel asked for (any of its buttons or the menu): the worker stops at its next step
    prepare_cancelling = Signal()
    error = Signal(str)  # a compute that failed
    applied = Signal(float)  # a result was applied; its compute seconds

    def __init__(self, session: TuningSession, *, synchronous: bool = False,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.synchronous = synchronous
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(1)
        self._prep_pool = QThreadPool(self)
        self._prep_pool.setMaxThreadCount(1)
        self._relay = _Relay(self)
        self._relay.done.connect(self._on_done)
        self._relay.failed.connect(self._on_failed)
        self._relay.progress.connect(self._on_progress)
        self._in_flight = False
        self._dirty = False
        self._epoch = 0  # bumped when the dataset or model changes: older results are dropped
        self._stop: threading.Event | None = None
        self._preparing: int | None = None  # prepare generation in flight
        self._ended: int | None = None  # … and the last one cancelled or failed: not restarted
        self.cancel_note = ""  # what a cancelled preparation kept, in its own words
        self._held = 0  # inside `hold()`: changes are gathered, work starts at the end
        self.computed = 0  # results applied (tests and benchmarks count them)
        subscribe_many(self, [
            (session.params_changed, self._on_params),
            (session.k_changed, lambda *_: self.schedule()),
            (session.prepare_needed, self._on_prepare_needed),
            (session.dataset_changed, self._new_epoch),
            (session.model_changed, self._new_epoch),
        ])
        if session.result is None:  # a session handed over ready to compute starts at once
            self.schedule()

    # -- public -------------------------------------------------------------------------------

    @property
    def busy(self) -> bool:
        return self._in_flight

    @property
    def preparing(self) -> bool:
        return self._preparing is not None

    @contextmanager
    def hold(self) -> Iterator[None]:
        """Several session changes as one (open a dataset, then pick its model): nothing is
        prepared or computed until the end, then the newest state once."""
        self._held += 1
        try:
            yield
        finally:
            self._held -= 1
            if not self._held:
                self.schedule()

    def schedule(self) -> None:
        """Compute the session's current parameters, now or as soon as the worker is free."""
        if self._held:
            return
        if self.session.needs_prepare and self.session.prepared is None:
            # nothing to show until prepared (a new dataset or model): a prepare still running
            # for the one before is cancelled by the new one (left alone, it was dropped on
            # arrival and the new dataset never prepared)
            if self.session.prepare_generation not in (self._preparing, self._ended):
                self.prepare()
            return
        if self._in_flight:
            self._dirty = True
            return
        # while a new preparation runs (or after its Cancel), the live values on the last one
        request = self.session.request(stale=True)
        if request is None:
            return
        if self.synchronous:
            self._apply(compute(request))
            return
        self._in_flight, self._dirty = True, False
        self.busy_changed.emit(True)
        self._pool.start(_Job(self._relay, ("compute", self._epoch), lambda: compute(request)))

    def prepare(self) -> None:
        """Run the prepare stage for the session's parameters (cancelling one in progress)."""
        self._stop_prepare()
        request = self.session.prepare_request()
        if request is None:
            return
        what = f"preparing {request.model.id} on {request.dataset.name}"
        self.prepare_started.emit(what)
        if self.synchronous:
            try:
                done = run_prepare(request, Progress(on_progress=self.prepare_progress.emit))
            except Cancelled:
                self.prepare_finished.emit("cancelled")
                return
            except Exception as exc:
                self.prepare_finished.emit(_message(exc))
                return
            self._prepared(done)
            return
        stop = self._stop = threading.Event()
        token = ("prepare", request.generation)
        self._preparing = request.generation

        def on_progress(fraction: float, message: str) -> None:
            self._relay.progress.emit(token, fraction, message)

        progress = Progress(on_progress=on_progress, should_stop=stop.is_set)
        self._prep_pool.start(_Job(self._relay, token, lambda: run_prepare(request, progress)))

    def cancel_prepare(self) -> None:
        """Stop the preparation under way (Cancel); `prepare_cancelling` says so until it
        has stopped, whichever Cancel was pressed."""
        if self._stop_prepare() and self._preparing is not None:
            self.prepare_cancelling.emit()

    def _stop_prepare(self) -> bool:
        """Whether a preparation was told to stop."""
        if self._stop is None:
            return False
        self._stop.set()
        self._stop = None
        return True

    def recompute(self) -> None:
        """Ctrl+R: prepare again when prepare-stage parameters changed, else combine again."""
        if self.session.needs_prepare:
            self.prepare()
        else:
            self.schedule()

    def shutdown(self, timeout_ms: int = 5000) -> None:
        """Cancel and wait for the workers (the window calls this when it closes)."""
        self._stop_prepare()
        self._pool.waitForDone(timeout_ms)
        self._prep_pool.waitForDone(timeout_ms)

    # -- session events -----------------------------------------------------------------------

    def _new_epoch(self, *_: object) -> None:
        self._epoch += 1
        self._dirty = False

    def _on_params(self, name: object = None, *_: object) -> None:
        model = self.session.model
        if isinstance(name, str) and model is not None and name in model.schema \
                and model.schema[name].stage == "prepare":
            return  # its preparation follows (prepare_needed); the live values are unchanged
        self.schedule()

    def _on_prepare_needed(self, *_: object) -> None:
        if self._held:
            return
        if self.session.model is not None and self.session.dataset is not None:
            self.prepare()

    # -- worker outcomes (GUI thread) ---------------------------------------------------------

    def _on_done(self, token: tuple[str, int], out: object) -> None:
        kind, tag = token
        if kind == "compute":
            self._in_flight = False
            assert isinstance(out, ComputeResult)
            if tag == self._epoch:
                self._apply(out)
            self._after_compute()
        elif tag == self._preparing:
            self._preparing = None
            self._stop = None
            assert isinstance(out, PrepareResult)
            self._prepared(out)

    def _on_failed(self, token: tuple[str, int], message: str) -> None:
        kind, tag = token
        if kind == "compute":
            self._in_flight = False
            if message and not message.startswith("\0"):  # a cancel says nothing
                self.error.emit(message)
            self._after_compute()
        elif tag == self._preparing:
            self._preparing = None
            self._ended = tag  # a slider tick does not start it again: Recompute does
            self._stop = None
            cancelled = not message or message.startswith("\0")
            self.cancel_note = message[1:] if cancelled and message else ""
            self.prepare_finished.emit("cancelled" if cancelled else message)

    def _on_progress(self, token: tuple[str, int], fraction: float, message: str) -> None:
        if token[1] == self._preparing:
            self.prepare_progress.emit(fraction, message)

    def _after_compute(self) -> None:
        if self._dirty:
            self._dirty = False
            self.schedule()
        if not self._in_flight:
            self.busy_changed.emit(False)

    def _apply(self, done: ComputeResult) -> None:
        if self.session.apply(done):
            self.computed += 1
            self.applied.emit(done.seconds)

    def _prepared(self, done: PrepareResult) -> None:
        if self.session.apply_prepared(done):
            self.prepare_finished.emit("")
            self.schedule()
