"""Python's cyclic garbage collector, run only in the GUI thread.

Automatic collection starts in whichever thread happens to allocate when a threshold passes.
When that is a worker (a prepare, a combine, a tuning run), the cycles it frees can hold Qt
objects of closed windows and dialogs, whose destructors then run in the worker: a QObject
destructor takes Qt's lock and waits for the GIL while the GUI thread, holding the GIL, waits
for that lock — a deadlock the GUI tests met (a tuning worker importing optuna's storage while
a chart painted). So automatic collection is switched off and done on a timer in the GUI
thread, by generation as Python would.
"""

from __future__ import annotations

import gc

from PySide6.QtCore import QCoreApplication, QTimer


def collect_in_gui_thread(app: QCoreApplication, interval_ms: int = 1000) -> QTimer:
    """Switch automatic collection off; collect from a timer owned by `app`."""
    gc.disable()
    timer = QTimer(app)
    timer.timeout.connect(collect_due)
    timer.start(interval_ms)
    return timer


def collect_due() -> int:
    """Collect the generations whose allocation counts passed their thresholds."""
    limits, counts = gc.get_threshold(), gc.get_count()
    if counts[0] <= limits[0]:
        return 0
    generation = 2 if counts[2] > limits[2] else 1 if counts[1] > limits[1] else 0
    return gc.collect(generation)
