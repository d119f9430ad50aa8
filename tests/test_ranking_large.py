"""`top_k` on long, skewed CSR rows (the compacted path: block bounds, tie trimming, exact
cut-offs for loose rows) equals a plain stable sort, with and without a hint."""

from __future__ import annotations

import numpy as np
import pytest

from workbench.core.ranking import Scores, top_k, total_only


def _reference(s: Scores, k: int) -> tuple[list[list[int]], list[list[float]]]:
    """Per row: ungated pairs with a finite total, by descending total, ties by position."""
    pairs, values = [], []
    for q in range(s.n_queries):
        r = s.row(q)
        ok = [p for p in range(r.start, r.stop) if s.gate[p] == 0 and np.isfinite(s.total[p])]
        ok.sort(key=lambda p: -s.total[p])  # stable: equal totals keep their position order
        pairs.append(ok[:k])
        values.append([float(s.total[p]) for p in ok[:k]])
    return pairs, values


def _check(s: Scores, k: int, hint: np.ndarray | None = None) -> None:
    got = top_k(s, k, hint)
    want_pairs, want_values = _reference(s, k)
    width = got.pair.shape[1]
    assert width == max(0, min(k, int(np.diff(s.row_ptr).max(initial=0))))
    for q in range(s.n_queries):
        n = int(got.count[q])
        assert got.pair[q, :n].tolist() == want_pairs[q]
        assert got.scores[q, :n].tolist() == want_values[q]
        assert got.docs[q, :n].tolist() == s.docs[want_pairs[q]].tolist()
        assert np.all(got.pair[q, n:] == -1) and np.all(got.docs[q, n:] == -1)
        assert np.all(np.isnan(got.scores[q, n:]))


def _skewed(rng: np.random.Generator, q: int, kind: str, gated: float,
            longest: int = 6000) -> Scores:
    """Rows from empty to `longest` (Pareto lengths), totals with many ties."""
    lengths = np.minimum((rng.pareto(1.0, q) * 300).astype(np.int64), longest)
    lengths[rng.random(q) < 0.15] = 0
    row_ptr = np.zeros(q + 1, np.int64)
    np.cumsum(lengths, out=row_ptr[1:])
    n = int(row_ptr[-1])
    if kind == "levels":
        total = rng.integers(0, 5, n).astype(float)
    elif kind == "sparse":  # most candidates score 0, a few score
        total = np.where(rng.random(n) < 0.05, np.round(rng.gamma(1.0, 2.0, n), 1), 0.0)
    elif kind == "sorted":  # each row ascending: contiguous blocks bound it loosely
        total = np.round(rng.random(n), 2)
        for i in range(q):
            total[row_ptr[i]:row_ptr[i + 1]].sort()
    elif kind == "inf":
        total = np.round(rng.normal(size=n), 1)
        total[rng.random(n) < 0.1] = -np.inf
        total[rng.random(n) < 0.02] = np.nan
        total[rng.random(n) < 0.01] = np.inf  # not ranked, as -inf and NaN
    else:
        total = rng.normal(size=n)
    gate = (rng.random(n) < gated).astype(np.int8)
    total = np.where(gate != 0, 0.0, total)  # a gate zeroes the total
    docs = rng.integers(0, 100_000, n).astype(np.int32)
    return Scores(row_ptr, docs, total, gate, ("s",), total_only(total))


KINDS = ["normal", "levels", "sparse", "sorted", "inf"]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("gated", [0.0, 0.4, 0.999])
def test_long_skewed_rows_equal_a_stable_sort(kind: str, gated: float) -> None:
    rng = np.random.default_rng([KINDS.index(kind), int(gated * 1000)])
    for _ in range(4):
        s = _skewed(rng, int(rng.integers(1, 40)), kind, gated)
        for k in (1, 7, 100, int(rng.integers(1, 3000)), 10_000):
            _check(s, k)


