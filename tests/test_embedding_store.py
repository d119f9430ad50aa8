"""The embedding store under stress: two processes writing at once, shards verified as
key/vector pairs, a cache that cannot be written. A tiny deterministic encoder stands in for the
real model, so a vector can be checked against the text it belongs to."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest
from numpy.typing import NDArray

from workbench.core.embeddings import embed_texts, open_store, register_encoder
from workbench.core.engine import NO_PROGRESS, Progress
from workbench.core.store import embeddings as embedding_store
from workbench.core.store.embeddings import EmbeddingStore, text_key

DIM = 8


def fake_vector(text: str) -> NDArray[np.float32]:
    raw = np.frombuffer(hashlib.sha256(text.encode()).digest(), np.uint8)[:DIM]
    v = raw.astype(np.float32) + 1.0
    return v / np.linalg.norm(v)


class HashEncoder:
    """Each text's vector is a function of the text alone. With `barrier`, every process
    waits in encode() until `parties` processes have arrived, so all of them opened the store
    before any of them writes."""

    identity = "hash-encoder-v1"
    dim = DIM

    def __init__(self, name: str = "hash-encoder", barrier: Path | None = None,
                 parties: int = 2) -> None:
        self.name = name
        self.barrier = barrier
        self.parties = parties

    def encode(self, texts: Sequence[str], *, batch_size: int = 64,
               progress: Progress = NO_PROGRESS) -> NDArray[np.float32]:
        if self.barrier is not None:
            import time

            (self.barrier / f"ready-{os.getpid()}").touch()
            while len(list(self.barrier.glob("ready-*"))) < self.parties:
                time.sleep(0.01)
            self.barrier = None
        return np.stack([fake_vector(t) for t in texts]) if texts else np.empty((0, DIM))


WRITER = """
import sys
from pathlib import Path
sys.path.insert(0, {tests!r})
from test_embedding_store import HashEncoder
from workbench.core.embeddings import embed_texts, register_encoder
register_encoder("hash-encoder", HashEncoder(barrier=Path({barrier!r})))
texts = [f"writer {{sys.argv[1]}} text {{i}}" for i in range(int(sys.argv[2]))]
embed_texts(texts, model="hash-encoder", batch_size=4)
"""


def test_two_processes_embedding_at_once_keep_every_vector_with_its_text(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    barrier = tmp_path / "barrier"
    barrier.mkdir()
    env = {**os.environ, "WORKBENCH_CACHE_DIR": str(tmp_path / "cache")}
    script = WRITER.format(tests=str(Path(__file__).parent), barrier=str(barrier))
    n = 300  # several chunks (batch 4 → 128 texts a chunk) from each writer
    procs = [subprocess.Popen([sys.executable, "-c", script, name, str(n)], env=env,
                              stderr=subprocess.PIPE, text=True) for name in ("a", "b")]
    for p in procs:
        _, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
    monkeypatch.setenv("WORKBENCH_CACHE_DIR", env["WORKBENCH_CACHE_DIR"])
    store = open_store(HashEncoder(), "")
    texts = [f"writer {w} text {i}" for w in ("a", "b") for i in range(n)]
    assert store.dropped == 0
    assert store.missing([text_key(t) for t in texts]) == []  # nothing lost
    got = store.get([text_key(t) for t in texts])
    np.testing.assert_array_equal(got, np.stack([fake_vector(t) for t in texts]))


def _store_with(folder: Path, texts: list[str]) -> Path:
    """A new shard of `texts` in `folder`; its path."""
    before = set(folder.iterdir())
    store = EmbeddingStore(folder, DIM)
    assert store.add([text_key(t) for t in texts], np.stack([fake_vector(t) for t in texts]))
    (shard,) = set(folder.iterdir()) - before
    return shard


def test_keys_and_vectors_are_verified_as_a_pair(tmp_path: Path) -> None:
    """Two shards of equal shape with their key sections swapped: each header's digest still
    matches its own vectors, but not these keys — both are dropped, no text gets a vector that
    is not its own."""
    a = _store_with(tmp_path, ["alpha one", "alpha two"])
    b = _store_with(tmp_path, ["beta one", "beta two"])
    blob_a, blob_b = a.read_bytes(), b.read_bytes()
    head = embedding_store._HEADER.size
    keys = slice(head, head + 2 * embedding_store.KEY_BYTES)
    a.write_bytes(blob_a[:keys.start] + blob_b[keys] + blob_a[keys.stop:])
    b.write_bytes(blob_b[:keys.start] + blob_a[keys] + blob_b[keys.stop:])
    store = EmbeddingStore(tmp_path, DIM)
    assert store.dropped == 2 and len(store) == 0
    assert not a.exists() and not b.exists()


def test_a_cache_that_cannot_be_written_still_finishes_the_run(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "a file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("WORKBENCH_CACHE_DIR", str(blocker / "cache"))  # mkdir fails
    register_encoder("hash-encoder", HashEncoder())
    texts = [f"text {i}" for i in range(10)]
    errors: list[str] = []
    got = embed_texts(texts, model="hash-encoder", cache_errors=errors)
    np.testing.assert_array_equal(got, np.stack([fake_vector(t) for t in texts]))
    assert len(errors) == 1 and "could not write the embedding cache" in errors[0]


def test_a_full_disk_after_some_chunks_keeps_both_parts(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WORKBENCH_CACHE_DIR", str(tmp_path / "cache"))
    register_encoder("hash-encoder", HashEncoder())
    texts = [f"text {i}" for i in range(10)]
    embed_texts(texts[:4], model="hash-encoder")  # stored
    real = embedding_store.atomic_write_bytes

    def full(path: Path, data: bytes) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(embedding_store, "atomic_write_bytes", full)
    errors: list[str] = []
    got = embed_texts(texts, model="hash-encoder", batch_size=1, cache_errors=errors)
    np.testing.assert_array_equal(got, np.stack([fake_vector(t) for t in texts]))
    assert errors
    monkeypatch.setattr(embedding_store, "atomic_write_bytes", real)
    assert len(open_store(HashEncoder(), "")) == 4  # the earlier shard, nothing half-written
