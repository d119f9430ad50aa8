"""The on-disk embedding cache: one store per (model identity, prompt).

A store is a folder of shards. Shard i is two files written in this order, each to a temporary
name then renamed: `i.npy` (float32 (n, dim)) and `i.keys` — a small header (format tag, row
count, dim, SHA-256 of the `.npy` bytes) followed by n 16-byte text keys. A shard counts only
when its `.keys` file exists, its header parses, the `.npy` holds exactly n × dim floats and its
bytes hash to the recorded digest; anything else (an interrupted write, truncation, a flipped
byte) is deleted and its texts are embedded again. Shards are memory-mapped, so reopening a
cached corpus reads only the keys and hashes the vectors once.
"""

from __future__ import annotations

import hashlib
import os
import struct
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from workbench.core.engine import atomic_write_bytes

KEY_BYTES = 16
_MAGIC = b"WBEMB1\0\0"
_HEADER = struct.Struct("<8sqq32s")  # magic, rows, dim, sha256 of the .npy file


def text_key(text: str) -> bytes:
    """The cache key of one (already prompted) text."""
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=KEY_BYTES).digest()


class EmbeddingStore:
    """Vectors by text key, for one encoder identity and one prompt."""

    def __init__(self, folder: Path, dim: int) -> None:
        self.folder = folder
        self.dim = dim
        self.index: dict[bytes, tuple[int, int]] = {}  # key → (shard, row)
        self.shards: dict[int, NDArray[np.float32]] = {}
        self.dropped = 0  # shards found corrupt and removed on open
        self._open()

    def _open(self) -> None:
        if not self.folder.exists():
            return
        for keys_path in sorted(self.folder.glob("*.keys")):
            try:
                shard = int(keys_path.stem)
            except ValueError:
                continue
            vectors = self._load_shard(shard, keys_path)
            if vectors is None:
                self.dropped += 1
                keys_path.unlink(missing_ok=True)
                (self.folder / f"{shard}.npy").unlink(missing_ok=True)
                continue
            self.shards[shard] = vectors
        for stray in self.folder.glob("*.npy"):  # vectors whose keys never got written
            if not (self.folder / f"{stray.stem}.keys").exists():
                stray.unlink(missing_ok=True)

    def _load_shard(self, shard: int, keys_path: Path) -> NDArray[np.float32] | None:
        blob = keys_path.read_bytes()
        if len(blob) < _HEADER.size:
            return None
        magic, rows, dim, digest = _HEADER.unpack_from(blob)
        keys = blob[_HEADER.size:]
        if magic != _MAGIC or dim != self.dim or len(keys) != rows * KEY_BYTES:
            return None
        npy = self.folder / f"{shard}.npy"
        try:
            if _file_digest(npy) != digest:
                return None
            vectors: NDArray[np.float32] = np.load(npy, mmap_mode="r")
        except (OSError, ValueError):
            return None
        if vectors.shape != (rows, dim) or vectors.dtype != np.float32:
            return None
        for row in range(rows):
            self.index[keys[row * KEY_BYTES:(row + 1) * KEY_BYTES]] = (shard, row)
        return vectors

    def __len__(self) -> int:
        return len(self.index)

    def missing(self, keys: Sequence[bytes]) -> list[int]:
        """Positions of the keys with no stored vector."""
        return [i for i, k in enumerate(keys) if k not in self.index]

    def add(self, keys: Sequence[bytes], vectors: NDArray[np.float32]) -> None:
        """Store a new shard (vectors file first, then keys: a crash leaves no valid half)."""
        if len(keys) == 0:
            return
        vectors = np.ascontiguousarray(vectors, dtype=np.float32)
        self.folder.mkdir(parents=True, exist_ok=True)
        shard = max(self.shards, default=-1) + 1
        npy = self.folder / f"{shard}.npy"
        tmp = self.folder / f".{shard}.npy.tmp"
        with open(tmp, "wb") as fh:
            np.save(fh, vectors)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, npy)
        header = _HEADER.pack(_MAGIC, len(keys), self.dim, _file_digest(npy))
        atomic_write_bytes(self.folder / f"{shard}.keys", header + b"".join(keys))
        self.shards[shard] = np.load(npy, mmap_mode="r")
        for row, key in enumerate(keys):
            self.index[key] = (shard, row)

    def get(self, keys: Sequence[bytes]) -> NDArray[np.float32]:
        """float32 (n, dim) for keys that are all present."""
        out = np.empty((len(keys), self.dim), np.float32)
        by_shard: dict[int, tuple[list[int], list[int]]] = {}
        for i, key in enumerate(keys):
            shard, row = self.index[key]
            dst, src = by_shard.setdefault(shard, ([], []))
            dst.append(i)
            src.append(row)
        for shard, (dst, src) in by_shard.items():
            out[dst] = self.shards[shard][src]
        return out


def _file_digest(path: Path) -> bytes:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.digest()