@pytest.mark.parametrize("kind", ["normal", "levels", "sparse", "sorted"])
def test_a_hint_never_changes_a_ragged_ranking(kind: str) -> None:
    rng = np.random.default_rng(len(kind))
    for trial in range(6):
        s = _skewed(rng, int(rng.integers(1, 30)), kind, 0.3 if trial % 2 else 0.0)
        k = int(rng.integers(1, 200))
        moved = s.total + rng.normal(scale=0.5, size=s.n_pairs)
        near = top_k(Scores(s.row_ptr, s.docs, moved, s.gate, ("s",), total_only(moved)), k)
        far = np.full((s.n_queries, k + 5), -1, np.int64)
        for q in range(s.n_queries):  # distinct pairs anywhere, some in other rows, some gated
            pick = rng.choice(max(s.n_pairs, 1), size=min(k + 5, s.n_pairs), replace=False)
            far[q, : len(pick)] = pick
        for hint in (near.pair, top_k(s, k).pair, far, np.full((s.n_queries, k), -1)):
            _check(s, k, hint)


def test_all_gated_and_empty_rows() -> None:
    row_ptr = np.array([0, 0, 500, 500, 5000], np.int64)
    total = np.zeros(5000)
    gate = np.ones(5000, np.int8)
    s = Scores(row_ptr, np.arange(5000, dtype=np.int32), total, gate, ("s",),
               total_only(total))
    r = top_k(s, 100)
    assert r.count.tolist() == [0, 0, 0, 0] and np.all(r.pair == -1)
    _check(s, 100, np.arange(400, dtype=np.int64).reshape(4, 100))
    gate[[7, 4000, 4001]] = 0
    _check(s, 2)
    _check(s, 100, np.arange(400, dtype=np.int64).reshape(4, 100))


def test_dense_gated_rows_equal_a_stable_sort() -> None:
    rng = np.random.default_rng(5)
    q, c = 12, 3000
    total = np.round(rng.normal(size=q * c), 1)
    gate = (rng.random(q * c) < 0.5).astype(np.int8)
    row_ptr = np.arange(q + 1, dtype=np.int64) * c
    s = Scores(row_ptr, np.tile(np.arange(c, dtype=np.int32), q), total, gate, ("s",),
               total_only(total))
    for k in (1, 10, 100, 700, 2000):
        _check(s, k)
        _check(s, k, top_k(s, k).pair)


@pytest.mark.parametrize("every", [True, False])
def test_dense_rows_of_mostly_zeros_equal_a_stable_sort(every: bool) -> None:
    """A vector-only blend: all but a few pairs of each row score 0, so the top k is the
    few matches and then zeros in position order — in every row, or in some rows only."""
    rng = np.random.default_rng(11)
    q, c = 9, 2500
    total = np.zeros(q * c)
    hits = rng.choice(q * c, size=q * 6, replace=False)
    total[hits] = np.round(rng.random(len(hits)), 2)
    if not every:
        total[: c * 3] = rng.normal(size=c * 3)  # three rows of distinct scores
    row_ptr = np.arange(q + 1, dtype=np.int64) * c
    s = Scores(row_ptr, np.tile(np.arange(c, dtype=np.int32), q), total,
               np.zeros(q * c, np.int8), ("s",), total_only(total))
    for k in (1, 5, 100, 600):
        _check(s, k)
        _check(s, k, top_k(s, k).pair)


def _even(rng: np.random.Generator, q: int, kind: str, gated: float) -> Scores:
    """Rows of like lengths (150–260, a few empty): the one-table path of `top_k`."""
    lengths = rng.integers(150, 261, q).astype(np.int64)
    lengths[rng.random(q) < 0.05] = 0
    row_ptr = np.zeros(q + 1, np.int64)
    np.cumsum(lengths, out=row_ptr[1:])
    n = int(row_ptr[-1])
    if kind == "close":  # values one or two units in the last place apart: one shared key
        base = np.repeat(rng.random(q), lengths)
        total = base + rng.integers(0, 3, n) * np.spacing(base)
    elif kind == "signed zeros":
        total = rng.choice([0.0, -0.0, 1.0, -1.0, 5e-324, -5e-324], n)
    elif kind == "inf":
        total = rng.choice([-np.inf, np.nan, 0.5, -0.5, 1e300, -1e300], n)
    else:
        total = np.round(rng.normal(size=n), 1)
    gate = (rng.random(n) < gated).astype(np.int8)
    total = np.where(gate != 0, 0.0, total)
    docs = rng.integers(0, 100_000, n).astype(np.int32)
    return Scores(row_ptr, docs, total, gate, ("s",), total_only(total))


