"""The window's status bar follows a preparation: its message with a percentage, a bar and a
Cancel, in sight while the Prepare box's sit at the end of the parameter panel's scroll."""

from __future__ import annotations

import errno
import os

import pytest
from conftest import SAMPLES, HeldFakeEncoder
from pytestqt.qtbot import QtBot

from workbench.gui.main_window import MainWindow
from workbench.gui.prepare_status import progress_line


def test_the_message_carries_the_percentage() -> None:
    assert progress_line("preparing hybrid on scifact", 0.1234,
                         "embedding 640/5,183 documents") == \
        "preparing hybrid on scifact: embedding 640/5,183 documents — 12 %"
    assert progress_line("preparing bm25 on tea", 0.5, "") == "preparing bm25 on tea — 50 %"


def test_the_status_bar_shows_progress_and_cancels_the_preparation(
        qtbot: QtBot, held_encoder: HeldFakeEncoder) -> None:
    w = MainWindow(restore=False)  # the loop's worker, as the app runs it
    qtbot.addWidget(w)
    w.resize(1600, 1000)
    w.show()
    status = w.prepare_status
    assert not status.progress.isVisible() and not status.cancel.isVisible()
    assert w.open_path(SAMPLES / "tea-beir", "dense", {"embedding_model": held_encoder.name})
    qtbot.waitUntil(held_encoder.started.is_set, timeout=10_000)
    # the encoder reports while it waits: the bar, its percentage and Cancel are in sight
    qtbot.waitUntil(lambda: "%" in w.statusBar().currentMessage(), timeout=10_000)
    message = w.statusBar().currentMessage()
    assert message.startswith("preparing dense on tea-beir: ") and message.endswith(" %")
    assert status.progress.isVisible() and status.cancel.isVisible()
    assert status.cancel.isEnabled()
    box = w.params.prepare_box
    assert box is not None
    with qtbot.waitSignal(w.loop.prepare_finished, timeout=10_000) as got:
        status.cancel.click()
        # both Cancels say it is stopping, and neither is pressed twice
        assert not status.cancel.isEnabled() and not box.cancel.isEnabled()
        assert "cancelling" in w.statusBar().currentMessage()
    assert got.args == ["cancelled"]
    assert not status.progress.isVisible() and not status.cancel.isVisible()
    assert w.statusBar().currentMessage() == "prepare cancelled"
    held_encoder.release.set()
    w.close()


def test_an_embedding_cache_not_written_is_said_in_the_status_bar(
        qtbot: QtBot, held_encoder: HeldFakeEncoder, monkeypatch: pytest.MonkeyPatch) -> None:
    """A full disk: the vectors were computed but not kept, every start embedded everything
    again, and the window never said why. The core says it from the worker's thread."""
    from workbench.core.embeddings import unkept

    def no_space(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", no_space)
    held_encoder.release.set()
    before = unkept._unkept_listener  # a window another test left open, or none
    w = MainWindow(restore=False)
    qtbot.addWidget(w)
    assert unkept._unkept_listener is not before
    assert w.unkept_note.isHidden()
    assert w.open_path(SAMPLES / "tea-beir", "dense", {"embedding_model": held_encoder.name})
    qtbot.waitUntil(lambda: not w.unkept_note.isHidden(), timeout=10_000)
    shown = w.unkept_note.toolTip()  # the whole line (the label may cut its middle)
    assert "Could not write the embedding cache " in shown
    assert "(No space left on device)" in shown
    assert shown.endswith("; the next run embeds them again")
    # in sight, the reason before the folder's long path (the tooltip names it)
    assert "cache (No space left on device): 151 vectors" in w.unkept_note.text()
    # the next preparation listens afresh: its note replaces this one
    with qtbot.waitSignal(w.loop.prepare_started, timeout=10_000):
        w.loop.prepare()
    assert w.unkept_note.isHidden()
    qtbot.waitUntil(lambda: not w.unkept_note.isHidden(), timeout=10_000)
    w.close()
    assert unkept._unkept_listener is before  # uninstalled with the window
