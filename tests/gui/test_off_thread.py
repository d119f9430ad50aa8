"""Reading a dataset off the window's thread: the window's events go on meanwhile (a 100k
corpus with stored vectors froze it for 20 s), the value or the error comes back as from a
plain call, and Cancel gives up waiting at once."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QProgressDialog, QWidget
from pytestqt.qtbot import QtBot

from workbench.core.engine import Cancelled
from workbench.gui.off_thread import wait_for


def _window(qtbot: QtBot) -> QWidget:
    w = QWidget()
    qtbot.addWidget(w)
    w.show()
    return w


def test_the_window_keeps_running_while_it_waits(qtbot: QtBot) -> None:
    w = _window(qtbot)
    running, ticked = threading.Event(), threading.Event()

    def tick() -> None:  # a window event: it marks only a tick that came while the read ran
        if running.is_set():
            ticked.set()

    timer = QTimer()
    timer.timeout.connect(tick)
    timer.start(20)
    threads = []

    def slow() -> str:
        # the read lasts until the window's timer has fired (a blocking call never lets it:
        # after the deadline the read ends and says so)
        threads.append(threading.current_thread())
        running.set()
        try:
            return "read" if ticked.wait(10) else "no tick while reading"
        finally:
            running.clear()

    assert wait_for(w, "Reading …", slow) == "read"  # the event loop went on meanwhile
    timer.stop()
    assert threads[0] is not threading.main_thread()
    assert not any(d.isVisible() for d in w.findChildren(QProgressDialog))  # gone with it


def test_the_error_comes_back_as_from_a_plain_call(qtbot: QtBot) -> None:
    w = _window(qtbot)

    def bad() -> None:
        time.sleep(0.6)
        raise ValueError("line 3: no id")

    with pytest.raises(ValueError, match="line 3: no id"):
        wait_for(w, "Reading …", bad)
    with pytest.raises(ValueError, match="quick"):  # done before any dialog shows
        wait_for(w, "Reading …", lambda: (_ for _ in ()).throw(ValueError("quick")))


def test_cancel_gives_up_waiting(qtbot: QtBot) -> None:
    w = _window(qtbot)
    release = threading.Event()

    def press_cancel() -> None:
        for dialog in w.findChildren(QProgressDialog):
            dialog.canceled.emit()  # what its Cancel button sends

    QTimer.singleShot(800, press_cancel)
    started = time.monotonic()
    with pytest.raises(Cancelled, match="Reading big: cancelled"):
        wait_for(w, "Reading big …", lambda: release.wait(30))
    assert time.monotonic() - started < 10
    release.set()  # the abandoned thread ends; its result is dropped
    QApplication.processEvents()


def test_ctrl_c_in_the_terminal_is_not_swallowed(qtbot: QtBot) -> None:
    # raised inside the dialog's polling slot, Qt printed it and the read went on
    import os
    import signal

    w = _window(qtbot)
    release = threading.Event()
    threading.Timer(0.8, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt):
            wait_for(w, "Reading big …", lambda: release.wait(30))
    finally:
        signal.signal(signal.SIGINT, previous)
        release.set()


def test_a_session_is_read_off_the_window_thread(qtbot: QtBot, tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    # the session's dataset and baseline were read on the window's thread: a large corpus
    # froze it; now the window runs while it is read, then the session changes at once
    from tests.gui.conftest import SAMPLES
    from workbench.core import session_file
    from workbench.gui.main_window import MainWindow

    w = MainWindow(synchronous=False, restore=False)
    qtbot.addWidget(w)
    assert w.open_path(SAMPLES / "vault")
    qtbot.waitUntil(lambda: w.session.result is not None, timeout=20_000)
    w.session.set_param("w_tf", 0.7)
    path = tmp_path / "s.json"
    w.session.save(path)
    w.session.set_param("w_tf", 0.2)
    threads, ticks = [], []
    real = session_file.read_session

    def slow_read(p: object, dataset_at: str | None = None) -> object:
        threads.append(threading.current_thread())
        time.sleep(1.0)
        return real(p, dataset_at)  # type: ignore[arg-type]

    monkeypatch.setattr(session_file, "read_session", slow_read)
    timer = QTimer()
    timer.timeout.connect(lambda: ticks.append(1))
    timer.start(20)
    assert w.menu_actions.load_session_file(str(path))
    timer.stop()
    assert threads and threads[0] is not threading.main_thread()
    assert len(ticks) >= 10 and w.session.params["w_tf"] == 0.7
    w.close()
