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
= newer createdAt first).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from workbench.core.models.decision_memory.constants import Constants
from workbench.core.models.decision_memory.facts import (
    ARCHIVED,
    DURABLE,
    IMPORTANT,
    KB,
    MANUAL,
    OPERATIONAL,
    SUPERSEDED,
    TURN,
)
from workbench.core.models.decision_memory.params import GATES
from workbench.core.models.decision_memory.prepared import DecisionMemoryPrepared
from workbench.core.params import Params
from workbench.core.ranking import Scores

F64 = NDArray[np.float64]
B = NDArray[np.bool_]
# the bonuses in scoreDecision's order of addition
BONUSES = ("locality", "important", "manual", "kb", "retrieval", "injection", "superseded",
           "age")
HISTOGRAM_CELLS = 50_000_000  # above: the limit by sorting the survivors


class Live:
    """One tick's arrays over the prepared pairs (kept for explain and contributions)."""

    def __init__(self, prep: DecisionMemoryPrepared, params: Params) -> None:
        self.prep, self.c = prep, Constants.from_params(params)
        self._query_settings(params)
        self._lexical(str(params["token_weights"]))
        gate = self._scoring_gates()
        # bonuses only where no scoring gate holds (the rest score 0 whatever they add; their
        # contributions are computed when asked for)
        scored = np.flatnonzero(gate == 0)
        self.final: F64 = np.zeros(len(gate))
        self.final[scored] = self.at(scored)["final"]
        below = scored[self.final[scored] < self.q_min_score[prep.pair_query[scored]]]
        gate[below] = GATES.index("below_min_score") + 1
        self._limit(gate)
        self.gate = gate

    def _query_settings(self, params: Params) -> None:
        prep, c = self.prep, self.c
        mode = str(params["mode"])
        own = mode == "query"
        q_mode = np.asarray([s.mode for s in prep.specs], np.int8)
        q_proj = np.asarray([s.project_only for s in prep.specs], np.int8)
        q_min = np.asarray([s.min_score for s in prep.specs], np.float64)
        q_lim = np.asarray([s.limit for s in prep.specs], np.int64)
        n = len(prep.specs)
        inj: B = (q_mode != 0) if own else np.full(n, mode == "injection")
        self.q_injection = inj
        self.q_project_only: B = np.where(own & (q_proj >= 0), q_proj == 1,
                                          inj & (not bool(params["global_inject"])))
        self.q_min_score: F64 = np.where(own & ~np.isnan(q_min), q_min, np.where(
            inj, c.inject_min_score, c.search_min_score))
        self.q_limit = np.where(own & (q_lim >= 0), q_lim,
                                np.where(inj, c.inject_limit, c.search_limit))

    def _lexical(self, source: str) -> None:
        prep, c = self.prep, self.c
        qt_query = np.repeat(np.arange(len(prep.specs)), prep.n_tokens)
        log = np.where(self.q_project_only[qt_query], prep.qt_log_project, prep.qt_log_all)
        if source == "none":
            self.weight: F64 = np.full(len(log), c.absent_weight)
        else:
            self.weight = np.where(np.isnan(log), c.absent_weight,
                                   c.idf_base + np.minimum(c.idf_cap, log))
        base = np.asarray(c.location_weights())
        self.entry = base[prep.e_loc] * self.weight[prep.e_qt]
        n = len(prep.pair_query)
        self.raw_lexical: F64 = np.bincount(prep.e_pair, weights=self.entry,
                                            minlength=n).astype(np.float64, copy=False)
        self.pair_injection: B = self.q_injection[prep.pair_query]
        self.pair_tokens = prep.n_tokens[prep.pair_query]

    def _scoring_gates(self) -> NDArray[np.int8]:
        """scoreDecision's gates and the candidate filters, in code order; the first that
        holds is recorded (1 + its index in GATES)."""
        prep, c, f = self.prep, self.c, self.prep.flags
        inj, pq = self.pair_injection, prep.pair_query

        def bit(b: int) -> B:
            out: B = (f & b) != 0
            return out

        non_manual = inj & ~bit(MANUAL)
        conditions = (
            bit(ARCHIVED),
            self.q_project_only[pq] & ~prep.in_project,
            inj & bit(SUPERSEDED),
            self.pair_tokens == 0,
            self.raw_lexical == 0,
            inj & (prep.strong < c.min_strong),
            inj & (prep.meaningful < c.min_meaningful),
            inj & (self.pair_tokens >= c.long_query_tokens)
            & (prep.meaningful < c.long_query_meaningful),
            inj & bit(TURN),
            non_manual & bit(OPERATIONAL),
            non_manual & ~bit(DURABLE),
        )
        gate = np.zeros(len(f), np.int8)
        for code in range(len(conditions), 0, -1):  # the first gate in order wins
            gate[conditions[code - 1]] = code
        return gate

    def at(self, idx: NDArray[np.intp]) -> dict[str, F64]:
        """The damped lexical score, each bonus, the total before rounding and the final
        score at pairs `idx`, float64 (n,) each, added as scoreDecision adds."""
        prep, c, d = self.prep, self.c, self.prep.docs
        f, doc, inj = prep.flags[idx], prep.pair_doc[idx], self.pair_injection[idx]
        lexical = self.raw_lexical[idx]
        q = self.pair_tokens[idx]
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

    def _limit(self, gate: NDArray[np.int8]) -> None:
        """Gate the survivors ranked after their query's limit (score descending, then
        candidate order). Final scores are integers: per query, a histogram of the
        survivors' scores gives the score of the last one kept; of those tied at it, the
        first in candidate order are kept. No sort (a sort of every survivor is the
        fallback when the score range is huge)."""
        pq, n_q, limit = self.prep.pair_query, len(self.prep.specs), self.q_limit
        alive = np.flatnonzero(gate == 0)
        counts = np.bincount(pq[alive], minlength=n_q)
        if not len(alive) or (counts <= limit).all():
            return
        aq, score = pq[alive], self.final[alive].astype(np.int64)
        width = int(score.max()) + 1
        if n_q * width > HISTOGRAM_CELLS:
            out = _sorted_over_limit(alive, aq, self.final[alive], counts, limit)
        else:
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
            out = alive[(score < cut[aq]) | (tied & (tie_rank >= limit[aq] - above[aq]))]
        gate[out] = GATES.index("over_limit") + 1

    def parts(self, pairs: NDArray[np.intp]) -> F64:
        """float64 (9, n): the signals' contributions at the given pairs."""
        v = self.at(pairs)
        return np.stack([v["lexical"], v["locality"], v["important"], v["manual"], v["kb"],
                         v["retrieval"] + v["injection"], v["superseded"], v["age"],
                         v["final"] - v["total"]])

    def scores(self, signals: tuple[str, ...]) -> Scores:
        prep = self.prep
        return Scores(row_ptr=prep.row_ptr, docs=prep.pair_doc,
                      total=np.where(self.gate == 0, self.final, 0.0), gate=self.gate,
                      signals=signals, parts=self.parts, gates=GATES)


def _sorted_over_limit(alive: NDArray[np.intp], aq: NDArray[np.int64], score: F64,
                       counts: NDArray[np.int64], limit: NDArray[np.int64]) -> NDArray[np.intp]:
    """The survivors after their query's limit, by a sort (score descending, then pair)."""
    order = np.lexsort((alive, -score, aq))
    start = np.concatenate([[0], np.cumsum(counts)[:-1]])
    rank = np.arange(len(order)) - start[aq[order]]
    out: NDArray[np.intp] = alive[order][rank >= limit[aq[order]]]
    return out
