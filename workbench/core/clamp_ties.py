"""Results tied at a score clamped to 1 (vault-search's clamp₀¹): their order is no score's but
the model's tie order (`Model.clamp_tie_order`), which the original system may not share
(rv52 9), nor the order the metrics read them in (trec_eval's: rv2 1). One detection for
`rank`, `sweep` and `compare`: which results of a query tie at 1, and on which queries such a
tie orders the results within a cut-off."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

# how a metric reads results tied at 1 (`pipeline`: the ranking in trec_eval's order, as
# trec_eval reads a run file and `eval --run` writes it): neither the model's tie order, which
# rank and the window show, nor the original system's, so the best weights of a sweep can win
# through such a tie; each order said apart (rv2 1: "ordered by file path here" beside
# "trec_eval's tie order" read as one order)
TREC_TIES = ("where {} reads them by document id descending (trec_eval's tie order, as eval "
             "--run writes them), not a score's; ")


def tie_order(model: Any) -> str:
    """After `TREC_TIES`: how rank and the window show a model's results tied at 1 (clamped)
    and how the original system orders them, in the model's words; "" for a model without a
    clamp tie order (every other model)."""
    own = str(getattr(model, "clamp_tie_order", ""))
    if not own:
        return ""
    return (f"rank and the window show them by {own} (the model's order); "
            f"{getattr(model, 'clamp_tie_original', '')}, which may be neither")


def shown_order(model: Any, metric_first: str | None, lead: str = "shown") -> str:
    """`rank`'s words for the order of one query's results tied at 1 (clamped): by the model's
    order as shown (`lead` before "by": "they are ordered" after a count of them shown, not a
    second "shown": rv53 dH 6), and, where the query is judged (`metric_first` given: the id
    trec_eval reads first among them), by document id descending in the metrics beside it,
    naming which result that puts first; how the original system orders them."""
    own = str(getattr(model, "clamp_tie_order", ""))
    original = str(getattr(model, "clamp_tie_original", ""))
    shown = f"{lead} by {own} (the model's order), not by a score; "
    if metric_first is None:
        return f"{shown}{original}, which may not be this one"
    return (f"{shown}the metrics read them by document id descending, as trec_eval reads a run "
            f"file and eval --run writes it ({metric_first} first), and this query's metrics "
            f"count that order; {original}, which may be neither")


def named_queries(ids: Sequence[str], found: NDArray[np.bool_], most: int = 3) -> str:
    """The ids of the queries `found` marks, the first `most` of them in the data's order and
    "and N more" after: "v24", "v03, v11, v24 and 2 more", so that a sweep's or compare's note
    says which queries to look at with `rank --query-id` (rv53 dH 6)."""
    which = [ids[int(q)] for q in np.flatnonzero(found)]
    if len(which) <= most:
        return ", ".join(which)
    return f"{', '.join(which[:most])} and {len(which) - most} more"


def tied_at_one(scores: Any, q: int) -> NDArray[np.int64]:
    """The pair indices of query `q`'s results tied at 1 where the clamp made the tie: two or
    more ungated results scoring exactly 1, one of them at least clamped down to it (a clamp
    contribution below 0); empty otherwise (one result at 1, or a sum of exactly 1 that no
    clamp made: the default weights 0.4 + 0.3 + 0.3)."""
    none = np.zeros(0, np.int64)
    if "clamp" not in scores.signals:
        return none
    lo, hi = int(scores.row_ptr[q]), int(scores.row_ptr[q + 1])
    at_one = lo + np.flatnonzero((scores.total[lo:hi] == 1.0) & (scores.gate[lo:hi] == 0))
    if len(at_one) < 2 or not (
            scores.contributions_of(at_one)[scores.signals.index("clamp")] < 0).any():
        return none
    return at_one.astype(np.int64)


def tie_queries(result: Any, cut: int, among: NDArray[np.bool_] | None = None
                ) -> NDArray[np.bool_]:
    """bool (Q,): the queries of a pipeline `Result` on which results tied at 1 (clamped) take
    a place within the first `cut` of the ranking, so that their tie order decides which of
    them are there or in what order (a metric @`cut` may read otherwise where the original
    orders them its own way); only those `among` marks, where given (the judged ones)."""
    n = len(result.ranking.count)
    found = np.zeros(n, np.bool_)
    for q in range(n):
        if among is not None and not among[q]:
            continue
        k = min(cut, int(result.ranking.count[q]))
        if not (np.asarray(result.ranking.scores[q, :k]) == 1.0).any():
            continue
        found[q] = len(tied_at_one(result.scores, q)) > 0
    return found
