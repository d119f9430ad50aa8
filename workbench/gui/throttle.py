"""Throttled refreshes that run while the GUI thread would wait anyway.

A panel that redraws at most every `interval_ms` during a slider drag should not redraw at a
random moment: a timer that fires just after a new result landed delays that result's repaint
by the whole redraw. While a compute runs on the worker the GUI thread is idle, so the
throttled refresh is done then: when the parameters change (the live loop has just handed the
new request to its worker, being subscribed to the session before any panel), a refresh that
is due runs from the event loop at once. When the changes stop, a debounce timer catches up
`interval_ms` after the last poke; after a quiet spell a poke refreshes at once.

While a slider is held down (`drag.py`) even that refresh-while-computing is skipped: on two
cores it still slows the combine (the GIL, the second core) and delays the result's repaint
when it overruns. A drag's pokes only restart a `SETTLE_MS` debounce (the panel follows when
the slider rests), and the release catches up at once.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer

from workbench.core.session import TuningSession

from .bind import subscribe
from .drag import SETTLE_MS, drag_state


class IdleThrottle(QObject):
    """Calls `refresh()` at most about once per `interval_ms` while pokes stream in; every
    poke is eventually answered by a refresh. `interval_ms` <= 0 refreshes on every poke."""

    def __init__(self, session: TuningSession, refresh: Callable[[], None], interval_ms: int,
                 parent: QObject) -> None:
        super().__init__(parent)
        self.interval_ms = interval_ms
        self._refresh = refresh
        self._pending = False
        self._last = 0.0
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self.flush)
        self._drag = drag_state(session)
        self._drag.changed.connect(self._on_drag)
        subscribe(parent, session.params_changed, self._on_request)

    @property
    def pending(self) -> bool:
        return self._pending

    def poke(self) -> None:
        """Something to show changed."""
        if self.interval_ms <= 0:
            self._pending = True
            self.flush()
            return
        self._pending = True
        if self._drag.dragging:  # when the slider rests, or at its release
            self._timer.start(max(SETTLE_MS, self.interval_ms))
            return
        since = self._since_ms()
        if since >= 2 * self.interval_ms:
            # quiet until now (a click, a drag's first tick), or results streaming in without
            # parameter changes for that long: at once, after the events in hand
            self._timer.start(0)
        else:
            self._timer.start(self.interval_ms)  # restarted: catches up once the stream stops

    def flush(self) -> None:
        """Refresh now if a poke is unanswered."""
        self._timer.stop()
        if not self._pending:
            return
        self._pending = False
        self._last = time.monotonic()
        self._refresh()

    def cancel(self) -> None:
        self._timer.stop()
        self._pending = False

    def _since_ms(self) -> float:
        return (time.monotonic() - self._last) * 1000

    def _on_request(self, *_: object) -> None:
        # a new request is on the worker: refresh (if due) while it computes
        if self._pending and self.interval_ms > 0 and not self._drag.dragging \
                and self._since_ms() >= self.interval_ms:
            self._timer.start(0)

    def _on_drag(self, dragging: bool) -> None:
        # the drag ended: catch up with the newest result, after the events in hand
        if not dragging and self._pending and self.interval_ms > 0:
            self._timer.start(0)
