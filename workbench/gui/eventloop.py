"""Running the Qt event loop until something is true: benchmarks and scripted sessions (the
screenshot command) wait on the window this way; tests use qtbot.waitUntil / waitSignal."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QEventLoop, QTimer


def wait_until(done: Callable[[], bool], *, wake: Any = None, timeout: float = 600.0,
               poll_ms: int = 50) -> None:
    """Run the event loop until `done()`. A nested QEventLoop that `wake` (a signal) quits
    returns the moment the awaited result lands; `processEvents(WaitForMoreEvents, t)` would
    linger up to t ms after it, and a benchmark would count that as latency."""
    end = time.perf_counter() + timeout
    while not done():
        if time.perf_counter() > end:
            raise TimeoutError(f"still waiting after {timeout:.0f} s")
        loop = QEventLoop()
        if wake is not None:
            wake.connect(loop.quit)
        QTimer.singleShot(poll_ms, loop.quit)
        loop.exec()
        if wake is not None:
            wake.disconnect(loop.quit)
