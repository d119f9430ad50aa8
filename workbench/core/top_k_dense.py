"""The k largest entries of each row of a dense (R, L) table, best first, ties by column:
the vectorised kernels under `ranking.top_k` for models whose rows are of like lengths.

A bound (the previous tick's top k, or the k-th largest of 2k strided block maxima) drops most
of a long row before anything is sorted; `desc_sort` then orders what is left by one integer
sort of keys that carry their column.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

__all__ = ["LOWEST", "dense_top_k", "desc_order", "desc_sort", "rows_descending"]


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


def dense_top_k(values: NDArray[np.float64], k: int,
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
    order = desc_order(packed_val, k)
    return (np.take_along_axis(packed_col, order, axis=1),
            np.take_along_axis(packed_val, order, axis=1))


LOWEST = -np.finfo(np.float64).max
"""a bound never below this keeps -inf (and NaN, which compares false) out of a ranking"""


def desc_order(values: NDArray[np.float64], k: int) -> NDArray[np.int64]:
    """The columns of `desc_sort`."""
    return desc_sort(values, k)[0]


def desc_sort(values: NDArray[np.float64],
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


def rows_descending(table: NDArray[np.float64]) -> bool:
    """Whether every row is non-increasing with no NaN and no +inf: its top k is then its
    first k entries in order (a stable sort moves nothing; -inf ends the row and is not
    ranked). The first row alone is checked first, so other tables cost one short compare."""
    if table.shape[1] < 2:
        return False
    if not (table[0, 1:] <= table[0, :-1]).all():
        return False
    with np.errstate(invalid="ignore"):
        return bool((table[:, 1:] <= table[:, :-1]).all() and (table[:, 0] < np.inf).all())
