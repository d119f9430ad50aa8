"""One cached object per file, the format of the prepare cache and the repository index cache.

The object is split by `codec` into JSON and arrays, never pickle, so a file dropped into a
shared cache folder cannot run code. The arrays are streamed to disk as their raw bytes and
mapped back read-only, so neither writing nor reading holds another copy of them in memory
(a hybrid state of 50,000 × 1,000 peaked at 7.8 GB through an in-memory `.npz`). Layout, all
integers little-endian:

    0    MAGIC                       8 bytes
    8    SHA-256 of bytes 40 to end  32 bytes, zeros until the rest is written
    40   n, the metadata's length    8 bytes
    48   metadata                    n bytes of JSON: {"root": tree, "arrays": [entry, ...]}
         each array's raw bytes      at `data + entry["at"]`, `data` = 48 + n rounded up to 64

Each entry gives the array's dtype, shape and order (`codec.array_entry`); every array starts
at a multiple of 64 bytes, zeros between. Writing goes to a temporary file beside the target
(`atomic.atomic_writer`), array by array, hashing as it goes; the digest goes into its slot
last and the file is renamed into place, so a half-written file never appears under the final
name. Reading hashes the file in chunks, then maps it once: the arrays are read-only views of
the map, loaded by the OS page by page as they are touched. A truncated, corrupt or unreadable
file is removed and reads as a miss; a file that cannot be written only costs time. A file of
another format (`WBPREP2`, the `.npz` blob before this one) is such a file.

A file replaced or removed while mapped stays mapped (POSIX keeps the old inode until the map
goes). On Windows a mapped file cannot be replaced or removed: the write that would replace it
fails and is skipped, as any failed write is — this project targets Linux and macOS.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import mmap
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np

from workbench.core.store import codec
from workbench.core.store.atomic import atomic_writer, open_regular
from workbench.core.store.checksum import DIGEST_BYTES

__all__ = ["MAGIC", "SUFFIX", "read_state", "write_state"]

MAGIC = b"WBPREP3\n"
SUFFIX = ".state"
ALIGN = 64  # every array starts at a multiple of this: a cache line, and any dtype's alignment
_HASHED_FROM = len(MAGIC) + DIGEST_BYTES  # the digest covers everything after itself
_HEAD = _HASHED_FROM + 8  # magic, digest, the metadata's length
_CHUNK = 1 << 22  # bytes per read while hashing, per write of a copied piece


def read_state(path: Path) -> Any:
    """The object stored at `path`, or None when there is none or it cannot be trusted (such a
    file is removed, where the folder allows). Its arrays are read-only views of the file
    mapped into memory; they keep the map open for as long as they live."""
    try:
        fh = open_regular(path)
    except OSError:  # none, unreadable, or no regular file (a pipe would block for good)
        return None
    with fh:
        try:
            meta = _verified_meta(fh)
        except OSError:
            return None  # unreadable now (permissions, I/O): left for the next reader
        if meta is None:
            _discard(path)
            return None
        try:
            return _decode(fh, meta)
        except Exception:  # an unreadable cache is rebuilt, whatever the reason
            _discard(path)
            return None


STALE_TEMP_S = 6 * 3600  # a writer this long silent is gone (killed, a closed terminal)


def sweep_stale_temps(folder: Path, older_than_s: float = STALE_TEMP_S) -> tuple[int, int]:
    """Remove the temporary files (`.NAME.XXXX.tmp`) that writers killed mid-write left in
    `folder` and that have not changed for `older_than_s`: without this every kill -9 of a
    prepare leaves tens of megabytes that nothing reads. Errors are ignored. (files, bytes)
    removed."""
    now = time.time()
    removed = freed = 0
    with contextlib.suppress(OSError):
        for entry in os.scandir(folder):
            if not (entry.name.startswith(".") and entry.name.endswith(".tmp")):
                continue
            with contextlib.suppress(OSError):
                st = entry.stat(follow_symlinks=False)
                if entry.is_file(follow_symlinks=False) and now - st.st_mtime > older_than_s:
                    os.unlink(entry.path)
                    removed += 1
                    freed += st.st_size
    return removed, freed


def write_state(path: Path, obj: object) -> None:
    """Store `obj` at `path`, atomically, its arrays streamed to the file without a copy;
    nothing when the codec cannot hold it (it is built again next time) or the folder cannot
    be written. Any other exception (from an array that fails while being read) propagates,
    and leaves neither the file nor a temporary file behind."""
    try:
        root, arrays = codec.encode(obj)
    except codec.UnsupportedState:
        return  # state the codec cannot hold is prepared again next time
    entries, end = [], 0
    for arr in arrays:
        at = _aligned(end)
        entries.append(codec.array_entry(arr, at))
        end = at + arr.nbytes
    meta = json.dumps({"root": root, "arrays": entries}, separators=(",", ":"),
                      allow_nan=True).encode("utf-8")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        sweep_stale_temps(path.parent)
        with atomic_writer(path) as fh:
            _write(fh, meta, arrays, entries)
    except OSError:
        pass  # a cache that cannot be written only costs time


def _write(fh: BinaryIO, meta: bytes, arrays: list[np.ndarray[Any, Any]],
           entries: list[dict[str, Any]]) -> None:
    fh.write(MAGIC + bytes(DIGEST_BYTES))
    sha, pos = hashlib.sha256(), _HASHED_FROM

    def put(data: bytes | memoryview) -> None:
        nonlocal pos
        fh.write(data)
        sha.update(data)
        pos += memoryview(data).nbytes

    put(len(meta).to_bytes(8, "little"))
    put(meta)
    data = _aligned(pos)
    for arr, entry in zip(arrays, entries, strict=True):
        put(bytes(data + entry["at"] - pos))
        for piece in _raw_pieces(arr, entry["order"]):
            put(piece)
    fh.seek(len(MAGIC))
    fh.write(sha.digest())


def _raw_pieces(arr: np.ndarray[Any, Any], order: str) -> Iterator[memoryview]:
    """`arr`'s elements as raw bytes in `order`, in pieces of about `_CHUNK` bytes: views of
    its memory where it is contiguous, else copies of a few rows at a time."""
    if arr.nbytes == 0:
        return
    flat = arr.T if order == "F" else arr  # an "F" array is C-contiguous transposed
    if flat.flags.c_contiguous:
        raw = flat.reshape(-1).view(np.uint8).data
        for lo in range(0, len(raw), _CHUNK):
            yield raw[lo:lo + _CHUNK]
        return
    row = flat[0].nbytes if flat.ndim else flat.nbytes
    if row > _CHUNK and flat.ndim > 1:
        for sub in flat:  # one row is already large: its rows in turn
            yield from _raw_pieces(sub, "C")
        return
    step = max(1, _CHUNK // max(row, 1))
    for lo in range(0, len(flat), step):
        yield np.ascontiguousarray(flat[lo:lo + step]).reshape(-1).view(np.uint8).data


def _verified_meta(fh: io.FileIO) -> bytes | None:
    """The metadata of the state file open as `fh`, hashing the whole file in chunks (bounded
    memory); None when its magic, length or digest is wrong."""
    head = fh.read(_HEAD)
    if len(head) < _HEAD or not head.startswith(MAGIC):
        return None
    size = os.fstat(fh.fileno()).st_size
    n = int.from_bytes(head[_HASHED_FROM:], "little")
    if _HEAD + n > size:
        return None
    sha = hashlib.sha256(head[_HASHED_FROM:])
    meta = fh.read(n)
    if len(meta) != n:
        return None
    sha.update(meta)
    buf = memoryview(bytearray(_CHUNK))
    while got := fh.readinto(buf):
        sha.update(buf[:got])
    if sha.digest() != head[len(MAGIC):_HASHED_FROM]:
        return None
    return meta


def _decode(fh: io.FileIO, meta: bytes) -> Any:
    """The object of a verified file: its arrays are views of one read-only map of `fh` (the
    file already hashed, not one a writer has renamed over it since)."""
    doc = json.loads(meta.decode("utf-8"))
    entries = doc["arrays"]
    if not isinstance(entries, list):
        raise ValueError("malformed array table")
    arrays: list[np.ndarray[Any, Any]] = []
    if entries:
        mapped = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
        data = _aligned(_HEAD + len(meta))
        arrays = [codec.array_view(mapped, entry, data) for entry in entries]
    return codec.decode(doc["root"], arrays)


def _aligned(offset: int) -> int:
    return -(-offset // ALIGN) * ALIGN


def _discard(path: Path) -> None:
    with contextlib.suppress(OSError):  # a read-only cache: left in place, and ignored
        path.unlink(missing_ok=True)
