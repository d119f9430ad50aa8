"""One cached object per file, the format of the prepare cache and the repository index cache.

A state file is `MAGIC`, the SHA-256 of the payload, and the payload: the object as arrays and
JSON (`codec`), never pickle, so a file dropped into a shared cache folder cannot run code. It
is written to a temporary name and renamed (`atomic`). A truncated, corrupt or unreadable file
is removed and reads as a miss; a file that cannot be written only costs time.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

from workbench.core.store import codec
from workbench.core.store.atomic import atomic_write_bytes
from workbench.core.store.checksum import seal, unseal

__all__ = ["MAGIC", "SUFFIX", "read_state", "write_state"]

MAGIC = b"WBPREP2\n"
SUFFIX = ".state"


def read_state(path: Path) -> Any:
    """The object stored at `path`, or None when there is none or it cannot be trusted (such a
    file is removed, where the folder allows)."""
    try:
        blob = path.read_bytes()
    except OSError:
        return None
    payload = unseal(MAGIC, blob)
    if payload is None:
        _discard(path)
        return None
    try:
        return codec.loads(payload)
    except Exception:  # an unreadable cache is rebuilt, whatever the reason
        _discard(path)
        return None


def write_state(path: Path, obj: object) -> None:
    """Store `obj` at `path`, atomically; nothing when the codec cannot hold it (it is built
    again next time) or the folder cannot be written."""
    try:
        payload = codec.dumps(obj)
    except codec.UnsupportedState:
        return  # state the codec cannot hold is prepared again next time
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_bytes(path, seal(MAGIC, payload))
    except OSError:
        pass  # a cache that cannot be written only costs time


def _discard(path: Path) -> None:
    with contextlib.suppress(OSError):  # a read-only cache: left in place, and ignored
        path.unlink(missing_ok=True)
