"""The rows of the ranked table for one query, computed from the session (no Qt here, so the
table, the CSV export and the tests read the same thing).

A row is one ranked document, or one that a gate zeroed (shown after the ranked ones, with the
gate's name). Rank change compares with the pinned baseline's ranking of the same query.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from workbench.core.data import display_title
from workbench.core.ranking import top_k
from workbench.core.session import TuningSession

MAX_ROWS = 50  # ranked rows shown (the metrics still see the whole depth)
MAX_GATED = 10


@dataclass(frozen=True)
class RankedRow:
    rank: int | None  # None for a gated document
    doc: int
    doc_id: str
    title: str
    score: float
    relevance: int | None
    contributions: NDArray[np.float64]  # (S,)
    gate: str
    baseline_rank: int | None  # None: not in the baseline's ranking (or no baseline)
    has_baseline: bool

    @property
    def change(self) -> str:
        """▲n / ▼n / = / new ('' without a baseline or for gated rows)."""
        if not self.has_baseline or self.rank is None:
            return ""
        if self.baseline_rank is None:
            return "new"
        d = self.baseline_rank - self.rank
        return "=" if d == 0 else (f"▲{d}" if d > 0 else f"▼{-d}")

    @property
    def change_value(self) -> float:
        """For sorting and colouring: positions gained (+inf for new)."""
        if not self.has_baseline or self.rank is None:
            return 0.0
        if self.baseline_rank is None:
            return math.inf
        return float(self.baseline_rank - self.rank)


def ranked_rows(session: TuningSession, limit: int = MAX_ROWS) -> list[RankedRow]:
    """The selected query's ranked documents (up to `limit`), then the ones a gate zeroed."""
    s, res, ds = session, session.result, session.dataset
    if res is None or ds is None or s.query >= res.ranking.docs.shape[0]:
        return []
    q = s.query
    rk, scores = res.ranking, res.scores
    n = min(int(rk.count[q]), limit)
    qid = ds.queries[q].id
    judged = (ds.qrels or {}).get(qid, {})
    base_pos: dict[int, int] = {}
    has_base = s.baseline is not None and s.baseline.result.ranking.docs.shape[0] == \
        rk.docs.shape[0]
    if has_base and s.baseline is not None:
        brk = s.baseline.result.ranking
        base_pos = {int(d): j + 1 for j, d in enumerate(brk.docs[q, : int(brk.count[q])])}
    pairs = rk.pair[q, :n]
    gated_pairs = _gated_pairs(session, q)
    every = np.concatenate([pairs, gated_pairs]).astype(np.intp)
    contrib = (scores.contributions_of(every) if len(every)
               else np.zeros((len(scores.signals), 0)))
    rows: list[RankedRow] = []
    for j, p in enumerate(every):
        d = int(scores.docs[p])
        doc = ds.corpus[d]
        gated = j >= n
        g = int(scores.gate[p])
        rows.append(RankedRow(
            rank=None if gated else j + 1, doc=d, doc_id=doc.id,
            title=display_title(ds.corpus, doc), score=float(scores.total[p]),
            relevance=judged.get(doc.id), contributions=contrib[:, j],
            gate=scores.gates[g - 1] if g > 0 and g - 1 < len(scores.gates) else "",
            baseline_rank=base_pos.get(d), has_baseline=has_base))
    return rows


def gate_words(gate: str) -> str:
    """A gate's code as words ("single_token_evidence" → "single token evidence"): what its
    column shows, cut after a whole word where narrow; the code and its reason are the cell's
    tooltip."""
    return " ".join(gate.replace("_", " ").split())


def _gated_pairs(session: TuningSession, q: int) -> NDArray[np.int64]:
    res = session.result
    assert res is not None
    sc = res.scores
    if not sc.gates:
        return np.zeros(0, np.int64)
    row = sc.row(q)
    hit = np.flatnonzero(sc.gate[row] > 0)[:MAX_GATED]
    out: NDArray[np.int64] = (hit + row.start).astype(np.int64)
    return out


def left_top_k(session: TuningSession) -> list[str]:
    """Ids of documents in the baseline's top k for this query that are not in the current
    top k."""
    s, res, ds = session, session.result, session.dataset
    if s.baseline is None or res is None or ds is None:
        return []
    brk, rk, q, k = s.baseline.result.ranking, res.ranking, s.query, s.k
    if brk.docs.shape[0] != rk.docs.shape[0]:
        return []
    now = set(rk.docs[q, : min(k, int(rk.count[q]))].tolist())
    before = brk.docs[q, : min(k, int(brk.count[q]))].tolist()
    return [ds.corpus[int(d)].id for d in before if int(d) not in now]


def bundle_size(session: TuningSession) -> int | None:
    """Where the selected query's bundle cuts its ranking: the ranked documents it read — the
    files it keeps and any it skipped for the budget (None for a model without bundles)."""
    return bundle_cut(session)[0]


def bundle_cut(session: TuningSession) -> tuple[int | None, frozenset[int], Any]:
    """(the cut as `bundle_size`, the 0-based ranks above it that the bundle skipped for the
    budget, the bundles or None). With no skipping (`skip_limit` 0 or absent) the cut is the
    result's `bundle_files` metric where the model reports it (no extra work per tick);
    else one `model_bundles`."""
    s, res = session, session.result
    if res is None or s.model is None or not callable(getattr(s.model, "bundles", None)):
        return None, frozenset(), None
    files = res.per_query.get("bundle_files")
    if (int(s.params.get("skip_limit", 0) or 0) == 0 and files is not None
            and s.query < len(files) and not math.isnan(float(files[s.query]))):
        return int(files[s.query]), frozenset(), None
    b = model_bundles(session)
    if b is None or s.query >= len(b.size):
        return None, frozenset(), b
    return int(b.reach[s.query]), frozenset(b.skipped_ranks(s.query)), b


def model_bundles(session: TuningSession) -> Any:
    """The model's bundles over the full candidate ranking of the current result (as
    codeledger's `full_bundles`), or None: one top-k and one stop rule over every query."""
    s, res = session, session.result
    fn = getattr(s.model, "bundles", None)
    if res is None or s.prepared is None or s.needs_prepare or not callable(fn):
        return None
    scores = res.scores
    longest = int(np.diff(scores.row_ptr).max(initial=0))
    try:
        return fn(s.prepared, s.params, scores, top_k(scores, longest))
    except Exception:  # a cut line is a hint: never a failed repaint
        return None
