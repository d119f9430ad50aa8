"""A pool's workers are spawned ignoring Ctrl+C: it reaches the whole process group, and each
worker had printed a KeyboardInterrupt traceback through torch before the command's one line;
the command itself still stops on it and stops its workers."""

from __future__ import annotations

import multiprocessing
import signal

from workbench.core.embeddings import _workers_ignore_ctrl_c


def _spawn_and_interrupt() -> int | None:
    """A spawned child that sends itself SIGINT: 0 when it ignores it, 1 when it dies of
    KeyboardInterrupt."""
    process = multiprocessing.get_context("spawn").Process(target=signal.raise_signal,
                                                            args=(signal.SIGINT,))
    process.start()
    process.join(60)
    return process.exitcode


def test_workers_spawned_while_a_pool_starts_ignore_ctrl_c() -> None:
    handler = signal.getsignal(signal.SIGINT)
    with _workers_ignore_ctrl_c():
        inside = multiprocessing.get_context("spawn").Process(target=signal.raise_signal,
                                                               args=(signal.SIGINT,))
        inside.start()
        # this process still stops on Ctrl+C while the workers start (seconds)
        assert signal.getsignal(signal.SIGINT) is handler
    inside.join(60)
    assert inside.exitcode == 0
    assert signal.getsignal(signal.SIGINT) is handler
    # the control: spawned outside, a child dies of the same signal
    assert _spawn_and_interrupt() == 1
