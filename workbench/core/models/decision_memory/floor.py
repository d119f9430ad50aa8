"""Min score ≤ 0: the original's `search()` keeps every candidate scoring ≥ min score, so a
min score of 0 (or less) returns decisions that score 0 too — ones no query token meets and
ones a scoring gate zeroed — after the positive ones, newest first, up to the limit.

The prepared rows hold only the decisions some query token meets (the rest score 0 whatever
the parameters), so for such queries the rows are widened, per tick and only then, with every
other candidate (non-archived, in the query's own candidate set, in the cwd's project when
project-only) at its place in candidate order, and the limit is applied over the widened row.
A query whose prompt builds no query (the hook searches nothing) and a disabled cwd are not
widened. With every min score above 0 this costs nothing: the rows are the prepared ones.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from workbench.core.models.decision_memory.params import GATES
from workbench.core.models.decision_memory.prepared import DecisionMemoryPrepared, case_rank

F64 = NDArray[np.float64]
B = NDArray[np.bool_]
# candidate filters: such a decision is no candidate of the search at all
FILTERS = (GATES.index("archived") + 1, GATES.index("not_in_project") + 1)
OVER_LIMIT = GATES.index("over_limit") + 1


@dataclass(frozen=True)
class Rows:
    """What a tick returns, query-major: row_ptr int64 (Q+1,); per entry doc int32, total
    float64, gate int8 (0: returned, ranked by total then position), src intp (the prepared
    pair, −1 for a candidate no query token meets; None when the rows are the prepared
    pairs themselves)."""

    row_ptr: NDArray[np.int64]
    doc: NDArray[np.int32]
    total: F64
    gate: NDArray[np.int8]
    src: NDArray[np.intp] | None


def floor_queries(prep: DecisionMemoryPrepared, min_score: F64, disabled: B) -> B:
    """bool (Q,): the queries whose search keeps score-0 candidates."""
    out: B = (min_score <= 0) & ~disabled
    if out.any():
        out &= np.asarray([not s.note for s in prep.specs], np.bool_)
    return out


def _candidates(prep: DecisionMemoryPrepared, q: int, project_only: bool,
                rank: NDArray[np.int64]) -> tuple[NDArray[np.int64], NDArray[np.intp]]:
    """(ranks, documents) of query q's search candidates in its candidate order; `rank`:
    each document's place in that order."""
    keep = ~prep.docs.archived
    spec = prep.specs[q]
    if spec.candidates is not None:
        mine = np.zeros(prep.n_docs, np.bool_)
        mine[list(spec.candidates)] = True
        keep &= mine
    if project_only:
        keep &= prep.cwd_member[prep.q_cwd[q]]
    docs = np.flatnonzero(keep)
    ranks = rank[docs]
    order = np.argsort(ranks, kind="stable")
    return ranks[order], docs[order]


def widen(prep: DecisionMemoryPrepared, floor: B, project_only: B, limit: NDArray[np.int64],
          gate: NDArray[np.int8], total: F64) -> Rows:
    """The rows of a tick whose `floor` queries keep score-0 candidates. `gate` and `total`
    are the prepared pairs' before the limit of the floor queries (their scores ≥ 0 all pass
    the min score); the limit over the widened rows is written back to them (`over_limit`,
    total 0) for the prepared pairs it drops."""
    n = max(1, prep.n_docs) + 1  # a rank is at most n_docs
    rank_of = np.empty(prep.n_docs, np.int64)
    rank_of[prep.doc_order] = np.arange(prep.n_docs)
    # each query's candidate order: newest first, an eval case's its own corpus order (the
    # prepared rows are in it: `prepared.case_rank`)
    own = {q: case_rank(spec.candidates, prep.n_docs) for q, spec in enumerate(prep.specs)
           if spec.candidates is not None}
    pair_rank = rank_of[prep.pair_doc]
    for q, rank in own.items():
        lo, hi = int(prep.row_ptr[q]), int(prep.row_ptr[q + 1])
        pair_rank[lo:hi] = rank[prep.pair_doc[lo:hi]]
    keys = prep.pair_query * n + pair_rank  # ascending: rows in candidate order
    fq = np.flatnonzero(floor)
    wanted, wanted_docs = [], []
    for q in fq.tolist():
        ranks, docs = _candidates(prep, int(q), bool(project_only[q]), own.get(q, rank_of))
        wanted.append(q * n + ranks)
        wanted_docs.append(docs)
    want = np.concatenate(wanted) if wanted else np.zeros(0, np.int64)
    want_doc = np.concatenate(wanted_docs) if wanted_docs else np.zeros(0, np.intp)
    at = np.searchsorted(keys, want)
    there = at < len(keys)
    there[there] = keys[at[there]] == want[there]
    extra, at = want[~there], at[~there]
    src = np.insert(np.arange(len(keys), dtype=np.intp), at, -1)
    doc = np.insert(prep.pair_doc, at, want_doc[~there].astype(np.int32))
    query = np.insert(prep.pair_query, at, extra // n)
    row_ptr = np.zeros(len(prep.specs) + 1, np.int64)
    np.cumsum(np.bincount(query, minlength=len(prep.specs)), out=row_ptr[1:])
    prepared = src >= 0
    w_gate = np.zeros(len(src), np.int8)
    w_total = np.zeros(len(src))
    w_gate[prepared] = gate[src[prepared]]
    w_total[prepared] = total[src[prepared]]
    # in a floor query every candidate is returned: one a scoring gate zeroed with score 0
    # (gated pairs have total 0)
    opened = floor[query] & ~np.isin(w_gate, FILTERS)
    w_gate[opened] = 0
    alive = np.flatnonzero(opened)
    over = alive[over_limit_sorted(query[alive], w_total[alive], limit)]
    w_gate[over] = OVER_LIMIT
    w_total[over] = 0.0
    back = src[over]
    back = back[back >= 0]
    gate[back[gate[back] == 0]] = OVER_LIMIT
    total[back] = 0.0
    return Rows(row_ptr=row_ptr, doc=doc, total=w_total, gate=w_gate, src=src)


def over_limit_sorted(aq: NDArray[np.int64], score: F64, limit: NDArray[np.int64]
                      ) -> NDArray[np.intp]:
    """Positions of the survivors (of queries `aq`, ascending) after their query's limit, by a
    sort (score descending, then position)."""
    order = np.lexsort((np.arange(len(aq)), -score, aq))
    counts = np.bincount(aq, minlength=len(limit))
    start = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64)
    rank = np.arange(len(order)) - start[aq[order]]
    out: NDArray[np.intp] = order[rank >= limit[aq[order]]]
    return out
