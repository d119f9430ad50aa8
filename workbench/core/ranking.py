"""Scores of (query, candidate) pairs, and the vectorised ranking over them.

`Scores` keeps the pairs query-major, like a CSR matrix: the candidates of query q are pairs
`row_ptr[q]:row_ptr[q+1]`, in the model's tie order. A model whose candidates are every document
(dense) has equal rows; a model with sparse candidates (BM25 postings, phrase matches) has rows
of any length, and a skewed query set — one query matching 45,000 documents, most matching 300 —
costs what it holds, not Q × the longest row.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

PartsFn = Callable[[NDArray[np.intp]], NDArray[np.float64]]
"""pair indices (n,) → float64 (S, n): each signal's contribution at those pairs."""


@dataclass(frozen=True)
class Scores:
    """What combine returns.

    row_ptr: int64 (Q + 1,)  pairs of query q are row_ptr[q]:row_ptr[q + 1]
    docs:    int32 (P,)      each pair's document position in the corpus
    total:   float64 (P,)    the final score (0 where a gate zeroed it)
    gate:    int8 (P,)       0 = not gated, else 1 + index into `gates`
    signals: the S signal names, in order
    parts:   each signal's contribution at the pairs asked for; for ungated pairs they sum to
             the total, for gated pairs they show what the document would have scored
    gates:   gate names

    Contributions are computed on demand: a slider tick needs only the totals, while charts and
    explain need contributions for a few hundred ranked pairs, not for all S·P of them.
    """

    row_ptr: NDArray[np.int64]
    docs: NDArray[np.int32]
    total: NDArray[np.float64]
    gate: NDArray[np.int8]
    signals: tuple[str, ...]
    parts: PartsFn
    gates: tuple[str, ...] = ()

    @property
    def n_queries(self) -> int:
        return len(self.row_ptr) - 1

    @property
    def n_pairs(self) -> int:
        return len(self.total)

    def row(self, q: int) -> slice:
        return slice(int(self.row_ptr[q]), int(self.row_ptr[q + 1]))

    def pair_query(self) -> NDArray[np.int64]:
        """int64 (P,): the query of each pair."""
        return np.repeat(np.arange(self.n_queries, dtype=np.int64), np.diff(self.row_ptr))

    def contributions_of(self, pairs: NDArray[np.integer]) -> NDArray[np.float64]:
        """float64 (S, n): the signals' contributions at the given pairs."""
        return self.parts(np.asarray(pairs, np.intp))

    @property
    def contributions(self) -> NDArray[np.float64]:
        """float64 (S, P) for every pair (small data and tests; the live path never asks)."""
        return self.contributions_of(np.arange(self.n_pairs, dtype=np.intp))


def uniform_rows(n_queries: int, width: int) -> NDArray[np.int64]:
    """row_ptr of a dense model: every query has the same `width` candidates."""
    out: NDArray[np.int64] = np.arange(n_queries + 1, dtype=np.int64) * width
    return out


def rows_from_query(pair_query: NDArray[np.integer], n_queries: int) -> NDArray[np.int64]:
    """row_ptr from the (ascending) query of each pair."""
    out: NDArray[np.int64] = np.searchsorted(
        pair_query, np.arange(n_queries + 1)).astype(np.int64)
    return out


def table_parts(table: NDArray[np.float64]) -> PartsFn:
    """A PartsFn over a model's own float64 (S, P) table."""
    def parts(pairs: NDArray[np.intp]) -> NDArray[np.float64]:
        out: NDArray[np.float64] = table[:, pairs]
        return out
    return parts


def total_only(total: NDArray[np.float64]) -> PartsFn:
    """The PartsFn of a single-signal model: its one signal is the total."""
    def parts(pairs: NDArray[np.intp]) -> NDArray[np.float64]:
        out: NDArray[np.float64] = total[pairs][None, :]
        return out
    return parts


@dataclass(frozen=True)
class Selection:
    """Which results a system returns: total ≥ min_score, then skip `offset`, keep `limit`."""

    min_score: float | None = None
    limit: int | None = None
    offset: int = 0


@dataclass(frozen=True)
class Ranking:
    """Per-query ranked results, best first, padded with -1 / NaN.

    docs:   int32 (Q, K)   document positions
    scores: float64 (Q, K) totals
    pair:   int64 (Q, K)   the pair in `Scores` (to look up contributions and gates)
    count:  int64 (Q,)     how many entries of each row are real
    """

    docs: NDArray[np.int32]
    scores: NDArray[np.float64]
    pair: NDArray[np.int64]
    count: NDArray[np.int64]


def _dense_top_k(values: NDArray[np.float64], k: int) -> tuple[NDArray[np.int64],
                                                                 NDArray[np.float64]]:
    """Columns and values of the k largest finite entries of each row of `values` (R, L),
    best first, ties by column; -inf marks what may not be ranked. Returns (R, k) arrays
    with -1 / -inf where a row has fewer.

    No full partition of every row (~13 ns an element here): the row is cut into 2k strided
    blocks; the k-th largest block maximum is a lower bound of the k-th largest value (k
    distinct elements reach it), so only entries at or above it — typically ~1.4k per row —
    are compacted, in column order, and sorted stably.
    """
    r, c = values.shape
    finite = values > -np.inf
    if c >= 4 * k:
        nb = 2 * k
        full = c - c % nb
        block_max = values[:, :full].reshape(r, -1, nb).max(axis=1)
        if full < c:
            tail = values[:, full:]
            block_max[:, : tail.shape[1]] = np.maximum(block_max[:, : tail.shape[1]], tail)
        bound = -np.partition(-block_max, k - 1, axis=1)[:, k - 1]
        keep = (values >= bound[:, None]) & finite
    else:
        keep = finite
    counts = keep.sum(axis=1)
    m = max(int(counts.max(initial=0)), k)
    rows, cols = np.nonzero(keep)  # row-major: ascending column within a row
    first = np.zeros(r + 1, np.int64)
    np.cumsum(counts, out=first[1:])
    slot = np.arange(len(rows)) - first[rows]
    packed_col = np.full((r, m), -1, np.int64)
    packed_val = np.full((r, m), -np.inf)
    packed_col[rows, slot] = cols
    packed_val[rows, slot] = values[rows, cols]
    order = np.argsort(-packed_val, axis=1, kind="stable")[:, :k]
    return (np.take_along_axis(packed_col, order, axis=1),
            np.take_along_axis(packed_val, order, axis=1))


