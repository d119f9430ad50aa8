"""The bundle: the stop rule over each task's ranked candidates, and the confidence.

Files are taken in rank order (ungated candidates only); before taking file i (0-based, its
cost c_i, score s_i, C_i = c_0 + … + c_i) the rules are checked in the document's order and
the first that fails stops the bundle with its reason:

    file_limit    i = max_files
    token_budget  C_i > B, unless C_i ≤ B · (1 + overshoot) and s_i ≥ overshoot_min_score
                  (a "high-value" file may overshoot; any other file that does not fit stops
                  the bundle — it is not skipped)
    sufficiency   i ≥ 1 and (s_0⁺ + … + s_{i−1}⁺) ≥ sufficiency · Σ_all s⁺, where s⁺ =
                  max(s, 0) over all ranked candidates of the task (a task whose candidates
                  all score ≤ 0 never stops on sufficiency)

and `candidates_exhausted` when every candidate was taken. The budget B and max_files come
from `budget_preset` (tight 3000/10, default 8000/25, generous 15000/40), or from the sliders
when it is `custom`. Vectorised over all tasks at once on the (Q, K) ranking.

Confidence (codeledger-scoring.md): with best = the largest strong keyword coverage (strong
IDF mass ÷ task mass) among the task's candidates, terms = informative task terms (found in
at most `broad_df_ratio` of the files):
    LOW    no keyword candidate, best < confidence_low_keyword, or terms < min_terms
    HIGH   best ≥ confidence_high_keyword, a dependency chain (a dependency or fan-out
           candidate), a test pair among the candidates, and keyword candidates ≤
           confidence_max_candidates
    MEDIUM otherwise
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from typing import overload

import numpy as np
from numpy.typing import NDArray

from workbench.core.engine import Ranking, Scores, head, top_k
from workbench.core.models.codeledger.candidates import DEP, FANOUT
from workbench.core.models.codeledger.params import BUDGET_PRESETS, STOP_REASONS
from workbench.core.models.codeledger.prepared import CodeLedgerPrepared
from workbench.core.params import Params

__all__ = ["Bundles", "Reasons", "budget", "bundle_depth", "bundles", "confidence"]


@dataclass(frozen=True)
class Bundles:
    """Per task (Q of them) the bundle = the first `size[q]` entries of the ranking.

    docs:    int32 (Q, K)    the bundle's files, padded with -1
    size:    int64 (Q,)      files in the bundle
    tokens:  float64 (Q,)    tokens it costs
    reason:  int64 (Q,)      index into STOP_REASONS
    stop:    per task, the stop reason's name
    confidence, reasons: per task HIGH/MEDIUM/LOW and the checks behind it (as text, made
                         when a task's is read)
    """

    docs: NDArray[np.int32]
    size: NDArray[np.int64]
    tokens: NDArray[np.float64]
    reason: NDArray[np.int64]
    stop: tuple[str, ...]
    confidence: tuple[str, ...]
    reasons: Sequence[tuple[str, ...]]


def budget(params: Params) -> tuple[int, int]:
    """(token budget, max files) after the preset."""
    preset = str(params["budget_preset"])
    if preset in BUDGET_PRESETS:
        return BUDGET_PRESETS[preset]
    return int(params["token_budget"]), int(params["max_files"])


def _first(fails: NDArray[np.bool_]) -> NDArray[np.int64]:
    """int64 (Q,): first column where `fails`, else the width."""
    if fails.shape[1] == 0:
        return np.zeros(fails.shape[0], np.int64)
    any_ = fails.any(axis=1)
    out: NDArray[np.int64] = np.where(any_, fails.argmax(axis=1), fails.shape[1]).astype(
        np.int64)
    return out


def bundle_depth(prep: CodeLedgerPrepared, params: Params) -> int:
    """How deep a ranking the bundles read: max_files + 1 (the file the limit stops at), or
    the longest candidate list when that is shorter."""
    return min(budget(params)[1] + 1, int(np.diff(prep.row_ptr).max(initial=0)))


def bundles(prep: CodeLedgerPrepared, params: Params, scores: Scores,
            ranking: Ranking) -> Bundles:
    """The bundles over `ranking`, a ranking of `scores` with no selection, at least
    `bundle_depth` deep (a shallower one is ranked again to that depth). The sufficiency
    mass and the candidate counts come from `scores`, so no deeper ranking is needed."""
    limit, tokens_b = budget(params)[1], float(budget(params)[0])
    count, mass = _rankable_counts_and_mass(scores)
    need = np.minimum(count, limit + 1)
    depth = bundle_depth(prep, params)
    if ranking.docs.shape[1] < int(need.max(initial=0)) or (ranking.count < need).any():
        ranking = top_k(scores, depth)
    ranking = head(ranking, depth)  # no rule reads past the file limit
    q, k = ranking.docs.shape
    real = ranking.pair >= 0
    cost = np.where(real, prep.cost[np.where(real, ranking.pair, 0)], 0.0)
    score = np.where(real, ranking.scores, 0.0)
    cum_cost = np.cumsum(cost, axis=1)
    pos = np.maximum(score, 0.0)
    before = np.cumsum(pos, axis=1) - pos  # positive mass taken before i
    mass = mass[:, None]
    col = np.arange(k)[None, :]
    over = cum_cost > tokens_b
    allowed = ((cum_cost <= tokens_b * (1.0 + float(params["overshoot"])))
               & (score >= float(params["overshoot_min_score"])))
    suff = float(params["sufficiency"])
    stops = np.stack([
        _first(np.broadcast_to(col >= limit, (q, k)) & real),
        _first(over & ~allowed & real),
        _first((col >= 1) & (mass > 0) & (before >= suff * mass - 1e-12) & real),
    ])
    n = np.minimum(stops.min(axis=0), count)
    hit = stops == n[None, :]
    reason = np.where(n >= count, 0, 1 + hit.argmax(axis=0)).astype(np.int64)
    inside = col < n[:, None]
    conf, why = confidence(prep, params)
    return Bundles(
        docs=np.where(inside, ranking.docs, -1).astype(np.int32), size=n.astype(np.int64),
        tokens=np.where(inside, cost, 0.0).sum(axis=1),
        reason=reason, stop=tuple(STOP_REASONS[r] for r in reason),
        confidence=conf, reasons=why,
    )


def _rankable_counts_and_mass(scores: Scores) -> tuple[NDArray[np.int64],
                                                         NDArray[np.float64]]:
    """Per task: its ungated candidates, and the sum of their positive scores (a gated pair's
    total is 0, so it adds nothing to the sum)."""
    ptr = scores.row_ptr
    lengths = np.diff(ptr)
    if scores.gate.any():
        ungated = np.zeros(len(scores.gate) + 1, np.int64)
        np.cumsum(scores.gate == 0, out=ungated[1:])
        count: NDArray[np.int64] = ungated[ptr[1:]] - ungated[ptr[:-1]]
    else:
        count = lengths
    mass = np.zeros(len(lengths))
    full = np.flatnonzero(lengths > 0)
    if len(full):
        mass[full] = np.add.reduceat(np.maximum(scores.total, 0.0), ptr[full])
    return count, mass


def _row_any(values: NDArray[np.bool_], ptr: NDArray[np.int64]) -> NDArray[np.bool_]:
    """bool (Q,): whether any of each row's values is true (False for an empty row)."""
    q = len(ptr) - 1
    row = np.repeat(np.arange(q), np.diff(ptr))
    return np.bincount(row[values], minlength=q) > 0


@dataclass(frozen=True)
class _TaskFacts:
    """What confidence reads that no live parameter changes, per task: the best strong
    keyword coverage, the term dfs (flat, with their task), the dependency chain and test
    pair flags."""

    best: NDArray[np.float64]
    df: NDArray[np.int64]
    owner: NDArray[np.int64]
    dep: NDArray[np.bool_]
    tests: NDArray[np.bool_]


_FACTS: weakref.WeakKeyDictionary[CodeLedgerPrepared, _TaskFacts] = weakref.WeakKeyDictionary()


def _task_facts(prep: CodeLedgerPrepared) -> _TaskFacts:
    hit = _FACTS.get(prep)
    if hit is not None:
        return hit
    ptr = prep.row_ptr
    n_q = len(ptr) - 1
    row = np.repeat(np.arange(n_q), np.diff(ptr))
    top = np.zeros(n_q)
    np.maximum.at(top, row, prep.strong)
    facts = _TaskFacts(
        best=np.divide(top, prep.mass, out=np.zeros(n_q), where=prep.mass != 0),
        df=np.fromiter((d for r in prep.term_df for d in r), np.int64),
        owner=np.repeat(np.arange(n_q), [len(r) for r in prep.term_df]),
        dep=_row_any((prep.stages & (DEP | FANOUT)) != 0, ptr),
        tests=_row_any(prep.test_pair, ptr))
    _FACTS[prep] = facts
    return facts


class Reasons(Sequence[tuple[str, ...]]):
    """Per task the checks behind its confidence, as text, made when asked for."""

    def __init__(self, facts: _TaskFacts, terms: NDArray[np.int64],
                 n_keyword: NDArray[np.int64]) -> None:
        self._facts, self._terms, self._n_kw = facts, terms, n_keyword

    def __len__(self) -> int:
        return len(self._terms)

    @overload
    def __getitem__(self, i: int) -> tuple[str, ...]: ...

    @overload
    def __getitem__(self, i: slice) -> list[tuple[str, ...]]: ...

    def __getitem__(self, i: int | slice) -> tuple[str, ...] | list[tuple[str, ...]]:
        if isinstance(i, slice):
            return [self[j] for j in range(len(self))[i]]
        f = self._facts
        return (f"best path/symbol match {float(f.best[i]):.2f}",
                f"{int(self._terms[i])} informative task terms",
                f"{int(self._n_kw[i])} keyword candidates",
                "dependency chain found" if f.dep[i] else "no dependency chain",
                "test pairs found" if f.tests[i] else "no test pairs")


def confidence(prep: CodeLedgerPrepared, params: Params) -> tuple[tuple[str, ...], Reasons]:
    """Per task HIGH / MEDIUM / LOW, and the checks behind it."""
    n_files = max(prep.files.n, 1)
    hi_kw, lo_kw = float(params["confidence_high_keyword"]), float(params["confidence_low_keyword"])
    min_terms, max_cand = int(params["confidence_min_terms"]), int(
        params["confidence_max_candidates"])
    ratio = float(params["broad_df_ratio"])
    f = _task_facts(prep)
    n_q = len(prep.row_ptr) - 1
    terms = np.bincount(f.owner[(f.df > 0) & (f.df <= ratio * n_files)], minlength=n_q)
    n_kw = prep.n_keyword
    low = (n_kw == 0) | (f.best < lo_kw) | (terms < min_terms)
    high = (f.best >= hi_kw) & f.dep & f.tests & (n_kw <= max_cand)
    levels = np.where(low, "LOW", np.where(high, "HIGH", "MEDIUM"))
    return tuple(levels.tolist()), Reasons(f, terms, n_kw)
