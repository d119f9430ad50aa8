"""Prepare-stage cosine similarities of the hybrid model: float64 (Q, N), −∞ where the pair
has no similarity (the query or the memory has no embedding: no vector bonus, and the memory
is left out of the per-query vector statistics of the non-default normalisations).

- `encoder`: every document (its indexed fields) and every query's embedding text embedded
  with the chosen model and prompts through `embeddings.embed_texts` (cached on disk); a query
  whose embedding text is empty has no embedding, as the original embeds nothing then.
- `stored`: the `embedding` a memory keeps in its metadata and a query in its context.
  Following OpenVault's cosineSimilarity, vectors of different length — or a zero vector —
  have similarity 0 (present, not missing).

Cosine is computed as the original's cosineSimilarity does, in its order of operations: per
pair, dot, |a|² and |b|² each summed dimension by dimension from 0 (no fused multiply-add, no
blocked or pairwise sums), then dot / (√|a|² · √|b|²). Vectorised over pairs, one dimension at
a time, so two identical embeddings always get the identical similarity (a matrix product sums
in blocks that depend on a column's position, and exact ties then break differently).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from workbench.core.data import Dataset
from workbench.core.engine import EmbeddingJob, Progress, held_by_corpus
from workbench.core.models.hybrid.chat import QueryPlan
from workbench.core.params import Params

F64 = NDArray[np.float64]


PAIRS_PER_BLOCK = 1 << 21  # (queries × documents) summed at once


def _sequential_sum_sq(x: NDArray[np.floating[Any]]) -> F64:
    """Σ x_j² per row, dimension by dimension from 0, in float64 (a float32 entry widened
    exactly, as a JavaScript number holds it)."""
    acc: F64 = np.zeros(len(x))
    for j in range(x.shape[1]):
        col = x[:, j].astype(np.float64)
        acc += col * col
    return acc


class DocumentSide:
    """The documents of `js_cosine` computed once for every block of queries: (dim, N), one
    contiguous row per dimension, in their own precision (float32 vectors stay float32: each
    product widens them exactly to float64, so at 200,000 × 384 this holds 307 MB, not 614),
    and the magnitudes (N,)."""

    def __init__(self, docs: NDArray[np.floating[Any]] | Sequence[Sequence[float]]) -> None:
        given = np.asarray(docs)
        d: NDArray[np.floating[Any]] = (
            given if given.dtype == np.float32 else given.astype(np.float64)
        ).reshape(len(docs), -1)
        self.n = len(d)
        self.t: NDArray[np.floating[Any]] = np.ascontiguousarray(d.T)
        self.mag: F64 = np.sqrt(_sequential_sum_sq(d))

    def cosine(self, queries: NDArray[np.floating] | Sequence[Sequence[float]]) -> F64:
        """float64 (B, N): the cosine of each query row with every document, 0 where either
        norm is 0."""
        q = np.asarray(queries, np.float64).reshape(len(queries), -1)
        out: F64 = np.zeros((len(q), self.n))
        if not len(q) or not self.n:
            return out
        mag_q = np.sqrt(_sequential_sum_sq(q))
        dot: F64 = np.zeros((len(q), self.n))
        term: F64 = np.empty((len(q), self.n))
        for j in range(q.shape[1]):
            np.multiply(q[:, j, None], self.t[j][None, :], out=term)
            dot += term
        magnitude = mag_q[:, None] * self.mag[None, :]
        np.divide(dot, magnitude, out=out, where=magnitude != 0)
        return out


def js_cosine(queries: NDArray[np.floating] | Sequence[Sequence[float]],
              docs: NDArray[np.floating] | Sequence[Sequence[float]]) -> F64:
    """float64 (Q, N): cosineSimilarity of every (query, document) pair of equal-length rows,
    as the original computes it (see the module doc); 0 where either norm is 0."""
    q = np.asarray(queries, np.float64).reshape(len(queries), -1)
    side = DocumentSide(docs)
    out: F64 = np.zeros((len(q), side.n))
    step = max(1, PAIRS_PER_BLOCK // max(side.n, 1))
    for lo in range(0, len(q), step):
        out[lo:lo + step] = side.cosine(q[lo:lo + step])
    return out


def encoder_jobs(doc_texts: Sequence[str], plans: Sequence[QueryPlan],
                 params: Params) -> list[EmbeddingJob]:
    """The documents' indexed text with the document prompt; the queries' embedding text
    (the ones that have one) with the query prompt."""
    model, batch = str(params["embedding_model"]), int(params["batch_size"])
    jobs = [EmbeddingJob("documents", list(doc_texts), model, str(params["document_prompt"]),
                         batch)]
    texts = [p.embedding_text for p in plans if p.embedding_text]
    if texts:
        jobs.append(EmbeddingJob("queries", texts, model, str(params["query_prompt"]), batch))
    return jobs


class EncodedRows:
    """Similarities of `encoder` embeddings, any queries at a time: the documents' side
    (`DocumentSide`), the query vectors (Q, dim) and which queries have one."""

    def __init__(self, side: DocumentSide, queries: NDArray[np.float32],
                 has: NDArray[np.bool_]) -> None:
        self.side = side
        self.queries = queries
        self.has = has

    @property
    def n_queries(self) -> int:
        return len(self.has)

    @property
    def n_docs(self) -> int:
        return self.side.n

    def rows(self, queries: NDArray[np.integer]) -> F64:
        """float64 (len(queries), N); each row as every block computes it (the cosine is
        summed per pair, so a row does not depend on the rows beside it)."""
        qs = np.asarray(queries, np.int64)
        block = self.side.cosine(self.queries[qs])
        block[~self.has[qs]] = -np.inf
        return block


def encoder_rows(doc_texts: Sequence[str], plans: Sequence[QueryPlan], params: Params,
                 progress: Progress, dataset: Dataset | None = None) -> EncodedRows:
    """Embed the documents and the queries: a query whose embedding text is empty has no
    embedding (−∞ in its row). `dataset`: the corpus `doc_texts` come from, whose vectors
    `engine.holding_corpus` holds (without it they are read from the cache every time)."""
    from workbench.core.embeddings import embed_texts, kept_earlier

    if not doc_texts:
        return EncodedRows(DocumentSide(np.zeros((0, 0), np.float32)),
                           np.zeros((len(plans), 0), np.float32), np.zeros(len(plans), bool))
    docs_job, *query_job = encoder_jobs(doc_texts, plans, params)

    def embed_documents() -> NDArray[np.float32]:
        return embed_texts(docs_job.texts, model=docs_job.model, prompt=docs_job.prompt,
                           batch_size=docs_job.batch_size, progress=progress.span(0.0, 0.85),
                           what="documents")

    what = (f"hybrid documents' vectors: {docs_job.model!r} {docs_job.prompt!r} "
            f"{params['fields']!r}")
    side = (DocumentSide(embed_documents()) if dataset is None else
            held_by_corpus(dataset, what, lambda: DocumentSide(embed_documents())))
    rows = np.asarray([i for i, p in enumerate(plans) if p.embedding_text], np.int64)
    queries = np.zeros((len(plans), side.t.shape[0]), np.float32)
    if query_job:
        job = query_job[0]
        queries[rows] = embed_texts(
            job.texts, model=job.model, prompt=job.prompt, batch_size=job.batch_size,
            progress=progress.span(0.85, 0.9), what="queries",
            earlier=kept_earlier(docs_job.texts, model=docs_job.model, prompt=docs_job.prompt,
                                 what="documents"))
    has = np.zeros(len(plans), bool)
    has[rows] = True
    return EncodedRows(side, queries, has)


class StoredRows:
    """Similarities of the `embedding` stored with each memory and query, any queries at a
    time. Documents grouped by vector length: `dims` (D,), and per length the documents
    (`cols[i]`, int64) and their vectors (`mats[i]`, float64 (n_i, dims[i])); `has_doc` (N,):
    a document with a vector (of any length). Queries: `q_dim` (Q,) their vector's length, −1
    for none, `q_vec` float64 (Q, longest) the vectors, zero-padded."""

    def __init__(self, dataset: Dataset) -> None:
        docs = [_vector(d.metadata.get("embedding")) for d in dataset.corpus]
        queries = [_vector(q.context.get("embedding")) for q in dataset.queries]
        self.has_doc = np.asarray([v is not None for v in docs], bool)
        doc_dim = np.asarray([-1 if v is None else len(v) for v in docs], np.int64)
        self.q_dim = np.asarray([-1 if v is None else len(v) for v in queries], np.int64)
        self.q_vec = np.zeros((len(queries), max([0, *self.q_dim.tolist()])))
        for qi, v in enumerate(queries):
            if v is not None and len(v):
                self.q_vec[qi, :len(v)] = v
        self.dims = np.asarray(sorted(set(self.q_dim[self.q_dim > 0].tolist())
                                      & set(doc_dim[doc_dim > 0].tolist())), np.int64)
        self.cols = [np.flatnonzero(doc_dim == dim) for dim in self.dims.tolist()]
        self.mats = [np.stack([docs[int(c)] for c in cols]).reshape(len(cols), dim)  # type: ignore[misc]
                     if len(cols) else np.zeros((0, dim))
                     for cols, dim in zip(self.cols, self.dims.tolist(), strict=True)]

    @property
    def n_queries(self) -> int:
        return len(self.q_dim)

    @property
    def n_docs(self) -> int:
        return len(self.has_doc)

    def rows(self, queries: NDArray[np.integer]) -> F64:
        """float64 (len(queries), N): −∞ where the query or the memory has no vector, 0 where
        their lengths differ, else their cosine (`js_cosine`, per pair)."""
        qs = np.asarray(queries, np.int64)
        sims = np.full((len(qs), self.n_docs), -np.inf)
        with_vec = self.q_dim[qs] >= 0
        sims[np.ix_(np.flatnonzero(with_vec), np.flatnonzero(self.has_doc))] = 0.0
        for dim, cols, mat in zip(self.dims.tolist(), self.cols, self.mats, strict=True):
            rows = np.flatnonzero(self.q_dim[qs] == dim)
            if len(rows) and len(cols):
                sims[np.ix_(rows, cols)] = js_cosine(self.q_vec[qs[rows], :dim], mat)
        return sims


SimilarityRows = EncodedRows | StoredRows


def similarity_rows(dataset: Dataset, doc_texts: Sequence[str], plans: Sequence[QueryPlan],
                    params: Params, progress: Progress) -> SimilarityRows:
    """Where the cosine similarities come from at these parameters (embedding what the
    encoder needs)."""
    if str(params["embeddings"]) == "stored":
        return StoredRows(dataset)
    return encoder_rows(doc_texts, plans, params, progress, dataset)


def row_blocks(source: SimilarityRows, progress: Progress) -> Iterator[tuple[int, F64]]:
    """(first query, float64 (B, N)) blocks covering every query in order, −∞ where there is
    no similarity; about PAIRS_PER_BLOCK pairs a block."""
    q, n = source.n_queries, source.n_docs
    if not n:
        yield 0, np.full((q, 0), -np.inf)
        return
    step = max(1, PAIRS_PER_BLOCK // n)
    for lo in range(0, q, step):
        progress(lo / max(q, 1), f"similarities {lo:,}/{q:,} queries")
        yield lo, source.rows(np.arange(lo, min(q, lo + step)))


def _vector(value: object) -> F64 | None:
    """A stored embedding as float64 (1-D), None where there is none."""
    if value is None or isinstance(value, str | bytes):
        return None
    try:
        out = np.asarray(value, np.float64)
    except (TypeError, ValueError):
        return None
    return out if out.ndim == 1 else None


def stored_similarities(dataset: Dataset) -> F64:
    """float64 (Q, N): every pair's similarity from the stored embeddings (`StoredRows`)."""
    return StoredRows(dataset).rows(np.arange(len(dataset.queries)))


