"""Ctrl-C in the terminal ends `workbench gui`: a SIGINT arriving while the Qt event loop runs
reaches the window's handler (by default it closes the windows and quits)."""

from __future__ import annotations

import os
import signal

from PySide6.QtCore import QEventLoop, QTimer
from PySide6.QtWidgets import QApplication

from workbench.gui.app import quit_on_sigint


def test_ctrl_c_in_the_event_loop_reaches_the_handler(qapp: QApplication) -> None:
    loop = QEventLoop()
    interrupted: list[bool] = []
    stuck: list[bool] = []

    def on_interrupt() -> None:
        interrupted.append(True)
        loop.quit()

    restore = quit_on_sigint(qapp, on_interrupt)
    guard = QTimer()
    guard.setSingleShot(True)
    guard.timeout.connect(lambda: (stuck.append(True), loop.quit()))
    try:
        QTimer.singleShot(0, lambda: os.kill(os.getpid(), signal.SIGINT))
        guard.start(20_000)  # only if Ctrl-C did nothing: the test fails instead of hanging
        loop.exec()
    finally:
        guard.stop()
        restore()
    assert interrupted and not stuck
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
