"""Prepare: everything the live parameters do not touch.

Per memory: which phrases fired per category, the exclamation count, tier, outcome, mentions,
dismissals, superseded/contradicts flags and the timestamps. Per distinct pinned `now`: the days
since each memory's last access. Per (query, memory) candidate: the relevance's postings (BM25
term statistics from the `bm25` baseline, so k1 and b stay live). Nothing reads the wall clock.
"""

from __future__ import annotations

import json
import math
from collections.abc import Container
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from workbench.core.data import Dataset, Document
from workbench.core.engine import NO_PROGRESS, Progress
from workbench.core.models.bm25 import BM25Model, BM25Prepared
from workbench.core.models.decision_memory.project import parse_time
from workbench.core.models.importance.params import rules_from
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
                                   `mentions_from_access`), as `read_count` reads it
    dismissals:   int64 (N,)
    superseded:   bool (N,)        `superseded_by` set (or `superseded` true)
    contradicts:  bool (N,)        `contradicts` names an earlier memory
    inactive:     float64 (U, N)   days from last access (else created_at) to each clock;
                                   0 where the memory has no timestamp (`undated`)
    undated:      bool (N,)        no readable last_accessed or created_at (or no clock): its
                                   days inactive are the live `undated_days`, not `inactive`
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
    undated: NDArray[np.bool_]
    query_clock: NDArray[np.int64]
    query_n_terms: NDArray[np.float64]
    bm25: BM25Prepared
    pair_flat: NDArray[np.intp]
    coverage: NDArray[np.float64]

    def memory(self, doc: int, text: str, clock: int, default_tier: str,
               undated_days: float = 0.0) -> Memory:
        """Memory `doc` as the scalar rules read it."""
        t, o = int(self.tier[doc]), int(self.outcome[doc])
        return Memory(text=text, tier=TIERS[t] if t >= 0 else default_tier,
                      outcome=OUTCOMES[o] if o >= 0 else "",
                      mentions=int(self.mentions[doc]),
                      days_inactive=(undated_days if self.undated[doc]
                                     else float(self.inactive[clock, doc])),
                      dismissals=int(self.dismissals[doc]),
                      superseded=bool(self.superseded[doc]),
                      contradicts=bool(self.contradicts[doc]))


_MOST = 10 ** 9  # far past where every rule saturates (repetition cap, dismissal cap)


def read_count(value: Any) -> tuple[int | None, bool]:
    """A count field's value as the rules read it, and whether it was not a plain count (a
    whole number >= 0) and so deserves a word: a number or a numeric string ("5", "2.7")
    reads as its whole part, at least 0 and at most 10**9 (a huge one saturates every rule
    long before, and fits int64); anything else (true, "often", NaN) as none (None)."""
    if isinstance(value, bool):
        return None, True
    number = value
    if isinstance(value, str):
        if not value.strip():  # "" is absent, as an empty tier or now is
            return None, False
        try:
            number = float(value.strip())
        except ValueError:
            return None, True
    if not isinstance(number, int | float) or not math.isfinite(number):
        return None, value is not None
    count = int(min(max(number, 0), _MOST))
    return count, isinstance(value, str) or (count != number and number < _MOST)


def _int(meta: Any, *names: str, default: int) -> int:
    """The first of `names` that `read_count` reads, else `default`."""
    for name in names:
        count, _ = read_count(meta.get(name))
        if count is not None:
            return count
    return default


def count_notes(meta: Any, names: tuple[str, ...], default: int) -> list[tuple[str, str]]:
    """(field, what was read) for each of `names` whose value is not a plain count, up to the
    one read, the value as the file writes it: ("mentions", '"5" read as 5'), ("mentions",
    "true ignored: 1 mention") where the rules use 1; what `data_warnings` names."""
    got = _int(meta, *names, default=default)
    out = []
    for name in names:
        value = meta.get(name)
        count, odd = read_count(value)
        if odd:
            try:
                shown = json.dumps(value, ensure_ascii=False)
            except (TypeError, ValueError):
                shown = repr(value)
            noun = names[0] if got != 1 else names[0].removesuffix("s")
            out.append((name, f"{shown} read as {count}" if count is not None
                        else f"{shown} ignored: {got} {noun}"))
        if count is not None:
            break
    return out


