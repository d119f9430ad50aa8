"""What a query's search returns as the original shows it: each result's snippet and, for an
injection, the exact memory block the agent receives and the turn's log record.

The snippet is `excerpt(decision text, the searched query, n)`: the searched query is what
`search()` was given (a prompt's compact query, else the query as written), n the search or
injection snippet length of the query's mode. `ShownScores` carries that snippet's length for
any (query, decision), so that the injected_tokens figure counts the snippets the original
would show at the parameters in use (it had cut every text at 180 characters, whatever
inject_snippet_chars and search_snippet_chars said; dr1 5).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields

import numpy as np

from workbench.core.data import Dataset
from workbench.core.engine import Scores
from workbench.core.models.decision_memory.combine import Live
from workbench.core.models.decision_memory.excerpt import (
    excerpt,
    excerpt_length,
    memory_block,
    units,
)
from workbench.core.models.decision_memory.queries import record_of
from workbench.core.params import Params


@dataclass(frozen=True)
class Injection:
    """One query's view: its selected decisions (corpus positions, best first), their scores
    and snippets, the memory block ("" when nothing is injected or in search mode), and
    whether the turn would be logged at all (not when its cwd is disabled)."""

    docs: tuple[int, ...]
    scores: tuple[float, ...]
    snippets: tuple[str, ...]
    block: str
    injection: bool
    logged: bool

    @property
    def snippet_lengths(self) -> tuple[int, ...]:
        return tuple(units(s) for s in self.snippets)


def snippet_chars(live: Live, query: int, params: Params) -> int:
    key = "inject_snippet_chars" if live.q_injection[query] else "search_snippet_chars"
    return int(params[key])


def snippet(live: Live, dataset: Dataset, query: int, doc: int, params: Params) -> str:
    return excerpt(dataset.corpus[doc].text, live.prep.specs[query].text,
                   snippet_chars(live, query, params))


@dataclass(frozen=True)
class ShownScores(Scores):
    """`Scores` with `snippet_length(query, doc)`: the length (UTF-16 units, the ellipsis
    marks included) of the snippet the original shows for that decision in that query's
    search, cut at the query's mode's snippet length (`snippet`)."""

    snippet_length: Callable[[int, int], int] | None = None


def shown_scores(scores: Scores, live: Live, params: Params) -> ShownScores:
    """`scores` with the snippet lengths of this tick's parameters (each computed when first
    asked for: a figure needs only the selected results')."""
    texts, specs = live.prep.texts, live.prep.specs
    # each query's mode's limit, as snippet_chars reads it, in one pass
    limits = np.where(np.asarray(live.q_injection, bool), int(params["inject_snippet_chars"]),
                      int(params["search_snippet_chars"])).tolist()

    def length(query: int, doc: int) -> int:  # excerpt_length caches by text (dr4 6)
        return excerpt_length(texts[doc], specs[query].text, limits[query])

    return ShownScores(**{f.name: getattr(scores, f.name) for f in fields(scores)},
                       snippet_length=length)


def selected(live: Live, query: int) -> list[int]:
    """The entries of `live.rows` the query's search returns, best first (score descending,
    then candidate order: newer createdAt first)."""
    rows = live.rows
    lo, hi = int(rows.row_ptr[query]), int(rows.row_ptr[query + 1])
    alive = np.flatnonzero(rows.gate[lo:hi] == 0)
    order = np.lexsort((alive, -rows.total[lo:hi][alive]))
    return [lo + int(i) for i in alive[order]]


def injection_view(live: Live, dataset: Dataset, query: int, params: Params) -> Injection:
    rows = live.rows
    picked = selected(live, query)
    docs = tuple(int(rows.doc[p]) for p in picked)
    snippets = tuple(snippet(live, dataset, query, d, params) for d in docs)
    inj = bool(live.q_injection[query])
    block = ""
    if inj and docs:
        block = memory_block([record_of(dataset.corpus[d]) for d in docs], snippets,
                             live.prep.specs[query].cwd, not bool(live.q_project_only[query]))
    return Injection(docs=docs, scores=tuple(float(rows.total[p]) for p in picked),
                     snippets=snippets, block=block, injection=inj,
                     logged=not bool(live.q_disabled[query]))