def stored_vector_notes(dataset: Dataset) -> list[str]:
    """What scores a stored pair's cosine 0 though both sides have an `embedding`, one line
    each: memories whose vector has another length than the queries' (empty included) or is
    all zeros, and queries whose vector is empty or all zeros. Faithful (OpenVault's
    cosineSimilarity gives 0 for both), but a chat whose memories were embedded by two
    models lost one model's vector bonus without a word."""
    queries = {q.id: v for q in dataset.queries
               if (v := _vector(q.context.get("embedding"))) is not None}
    dims = sorted({len(v) for v in queries.values() if len(v)})
    other: list[str] = []
    zero: list[str] = []
    for d in dataset.corpus:
        v = _vector(d.metadata.get("embedding"))
        if v is None or not dims:
            continue
        if len(v) not in dims:
            other.append(f"{d.id}: {len(v)}")
        elif not v.any():
            zero.append(d.id)
    out = []
    whose = "query's" if len(queries) == 1 else "queries'"
    if other:
        out.append(f"{_count(len(other), 'memory', 'memories')} embedding"
                   f"{'s differ' if len(other) > 1 else ' differs'} from the "
                   f"{whose} "
                   f"{' or '.join(map(str, dims))} dimensions ({_first(other)}): cosine 0, "
                   "as OpenVault (embedded by another model?)")
    if zero:
        out.append(f"{_count(len(zero), 'memory', 'memories')} embedding"
                   f"{'s are' if len(zero) > 1 else ' is'} all zeros ({_first(zero)}): "
                   "cosine 0, as OpenVault")
    # the other way round: queries whose vector has a length no memory's has (a query
    # embedded by another model than its memories) scored with no vector part, silently
    # where other queries held the memories' length (ra 2); where no memory's length is any
    # query's, the line above names them all
    mem_dims = sorted({len(v) for d in dataset.corpus
                       if (v := _vector(d.metadata.get("embedding"))) is not None and len(v)})
    odd = [f"{qid}: {len(v)}" for qid, v in queries.items() if len(v) and len(v) not in mem_dims]
    if odd and len(other) < sum(1 for d in dataset.corpus
                                if _vector(d.metadata.get("embedding")) is not None):
        out.append(f"{_count(len(odd), 'query', 'queries')} embedding"
                   f"{'s differ' if len(odd) > 1 else ' differs'} from the memories' "
                   f"{' or '.join(map(str, mem_dims))} dimensions ({_first(odd)}): cosine 0 "
                   "with every memory, as OpenVault (embedded by another model?)")
    blank = [qid for qid, v in queries.items() if not v.any()]
    if blank:
        out.append(f"{_count(len(blank), 'query', 'queries')} embedding"
                   f"{'s are' if len(blank) > 1 else ' is'} empty or all zeros "
                   f"({_first(blank)}): cosine 0 with every memory, as OpenVault")
    return out


def _count(n: int, one: str, many: str) -> str:
    """"1 memory's", "2 memories'"."""
    return f"1 {one}'s" if n == 1 else f"{n} {many}'"


def _first(items: Sequence[str]) -> str:
    return ", ".join(items[:3]) + (" …" if len(items) > 3 else "")
