"""The window collects garbage in the GUI thread only (workbench/gui/gc_main.py)."""

from __future__ import annotations

import gc
import threading

from workbench.gui.gc_main import collect_due, collect_in_gui_thread


class _Cycle:
    def __init__(self) -> None:
        self.me = self


def test_collection_runs_on_the_gui_timer_not_in_a_worker(qapp, qtbot):
    thresholds = gc.get_threshold()
    gc.set_threshold(1, 1, 1)  # every allocation would start a collection where it happens
    timer = collect_in_gui_thread(qapp, interval_ms=20)
    try:
        assert not gc.isenabled()
        freed_in: list[str] = []

        class Watched(_Cycle):
            def __del__(self) -> None:
                freed_in.append(threading.current_thread().name)

        Watched()  # unreachable at once: a cycle only the collector frees

        def allocate() -> None:  # a worker allocating far past the gen-0 threshold
            _ = [_Cycle() for _ in range(1000)]

        worker = threading.Thread(target=allocate, name="worker")
        worker.start()
        worker.join()
        assert freed_in == []  # nothing was collected in the worker
        qtbot.waitUntil(lambda: bool(freed_in), timeout=5000)
        assert freed_in == [threading.main_thread().name]
    finally:
        timer.stop()
        gc.set_threshold(*thresholds)
        gc.enable()


def test_collect_due_collects_only_past_the_threshold():
    gc.collect()
    assert collect_due() == 0  # counts are back at zero
