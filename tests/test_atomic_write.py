"""Atomic writes land where the user meant: through a symlink to its target, never over a
folder, a device or a pipe, and several files all or none."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from workbench.core.store import NotRegularFileError, atomic_write_bytes, atomic_write_many


def test_a_symlink_is_written_through_to_its_target(tmp_path: Path) -> None:
    target = tmp_path / "real.csv"
    target.write_text("old")
    link = tmp_path / "link.csv"
    link.symlink_to(target)
    atomic_write_bytes(link, b"new")
    assert link.is_symlink() and target.read_text() == "new"
    dangling = tmp_path / "dangling.csv"
    dangling.symlink_to(tmp_path / "later.csv")
    atomic_write_bytes(dangling, b"made")
    assert dangling.is_symlink() and (tmp_path / "later.csv").read_text() == "made"


def test_a_pipe_or_a_folder_is_never_replaced(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(NotRegularFileError, match="not a regular file"):
        atomic_write_bytes(fifo, b"x")
    assert fifo.is_fifo()
    folder = tmp_path / "folder"
    folder.mkdir()
    with pytest.raises(NotRegularFileError, match="a folder"):
        atomic_write_bytes(folder, b"x")
    assert folder.is_dir()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder", "pipe"]


def test_many_files_are_written_all_or_none(tmp_path: Path) -> None:
    first = tmp_path / "first.txt"
    first.write_text("before")
    with pytest.raises(OSError) as caught:
        atomic_write_many([(first, b"after"), (tmp_path / "missing" / "second.txt", b"x")])
    assert caught.value.filename == str(tmp_path / "missing" / "second.txt")
    assert first.read_text() == "before"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["first.txt"]  # no temporary left
    atomic_write_many([(first, b"after"), (tmp_path / "second.txt", b"x")])
    assert first.read_text() == "after" and (tmp_path / "second.txt").read_text() == "x"
