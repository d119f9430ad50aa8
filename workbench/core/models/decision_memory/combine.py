"""The live stage of `decision-memory`: scoreDecision and the search around it, vectorised over
every (query, candidate) pair with the current parameters.

Per query: its mode (injection or manual search), project-only, min score and limit (its own
context's in mode "query", else the parameters'). Per query token: its weight,
base + min(cap, ln((N+1)/(df+1))) over the query's candidates (project-only or all), or the
absent weight. Per pair, as scoreDecision adds them:

    lexical = Σ_tokens base[location] · weight           (bincount, in token order)
    lexical = max(1, round(lexical · √(n/q)))            injection, q > n = damping_tokens
    total   = lexical + locality + important + manual + kb + retrieval + injection
              + superseded + age                         (one addition each, in this order)
    final   = max(0, round(total))                       round = Math.round (halves up)

then the gates in code order (the first that holds is recorded; see params.GATES), the min
score and, per query, the limit among the survivors (score descending, then candidate order
= newer createdAt first; an eval case's own corpus order).
"""

from __future__ import annotations

import weakref

import numpy as np
from numpy.typing import NDArray

from workbench.core.formats.pi_memory_settings import parse_disabled_list
from workbench.core.models.decision_memory.constants import Constants
from workbench.core.models.decision_memory.facts import (
    IMPORTANT,
    KB,
    MANUAL,
    SUPERSEDED,
)
from workbench.core.models.decision_memory.floor import (
    Rows,
    floor_queries,
    over_limit_sorted,
    widen,
)
from workbench.core.models.decision_memory.params import GATES, SIGNALS
from workbench.core.models.decision_memory.prepared import DecisionMemoryPrepared
from workbench.core.models.decision_memory.profiles import profile_gates
from workbench.core.models.decision_memory.scoring import PARTIAL
from workbench.core.params import ParamError, Params
from workbench.core.ranking import Scores

F64 = NDArray[np.float64]
B = NDArray[np.bool_]
# the bonuses in scoreDecision's order of addition
BONUSES = ("locality", "important", "manual", "kb", "retrieval", "injection", "superseded",
           "age")
HISTOGRAM_CELLS = 50_000_000  # above: the limit by sorting the survivors
# per prepared set: the gates of the last tick before selection, and what decided them
_LAST_GATES: weakref.WeakKeyDictionary[DecisionMemoryPrepared, tuple[tuple[bytes, ...],
                                       NDArray[np.int8]]] = weakref.WeakKeyDictionary()


