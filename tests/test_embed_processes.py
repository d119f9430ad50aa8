"""Encoding with worker processes (sentence-transformers' multi-process pool) and a chosen
device: the vectors and cache keys of one process, only the texts missing from the cache sent
to the pool, the pool stopped on a cancel, and `workbench embed --processes/--device`. The real
offline model on a few dozen short texts; each pool start costs a few seconds (every worker
imports torch)."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from numpy.typing import NDArray

from workbench.cli import main
from workbench.core.embeddings import (
    DEFAULT_MODEL,
    EmbeddingError,
    Workers,
    cpu_cores,
    embed_texts,
    get_encoder,
    open_store,
    register_encoder,
    resolve_device,
    worker_count,
)
from workbench.core.embeddings import embed as embed_module
from workbench.core.engine import NO_PROGRESS, Cancelled, Progress
from workbench.core.store.embeddings import text_key

TEXTS = [f"cup {i}: the {('green', 'black', 'oolong')[i % 3]} tea steeped {1 + i % 5} minutes "
         f"at {75 + i % 20} degrees" for i in range(40)]


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A cache folder of this test's own (the session's is shared with other tests)."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("WORKBENCH_CACHE_DIR", str(folder))
    return folder


class PoolSpy:
    """What sentence-transformers' pools were given: the texts of each pooled call, and the
    process ids of every pool started (class attributes patched: the model pickled to the
    workers stays the real one)."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.pids: list[int] = []


