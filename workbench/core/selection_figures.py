"""What a model's selection returns, measured without judgments.

A memory system's user often has no relevance judgments, only the memories and the prompts
(a pi-memory folder: decisions and an injections log). What they tune then is how much is
injected: the min score and the limit decide how many results a turn gets, how many turns get
none, and how many tokens that costs. These figures say that for any parameter values, per
query, so that `sweep` and the window's Metric vs parameter can draw them where no quality
metric exists:

- `results`: how many results a query returns after the model's selection;
- `empty`: 100 where a query returns nothing, else 0 (the mean is the share of queries, in %);
- `injected_tokens`: the tokens its results would inject, ⌈Σ snippet length⌉ / 4
  (pi-lodestone's estimate). Where the model shows snippets of its own (decision-memory's
  scores carry `snippet_length(query, doc)`), each is the snippet it shows at the parameters
  in use, as why-stats --live counts it; else each result's text as `diagnostics.
  excerpt_length` estimates it (`snippet_chars`).

None of them is better high or low: they are the cost side of a trade-off, never a "best".
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from workbench.core.data import Dataset
from workbench.core.engine import Model
from workbench.core.params import value_text
from workbench.core.ranking import Ranking, Scores, Selection, rank

PerQuery = NDArray[np.float64]
SnippetLength = Callable[[int, int], int]
"""(query, doc) → the length of the snippet the model shows for that result"""

FIGURES = ("results", "empty", "injected_tokens")  # labelled by metrics.metric_label
# the parameters that decide how much a query returns (a model with one of them selects)
SELECTION_PARAMS = frozenset(("min_score", "limit", "inject_min_score", "inject_limit",
                              "search_min_score", "search_limit", "min_similarity"))


def selects(model: Model | None) -> bool:
    """Whether the model has a min score or limit to tune, so that its selection figures
    move with its parameters."""
    return model is not None and any(name in model.schema for name in SELECTION_PARAMS)


def snippet_chars(dataset: Dataset) -> PerQuery:
    """float64 (D,): each document's snippet length, as `injected_tokens` estimates it for a
    model that shows no snippet of its own (`shown_lengths`)."""
    from workbench.core.diagnostics import excerpt_length

    return np.asarray([excerpt_length(d.text) for d in dataset.corpus], np.float64)


def shown_lengths(scores: Scores | None) -> SnippetLength | None:
    """The model's own snippet lengths, where its scores carry them (decision-memory's, cut
    at its inject_snippet_chars or search_snippet_chars for each query's mode); None
    where it shows none."""
    found = getattr(scores, "snippet_length", None)
    return found if callable(found) else None


def returned(scores: Scores, selection: Selection) -> NDArray[np.int64]:
    """int64 (Q,): how many results each query returns after `selection`, however deep the
    ranking it was cut to: the ungated pairs with a finite score (what `ranking.top_k`
    ranks), at or above the min score, then the offset and the limit."""
    ok = (scores.gate == 0) & np.isfinite(scores.total)
    if selection.min_score is not None:
        with np.errstate(invalid="ignore"):
            ok &= scores.total >= selection.min_score
    n = np.bincount(scores.pair_query()[ok], minlength=scores.n_queries).astype(np.int64)
    start = np.minimum(n, selection.offset)
    stop = n if selection.limit is None else np.minimum(n, start + selection.limit)
    out: NDArray[np.int64] = stop - start
    return out


def of_result(name: str, result: Any, chars: PerQuery | None = None) -> PerQuery:
    """Figure `name` for every query of a pipeline `Result`: counted from its scores with the
    selection it was ranked with, so a query returning more than the ranking's depth (a model
    without a limit: 93.7 results a query on average read as 75.4 at depth 100) counts all of
    them; from the ranking alone where it was not selected."""
    selection = getattr(result, "selection", None)
    lengths = shown_lengths(getattr(result, "scores", None))
    if selection is None:
        return per_query(name, result.ranking, chars, lengths=lengths)
    return per_query(name, result.ranking, chars, scores=result.scores, selection=selection,
                     lengths=lengths)


def per_query(name: str, ranking: Ranking, chars: PerQuery | None = None, *,
              scores: Scores | None = None, selection: Selection | None = None,
              lengths: SnippetLength | None = None) -> PerQuery:
    """Figure `name` for every query of `ranking` (`chars`: `snippet_chars`, needed for
    `injected_tokens` unless `lengths` gives the model's own snippet lengths,
    `shown_lengths`). With `scores` and the `selection` the ranking was cut by, what each
    query returns in all, past the ranking's depth too. KeyError for a name that is not one
    of FIGURES."""
    count = np.asarray(ranking.count, np.int64)
    if name == "injected_tokens" and chars is None and lengths is None:
        raise ValueError("injected_tokens needs the documents' snippet lengths")
    if scores is not None and selection is not None:
        full = returned(scores, selection)
        if name == "injected_tokens" and (full > count).any():
            if selection.limit is None and selection.offset == 0:  # every eligible pair
                ok = (scores.gate == 0) & np.isfinite(scores.total)
                if selection.min_score is not None:
                    with np.errstate(invalid="ignore"):
                        ok &= scores.total >= selection.min_score
                queries = scores.pair_query()[ok]
                total = np.bincount(queries, weights=_lengths(queries, scores.docs[ok], chars,
                                                              lengths),
                                    minlength=scores.n_queries)
                return np.asarray(np.floor(total / 4 + 0.5), np.float64)
            ranking = rank(scores, int(full.max(initial=0)), selection)  # deep enough
        count = full
    if name == "results":
        return count.astype(np.float64)
    if name == "empty":
        return np.where(count == 0, 100.0, 0.0)
    if name == "injected_tokens":
        docs = ranking.docs
        real = np.arange(docs.shape[1])[None, :] < count[:, None]
        queries = np.broadcast_to(np.arange(docs.shape[0])[:, None], docs.shape)
        total = np.bincount(queries[real], weights=_lengths(queries[real], docs[real], chars,
                                                            lengths),
                            minlength=docs.shape[0])
        return np.asarray(np.floor(total / 4 + 0.5), np.float64)
    raise KeyError(name)


def _lengths(queries: NDArray[np.integer[Any]], docs: NDArray[np.integer[Any]],
             chars: PerQuery | None, lengths: SnippetLength | None) -> PerQuery:
    """float64 (n,): the snippet length of each result (queries[i], docs[i])."""
    if lengths is not None:
        return np.asarray([lengths(int(q), int(d)) for q, d in zip(queries, docs, strict=True)],
                          np.float64)
    assert chars is not None
    return np.asarray(chars[docs], np.float64)


def tokens_gloss(model: Any, searches_only: bool = False, params: Mapping[str, Any] | None = None,
                 swept: str = "", method_only: bool = False) -> str:
    """How injected_tokens is estimated, for this model: the characters of each result's
    snippet / 4, as pi-lodestone estimates; a model with no snippet of its own (dense,
    vault-search) is told what stands in for one (it had been "snippet characters" of models
    that have none). eval, sweep, compare and the report say the same (dr5 2). With
    `searches_only` (every query a manual search), what each search returns, as why-stats
    says it (dr7 4: "tokens injected per query" had stood under "none is injected"). A model
    that shows snippets is told which parameter cuts them (dr1 5: it had said "up to 180
    characters" whatever inject_snippet_chars or search_snippet_chars was), and, with the
    `params` in use, at what value (rv 3: the parameter alone had been named); a parameter
    `swept` is named alone, its value each row's. `method_only` (with `searches_only`): the
    estimate alone, where "tokens each search returns" has been said just above it (dJ 9: it
    had been said twice on consecutive lines)."""
    if not hasattr(model, "injections"):
        how = "whitespace collapsed, up to 180 characters, / 4"
        if searches_only:
            est = (f"estimated as pi-lodestone does: each returned result's text {how}; "
                   "nothing is injected")
            return est if method_only else f"tokens each search returns ({est})"
        return (f"{model.id} injects no snippet of its own: estimated as pi-lodestone would "
                f"inject these results, each result's text {how}")

    def value(name: str) -> str:  # "" where no value is at hand, or it is each row's
        return ("" if params is None or name == swept or name not in params
                else value_text(params[name]))

    inject, search = value("inject_snippet_chars"), value("search_snippet_chars")
    cut = ("whitespace collapsed, cut to {} around the query's terms, each cut end marked "
           "'…', / 4")
    if searches_only:
        to = (f"{search} characters (search_snippet_chars)" if search
              else "search_snippet_chars characters")
        est = (f"estimated as pi-lodestone does: each returned snippet's characters, "
               f"{cut.format(to)}; nothing is injected")
        return est if method_only else f"tokens each search returns ({est})"
    to = (f"{inject or 'inject_snippet_chars'} characters ("
          + ("inject_snippet_chars; " if inject else "")
          + (f"{search}, search_snippet_chars, for a search)" if search
             else "search_snippet_chars for a search)"))
    return "estimated as pi-lodestone does: each injected snippet's characters, " + cut.format(to)


def tokens_glosses(glosses: Sequence[tuple[str, str]]) -> str:
    """One gloss of injected_tokens for several configurations, (name, `tokens_gloss`) each:
    the one gloss where they agree, else each one's, named (rv 3: a comparison of
    decision-memory, which counts its own snippets, with a model estimated at 180
    characters had glossed the first model's method alone)."""
    by_gloss: dict[str, list[str]] = {}
    for name, gloss in glosses:
        by_gloss.setdefault(gloss, []).append(name)
    if len(by_gloss) == 1:
        return next(iter(by_gloss))
    # " | " between them, "; " being used within a gloss; a gloss that opens with its
    # configuration's name is not named again (dC 6: "bm25: bm25 injects no snippet")
    return " | ".join(gloss if gloss.startswith(f"{', '.join(names)} ") else
                      f"{', '.join(names)}: {gloss}" for gloss, names in by_gloss.items())


def means(names: Sequence[str], result: Any, chars: PerQuery | None = None
          ) -> dict[str, float]:
    """The mean of each figure of a pipeline `Result` over every query (`of_result`; NaN
    where there is no query)."""
    out: dict[str, float] = {}
    for name in names:
        values = of_result(name, result, chars)
        out[name] = float(values.mean()) if values.size else float("nan")
    return out



@dataclass(frozen=True)
class FigureRow:
    """One figure across configurations (`compare_figures`): entry i is configuration i, its
    difference, test and counts against configuration 0 (entry 0: 0 / None). `more` / `fewer`
    count the queries on which configuration i returns more / less of the figure (more
    results, newly empty, more tokens): neither is better, a selection trades what it
    returns against what it costs.

    p_values: the paired randomisation (sign-flip) test of the per-query differences: how
    often flipping the sign of each query's difference at random gives a mean difference at
    least this large, i.e. whether the two return different amounts beyond query-to-query
    noise; None where no query differs. It says nothing of which is better."""

    figure: str
    means: list[float]
    deltas: list[float]
    p_values: list[float | None]
    more: list[int]
    fewer: list[int]


def compare_figures(names: Sequence[str], results: Sequence[Any], counted: NDArray[np.bool_],
                    chars: PerQuery | None = None, *, n_resamples: int = 10_000,
                    seed: int = 0, turns: Sequence[NDArray[np.bool_] | None] = ()
                    ) -> list[FigureRow]:
    """Each figure of `names` for every pipeline `Result` of `results` (configuration 0
    first), over the queries `counted` marks (bool (Q,): the judged ones, every query where
    nothing is judged), set against configuration 0 (see `FigureRow`). `turns`, per
    configuration: bool (Q,), the queries its figures count as turns (`diagnostics.
    counted_queries`: eval's rule, a manual search beside injections left out), None where
    every query counts; each mean is over its own turns, each test over the queries both
    count."""
    from workbench.core.metrics.significance import paired_test

    own = [counted if j >= len(turns) or (t := turns[j]) is None else counted & t
           for j in range(len(results))]
    rows = []
    for name in names:
        row = FigureRow(name, [], [], [], [], [])
        values = [of_result(name, r, chars) for r in results]
        for j, full in enumerate(values):
            v = full[own[j]]
            mean = float(v.mean()) if v.size else float("nan")
            row.means.append(mean)
            row.deltas.append(mean - row.means[0])
            both = own[0] & own[j]
            test = paired_test(values[0][both], full[both], n_resamples=n_resamples,
                               seed=seed) if j and both.any() else None
            moved = test is not None and test.improved + test.worsened > 0
            row.p_values.append(test.p_value if test is not None and moved else None)
            row.more.append(test.improved if test is not None else 0)
            row.fewer.append(test.worsened if test is not None else 0)
        rows.append(row)
    return rows
