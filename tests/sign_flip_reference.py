"""An independent inversion of the paired sign-flip test, for checking
`metrics.interval.randomization_interval`: every sign vector listed with itertools where 2^n
≤ n_resamples, else the random bytes the spec names (numpy's default_rng(seed), one uint8 per
8 queries, bit i of a byte flipping query i of its 8, drawn 2^17 // bytes rows at a time, as
`paired_test` draws them) unpacked with numpy's unpackbits; p by a
plain matrix product at each shift; each end by bisection on that p."""

from __future__ import annotations

import itertools

import numpy as np
from numpy.typing import NDArray


def signs(n: int, n_resamples: int = 10_000, seed: int = 0) -> tuple[NDArray[np.float64], bool]:
    if 2 ** n <= n_resamples:
        return np.array(list(itertools.product((1.0, -1.0), repeat=n))), True
    rng, groups = np.random.default_rng(seed), -(-n // 8)
    rows = (1 << 17) // groups
    codes = np.concatenate([rng.integers(0, 256, size=(min(rows, n_resamples - lo), groups),
                                         dtype=np.uint8) for lo in range(0, n_resamples, rows)])
    bits = np.unpackbits(codes, axis=1, bitorder="little")[:, :n]
    return 1.0 - 2.0 * bits, False


def p_at(d: NDArray[np.float64], delta: float, s: NDArray[np.float64], exact: bool) -> float:
    x = d - delta
    hits = int((np.abs(s @ x) >= abs(x.sum()) - 1e-9).sum())
    return hits / len(s) if exact else (hits + 1) / (len(s) + 1)


def interval(values: list[float] | NDArray[np.float64], level: float = 0.95,
             n_resamples: int = 10_000) -> tuple[float, float]:
    d = np.asarray(values, np.float64)
    d = d[np.isfinite(d)]
    s, exact = signs(d.size, n_resamples)
    alpha = 1 - level
    ends = []
    for way in (-1.0, 1.0):
        inside, outside = float(d.mean()), float(d.mean()) + way * (np.ptp(d) + 1.0)
        assert p_at(d, outside, s, exact) < alpha  # beyond every difference: left out
        for _ in range(60):
            mid = (inside + outside) / 2
            if p_at(d, mid, s, exact) >= alpha:
                inside = mid
            else:
                outside = mid
        ends.append(inside)
    return ends[0], ends[1]
