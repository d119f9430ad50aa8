"""Keeping the state caches within a size: the least recently used state goes first.

A prepared state or a repository index is keyed by everything it depends on, the workbench's
own source included, so every upgrade, parameter change or new snapshot adds files and none
is ever read again: a working cache had grown to 5.6 GB of `prepared/` in 3,864 files. After
each state is saved, `prepared/` and `repo-index/` are each trimmed to `$WORKBENCH_CACHE_LIMIT`
(default 8G, 8 GiB; `0` keeps everything), oldest use first; reading a state marks it used (its
modification time). The state just written is never removed, nor one used in the last
minutes (another process may be about to map it; on POSIX a mapped file that is removed stays
readable to whoever has it open). Embeddings are never trimmed: they take far longer to make
again. `workbench cache` shows what each part holds and trims or clears by hand.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from workbench.core.sizes import UNITS, byte_count
from workbench.core.store.paths import cache_dir

LIMIT_ENV = "WORKBENCH_CACHE_LIMIT"
DEFAULT_LIMIT = 8 * 2**30
STATE_FOLDERS = ("prepared", "repo-index")
RECENT_S = 600.0  # a state used this recently is kept, whatever the limit


class CacheLimitError(ValueError):
    """$WORKBENCH_CACHE_LIMIT is not a size."""


def parse_size(text: str, what: str, zero: str = "0 keeps everything") -> int:
    """'8G', '8GiB', '500M', '123456' → bytes (binary units); '8GB' → 8 × 1000³ bytes
    (`workbench.core.sizes`); CacheLimitError naming `what` otherwise (`zero`: what 0 means
    there, said in the error)."""
    value = byte_count(text)
    if value is None:
        raise CacheLimitError(f"{what}={text!r}: not a size (bytes, or {UNITS}; {zero})")
    return value


def cache_limit() -> int | None:
    """Bytes each state folder may hold ($WORKBENCH_CACHE_LIMIT, default 8G = 8 GiB); None: no
    limit."""
    text = os.environ.get(LIMIT_ENV, "").strip()
    if not text:
        return DEFAULT_LIMIT
    limit = parse_size(text, f"${LIMIT_ENV}")
    return limit or None


def mark_used(path: Path) -> None:
    """Note that the state at `path` was read now (a read-only cache: nothing noted)."""
    with contextlib.suppress(OSError):
        os.utime(path)


@dataclass(frozen=True)
class Trimmed:
    removed: int
    freed: int
    kept_bytes: int
    failed: int = 0  # states it could not remove (a read-only cache)
    why: str = ""  # the first such failure's reason


def trim(folder: Path, limit: int | None, keep: Iterable[Path] = (), *,
         recent_s: float | None = None) -> Trimmed:
    """Remove the least recently used state files of `folder` until it holds at most `limit`
    bytes; never one in `keep` or used within `recent_s` (default RECENT_S). Errors are
    ignored (another process removed it first, a read-only cache)."""
    if recent_s is None:
        recent_s = RECENT_S
    entries = _states(folder)
    total = sum(size for _, size, _ in entries)
    if limit is None or total <= limit:
        return Trimmed(0, 0, total)
    spared = {os.path.abspath(p) for p in keep}
    now = time.time()
    removed = freed = failed = 0
    why = ""
    for path, size, used in sorted(entries, key=lambda e: e[2]):
        if total <= limit:
            break
        if os.path.abspath(path) in spared or now - used < recent_s:
            continue
        try:
            os.unlink(path)
        except FileNotFoundError:  # another process removed it first: gone, not ours
            total -= size
            continue
        except OSError as exc:
            failed += 1
            why = why or str(exc.strerror or exc)
            continue
        total -= size
        removed += 1
        freed += size
    return Trimmed(removed, freed, total, failed, why)


def after_save(path: Path) -> None:
    """Trim the folder a state was just saved in (the state itself stays). A limit that is
    not a size is said where the caches are used (`cache_limit` raises there first)."""
    with contextlib.suppress(CacheLimitError):
        trim(path.parent, cache_limit(), keep=[path])


def _states(folder: Path) -> list[tuple[str, int, float]]:
    """(path, bytes, last use) of each state file in `folder`."""
    from workbench.core.store.state_file import SUFFIX

    out = []
    with contextlib.suppress(OSError):
        for entry in os.scandir(folder):
            if not entry.name.endswith(SUFFIX) or entry.name.startswith("."):
                continue
            with contextlib.suppress(OSError):
                st = entry.stat(follow_symlinks=False)
                if entry.is_file(follow_symlinks=False):
                    out.append((entry.path, st.st_size, st.st_mtime))
    return out


@dataclass(frozen=True)
class Part:
    name: str
    path: Path
    files: int
    size: int


def usage() -> list[Part]:
    """What each part of the cache holds: files and bytes (a folder counted through)."""
    root = cache_dir()
    parts = []
    for name in (*STATE_FOLDERS, "embeddings", "sample-repos", "studies.db"):
        path = root / name
        files = size = 0
        if path.is_file():
            files, size = 1, path.stat().st_size
        elif path.is_dir():
            for folder, _dirs, names in os.walk(path):
                for n in names:
                    with contextlib.suppress(OSError):
                        size += os.lstat(os.path.join(folder, n)).st_size
                        files += 1
        parts.append(Part(name, path, files, size))
    return parts
