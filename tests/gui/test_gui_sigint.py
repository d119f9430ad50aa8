"""Ctrl-C in the terminal ends `workbench gui`: the windows close and the event loop returns."""

from __future__ import annotations

import os
import signal

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QWidget

from workbench.gui.app import quit_on_sigint


def test_ctrl_c_closes_the_windows_and_ends_the_loop(qapp: QApplication) -> None:
    widget = QWidget()
    widget.show()
    restore = quit_on_sigint(qapp)
    stuck: list[bool] = []
    guard = QTimer()
    guard.setSingleShot(True)
    guard.timeout.connect(lambda: (stuck.append(True), qapp.quit()))
    try:
        QTimer.singleShot(0, lambda: os.kill(os.getpid(), signal.SIGINT))
        guard.start(20_000)  # only if Ctrl-C did nothing: the test fails instead of hanging
        qapp.exec()
    finally:
        guard.stop()
        restore()
    assert not stuck and not widget.isVisible()
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
