"""Atomic file writing: readers see the old file or the new one, never half of it.

`atomic_write_many` writes several files all or none (each to a temporary file beside its
target, renamed into place only when every one is written); `atomic_write_bytes` and
`atomic_write_text` write one; `atomic_writer` hands out the temporary file itself, for a file
written piece by piece (a state file streams its arrays, `state_file`). `write_target` is where
a write to a path lands: through a symlink to its target, refused (`NotRegularFileError`) for a
folder, a device or a pipe.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import stat
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import BinaryIO

__all__ = ["NotRegularFileError", "atomic_write_bytes", "atomic_write_many",
           "atomic_write_text", "atomic_writer", "open_regular", "write_target"]


def _current_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


_UMASK = _current_umask()


class NotRegularFileError(OSError):
    """An output path that exists and is not a regular file (a folder, a device, a pipe):
    never replaced by a write."""


def open_regular(path: Path) -> io.FileIO:
    """`path` opened for reading, unbuffered; OSError where it is no regular file (a named
    pipe is opened without waiting for a writer, then refused)."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "not a regular file", str(path))
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        return io.FileIO(fd, "rb", closefd=True)
    except BaseException:
        os.close(fd)
        raise


def write_target(path: Path) -> Path:
    """Where a write to `path` lands: a symlink's target (the link stays a link), refused when
    that exists and is not a regular file (`/dev/full` is not replaced by a CSV), or is a file
    no one may write (chmod a-w: the rename would have replaced it all the same)."""
    target = Path(os.path.realpath(path)) if path.is_symlink() else path
    try:
        mode = target.stat().st_mode
    except FileNotFoundError:
        return target
    if not stat.S_ISREG(mode):
        kind = "a folder" if stat.S_ISDIR(mode) else "not a regular file"
        raise NotRegularFileError(errno.EEXIST, f"exists and is {kind}", str(path))
    if not mode & 0o222:
        raise PermissionError(errno.EACCES, "is read-only", str(path))
    return target


def _temp_beside(target: Path, path: Path) -> tuple[int, str]:
    """A new temporary file in `target`'s folder, with the mode a plain `open` would give:
    (descriptor, name). OSError carries `path` in `filename`."""
    try:
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    except OSError as exc:
        exc.filename = str(path)
        raise
    try:
        # mkstemp makes 0600: the mode of the file replaced, else the usual one
        old = target.stat().st_mode if target.is_file() else None
        os.fchmod(fd, old & 0o777 if old is not None else 0o666 & ~_UMASK)
    except OSError as exc:
        os.close(fd)
        Path(tmp).unlink(missing_ok=True)
        exc.filename = str(path)
        raise
    return fd, tmp


def atomic_write_many(items: Sequence[tuple[Path, bytes]]) -> None:
    """Write every (path, data) so that readers see the old files or the new ones: each is
    written to a temporary file beside its target first, and only when all of them are written
    are they renamed into place. A failure before that leaves every target as it was. OSError
    carries the failing path in `filename`."""
    targets = [write_target(path) for path, _ in items]
    temps: list[str] = []
    try:
        for target, (path, data) in zip(targets, items, strict=True):
            fd, tmp = _temp_beside(target, path)
            temps.append(tmp)
            try:
                with os.fdopen(fd, "wb") as fh:
                    fh.write(data)
                    fh.flush()
                    os.fsync(fh.fileno())
            except OSError as exc:
                exc.filename = str(path)
                raise
        for tmp, target in zip(temps, targets, strict=True):
            os.replace(tmp, target)
    except BaseException:
        for tmp in temps:
            Path(tmp).unlink(missing_ok=True)
        raise


@contextlib.contextmanager
def atomic_writer(path: Path) -> Iterator[BinaryIO]:
    """A file to write `path`'s new content into, piece by piece (seeking back allowed). It is
    a temporary file beside the target; when the block ends it is flushed, synced and renamed
    over the target, so readers see the old file or the whole new one. On any exception, in
    the block or after it, the temporary file is removed and the target left as it was
    (through a symlink to its target; NotRegularFileError for a folder or a device)."""
    target = write_target(path)
    fd, tmp = _temp_beside(target, path)
    try:
        with os.fdopen(fd, "wb") as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write `data` to `path` so that readers see the old file or the new one, never half
    (through a symlink to its target; NotRegularFileError for a folder or a device)."""
    atomic_write_many([(path, data)])


def atomic_write_text(path: Path, text: str) -> None:
    atomic_write_bytes(path, text.encode("utf-8"))
