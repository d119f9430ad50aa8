"""The bundle: the stop rule over each task's ranked candidates, and the confidence.

Files are read in rank order (ungated candidates only); with C the tokens of the files taken
so far, before taking file i (its cost c_i, score s_i) the rules are checked in the
document's order and the first that fails stops the bundle with its reason:

    file_limit    max_files files are taken
    token_budget  C + c_i > B, unless C + c_i ≤ B · (1 + overshoot) and s_i ≥
                  overshoot_min_score (a "high-value" file may overshoot); a file that does
                  not fit is skipped and the next one read while fewer than `skip_limit`
                  files have been skipped and sufficiency does not stop the bundle here; else
                  it stops the bundle (skip_limit 0, the document's rule: the first file that
                  does not fit stops it)
    sufficiency   a file is taken and (the positive scores s⁺ = max(s, 0) of the files taken)
                  ≥ sufficiency · Σ_all s⁺ over all ranked candidates of the task (a task
                  whose candidates all score ≤ 0 never stops on sufficiency)

and `candidates_exhausted` when every candidate was read. The budget B and max_files come
from `budget_preset` (tight 3000/10, default 8000/25, generous 15000/40), or from the sliders
when it is `custom`. The bundle is the files taken, in rank order; it reads the ranking to
`reach` (the files taken and those skipped, at most max_files + skip_limit + 1 deep).

Vectorised over all tasks at once, a round per skip: from the running totals of the (Q, K)
ranking as if every file were taken (tokens, positive score mass), less what the files
skipped so far took off, each task's first rank past its last skip where a rule fails — the
file limit and sufficiency, once reached, hold at every later rank, so each is a count; the
token rule is the first file whose total is over its cap. The index counts tokens in whole
numbers, so those totals are exact; the score mass is a running sum, as the rule by hand
takes it (less the skipped files' share: equal up to rounding).

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

__all__ = ["Bundles", "Reasons", "budget", "bundle_depth", "bundles", "confidence",
           "skip_limit"]


@dataclass(frozen=True)
class Bundles:
    """Per task (Q of them) the bundle: the files taken from the first `reach[q]` entries of
    the ranking, in rank order; the others there were skipped (over the budget).

    docs:    int32 (Q, K)    at each rank the file when the bundle took it, else -1
                             (`files(q)`: a task's files in rank order)
    size:    int64 (Q,)      files in the bundle
    tokens:  float64 (Q,)    tokens it costs
    reason:  int64 (Q,)      index into STOP_REASONS
    reach:   int64 (Q,)      ranks read: the bundle's files and the skipped ones lie above it
                             (= size when none was skipped)
    skipped: bool (Q, K)     at rank r (0-based) a file skipped for the budget
    stop:    per task, the stop reason's name
    confidence, reasons: per task HIGH/MEDIUM/LOW and the checks behind it (as text, made
                         when a task's is read)
    """

    docs: NDArray[np.int32]
    size: NDArray[np.int64]
    tokens: NDArray[np.float64]
    reason: NDArray[np.int64]
    reach: NDArray[np.int64]
    skipped: NDArray[np.bool_]
    stop: tuple[str, ...]
    confidence: tuple[str, ...]
    reasons: Sequence[tuple[str, ...]]

    def files(self, q: int) -> list[int]:
        """Task q's bundle: its files (corpus positions) in rank order."""
        row = self.docs[q]
        return [int(d) for d in row[row >= 0]]

    def skipped_ranks(self, q: int) -> list[int]:
        """The 0-based ranks of task q's files skipped for the budget."""
        return [int(r) for r in np.flatnonzero(self.skipped[q])]


def budget(params: Params) -> tuple[int, int]:
    """(token budget, max files) after the preset."""
    preset = str(params["budget_preset"])
    if preset in BUDGET_PRESETS:
        return BUDGET_PRESETS[preset]
    return int(params["token_budget"]), int(params["max_files"])


def bundle_depth(prep: CodeLedgerPrepared, params: Params) -> int:
    """How deep a ranking the bundles read: max_files + skip_limit + 1 (the file the limit
    stops at, after every skip), or the longest candidate list when that is shorter."""
    return min(budget(params)[1] + skip_limit(params) + 1,
               int(np.diff(prep.row_ptr).max(initial=0)))


def skip_limit(params: Params) -> int:
    """Files a bundle may skip for the budget (0 where the schema has no such parameter)."""
    return int(params.get("skip_limit", 0))


def bundles(prep: CodeLedgerPrepared, params: Params, scores: Scores,
            ranking: Ranking) -> Bundles:
    """The bundles over `ranking`, a ranking of `scores` with no selection, at least
    `bundle_depth` deep (a shallower one is ranked again to that depth). The sufficiency
    mass and the candidate counts come from `scores`, so no deeper ranking is needed."""
    limit, tokens_b = budget(params)[1], float(budget(params)[0])
    skips_max = skip_limit(params)
    count, mass = _rankable_counts_and_mass(scores)
    need = np.minimum(count, limit + skips_max + 1)
    depth = bundle_depth(prep, params)
    if ranking.docs.shape[1] < int(need.max(initial=0)) or (ranking.count < need).any():
        ranking = top_k(scores, depth)
    ranking = head(ranking, depth)  # no rule reads past the file limit and the skips
    q, k = ranking.docs.shape
    real = ranking.pair >= 0
    cost = np.where(real, prep.cost[np.where(real, ranking.pair, 0)], 0.0)
    pos = np.where(real, np.maximum(ranking.scores, 0.0), 0.0)
    # the tokens a file may bring the bundle to: the budget with the overshoot for a
    # high-value file (overshoot ≥ 0), else the budget
    room = tokens_b * (1.0 + float(params["overshoot"]))
    cap = np.where(ranking.scores >= float(params["overshoot_min_score"]), room, tokens_b)
    enough = np.where(mass > 0, float(params["sufficiency"]) * mass - 1e-12, np.inf)
    # as if every file were taken: how far each file's running total is over what it may
    # bring the bundle to (> 0: it does not fit), and the positive score mass before it; a
    # skipped file's tokens and mass come off them for the ranks after it
    over_by = np.cumsum(cost, axis=1)
    over_by -= cap
    held = np.zeros((q, k))
    np.cumsum(pos[:, :-1], axis=1, out=held[:, 1:])
    col = np.arange(k)
    count_k = np.minimum(ranking.count, k).astype(np.int64)
    stop = count_k.copy()
    by_limit = np.zeros(q, bool)  # the rule at `stop`: the file limit, else the token rule,
    by_budget = np.zeros(q, bool)  # else sufficiency (none past the ranked count)
    skipped = np.zeros((q, k), bool)
    # a round per skip: per task the first rank, past the last file skipped, where a rule
    # fails — the file limit and sufficiency once reached hold for every later rank (their
    # counts only grow), so each is one count — and a file that does not fit there before
    # the files taken are sufficient is skipped while the task may skip, and it goes round
    # again
    off_tokens = np.zeros(q)  # skipped files' tokens and positive mass, per task
    off_mass = np.zeros(q)
    n_skipped = np.zeros(q, np.int64)
    going = np.ones(q, bool) if k else np.zeros(q, bool)  # tasks still read (k 0: none)
    misfit = np.ones((q, k + 1), bool)  # the last column: "none", argmax's k
    ranks = misfit[:, :k]
    every = np.arange(q)
    never = np.full(q, k + 1, np.int64)
    while k:  # k 0: no task has a candidate, all stop at 0
        # every task each round (a done task's figures are not kept): cheaper than
        # gathering the ones still going. Past the ranked count nothing counts (first ≤ n).
        # A skipped rank is -inf in over_by; the ranks before it fit with less off, too
        np.greater(over_by, off_tokens[:, None], out=ranks)
        j_misfit = misfit.argmax(axis=1)
        j_limit = n_skipped + limit
        first = np.minimum(np.minimum(j_misfit, j_limit), count_k)
        # sufficiency, reached at or before `first` where the mass before `first` is enough
        # (held only grows along a row): its rank then, counted for those tasks only
        threshold = enough + off_mass
        reached = (held[every, np.minimum(first, k - 1)] >= threshold) & (first >= 1 + n_skipped)
        j_enough = never.copy()
        if reached.any():
            some = np.flatnonzero(reached)
            j_enough[some] = np.maximum(
                np.count_nonzero(held[some] < threshold[some, None], axis=1), 1 + n_skipped[some])
            np.minimum(first, j_enough, out=first)
        # skipped: a file that does not fit where no other rule stops the bundle, while the
        # task may skip (the token rule comes before sufficiency: a sufficient bundle stops)
        skip = (j_misfit == first) & (j_enough > first) & (j_limit > first)
        skip &= (first < count_k) & (n_skipped < skips_max) & going
        ends = going & ~skip
        stop[ends] = first[ends]
        by_limit[ends] = j_limit[ends] == first[ends]
        by_budget[ends] = j_misfit[ends] == first[ends]
        rows = np.flatnonzero(skip)
        if not len(rows):
            break
        at = first[rows]
        skipped[rows, at] = True
        over_by[rows, at] = -np.inf
        off_tokens[rows] += cost[rows, at]
        off_mass[rows] += pos[rows, at]
        n_skipped[rows] += 1
        going = skip
    reason = np.where(stop >= count_k, 0, np.where(by_limit, 1, np.where(by_budget, 2, 3)))
    inside = real & (col[None, :] < stop[:, None])
    reach = stop
    if skips_max:
        inside &= ~skipped
    docs = np.where(inside, ranking.docs, -1)
    conf, why_conf = confidence(prep, params)
    return Bundles(
        docs=docs.astype(np.int32), size=inside.sum(axis=1).astype(np.int64),
        tokens=np.where(inside, cost, 0.0).sum(axis=1), reason=reason, reach=reach,
        skipped=skipped, stop=tuple(map(STOP_REASONS.__getitem__, reason.tolist())),
        confidence=conf, reasons=why_conf,
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
        terms, n_kw = int(self._terms[i]), int(self._n_kw[i])
        return (f"best path/symbol match {float(f.best[i]):.2f}",
                f"{terms} informative task term{'' if terms == 1 else 's'}",
                f"{n_kw} keyword candidate{'' if n_kw == 1 else 's'}",
                "dependency chain found" if f.dep[i] else "no dependency chain",
                "test pairs found" if f.tests[i] else "no test pairs")


_CONFIDENCE = ("confidence_high_keyword", "confidence_low_keyword", "confidence_min_terms",
               "confidence_max_candidates", "broad_df_ratio")
# the last confidence of each prepared state: no weight or budget changes it
_LEVELS: weakref.WeakKeyDictionary[CodeLedgerPrepared, tuple[
    tuple[object, ...], tuple[tuple[str, ...], Reasons]]] = weakref.WeakKeyDictionary()


def confidence(prep: CodeLedgerPrepared, params: Params) -> tuple[tuple[str, ...], Reasons]:
    """Per task HIGH / MEDIUM / LOW, and the checks behind it (the last one of each prepared
    state is kept: it reads only the confidence parameters)."""
    key = tuple(params[k] for k in _CONFIDENCE)
    hit = _LEVELS.get(prep)
    if hit is not None and hit[0] == key:
        return hit[1]
    out = _confidence(prep, params)
    _LEVELS[prep] = (key, out)
    return out


def _confidence(prep: CodeLedgerPrepared, params: Params) -> tuple[tuple[str, ...], Reasons]:
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
