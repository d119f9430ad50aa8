"""The window says a damaged file of the embedding cache in its status bar, while its texts
embed again and after (review rv2, 2: 89 s of 'embedding 0/176 documents' and no word)."""

from __future__ import annotations

import errno
import os

import pytest
from conftest import SAMPLES, HeldFakeEncoder
from pytestqt.qtbot import QtBot

from workbench.core.embeddings import open_store
from workbench.gui.main_window import MainWindow


def test_the_status_bar_says_a_damaged_cache_file_beside_a_cache_not_written(
        qtbot: QtBot, held_encoder: HeldFakeEncoder, monkeypatch: pytest.MonkeyPatch) -> None:
    held_encoder.release.set()
    w = MainWindow(restore=False)
    qtbot.addWidget(w)
    assert w.open_path(SAMPLES / "tea-beir", "dense", {"embedding_model": held_encoder.name})
    qtbot.waitUntil(lambda: w.session.result is not None and not w.loop.preparing,
                    timeout=10_000)
    assert w.unkept_note.isHidden()
    folder = open_store(held_encoder, "").folder
    shard = max(folder.glob("*.shard"), key=lambda p: p.stat().st_size)  # the documents'
    shard.write_bytes(shard.read_bytes()[:1000])

    def no_space(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", no_space)  # and the texts embedded again are not kept
    w.session.set_param("vector_candidates", 900)  # another preparation: the store reopened
    qtbot.waitUntil(lambda: "No space" in w.unkept_note.toolTip(), timeout=10_000)
    assert w.unkept_note.toolTip().split("\n") == [
        f"1 damaged file of the embedding cache {folder} left unread: its texts are embedded "
        "again",
        f"Could not write the embedding cache {folder} (No space left on device): 151 vectors "
        "computed but not kept; the next run embeds them again"]
    # in sight, both, each in half the room, the folder's path left to the tooltip
    first, second = w.unkept_note.text().split(" · ")
    assert first.startswith("1 damaged file of the embedding cache left unread")
    assert second.startswith("Could not write the embedding cache (No space left on device)")
    w.close()
