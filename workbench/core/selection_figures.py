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
  (pi-lodestone's estimate; snippet lengths from `diagnostics.excerpt_length`).

None of them is better high or low: they are the cost side of a trade-off, never a "best".
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from workbench.core.data import Dataset
from workbench.core.engine import Model
from workbench.core.ranking import Ranking

PerQuery = NDArray[np.float64]

FIGURES = ("results", "empty", "injected_tokens")  # labelled by metrics.metric_label
# the parameters that decide how much a query returns (a model with one of them selects)
SELECTION_PARAMS = frozenset(("min_score", "limit", "inject_min_score", "inject_limit",
                              "search_min_score", "search_limit"))


def selects(model: Model | None) -> bool:
    """Whether the model has a min score or limit to tune, so that its selection figures
    move with its parameters."""
    return model is not None and any(name in model.schema for name in SELECTION_PARAMS)


def snippet_chars(dataset: Dataset) -> PerQuery:
    """float64 (D,): each document's snippet length, as `injected_tokens` counts it."""
    from workbench.core.diagnostics import excerpt_length

    return np.asarray([excerpt_length(d.text) for d in dataset.corpus], np.float64)


def per_query(name: str, ranking: Ranking, chars: PerQuery | None = None) -> PerQuery:
    """Figure `name` for every query of `ranking` (`chars`: `snippet_chars`, needed for
    `injected_tokens`). KeyError for a name that is not one of FIGURES."""
    count = np.asarray(ranking.count, np.int64)
    if name == "results":
        return count.astype(np.float64)
    if name == "empty":
        return np.where(count == 0, 100.0, 0.0)
    if name == "injected_tokens":
        if chars is None:
            raise ValueError("injected_tokens needs the documents' snippet lengths")
        docs = ranking.docs
        real = np.arange(docs.shape[1])[None, :] < count[:, None]
        total = np.where(real, chars[np.maximum(docs, 0)], 0.0).sum(axis=1)
        return np.asarray(np.floor(total / 4 + 0.5), np.float64)
    raise KeyError(name)


def means(names: Sequence[str], ranking: Ranking, chars: PerQuery | None = None
          ) -> dict[str, float]:
    """The mean of each figure over every query (NaN where there is no query)."""
    out: dict[str, float] = {}
    for name in names:
        values = per_query(name, ranking, chars)
        out[name] = float(values.mean()) if values.size else float("nan")
    return out
