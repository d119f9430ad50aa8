"""Scores of (query, candidate) pairs, and the vectorised ranking over them.

`Scores` keeps the pairs query-major, like a CSR matrix: the candidates of query q are pairs
`row_ptr[q]:row_ptr[q+1]`, in the model's tie order. A model whose candidates are every document
(dense) has equal rows; a model with sparse candidates (BM25 postings, phrase matches) has rows
of any length, and a skewed query set — one query matching 45,000 documents, most matching 300 —
costs what it holds, not Q × the longest row. The top-k kernels are in `top_k_dense` (a table
of like rows) and `top_k_csr` (rows of any length).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

import numpy as np
from numpy.typing import NDArray

from workbench.core.top_k_csr import HintFn, csr_top_k_values
from workbench.core.top_k_dense import dense_top_k, rows_descending

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
    elsewhere: for a model that left out pairs no ranking to the asked depth reaches (see
             `Model.combine_to_depth`): (query, doc) → (total, float64 (S,) contributions) of
             a document the arrays lack, None where the model does not score it at all

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
    elsewhere: Callable[[int, int], tuple[float, NDArray[np.float64]] | None] | None = None

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


def _hint_positions(hint: NDArray[np.int64], kept: NDArray[np.int64] | None,
                    rows: NDArray[np.int64]) -> NDArray[np.int64]:
    """int64 (R, H): the hinted pairs of `rows` as positions among the ungated pairs `kept`
    (all pairs where None); a gated pair is no position (-1)."""
    h = np.asarray(hint[rows], np.int64)
    if kept is None or len(kept) == 0:
        return h if kept is None else np.full_like(h, -1)
    at = np.minimum(np.searchsorted(kept, h), len(kept) - 1)
    out: NDArray[np.int64] = np.where((h >= 0) & (kept[at] == h), at, -1)
    return out


def top_k(scores: Scores, k: int, hint: NDArray[np.int64] | None = None) -> Ranking:
    """The k best ungated pairs of every query, ties broken by the model's candidate order.

    `hint`: int64 (Q, H) pairs, -1 padded — the previous tick's ranking (`Ranking.pair`);
    any distinct pairs of each row are correct, near ones make it faster.

    Equal ungated rows are one reshape into a (Q, L) table. Otherwise the ungated pairs are
    compacted (one pass; most pairs are gated in some models) and ranked in place as a CSR
    (`csr_top_k_values`): one query matching 45,000 documents costs what it holds, and nothing
    pads a thousand queries matching 300 to its length.
    """
    q = scores.n_queries
    lengths = np.diff(scores.row_ptr)
    longest = int(lengths.max(initial=0))
    k = max(0, min(k, longest))
    if q == 0 or k == 0:
        return _empty_ranking(q, k)
    gated = bool(scores.gate.any())
    if int(lengths.min()) == longest and not gated:  # dense
        hint_cols = None
        if hint is not None and hint.ndim == 2 and hint.shape[0] == q:
            hint_cols = np.where(hint >= 0, hint - scores.row_ptr[:-1, None], -1)
        table = scores.total.reshape(q, longest)
        if rows_descending(table):  # already ranked (dense's candidates, best first)
            cols = np.broadcast_to(np.arange(k, dtype=np.int64), (q, k))
            best = table[:, :k]
        else:
            cols, best = dense_top_k(table, k, hint_cols)
        pair = np.where(cols >= 0, scores.row_ptr[:-1, None] + cols, -1)
    else:
        row_ptr: NDArray[np.int64] = scores.row_ptr
        values = scores.total
        kept: NDArray[np.int64] | None = None
        if gated:
            kept = np.flatnonzero(scores.gate == 0)
            values = values[kept]
            row_ptr = np.searchsorted(kept, scores.row_ptr).astype(np.int64)
        hint_of: HintFn | None = None
        if hint is not None and hint.ndim == 2 and hint.shape[0] == q:
            hint_of = partial(_hint_positions, hint, kept)
        where, best = csr_top_k_values(values, row_ptr, k, hint_of)
        if kept is not None:
            pair = np.where(where >= 0, kept[np.maximum(where, 0)], -1) if len(kept) else where
        else:
            pair = where
    if np.isposinf(best).any():  # +inf is not ranked: ranked again without it (no model
        # makes one; a bound path would take it for the best entry, then drop it)
        finite = np.where(np.isposinf(scores.total), -np.inf, scores.total)
        return top_k(dataclasses.replace(scores, total=finite), k, hint)
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
    if selection.min_score is None and selection.offset == 0 and selection.limit is None:
        return head(ranking, int(ranking.count.max(initial=0)))  # nothing to select
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


def head(ranking: Ranking, k: int) -> Ranking:
    """The first k entries of each row: a ranking to k from a deeper one (rows are sorted, so
    the first k of a deeper top list are the top k)."""
    width = min(k, ranking.docs.shape[1])
    return Ranking(docs=ranking.docs[:, :width], scores=ranking.scores[:, :width],
                   pair=ranking.pair[:, :width], count=np.minimum(ranking.count, width))


def rank(scores: Scores, k: int, selection: Selection | None = None,
         hint: NDArray[np.int64] | None = None) -> Ranking:
    """Top k (plus the offset) of every query, then the selection. `hint`: see `top_k`."""
    sel = selection or Selection()
    depth = k + sel.offset
    if sel.limit is not None:
        depth = min(depth, sel.limit + sel.offset)
    return select(top_k(scores, depth, hint), sel)


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
