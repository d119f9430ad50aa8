"""The signals' sizes the legend orders by: over the whole data, and over the selected
query's top k."""

from __future__ import annotations

from typing import Any

import numpy as np

from workbench.core.session import TuningSession

PAIRS_AT_ONCE = 1 << 16  # pairs read at a time over the whole data (`_data_wide`)


def _data_wide(scores: Any) -> tuple[list[float], bool]:
    """Per signal, the mean size of its contributions over every pair of the data; and
    whether one of them is negative. Read in slices, not as one (signals × pairs) table."""
    n, sums, negative = int(scores.n_pairs), np.zeros(len(scores.signals)), False
    for start in range(0, n, PAIRS_AT_ONCE):
        parts = np.nan_to_num(scores.contributions_of(
            np.arange(start, min(n, start + PAIRS_AT_ONCE), dtype=np.intp)))
        sums += np.abs(parts).sum(axis=1)
        negative = negative or bool((parts < 0).any())
    return (sums / max(n, 1)).tolist(), negative


def _top_k_parts(s: TuningSession) -> tuple[list[float], bool]:
    """Per signal, the sum of its contributions' sizes over the selected query's top k (what
    it draws there); and whether one of them is negative (drawn hatched)."""
    r = s.result
    if r is None or s.query >= r.ranking.docs.shape[0]:
        return [0.0] * (len(r.scores.signals) if r is not None else 0), False
    n = min(s.k, int(r.ranking.count[s.query]), r.ranking.docs.shape[1])
    if n == 0:
        return [0.0] * len(r.scores.signals), False
    parts = np.nan_to_num(r.scores.contributions_of(r.ranking.pair[s.query, :n]))
    return np.abs(parts).sum(axis=1).tolist(), bool((parts < 0).any())
