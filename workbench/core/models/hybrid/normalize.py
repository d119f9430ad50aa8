"""How the vector and BM25 components are scaled per query before the blend.

    total = base + alpha·W·v + (1 − alpha)·W·g

Every memory of the corpus is in the batch of every query: the statistics below are over all
of them, computed in prepare, even where only some pairs are scored (see `candidates`). `sim`
is a pair's cosine similarity (missing when the query or the memory has no embedding), `raw`
its raw BM25 score (0 when no query term occurs), t the effective threshold (a threshold of 0
means 0.5; with no_vector_threshold t = 0). The vector part is gated in every mode: v = 0
unless sim exists and sim > t (strictly).

batch-max (OpenVault, the default)
    v = (sim − t)/(1 − t)                      the threshold rescale; absolute, not per query
    g = raw / max(max over the query's memories of raw, 1e-9)
min-max
    v = (sim − lo)/(hi − lo), lo, hi = min, max of the query's existing similarities
    g = (raw − lo)/(hi − lo), lo, hi = min, max of raw over all memories (lo = 0 when any
        memory has no matching term); 0 where hi = lo
z-score
    v = (sim − μ)/σ over the query's existing similarities (population σ)
    g = (raw − μ)/σ over all memories, zeros included; 0 where σ = 0; both may be negative
rrf
    v = (k + 1)/(k + r), r = the memory's rank (1 = best) by similarity among the memories
        with one; ties keep memory order
    g = (k + 1)/(k + r), r = its rank by raw BM25 among memories with raw > 0; 0 for raw = 0
    (reciprocal rank fusion scaled so that rank 1 gets 1 and W keeps meaning the bonus budget)

The vector factor does not depend on k1, b or the entity boost, so combine keeps it between
ticks (see `combine`); BM25 ranks for rrf follow the live k1, b and entity boost.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

F64 = NDArray[np.float64]
I64 = NDArray[np.int64]
BM25_MAX_FLOOR = 1e-9


@dataclass(frozen=True)
class VectorStats:
    """Per query, float64 (Q,): min, max, mean, population std of the existing similarities
    (0 where a query has none)."""

    lo: F64
    hi: F64
    mean: F64
    std: F64


def vector_stats(sims: F64) -> VectorStats:
    ok = np.isfinite(sims)
    n = ok.sum(axis=1)
    any_ = n > 0
    lo = np.where(any_, np.where(ok, sims, np.inf).min(axis=1, initial=np.inf), 0.0)
    hi = np.where(any_, np.where(ok, sims, -np.inf).max(axis=1, initial=-np.inf), 0.0)
    vals = np.where(ok, sims, 0.0)
    mean = np.divide(vals.sum(axis=1), n, out=np.zeros(len(n)), where=any_)
    dev = np.where(ok, sims - mean[:, None], 0.0)
    std = np.sqrt(np.divide((dev * dev).sum(axis=1), n, out=np.zeros(len(n)), where=any_))
    return VectorStats(lo, hi, mean, std)


def vector_ranks(sims: F64) -> I64:
    """int64 (Q, N): 1-based rank by similarity, descending, ties in memory order; 0 where
    there is no similarity."""
    order = np.argsort(-sims, axis=1, kind="stable")  # −(−∞) = ∞ sorts last
    ranks = np.empty_like(order)
    np.put_along_axis(ranks, order, np.arange(1, sims.shape[1] + 1)[None, :], axis=1)
    out: I64 = np.where(np.isfinite(sims), ranks, 0)
    return out


def _safe_ratio(num: F64, den: F64) -> F64:
    out: F64 = np.divide(num, den, out=np.zeros(np.broadcast(num, den).shape),
                         where=den != 0)
    return out


def vector_factor(mode: str, sims: F64, threshold: float, k: int, stats: VectorStats,
                  ranks: NDArray[np.integer], query: I64 | None) -> F64:
    """float64 (n,): v of each pair (0 where gated) from its similarity, its rank among its
    query's memories and its query (which picks the statistics)."""
    gate = sims > threshold
    if mode == "batch-max":
        if threshold >= 1:
            return np.zeros(sims.shape)
        out = np.subtract(sims, threshold)
        np.maximum(out, 0.0, out=out)  # −∞ and sim ≤ t give 0, as the strict gate does
        out /= 1 - threshold
        return out
    if mode in ("min-max", "z-score") and query is None:
        raise ValueError(f"{mode} needs each pair's query")
    if mode == "min-max":
        v = _safe_ratio(sims - stats.lo[query], (stats.hi - stats.lo)[query])
    elif mode == "z-score":
        v = _safe_ratio(sims - stats.mean[query], stats.std[query])
    elif mode == "rrf":
        v = (k + 1) / (k + np.maximum(ranks, 1).astype(np.float64))
    else:
        raise ValueError(f"unknown normalisation {mode!r}; valid: batch-max, min-max, "
                         "z-score, rrf")
    out = np.where(gate, v, 0.0)
    return out


def bm25_factor(mode: str, raw: F64, cand_query: I64, cand_ptr: I64, n_docs: int, k: int,
                ranks: Callable[[], I64]) -> tuple[F64, F64]:
    """(g at each candidate pair (C,), g of a memory with raw 0 per query (Q,)). Candidates
    are the query-major (query, memory) pairs with a posting; every other memory has raw 0."""
    nq = len(cand_ptr) - 1
    counts = np.diff(cand_ptr)
    starts = cand_ptr[:-1]
    has = counts > 0
    zero = np.zeros(nq)
    if mode == "rrf":
        r = ranks()
        g = np.where(raw > 0, (k + 1) / (k + np.maximum(r, 1).astype(np.float64)), 0.0)
        return g, zero
    top = np.zeros(nq)
    if len(raw):
        top[has] = np.maximum.reduceat(raw, starts[has])
    if mode == "batch-max":
        return raw / np.maximum(top, BM25_MAX_FLOOR)[cand_query], zero
    n = float(max(n_docs, 1))
    if mode == "min-max":
        low = np.zeros(nq)
        full = has & (counts >= n_docs)  # every memory matches: the minimum is theirs
        if full.any():
            low[full] = np.minimum.reduceat(raw, starts[full])
        span = top - low
        return _safe_ratio(raw - low[cand_query], span[cand_query]), _safe_ratio(-low, span)
    if mode == "z-score":
        total = np.bincount(cand_query, weights=raw, minlength=nq)
        mean = total / n
        sq = np.bincount(cand_query, weights=(raw - mean[cand_query]) ** 2, minlength=nq)
        var = (sq + (n - counts) * mean * mean) / n  # the memories with raw 0, then all
        std = np.sqrt(var)
        return _safe_ratio(raw - mean[cand_query], std[cand_query]), _safe_ratio(-mean, std)
    raise ValueError(f"unknown normalisation {mode!r}; valid: batch-max, min-max, z-score, rrf")


def bm25_ranks(raw: F64, cand_query: I64, cand_ptr: I64) -> I64:
    """int64 (C,): 1-based rank of each candidate by raw BM25 within its query, descending,
    ties in memory order (candidates are in memory order within a query). One small stable
    sort per query: far cheaper than one lexsort over every candidate."""
    ranks = np.empty(len(raw), np.int64)
    for q in range(len(cand_ptr) - 1):
        lo, hi = int(cand_ptr[q]), int(cand_ptr[q + 1])
        if hi > lo:
            ranks[lo + np.argsort(-raw[lo:hi], kind="stable")] = np.arange(1, hi - lo + 1)
    return ranks
