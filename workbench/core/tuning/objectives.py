"""What a study maximises or minimises: per-query values, averaged over the queries it may see.

Every objective is a float64 (Q,) array over the dataset's queries, NaN where a query does not
count (unjudged, or not an eval case; for `results` and `injected_tokens`, a query that is no
turn, as eval counts them: `Evaluator`), so that a fold is a mask and costs nothing extra:

- any ranking metric the workbench computes (`ndcg@10`, `r@100`, `mrr@10`, `map@100` …), as
  trec_eval computes it (maximised);
- a model's own per-query figures (`bundle_recall`, `bundle_precision` and their per-task
  harmonic mean `bundle_f1` maximised; `bundle_files`, `bundle_tokens` minimised — CodeLedger);
- `cases`: 1 where a pi-lodestone eval case passes (every expected id in its top K, no
  forbidden one), 0 where it fails — the mean is the pass rate, × cases the pass count;
- `injected_tokens`: the tokens a turn injects, ⌈Σ snippet length⌉ / 4 over the selected
  results (pi-lodestone's estimate; the snippets the model shows at the trial's parameters
  where it shows any, else `diagnostics.excerpt_length`: `selection_figures`);
- `results`: how many results a query returns after the model's selection (minimised).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
from numpy.typing import NDArray

from workbench.core import selection_figures
from workbench.core.data import Dataset
from workbench.core.metrics import canonical_metric, parse_metric, with_bundle_f1
from workbench.core.params import ParamError
from workbench.core.pipeline import Result

Direction = Literal["maximize", "minimize"]
PerQuery = NDArray[np.float64]

# a model's own per-query figures (Model.extra_metrics) and which way is better
MODEL_FIGURES: dict[str, Direction] = {
    "bundle_recall": "maximize", "bundle_precision": "maximize", "bundle_f1": "maximize",
    "bundle_files": "minimize", "bundle_tokens": "minimize",
}
COMPUTED: dict[str, Direction] = {
    "cases": "maximize", "injected_tokens": "minimize", "results": "minimize",
}


@dataclass
class ObjectiveContext:
    """What the computed objectives need from the dataset, gathered once."""

    n_queries: int
    case_rows: list[tuple[int, int, NDArray[np.int64], NDArray[np.int64]]] = field(
        default_factory=list)  # (query, top K, expected docs, forbidden docs)
    snippet_chars: NDArray[np.float64] = field(default_factory=lambda: np.zeros(0))

    @classmethod
    def build(cls, dataset: Dataset, names: Sequence[str]) -> ObjectiveContext:
        ctx = cls(len(dataset.queries))
        index = dataset.corpus.index
        if "cases" in names:
            for qi, q in enumerate(dataset.queries):
                if "expected_top_ids" not in q.context:
                    continue
                expected = [index.get(x, -1) for x in q.context.get("expected_top_ids", ())]
                banned = [index[x] for x in q.context.get("must_not_include", ()) if x in index]
                ctx.case_rows.append((qi, int(q.context.get("top_k", 0)),
                                      np.asarray(expected, np.int64),
                                      np.asarray(banned, np.int64)))
            if not ctx.case_rows:
                raise ParamError("objective 'cases' needs eval cases (a pi-lodestone "
                                 "eval.jsonl); this dataset has none")
        if "injected_tokens" in names:
            ctx.snippet_chars = selection_figures.snippet_chars(dataset)
        return ctx


def direction(name: str) -> Direction:
    if name in MODEL_FIGURES:
        return MODEL_FIGURES[name]
    if name in COMPUTED:
        return COMPUTED[name]
    return "maximize"


def check_name(name: str) -> str:
    """The objective's canonical name, or ParamError listing what is valid."""
    name = name.strip().lower()
    if name in MODEL_FIGURES or name in COMPUTED:
        return name
    try:
        return canonical_metric(name)  # trec_eval's ndcg_cut_10 as the workbench's ndcg@10
    except ValueError as exc:
        raise ParamError(f"unknown objective {name!r} ({exc}); use a metric such as ndcg@10 "
                         f"or one of {', '.join([*MODEL_FIGURES, *COMPUTED])}") from None


# the ranking measures a cut at the end of a ranking can only lower: each counts the relevant
# documents in the top k over a denominator the cut leaves alone (k, the relevant ones, the
# ideal DCG), or the rank of the first one. judged@k divides by the documents retrieved, so a
# cut can raise it.
CUT_ONLY_LOWERS = frozenset(("ndcg", "mrr", "p", "r", "map"))


def cut_only_lowers(name: str) -> bool:
    """Whether a selection cut-off (a min score, a limit: each drops the end of a ranking,
    score descending) can only lower objective `name`, so that its loosest value scores best:
    the ranking metrics. Not `cases` (a cut drops forbidden ids), a model's own figures, nor
    the selection figures (`results`, `injected_tokens`), which are what a cut moves."""
    if name in MODEL_FIGURES or name in COMPUTED:
        return False
    try:
        base, _ = parse_metric(name)
    except ValueError:
        return False
    return base in CUT_ONLY_LOWERS


def ranking_metrics(names: Sequence[str]) -> list[str]:
    """The names the pipeline's metric step computes (the rest come from elsewhere)."""
    return [n for n in names if n not in MODEL_FIGURES and n not in COMPUTED]


def per_query(name: str, result: Result, ctx: ObjectiveContext) -> PerQuery:
    """Objective `name` for every query of `result`."""
    if name in COMPUTED:
        return _COMPUTE[name](result, ctx)
    figures = result.per_query
    if name == "bundle_f1" and name not in figures:  # derived from recall and precision
        figures = with_bundle_f1(figures)
    if name not in figures:
        if name in MODEL_FIGURES:
            raise ParamError(f"objective {name!r} is a figure this model does not compute")
        raise ParamError(f"objective {name!r} needs judgments; this dataset has none")
    return np.asarray(figures[name], np.float64)


def _cases(result: Result, ctx: ObjectiveContext) -> PerQuery:
    out = np.full(ctx.n_queries, np.nan)
    docs, count = result.ranking.docs, result.ranking.count
    for qi, k, expected, banned in ctx.case_rows:
        n = int(count[qi]) if k <= 0 else min(k, int(count[qi]))
        top = docs[qi, :n]
        ok = np.isin(expected, top).all() and not np.isin(banned, top).any()
        out[qi] = 1.0 if ok else 0.0
    return out


def _injected_tokens(result: Result, ctx: ObjectiveContext) -> PerQuery:
    return selection_figures.of_result("injected_tokens", result, ctx.snippet_chars)


def _results(result: Result, ctx: ObjectiveContext) -> PerQuery:
    return selection_figures.of_result("results", result)


_COMPUTE: dict[str, Callable[[Result, ObjectiveContext], PerQuery]] = {
    "cases": _cases, "injected_tokens": _injected_tokens, "results": _results,
}


def masked_mean(values: PerQuery, mask: NDArray[np.bool_]) -> float:
    """The mean over the queries in `mask` that count (not NaN); NaN when none does."""
    v = values[mask]
    v = v[~np.isnan(v)]
    return float(v.mean()) if v.size else float("nan")
