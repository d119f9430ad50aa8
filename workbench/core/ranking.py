"""Scores of (query, candidate) pairs, and the vectorised ranking over them.

`Scores` keeps the pairs query-major, like a CSR matrix: the candidates of query q are pairs
`row_ptr[q]:row_ptr[q+1]`, in the model's tie order. A model whose candidates are every document
(dense) has equal rows; a model with sparse candidates (BM25 postings, phrase matches) has rows
of any length, and a skewed query set — one query matching 45,000 documents, most matching 300 —
costs what it holds, not Q × the longest row.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

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


def _block_bound(values: NDArray[np.float64], k: int) -> NDArray[np.float64]:
    """float64 (R,): a lower bound of each row's k-th largest value (rows of ≥ 4k entries):
    the row cut into 2k strided blocks, the k-th largest block maximum (k distinct elements
    reach it)."""
    r, c = values.shape
    nb = 2 * k
    full = c - c % nb
    block_max = values[:, :full].reshape(r, -1, nb).max(axis=1)
    if full < c:
        tail = values[:, full:]
        block_max[:, : tail.shape[1]] = np.maximum(block_max[:, : tail.shape[1]], tail)
    out: NDArray[np.float64] = -np.partition(-block_max, k - 1, axis=1)[:, k - 1]
    return out


def _hint_bound(values: NDArray[np.float64], k: int,
                hint: NDArray[np.int64]) -> NDArray[np.float64]:
    """float64 (R,): the k-th largest of each row's values at the hinted columns (R, H) —
    distinct columns, -1 padding — or -inf where a row has fewer than k finite ones. Any k
    distinct entries bound the row's k-th largest value from below; the previous slider
    tick's top k bound it tightly, since a small step moves few documents."""
    c = values.shape[1]
    ok = (hint >= 0) & (hint < c)
    hv = np.take_along_axis(values, np.where(ok, hint, 0), axis=1)
    hv[~ok] = -np.inf
    if hint.shape[1] == k:
        out: NDArray[np.float64] = hv.min(axis=1)
    else:
        out = -np.partition(-hv, k - 1, axis=1)[:, k - 1]
    return out


