"""The live stage of the hybrid model: OpenVault's blend over every (query, memory) pair.

    total = floor(importance · e^(−λ·distance)) + alpha·W·v + (1 − alpha)·W·g

in that order of addition, as calculateScore adds. v and g are the normalised vector and BM25
components (see `normalize`). Each part is kept, dense (Q, N), in a `LiveCache` between ticks and
recomputed only when its own parameters move: the vector factor (normalisation, threshold,
rrf k), the BM25 factor (normalisation, rrf k, k1, b, entity boost; from the raw scores of the
pairs with a matching term and the postings' saturation per k1, b) and the forgetting curve
(λ, floor). An alpha or W tick is then three passes over (Q, N).

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

from workbench.core.models.hybrid.index import TermIndex
from workbench.core.models.hybrid.normalize import (
    bm25_factor,
    bm25_ranks,
    vector_factor,
    vector_ranks,
    vector_stats,
)
from workbench.core.models.hybrid.prepared import HybridPrepared
from workbench.core.models.hybrid.scoring import effective_threshold
from workbench.core.params import Params
from workbench.core.ranking import Scores

F64 = NDArray[np.float64]


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


def dense_factor(prep: HybridPrepared, g: F64, g_zero: F64) -> F64:
    """float64 (Q, N): the BM25 factor of every pair (g_zero where no query term occurs)."""
    out = np.empty((prep.n_queries, prep.n_docs))
    out[:] = g_zero[:, None]
    out.reshape(-1)[prep.index.cand_flat] = g
    return out


def base_table(prep: HybridPrepared, base_lambda: float, floor: float) -> F64 | None:
    """float64 (Q, N) the forgetting curve after the importance-5 floor, None where it applies
    nowhere. λ = 0 means no decay (JavaScript would give NaN for an infinite distance)."""
    if prep.curve is None:
        return None
    imp = prep.importance
    lam = base_lambda / (imp * imp)
    with np.errstate(invalid="ignore"):
        exponent = -lam[None, :] * prep.distance()
    exponent[np.isnan(exponent)] = 0.0
    base = imp[None, :] * np.exp(exponent)
    fives = imp == 5
    if fives.any():
        base[:, fives] = np.maximum(base[:, fives], floor)
    base[~prep.curve] = 0.0
    out: F64 = base
    return out


class Blend:
    """One tick's arrays, and the contributions at any pairs (the Scores' PartsFn)."""

    def __init__(self, prep: HybridPrepared, params: Params, cache: LiveCache) -> None:
        ix = prep.index
        self.prep = prep
        self.cache = cache
        self.alpha = float(params["alpha"])
        self.weight = float(params["combined_boost_weight"])
        # "no threshold" is a real 0, which OpenVault's `threshold || 0.5` never reaches
        self.threshold = (0.0 if params.get("no_vector_threshold")
                          else effective_threshold(float(params["vector_threshold"])))
        mode = str(params["normalization"])
        k = int(params["rrf_k"]) if mode == "rrf" else 0  # k matters to rrf only
        self.vfac: F64 = cache.get(prep, "vector", (mode, self.threshold, k), lambda: (
            vector_factor(mode, prep.sims, self.threshold, k,
                          lambda: cache.get(prep, "vstats", None,
                                            lambda: vector_stats(prep.sims)),
                          lambda: cache.get(prep, "vranks", None,
                                            lambda: vector_ranks(prep.sims)))))
        curve = (float(params["base_lambda"]), float(params["importance5_floor"]))
        self.base: F64 | None = cache.get(prep, "base", curve,
                                          lambda: base_table(prep, *curve))
        k1, b, ebw = float(params["k1"]), float(params["b"]), float(params["entity_boost_weight"])
        self.raw: F64 = cache.get(prep, "raw", (k1, b, ebw), lambda: raw_bm25(
            ix, cache.get(prep, "saturation", (k1, b), lambda: saturation(ix, k1, b)), k1, ebw))
        self.g, self.g_zero = cache.get(prep, "bm25", (mode, k, k1, b, ebw), lambda: bm25_factor(
            mode, self.raw, ix.cand_query, ix.cand_ptr, prep.n_docs, k,
            lambda: bm25_ranks(self.raw, ix.cand_query, ix.cand_ptr)))
        self.gd: F64 = cache.get(prep, "bm25_dense", (mode, k, k1, b, ebw),
                                 lambda: dense_factor(prep, self.g, self.g_zero))

    def total(self) -> F64:
        """float64 (Q·N,): base + alpha·W·v, then + (1 − alpha)·W·g, as the original adds."""
        total: F64 = np.multiply(self.vfac.reshape(-1), self.alpha * self.weight)
        if self.base is not None:
            np.add(self.base.reshape(-1), total, out=total)
        bm25 = np.multiply(self.gd.reshape(-1), (1 - self.alpha) * self.weight,
                           out=self.cache.scratch(len(total)))
        total += bm25
        return total

    def parts(self, pairs: NDArray[np.intp]) -> F64:
        """float64 (3, n): base, vector and BM25 contributions at the given pairs."""
        out = np.zeros((3, len(pairs)))
        if self.base is not None:
            out[0] = self.base.reshape(-1)[pairs]
        out[1] = self.alpha * self.weight * self.vfac.reshape(-1)[pairs]
        out[2] = (1 - self.alpha) * self.weight * self.gd.reshape(-1)[pairs]
        return out


def combine_hybrid(prep: HybridPrepared, params: Params, cache: LiveCache,
                   signals: tuple[str, ...]) -> Scores:
    blend = Blend(prep, params, cache)
    return Scores(row_ptr=prep.row_ptr, docs=prep.docs, total=blend.total(), gate=prep.gate,
                  signals=signals, parts=blend.parts)
