"""Real-looking embeddings for the synthetic sets, made from real ones instead of embedding
50,000 made-up texts (about an hour on 2 cores), and written into the embedding cache under the
keys that `dense` and `hybrid` prepare look up, so their prepare embeds nothing.

How the vectors are made (`synthetic_vectors`):

- the real vectors: SciFact's documents (title + text) and test queries as the model embeds
  them with no prompt, when the embedding cache holds them all (`workbench embed` or one
  SciFact bench fills it); else the bundled samples' documents and queries (`SAMPLE_FOLDERS`,
  a few hundred texts) embedded now with the same model;
- each synthetic document: a real document vector drawn at random (with replacement) plus
  isotropic Gaussian noise of expected norm `DOC_NOISE`, renormalised to unit length;
- each synthetic query: a real query vector drawn at random plus noise of expected norm
  `QUERY_NOISE`, renormalised.

Noise of norm σ shrinks every cosine by about 1/√(1 + σ²) and blurs it by about σ/√dim, so the
shares of high cosines fall a little; at 0.2 and 0.1, from SciFact's all-MiniLM-L6-v2 vectors,
4.1–4.5 % of (query, document) pairs lie above 0.3 and 0.12 % above 0.5 (50,000 to 200,000
documents × 1,000 queries), against SciFact's own 4.9 % and 0.15 % (`cosine_shares`; the bench
prints both for the vectors it uses). Copies of one real document have cosine ~0.96 with each
other: 50,000 synthetic documents hold ~10 near-duplicates of each SciFact abstract. The vectors
have nothing to do with the synthetic texts (BM25 and the vectors disagree at random): they are
for timing, and the metrics mean nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from workbench.core.data import Dataset
from workbench.core.embeddings import DEFAULT_MODEL, embed_texts, get_encoder, open_store
from workbench.core.engine import EmbeddingJob
from workbench.core.store.embeddings import text_key

F32 = NDArray[np.float32]

DOC_NOISE = 0.2
QUERY_NOISE = 0.1
SAMPLE_FOLDERS = ("tea-beir", "memories")
THRESHOLDS = (0.3, 0.5)
_CHUNK = 16384  # rows made at once: the noise's temporaries stay ~25 MB at 384 dimensions


@dataclass(frozen=True)
class BaseVectors:
    """Real unit vectors: docs float32 (n, dim), queries float32 (m, dim), and what they are."""

    docs: F32
    queries: F32
    name: str    # "SciFact"
    source: str  # how they were obtained


@dataclass(frozen=True)
class SyntheticVectors:
    """docs float32 (N, dim) and queries float32 (Q, dim), unit rows, made from `base`."""

    docs: F32
    queries: F32
    base: BaseVectors

    def describe(self) -> str:
        return (f"each synthetic document is one of {self.base.name}'s "
                f"{len(self.base.docs):,} document vectors drawn at random plus Gaussian noise "
                f"of norm {DOC_NOISE}, renormalised; each query one of its "
                f"{len(self.base.queries):,} query vectors plus noise of norm {QUERY_NOISE}")


def _scifact_dataset() -> Dataset | None:
    from workbench.bench.datasets import scifact_folder
    from workbench.core.formats import read_beir

    folder = scifact_folder()
    if not (folder / "corpus.jsonl").exists():
        return None
    return read_beir(folder, split="test")


def _cached(texts: Sequence[str], model: str) -> F32 | None:
    """The cached no-prompt vectors of every text, None when any is missing."""
    store = open_store(get_encoder(model), "")
    keys = [text_key(t) for t in texts]
    if not keys or store.missing(keys):
        return None
    return store.get(keys)


def _doc_texts(ds: Dataset) -> list[str]:
    return [f"{d.title} {d.text}" if d.title else d.text for d in ds.corpus]


def scifact_base(model: str = DEFAULT_MODEL) -> BaseVectors | None:
    """SciFact's document and test-query vectors from the embedding cache, None unless all
    of them are cached (nothing is embedded here: that is ~10 minutes on 2 cores)."""
    ds = _scifact_dataset()
    if ds is None:
        return None
    docs = _cached(_doc_texts(ds), model)
    queries = _cached([q.text for q in ds.queries], model)
    if docs is None or queries is None:
        return None
    return BaseVectors(docs, queries, "SciFact",
                       f"cached {Path(model).name} embeddings, no prompt")


def sample_base(model: str = DEFAULT_MODEL) -> BaseVectors:
    """The bundled samples' documents (title + text) and queries, embedded with `model` (a
    few hundred short texts; cached like any embedding)."""
    from workbench.core.formats import load_dataset

    samples = Path(__file__).resolve().parents[2] / "sample_corpora"
    docs: list[str] = []
    queries: list[str] = []
    for name in SAMPLE_FOLDERS:
        ds = load_dataset(samples / name)
        docs += _doc_texts(ds)
        queries += [q.text for q in ds.queries]
    return BaseVectors(embed_texts(docs, model=model), embed_texts(queries, model=model),
                       f"the samples {' and '.join(SAMPLE_FOLDERS)}",
                       f"embedded now with {Path(model).name}")


def base_vectors(model: str = DEFAULT_MODEL) -> BaseVectors:
    """SciFact's vectors when all are cached, else the samples' (module doc)."""
    return scifact_base(model) or sample_base(model)


def perturbed(base: F32, n: int, noise: float, rng: np.random.Generator) -> F32:
    """float32 (n, dim): rows of `base` drawn at random, each plus Gaussian noise of expected
    norm `noise` (σ = noise / √dim per dimension), renormalised."""
    dim = base.shape[1]
    picks = rng.integers(0, len(base), n)
    out: F32 = np.empty((n, dim), np.float32)
    sigma = np.float32(noise / np.sqrt(dim))
    for lo in range(0, n, _CHUNK):
        hi = min(n, lo + _CHUNK)
        block = rng.standard_normal((hi - lo, dim), dtype=np.float32)
        block *= sigma
        block += base[picks[lo:hi]]
        block /= np.linalg.norm(block, axis=1, keepdims=True)
        out[lo:hi] = block
    return out


def synthetic_vectors(n_docs: int, n_queries: int, base: BaseVectors, *,
                      seed: int = 11) -> SyntheticVectors:
    rng = np.random.default_rng(seed)
    return SyntheticVectors(perturbed(base.docs, n_docs, DOC_NOISE, rng),
                            perturbed(base.queries, n_queries, QUERY_NOISE, rng), base)


def cosine_shares(queries: F32, docs: F32, thresholds: Sequence[float] = THRESHOLDS, *,
                  max_queries: int = 1000, seed: int = 0) -> list[float]:
    """The share of (query, document) pairs whose cosine exceeds each threshold, over at most
    `max_queries` queries drawn at random and every document (unit rows)."""
    rng = np.random.default_rng(seed)
    rows = np.sort(rng.choice(len(queries), min(max_queries, len(queries)), replace=False))
    above = np.zeros(len(thresholds), np.int64)
    step = max(1, (1 << 24) // max(len(docs), 1))  # ~64 MB of float32 cosines at once
    for lo in range(0, len(rows), step):
        sims = queries[rows[lo:lo + step]] @ docs.T
        above += [int((sims > t).sum()) for t in thresholds]
    total = len(rows) * len(docs)
    return [float(a) / max(total, 1) for a in above]


def _job_vectors(job: EmbeddingJob, vectors: SyntheticVectors) -> F32:
    """The made vectors for a job's texts: documents by position (every model's document job
    lists the corpus in order); queries by position when the job lists every query, else each
    text to the query vector its key picks."""
    if job.label == "documents":
        if len(job.texts) != len(vectors.docs):
            raise ValueError(f"{len(job.texts):,} document texts for "
                             f"{len(vectors.docs):,} synthetic document vectors")
        return vectors.docs
    if len(job.texts) == len(vectors.queries):
        return vectors.queries
    picks = [int.from_bytes(text_key(t)[:8], "little") % len(vectors.queries)
             for t in job.texts]
    out: F32 = vectors.queries[picks]
    return out


@dataclass
class Seeded:
    """What `seed_embeddings` did: vectors written, texts already in the cache with the made
    vector or with another (the same text in another synthetic set, or an earlier
    construction: the cache keeps the first), and the vectors prepare will read, per job."""

    written: int = 0
    kept: int = 0
    differing: int = 0
    stored: list[F32] | None = None


def seed_embeddings(jobs: Sequence[EmbeddingJob], vectors: SyntheticVectors) -> Seeded:
    """Write the made vectors into the embedding cache (`embeddings.open_store`, the store's
    own `add`) under each job's keys (the model's identity, the prompt, `prompt + text`), so
    that embed_texts finds every text cached. Texts already cached are left as they are (a
    store keeps one vector per key); `Seeded.stored` holds what prepare will read."""
    out = Seeded(stored=[])
    for job in jobs:
        made = _job_vectors(job, vectors)
        store = open_store(get_encoder(job.model), job.prompt)
        if made.shape[1] != store.dim:
            raise ValueError(f"{job.model} makes {store.dim}-dimensional vectors, the "
                             f"synthetic ones have {made.shape[1]}")
        keys = [text_key(job.prompt + t) for t in job.texts]
        first: dict[bytes, int] = {}  # each text's first position: the same text twice is
        for i, key in enumerate(keys):  # written (and compared) once
            first.setdefault(key, i)
        absent = set(store.missing(keys))
        new = sorted(i for i in first.values() if i in absent)
        for lo in range(0, len(new), 65536):  # shards of at most ~100 MB
            part = new[lo:lo + 65536]
            if not store.add([keys[i] for i in part], made[part]):
                raise OSError(f"could not write the embedding cache {store.folder}")
        out.written += len(new)
        old = sorted(i for i in first.values() if i not in absent)
        stored = store.get(keys)
        if old:
            same = np.all(stored[old] == made[old], axis=1)
            out.kept += int(same.sum())
            out.differing += int((~same).sum())
        assert out.stored is not None
        out.stored.append(stored)
    return out


def _percent(shares: Sequence[float]) -> str:
    return ", ".join(f"> {t}: {s * 100:.2f} %" for t, s in zip(THRESHOLDS, shares, strict=True))


class SyntheticEmbeddings:
    """The bench's synthetic sets seeded into the embedding cache: each set's vectors made
    once (from the real vectors of the first model that asks), each model's jobs seeded, and a
    note per set saying how the vectors were made and how their cosines fall."""

    def __init__(self, seed: int = 11) -> None:
        self.seed = seed
        self.made: dict[str, SyntheticVectors] = {}
        self.notes: dict[str, str] = {}

    def prepare_for(self, jobs: Sequence[EmbeddingJob], dataset: Dataset) -> Seeded:
        """Seed `jobs` (a model's `embedding_jobs` on `dataset`). Raises EmbeddingError when
        the model cannot be loaded, OSError when the cache cannot be written."""
        vectors = self.made.get(dataset.name)
        if vectors is None:
            base = base_vectors(jobs[0].model)
            vectors = synthetic_vectors(len(dataset.corpus), len(dataset.queries), base,
                                        seed=self.seed)
            self.made[dataset.name] = vectors
        seeded = seed_embeddings(jobs, vectors)
        if dataset.name not in self.notes:
            self.notes[dataset.name] = self._note(jobs, seeded, vectors)
        return seeded

    def _note(self, jobs: Sequence[EmbeddingJob], seeded: Seeded,
              vectors: SyntheticVectors) -> str:
        assert seeded.stored is not None
        by_label = {job.label: v for job, v in zip(jobs, seeded.stored, strict=True)}
        docs, queries = by_label.get("documents"), by_label.get("queries")
        shares = "" if docs is None or queries is None else (
            f" Cosine {_percent(cosine_shares(queries, docs))} of (query, document) pairs; "
            f"{vectors.base.name}'s own vectors: "
            f"{_percent(cosine_shares(vectors.base.queries, vectors.base.docs))}.")
        stale = (f" {seeded.differing:,} texts were in the cache already with other vectors "
                 "(the same text in another synthetic set, or an earlier construction): "
                 "prepare reads those, and so do these shares." if seeded.differing else "")
        return (f"vectors made, not embedded ({vectors.base.source}; seed {self.seed}): "
                f"{vectors.describe()}.{shares}{stale}")