def _dense_top_k(values: NDArray[np.float64], k: int,
                 hint: NDArray[np.int64] | None = None) -> tuple[NDArray[np.int64],
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
    lowest = -np.finfo(np.float64).max  # a bound never below this keeps -inf out
    if c >= 4 * k and hint is not None and hint.shape[0] == r and hint.shape[1] >= k:
        hinted = _hint_bound(values, k, hint)
        bound = np.maximum(hinted, lowest)
        keep = values >= bound[:, None]
        counts = keep.sum(axis=1)
        # rows the hint does not bound (too few finite entries) or bounds loosely (a big
        # step, many ties): the block bound too, on those rows alone
        loose = np.flatnonzero(~np.isfinite(hinted) | (counts > 4 * k))
        if len(loose):
            bound[loose] = np.maximum(bound[loose], _block_bound(values[loose], k))
            keep[loose] = values[loose] >= bound[loose, None]
            counts[loose] = keep[loose].sum(axis=1)
    elif c >= 4 * k:
        bound = np.maximum(_block_bound(values, k), lowest)
        keep = values >= bound[:, None]
        counts = keep.sum(axis=1)
    else:
        bound = np.full(r, lowest)
        keep = values >= lowest
        counts = keep.sum(axis=1)
    heavy = np.flatnonzero(counts > 2 * k)
    if len(heavy):
        # rows where many entries tie at the bound (every non-match scoring 0, say): of the
        # tied entries only the first k − (entries above) in column order can be in the top k
        every = len(heavy) == r  # often every row (alpha 1: all but a few pairs score 0)
        sub = values if every else values[heavy]
        at = bound[heavy, None]
        above = sub > at
        tied = sub == at
        need = k - above.sum(axis=1)
        # a running count in the narrowest integer that holds a row's length: half the memory
        # traffic of int64 over a (rows, columns) table
        rank_dtype = np.int16 if c < np.iinfo(np.int16).max else np.int64
        tied &= np.cumsum(tied, axis=1, dtype=rank_dtype) <= need[:, None]
        above |= tied
        if every:
            keep = above
        else:
            keep[heavy] = above
        counts[heavy] = above.sum(axis=1)
    m = max(int(counts.max(initial=0)), k)
    # row-major: ascending column within a row. The flat form: a 2-D nonzero costs ~4× more
    flat = np.flatnonzero(keep)
    rows = flat // c
    cols = flat - rows * c
    first = np.zeros(r + 1, np.int64)
    np.cumsum(counts, out=first[1:])
    slot = np.arange(len(rows)) - first[rows]
    packed_col = np.full((r, m), -1, np.int64)
    packed_val = np.full((r, m), -np.inf)
    packed_col[rows, slot] = cols
    packed_val[rows, slot] = values.reshape(-1)[flat] if values.flags.c_contiguous else \
        values[rows, cols]
    order = _desc_order(packed_val, k)
    return (np.take_along_axis(packed_col, order, axis=1),
            np.take_along_axis(packed_val, order, axis=1))


_LOWEST = -np.finfo(np.float64).max
"""a bound never below this keeps -inf (and NaN, which compares false) out of a ranking"""


def _desc_order(values: NDArray[np.float64], k: int) -> NDArray[np.int64]:
    """The columns of `_desc_sort`."""
    return _desc_sort(values, k)[0]


def _desc_sort(values: NDArray[np.float64],
               k: int) -> tuple[NDArray[np.int64], NDArray[np.float64]]:
    """int64 (R, min(k, L)) columns and float64 (R, min(k, L)) values:
    `np.argsort(-values, axis=1, kind="stable")[:, :k]` for values (R, L) — descending, ties
    by column — at about half its cost here, and the values in that order.

    Each value becomes an integer that sorts as its negation does (the float's bits, the
    negative ones flipped), its lowest ⌈log2 L⌉ bits replaced by the column; one integer sort
    of the rows then orders them by value and ties by column. Two different values that
    differ only in the dropped bits would share a key, so a row where sorted neighbours share a
    key with different values (or with a NaN among its first k) is argsorted instead. A row
    much longer than k is partitioned to its k + 1 smallest keys first and only those sorted.
    """
    r, width = values.shape
    k = min(k, width)
    if width <= 1 or r == 0:
        out: NDArray[np.int64] = np.argsort(-values, axis=1, kind="stable")[:, :k]
        return out, np.take_along_axis(values, out, axis=1)
    bits = (width - 1).bit_length()
    low = np.int64((1 << bits) - 1)
    key = np.negative(values)
    key += 0.0  # -0.0 becomes 0.0: equal values get equal keys
    key = key.view(np.int64)
    key ^= (key >> 63) & np.int64(0x7FFF_FFFF_FFFF_FFFF)  # ascending key ⇔ ascending -value
    key &= ~low
    key |= np.arange(width, dtype=np.int64)
    whole = key
    partitioned = k > 0 and 2 * (k + 1) < width
    if partitioned:  # the k + 1 smallest keys, and only those sorted
        key = np.partition(whole, k, axis=1)[:, : k + 1]
    key.sort(axis=1)
    col = key & low
    got = values.reshape(-1)[col + (np.arange(r, dtype=np.int64) * width)[:, None]]
    key >>= bits
    bad = ((key[:, 1:] == key[:, :-1]) & (got[:, 1:] != got[:, :-1])).any(axis=1)
    if partitioned:
        # entries that share value bits lie together in key order; a run of them across the
        # k-th place may hold another value further on than the k + 1 sorted: look at the
        # whole run
        across = np.flatnonzero(key[:, k - 1] == key[:, k])
        if len(across):
            run = (whole[across] >> bits) == key[across, k - 1][:, None]
            bad[across] |= (run & (values[across] != got[across, k - 1][:, None])).any(axis=1)
    head = got[:, :k]
    bad |= np.isnan(head).any(axis=1)
    out = col[:, :k]
    best = head + 0.0  # a -0.0 becomes 0.0 (the sign of a zero is not kept)
    if bad.any():
        rows = np.flatnonzero(bad)
        out[rows] = np.argsort(-values[rows], axis=1, kind="stable")[:, :k]
        best[rows] = np.take_along_axis(values[rows], out[rows], axis=1)
    return out, best


def _rows_descending(table: NDArray[np.float64]) -> bool:
    """Whether every row is non-increasing with no NaN and no +inf: its top k is then its
    first k entries in order (a stable sort moves nothing; -inf ends the row and is not
    ranked). The first row alone is checked first, so other tables cost one short compare."""
    if table.shape[1] < 2:
        return False
    if not (table[0, 1:] <= table[0, :-1]).all():
        return False
    with np.errstate(invalid="ignore"):
        return bool((table[:, 1:] <= table[:, :-1]).all() and (table[:, 0] < np.inf).all())


def _segment_sums(flags: NDArray[np.bool_], first: NDArray[np.int64]) -> NDArray[np.int64]:
    """int64 (R,): how many flags are set in each segment first[r]:first[r + 1]."""
    c = np.zeros(len(flags) + 1, np.int64)
    np.cumsum(flags, out=c[1:])
    out: NDArray[np.int64] = c[first[1:]] - c[first[:-1]]
    return out


def _csr_block_bound(values: NDArray[np.float64], row_ptr: NDArray[np.int64],
                     rows: NDArray[np.int64], k: int) -> NDArray[np.float64]:
    """float64 (R,): a lower bound of the k-th largest value of each of `rows` (ascending,
    each of > k entries): the row cut into 2k contiguous blocks (single entries where the row
    is shorter, which makes the bound exact), the k-th largest block maximum (k distinct
    entries reach it). One `reduceat` pass, no padded copy; NaN-only blocks count as the
    smallest."""
    nb = 2 * k
    start, stop = row_ptr[rows], row_ptr[rows + 1]
    cuts = np.empty((len(rows), nb + 1), np.int64)
    cuts[:, :nb] = start[:, None] + (np.arange(nb) * (stop - start)[:, None]) // nb
    cuts[:, nb] = stop  # ends the row's last block; what it starts is thrown away
    empty = cuts[:, :nb] == cuts[:, 1:]  # a row shorter than 2k: some blocks hold nothing
    flat = cuts.reshape(-1)
    real = np.ones((len(rows), nb + 1), bool)
    real[:, nb] = False
    inside = flat < len(values)  # the last row may end the array: its last block runs there
    block_max = np.fmax.reduceat(values, flat[inside])[real.reshape(-1)[inside]]
    block_max = block_max.reshape(len(rows), nb)
    block_max[empty] = -np.inf
    out: NDArray[np.float64] = -np.partition(-block_max, k - 1, axis=1)[:, k - 1]
    return out


def _csr_hint_bound(values: NDArray[np.float64], start: NDArray[np.int64],
                    stop: NDArray[np.int64], k: int,
                    hint: NDArray[np.int64]) -> NDArray[np.float64]:
    """float64 (R,): the k-th largest rankable value at each row's hinted positions (R, H) —
    distinct, -1 padded, positions outside the row start:stop ignored — or -inf where fewer
    than k. Any k distinct entries bound the row's k-th largest value from below; the
    previous slider tick's top k bound it tightly, since a small step moves few documents."""
    ok = (hint >= start[:, None]) & (hint < stop[:, None])
    hv = values[np.where(ok, hint, start[:, None])]
    hv[~(ok & (hv >= _LOWEST))] = -np.inf
    out: NDArray[np.float64] = -np.partition(-hv, k - 1, axis=1)[:, k - 1]
    return out


HintFn = Callable[[NDArray[np.int64]], NDArray[np.int64]]
"""rows (R,) → int64 (R, H): positions the previous tick ranked in those rows, -1 padded."""


def _csr_top_k(values: NDArray[np.float64], row_ptr: NDArray[np.int64], k: int,
               hint: HintFn | None = None) -> tuple[NDArray[np.int64], NDArray[np.float64]]:
    """Positions and values of the k largest rankable entries of each row of a CSR
    (values (P,), row_ptr (Q + 1,)), best first, ties by position; -inf and NaN are not
    ranked. Returns (Q, k) arrays with -1 / -inf where a row has fewer.

    Never pads or copies the rows: a per-row lower bound of the k-th largest value (the
    hint's, else 2k contiguous block maxima) keeps, in one compare over the P values, ~1.4k
    candidates a row; of the entries tied at the bound only the first k − (entries above) by
    position can be in the top k; a row still holding more than 4k candidates (a row sorted
    by score, a hint from a big step) gets its exact k-th largest value as the bound. Only
    the candidates are sorted, in tables of rows with similar counts.
    """
    q = len(row_ptr) - 1
    lengths = np.diff(row_ptr)
    widest = int(lengths.max(initial=0))
    if widest <= 4 * k and q * widest <= 2 * len(values) + 4096:
        return _padded_top_k(values, row_ptr, lengths, widest, k)
    cap = 4 * k
    bound = np.full(q, _LOWEST)
    long = np.flatnonzero(lengths > k)  # shorter rows: every rankable entry is a candidate
    hinted = np.zeros(0, np.int64)
    if len(long) and hint is not None:
        h = hint(long)
        if h.shape[1] >= k:
            hb = _csr_hint_bound(values, row_ptr[long], row_ptr[long + 1], k, h)
            ok = hb >= _LOWEST
            hinted = long[ok]
            bound[hinted] = hb[ok]
            long = long[~ok]
    if len(long):
        bound[long] = np.fmax(_csr_block_bound(values, row_ptr, long, k), _LOWEST)
    pos = np.flatnonzero(values >= np.repeat(bound, lengths))
    first = np.searchsorted(pos, row_ptr).astype(np.int64)
    # rows the hint bounds loosely (a big step): the block bound too, on those rows
    redo = hinted[np.diff(first)[hinted] > cap]
    if len(redo):
        bound[redo] = np.fmax(bound[redo], _csr_block_bound(values, row_ptr, redo, k))
        pos = np.flatnonzero(values >= np.repeat(bound, lengths))
        first = np.searchsorted(pos, row_ptr).astype(np.int64)
    cand = values[pos]
    keep = _trim(cand, first, bound, k)
    counts = _segment_sums(keep, first)
    loose = np.flatnonzero(counts > cap)
    for r in loose:  # the exact k-th largest value (k ≤ cap < the row's candidates)
        seg = cand[first[r]:first[r + 1]]
        bound[r] = np.partition(seg, len(seg) - k)[len(seg) - k]
    if len(loose):
        keep = _trim(cand, first, bound, k)
        counts = _segment_sums(keep, first)
    pos, cand = pos[keep], cand[keep]
    start = np.zeros(q + 1, np.int64)
    np.cumsum(counts, out=start[1:])
    out_pos = np.full((q, k), -1, np.int64)
    out_val = np.full((q, k), -np.inf)
    # rows grouped by the power of two above their count, so no table is more than twice
    # what it holds; each packed in position order and sorted stably
    group = np.ceil(np.log2(np.maximum(counts, 1))).astype(np.int64)
    group[counts == 0] = -1
    for g in np.unique(group[group >= 0]):
        rows = np.flatnonzero(group == g)
        sizes = counts[rows]
        m = int(sizes.max())
        local = np.repeat(np.arange(len(rows)), sizes)
        slot = np.arange(len(local)) - np.repeat(np.cumsum(sizes) - sizes, sizes)
        src = start[rows][local] + slot
        packed_pos = np.full((len(rows), m), -1, np.int64)
        packed_val = np.full((len(rows), m), -np.inf)
        packed_pos[local, slot] = pos[src]
        packed_val[local, slot] = cand[src]
        order = _desc_order(packed_val, k)
        out_pos[rows, : order.shape[1]] = np.take_along_axis(packed_pos, order, axis=1)
        out_val[rows, : order.shape[1]] = np.take_along_axis(packed_val, order, axis=1)
    return out_pos, out_val


def _padded_top_k(values: NDArray[np.float64], row_ptr: NDArray[np.int64],
                  lengths: NDArray[np.int64], widest: int,
                  k: int) -> tuple[NDArray[np.int64], NDArray[np.float64]]:
    """`_csr_top_k` where no row is much longer than k and the rows are of like lengths (a
    bound would keep most entries): the rows laid out in one (Q, widest) table, the entries
    that may not be ranked (not finite) and the padding at -inf, and sorted whole
    (`_desc_order`)."""
    q = len(lengths)
    table = np.full(q * widest, -np.inf)
    at = np.arange(len(values), dtype=np.int64)
    at += np.repeat(np.arange(q, dtype=np.int64) * widest - row_ptr[:-1], lengths)
    table[at] = np.where(np.isfinite(values), values, -np.inf)
    grid = table.reshape(q, widest)
    cols, best = _desc_sort(grid, k)
    ok = best >= _LOWEST
    pos = np.where(ok, row_ptr[:-1, None] + cols, -1)
    out_val: NDArray[np.float64] = np.where(ok, best, -np.inf)
    if cols.shape[1] < k:  # every row shorter than k
        pad = k - cols.shape[1]
        pos = np.pad(pos, ((0, 0), (0, pad)), constant_values=-1)
        out_val = np.pad(out_val, ((0, 0), (0, pad)), constant_values=-np.inf)
    return pos, out_val


def csr_top_k(values: NDArray[np.float64], row_ptr: NDArray[np.int64],
              k: int) -> NDArray[np.int64]:
    """int64 (Q, k): the positions of the k largest entries of each row of a CSR (values
    (P,), row_ptr (Q + 1,)), best first, ties by position, -1 where a row has fewer; -inf and
    NaN are not ranked."""
    if k <= 0 or len(row_ptr) <= 1:
        return np.full((max(len(row_ptr) - 1, 0), max(k, 0)), -1, np.int64)
    return _csr_top_k(values, row_ptr, k)[0]


def _trim(cand: NDArray[np.float64], first: NDArray[np.int64], bound: NDArray[np.float64],
          k: int) -> NDArray[np.bool_]:
    """bool (n,): which candidates (rows first[r]:first[r + 1], in position order) can be in
    their row's top k: those above the row's bound, and of those equal to it the first
    k − (entries above) — every later tied one has k entries ahead of it."""
    counts = np.diff(first)
    b = np.repeat(bound, counts)
    above = cand > b
    tied = cand == b
    need = k - _segment_sums(above, first)
    ties = np.cumsum(tied)  # tie rank within the row: the running count less the row's start
    before = np.concatenate([[0], ties])[first[:-1]]
    keep: NDArray[np.bool_] = above | (tied & (ties <= np.repeat(before + need, counts)))
    return keep


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
    (`_csr_top_k`): one query matching 45,000 documents costs what it holds, and nothing
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
        if _rows_descending(table):  # already ranked (dense's candidates, best first)
            cols = np.broadcast_to(np.arange(k, dtype=np.int64), (q, k))
            best = table[:, :k]
        else:
            cols, best = _dense_top_k(table, k, hint_cols)
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
        where, best = _csr_top_k(values, row_ptr, k, hint_of)
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