@pytest.fixture
def spy(monkeypatch: pytest.MonkeyPatch) -> Iterator[PoolSpy]:
    from sentence_transformers import SentenceTransformer

    seen = PoolSpy()
    encode, start = SentenceTransformer.encode, SentenceTransformer.start_multi_process_pool

    def spy_encode(self: Any, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        if kwargs.get("pool") is not None:
            seen.sent.extend(inputs)
        return encode(self, inputs, *args, **kwargs)

    def spy_start(self: Any, *args: Any, **kwargs: Any) -> Any:
        pool = start(self, *args, **kwargs)
        seen.pids.extend(p.pid for p in pool["processes"])
        return pool

    monkeypatch.setattr(SentenceTransformer, "encode", spy_encode)
    monkeypatch.setattr(SentenceTransformer, "start_multi_process_pool", spy_start)
    yield seen


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def test_a_pool_gives_the_vectors_and_cache_keys_of_one_process_and_stops_on_cancel(
        cache: Path, spy: PoolSpy, monkeypatch: pytest.MonkeyPatch) -> None:
    # one pool for the whole test: a pool start costs seconds
    prompt = "query: "
    monkeypatch.setenv("WORKBENCH_CACHE_DIR", str(cache / "one"))
    one = embed_texts(TEXTS, prompt=prompt)
    one_folder = open_store(get_encoder(), prompt).folder.relative_to(cache / "one")

    monkeypatch.setenv("WORKBENCH_CACHE_DIR", str(cache / "two"))
    embed_texts(TEXTS[:10], prompt=prompt)  # cached before the pool runs
    threads_before = os.environ.get("OMP_NUM_THREADS")
    cancel_prompt = "cancel with a pool: "
    monkeypatch.setattr(embed_module, "STEP_S", 1e9)  # steps of 1 batch, then 8, at any pace
    said: list[float] = []

    def stop() -> bool:
        return len(open_store(get_encoder(), cancel_prompt)) >= 32

    with pytest.raises(Cancelled), Workers(processes=2) as workers:
        two = embed_texts(TEXTS, prompt=prompt, workers=workers)
        assert (workers.device_used, workers.processes_used) == (resolve_device(), 2)
        assert sorted(spy.sent) == sorted(prompt + t for t in TEXTS[10:])  # only the missing
        assert len(spy.pids) == 2 and not any(_gone(pid) for pid in spy.pids)
        spy.sent.clear()
        # batch size 1 → a first step of 2 texts (a batch per worker), then steps of 16 (8
        # batches per worker), shards of 32 or more: stop once the first (2 + 16 + 16) is
        # stored
        embed_texts(TEXTS, prompt=cancel_prompt, batch_size=1, workers=workers,
                    progress=Progress(on_progress=lambda f, m: said.append(f),
                                      should_stop=stop))
    assert len(spy.pids) == 2 and all(_gone(pid) for pid in spy.pids)  # stopped
    assert os.environ.get("OMP_NUM_THREADS") == threads_before  # restored

    assert two.dtype == np.float32 and two.shape == one.shape == (len(TEXTS), 384)
    np.testing.assert_allclose(two, one, atol=1e-6)
    np.testing.assert_allclose(np.linalg.norm(two, axis=1), 1.0, atol=1e-5)
    store = open_store(get_encoder(), prompt)
    assert store.folder.relative_to(cache / "two") == one_folder  # the same store ...
    keys = [text_key(prompt + t) for t in TEXTS]
    assert store.missing(keys) == [] and len(store) == len(TEXTS)  # ... under the same keys
    np.testing.assert_allclose(store.get(keys), one, atol=1e-6)

    # the cancelled run kept its finished chunk, which one process then reads
    assert len(spy.sent) == 34 and said == sorted(said)
    assert len(open_store(get_encoder(), cancel_prompt)) == 34
    spy.sent.clear()
    rest = embed_texts(TEXTS, prompt=cancel_prompt)
    assert spy.sent == [] and len(open_store(get_encoder(), cancel_prompt)) == len(TEXTS)
    np.testing.assert_allclose(rest, embed_texts(TEXTS, prompt=cancel_prompt, use_cache=False),
                               atol=1e-6)


def test_devices_and_process_counts() -> None:
    assert resolve_device("cpu") == "cpu"
    assert resolve_device("auto") in ("cpu", "cuda")
    assert worker_count(3, "cpu") == 3
    assert worker_count(0, "cpu") == cpu_cores()
    with pytest.raises(EmbeddingError, match="expected one of auto, cpu, cuda"):
        Workers(device="tpu")
    with pytest.raises(EmbeddingError, match="0 \\(one per core\\) or more, got -1"):
        Workers(processes=-1)
    if resolve_device() == "cpu":
        with pytest.raises(EmbeddingError, match="sees no CUDA GPU"):
            resolve_device("cuda")


class HashEncoder:
    """An encoder that is not a sentence-transformers model (no worker processes)."""

    name = "hash-for-processes"
    identity = "hash-for-processes-1"
    dim = 8

    def encode(self, texts: Sequence[str], *, batch_size: int = 64,
               progress: Progress = NO_PROGRESS) -> NDArray[np.float32]:
        rng = [np.random.default_rng(sum(t.encode())) for t in texts]
        v = np.array([r.standard_normal(self.dim) for r in rng], np.float32).reshape(-1, 8)
        return v / np.linalg.norm(v, axis=1, keepdims=True)


@pytest.fixture
def beir(tmp_path: Path) -> Path:
    folder = tmp_path / "tiny"
    folder.mkdir()
    docs = [("d1", "Green tea", "Steep green tea at 80 degrees for two minutes."),
            ("d2", "Black tea", "Boiling water suits black tea; steep four minutes."),
            ("d3", "", "Oolong leaves unfurl over several short infusions.")]
    (folder / "corpus.jsonl").write_text("".join(
        json.dumps({"_id": i, "title": t, "text": x}) + "\n" for i, t, x in docs))
    (folder / "queries.jsonl").write_text("".join(
        json.dumps({"_id": i, "text": t}) + "\n"
        for i, t in (("q1", "how hot for green tea"), ("q2", "oolong infusions"))))
    return folder


def test_embed_with_processes_then_one_process_reads_the_cache(
        beir: Path, cache: Path, spy: PoolSpy, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["embed", str(beir), "-m", "dense", "--embedding-model", DEFAULT_MODEL]
    assert main([*argv, "--processes", "2", "--device", "auto"]) == 0
    out = capsys.readouterr().out
    device = resolve_device()
    assert "documents: 3 texts (3 embedded, 0 from the cache)" in out
    assert "queries: 2 texts (2 embedded, 0 from the cache)" in out
    assert out.count(f"texts/s on {device} with 2 processes") == 2, out
    assert len(spy.pids) == 2 and all(_gone(pid) for pid in spy.pids)  # one pool for both
    assert len(spy.sent) == 5
    assert main([*argv, "--processes", "1", "--device", "cpu"]) == 0
    out = capsys.readouterr().out
    assert "documents: 3 texts (0 embedded, 3 from the cache)" in out
    assert "queries: 2 texts (0 embedded, 2 from the cache)" in out
    assert len(spy.pids) == 2  # no pool started the second time


@pytest.mark.parametrize(("extra", "words"), [
    (["--processes", "-1"], ("--processes", "at least 0")),
    (["--processes", "two"], ("--processes", "'two'")),
    (["--device", "tpu"], ("--device", "'tpu'")),
    (["--embedding-model", HashEncoder.name, "--processes", "2"],
     ("hash-for-processes", "this process only")),
    (["--device", "cuda"], ("device 'cuda'", "no CUDA GPU")),
])
def test_bad_values_are_one_usage_line(extra: list[str], words: tuple[str, ...], beir: Path,
                                       cache: Path, capsys: pytest.CaptureFixture[str]) -> None:
    if "cuda" in extra and resolve_device() == "cuda":
        pytest.skip("torch sees a GPU here")
    register_encoder(HashEncoder.name, HashEncoder())
    try:
        code = main(["embed", str(beir), "-m", "dense", *extra])
    except SystemExit as exit_:
        code = int(exit_.code or 0)
    captured = capsys.readouterr()
    err = captured.err
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err, err
    for word in words:
        assert word in err, err
    assert "embedding what" not in captured.out  # refused before anything was embedded
