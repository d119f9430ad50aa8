"""The current result against a pinned baseline: rank changes, movers and metric deltas.

Both results rank the same dataset, so a document is the same corpus position on both sides;
a ranking row holds each query's documents best first (`Ranking.docs`, (Q, K), -1 padding).
Ranks are 1-based. "In the top k" means among the first k entries of a row.

- `rank_changes(current, baseline, query, k)`: for the ranked table's ▲/▼/new column, one
  query, vectorised (a k × k match, no dictionaries).
- `movers(current, baseline, k, top)`: across ALL queries, documents that entered or left the
  top k and the largest rank jumps, largest first, each with the per-signal contribution deltas
  that moved it (each side's contributions from its own `Scores`).
- `agreement(current, baseline, k)`: how alike the two top k are, query by query, with no
  judgment needed (the documents they share, the order, the first document).
- `metric_deltas(current, baseline)`: per-query current − baseline for every shared metric.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from workbench.core.metrics.significance import NO_CHANGE
from workbench.core.pipeline import Result
from workbench.core.ranking import Scores


@dataclass(frozen=True)
class RankChanges:
    """One query's top k now, each document's top-k rank in the baseline, and what left.

    docs:          int32 (n,)  the current top k, best first
    rank:          int64 (n,)  1..n
    baseline_rank: int64 (n,)  rank in the baseline's top k, 0 when it was outside (entered)
    delta:         int64 (n,)  baseline_rank − rank: > 0 moved up, < 0 down, 0 same or entered
    entered:       bool (n,)   not in the baseline's top k
    left_docs:     int32 (m,)  documents of the baseline's top k no longer in the top k
    left_baseline_rank: int64 (m,) their rank in the baseline
    """

    docs: NDArray[np.int32]
    rank: NDArray[np.int64]
    baseline_rank: NDArray[np.int64]
    delta: NDArray[np.int64]
    entered: NDArray[np.bool_]
    left_docs: NDArray[np.int32]
    left_baseline_rank: NDArray[np.int64]

    def labels(self) -> list[str]:
        """'▲3', '▼2', '─' or 'new' per current row: what the ranked table shows."""
        out: list[str] = []
        for d, e in zip(self.delta.tolist(), self.entered.tolist(), strict=True):
            out.append("new" if e else f"▲{d}" if d > 0 else f"▼{-d}" if d < 0 else "─")
        return out


def _top(result: Result, query: int, k: int) -> NDArray[np.int32]:
    n = min(k, int(result.ranking.count[query]), result.ranking.docs.shape[1])
    out: NDArray[np.int32] = result.ranking.docs[query, :n]
    return out


def rank_changes(current: Result, baseline: Result, query: int, k: int) -> RankChanges:
    """Rank changes of one query's top k (see `RankChanges`)."""
    now, before = _top(current, query, k), _top(baseline, query, k)
    match = now[:, None] == before[None, :]  # (n, m); each document at most once per row
    found = match.any(axis=1)
    base_rank = np.where(found, match.argmax(axis=1) + 1, 0).astype(np.int64)
    rank = np.arange(1, len(now) + 1, dtype=np.int64)
    still = match.any(axis=0)
    return RankChanges(
        docs=now,
        rank=rank,
        baseline_rank=base_rank,
        delta=np.where(found, base_rank - rank, 0).astype(np.int64),
        entered=~found,
        left_docs=before[~still],
        left_baseline_rank=(np.flatnonzero(~still) + 1).astype(np.int64),
    )


