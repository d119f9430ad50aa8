"""Work the window must wait for, run where it cannot freeze the window: reading a dataset
(a 100k-document corpus with stored vectors took 20 s on the GUI thread, the window frozen).

`wait_for` runs `fn` on a thread of its own and, if it has not finished within a moment, shows
a busy dialog with Cancel while the window's events go on; it returns `fn`'s value or raises
its exception, as a plain call would. Cancel raises `Cancelled` at once: the thread cannot be
stopped, so it runs to its end unseen and its result is dropped (reading changes nothing the
window holds until the caller uses the result).
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable
from typing import TypeVar

from PySide6.QtCore import QEventLoop, Qt, QTimer
from PySide6.QtWidgets import QProgressDialog, QWidget

from workbench.core.engine import Cancelled

T = TypeVar("T")

QUIET_S = 0.4  # work done within this shows no dialog
POLL_MS = 30


def wait_for(parent: QWidget, label: str, fn: Callable[[], T], *,
             synchronous: bool = False) -> T:
    """`fn()`, with the window alive meanwhile; `synchronous` (tests): a plain call."""
    if synchronous:
        return fn()
    out: dict[str, object] = {}
    done = threading.Event()

    def run() -> None:
        try:
            out["value"] = fn()
        except BaseException as exc:  # re-raised on the window's thread
            out["error"] = exc
        finally:
            done.set()

    threading.Thread(target=run, name="workbench-read", daemon=True).start()
    if not done.wait(QUIET_S):
        dialog = QProgressDialog(label, "Cancel", 0, 0, parent)
        dialog.setWindowTitle("Scoring Workbench")
        dialog.setWindowModality(Qt.WindowModality.WindowModal)
        dialog.setMinimumDuration(0)
        dialog.setAutoClose(False)
        dialog.setAutoReset(False)
        loop = QEventLoop()
        timer = QTimer()
        timer.setInterval(POLL_MS)
        interrupted = []

        def poll() -> None:
            if done.is_set() or dialog.wasCanceled():
                loop.quit()

        def on_sigint(_signum: int, _frame: object) -> None:
            # Ctrl+C in the terminal, raised once the loop has ended: raised in a Qt slot,
            # Qt printed it and the read went on
            interrupted.append(True)
            loop.quit()

        own_handler = (threading.current_thread() is threading.main_thread()
                       and signal.getsignal(signal.SIGINT) is signal.default_int_handler)
        previous = signal.signal(signal.SIGINT, on_sigint) if own_handler else None
        timer.timeout.connect(poll)  # (it also lets Python run its signal handlers)
        dialog.canceled.connect(loop.quit)
        timer.start()
        dialog.show()
        try:
            loop.exec()  # also ends when the application quits
        finally:
            timer.stop()
            if own_handler:
                signal.signal(signal.SIGINT, previous)
        dialog.close()
        dialog.deleteLater()
        if interrupted:
            raise KeyboardInterrupt
        if not done.is_set():  # Cancel, or the application quitting
            raise Cancelled(f"{label.rstrip(' …')}: cancelled")
    if "error" in out:
        raise out["error"]  # type: ignore[misc]
    return out["value"]  # type: ignore[return-value]
