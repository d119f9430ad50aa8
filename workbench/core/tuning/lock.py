"""Who is tuning a study right now: an advisory lock per study beside its storage file.

A plain run works on an in-memory copy of its studies and writes each trial through
(storage.Handle): a second plain run on the same studies would evaluate every trial again and
store it twice, and `--fresh` would delete the studies under a run using them (a journal run
then crashed with KeyError, SQLite stored duplicate trial numbers). So a plain run holds its
studies exclusively and the processes of a `--workers` run share them; either kind is refused
while the other holds them. The lock is a one-byte POSIX record lock, at an offset drawn from
the study's name, on one hidden file beside the storage (`.studies.db.wb-lock`); the system
drops it when its process ends however it ends, so a killed run never leaves it held.

A shared run that finds nobody else on its studies takes them exclusively for a moment first:
a trial still RUNNING then belongs to a process that was killed, and is stored as failed (it
no longer counts toward `--trials`; a killed `--workers` run left one that did for good).
PostgreSQL studies are always shared between machines and are not locked.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import threading
from collections.abc import Iterator
from pathlib import Path

from workbench.core.params import ParamError
from workbench.core.tuning.storage import storage_file

try:
    import fcntl
except ImportError:  # not POSIX: no lock, as before
    fcntl = None  # type: ignore[assignment]

SUFFIX = ".wb-lock"


def lock_path(url: str) -> Path | None:
    """The lock file of a file storage URL (SQLite or journal); None for a server."""
    path = storage_file(url)
    return None if path is None else path.with_name(f".{path.name}{SUFFIX}")


def _offset(name: str) -> int:
    return int(hashlib.sha256(name.encode()).hexdigest()[:15], 16)


class Busy(ParamError):
    """Another process holds the studies in a way this run cannot share."""

    def __init__(self, message: str, where: str) -> None:
        super().__init__(message)
        self.where = where


@contextlib.contextmanager
def hold(url: str, name: str, *, exclusive: bool) -> Iterator[StudyLock]:
    """Hold study `name` (a run's base name) of storage `url` for a block: exclusively (a
    plain run, `--fresh`) or shared (a `--workers` run); Busy when that cannot be had now."""
    lock = StudyLock(url, name)
    try:
        lock.take(exclusive)
        yield lock
    finally:
        lock.release()


_OPEN: dict[Path, list[int]] = {}  # lock file → [fd, users]: one descriptor per process,
# as closing any descriptor of a file drops every record lock the process holds on it
# record locks never conflict within one process, so this one keeps its own holders:
# (lock file, study) → {holder: exclusive}
_HOLDERS: dict[tuple[Path, str], dict[int, bool]] = {}
# (lock file, study) marked here as a plain run's, for its whole run (`mark_plain`)
_MARKED: set[tuple[Path, str]] = set()
_GUARD = threading.Lock()


class StudyLock:
    def __init__(self, url: str, name: str) -> None:
        self.path = lock_path(url)
        self.name = name
        self.fd: int | None = None

    def _open(self) -> int | None:
        if fcntl is None or self.path is None:
            return None
        if self.fd is None:
            with _GUARD:
                entry = _OPEN.get(self.path)
                if entry is None:
                    try:
                        entry = _OPEN[self.path] = [
                            os.open(self.path, os.O_RDWR | os.O_CREAT, 0o666), 0]
                    except OSError:  # a folder that cannot hold it: the storage says so
                        return None
                entry[1] += 1
                self.fd = entry[0]
        return self.fd

    @property
    def lockable(self) -> bool:
        """A file storage on a system with record locks (not a server, not Windows)."""
        return self._open() is not None

    def _lockf(self, kind: int, mark: bool = False) -> None:
        assert self.fd is not None
        fcntl.lockf(self.fd, kind, 1, _offset(self.name) + (1 if mark else 0), os.SEEK_SET)

    def mark_plain(self) -> None:
        """Mark the study, held alone, as a plain run's for as long as it is held: a shared
        run finding it held then knows no wait will free it (a shared run's own process
        holds it alone only a moment, unmarked). The byte after the study's."""
        if self.fd is None or self.path is None or not self.held_alone:
            return
        with _GUARD, contextlib.suppress(OSError):
            self._lockf(fcntl.LOCK_EX | fcntl.LOCK_NB, mark=True)
            _MARKED.add((self.path, self.name))

    def plain_held(self) -> bool:
        """Whether a plain run holds the study (its mark), in this process or another."""
        if self._open() is None:
            return False
        assert self.path is not None
        with _GUARD:
            if (self.path, self.name) in _MARKED:
                return True
            try:
                self._lockf(fcntl.LOCK_SH | fcntl.LOCK_NB, mark=True)
            except OSError:
                return True
            with contextlib.suppress(OSError):
                self._lockf(fcntl.LOCK_UN, mark=True)
            return False

    def try_take(self, exclusive: bool) -> bool:
        """Take (or convert to) the lock without waiting; False when another process holds
        it in a conflicting way. True where there is nothing to lock."""
        if self._open() is None:
            return True
        assert self.path is not None
        with _GUARD:
            holders = _HOLDERS.setdefault((self.path, self.name), {})
            others = [x for h, x in holders.items() if h != id(self)]
            if others and (exclusive or any(others)):  # another holder in this process
                return False
            try:
                self._lockf((fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH) | fcntl.LOCK_NB)
            except OSError:
                return False
            holders[id(self)] = exclusive
        return True

    @property
    def held_alone(self) -> bool:
        """This lock holds its study exclusively, on a storage that is locked: no other
        process can be working on the study (False for a server's, which no lock guards)."""
        if self.fd is None or self.path is None:
            return False
        with _GUARD:
            return _HOLDERS.get((self.path, self.name), {}).get(id(self)) is True

    def take(self, exclusive: bool) -> None:
        if not self.try_take(exclusive):
            raise Busy(busy_message(self.name, self.path, exclusive),
                       str(_storage_of(self.path)))

    def release(self) -> None:
        if self.fd is None or self.path is None:
            return
        with _GUARD:
            holders = _HOLDERS.get((self.path, self.name), {})
            holders.pop(id(self), None)
            if not holders:  # the last holder here: the process lets go
                _HOLDERS.pop((self.path, self.name), None)
                with contextlib.suppress(OSError):
                    self._lockf(fcntl.LOCK_UN)
                if (self.path, self.name) in _MARKED:
                    _MARKED.discard((self.path, self.name))
                    with contextlib.suppress(OSError):
                        self._lockf(fcntl.LOCK_UN, mark=True)
            entry = _OPEN[self.path]
            entry[1] -= 1
            if entry[1] == 0:
                os.close(entry[0])
                del _OPEN[self.path]
            self.fd = None

    close = release


def _storage_of(path: Path | None) -> Path | str:
    return path.with_name(path.name[1:-len(SUFFIX)]) if path else "its storage"


def busy_message(name: str, path: Path | None, exclusive: bool) -> str:
    where = _storage_of(path)
    if exclusive:
        return (f"study {name!r} in {where} is being tuned by another workbench tune right "
                "now: a second run on it would evaluate and store its trials again, and "
                "--fresh would delete them under it. Wait for it to finish, or name another "
                "study with --study (runs share a study only when each was started with "
                "--workers, or on a database server)")
    return (f"study {name!r} in {where} is being tuned by another workbench tune that does "
            "not share it (one without --workers); wait for it to finish, or name another "
            "study with --study")
