"""Where the forgetting curve applies: the memories a query's prepared pairs leave out, bounded
at every tick, and the queries that bound does not settle scored against every memory.

The prepared pairs of a query (`candidates`) hold its BM25 matches, its vector candidates, its
first memories, and per group of memories of one importance its first `vector_candidates` by
position and by the curve's order. A memory d left out then has no BM25 term (g = the query's
g of raw 0), a similarity no higher than the highest left out (`CurveBound.cos`, rank no better
than `CurveBound.rank`), and a distance no lower than its group's bound (`CurveBound.dist`), so

    total(d) ≤ UB = (base(importance, dist) + v(cos, rank)·alpha·W) + g0·(1 − alpha)·W

computed with the operations of `Blend.total`, each monotone in its inputs (alpha and W are
≥ 0; a z-score v below 0 counts as 0, which a memory under the threshold gets). A query's
ranking to depth k over its prepared pairs is its ranking over every memory when, in every
group with memories left out, UB is below the k-th total T — or equal to it with every left-out
memory of the group after the k-th ranked one in memory order (ties keep memory order). A query
where neither holds (a low threshold with the curve flat, say) is scored against every memory
this tick (`expand`): its similarities come from the prepared embeddings (`HybridPrepared.rows`),
computed per pair as in prepare, so the result is the all-pairs one exactly.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from workbench.core.models.hybrid.candidates import Pairs
from workbench.core.models.hybrid.normalize import VectorStats, vector_factor, vector_ranks
from workbench.core.ranking import Ranking, Scores, top_k

if TYPE_CHECKING:
    from workbench.core.models.hybrid.combine import Blend
    from workbench.core.models.hybrid.prepared import HybridPrepared

F64 = NDArray[np.float64]
I64 = NDArray[np.int64]


def curve_base(imp: F64, dist: F64, base_lambda: float, floor: float) -> F64:
    """The forgetting curve of memories of importance `imp` at message distance `dist`, in
    `combine.base_at`'s operations; NaN importance (the curve does not apply) gives 0."""
    with np.errstate(invalid="ignore", divide="ignore"):
        lam = base_lambda / (imp * imp)
        exponent = -lam * dist
    exponent[np.isnan(exponent)] = 0.0
    base: F64 = imp * np.exp(exponent)
    fives = imp == 5
    base[fives] = np.maximum(base[fives], floor)
    base[np.isnan(imp)] = 0.0
    return base


def unbounded(blend: Blend, scores: Scores, depth: int,
              hint: I64 | None = None) -> tuple[I64, Ranking]:
    """The queries whose ranking to `depth` over the prepared pairs (`scores`, every pair of
    `blend`) the bound does not show to be their ranking over every memory, and that ranking
    (`hint`: the previous one's pairs, as `top_k` takes it)."""
    pr = blend.pairs
    bd = pr.bound
    assert bd is not None
    n, q = blend.prep.n_docs, blend.prep.n_queries
    ranking = top_k(scores, depth, hint)
    if ranking.scores.shape[1] >= depth:
        kth = np.where(np.isnan(ranking.scores[:, depth - 1]), -np.inf,
                       ranking.scores[:, depth - 1])
        at = ranking.docs[:, depth - 1].astype(np.int64)
    else:  # every query ranks fewer than `depth`
        kth, at = np.full(q, -np.inf), np.full(q, -1, np.int64)
    v = vector_factor(blend.mode, bd.cos, blend.threshold, blend.k,
                      VectorStats(pr.lo, pr.hi, pr.mean, pr.std), bd.rank,
                      np.arange(q, dtype=np.int64))
    v = np.maximum(v, 0.0)
    lam, floor = blend.curve
    base = curve_base(np.broadcast_to(bd.imp, bd.dist.shape).copy(), bd.dist, lam, floor)
    upper = base + np.multiply(v, blend.alpha * blend.weight)[:, None]
    upper += np.multiply(blend.g_zero, (1 - blend.alpha) * blend.weight)[:, None]
    left = bd.first < n
    fails = left & ((upper > kth[:, None]) | ((upper == kth[:, None])
                                              & (bd.first < at[:, None])))
    out: I64 = np.flatnonzero(fails.any(axis=1))
    return out, ranking


def ranked_only(scores: Scores, ranking: Ranking) -> tuple[I64, I64]:
    """(pairs, row_ptr): each query's ranked pairs of `scores`, in memory order — the only
    ones a ranking to the depth of `ranking` reads where the bound holds for every query."""
    pair = ranking.pair
    ok = pair >= 0
    counts = ok.sum(axis=1)
    at = np.sort(np.where(ok, pair, np.iinfo(np.int64).max), axis=1)
    keep: I64 = at[np.arange(at.shape[1])[None, :] < counts[:, None]]
    row_ptr = np.zeros(len(counts) + 1, np.int64)
    np.cumsum(counts, out=row_ptr[1:])
    return keep, row_ptr


def expand(prep: HybridPrepared, pairs: Pairs, queries: I64) -> Pairs:
    """`pairs` with each of `queries` scored against every memory: its similarities and
    their ranks computed again (as prepare computes them), its BM25 candidates looked up."""
    assert prep.rows is not None
    n = prep.n_docs
    queries = np.unique(np.asarray(queries, np.int64))
    sims = prep.rows.rows(queries)
    ranks = vector_ranks(sims)
    query_of = pairs.query_of()
    kept = ~np.isin(query_of, queries)
    old_flat = query_of * n + pairs.doc
    new_flat = (np.repeat(queries, n) * n + np.tile(np.arange(n, dtype=np.int64), len(queries)))
    flat = np.concatenate([old_flat[kept], new_flat])
    order = np.argsort(flat, kind="stable")
    flat = flat[order]
    doc = np.concatenate([pairs.doc[kept], np.tile(np.arange(n, dtype=np.int32),
                                                    len(queries))])[order]
    sim = np.concatenate([pairs.sim[kept], sims.reshape(-1)])[order]
    vrank = np.concatenate([pairs.vrank[kept], ranks.reshape(-1).astype(np.int32)])[order]
    counts = np.diff(pairs.ptr).copy()
    counts[queries] = n
    ptr = np.zeros(len(counts) + 1, np.int64)
    np.cumsum(counts, out=ptr[1:])
    ix = prep.index
    at = np.minimum(np.searchsorted(ix.cand_flat, flat), max(len(ix.cand_flat) - 1, 0))
    matched = (ix.cand_flat[at] == flat) if len(ix.cand_flat) else np.zeros(len(flat), bool)
    cos_flat = old_flat[pairs.cos_pair]
    return Pairs(
        ptr=ptr, doc=doc.astype(np.int32), sim=sim, vrank=vrank.astype(np.int32),
        post=np.where(matched, at, -1).astype(np.int64),
        post_pair=np.searchsorted(flat, ix.cand_flat).astype(np.int64),
        cos_ptr=pairs.cos_ptr, cos_pair=np.searchsorted(flat, cos_flat).astype(np.int64),
        cos_sim=pairs.cos_sim, cos_next=pairs.cos_next, lo=pairs.lo, hi=pairs.hi,
        mean=pairs.mean, std=pairs.std, kept=pairs.kept, every=False, bound=pairs.bound)
