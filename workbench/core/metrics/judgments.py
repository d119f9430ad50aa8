"""Judgments: graded qrels indexed for one query set and one corpus, ready for array lookups.

trec_eval knows nothing of a corpus: a judged-relevant document that the corpus lacks still
counts in the ideal DCG and in the recall and AP denominators. `Judgments` keeps those counts
from the qrels themselves and only the lookup table is restricted to corpus positions.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np
from numpy.typing import NDArray

from workbench.core.data import Qrels
from workbench.core.metrics.runs import name_ranks

TABLE_CELLS = 8_000_000  # (query, document) pairs up to which `lookup` gathers from a table
UNJUDGED = -32768  # the table's mark of a pair without a judgment


@dataclass(frozen=True, eq=False)
class Judgments:
    """Qrels for queries `query_ids` (Q of them) over a corpus of `n_docs` positions.

    keys:     int64 (J,)    sorted `query * n_docs + doc` of every judged pair in the corpus
    grades:   int64 (J,)    the grade of each key (0 = judged not relevant)
    n_rel:    int64 (Q,)    judged relevant (grade > 0), counting documents outside the corpus
    n_judged: int64 (Q,)    judged documents of any grade, inside the corpus or not
    ideal:    float64 (Q, M) each query's positive grades sorted descending, padded with 0
              (M = the largest n_rel); the ideal ranking for nDCG
    name_rank: int64 (n_docs,) each corpus document's place in document-id order, which is
              how trec_eval breaks score ties (see `runs.trec_tie_order`); None when unknown
    """

    query_ids: tuple[str, ...]
    n_docs: int
    keys: NDArray[np.int64]
    grades: NDArray[np.int64]
    n_rel: NDArray[np.int64]
    n_judged: NDArray[np.int64]
    ideal: NDArray[np.float64]
    name_rank: NDArray[np.int64] | None = None

    @classmethod
    def build(cls, qrels: Qrels, query_ids: Sequence[str],
              doc_index: Mapping[str, int]) -> Judgments:
        """Index `qrels` for `query_ids` (rows, in that order) and a corpus whose document ids
        map to positions through `doc_index`. Qrels of other queries are ignored."""
        qpos = {qid: i for i, qid in enumerate(query_ids)}
        if len(qpos) != len(query_ids):
            raise ValueError("query_ids has duplicates")
        n_q = len(query_ids)
        n_docs = max(doc_index.values(), default=-1) + 1
        rows_l: list[int] = []
        names: list[str] = []
        grades_l: list[int] = []
        for qid, judged in qrels.items():
            qi = qpos.get(qid)
            if qi is None:
                continue
            rows_l.extend([qi] * len(judged))
            names.extend(judged)
            grades_l.extend(judged.values())
        rows = np.asarray(rows_l, dtype=np.int64)
        grades = np.asarray(grades_l, dtype=np.int64)
        docs = np.fromiter((doc_index.get(n, -1) for n in names), dtype=np.int64,
                           count=len(names))

        relevant = grades > 0
        n_judged = np.bincount(rows, minlength=n_q).astype(np.int64)
        n_rel = np.bincount(rows[relevant], minlength=n_q).astype(np.int64)

        inside = docs >= 0
        keys = rows[inside] * n_docs + docs[inside]
        order = np.argsort(keys, kind="stable")

        # ideal: positive grades grouped by row, descending within the row
        r, g = rows[relevant], grades[relevant]
        by = np.lexsort((-g, r))
        r, g = r[by], g[by]
        starts = np.concatenate(([0], np.cumsum(n_rel)[:-1])) if n_q else n_rel
        ideal = np.zeros((n_q, int(n_rel.max(initial=0))), dtype=np.float64)
        ideal[r, np.arange(r.size) - starts[r]] = g

        return cls(
            query_ids=tuple(query_ids),
            n_docs=n_docs,
            keys=keys[order],
            grades=grades[inside][order],
            n_rel=n_rel,
            n_judged=n_judged,
            ideal=ideal,
            name_rank=_name_rank(doc_index, n_docs),
        )

    @property
    def n_queries(self) -> int:
        return len(self.query_ids)

    @property
    def judged_mask(self) -> NDArray[np.bool_]:
        """bool (Q,): queries with at least one judgment (of any grade). trec_eval evaluates
        only these; the others have no defined value."""
        return self.n_judged > 0

    def lookup(self, docs: NDArray[np.integer]) -> tuple[NDArray[np.int64], NDArray[np.bool_]]:
        """Grades of a ranking: docs int (Q, K) corpus positions (-1 = padding) →
        (grades int64 (Q, K), 0 where unjudged; judged bool (Q, K))."""
        if docs.ndim != 2 or docs.shape[0] != self.n_queries:
            raise ValueError(f"docs must be ({self.n_queries}, K), got {docs.shape}")
        d = docs.astype(np.int64, copy=False)
        if self.keys.size == 0:
            return np.zeros(d.shape, np.int64), np.zeros(d.shape, np.bool_)
        valid = (d >= 0) & (d < self.n_docs)
        flat = np.arange(self.n_queries, dtype=np.int64)[:, None] * self.n_docs + d
        table = self._table
        if table is not None:  # one gather of the grade; UNJUDGED where there is none
            g = table[np.where(valid, flat, 0)]
            judged = valid & (g != UNJUDGED)
            return np.where(judged, g, 0).astype(np.int64), judged
        idx = np.minimum(np.searchsorted(self.keys, flat), self.keys.size - 1)
        judged = valid & (self.keys[idx] == flat)
        return np.where(judged, self.grades[idx], 0), judged

    @cached_property
    def _table(self) -> NDArray[np.int16] | None:
        """int16 (Q · n_docs,): each pair's grade, UNJUDGED where there is none; a gather
        instead of a binary search per looked-up entry. None above TABLE_CELLS pairs (SciFact's
        table is 1.6 M cells, 50,000 × 1,000 would be 50 M) or for grades int16 cannot hold:
        `lookup` searches the sorted keys then."""
        cells = self.n_queries * self.n_docs
        if cells > TABLE_CELLS or cells == 0:
            return None
        if self.grades.size and (self.grades.min() <= UNJUDGED or self.grades.max() > 32767):
            return None
        table = np.full(cells, UNJUDGED, dtype=np.int16)
        table[self.keys] = self.grades
        return table

def _name_rank(doc_index: Mapping[str, int], n_docs: int) -> NDArray[np.int64] | None:
    """The place of each position's id in id order; None when positions are not 0..n-1."""
    ids: list[str | None] = [None] * n_docs
    for name, pos in doc_index.items():
        ids[pos] = name
    if len(doc_index) != n_docs or any(i is None for i in ids):
        return None
    return name_ranks([i for i in ids if i is not None])
