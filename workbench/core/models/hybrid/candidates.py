"""Which (query, memory) pairs the hybrid model scores: decided in prepare, block by block over
the queries, so the full (Q, N) similarity table never exists.

A query's pairs U are, in memory order:

- every memory holding one of its BM25 terms (a posting), as before;
- its `vector_candidates` memories of highest cosine similarity (the vector candidates; only
  positive ones: a similarity ≤ 0 never passes a threshold, the lowest being 0);
- the first `vector_candidates` memories by corpus position, and the first `vector_candidates`
  of those neither matched nor vector candidates (the tail: at any slider position the memories
  with no bonus tie and rank in corpus order, so these are the ones a deep ranking reaches).

Every ranking to a depth ≤ `vector_candidates` over U is then the ranking over all pairs, at
every slider position, for every normalisation: a memory outside U has no BM25 term and no
higher similarity than the query's last vector candidate, so the vector candidates (which
score at least as much: both factors are non-decreasing in their inputs) or the tail (which
ties with it and comes first in corpus order) fill the depth ahead of it. Where the forgetting
curve applies (OpenVault memories or chats) the curve gives each memory its own base, which no
prepare-time choice settles for every λ and floor: U also holds, per group of memories of one
importance that serves the query, its first `vector_candidates` by position and by the curve's
order, and `CurveBound` records what bounds the memories left out; each tick checks that bound
and scores a query it does not settle against every memory (`curve_bound`).

Computed per block: each query's vector statistics over all its similarities (min-max, z-score),
each pair's rank by similarity among all the query's memories (rrf), and the highest similarity
left out of its vector candidates (`cos_next`, which tells combine when a threshold lets a
memory outside U earn a vector bonus).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from workbench.core.engine import NO_PROGRESS, Progress
from workbench.core.models.dense import top_columns
from workbench.core.models.hybrid.curve_groups import (
    MAX_GROUPS,
    Curve,
    CurveBound,
    curve_groups,
    keep_curve,
    left_out,
)
from workbench.core.models.hybrid.index import TermIndex
from workbench.core.models.hybrid.normalize import vector_ranks, vector_stats
from workbench.core.models.hybrid.vectors import PAIRS_PER_BLOCK

F64 = NDArray[np.float64]
I64 = NDArray[np.int64]


@dataclass(frozen=True, eq=False)
class Pairs:
    """The scored pairs (P), query-major, each query's in memory order.

    ptr int64 (Q + 1,)   the pairs of query q are ptr[q]:ptr[q + 1]
    doc int32 (P,)       the memory
    sim float64 (P,)     its cosine similarity with the query, −∞ where there is none
    vrank int32 (P,)     1-based rank of that similarity among all the query's memories (ties
                         in memory order), 0 where there is none
    post int64 (P,)      the pair's BM25 candidate in the TermIndex, −1 where no term occurs
    post_pair int64 (C,) each BM25 candidate's pair
    cos_ptr int64 (Q + 1,), cos_pair int64 (K,), cos_sim float64 (K,): each query's vector
                         candidates, best first (ties in memory order), as pairs
    cos_next float64 (Q,) the highest similarity outside the vector candidates (−∞: none)
    lo, hi, mean, std float64 (Q,) each query's similarity statistics over all its memories
    kept                 vector candidates per query (N where every pair is kept)
    every                every pair is kept
    bound                where the forgetting curve applies and not every pair is kept: what
                         bounds the memories left out (`CurveBound`), else None
    """

    ptr: I64
    doc: NDArray[np.int32]
    sim: F64
    vrank: NDArray[np.int32]
    post: I64
    post_pair: I64
    cos_ptr: I64
    cos_pair: I64
    cos_sim: F64
    cos_next: F64
    lo: F64
    hi: F64
    mean: F64
    std: F64
    kept: int
    every: bool
    bound: CurveBound | None = None

    @property
    def n_pairs(self) -> int:
        return len(self.doc)

    def query_of(self) -> I64:
        """int64 (P,): the query of each pair."""
        out: I64 = np.repeat(np.arange(len(self.ptr) - 1, dtype=np.int64), np.diff(self.ptr))
        return out

    def find(self, query: int, doc: int) -> int:
        """The pair of (query, doc), −1 where it is not scored."""
        lo, hi = int(self.ptr[query]), int(self.ptr[query + 1])
        at = lo + int(np.searchsorted(self.doc[lo:hi], doc))
        return at if at < hi and int(self.doc[at]) == doc else -1


def kept_per_query(vector_candidates: int, n_docs: int) -> int:
    """`vector_candidates`, where 0 or a value ≥ N keeps all N."""
    return n_docs if vector_candidates <= 0 else min(vector_candidates, n_docs)


def build_pairs(blocks: Iterable[tuple[int, F64]], index: TermIndex, n_queries: int,
                vector_candidates: int, *, every: bool = False, curve: Curve | None = None,
                progress: Progress = NO_PROGRESS) -> Pairs:
    """The scored pairs from (first query, float64 (B, N) similarities) blocks that cover the
    queries in order. `every`: keep every pair whatever `vector_candidates` says. `curve`:
    where the forgetting curve applies, also each query's best memories by base, group by
    group (`_keep_curve`), and what bounds the rest (`CurveBound`)."""
    n = index.n_docs
    m = kept_per_query(vector_candidates, n)
    every = every or m >= n
    groups = curve_groups(curve) if curve is not None and not every else None
    if groups is not None and len(groups) > MAX_GROUPS:
        every, groups = True, None
    n_groups = len(groups) if groups is not None else 0
    bound_first = np.full((n_queries, n_groups), n, np.int64)
    bound_dist = np.full((n_queries, n_groups), np.inf)
    bound_cos = np.full(n_queries, -np.inf)
    bound_rank = np.full(n_queries, n + 1, np.int64)
    post_doc = index.cand_flat - index.cand_query * max(n, 1)
    stats = np.zeros((4, n_queries))
    cos_next = np.full(n_queries, -np.inf)
    docs: list[NDArray[np.int32]] = []
    sims: list[F64] = []
    vranks: list[NDArray[np.int32]] = []
    counts = np.zeros(n_queries, np.int64)
    cos_docs: list[I64] = []
    cos_sims: list[F64] = []
    cos_counts = np.zeros(n_queries, np.int64)
    for lo, block in blocks:
        b = len(block)
        progress(lo / max(n_queries, 1), f"vector candidates {lo:,}/{n_queries:,} queries")
        s = vector_stats(block)
        stats[:, lo:lo + b] = (s.lo, s.hi, s.mean, s.std)
        ranks = vector_ranks(block)
        cols = top_columns(block, n if every else min(m + 1, n))
        vals = np.take_along_axis(block, cols, axis=1)
        if not every and m < n:
            cos_next[lo:lo + b] = vals[:, m]
            cols, vals = cols[:, :m], vals[:, :m]
        positive = vals > 0  # best first: a prefix of each row
        rows = np.nonzero(positive)[0]
        cos_docs.append(cols[positive])
        cos_sims.append(vals[positive])
        cos_counts[lo:lo + b] = positive.sum(axis=1)
        if every:
            keep = np.ones((b, n), bool)
        else:
            keep = np.zeros((b, n), bool)
            first, last = int(index.cand_ptr[lo]), int(index.cand_ptr[lo + b])
            keep[index.cand_query[first:last] - lo, post_doc[first:last]] = True
            keep[rows, cols[positive]] = True
            free = ~keep
            free &= np.cumsum(free, axis=1) <= m
            keep |= free
            keep[:, :m] = True
            if groups is not None and curve is not None:
                keep_curve(keep, lo, groups, curve, m, bound_dist)
                left_out(keep, block, ranks, lo, groups, curve.chat, bound_first, bound_cos,
                          bound_rank)
        r, d = np.nonzero(keep)
        counts[lo:lo + b] = keep.sum(axis=1)
        docs.append(d.astype(np.int32))
        sims.append(block[r, d])
        vranks.append(ranks[r, d].astype(np.int32))
    progress(1.0, "vector candidates")
    ptr = np.zeros(n_queries + 1, np.int64)
    np.cumsum(counts, out=ptr[1:])
    doc = _cat(docs, np.int32)
    flat = np.repeat(np.arange(n_queries, dtype=np.int64), counts) * max(n, 1) + doc
    at = np.minimum(np.searchsorted(index.cand_flat, flat), max(len(index.cand_flat) - 1, 0))
    matched = (index.cand_flat[at] == flat) if len(index.cand_flat) else np.zeros(len(flat), bool)
    cos_ptr = np.zeros(n_queries + 1, np.int64)
    np.cumsum(cos_counts, out=cos_ptr[1:])
    cos_flat = (np.repeat(np.arange(n_queries, dtype=np.int64), cos_counts) * max(n, 1)
                + _cat(cos_docs, np.int64))
    return Pairs(
        ptr=ptr, doc=doc, sim=_cat(sims, np.float64), vrank=_cat(vranks, np.int32),
        post=np.where(matched, at, -1).astype(np.int64),
        post_pair=np.searchsorted(flat, index.cand_flat).astype(np.int64),
        cos_ptr=cos_ptr, cos_pair=np.searchsorted(flat, cos_flat).astype(np.int64),
        cos_sim=_cat(cos_sims, np.float64), cos_next=cos_next,
        lo=stats[0], hi=stats[1], mean=stats[2], std=stats[3], kept=n if every else m,
        every=every,
        bound=None if groups is None else CurveBound(
            imp=np.asarray([g.imp for g in groups], np.float64),
            chat=np.asarray([g.chat for g in groups], bool), first=bound_first,
            dist=bound_dist, cos=bound_cos, rank=bound_rank))


def _cat(parts: Sequence[NDArray[Any]], dtype: type[np.generic]) -> NDArray[Any]:
    return np.concatenate(parts).astype(dtype, copy=False) if parts else np.zeros(0, dtype)


BLOCK_OVERHEAD = PAIRS_PER_BLOCK * 120
"""bytes a block of similarities holds at its peak: the cosine table, the dot product and one
dimension's term, the statistics' and the ranks' temporaries, the top-M cut, the masks"""
BYTES_PER_PAIR = 40  # doc, sim, vrank, post, and the flat keys while building
BYTES_PER_LIVE_PAIR = 49  # vector, bm25, base, total, scratch (float64), query (int64), gate
BYTES_PER_POSTING = 64  # the index's postings, the raw BM25, saturation and g


def memory_needed(n_queries: int, n_docs: int, dim: int, vector_candidates: int, *,
                  curve_groups: int = 0, postings: int = 0) -> int:
    """Bytes preparing and ticking hold at their peak (`engine.check_memory`): the embeddings
    (float32, and the float64 copy the cosines read), one block's temporaries, the scored
    pairs (each query's vector candidates and its first memories twice over, and where the
    forgetting curve applies two sets per group of memories of one importance it serves;
    every pair where that is not fewer) with their live arrays where every scored pair is
    blended each tick (the curve), and the BM25 postings (unknown before tokenising: 0 gives
    a lower bound)."""
    m = kept_per_query(vector_candidates, n_docs)
    every = m >= n_docs or curve_groups > MAX_GROUPS
    pairs = n_queries * n_docs if every else min(n_queries * n_docs,
                                                 n_queries * (3 + 2 * curve_groups) * m
                                                 + postings)
    live = BYTES_PER_LIVE_PAIR * pairs if every or curve_groups else 0
    return (n_docs * dim * 12 + n_queries * dim * 12 + min(BLOCK_OVERHEAD,
            n_queries * n_docs * 120) + pairs * BYTES_PER_PAIR + live
            + postings * BYTES_PER_POSTING)
