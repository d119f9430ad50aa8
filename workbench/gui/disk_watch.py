"""Whether the open dataset's files changed on disk since they were read: a size and mtime per
file, taken when the data is read and compared when the window regains focus (no polling,
no file-system watcher: a folder of thousands of files would hold thousands of handles)."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from workbench.core.session import TuningSession

Stamp = dict[str, tuple[int, int]]  # path → (size, mtime in ns)
MOST_FILES = 5000  # a folder's files looked at, at most (a large repository stays cheap)
SKIPPED_DIRS = {".git", ".hg", ".svn", "__pycache__", "node_modules", ".venv"}


# what the dataset formats read in a folder: a session, an exported CSV, PNG or report saved
# beside the data is none of them (saving a session there read as "changed on disk")
READ_SUFFIXES = {".jsonl", ".tsv", ".md", ".toml"}
READ_NAMES = {"memories.json", "settings.json"}


def read_by_a_format(name: str) -> bool:
    """Whether a file of this name in a dataset folder is one a format reads."""
    return (os.path.splitext(name)[1].lower() in READ_SUFFIXES or name in READ_NAMES
            or name.startswith("injections.jsonl"))  # pi-memory's rotated logs too


def stamp(paths: Iterable[str]) -> Stamp:
    """Size and mtime of each path that is a file, and of the files under each folder that a
    dataset format reads (`read_by_a_format`; version-control and cache folders left out), up
    to MOST_FILES in all."""
    out: Stamp = {}
    for path in paths:
        if os.path.isfile(path):
            _add(out, path)
            continue
        for root, dirs, files in os.walk(path):
            dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRS)
            for name in sorted(files):
                if len(out) >= MOST_FILES:
                    return out
                if read_by_a_format(name):
                    _add(out, os.path.join(root, name))
    return out


def _add(out: Stamp, path: str) -> None:
    try:
        st = os.stat(path)
    except OSError:
        return
    out[path] = (st.st_size, st.st_mtime_ns)


def changed(before: Stamp, after: Stamp) -> list[str]:
    """The paths added, removed or changed between two stamps, sorted."""
    return sorted(p for p in before.keys() | after.keys() if before.get(p) != after.get(p))


class DiskWatch:
    """The files the session's dataset was read from, stamped when read; `check()` names
    those changed since."""

    def __init__(self, session: TuningSession) -> None:
        self.session = session
        self._key: tuple[object, ...] | None = None
        self._stamp: Stamp = {}

    def _paths(self) -> list[str]:
        s = self.session
        return [p for p in (s.source, s.queries_file, s.qrels_file) if p]

    def _current_key(self) -> tuple[object, ...]:
        s = self.session
        return (*self._paths(), s.split, s.opened)

    def follow(self) -> None:
        """Stamp the files where other data was opened (a query typed into the same data
        changes nothing on disk, and must not swallow an edit made meanwhile)."""
        key = self._current_key()
        if key != self._key:
            self.restamp()

    def restamp(self) -> None:
        """The files as they are now are those read (after an open or a reload)."""
        self._key = self._current_key()
        self._stamp = stamp(self._paths())

    def check(self) -> list[str]:
        """The files changed on disk since the data was read, as names relative to the
        dataset's folder where they are in it."""
        if self.session.dataset is None or not self._paths():
            return []
        paths = changed(self._stamp, stamp(self._paths()))
        source = self.session.source
        base = Path(source) if source and os.path.isdir(source) else None
        return [str(Path(p).relative_to(base)) if base is not None
                and Path(p).is_relative_to(base) else Path(p).name for p in paths]
