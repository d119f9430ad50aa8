"""Prepare: everything the live parameters do not touch.

Per memory: which phrases fired per category, the exclamation count, tier, outcome, mentions,
dismissals, superseded/contradicts flags and the timestamps. Per distinct pinned `now`: the days
since each memory's last access. Per (query, memory) candidate: the relevance's postings (BM25
term statistics from the `bm25` baseline, so k1 and b stay live). Nothing reads the wall clock.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from workbench.core.data import Dataset, Document
from workbench.core.engine import NO_PROGRESS, Progress
from workbench.core.models.bm25 import BM25Model, BM25Prepared
from workbench.core.models.decision_memory.project import parse_time
from workbench.core.models.importance.rules import (
    CATEGORIES,
    DAY_S,
    OUTCOMES,
    TIERS,
    Memory,
    exclamations,
    fired_phrases,
    outcome_index,
    tier_index,
)
from workbench.core.params import Params


@dataclass(frozen=True)
class ImportancePrepared:
    """Prepared arrays of N memories, Q queries, U distinct clocks, P candidate pairs.

    fired:        bool (C, N)      category c fired by a phrase (C = len(CATEGORIES))
    phrases:      per memory, category → the phrases that fired it
    exclaim:      int64 (N,)       '!' in the text
    tier:         int64 (N,)       index into TIERS, or -1 when missing/unknown
    outcome:      int64 (N,)       index into OUTCOMES, or -1
    mentions:     int64 (N,)       `mentions` (else 1; else `access_count` first where
                                   `mentions_from_access`)
    dismissals:   int64 (N,)
    superseded:   bool (N,)        `superseded_by` set (or `superseded` true)
    contradicts:  bool (N,)        `contradicts` names an earlier memory
    inactive:     float64 (U, N)   days from last access (else created_at) to each clock;
                                   0 where the memory has no timestamp
    query_clock:  int64 (Q,)       which clock each query uses
    query_n_terms: float64 (Q,)    distinct query terms some memory holds
    bm25:         the relevance's term statistics; its row_ptr/cand are the candidates
    pair_flat:    intp (P,)        each pair's (clock, memory) as clock · N + memory: one gather
                                   takes any (U, N) table onto the pairs
    coverage:     float64 (P,)     the coverage relevance (no live parameter touches it)
    """

    n_docs: int
    fired: NDArray[np.bool_]
    phrases: list[dict[str, list[str]]]
    exclaim: NDArray[np.int64]
    tier: NDArray[np.int64]
    outcome: NDArray[np.int64]
    mentions: NDArray[np.int64]
    dismissals: NDArray[np.int64]
    superseded: NDArray[np.bool_]
    contradicts: NDArray[np.bool_]
    clocks: NDArray[np.float64]
    inactive: NDArray[np.float64]
    query_clock: NDArray[np.int64]
    query_n_terms: NDArray[np.float64]
    bm25: BM25Prepared
    pair_flat: NDArray[np.intp]
    coverage: NDArray[np.float64]

    def memory(self, doc: int, text: str, clock: int, default_tier: str) -> Memory:
        """Memory `doc` as the scalar rules read it."""
        t, o = int(self.tier[doc]), int(self.outcome[doc])
        return Memory(text=text, tier=TIERS[t] if t >= 0 else default_tier,
                      outcome=OUTCOMES[o] if o >= 0 else "",
                      mentions=int(self.mentions[doc]),
                      days_inactive=float(self.inactive[clock, doc]),
                      dismissals=int(self.dismissals[doc]),
                      superseded=bool(self.superseded[doc]),
                      contradicts=bool(self.contradicts[doc]))


_MOST = 10 ** 9  # far past where every rule saturates (repetition cap, dismissal cap)


def _int(meta: Any, *names: str, default: int) -> int:
    """The first of `names` that holds a finite number, as a count in [0, 10**9] (a negative
    count means none; a huge one saturates every rule long before, and fits int64)."""
    for name in names:
        v = meta.get(name)
        if isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v):
            return int(min(max(v, 0), _MOST))
    return default


def last_access_ms(doc: Document) -> float:
    """`last_accessed`, else `created_at` (ISO 8601), in ms; NaN when neither parses."""
    t = parse_time(doc.metadata.get("last_accessed"))
    return t if not math.isnan(t) else parse_time(doc.metadata.get("created_at"))


def default_clock(dataset: Dataset, params: Params) -> float:
    """The `now` parameter, else the newest timestamp in the corpus, in ms (NaN when none)."""
    t = parse_time(str(params["now"]))
    if not math.isnan(t):
        return t
    stamps = [parse_time(d.metadata.get(k)) for d in dataset.corpus
              for k in ("created_at", "last_accessed")]
    finite = [s for s in stamps if not math.isnan(s)]
    return max(finite) if finite else math.nan


def prepare_importance(dataset: Dataset, params: Params,
                       progress: Progress = NO_PROGRESS) -> ImportancePrepared:
    docs = dataset.corpus.documents
    n = len(docs)
    phrases = [fired_phrases(d.text) for d in docs]
    fired = np.array([[bool(p[c]) for p in phrases] for c in CATEGORIES], bool).reshape(-1, n)
    meta = [d.metadata for d in docs]
    tier = np.array([tier_index(m.get("tier")) for m in meta], np.int64)
    outcome = np.array([outcome_index(m.get("outcome")) for m in meta], np.int64)
    progress(0.3, "boost phrases found")
    fallback = default_clock(dataset, params)
    query_ms = [parse_time(q.context.get("now")) for q in dataset.queries]
    query_ms = [fallback if math.isnan(t) else t for t in query_ms]
    clocks, query_clock = np.unique(np.asarray(query_ms, np.float64), return_inverse=True)
    access = np.array([last_access_ms(d) for d in docs], np.float64)
    inactive = np.nan_to_num((clocks[:, None] - access[None, :]) / (DAY_S * 1000.0), nan=0.0)
    bm25 = BM25Model()
    bparams = bm25.schema.resolve({k: params[k] for k in ("fields", "stop_words", "stemmer")})
    stats: BM25Prepared = bm25.prepare(dataset, bparams, progress.span(0.4, 1.0))
    n_terms = np.bincount(stats.qterm_query, minlength=len(dataset.queries)).astype(np.float64)
    query_clock = np.asarray(query_clock, np.int64).reshape(-1)
    n_pairs = len(stats.cand)
    pair_query = np.repeat(np.arange(len(stats.row_ptr) - 1), np.diff(stats.row_ptr))
    matched = np.bincount(stats.post_pair, minlength=n_pairs).astype(np.float64)
    mention_fields = (("mentions", "access_count") if params["mentions_from_access"]
                      else ("mentions",))
    return ImportancePrepared(
        n_docs=n, fired=fired, phrases=phrases,
        exclaim=np.array([exclamations(d.text) for d in docs], np.int64),
        tier=tier, outcome=outcome,
        mentions=np.array([_int(m, *mention_fields, default=1) for m in meta], np.int64),
        dismissals=np.array([_int(m, "dismissals", default=0) for m in meta], np.int64),
        superseded=np.array([bool(m.get("superseded_by") or m.get("superseded") is True)
                             for m in meta], bool),
        contradicts=np.array([bool(m.get("contradicts")) for m in meta], bool),
        clocks=clocks.astype(np.float64), inactive=inactive,
        query_clock=query_clock, query_n_terms=n_terms, bm25=stats,
        pair_flat=(query_clock[pair_query] * n + stats.cand).astype(np.intp),
        coverage=matched / np.maximum(n_terms[pair_query], 1.0),
    )
