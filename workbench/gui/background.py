"""One piece of long work off the GUI thread, with progress and cancel: the compare view's
comparison and the report export use it.

`BackgroundTask.start(fn)` runs `fn(progress)` on the global thread pool; a newer start
cancels the running one (its outcome is dropped). `progress`, `finished` and `failed` arrive
on the GUI thread through queued signals; `failed` carries one line ("" after a cancel).
`synchronous=True` runs inline, for tests and screenshots.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal

from workbench.core.engine import Cancelled, Progress


class _Relay(QObject):
    done = Signal(int, object)
    failed = Signal(int, str)
    progress = Signal(int, float, str)


class _Run(QRunnable):
    def __init__(self, relay: _Relay, token: int, fn: Callable[[Progress], Any],
                 stop: threading.Event) -> None:
        super().__init__()
        self.setAutoDelete(True)
        self._relay, self._token, self._fn, self._stop = relay, token, fn, stop

    def run(self) -> None:
        token = self._token
        progress = Progress(on_progress=lambda f, m: self._relay.progress.emit(token, f, m),
                            should_stop=self._stop.is_set)
        try:
            out = self._fn(progress)
        except Cancelled:
            self._relay.failed.emit(token, "")
        except Exception as exc:  # a failure becomes a message, never a dead worker
            self._relay.failed.emit(token, f"{type(exc).__name__}: {exc}"
                                    if not str(exc) else str(exc).splitlines()[0])
        else:
            self._relay.done.emit(token, out)


class BackgroundTask(QObject):
    finished = Signal(object)
    failed = Signal(str)
    progress = Signal(float, str)

    def __init__(self, parent: QObject | None = None, *, synchronous: bool = False) -> None:
        super().__init__(parent)
        self.synchronous = synchronous
        self._token = 0
        self._stop = threading.Event()
        self._running = False
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(1)
        self._relay = _Relay(self)
        self._relay.done.connect(self._on_done)
        self._relay.failed.connect(self._on_failed)
        self._relay.progress.connect(self._on_progress)

    @property
    def running(self) -> bool:
        return self._running

    def start(self, fn: Callable[[Progress], Any]) -> None:
        self.cancel()
        self._token += 1
        self._stop = threading.Event()
        self._running = True
        run = _Run(self._relay, self._token, fn, self._stop)
        if self.synchronous:
            run.run()
        else:
            self._pool.start(run)

    def cancel(self) -> None:
        """Stop the running work at its next progress report; its outcome is dropped."""
        if self._running:
            self._stop.set()
            self._running = False
            self.failed.emit("")

    def shutdown(self, timeout_ms: int = 5000) -> None:
        self._stop.set()
        self._running = False
        self._pool.waitForDone(timeout_ms)

    def _on_done(self, token: int, out: object) -> None:
        if token == self._token and self._running:
            self._running = False
            self.finished.emit(out)

    def _on_failed(self, token: int, message: str) -> None:
        if token == self._token and self._running:
            self._running = False
            self.failed.emit(message)

    def _on_progress(self, token: int, fraction: float, message: str) -> None:
        if token == self._token and self._running:
            self.progress.emit(fraction, message)