def link_set(value: Any, rule: str = "set", ids: Container[str] = ()) -> bool:
    """Whether a `superseded_by` or `contradicts` value marks the memory (superseded; a
    contradiction), by the `link_rule` parameter: "set" (the default), any value Python reads
    as true — an id, a number other than 0, a list or object with something in it, even a
    blank text such as " " or `true` — whether or not it names a memory of the corpus;
    "named", a value naming an id (`linked_ids`); "in-corpus", one naming an id of `ids` (the
    corpus's). 0, false, "", [] and {} never do. The document only says "link to new", and has
    no code to follow; `data_warnings` names every value not read as an id of the corpus."""
    if not value:
        return False
    if rule == "set":
        return True
    named = linked_ids(value)
    return bool(named) if rule == "named" else any(i in ids for i in named)


def linked_ids(value: object) -> list[str]:
    """The memory ids a superseded_by or contradicts value names: one id, or a list of them
    (a whole number as its digits; true, a fraction or an object: none, as no id)."""
    values = value if isinstance(value, list | tuple) else [value]
    return [str(v).strip() for v in values if isinstance(v, str | int) and not isinstance(
        v, bool) and str(v).strip()]


def last_access_ms(doc: Document) -> float:
    """`last_accessed`, else `created_at` (ISO 8601), in ms; NaN when neither parses."""
    t = parse_time(doc.metadata.get("last_accessed"))
    return t if not math.isnan(t) else parse_time(doc.metadata.get("created_at"))


def default_clock(dataset: Dataset, params: Params) -> float:
    """The `now` parameter, else the newest timestamp in the corpus, in ms (NaN when none)."""
    return default_clock_source(dataset, params)[0]


def default_clock_source(dataset: Dataset, params: Params) -> tuple[float, str]:
    """`default_clock` and where it comes from, in words."""
    t = parse_time(str(params["now"]))
    if not math.isnan(t):
        return t, "the now parameter"
    newest, rid = math.nan, ""
    for d in dataset.corpus:
        for k in ("created_at", "last_accessed"):
            s = parse_time(d.metadata.get(k))
            if not math.isnan(s) and not s <= newest:  # the first, then any newer one
                newest, rid = s, d.id
    if math.isnan(newest):
        return newest, "no now parameter and no memory with a readable timestamp: no ages"
    return newest, f"the newest created_at/last_accessed in the corpus, memory {rid!r}"


def clock_source(dataset: Dataset, params: Params, query: int) -> tuple[float, str]:
    """The clock query `query` is scored at, in ms (NaN: none, nothing ages), and where it
    comes from in words: its own `now`, else `default_clock_source`."""
    own = dataset.queries[query].context.get("now")
    t = parse_time(own)
    if not math.isnan(t):
        return t, "the query's own now"
    fallback, whence = default_clock_source(dataset, params)
    lead = ("this query has no now of its own" if own in (None, "") else
            f"this query's now {own!r} is not an ISO 8601 date")
    return fallback, f"{whence}; {lead}"


def prepare_importance(dataset: Dataset, params: Params,
                       progress: Progress = NO_PROGRESS) -> ImportancePrepared:
    docs = dataset.corpus.documents
    n = len(docs)
    rules = rules_from(params)
    phrases = [fired_phrases(d.text, rules.phrases, rules.not_but) for d in docs]
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
    days = (clocks[:, None] - access[None, :]) / (DAY_S * 1000.0)
    # no date (or no clock: then no memory has one) is NaN in every row: undated_days, live
    undated = np.asarray(np.isnan(days).any(axis=0) if len(clocks) else np.isnan(access),
                         dtype=np.bool_).reshape(-1)
    inactive = np.nan_to_num(days, nan=0.0)
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
    rule, ids = str(params["link_rule"]), dataset.corpus.index
    return ImportancePrepared(
        n_docs=n, fired=fired, phrases=phrases,
        exclaim=np.array([exclamations(d.text) for d in docs], np.int64),
        tier=tier, outcome=outcome,
        mentions=np.array([_int(m, *mention_fields, default=1) for m in meta], np.int64),
        dismissals=np.array([_int(m, "dismissals", default=0) for m in meta], np.int64),
        superseded=np.array([link_set(m.get("superseded_by"), rule, ids)
                             or m.get("superseded") is True for m in meta], bool),
        contradicts=np.array([link_set(m.get("contradicts"), rule, ids) for m in meta], bool),
        clocks=clocks.astype(np.float64), inactive=inactive, undated=undated,
        query_clock=query_clock, query_n_terms=n_terms, bm25=stats,
        pair_flat=(query_clock[pair_query] * n + stats.cand).astype(np.intp),
        coverage=matched / np.maximum(n_terms[pair_query], 1.0),
    )