class Live:
    """One tick over the prepared pairs: the gate of every pair, the final score of the ungated
    ones; lexical scores and bonuses of other pairs are computed when asked for (`at`)."""

    def __init__(self, prep: DecisionMemoryPrepared, params: Params) -> None:
        self.prep, self.c = prep, Constants.from_params(params)
        self._query_settings(params)
        self._weights(str(params["token_weights"]))
        gate, scored = self._scoring_gates()
        # bonuses only where no scoring gate holds (the rest score 0 whatever they add; their
        # contributions are computed when asked for)
        final = self.at(scored)["final"]
        below = final < self.q_min_score[prep.pair_query[scored]]
        gate[scored[below]] = GATES.index("below_min_score") + 1
        alive, score = scored[~below], final[~below]
        self.q_disabled = self._disabled(str(params["disabled_projects"]))
        floor = floor_queries(prep, self.q_min_score, self.q_disabled)
        self.total: F64 = np.zeros(len(gate))
        if floor.any():  # their limit applies over the widened rows (see `floor`)
            in_floor = floor[prep.pair_query[alive]]
            self.total[alive[in_floor]] = score[in_floor]
            alive, score = alive[~in_floor], score[~in_floor]
        over = self._limit(alive, score)
        if len(over):
            gate[alive[over]] = GATES.index("over_limit") + 1
            keep = np.ones(len(alive), np.bool_)
            keep[over] = False
            alive, score = alive[keep], score[keep]
        self.total[alive] = score
        if self.q_disabled.any():  # the hook returns before anything else: all pairs gated
            off = self.q_disabled[prep.pair_query]
            gate[off] = GATES.index("project_disabled") + 1
            self.total[off] = 0.0
        self.gate = gate
        # what the tick returns: the prepared pairs, or rows widened with score-0 candidates
        self.rows = (widen(prep, floor, self.q_project_only, self.q_limit, gate, self.total)
                     if floor.any() else
                     Rows(prep.row_ptr, prep.pair_doc, self.total, gate, None))

    def _query_settings(self, params: Params) -> None:
        prep, c = self.prep, self.c
        mode = str(params["mode"])
        own = mode == "query"
        q_proj, q_min, q_lim = prep.q_project_only, prep.q_min_score, prep.q_limit
        n = len(prep.specs)
        inj: B = (prep.q_mode != 0) if own else np.full(n, mode == "injection")
        self.q_injection = inj
        self.q_project_only: B = np.where(own & (q_proj >= 0), q_proj == 1,
                                          inj & (not bool(params["global_inject"])))
        self.q_min_score: F64 = np.where(own & ~np.isnan(q_min), q_min, np.where(
            inj, c.inject_min_score, c.search_min_score))
        self.q_limit = np.where(own & (q_lim >= 0), q_lim,
                                np.where(inj, c.inject_limit, c.search_limit))

    def _disabled(self, text: str) -> B:
        """bool (Q,): injection-mode queries whose cwd is disabled (settings.json
        disabledProjects, or the parameter's own list): the hook does nothing for them."""
        try:
            listed = parse_disabled_list(text)
        except ValueError as e:
            raise ParamError(str(e)) from None
        cwds = frozenset(self.prep.disabled_file if listed is None else listed)
        hit = np.asarray([s.cwd is not None and s.cwd in cwds for s in self.prep.specs],
                         np.bool_)
        out: B = hit & self.q_injection
        return out

    def _weights(self, source: str) -> None:
        """Per query token (T,): its weight; the location bases (5,)."""
        prep, c = self.prep, self.c
        qt_query = np.repeat(np.arange(len(prep.specs)), prep.n_tokens)
        log = np.where(self.q_project_only[qt_query], prep.qt_log_project, prep.qt_log_all)
        if source == "none":
            self.weight: F64 = np.full(len(log), c.absent_weight)
        else:
            self.weight = np.where(np.isnan(log), c.absent_weight,
                                   c.idf_base + np.minimum(c.idf_cap, log))
        self.base: F64 = np.asarray(c.location_weights(), np.float64)

    def points(self, e: NDArray[np.intp]) -> F64:
        """float64 (n,): the points of match entries `e` (location base × token weight)."""
        prep = self.prep
        out: F64 = self.base[prep.e_loc[e]] * self.weight[prep.e_qt[e]]
        return out

    def raw_lexical(self, idx: NDArray[np.intp]) -> F64:
        """float64 (n,): the lexical score before damping at pairs `idx`: each pair's points
        added in token order from 0, as scoreDecision adds (and as a bincount would)."""
        ptr = self.prep.e_ptr
        lo = ptr[idx]
        n = ptr[np.asarray(idx) + 1] - lo
        acc: F64 = np.zeros(len(lo))
        at = np.arange(len(lo))
        for j in range(int(n.max(initial=0))):
            at = at[n[at] > j]
            acc[at] += self.points(lo[at] + j)
        return acc

    def _scoring_gates(self) -> tuple[NDArray[np.int8], NDArray[np.intp]]:
        """scoreDecision's gates and the candidate filters, in code order; the first that
        holds is recorded (1 + its index in GATES). Decided per static profile and query
        class, spread over each run of queries of one class. Also the ungated pairs,
        ascending."""
        prep, c = self.prep, self.c
        cls = self.q_injection.astype(np.int8) * 2 + self.q_project_only
        starts = np.flatnonzero(np.diff(cls, prepend=-1))
        ends = [*starts[1:].tolist(), len(cls)] if len(starts) else []  # no queries: no runs
        runs = [(int(cls[q0]), q0, q1) for q0, q1 in zip(starts.tolist(), ends, strict=True)]
        tables = {k: profile_gates(prep.profiles, k >= 2, k % 2 == 1, c) for k, _, _ in runs}
        key = (cls.tobytes(), *(tables[k].tobytes() for k in sorted(tables)))
        cached = _LAST_GATES.get(prep)
        if cached is not None and cached[0] == key:
            gate = cached[1].copy()  # a slider tick that moves no gate: a copy, no gather
        else:
            gate = np.empty(len(prep.profile), np.int8)
            for k, q0, q1 in runs:
                lo, hi = int(prep.row_ptr[q0]), int(prep.row_ptr[q1])
                np.take(tables[k], prep.profile[lo:hi], out=gate[lo:hi])
            _LAST_GATES[prep] = (key, gate.copy())
        scored = self._ungated(gate, tables)
        # a pair whose matches are all worth 0 points scores lexical 0 too: possible only
        # when a location base or a token weight is 0 (points are never negative)
        if len(self.weight) and (np.outer(self.weight, self.base[:PARTIAL + 1]) == 0).any():
            zero = GATES.index("lexical_zero") + 1
            later = np.flatnonzero((gate == 0) | (gate > zero))
            gate[later[self.raw_lexical(later) == 0]] = zero
            scored = scored[gate[scored] == 0]
        return gate, scored

    def _ungated(self, gate: NDArray[np.int8], tables: dict[int, NDArray[np.int8]]
                 ) -> NDArray[np.intp]:
        """The pairs of `gate` that are 0, ascending: from the pair lists of the profiles a
        class lets through when those are short (injection: a few per query), else by a scan
        of every pair."""
        prep = self.prep
        size = np.diff(prep.profile_ptr)
        open_ = {k: np.flatnonzero(t == 0) for k, t in tables.items()}
        if sum(int(size[u].sum()) for u in open_.values()) > len(gate) // 8:
            out: NDArray[np.intp] = np.flatnonzero(gate == 0)
            return out
        lo, hi = prep.profile_ptr[:-1], prep.profile_ptr[1:]
        parts = [prep.by_profile[lo[u]:hi[u]] for us in open_.values() for u in us.tolist()]
        cand = np.unique(np.concatenate(parts)) if parts else np.zeros(0, np.intp)
        out = cand[gate[cand] == 0]  # of its class's profiles, and in a query of that class
        return out

    def at(self, idx: NDArray[np.intp]) -> dict[str, F64]:
        """The damped lexical score, each bonus, the total before rounding and the final
        score at pairs `idx`, float64 (n,) each, added as scoreDecision adds."""
        prep, c, d = self.prep, self.c, self.prep.docs
        pq = prep.pair_query[idx]
        f, doc, inj = prep.flags[idx], prep.pair_doc[idx], self.q_injection[pq]
        lexical = self.raw_lexical(idx)
        q = prep.n_tokens[pq]
        damp = inj & (q > c.damping_tokens)
        if damp.any():
            lexical = lexical.copy()
            scale = np.sqrt(c.damping_tokens / q[damp])
            lexical[damp] = np.maximum(1.0, np.floor(lexical[damp] * scale + 0.5))
        zero = np.zeros(len(idx))
        manual_only = ~inj
        age = prep.age[idx]
        with np.errstate(invalid="ignore"):  # NaN age (no createdAt): no age bonus
            age_bonus = np.where(age < c.fresh_days, c.fresh_bonus, np.where(
                age < c.recent_days, c.recent_bonus, np.where(age > c.old_days,
                                                              -c.old_penalty, zero)))
        out = {
            "lexical": lexical,
            "locality": np.asarray(c.locality_bonuses())[prep.locality[idx]],
            "important": np.where((f & IMPORTANT) != 0, np.where(
                inj, c.important_injection, c.important_search), zero),
            "manual": np.where((f & MANUAL) != 0, np.where(
                inj, c.manual_injection, c.manual_search), zero),
            "kb": np.where((f & KB) != 0, c.kb_bonus, zero),
            "retrieval": np.where(manual_only, np.minimum(d.retrieval[doc], c.retrieval_cap),
                                  zero),
            "injection": np.where(manual_only, np.minimum(d.injection[doc], c.injection_cap),
                                  zero),
            "superseded": np.where(manual_only & ((f & SUPERSEDED) != 0),
                                   -c.superseded_penalty, zero),
            "age": age_bonus,
        }
        total = lexical.copy()
        for name in BONUSES:
            total += out[name]  # one addition per bonus, as scoreDecision adds
        out["total"] = total
        out["final"] = np.maximum(0.0, np.floor(total + 0.5))
        return out

    def _limit(self, alive: NDArray[np.intp], final: F64) -> NDArray[np.intp]:
        """Of the survivors `alive` (ascending) with their final scores, the positions of
        those ranked after their query's limit (score descending, then candidate order).
        Final scores are integers: per query, a histogram of the survivors' scores gives the
        score of the last one kept; of those tied at it, the first in candidate order are
        kept. No sort (a sort of every survivor is the fallback when the score range is
        huge)."""
        pq, n_q, limit = self.prep.pair_query, len(self.prep.specs), self.q_limit
        none = np.zeros(0, np.intp)
        aq = pq[alive]
        counts = np.bincount(aq, minlength=n_q)
        if not len(alive) or (counts <= limit).all():
            return none
        score = final.astype(np.int64)
        width = int(score.max()) + 1
        if n_q * width > HISTOGRAM_CELLS:
            return over_limit_sorted(aq, final, limit)
        hist = np.bincount(aq * width + score, minlength=n_q * width).reshape(n_q, width)
        at_least = np.cumsum(hist[:, ::-1], axis=1)[:, ::-1]  # survivors scoring ≥ s
        enough = at_least >= limit[:, None]
        cut = np.where(counts > limit, width - 1 - np.argmax(enough[:, ::-1], axis=1), -1)
        above = np.where(cut + 1 < width, at_least[np.arange(n_q), np.minimum(
            cut + 1, width - 1)], 0)
        tied = score == cut[aq]
        c = np.cumsum(tied)
        first = np.searchsorted(aq, np.arange(n_q))
        before = np.concatenate([[0], c])[first]
        tie_rank = c - 1 - before[aq]
        out: NDArray[np.intp] = np.flatnonzero(
            (score < cut[aq]) | (tied & (tie_rank >= limit[aq] - above[aq])))
        return out

    def parts(self, pairs: NDArray[np.intp]) -> F64:
        """float64 (9, n): the signals' contributions at the given pairs."""
        v = self.at(pairs)
        return np.stack([v["lexical"], v["locality"], v["important"], v["manual"], v["kb"],
                         v["retrieval"] + v["injection"], v["superseded"], v["age"],
                         v["final"] - v["total"]])

    def widened_parts(self, pairs: NDArray[np.intp]) -> F64:
        """float64 (9, n): the signals' contributions at pairs of widened rows: 0 for a
        returned candidate that scores 0 through a gate or no match (they add up to its
        score), else the prepared pair's."""
        src = self.rows.src
        assert src is not None
        at = src[pairs]
        show = (at >= 0) & ((self.rows.gate[pairs] != 0) | (self.gate[np.maximum(at, 0)] == 0))
        out: F64 = np.zeros((len(SIGNALS), len(pairs)))
        out[:, show] = self.parts(at[show])
        return out

    def scores(self, signals: tuple[str, ...]) -> Scores:
        r = self.rows
        return Scores(row_ptr=r.row_ptr, docs=r.doc, total=r.total, gate=r.gate,
                      signals=signals, parts=self.parts if r.src is None else
                      self.widened_parts, gates=GATES)
