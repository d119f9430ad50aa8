"""Turn a TREC-style run (query id → document id → score) into a ranking array.

trec_eval ignores the rank column and sorts each query's results by score descending, breaking
ties by document id DESCENDING as strings (form_res_rels.c, `comp_sim_docno`: strcmp of the
two docnos, reversed). "10" therefore ranks above "9" only when its score is higher: "9" > "10"
as strings. `tie_break="trec_eval"` reproduces that order so metrics match trec_eval exactly;
`tie_break="given"` keeps the run's insertion order among equal scores. `trec_tie_order` puts a
ranking the engine made into that same order, so that metrics printed from it agree with
trec_eval on the run file written from it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal

import numpy as np
from numpy.typing import NDArray

from workbench.core.data import Run

TieBreak = Literal["trec_eval", "given"]
Unknown = Literal["error", "skip"]


def ranking_from_run(run: Run, query_ids: Sequence[str], doc_index: Mapping[str, int],
                     tie_break: TieBreak = "trec_eval", *, depth: int | None = None,
                     unknown: Unknown = "error") -> NDArray[np.int32]:
    """docs int32 (Q, K): row i ranks the results of `query_ids[i]`, best first, padded with -1.

    K is the longest row, or `depth` if given (rows are cut after ordering). Queries of the run
    not in `query_ids` are ignored; queries missing from the run get an empty row. A document
    not in `doc_index` raises ValueError (`unknown="error"`) or is dropped (`"skip"`; the ranks
    below it move up, which trec_eval would not do).
    """
    if tie_break not in ("trec_eval", "given"):
        raise ValueError(f"tie_break must be 'trec_eval' or 'given', got {tie_break!r}")
    qpos = {qid: i for i, qid in enumerate(query_ids)}
    n_q = len(query_ids)
    rows_l: list[int] = []
    names: list[str] = []
    scores_l: list[float] = []
    for qid, results in run.items():
        qi = qpos.get(qid)
        if qi is None:
            continue
        rows_l.extend([qi] * len(results))
        names.extend(results)
        scores_l.extend(results.values())
    rows = np.asarray(rows_l, dtype=np.int64)
    scores = np.asarray(scores_l, dtype=np.float64)
    docs = np.fromiter((doc_index.get(n, -1) for n in names), dtype=np.int64, count=len(names))
    if np.isnan(scores).any():
        bad = int(np.flatnonzero(np.isnan(scores))[0])
        raise ValueError(f"run: query {query_ids[rows[bad]]!r} document {names[bad]!r} "
                         "has a NaN score")
    missing = docs < 0
    if missing.any():
        if unknown == "error":
            bad = int(np.flatnonzero(missing)[0])
            raise ValueError(f"run: query {query_ids[rows[bad]]!r} retrieves document "
                             f"{names[bad]!r}, which is not in the corpus "
                             f"({int(missing.sum())} such results)")
        keep = ~missing
        rows, scores, docs = rows[keep], scores[keep], docs[keep]
        names = [n for n, k in zip(names, keep.tolist(), strict=True) if k]

    if tie_break == "trec_eval":
        # rank of each docno among the run's docnos in string order (numpy compares code
        # points, as strcmp compares UTF-8 bytes); negated for descending
        _, name_rank = np.unique(np.asarray(names, dtype=np.str_), return_inverse=True)
        tie = -name_rank.astype(np.int64).reshape(-1)
    else:
        tie = np.arange(rows.size, dtype=np.int64)
    order = np.lexsort((tie, -scores, rows))  # last key first: row, score desc, tie
    rows, docs = rows[order], docs[order]

    counts = np.bincount(rows, minlength=n_q)
    starts = np.concatenate(([0], np.cumsum(counts)[:-1])) if n_q else counts
    col = np.arange(rows.size) - starts[rows]
    width = int(counts.max(initial=0)) if depth is None else max(0, depth)
    out = np.full((n_q, width), -1, dtype=np.int32)
    inside = col < width
    out[rows[inside], col[inside]] = docs[inside]
    return out


def name_ranks(doc_ids: Sequence[str]) -> NDArray[np.int64]:
    """int64 (N,): the place of each document id in code-point order (strcmp's order on
    UTF-8), equal ids sharing a place; position i describes `doc_ids[i]`."""
    if not doc_ids:
        return np.zeros(0, np.int64)
    _, inverse = np.unique(np.asarray(doc_ids, dtype=np.str_), return_inverse=True)
    out: NDArray[np.int64] = inverse.astype(np.int64).reshape(-1)
    return out


def trec_tie_order(docs: NDArray[np.integer], scores: NDArray[np.float64],
                   name_rank: NDArray[np.int64]) -> NDArray[np.int32]:
    """docs int32 (Q, K) in the order trec_eval reads a run of these results: score
    descending, equal scores by document id descending (`name_rank` from `name_ranks`).

    docs: corpus positions, -1 padding; scores float64 (Q, K), the score of each entry. The
    result set of every row is kept (the run file holds exactly these); only rows that are out
    of that order are re-sorted, so a ranking without such ties costs one comparison pass.
    """
    d = np.asarray(docs, dtype=np.int32)
    if d.size == 0:
        return d
    valid = d >= 0
    s = np.where(valid, scores, -np.inf)
    nr = np.where(valid, name_rank[np.where(valid, d, 0)], -1)
    tied = s[:, 1:] == s[:, :-1]
    later_first = (s[:, 1:] > s[:, :-1]) | (tied & (nr[:, 1:] > nr[:, :-1]) & valid[:, 1:])
    rows = np.flatnonzero(later_first.any(axis=1))
    if rows.size == 0:
        return d
    out = d.copy()
    # a row that is sorted by score (its only disorder is among equal scores) and holds no
    # NaN reorders its tied runs alone; any other row is sorted whole
    whole = (s[rows, 1:] > s[rows, :-1]).any(axis=1) | np.isnan(s[rows]).any(axis=1)
    _reorder_ties(out, d, tied, nr, rows[~whole])
    rows = rows[whole]
    if rows.size:
        sub_s, sub_nr = s[rows], nr[rows]
        row_of = np.broadcast_to(np.arange(rows.size)[:, None], sub_s.shape)
        order = np.lexsort((-sub_nr.ravel(), -sub_s.ravel(), row_of.ravel()))
        out[rows] = d[rows].ravel()[order].reshape(sub_s.shape)
    return out


def _reorder_ties(out: NDArray[np.int32], d: NDArray[np.int32], tied: NDArray[np.bool_],
                  nr: NDArray[np.int64], rows: NDArray[np.intp]) -> None:
    """In `out`, each run of equal scores in `rows` (sorted by score) put in descending name
    rank, equal ranks keeping their order: the stable sort of the whole row by (score desc,
    name rank desc) moves nothing else."""
    if rows.size == 0:
        return
    t = tied[rows]
    k = d.shape[1]
    member = np.zeros((rows.size, k), dtype=bool)
    member[:, 1:] = t
    member[:, :-1] |= t
    r, c = np.nonzero(member)  # row-major: each run contiguous
    starts = np.ones(r.size, dtype=bool)
    starts[1:] = (r[1:] != r[:-1]) | ~t[r[1:], c[1:] - 1]
    run = np.cumsum(starts)
    span = int(nr.max(initial=0)) + 2  # nr ≥ -1 (padding)
    key = run * span + (span - 1 - nr[rows[r], c])
    order = np.argsort(key, kind="stable")
    out[rows[r], c] = d[rows[r[order]], c[order]]
