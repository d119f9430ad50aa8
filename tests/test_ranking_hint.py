"""`top_k` with a hint (the previous tick's ranking) returns exactly what it returns without."""

from __future__ import annotations

import numpy as np
import pytest

from workbench.core.ranking import Scores, top_k, total_only, uniform_rows


def _scores(total: np.ndarray, gate: np.ndarray, q: int, c: int) -> Scores:
    return Scores(uniform_rows(q, c), np.tile(np.arange(c, dtype=np.int32), q), total, gate,
                  ("s",), total_only(total))


def _distinct(hint: np.ndarray) -> np.ndarray:
    out = np.full_like(hint, -1)
    for i, row in enumerate(hint):
        _, first = np.unique(row, return_index=True)
        keep = np.sort(first)
        out[i, keep] = row[keep]
    return out


def _total(rng: np.random.Generator, kind: str, n: int) -> np.ndarray:
    if kind == "normal":
        return rng.normal(size=n)
    if kind == "ties":
        return rng.integers(0, 4, size=n).astype(float)
    if kind == "zeros":
        return np.zeros(n)
    return np.round(rng.normal(size=n), 1)


@pytest.mark.parametrize("kind", ["normal", "ties", "zeros", "rounded"])
def test_a_hint_never_changes_the_ranking(kind: str) -> None:
    rng = np.random.default_rng(7)
    for trial in range(60):
        q, c, k = int(rng.integers(1, 10)), int(rng.integers(1, 700)), int(rng.integers(1, 90))
        total = _total(rng, kind, q * c)
        gate = (rng.random(q * c) < (0.3 if trial % 2 else 0.0)).astype(np.int8)
        scores = _scores(total, gate, q, c)
        want = top_k(scores, k)
        moved = total + rng.normal(scale=0.3, size=q * c)
        hints = [top_k(_scores(moved, gate, q, c), k).pair, want.pair,
                 _distinct(rng.integers(-1, q * c, size=(q, k + 3))),
                 np.full((q, k), -1, np.int64)]
        for hint in hints:
            got = top_k(scores, k, hint)
            np.testing.assert_array_equal(got.pair, want.pair)
            np.testing.assert_array_equal(got.docs, want.docs)
            np.testing.assert_array_equal(got.count, want.count)
            np.testing.assert_array_equal(got.scores, want.scores)
