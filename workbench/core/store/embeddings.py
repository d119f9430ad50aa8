"""The embedding store, the on-disk embedding cache: one store per (model identity, prompt),
in the folder `store_folder` names under `cache_dir()/embeddings/`.

A store is a folder of shards. Each shard is ONE file, `<writer>-<random>.shard`, written to a
temporary name and renamed, so a reader sees all of it or none of it:

    header   magic, rows, dim, SHA-256 of everything after the header
    keys     rows × 16-byte text keys (a hash of each prompted text)
    padding  to a multiple of 64 bytes
    vectors  float32 little-endian (rows, dim)

The one digest covers the keys and the vectors together, so a shard is verifiable as a pair: a
key can never be read against another text's vector. Shard names are unique per writer (process
id plus random bytes), so two writers at once (two `embed` runs, the window's Re-embed and a CLI
run) each add their own shards and never overwrite each other's. A shard whose header, size or
digest is wrong is deleted and its texts are embedded again. Vectors are memory-mapped, so
reopening a cached corpus reads the keys and hashes the file once.

A store that cannot be written (a read-only or full disk) is not an error: `add` returns False
and the caller keeps the vectors it computed, as the prepare cache does.

Beside its shards a store keeps `about.json` (its encoder and prompt, written with its first
shard, and again with the next shard where it is damaged), so that `workbench cache` can say
which prompt each store holds: the folder name carries only a hash of it.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import secrets
import struct
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from workbench.core.store.atomic import atomic_write_bytes, open_regular
from workbench.core.store.paths import cache_dir

__all__ = ["ABOUT", "KEY_BYTES", "SUFFIX", "EmbeddingStore", "StoreSummary", "shard_bytes",
           "store_folder", "store_summaries", "text_key"]

KEY_BYTES = 16
SUFFIX = ".shard"
ABOUT = "about.json"  # {"encoder": identity, "prompt": prompt}, written with the first shard
_MAGIC = b"WBEMB2\0\0"
_HEADER = struct.Struct("<8sqq32s")  # magic, rows, dim, sha256(keys + padding + vectors)
_ALIGN = 64
_LEGACY = (".npy", ".keys")
_STALE_TEMP_S = 24 * 3600  # a temporary file this old belongs to a writer that died


def store_folder(identity: str, prompt: str) -> Path:
    """The folder of the store of one encoder identity and one prompt."""
    prompt_hash = hashlib.sha256(prompt.encode("utf-8")).hexdigest()[:16]
    return cache_dir() / "embeddings" / f"{identity}-{prompt_hash}"


def text_key(text: str) -> bytes:
    """The cache key of one (already prompted) text."""
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=KEY_BYTES).digest()


def _vectors_offset(rows: int) -> int:
    end = _HEADER.size + rows * KEY_BYTES
    return -(-end // _ALIGN) * _ALIGN


def shard_bytes(keys: Sequence[bytes], vectors: NDArray[np.float32], dim: int) -> bytes:
    """One shard file's bytes: header, keys, padding, vectors (float32 (n, dim))."""
    rows = len(keys)
    if vectors.shape != (rows, dim) or any(len(k) != KEY_BYTES for k in keys):
        raise ValueError(f"shard of {rows} keys needs vectors ({rows}, {dim}), "
                         f"got {vectors.shape}")
    pad = b"\0" * (_vectors_offset(rows) - _HEADER.size - rows * KEY_BYTES)
    body = b"".join(keys) + pad + np.ascontiguousarray(vectors, dtype="<f4").tobytes()
    return _HEADER.pack(_MAGIC, rows, dim, hashlib.sha256(body).digest()) + body


