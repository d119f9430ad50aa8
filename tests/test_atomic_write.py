"""Atomic writes land where the user meant: through a symlink to its target, never over a
folder, a device or a pipe, and several files all or none."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from workbench.core.store import (
    NotRegularFileError,
    atomic_write_bytes,
    atomic_write_many,
    atomic_write_text,
)


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


def test_a_replaced_file_keeps_its_mode_and_a_read_only_one_is_refused(tmp_path: Path) -> None:
    """The rename replaced a chmod 444 file (mode 644 after) and gave every replaced file
    the default mode."""
    import stat

    kept = tmp_path / "kept.csv"
    kept.write_text("old")
    kept.chmod(0o640)
    atomic_write_text(kept, "new")
    assert kept.read_text() == "new" and stat.S_IMODE(kept.stat().st_mode) == 0o640
    locked = tmp_path / "locked.csv"
    locked.write_text("old")
    locked.chmod(0o444)
    with pytest.raises(PermissionError, match="read-only"):
        atomic_write_text(locked, "new")
    assert locked.read_text() == "old" and stat.S_IMODE(locked.stat().st_mode) == 0o444
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kept.csv", "locked.csv"]
