"""Which metric a summary and the per-query chart speak of, and how each query moved
on it."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from workbench.core.comparison import Comparison, higher_is_better
from workbench.report.text.compared import nouns, singular, trained_pair
from workbench.report.text.numbers import delta_text, is_count


def tied_gain(comp: Comparison, i: int, metric: str) -> str:
    """Where every query on which configuration i scores better on `metric` has its judged
    relevant results there tied at one score with another result it returns (a min score of
    0 returning unscored candidates, all at 0): the order among them is the ranking's
    tie-break, not the scores, and the sentence says so; "" otherwise."""
    qrels = comp.dataset.qrels or {}
    if not qrels or "@" not in metric or is_count(metric):
        return ""
    k = int(metric.split("@")[1]) if metric.split("@")[1].isdigit() else 0
    d = comp.per_query_delta(metric, i)
    up = d > 0 if higher_is_better(metric) else d < 0
    better = np.flatnonzero(np.nan_to_num(up, nan=False).astype(bool))
    if not len(better) or not k:
        return ""
    ranking, ds = comp.results[i].ranking, comp.dataset
    scores: set[float] = set()
    for q in better:
        n = int(ranking.count[q])
        docs, values = ranking.docs[q, :n], ranking.scores[q, :n]
        judged = qrels.get(ds.queries.ids[q], {})
        rel = [j for j in range(min(k, n)) if judged.get(ds.corpus.ids[int(docs[j])], 0) > 0]
        if not rel or not all(np.count_nonzero(values == values[j]) > 1 for j in rel):
            return ""
        scores |= {float(values[j]) for j in rel}
    _, queries = nouns(comp)
    at = f"at score {_plain_score(scores.pop())}" if len(scores) == 1 else "at one score"
    return (f" On {'each' if len(better) > 1 else 'the'} {singular(queries)} it scores "
            f"better on, its relevant results are tied {at} with other results: where they "
            "sit among them is a tie-break, not the scores.")


def _plain_score(x: float) -> str:
    return f"{x:.4g}" if x else "0"


@dataclass(frozen=True)
class PerQuery:
    """Configuration i against the first on one metric, query by query: each query's
    difference, the queries with one in order (largest first), their count up / level /
    down, and the tally and extremes in words."""

    deltas: np.ndarray
    order: np.ndarray
    values: np.ndarray
    up: int
    same: int
    down: int
    tally: str
    most: list[str]


def per_query(comp: Comparison, i: int, metric: str,
              mark: Callable[[str, str], str] = lambda _kind, text: text,
              name: Callable[[str], str] = lambda text: text) -> PerQuery:
    """`mark(kind, text)` dresses the improved ("up") and worsened ("down") counts (HTML's
    colours), `name` a query id (escaped for the format). A bundle's size is a cost (more /
    fewer); against training scores nothing is called a gain (higher / lower)."""
    d = comp.per_query_delta(metric, i)
    have = np.flatnonzero(np.isfinite(d))
    order = have[np.argsort(-d[have], kind="stable")]  # improved first, as the window
    values = d[order]
    count = is_count(metric)
    up, down = int((values > 0).sum()), int((values < 0).sum())
    same = len(values) - up - down
    queries = comp.dataset.queries

    def named(qs: np.ndarray) -> str:
        return ", ".join(f"{name(queries[int(q)].id)} "
                         f"{delta_text(float(d[q]), count).replace('-', '−')}" for q in qs)

    top, bottom = order[:3][values[:3] > 0], order[::-1][:3][values[::-1][:3] < 0]
    if count:
        words = ("largest increases", "largest decreases")
        tally = (f"↑ {up} with more · {same} the same · ↓ {down} with fewer (a cost: "
                 "fewer is no gain where recall fell with it)")
    elif trained_pair(comp, i):
        words = ("largest rises", "largest falls")
        tally = (f"{up} higher · {same} the same · {down} lower (training scores: no "
                 "evidence either way)")
    else:
        words = ("most improved", "most worsened")
        tally = (f"{mark('up', f'▲ {up} improved')} · {same} unchanged · "
                 f"{mark('down', f'▼ {down} worsened')}")
    most = [f"{words[0]}: {named(top)}" if up else "",
            f"{words[1]}: {named(bottom)}" if down else ""]
    return PerQuery(d, order, values, up, same, down, tally, [m for m in most if m])


def headline_metric(comp: Comparison, i: int | None = None, j: int = 0) -> str:
    """The metric a summary speaks of: a bundle's recall where the model selects bundles
    (what the agent is handed: two configurations that differ in budget alone tie on R@10),
    else the table's first that measures quality (not a bundle's size, not judged@
    coverage); "" without one. Of the metrics every configuration has (bm25 beside
    codeledger has no bundle), or with `i`, those configurations j (the first by default)
    and i both have (the pair of codeledger and its preset speaks of bundles beside bm25
    too); a pair with a tuned side, on the metric tune tuned it for (`tuned_for`: rc 3,
    In short had judged the pair tune tested on bundle_recall, beside tune's own verdict on
    ndcg@10)."""
    if i is not None and (tuned := tuned_for(comp, j, i)):
        return tuned
    pair = range(len(comp.configs)) if i is None else (j, i)
    metrics = [r.metric for r in comp.rows
               if not any(math.isnan(r.means[j]) for j in pair if j < len(r.means))]
    if "bundle_recall" in metrics:
        return "bundle_recall"
    for m in metrics:
        if not is_count(m) and not m.startswith("judged@"):
            return m
    return ""


def tuned_for(comp: Comparison, a: int, b: int) -> str:
    """The metric configuration a or b was tuned for, as its `[tuned]` record names it,
    where the table has it for both; "" where neither carries a record, the two were tuned
    for different metrics, or either has no figure on it."""
    named = {str(getattr(comp.tuned.get(comp.configs[j].name), "metric", "") or "")
             for j in (a, b)} - {""}
    if len(named) != 1:
        return ""
    metric = named.pop()
    row = next((r for r in comp.rows if r.metric == metric), None)
    if row is None or any(math.isnan(row.means[j]) for j in (a, b)):
        return ""
    return metric


def chart_metric(comp: Comparison) -> str:
    """The metric the per-query chart shows: the summary's (`headline_metric`) where any query
    moved on it, else the first of the table's quality metrics that any query moved on (a
    chart of the first, where nothing moves, read as "nothing changed" while another metric
    fell), then a bundle's size, a cost; the headline (or the first) where none moved; ""
    without metrics."""
    headline = headline_metric(comp)
    quality = [r.metric for r in comp.rows if not is_count(r.metric)
               and not r.metric.startswith("judged@")]  # judged@: coverage, not quality
    costs = [r.metric for r in comp.rows if is_count(r.metric)]
    for metric in ([headline] if headline else []) + quality + costs:
        for i in range(1, len(comp.configs)):
            d = comp.per_query_delta(metric, i)
            if np.any(np.isfinite(d) & (d != 0)):
                return metric
    return headline or (comp.rows[0].metric if comp.rows else "")