class EmbeddingStore:
    """Vectors by text key, for one encoder identity and one prompt."""

    def __init__(self, folder: Path, dim: int, about: dict[str, str] | None = None) -> None:
        self.folder = folder
        self.dim = dim
        self.about = about  # what `about.json` says of the store (its encoder and prompt)
        self.index: dict[bytes, tuple[str, int]] = {}  # key → (shard name, row)
        self.shards: dict[str, NDArray[np.float32]] = {}
        self.dropped = 0  # shards found corrupt on open (removed when the folder allows)
        self._open()

    def _open(self) -> None:
        try:
            entries = sorted(self.folder.iterdir())
        except OSError:  # absent or unreadable: nothing cached
            return
        now = time.time()
        for path in entries:
            if path.name.startswith(".") and path.name.endswith(".tmp"):
                _remove_if_older(path, now - _STALE_TEMP_S)
            elif path.suffix == SUFFIX:
                vectors = self._load_shard(path)
                if vectors is None:
                    self.dropped += 1
                    _remove(path)
                else:
                    self.shards[path.stem] = vectors
            elif path.suffix in _LEGACY:  # the two-file shards of earlier versions
                _remove(path)

    def _load_shard(self, path: Path) -> NDArray[np.float32] | None:
        try:
            with open_regular(path) as fh:
                head = fh.read(_HEADER.size)
                if len(head) < _HEADER.size:
                    return None
                magic, rows, dim, digest = _HEADER.unpack(head)
                if magic != _MAGIC or dim != self.dim or rows < 0:
                    return None
                offset = _vectors_offset(rows)
                if os.fstat(fh.fileno()).st_size != offset + rows * dim * 4:
                    return None
                keys = fh.read(rows * KEY_BYTES)
                h = hashlib.sha256(keys)
                for chunk in iter(lambda: fh.read(1 << 20), b""):
                    h.update(chunk)
            if h.digest() != digest:
                return None
            vectors: NDArray[np.float32] = np.memmap(path, dtype="<f4", mode="r",
                                                     offset=offset, shape=(rows, dim))
        except (OSError, ValueError):
            return None
        for row in range(rows):
            self.index[keys[row * KEY_BYTES:(row + 1) * KEY_BYTES]] = (path.stem, row)
        return vectors

    def __len__(self) -> int:
        return len(self.index)

    def missing(self, keys: Sequence[bytes]) -> list[int]:
        """Positions of the keys with no stored vector."""
        return [i for i, k in enumerate(keys) if k not in self.index]

    def add(self, keys: Sequence[bytes], vectors: NDArray[np.float32]) -> bool:
        """Store a new shard under a name no other writer uses. False (and nothing stored)
        when the folder cannot be written: the caller keeps its vectors in memory."""
        if len(keys) == 0:
            return True
        vectors = np.ascontiguousarray(vectors, dtype=np.float32)
        blob = shard_bytes(keys, vectors, self.dim)
        name = f"{os.getpid()}-{secrets.token_hex(8)}"
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            atomic_write_bytes(self.folder / f"{name}{SUFFIX}", blob)
        except OSError:
            return False
        if self.about is not None and not _about_readable(self.folder / ABOUT):
            with contextlib.suppress(OSError):  # a description, not the vectors: best effort
                atomic_write_bytes(self.folder / ABOUT,
                                   json.dumps(self.about, ensure_ascii=False).encode("utf-8"))
        self.shards[name] = vectors  # the bytes just written, without reading them back
        for row, key in enumerate(keys):
            self.index[key] = (name, row)
        return True

    def get(self, keys: Sequence[bytes]) -> NDArray[np.float32]:
        """float32 (n, dim) for keys that are all present."""
        out = np.empty((len(keys), self.dim), np.float32)
        by_shard: dict[str, tuple[list[int], list[int]]] = {}
        for i, key in enumerate(keys):
            shard, row = self.index[key]
            dst, src = by_shard.setdefault(shard, ([], []))
            dst.append(i)
            src.append(row)
        for shard, (dst, src) in by_shard.items():
            out[dst] = self.shards[shard][src]
        return out


@dataclass(frozen=True)
class StoreSummary:
    """One store as `workbench cache` lists it."""

    folder: Path
    encoder: str  # the encoder identity (the folder name's head where about.json is missing)
    prompt: str | None  # None: not recorded (a store written before about.json)
    vectors: int  # in the shards whose header and size agree
    size: int  # bytes
    damaged: int = 0  # shards whose header or size is wrong: their vectors are not counted
    about_unreadable: bool = False  # about.json there but not a JSON object (damaged)


def store_summaries(root: Path) -> list[StoreSummary]:
    """Each store under `root` (cache_dir()/embeddings): its encoder, prompt, vector count
    and size, largest first. The vectors are counted from the shard headers, of the shards
    whose header and file size agree; a shard cut short (a killed copy, a full disk) or with
    a foreign header is counted as damaged — the store drops it when next opened and its
    texts are embedded again. (Only opening a store checks the digests: that reads every
    byte of every shard.)"""
    out = []
    try:
        folders = [f for f in root.iterdir() if f.is_dir()]
    except OSError:
        return []
    for folder in folders:
        vectors = size = damaged = 0
        for path in folder.iterdir():
            with contextlib.suppress(OSError):
                size += path.stat().st_size
                if path.suffix == SUFFIX:
                    rows = _header_rows(path)
                    if rows is None:
                        damaged += 1
                    else:
                        vectors += rows
        about: dict[str, object] = {}
        unreadable = False
        try:
            loaded = json.loads((folder / ABOUT).read_text(encoding="utf-8"))
            about = loaded if isinstance(loaded, dict) else {}
            unreadable = not isinstance(loaded, dict)
        except FileNotFoundError:  # a store written before about.json
            pass
        except (OSError, ValueError):
            unreadable = True
        prompt = about.get("prompt")
        encoder = about.get("encoder")
        out.append(StoreSummary(folder, str(encoder) if isinstance(encoder, str)
                                else folder.name.rsplit("-", 1)[0],
                                prompt if isinstance(prompt, str) else None, vectors, size,
                                damaged, unreadable))
    return sorted(out, key=lambda s: (-s.size, s.folder.name))


def _about_readable(path: Path) -> bool:
    """Whether `about.json` is there and a JSON object (a damaged one is written again with
    the next shard)."""
    try:
        return isinstance(json.loads(path.read_text(encoding="utf-8")), dict)
    except (OSError, ValueError):
        return False


def _header_rows(path: Path) -> int | None:
    """The rows a shard's header gives where its magic, dimension and file size agree with
    it; None for a damaged shard."""
    with open(path, "rb") as fh:
        head = fh.read(_HEADER.size)
        end = os.fstat(fh.fileno()).st_size
    if len(head) < _HEADER.size:
        return None
    magic, rows, dim, _ = _HEADER.unpack(head)
    if magic != _MAGIC or rows < 0 or dim <= 0 or end != _vectors_offset(rows) + rows * dim * 4:
        return None
    return int(rows)


def _remove(path: Path) -> None:
    with contextlib.suppress(OSError):  # a read-only cache: the bad shard stays, ignored
        path.unlink(missing_ok=True)


def _remove_if_older(path: Path, cutoff: float) -> None:
    try:
        if path.stat().st_mtime < cutoff:
            path.unlink(missing_ok=True)
    except OSError:
        pass
