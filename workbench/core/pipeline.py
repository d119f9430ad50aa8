"""One model over one dataset, end to end: prepare (cached), combine, rank, metrics.

The CLI, the benchmark and (later) the tuning session all go through `Pipeline`, so that every
face computes rankings and metrics the same way.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from workbench.core import engine
from workbench.core.data import Dataset
from workbench.core.engine import NO_PROGRESS, Model, Progress, Ranking, Scores, Selection
from workbench.core.metrics import (
    Judgments,
    evaluate,
    mean_over_judged,
    parse_metric,
    trec_tie_order,
)
from workbench.core.params import Params

DEFAULT_METRICS = ("ndcg@10", "mrr@10", "p@10", "r@100", "map@100", "judged@10")


# Metrics read a ranking in trec_eval's tie order, which can pull a document tied at the cut
# of a shallow ranking above one the cut kept: every face ranks at least this deep (the
# window's depth), so that a metric is the same number in the window, a sweep and the CLI.
MIN_DEPTH = 100


# a metric without a cut-off (`map`, `r`) reads the first 1,000 results, as trec_eval reads a
# run of the usual depth — whatever else is asked for beside it
WHOLE_DEPTH = 1000


def metric_depth(metric_names: Sequence[str]) -> int:
    """The ranking depth the metrics need: the largest cut-off, at least MIN_DEPTH; a metric
    without one (`map`) reads the first WHOLE_DEPTH results."""
    cuts = [parse_metric(m)[1] for m in metric_names]
    return max([MIN_DEPTH, *(WHOLE_DEPTH if k is None else k for k in cuts)])


@dataclass
class Result:
    """The outcome of one combine: scores, the ranked (and selected) lists, and metrics."""

    scores: Scores
    ranking: Ranking
    per_query: dict[str, NDArray[np.float64]] = field(default_factory=dict)
    means: dict[str, float] = field(default_factory=dict)
    # the model's selection the ranking was cut by (None: not selected): what a query returns
    # in all, past the ranking's depth, is counted from `scores` with it (`selection_figures`)
    selection: Selection | None = None


class Pipeline:
    """A model bound to a dataset, with its prepared arrays held for live recombination."""

    def __init__(self, model: Model, dataset: Dataset,
                 params: Mapping[str, object] | None = None,
                 *, progress: Progress = NO_PROGRESS, use_cache: bool = True) -> None:
        self.model = model
        self.dataset = dataset
        self.params: Params = model.schema.resolve(params)
        self.prepared: Any = engine.prepare(model, dataset, self.params, progress,
                                            use_cache=use_cache)
        self.judgments: Judgments | None = None
        if dataset.qrels:
            self.judgments = Judgments.build(dataset.qrels, dataset.queries.ids,
                                             dataset.corpus.index)

    def update(self, overrides: Mapping[str, object], *,
               progress: Progress = NO_PROGRESS) -> None:
        """Change parameters; re-prepare only when a prepare-stage parameter changed."""
        new = self.model.schema.resolve({**self.params, **overrides})
        schema = self.model.schema
        if schema.prepare_values(new) != schema.prepare_values(self.params):
            self.prepared = engine.prepare(self.model, self.dataset, new, progress)
        self.params = new

    def run(self, metric_names: Sequence[str] = DEFAULT_METRICS, *, depth: int | None = None,
            select: bool = True, hint: NDArray[np.int64] | None = None) -> Result:
        """Combine, rank every query and evaluate: the live path of a slider tick (`hint`:
        the previous tick's `ranking.pair`, as the window passes it)."""
        k = depth if depth is not None else metric_depth(metric_names)
        return run_live(self.model, self.prepared, self.params, self.judgments, metric_names, k,
                        select=select, hint=hint)


def run_live(model: Model, prepared: Any, params: Params, judgments: Judgments | None,
             metric_names: Sequence[str], depth: int, *, select: bool = True,
             hint: NDArray[np.int64] | None = None) -> Result:
    """Combine, rank to `depth` with the model's selection, evaluate when judged. `hint`:
    the previous result's `ranking.pair`, which speeds up the top k (`ranking.top_k`)."""
    selection = model.selection_params(params) if select else None
    deep = max(depth, model.live_depth(prepared, params, depth))
    name_rank = judgments.name_rank if judgments is not None else None
    # the depth cuts a run of equal scores only where the model has no limit or offset of its
    # own (what the system returns is its to choose, ties included): there the members
    # trec_eval would read first are kept, not the model's first — one entry more shows
    # whether a run crosses
    cut_ties = (name_rank is not None and _scores_every_pair(model)
                and (selection is None or (selection.offset == 0 and selection.limit is None)))
    scores = model.combine_to_depth(prepared, params,
                                    deep + cut_ties + (selection.offset if selection else 0))
    full = engine.rank(scores, deep + cut_ties, selection, hint)
    if cut_ties:
        assert name_rank is not None
        ranking = trec_cut(full, scores, depth, name_rank)
        full = ranking if deep == depth else engine.head(full, deep)
    else:
        ranking = full if deep == depth else engine.head(full, depth)
    result = Result(scores=scores, ranking=ranking, selection=selection)
    if judgments is not None and metric_names:
        result.per_query = _evaluate_ranking(ranking, judgments, metric_names)
        result.per_query.update(model.extra_metrics(prepared, params, scores, full,
                                                    judgments))
        result.means = {m: mean_over_judged(v, judgments) for m, v in result.per_query.items()}
    return result


def _evaluate_ranking(ranking: Ranking, judgments: Judgments,
                      metric_names: Sequence[str]) -> dict[str, NDArray[np.float64]]:
    # metrics read the results in trec_eval's order (ties by document id descending), the
    # order in which trec_eval reads the run file written from this ranking
    docs = ranking.docs
    if judgments.name_rank is not None:
        width = _tie_complete_width(ranking.scores, metric_names)
        docs = trec_tie_order(ranking.docs[:, :width], ranking.scores[:, :width],
                              judgments.name_rank)
    cut = [m for m in metric_names if parse_metric(m)[1] is not None]
    whole = [m for m in metric_names if parse_metric(m)[1] is None]
    out = evaluate(cut, docs, judgments) if cut else {}
    if whole:  # the first WHOLE_DEPTH, however deep another metric made the ranking
        out.update(evaluate(whole, docs[:, :WHOLE_DEPTH], judgments))
    return {m: out[m] for m in metric_names}


def _scores_every_pair(model: Model) -> bool:
    """Whether the model ranks every document, so that all that tie at the cut are there: not
    one that can keep only its `vector_candidates` per query (exact to that depth with its
    own order at a tie, whatever that value; equal scores at the cut keep that order, so a
    pruned ranking equals the all-pairs one)."""
    return "vector_candidates" not in model.schema


def trec_cut(r: Ranking, scores: Scores, width: int,
             name_rank: NDArray[np.int64]) -> Ranking:
    """The first `width` entries of each row of `r` (ranked at least one deeper), where a
    run of equal scores crosses the cut, with its members that trec_eval reads first
    (document id descending, `name_ranks`), taken from all the row's tied pairs in `scores`:
    the ones a run file of this depth must hold for trec_eval to score it as a deeper run.
    Other rows are cut as they are; a tie group costs one pass over its row's pairs."""
    if r.docs.shape[1] <= width or width == 0:
        return engine.head(r, width)
    s = r.scores
    crossing = np.flatnonzero((r.count > width) & (s[:, width] == s[:, width - 1]))
    if not crossing.size:
        return engine.head(r, width)
    docs, pair = r.docs[:, :width].copy(), r.pair[:, :width].copy()
    for q in crossing.tolist():
        at_cut = s[q, width - 1]
        first = int(np.flatnonzero(s[q, :width] == at_cut)[0])
        lo, hi = int(scores.row_ptr[q]), int(scores.row_ptr[q + 1])
        tied = lo + np.flatnonzero((scores.total[lo:hi] == at_cut) & (scores.gate[lo:hi] == 0))
        if tied.size <= width - first:  # the model's scores hold no more of them
            continue
        ids = scores.docs[tied]
        keep = np.argsort(-name_rank[ids], kind="stable")[:width - first]
        docs[q, first:] = ids[keep]
        pair[q, first:] = tied[keep]
    return Ranking(docs=docs, scores=s[:, :width].copy(), pair=pair,
                   count=np.minimum(r.count, width))


def rescored(result: Result, judgments: Judgments, metric_names: Sequence[str]) -> Result:
    """`result` with `metric_names` evaluated on its ranking, as `run_live` would have (the
    ranking must reach each cut-off); its other metrics kept (a model's own, such as the
    bundle's, do not depend on the cut-off)."""
    per_query = {**result.per_query, **_evaluate_ranking(result.ranking, judgments,
                                                         metric_names)}
    return Result(result.scores, result.ranking, per_query,
                  {m: mean_over_judged(v, judgments) for m, v in per_query.items()},
                  result.selection)


def _tie_complete_width(scores: NDArray[np.float64], metric_names: Sequence[str]) -> int:
    """How many columns of a ranking (scores (Q, K), sorted in each row) the metrics can read
    after trec_eval's tie order: to the deepest cut-off, and on through every entry tied with
    the entry at that cut — a later entry scores less than it, so no reordering of ties brings
    one above the cut. K when a metric reads every result."""
    width = int(scores.shape[1])
    cuts = [parse_metric(m)[1] for m in metric_names]
    if None in cuts or not cuts:
        return width
    cut = int(max(c for c in cuts if c is not None))
    if cut >= width:
        return width
    at_cut = scores[:, cut - 1:cut]
    tied = scores[:, cut:] == at_cut  # NaN padding ties with nothing
    if not tied.any():
        return cut
    # tied entries follow the cut contiguously (rows are sorted): the longest such run
    return cut + int(tied.sum(axis=1).max())
