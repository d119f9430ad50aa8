"""Which trial a study keeps: the surest gain over the starting values, not the luckiest.

A study's highest training mean is the maximum of many noisy estimates, so it is biased up:
with a few dozen queries and many parameters the top trial is often one that fit the training
queries' quirks, and it does worse than the starting values on queries it never saw. The
`bound` rule keeps instead the trial whose gain over the starting values is largest at its
lower bound — the mean of its per-query gains on the training queries less `errors(n)`
standard errors, Student's t for its n queries at the one-sided level `Z` = 2 standard errors
give on many (2.0 for a few hundred queries, 2.1 for 30, 2.9 for 5, 14 for 2; a normal 2 had
made a bound from two queries six times too narrow, and one query's, with no spread, no bound
at all) — among the `CANDIDATES` best by training mean, and keeps the starting values when no
trial's bound is above 0 (or no bound exists: fewer than 2 training queries): a paired
comparison with the start, like the held-out test's, used to choose. (Measured before it
became the default, 2026-11-27, with a normal 2: three seeds, 60 TPE trials each, mean
held-out change against the starting values, training maximum → bound:
BM25 nDCG@10 on Cranfield and CISI (5-fold) +0.0027 → +0.0005 and −0.0097 → −0.0012, on
SciFact (train → test) +0.0001 → 0; hybrid on SciFact (train → test) +0.0185 → +0.0188, on
Cranfield (5-fold) +0.0364 → +0.0392; codeledger bundle recall,
time split, on httpx −0.0185 → −0.0028, ky −0.0052 → 0, this repository −0.0330 → 0.)

`best` keeps the highest training mean, as optuna's `best_trial` does.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np
from numpy.typing import NDArray
from optuna.trial import FrozenTrial

PICKS = ("bound", "best")
Z = 2.0  # standard errors below the mean gain on many queries: a one-sided 2.3 % test
LEVEL = NormalDist().cdf(Z)  # … the level Student's t keeps for fewer
CANDIDATES = 20  # trials re-scored per query, the best by training mean


@dataclass(frozen=True)
class Pick:
    trial: FrozenTrial | None  # None: the starting values are kept
    bound: float  # the kept trial's lower bound of gain (NaN for `best`; 0 for the start)
    top: FrozenTrial  # the highest training mean, for the report
    n: int = 0  # the training queries behind the bounds (with a gain): `errors(n)` was used


def errors(n: int) -> float:
    """The standard errors a bound from `n` per-query gains lies below their mean: Student's
    t quantile at `LEVEL` with n − 1 degrees of freedom (→ `Z` for many queries); infinite
    below 2 queries (no spread to measure: no bound)."""
    if n < 2:
        return math.inf
    from scipy.stats import t

    return float(t.ppf(LEVEL, n - 1))


def lower_bound(gain: NDArray[np.float64]) -> float:
    """Mean of the per-query gains less `errors(n)` standard errors (NaN entries ignored);
    NaN for fewer than 2 gains."""
    g = gain[~np.isnan(gain)]
    if g.size < 2:
        return math.nan
    se = float(g.std(ddof=1)) / math.sqrt(g.size)
    return float(g.mean()) - errors(g.size) * se


def pick_trial(ranked: Sequence[FrozenTrial], how: str,
               per_query: Callable[[FrozenTrial], NDArray[np.float64]],
               start: NDArray[np.float64], sign: float, start_feasible: bool) -> Pick:
    """`ranked`: the feasible trials, best training mean first; `per_query(trial)`: the
    primary objective on every training query (NaN elsewhere); `start`: the same at the
    starting values; `sign`: +1 when the objective is maximised, −1 when minimised. When the
    start breaks a constraint it cannot be kept, and the surest feasible trial is taken."""
    if not ranked:
        raise ValueError("no feasible trial to pick from")
    top = ranked[0]
    if how == "best":
        return Pick(top, math.nan, top)
    if how != "bound":
        raise ValueError(f"pick must be one of {', '.join(PICKS)}")
    gains = [sign * (per_query(t) - start) for t in ranked[:CANDIDATES]]
    bounds = [lower_bound(g) for g in gains]
    counts = [int((~np.isnan(g)).sum()) for g in gains]
    usable = [i for i, b in enumerate(bounds) if not math.isnan(b)]
    if not usable:  # fewer than 2 training queries: no gain can be sure
        return Pick(None if start_feasible else top, 0.0 if start_feasible else math.nan, top,
                    max(counts))
    i = max(usable, key=lambda j: (bounds[j], -j))  # ties: the better training mean
    if start_feasible and bounds[i] <= 0.0:
        return Pick(None, 0.0, top, counts[i])
    return Pick(ranked[i], bounds[i], top, counts[i])


def start_kept_because(how: str) -> str:
    """Why a study kept the starting values under the pick `how`, said of the training
    queries (`best` keeps them where the highest training mean is theirs — the start is each
    study's first trial)."""
    if how == "best":
        return "no trial scored better than the starting values"
    return "no trial's gain was sure"


def bound_text(n: int, noun: str = "queries") -> str:
    """How a bound from `n` training queries was taken, in the report's words: "at 2.0
    standard errors", "at 4.5 standard errors, for 3 training queries" (`noun`: the data's
    own, `data.dataset_nouns`: "training tasks" of a repository)."""
    q = errors(n)
    return (f"at {q:.1f} standard errors" if round(q, 1) <= Z else
            f"at {q:.1f} standard errors, for {n:,} training {noun}")
