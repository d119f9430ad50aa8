"""The k largest entries of each row of a CSR (values (P,), row_ptr (Q + 1,)), best first,
ties by position: the kernels under `ranking.top_k` for rows of any length (BM25 postings,
phrase matches), so a query matching 45,000 documents costs what it holds.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numpy.typing import NDArray

from workbench.core.top_k_dense import LOWEST, desc_order, desc_sort

__all__ = ["HintFn", "csr_top_k", "csr_top_k_values"]


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
    hv[~(ok & (hv >= LOWEST))] = -np.inf
    out: NDArray[np.float64] = -np.partition(-hv, k - 1, axis=1)[:, k - 1]
    return out


REDO_ROWS = 16  # loosely hinted rows left to an exact partition each (`csr_top_k_values`)
LONG_ROWS = 4096  # rows at least this long on average are thresholded one at a time


def _at_least(values: NDArray[np.float64], row_ptr: NDArray[np.int64],
              lengths: NDArray[np.int64], bound: NDArray[np.float64]) -> NDArray[np.int64]:
    """int64: the positions, ascending, of the values at least their row's bound. Long rows
    one at a time (no per-value copy of the bounds: 8 M pairs of 1,000 rows in about half
    the time), short ones in one pass."""
    q = len(lengths)
    if q and len(values) >= LONG_ROWS * q:
        parts = [np.flatnonzero(values[row_ptr[r]:row_ptr[r + 1]] >= bound[r]) + row_ptr[r]
                 for r in range(q)]
        return np.concatenate(parts).astype(np.int64, copy=False)
    out: NDArray[np.int64] = np.flatnonzero(values >= np.repeat(bound, lengths))
    return out


HintFn = Callable[[NDArray[np.int64]], NDArray[np.int64]]
"""rows (R,) → int64 (R, H): positions the previous tick ranked in those rows, -1 padded."""


def csr_top_k_values(values: NDArray[np.float64], row_ptr: NDArray[np.int64], k: int,
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
    bound = np.full(q, LOWEST)
    long = np.flatnonzero(lengths > k)  # shorter rows: every rankable entry is a candidate
    hinted = np.zeros(0, np.int64)
    if len(long) and hint is not None:
        h = hint(long)
        if h.shape[1] >= k:
            hb = _csr_hint_bound(values, row_ptr[long], row_ptr[long + 1], k, h)
            ok = hb >= LOWEST
            hinted = long[ok]
            bound[hinted] = hb[ok]
            long = long[~ok]
    if len(long):
        bound[long] = np.fmax(_csr_block_bound(values, row_ptr, long, k), LOWEST)
    pos = _at_least(values, row_ptr, lengths, bound)
    first = np.searchsorted(pos, row_ptr).astype(np.int64)
    # rows the hint bounds loosely (a big step): the block bound too, on those rows — one
    # more pass where many are; a few are left to the exact bound below (a partition each)
    redo = hinted[np.diff(first)[hinted] > cap]
    if len(redo) > max(REDO_ROWS, len(hinted) // 8):
        bound[redo] = np.fmax(bound[redo], _csr_block_bound(values, row_ptr, redo, k))
        pos = _at_least(values, row_ptr, lengths, bound)
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
        order = desc_order(packed_val, k)
        out_pos[rows, : order.shape[1]] = np.take_along_axis(packed_pos, order, axis=1)
        out_val[rows, : order.shape[1]] = np.take_along_axis(packed_val, order, axis=1)
    return out_pos, out_val


def _padded_top_k(values: NDArray[np.float64], row_ptr: NDArray[np.int64],
                  lengths: NDArray[np.int64], widest: int,
                  k: int) -> tuple[NDArray[np.int64], NDArray[np.float64]]:
    """`csr_top_k_values` where no row is much longer than k and the rows are of like lengths (a
    bound would keep most entries): the rows laid out in one (Q, widest) table, the entries
    that may not be ranked (not finite) and the padding at -inf, and sorted whole
    (`desc_order`)."""
    q = len(lengths)
    table = np.full(q * widest, -np.inf)
    at = np.arange(len(values), dtype=np.int64)
    at += np.repeat(np.arange(q, dtype=np.int64) * widest - row_ptr[:-1], lengths)
    table[at] = np.where(np.isfinite(values), values, -np.inf)
    grid = table.reshape(q, widest)
    cols, best = desc_sort(grid, k)
    ok = best >= LOWEST
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
    return csr_top_k_values(values, row_ptr, k)[0]


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
