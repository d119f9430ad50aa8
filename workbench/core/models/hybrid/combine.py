"""The live stage of the hybrid model: OpenVault's blend at the scored (query, memory) pairs.

    total = floor(importance · e^(−λ·distance)) + alpha·W·v + (1 − alpha)·W·g

in that order of addition, as calculateScore adds. v and g are the normalised vector and BM25
components (see `normalize`). Over all the scored pairs (`candidates`), each part is kept in a
`LiveCache` between ticks and recomputed only when its own parameters move: the vector factor
(normalisation, threshold, rrf k), the BM25 factor (normalisation, rrf k, k1, b, entity boost;
from the raw scores of the pairs with a matching term and the postings' saturation per k1, b)
and the forgetting curve (λ, floor). Where the factors allow it (`Blend.layout`), a tick
scores only the pairs a ranking to the asked depth can reach: each query's best BM25 matches,
the memories above the threshold and its first memories, a few hundred pairs where all of them
are thousands.

Raw BM25, per query term t (live): count = its count in the user messages + Σ over entities
holding it ceil(weight · entity boost) × its occurrences in the entity's tokens; adjusted =
max(1, round(count · idf/ln(N + 1))) where count > 0; then
raw(q, d) = Σ_t adjusted · idf · tf·(k1 + 1)/(tf + k1·(1 − b + b·dl/avgdl)).
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.typing import NDArray

from workbench.core.models.hybrid import curve_bound
from workbench.core.models.hybrid.candidates import Pairs
from workbench.core.models.hybrid.index import TermIndex
from workbench.core.models.hybrid.normalize import (
    VectorStats,
    bm25_factor,
    bm25_ranks,
    vector_factor,
)
from workbench.core.models.hybrid.prepared import HybridPrepared
from workbench.core.models.hybrid.scoring import effective_threshold
from workbench.core.params import Params
from workbench.core.ranking import Scores
from workbench.core.top_k_csr import csr_top_k

F64 = NDArray[np.float64]
I64 = NDArray[np.int64]


class LiveCache:
    """Per prepared object (weakly held), the newest value of each kind of live array."""

    def __init__(self) -> None:
        self._slots: weakref.WeakKeyDictionary[HybridPrepared, dict[str, tuple[object, Any]]]
        self._slots = weakref.WeakKeyDictionary()
        self._lock = threading.RLock()
        self._local = threading.local()

    def scratch(self, size: int) -> F64:
        """A float64 buffer of `size` owned by the calling thread and reused between ticks:
        its pages are already mapped, where a fresh (Q, N) temporary costs page faults."""
        buf: F64 | None = getattr(self._local, "buf", None)
        if buf is None or len(buf) != size:
            buf = self._local.buf = np.zeros(size)
        return buf

    def last(self, prep: HybridPrepared, kind: str) -> Any:
        """The value `keep` left for this kind (None: none yet)."""
        with self._lock:
            hit = self._slots.get(prep, {}).get(kind)
            return None if hit is None else hit[1]

    def keep(self, prep: HybridPrepared, kind: str, value: Any) -> None:
        with self._lock:
            self._slots.setdefault(prep, {})[kind] = (None, value)

    def get(self, prep: HybridPrepared, kind: str, key: object,
            compute: Callable[[], Any]) -> Any:
        with self._lock:
            slot = self._slots.setdefault(prep, {})
            hit = slot.get(kind)
            if hit is not None and hit[0] == key:
                return hit[1]
            value = compute()
            slot[kind] = (key, value)
            return value


def query_term_counts(ix: TermIndex, entity_boost_weight: float) -> F64:
    """float64 (T,): each query term's count after the entity repeats and the IDF-aware
    adjustment (0 for a term that no longer occurs)."""
    repeats = np.maximum(np.ceil(ix.ent_weight * entity_boost_weight), 0.0)
    count = ix.qt_msg + np.bincount(ix.link_qterm, weights=repeats[ix.link_ent] * ix.link_mult,
                                    minlength=len(ix.qt_msg))
    adjusted = np.maximum(1.0, np.floor(count * ix.qt_ratio + 0.5))  # Math.round
    out: F64 = np.where(count > 0, adjusted, 0.0)
    return out


def saturation(ix: TermIndex, k1: float, b: float) -> F64:
    """float64 (P,): tf/(tf + k1·(1 − b + b·dl/avgdl)) of every posting (the factor k1 + 1
    of the numerator goes with the term weight)."""
    tf = ix.post_tf
    out: F64 = ix.post_dlr * (k1 * b)
    out += k1 * (1 - b)
    out += tf
    np.divide(tf, out, out=out)
    return out


def raw_bm25(ix: TermIndex, sat: F64, k1: float, entity_boost_weight: float) -> F64:
    """float64 (C,): the raw BM25 score of every candidate pair."""
    weight = query_term_counts(ix, entity_boost_weight) * ix.qt_idf * (k1 + 1)
    out: F64 = np.bincount(ix.post_cand, weights=sat * weight[ix.post_qterm],
                           minlength=len(ix.cand_flat)).astype(np.float64, copy=False)
    return out


def base_at(prep: HybridPrepared, query: I64, doc: I64, base_lambda: float,
            floor: float) -> F64:
    """float64 (n,): the forgetting curve after the importance-5 floor at each (query, doc);
    0 where the curve does not apply. λ = 0 means no decay (JavaScript would give NaN for an
    infinite distance)."""
    imp = prep.importance[doc]
    lam = base_lambda / (imp * imp)
    with np.errstate(invalid="ignore"):
        exponent = -lam * prep.distance(query, doc)
    exponent[np.isnan(exponent)] = 0.0
    base: F64 = imp * np.exp(exponent)
    fives = imp == 5
    if fives.any():
        base[fives] = np.maximum(base[fives], floor)
    base[~(prep.chat[query] | prep.memory[doc])] = 0.0
    return base


def inert(prep: HybridPrepared) -> dict[str, str]:
    """Parameter → why no value of it changes a score on this prepared data
    (`Model.inert_params`): the forgetting curve's two where it applies to no pair (plain
    BEIR data: its base is 0 at every λ and floor), the floor where no memory under the
    curve has importance 5, and the entity boost where no query's entity adds a term any
    document holds (its repeats then change no query term's weight)."""
    out: dict[str, str] = {}
    if not prep.curve:
        why = ("no query has a chat and no document is an OpenVault memory, so the "
               "forgetting curve applies to no pair: its base is 0")
        out["base_lambda"] = why
        out["importance5_floor"] = why
        # every score is then W × (its vector and BM25 bonuses): W scales them all alike,
        # and no ranking, gate or metric moves with it (SciFact: nDCG@10 0.6952 at W 1, 15
        # and 30; a study had "tuned" it to 30)
        out["combined_boost_weight"] = (
            "with the forgetting curve on no pair every score is this weight times its "
            "bonuses: any weight above 0 scales them all alike, and no ranking or metric "
            "moves with it (at 0 every score is 0)")
    else:
        # the curve covers every memory where some query has a chat, else the memories alone
        under = prep.memory | bool(prep.chat.any())
        if not (under & (prep.importance == 5)).any():
            out["importance5_floor"] = "no memory the forgetting curve applies to has importance 5"
    ix = prep.index
    # a link adds ceil(entity weight · boost) repeats: none for an entity of weight ≤ 0, and
    # a term no document holds has idf 0, so its count weighs nothing
    live = (ix.ent_weight[ix.link_ent] > 0) & (ix.qt_df[ix.link_qterm] > 0)
    if not live.any():
        out["entity_boost_weight"] = (
            "no query has an entity to repeat: entities are read from a chat" if not
            len(ix.ent_query)
            else "no query's entities hold a word any document holds")
    return out


class Blend:
    """One tick's values at the scored pairs (`candidates.Pairs`): over all of them, cached
    between ticks per the parameters each depends on, or at a subset (`layout`)."""

    def __init__(self, prep: HybridPrepared, params: Params, cache: LiveCache,
                 pairs: Pairs | None = None) -> None:
        """`pairs`: other pairs than the prepared ones (some queries scored whole,
        `curve_bound`): nothing of theirs is cached between ticks."""
        ix = prep.index
        self.prep = prep
        self.pairs = prep.pairs if pairs is None else pairs
        self.own = pairs is None  # the prepared pairs: per-pair arrays cached between ticks
        self.params = params
        self.cache = cache
        self.alpha = float(params["alpha"])
        self.weight = float(params["combined_boost_weight"])
        # "no threshold" is a real 0, which OpenVault's `threshold || 0.5` never reaches
        self.threshold = (0.0 if params.get("no_vector_threshold")
                          else effective_threshold(float(params["vector_threshold"])))
        self.mode = str(params["normalization"])
        self.k = int(params["rrf_k"]) if self.mode == "rrf" else 0  # k matters to rrf only
        self.curve = (float(params["base_lambda"]), float(params["importance5_floor"]))
        k1, b, ebw = float(params["k1"]), float(params["b"]), float(params["entity_boost_weight"])
        self.raw: F64 = cache.get(prep, "raw", (k1, b, ebw), lambda: raw_bm25(
            ix, cache.get(prep, "saturation", (k1, b), lambda: saturation(ix, k1, b)), k1, ebw))
        self.bm25_key = (self.mode, self.k, k1, b, ebw)
        self.g, self.g_zero = cache.get(prep, "bm25", self.bm25_key, lambda: bm25_factor(
            self.mode, self.raw, ix.cand_query, ix.cand_ptr, prep.n_docs, self.k,
            lambda: bm25_ranks(self.raw, ix.cand_query, ix.cand_ptr)))

    def _get(self, kind: str, key: object, compute: Callable[[], Any]) -> Any:
        """A per-pair array: cached between ticks for the prepared pairs only."""
        return self.cache.get(self.prep, kind, key, compute) if self.own else compute()

    def _queries(self, at: I64 | None) -> I64:
        pr = self.pairs
        every: I64 = self._get("query_of", None, pr.query_of)
        return every if at is None else every[at]

    def _vector(self, at: I64 | None) -> F64:
        pr = self.pairs
        sims = pr.sim if at is None else pr.sim[at]
        ranks = pr.vrank if at is None else pr.vrank[at]
        query = self._queries(at) if self.mode in ("min-max", "z-score") else None
        return vector_factor(self.mode, sims, self.threshold, self.k,
                             VectorStats(pr.lo, pr.hi, pr.mean, pr.std), ranks, query)

    def _bm25(self, at: I64 | None) -> F64:
        post = self.pairs.post if at is None else self.pairs.post[at]
        out: F64 = self.g_zero[self._queries(at)]
        has = post >= 0
        out[has] = self.g[post[has]]
        return out

    def _base(self, at: I64 | None) -> F64:
        """The curve at the pairs, a zero always +0.0 (a negative importance decayed to
        nothing is −0.0; no total changes but the sign of a zero, `_total_with_curve`)."""
        doc = self.pairs.doc if at is None else self.pairs.doc[at]
        out = base_at(self.prep, self._queries(at), doc.astype(np.int64), *self.curve)
        out += 0.0
        return out

    def vector(self, at: I64 | None = None) -> F64:
        """v at the pairs `at` (all where None)."""
        if at is not None:
            return self._vector(at)
        out: F64 = self._get("vector", (self.mode, self.threshold, self.k),
                             lambda: self._vector(None))
        return out

    def bm25(self, at: I64 | None = None) -> F64:
        """g at the pairs `at` (all where None)."""
        if at is not None:
            return self._bm25(at)
        out: F64 = self._get("bm25_pairs", self.bm25_key, lambda: self._bm25(None))
        return out

    def base(self, at: I64 | None = None) -> F64 | None:
        """The forgetting curve at the pairs `at` (all where None); None where it applies
        nowhere."""
        if not self.prep.curve:
            return None
        if at is not None:
            return self._base(at)
        out: F64 = self._get("base", self.curve, lambda: self._base(None))
        return out

    def total(self, at: I64 | None = None, *, passing: bool = False) -> F64:
        """float64: base + alpha·W·v, then + (1 − alpha)·W·g, as the original adds.
        `passing`: the totals of every pair are read only within this tick (nothing returned
        holds them), so the thread's scratch buffer may hold them (no page faults)."""
        base = self.base(at)
        if at is None and base is not None:
            return self._total_with_curve(base, passing)
        total: F64 = np.multiply(self.vector(at), self.alpha * self.weight)
        if base is not None:
            np.add(base, total, out=total)
        bm25 = np.multiply(self.bm25(at), (1 - self.alpha) * self.weight,
                           out=self.cache.scratch(len(total)))
        total += bm25
        return total

    def _total_with_curve(self, base: F64, passing: bool = False) -> F64:
        """`total` at every pair where the curve applies, in fewer passes: where v is +0.0
        (all but the pairs above the threshold) base + alpha·W·v is base itself — `_base`
        holds no −0.0 — so the total is base + (1 − alpha)·W·g, the same sum in either
        order; the other pairs are added as `total` adds them. Bit for bit `total`'s."""
        v = self.vector()
        key = (self.mode, self.threshold, self.k)
        moved: I64 = self._get("vector_moved", key,
                               lambda: np.flatnonzero(~((v == 0) & ~np.signbit(v))))
        g = self.bm25()
        b = (1 - self.alpha) * self.weight
        total: F64 = np.multiply(g, b, out=self.cache.scratch(len(g)) if passing else None)
        total += base
        if len(moved):
            at_v = np.add(base[moved], np.multiply(v[moved], self.alpha * self.weight))
            at_v += np.multiply(g[moved], b)
            total[moved] = at_v
        return total

    def parts(self, at: I64) -> F64:
        """float64 (3, n): base, vector and BM25 contributions at the pairs `at`."""
        out = np.zeros((3, len(at)))
        base = self.base(at)
        if base is not None:
            out[0] = base
        out[1] = self.alpha * self.weight * self.vector(at)
        out[2] = (1 - self.alpha) * self.weight * self.bm25(at)
        return out

    def layout(self, depth: int | None) -> tuple[I64, I64, object] | None:
        """(pairs, row_ptr, key): the scored pairs a ranking to `depth` (at most the vector
        candidates) needs at this tick, or None where it needs them all.

        Where no memory outside the vector candidates passes the threshold, the vector and
        BM25 factors are ≥ 0 (not z-score) and no forgetting curve applies, the top `depth`
        of a query lie among: its `depth` best BM25 matches by g (ties in memory order), the
        memories whose vector factor is > 0, and its first `depth` memories (the tail, when
        nothing else scores). A memory outside them has v = 0 and `depth` matches ahead of it
        with g at least its own, or ties with the tail behind the first `depth`. A query
        where a memory beyond its vector candidates passes the threshold keeps all its pairs.
        """
        pr = self.pairs
        if self.prep.curve or self.mode == "z-score":
            return None
        d = pr.kept if depth is None else max(1, min(depth, pr.kept))
        tail = (1 - self.alpha) * self.weight == 0
        key = (d, self.threshold, self.bm25_key, tail)  # mode and rrf k are in bm25_key
        # both layouts kept: a drag through alpha 1 (the tail's) and back recomputes neither
        at, row_ptr = self.cache.get(self.prep, f"layout{d}{tail}", key,
                                     lambda: self._layout(d, tail))
        return at, row_ptr, key

    def _layout(self, depth: int, tail: bool) -> tuple[I64, I64]:
        """`tail`: every query needs its first memories (the BM25 bonus is off); otherwise
        only the queries with fewer than `depth` BM25 matches (the matches all score above
        the tail)."""
        pr, ix = self.pairs, self.prep.index
        best: I64 = self.cache.get(self.prep, f"bm25_top{depth}", self.bm25_key,
                                   lambda: csr_top_k(self.g, ix.cand_ptr, depth))
        lengths = np.minimum(np.diff(pr.ptr), depth)
        if not tail:
            lengths[np.diff(ix.cand_ptr) >= depth] = 0
        first = np.arange(int(lengths.sum())) + np.repeat(pr.ptr[:-1] - np.cumsum(lengths)
                                                          + lengths, lengths)
        whole = np.flatnonzero(pr.cos_next > self.threshold)
        size = np.diff(pr.ptr)[whole]
        rows = np.arange(int(size.sum())) + np.repeat(pr.ptr[whole] - np.cumsum(size) + size,
                                                      size)
        at = np.concatenate([pr.post_pair[best[best >= 0]],
                             pr.cos_pair[pr.cos_sim > self.threshold], first, rows])
        at.sort()  # then distinct: np.unique hashes first, several times the cost here
        at = at[np.concatenate(([True], at[1:] != at[:-1]))] if len(at) else at
        return at, np.searchsorted(at, pr.ptr).astype(np.int64)

    def scores(self, signals: tuple[str, ...], depth: int | None) -> Scores:
        pr = self.pairs
        layout = self.layout(depth)
        if layout is None:
            n = pr.n_pairs
            gate = self._get("gate", n, lambda: np.zeros(n, np.int8))
            # the totals of every pair stay within this tick where the bound ranks them and
            # only the ranked pairs' are returned (copied out below)
            passing = pr.bound is not None and self.own and depth is not None
            out = Scores(row_ptr=pr.ptr, docs=pr.doc, total=self.total(passing=passing),
                         gate=gate, signals=signals, parts=self.parts,
                         elsewhere=self.elsewhere)
            if pr.bound is None or not self.own:
                return out
            d = pr.kept if depth is None else max(1, min(depth, pr.kept))
            hint = self.cache.last(self.prep, f"curve_ranking{d}")
            whole, ranking = curve_bound.unbounded(self, out, d, hint)
            self.cache.keep(self.prep, f"curve_ranking{d}", ranking.pair)
            if len(whole):  # those queries scored against every memory this tick
                return Blend(self.prep, self.params, self.cache,
                             curve_bound.expand(self.prep, pr, whole)).scores(signals, depth)
            if depth is None:
                return out
            # exact to `depth` for every query: its ranked pairs are all a ranking reads
            at, row_ptr = curve_bound.ranked_only(out, ranking)

            def ranked_parts(pairs: NDArray[np.intp]) -> F64:
                return self.parts(at[pairs])

            return Scores(row_ptr=row_ptr, docs=pr.doc[at], total=out.total[at],
                          gate=np.zeros(len(at), np.int8), signals=signals,
                          parts=ranked_parts, elsewhere=self.elsewhere)
        at, row_ptr, key = layout
        # v and g at the layout's pairs: an alpha or W tick only blends them
        tail = (1 - self.alpha) * self.weight == 0  # which of the two layouts (`layout`)
        v, g, docs = self.cache.get(self.prep, f"layout_values{tail}", key,
                                    lambda: (self.vector(at), self.bm25(at), pr.doc[at]))
        total: F64 = np.multiply(v, self.alpha * self.weight)
        total += np.multiply(g, (1 - self.alpha) * self.weight)

        def parts(pairs: NDArray[np.intp]) -> F64:
            return self.parts(at[pairs])

        return Scores(row_ptr=row_ptr, docs=docs, total=total,
                      gate=np.zeros(len(at), np.int8), signals=signals, parts=parts,
                      elsewhere=self.elsewhere)

    def whole(self, query: int) -> Blend:
        """This tick with `query` scored against every memory (where the curve bounds what
        the prepared pairs leave out, every memory has a score; else self)."""
        if self.pairs.bound is None or self.prep.rows is None:
            return self
        return Blend(self.prep, self.params, self.cache,
                     curve_bound.expand(self.prep, self.pairs, np.array([query], np.int64)))

    def elsewhere(self, query: int, doc: int) -> tuple[float, F64] | None:
        """(total, contributions (3,)) of a scored pair the layout left out (or, where the
        curve bounds the memories the prepared pairs leave out, of any memory); None where
        the pair is not scored at all."""
        blend = self
        pos = self.pairs.find(query, doc)
        if pos < 0 and self.pairs.bound is not None:
            blend = self.whole(query)
            pos = blend.pairs.find(query, doc)
        if pos < 0:
            return None
        parts = blend.parts(np.array([pos], np.int64))[:, 0]
        return float(parts[0] + parts[1] + parts[2]), parts  # total()'s order of addition


def combine_hybrid(prep: HybridPrepared, params: Params, cache: LiveCache,
                   signals: tuple[str, ...], depth: int | None = None) -> Scores:
    """The scores of a tick: exact for every ranking to `depth` (None: to the vector
    candidates)."""
    return Blend(prep, params, cache).scores(signals, depth)