@dataclass(frozen=True)
class Mover:
    """One document of one query whose rank changed.

    rank / baseline_rank: 1-based rank within each side's ranking depth (None when not ranked
    there at all); entered / left say whether it crossed the top k. `jump` = baseline rank −
    current rank (> 0 moved up), an unranked side counting as past the end of the longer of
    the two rankings (depth + 1): a drop from 1 is the largest fall.
    contributions / baseline_contributions: float64 (S,) and (S',), each side's per-signal
    contributions to this document (zeros when it was not a candidate there), named by
    `signals` and `baseline_signals`. candidate / baseline_candidate: whether each side
    scored it at all (`is_scored`; False: its zeros are no score).
    """

    query: int
    doc: int
    rank: int | None
    baseline_rank: int | None
    entered: bool
    left: bool
    jump: int
    total: float
    baseline_total: float
    signals: tuple[str, ...]
    baseline_signals: tuple[str, ...]
    contributions: NDArray[np.float64]
    baseline_contributions: NDArray[np.float64]
    candidate: bool = True
    baseline_candidate: bool = True

    @property
    def total_delta(self) -> float:
        return self.total - self.baseline_total

    @property
    def same_signals(self) -> bool:
        return self.signals == self.baseline_signals

    @property
    def signal_deltas(self) -> dict[str, float] | None:
        """Per-signal current − baseline when both sides have the same signals, else None
        (then compare `total_delta` and each side's own contributions)."""
        if not self.same_signals:
            return None
        diff = self.contributions - self.baseline_contributions
        return {s: float(v) for s, v in zip(self.signals, diff.tolist(), strict=True)}


def _ranked_keys(result: Result, n_docs: int) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Sorted keys `query * n_docs + doc` of every ranked entry, and each one's 1-based rank."""
    docs = result.ranking.docs
    q, w = np.nonzero(docs >= 0)
    keys = q.astype(np.int64) * n_docs + docs[q, w]
    order = np.argsort(keys, kind="stable")
    return keys[order], (w + 1).astype(np.int64)[order]


def _lookup(keys: NDArray[np.int64], values: NDArray[np.int64],
            wanted: NDArray[np.int64]) -> NDArray[np.int64]:
    """values at `wanted` keys, 0 where absent."""
    if len(keys) == 0:
        return np.zeros(len(wanted), np.int64)
    idx = np.minimum(np.searchsorted(keys, wanted), len(keys) - 1)
    return np.where(keys[idx] == wanted, values[idx], 0)


def pair_of(scores: Scores, query: int, doc: int) -> int:
    """The pair of (query, doc) in `scores`, or -1 when the document is not a candidate."""
    row = scores.row(query)
    hit = np.flatnonzero(scores.docs[row] == doc)
    return int(row.start + hit[0]) if len(hit) else -1


def is_scored(scores: Scores, query: int, doc: int) -> bool:
    """Whether the model scored `doc` for `query` at all: a candidate of the query (gated or
    not), or a pair the live path left out that `Scores.elsewhere` still knows. A document
    that is neither shows total 0 without having scored 0."""
    if pair_of(scores, query, doc) >= 0:
        return True
    return scores.elsewhere is not None and scores.elsewhere(query, doc) is not None


def gate_of(scores: Scores, query: int, doc: int) -> str | None:
    """The gate that zeroed `doc` for `query` (its name in `Scores.gates`), None when it was
    not gated or is no candidate."""
    pair = pair_of(scores, query, doc)
    if pair < 0 or not len(scores.gate) or int(scores.gate[pair]) == 0:
        return None
    g = int(scores.gate[pair]) - 1
    return scores.gates[g] if g < len(scores.gates) else f"gate {g + 1}"


def doc_contributions(scores: Scores, query: int,
                      doc: int) -> tuple[float, NDArray[np.float64]]:
    """(total, float64 (S,) contributions) of one document for one query; zeros when it is
    not a candidate. For a gated pair the total is 0 and the parts show what it would score."""
    pair = pair_of(scores, query, doc)
    if pair < 0:
        found = scores.elsewhere(query, doc) if scores.elsewhere is not None else None
        if found is not None:
            return found
        return 0.0, np.zeros(len(scores.signals))
    parts = scores.contributions_of(np.array([pair], np.intp))[:, 0]
    return float(scores.total[pair]), parts.astype(np.float64)


