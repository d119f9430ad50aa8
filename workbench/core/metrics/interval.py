"""The confidence interval of a mean paired difference that the randomisation test itself gives.

A Student's t-interval beside a randomisation p can disagree on heavy-tailed per-query
differences (rB 5, cisi r@100: the t-interval −0.0594 to −0.0013 barely left out 0 beside p
0.005; the t-test's own p there is 0.041). This interval inverts the p column's test instead:
it holds every shift δ that the sign-flip test of the differences d − δ does not reject at
1 − level (Good, *Permutation Tests*, ch. 3.4: a confidence set from a family of tests). At
δ = 0 that is the test of the table, drawn from the same seeded sign vectors as
`paired_test`'s random one, so 0 lies inside it exactly where p ≥ 1 − level, up to the
resampling's noise where `paired_test` counts every pattern of the non-zero differences and
this draws (more than log2(n_resamples) queries, at most EXACT_MAX_NONZERO of them moved).

Each shift costs O(n_resamples): Σ s_i (d_i − δ) = A_s − δ B_s with A_s = Σ s_i d_i and
B_s = Σ s_i fixed per sign vector s, so the ends are found by bisection over δ on two arrays.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numpy.typing import ArrayLike, NDArray

from workbench.core.metrics.significance import _LOOKUP_CELLS

# bisection steps from the mean to an end: the end to 2^-50 of the span searched
_STEPS = 50


def randomization_interval(diffs: ArrayLike, level: float = 0.95, n_resamples: int = 10_000,
                           seed: int = 0) -> tuple[float, float] | None:
    """The shifts δ at which the two-sided sign-flip test of diffs − δ gives p ≥ 1 − level,
    as (low, high); None with fewer than two finite values, or where so few queries remain
    that no shift can be rejected (2 / 2^n ≥ 1 − level: at most 5 queries at 95%).

    diffs: float (n,) per-query differences b − a; NaN values are left out. Every sign vector
    is counted where 2^n ≤ n_resamples, else n_resamples random ones drawn as `paired_test`
    draws them for the same seed, p = (hits + 1) / (n_resamples + 1)."""
    d = np.asarray(diffs, np.float64)
    d = d[np.isfinite(d)]
    n = int(d.size)
    alpha = 1.0 - level
    if n < 2 or 2.0 ** (1 - n) >= alpha:  # 2.0 ** n overflows from 1,024 queries (dG 1)
        return None
    exact = (1 << n) <= n_resamples
    a_s, b_s = _exact_sums(d) if exact else _random_sums(d, n_resamples, seed)
    total, mean = float(d.sum()), float(d.mean())
    tol = 1e-12 * max(1.0, float(np.abs(d).sum()))

    def kept(delta: float) -> bool:
        observed = abs(total - n * delta)
        hits = int((np.abs(a_s - delta * b_s) >= observed - tol).sum())
        p = hits / a_s.size if exact else (hits + 1) / (a_s.size + 1)
        return p >= alpha

    span = float(np.abs(d - mean).max()) + 1e-12 * max(1.0, abs(mean))
    return _end(kept, mean, -span), _end(kept, mean, span)


def _end(kept: Callable[[float], bool], mean: float, span: float) -> float:
    """The last shift kept from `mean` towards mean + span·2^k (k from 0 until one is
    rejected), by bisection."""
    inside, outside = mean, mean + span
    for _ in range(60):  # past the largest difference every sign but the observed's loses
        if not kept(outside):
            break
        inside, outside = outside, mean + 2 * (outside - mean)
    for _ in range(_STEPS):
        mid = (inside + outside) / 2
        inside, outside = (mid, outside) if kept(mid) else (inside, mid)
    return inside


def _exact_sums(d: NDArray[np.float64]) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """A_s and B_s over all 2^n sign vectors (bit i of the vector's index set: d_i flipped)."""
    n = d.size
    bits = (np.arange(1 << n)[:, None] >> np.arange(n)) & 1
    signs = 1.0 - 2.0 * bits
    return signs @ d, signs.sum(axis=1)


def _random_sums(d: NDArray[np.float64], n_resamples: int,
                 seed: int) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """A_s and B_s over the sign vectors `paired_test` draws for `seed`: bytes of one bit a
    query (set: flipped), in the same chunks, so that δ = 0 is its test."""
    rng = np.random.default_rng(seed)
    n = d.size
    groups = -(-n // 8)
    padded = np.zeros(groups * 8)
    padded[:n] = d
    bits = (np.arange(256)[:, None] >> np.arange(8)) & 1  # (256, 8): byte → its bits
    table = (padded.reshape(groups, 1, 8) * bits).sum(axis=2)  # (groups, 256): Σ flipped d
    ones = np.zeros(groups * 8)
    ones[:n] = 1.0
    count = (ones.reshape(groups, 1, 8) * bits).sum(axis=2)  # (groups, 256): queries flipped
    group = np.arange(groups)
    total = float(d.sum())
    a_s, b_s = np.empty(n_resamples), np.empty(n_resamples)
    step = max(1, _LOOKUP_CELLS // groups)
    for lo in range(0, n_resamples, step):
        m = min(step, n_resamples - lo)
        codes = rng.integers(0, 256, size=(m, groups), dtype=np.uint8)
        a_s[lo:lo + m] = total - 2.0 * table[group, codes].sum(axis=1)
        b_s[lo:lo + m] = n - 2.0 * count[group, codes].sum(axis=1)
    return a_s, b_s
