"""How many decimals a score column shows: one rule for the window's ranked table and
preview and for `workbench rank`, so that a score reads alike in both (rv 4: rank had looked
only at the rows it printed, the window at every score of the result; rv2 3: rank had taken
only the whole-number decision and printed every other score to 4 decimals, bm25's 2.3426
where the window shows 2.343). rank prints the contributions beside a score to its places,
as the window's preview writes them."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np


def score_decimals(scores: Sequence[float], terms: Sequence[float] | None = None,
                   every: np.ndarray | None = None) -> int:
    """Decimals of a score column, one for all its rows so the digits line up, and for the
    `terms` a score is the sum of, shown beside it: none where every score and term is whole
    and the model's scores are whole numbers (decision-memory's 54): every score of the
    result (`every`, where given, so a query whose scores are 0 and 1 shows them as the
    others do; else `scores`) whole and one past 1. Else about four significant digits of
    the largest score (1.0000, 0.9947, 2.251, 15.32), as the ranked table shows it. Scores
    of 0 and 1 only are a score clamped to [0, 1] (vault-search's): 1.0000, as its other
    scores and `workbench rank` print it (rv52 9: "1" among 0.5735), its clamp −2.0000."""
    finite = [abs(v) for v in scores if not math.isnan(v) and not math.isinf(v)]
    parts = finite + [abs(v) for v in terms or [] if not math.isnan(v) and not math.isinf(v)]
    if not finite:
        return 0
    pool = np.abs(np.asarray(finite if every is None else every, dtype=float))
    pool = pool[np.isfinite(pool)]
    whole = bool(len(pool)) and bool((pool == np.round(pool)).all()) and pool.max() > 1
    if whole and all(v == int(v) for v in parts):
        return 0
    big = max(finite)
    return 4 if big <= 1 else 3 if big < 10 else 2 if big < 100 else 1 if big < 1000 else 0