def movers(current: Result, baseline: Result, k: int, top: int = 50,
           queries: NDArray[np.bool_] | None = None) -> list[Mover]:
    """Documents of any query (of those `queries` marks, when given) that entered or left the
    top k or changed rank within it, largest |jump| first (ties: crossing the top k first,
    then query, then current rank).

    Candidates are the union of both sides' top k; ranks are looked up at each side's full
    ranking depth, so a document that rose from 80th to 3rd shows a jump of 77.
    """
    found = _moves(current, baseline, k)
    if found is None:
        return []
    n_docs, cand, now, before, jump, entered, left, idx = found
    if queries is not None:
        idx = idx[queries[cand[idx] // n_docs]]
    crossed = entered | left
    query = cand[idx] // n_docs
    order = np.lexsort((np.where(now[idx] > 0, now[idx], _end(current, baseline)), query,
                        ~crossed[idx], -np.abs(jump[idx])))
    out: list[Mover] = []
    for i in idx[order[:top]].tolist():
        q, d = divmod(int(cand[i]), n_docs)
        total, parts = doc_contributions(current.scores, q, d)
        b_total, b_parts = doc_contributions(baseline.scores, q, d)
        out.append(Mover(
            query=q, doc=d,
            rank=int(now[i]) or None, baseline_rank=int(before[i]) or None,
            entered=bool(entered[i]), left=bool(left[i]), jump=int(jump[i]),
            total=total, baseline_total=b_total,
            signals=current.scores.signals, baseline_signals=baseline.scores.signals,
            contributions=parts, baseline_contributions=b_parts,
            candidate=is_scored(current.scores, q, d),
            baseline_candidate=is_scored(baseline.scores, q, d),
        ))
    return out


def move_counts(current: Result, baseline: Result, k: int) -> tuple[int, int, int]:
    """Across every query, as `movers` finds them before it keeps its `top`: the documents
    that moved, that entered the top k, and that left it."""
    found = _moves(current, baseline, k)
    if found is None:
        return 0, 0, 0
    *_, entered, left, idx = found
    return len(idx), int(entered.sum()), int(left.sum())


def _end(current: Result, baseline: Result) -> int:
    """The place an unranked document counts at on either side: past the end of the longer
    of the two rankings. A list a min score cut to 2 had counted a drop from 1 as a fall of
    2 (to its own end, 3) and one from 10 as a rise of 7, so the lesser losses came first."""
    return int(max(current.ranking.docs.shape[1], baseline.ranking.docs.shape[1])) + 1


def _moves(current: Result, baseline: Result, k: int) -> tuple[Any, ...] | None:
    """`movers`' arrays: the document count; the candidate (query, document) keys; each
    one's rank now and before (0: not ranked), jump, entered, left; the indices that moved.
    None when neither side ranks a document."""
    n_docs = int(max(current.ranking.docs.max(initial=-1),
                     baseline.ranking.docs.max(initial=-1))) + 1
    if n_docs == 0:
        return None
    cur_keys, cur_rank = _ranked_keys(current, n_docs)
    base_keys, base_rank = _ranked_keys(baseline, n_docs)
    in_top = np.concatenate((cur_keys[cur_rank <= k], base_keys[base_rank <= k]))
    cand = np.unique(in_top)
    now = _lookup(cur_keys, cur_rank, cand)
    before = _lookup(base_keys, base_rank, cand)
    end = _end(current, baseline)
    jump = np.where(before > 0, before, end) - np.where(now > 0, now, end)
    entered = (now > 0) & (now <= k) & ~((before > 0) & (before <= k))
    left = (before > 0) & (before <= k) & ~((now > 0) & (now <= k))
    moved = (jump != 0) | entered | left
    return n_docs, cand, now, before, jump, entered, left, np.flatnonzero(moved)


@dataclass(frozen=True)
class Agreement:
    """How alike two rankings' top k are, over the queries counted; no judgment needed.

    overlap: float64 (Q,) the share of the top k both rankings hold, of the longer of the two
             lists (NaN for a query not counted, for one neither ranks anything for, and,
             compared over the shorter list, for one only one of them ranks anything for)
    same_order: queries whose top k is the same documents in the same order
    same_first: queries whose first document is the same
    empty: queries counted for which neither ranks anything (left out of the rest: their
           "agreement" would be no evidence of anything)
    one_empty: queries counted for which one ranks documents and the other nothing, where the
               lists are compared over the shorter one: that one is empty, so there is
               nothing to compare (left out of the rest, and not counted in `empty`)
    """

    k: int
    overlap: NDArray[np.float64]
    same_order: int
    same_first: int
    empty: int = 0
    one_empty: int = 0

    @property
    def queries(self) -> int:
        return int((~np.isnan(self.overlap)).sum())

    @property
    def mean_overlap(self) -> float:
        return float(np.nanmean(self.overlap)) if self.queries else float("nan")


def agreement(current: Result, baseline: Result, k: int,
              queries: NDArray[np.bool_] | None = None, shorter: bool = False) -> Agreement:
    """The two results' top k set side by side for every query (those `queries` marks, when
    given): how many documents they share, and whether the order or the first one held.
    `shorter`: each query's top k only as far as the shorter of its two lists goes (for two
    rankings that differ only in where they stop, the documents one never returns are no
    disagreement)."""
    n = len(current.ranking.count)
    overlap = np.full(n, np.nan)
    same_order = same_first = empty = one_empty = 0
    for q in range(n) if queries is None else np.flatnonzero(queries).tolist():
        a, b = _top(current, q, k), _top(baseline, q, k)
        if not len(a) and not len(b):
            empty += 1
            continue
        if shorter:
            if not len(a) or not len(b):  # the shorter list is empty: nothing to set side by side
                one_empty += 1
                continue
            a, b = a[:len(b)], b[:len(a)]
        longest = max(len(a), len(b))
        overlap[q] = len(np.intersect1d(a, b)) / longest
        same_order += int(np.array_equal(a, b))
        same_first += int(a[:1].tolist() == b[:1].tolist())
    return Agreement(k, overlap, same_order, same_first, empty, one_empty)


def metric_deltas(current: Result, baseline: Result) -> dict[str, NDArray[np.float64]]:
    """float64 (Q,) current − baseline per query, for each metric both results computed."""
    out: dict[str, NDArray[np.float64]] = {}
    for name, values in current.per_query.items():
        other = baseline.per_query.get(name)
        if other is not None and other.shape == values.shape:
            out[name] = (values - other).astype(np.float64)
    return out


def improved_worsened(deltas: NDArray[np.float64], mask: NDArray[np.bool_] | None = None,
                      tol: float = NO_CHANGE) -> tuple[int, int]:
    """How many queries (of those in `mask`, judged ones say) went up and down."""
    d = deltas if mask is None else deltas[mask]
    return int((d > tol).sum()), int((d < -tol).sum())


# `workbench compare` / `report`'s default metrics (cli.evaluate's EVAL_METRICS and, for code
# tasks, CODE_METRICS), at the top k: the window's comparison and the report it exports show
# the rows the command line's report shows (tests.test_compare_metrics holds them together)
COMPARE_METRICS = ("ndcg@{k}", "mrr@{k}", "p@{k}", "r@100", "map@100", "judged@{k}")
CODE_COMPARE_METRICS = ("r@{k}", "ndcg@{k}", "mrr@{k}", "p@{k}", "r@100", "map@100")


def compare_metrics(model: Any, dataset: Any, k: int = 10) -> list[str]:
    """The metrics a comparison of `model` on `dataset` shows by default, as `workbench
    compare` and `report` choose them: code tasks (a repository's, or a model that selects
    bundles) lead with recall and add the bundle's own figures; judged@k is left out where
    every judgment is of a relevant document (it is p@k there)."""
    from workbench.core.metrics import BUNDLE_METRICS
    from workbench.core.tuning.data import is_task_set

    bundles = hasattr(model, "bundles")
    code = bundles or is_task_set(dataset)
    names = [m.format(k=k) for m in (CODE_COMPARE_METRICS if code else COMPARE_METRICS)]
    if bundles:
        names += list(BUNDLE_METRICS)
    qrels = dataset.qrels or {}
    if qrels and all(g > 0 for docs in qrels.values() for g in docs.values()):
        names = [m for m in names if not m.startswith("judged@")]
    return names