@pytest.mark.parametrize("kind", ["levels", "close", "signed zeros", "inf"])
@pytest.mark.parametrize("gated", [0.0, 0.3])
def test_rows_of_like_length_equal_a_stable_sort(kind: str, gated: float) -> None:
    """Rows no longer than 4k are sorted whole in one table, by integer keys that carry the
    position (`top_k_dense.desc_order`); values that share a key fall back to a stable argsort."""
    rng = np.random.default_rng([len(kind), int(gated * 10)])
    for _ in range(3):
        s = _even(rng, int(rng.integers(1, 60)), kind, gated)
        for k in (26, 100, 260, 400):
            _check(s, k)
            _check(s, k, top_k(s, k).pair)


def test_desc_order_is_a_stable_descending_argsort() -> None:
    from workbench.core.top_k_dense import desc_order

    rng = np.random.default_rng(3)
    for trial in range(600):
        r, w, k = int(rng.integers(1, 6)), int(rng.integers(1, 300)), int(rng.integers(1, 320))
        kind = trial % 4
        if kind == 0:
            v = np.round(rng.standard_normal((r, w)), 1)
        elif kind == 1:
            base = rng.random((r, 1))
            v = base + rng.integers(0, 3, (r, w)) * np.spacing(base)
        elif kind == 2:
            v = rng.choice([0.0, -0.0, 1.0, np.inf, -np.inf, 5e-324, -5e-324, np.nan], (r, w))
        else:
            v = rng.random((r, w)) * 1e300 * rng.choice([-1, 1], (r, w))
        want = np.argsort(-v, axis=1, kind="stable")[:, :k]
        np.testing.assert_array_equal(desc_order(v, k), want)


@pytest.mark.parametrize("spoil", ["none", "nan", "+inf", "one row", "first row", "gate"])
def test_rows_that_come_ranked_equal_a_stable_sort(spoil: str) -> None:
    """Equal rows already non-increasing (dense's candidates come best first) are their own
    top k; a NaN, a +inf, one row out of order or a gate sends the table to the sort. Ties,
    signed zeros and -inf tails included."""
    rng = np.random.default_rng(len(spoil))
    q, c = 30, 700
    total = -np.sort(-rng.choice([0.9, 0.5, 0.5, 0.0, -0.0, -0.25, -np.inf], (q, c)), axis=1)
    gate = np.zeros(q * c, np.int8)
    if spoil == "nan":
        total[4, 10] = np.nan
    elif spoil == "+inf":
        total[7, 0] = np.inf
    elif spoil == "one row":
        total[12] = total[12, ::-1].copy()
    elif spoil == "first row":
        total[0, [3, 600]] = total[0, [600, 3]]
    elif spoil == "gate":
        gate[rng.random(q * c) < 0.2] = 1
    flat = np.where(gate != 0, 0.0, total.reshape(-1))
    row_ptr = np.arange(q + 1, dtype=np.int64) * c
    s = Scores(row_ptr, np.tile(np.arange(c, dtype=np.int32), q), flat, gate, ("s",),
               total_only(flat))
    for k in (1, 100, 650, 700):
        _check(s, k)
        _check(s, k, top_k(s, k).pair)


@pytest.mark.parametrize("kind", ["normal", "levels", "sparse"])
def test_long_rows_with_loose_hints_equal_a_stable_sort(kind: str) -> None:
    # rows of thousands (each thresholded on its own) and a hint from a big step in a few rows
    # (each left to an exact partition) or in most (one more pass with block bounds)
    rng = np.random.default_rng(7 + len(kind))
    q, k = 40, 30
    lengths = rng.integers(4096, 6000, q)
    lengths[3] = 0
    row_ptr = np.zeros(q + 1, np.int64)
    np.cumsum(lengths, out=row_ptr[1:])
    n = int(row_ptr[-1])
    total = {"normal": rng.normal(size=n), "levels": rng.integers(0, 4, n).astype(float),
             "sparse": np.where(rng.random(n) < 0.01, rng.random(n), 0.0)}[kind]
    s = Scores(row_ptr, rng.integers(0, 10**6, n).astype(np.int32), total,
               np.zeros(n, np.int8), ("s",), total_only(total))
    exact = top_k(s, k).pair
    for loose_rows in (2, 30):
        hint = exact.copy()
        for r in rng.choice(q, loose_rows, replace=False):  # its worst entries: a loose bound
            if lengths[r]:
                worst = row_ptr[r] + np.argsort(total[row_ptr[r]:row_ptr[r + 1]],
                                                kind="stable")[:k]
                hint[r] = worst
        _check(s, k, hint)
    _check(s, k)
