"""`workbench bench --embeddings`: encoder throughput against sentence-transformers called
directly on the same texts, and how fast a cached corpus reopens.

Both sides run in this process on the same texts with the same batch size, alternating, best of
`rounds`; the first call of each is a warm-up (model load, allocator) and is not timed.
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from workbench.bench.datasets import datasets_folder
from workbench.core.embeddings import DEFAULT_MODEL, embed_texts, get_encoder
from workbench.textout import format_table


def bench_texts(n: int, data: str | None = None) -> tuple[list[str], str]:
    """The first n documents (title + text) of DATA, else of SciFact, else the tea-beir
    sample repeated and numbered (the table's first line says which)."""
    if data is not None:
        from workbench.core.formats import load_dataset

        ds = load_dataset(data)
        texts = [f"{d.title} {d.text}".strip() for d in list(ds.corpus)[:n]]
        return texts, f"first {len(texts):,} documents of {ds.name} (title + text)"
    corpus = datasets_folder() / "scifact" / "corpus.jsonl"
    if corpus.exists():
        texts = []
        with open(corpus, encoding="utf-8") as fh:
            for line in fh:
                d = json.loads(line)
                texts.append(f"{d.get('title', '')} {d['text']}".strip())
                if len(texts) == n:
                    break
        return texts, f"first {len(texts):,} SciFact abstracts (title + text)"
    samples = Path(__file__).resolve().parents[2] / "sample_corpora" / "tea-beir" / "corpus.jsonl"
    rows = [json.loads(line) for line in samples.read_text(encoding="utf-8").splitlines()]
    texts = [f"{r['title']} {r['text']}" for r in rows]
    texts = (texts * (n // len(texts) + 1))[:n]
    return ([f"{t} ({i})" for i, t in enumerate(texts)],
            f"{n:,} tea-beir documents (numbered; SciFact is not at {corpus.parent})")


def run_embedding_bench(n_texts: int = 1000, batch_size: int = 64, rounds: int = 2,
                        data: str | None = None) -> int:
    texts, what = bench_texts(n_texts, data)
    enc = get_encoder(DEFAULT_MODEL)
    model = enc.model()  # type: ignore[attr-defined]
    model.encode(texts[:64], batch_size=batch_size, show_progress_bar=False)  # warm-up

    def direct() -> float:
        t0 = time.perf_counter()
        model.encode(texts, batch_size=batch_size, normalize_embeddings=True,
                     convert_to_numpy=True, show_progress_bar=False)
        return time.perf_counter() - t0

    def ours(cache: bool) -> float:
        with fresh_cache():
            t0 = time.perf_counter()
            embed_texts(texts, batch_size=batch_size, use_cache=cache)
            return time.perf_counter() - t0

    times: dict[str, list[float]] = {"direct": [], "ours": [], "ours+cache": []}
    for _ in range(rounds):
        times["direct"].append(direct())
        times["ours"].append(ours(cache=False))
        times["ours+cache"].append(ours(cache=True))
    reopen = _reopen_time(texts, batch_size)
    base = min(times["direct"])
    rows = [[name, f"{min(t):.2f}", f"{len(texts) / min(t):,.0f}",
             f"{(min(t) / base - 1) * 100:+.1f} %"] for name, t in times.items()]
    device = getattr(model, "device", "?")
    print(f"embedding {what} with {DEFAULT_MODEL} on {device}, batch {batch_size}, "
          f"best of {rounds}")
    print(format_table(["path", "seconds", "texts/s", "vs direct"], rows))
    print(f"cache reopen: {len(texts):,} cached vectors read back in {reopen * 1000:.0f} ms "
          "(store opened, shards checksummed and memory-mapped, vectors gathered)")
    return 0


def _reopen_time(texts: list[str], batch_size: int) -> float:
    with fresh_cache():
        embed_texts(texts, batch_size=batch_size)
        t0 = time.perf_counter()
        embed_texts(texts, batch_size=batch_size)  # every text a cache hit
        return time.perf_counter() - t0


@contextmanager
def fresh_cache() -> Iterator[None]:
    """An empty cache folder for the duration (the user's cache is left alone)."""
    old = os.environ.get("WORKBENCH_CACHE_DIR")
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["WORKBENCH_CACHE_DIR"] = tmp
        try:
            yield
        finally:
            if old is None:
                os.environ.pop("WORKBENCH_CACHE_DIR", None)
            else:
                os.environ["WORKBENCH_CACHE_DIR"] = old
