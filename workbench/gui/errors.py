"""An exception that escapes a Qt slot ends in the window's error dialog, not only on stderr.

PySide6 hands an exception raised inside a slot (a menu action, a button, a timer) to
`sys.excepthook` and carries on; by default that prints a traceback on a terminal the user may
not be looking at, and the click seems to do nothing. `install(window)` puts a hook in front
that still prints (for bug reports) and then shows the exception as one line in the window's
error dialog, the traceback under "Show Details".
"""

from __future__ import annotations

import contextlib
import sys
import traceback
import weakref
from types import TracebackType
from typing import Protocol


class ShowsErrors(Protocol):
    def show_error(self, message: str, details: str = "") -> None: ...


_target: weakref.ref[ShowsErrors] | None = None
_previous = sys.excepthook


def install(window: ShowsErrors) -> None:
    """Send uncaught exceptions to `window` (the newest window installed wins)."""
    global _target, _previous
    _target = weakref.ref(window)
    if sys.excepthook is not _hook:
        _previous = sys.excepthook
        sys.excepthook = _hook


def _hook(kind: type[BaseException], exc: BaseException, tb: TracebackType | None) -> None:
    _previous(kind, exc, tb)
    if isinstance(exc, KeyboardInterrupt | SystemExit):
        return
    window = _target() if _target is not None else None
    if window is None:
        return
    with contextlib.suppress(RuntimeError):  # the window's C++ side is already gone
        window.show_error(f"Something went wrong: {message(exc)}",
                          "".join(traceback.format_exception(kind, exc, tb)))


def message(exc: BaseException) -> str:
    """One line: the exception's own text, or its type when it has none."""
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__


def os_error_text(exc: OSError) -> str:
    """An OSError as a person reads it: "No space left on device: /x/s.json", not
    "[Errno 28] No space left on device: '/x/s.json'"."""
    if not exc.strerror:
        return str(exc)
    return exc.strerror + (f": {exc.filename}" if exc.filename else "")