def top_k(scores: Scores, k: int) -> Ranking:
    """The k best ungated pairs of every query, ties broken by the model's candidate order.

    Equal rows are one reshape into a (Q, L) table. Ragged rows are grouped by length into
    power-of-two buckets, each padded to its longest row (so padding at most doubles a bucket)
    and ranked as a table.
    """
    q = scores.n_queries
    lengths = np.diff(scores.row_ptr)
    longest = int(lengths.max(initial=0))
    k = max(0, min(k, longest))
    if q == 0 or k == 0:
        return _empty_ranking(q, k)
    values = np.where(scores.gate == 0, scores.total, -np.inf)
    pair = np.full((q, k), -1, np.int64)
    best = np.full((q, k), -np.inf)
    if int(lengths.min()) == longest:  # dense
        cols, vals = _dense_top_k(values.reshape(q, longest), k)
        pair[:] = np.where(cols >= 0, scores.row_ptr[:-1, None] + cols, -1)
        best[:] = vals
    else:
        bucket = np.ceil(np.log2(np.maximum(lengths, 1))).astype(np.int64)
        for b in np.unique(bucket[lengths > 0]):
            rows = np.flatnonzero((bucket == b) & (lengths > 0))
            width = int(lengths[rows].max())
            start = scores.row_ptr[rows]
            idx = start[:, None] + np.arange(width)[None, :]
            inside = idx < scores.row_ptr[rows + 1][:, None]
            table = np.where(inside, values[np.where(inside, idx, 0)], -np.inf)
            cols, vals = _dense_top_k(table, min(k, width))
            pair[rows, : cols.shape[1]] = np.where(cols >= 0, start[:, None] + cols, -1)
            best[rows, : cols.shape[1]] = vals
    valid = np.isfinite(best)
    safe = np.where(valid, pair, 0)
    return Ranking(
        docs=np.where(valid, scores.docs[safe], -1).astype(np.int32),
        scores=np.where(valid, best, np.nan),
        pair=np.where(valid, pair, -1),
        count=valid.sum(axis=1).astype(np.int64),
    )


def select(ranking: Ranking, selection: Selection) -> Ranking:
    """Apply min score, then offset and limit, to each row of a ranking (vectorised)."""
    docs, sc, pair = ranking.docs, ranking.scores, ranking.pair
    if docs.shape[1] == 0:
        return ranking
    keep = docs >= 0
    if selection.min_score is not None:
        with np.errstate(invalid="ignore"):
            keep &= sc >= selection.min_score
    # rows stay sorted, so kept entries form a prefix; offset and limit slice that prefix
    n = keep.sum(axis=1)
    start = np.minimum(n, selection.offset)
    stop = n if selection.limit is None else np.minimum(n, start + selection.limit)
    width = int((stop - start).max(initial=0))
    idx = np.minimum(start[:, None] + np.arange(width)[None, :], docs.shape[1] - 1)
    inside = (start[:, None] + np.arange(width)[None, :]) < stop[:, None]
    return Ranking(
        docs=np.where(inside, np.take_along_axis(docs, idx, axis=1), -1).astype(np.int32),
        scores=np.where(inside, np.take_along_axis(sc, idx, axis=1), np.nan),
        pair=np.where(inside, np.take_along_axis(pair, idx, axis=1), -1),
        count=(stop - start).astype(np.int64),
    )


def rank(scores: Scores, k: int, selection: Selection | None = None) -> Ranking:
    """Top k (plus the offset) of every query, then the selection."""
    sel = selection or Selection()
    depth = k + sel.offset
    if sel.limit is not None:
        depth = min(depth, sel.limit + sel.offset)
    return select(top_k(scores, depth), sel)


def _empty_ranking(q: int, k: int) -> Ranking:
    return Ranking(
        docs=np.full((q, k), -1, np.int32),
        scores=np.full((q, k), np.nan),
        pair=np.full((q, k), -1, np.int64),
        count=np.zeros(q, np.int64),
    )


def contributions_at(scores: Scores, ranking: Ranking) -> NDArray[np.float64]:
    """float64 (S, Q, K): each signal's contribution for the ranked entries (NaN at padding)."""
    q, k = ranking.pair.shape
    out = np.full((len(scores.signals), q, k), np.nan)
    rows, slots = np.nonzero(ranking.pair >= 0)
    if len(rows):
        out[:, rows, slots] = scores.contributions_of(ranking.pair[rows, slots])
    return out


def to_run(ranking: Ranking, doc_ids: list[str],
           query_ids: list[str]) -> dict[str, dict[str, float]]:
    """A ranking as a TREC-style run (query id → document id → score)."""
    run: dict[str, dict[str, float]] = {}
    for qi, qid in enumerate(query_ids):
        row: dict[str, float] = {}
        for j in range(int(ranking.count[qi])):
            row[doc_ids[int(ranking.docs[qi, j])]] = float(ranking.scores[qi, j])
        run[qid] = row
    return run
