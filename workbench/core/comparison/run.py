"""Running the configurations: one prepare per model and prepare-stage values, one live combine
each, every metric set against the first configuration's with a paired test."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from workbench.core import engine
from workbench.core.comparison.configuration import Configuration
from workbench.core.comparison.result import Comparison, MetricRow
from workbench.core.data import Dataset
from workbench.core.diagnostics import counted_queries
from workbench.core.engine import NO_PROGRESS, Model, Progress
from workbench.core.metrics import Judgments, mean_over_judged
from workbench.core.metrics.bundle import BUNDLE_METRICS, with_bundle_f1
from workbench.core.metrics.significance import paired_test
from workbench.core.params import Params
from workbench.core.pipeline import DEFAULT_METRICS, Result, metric_depth, run_live


def higher_is_better(metric: str) -> bool:
    """Whether a larger value of `metric` is better: every ranking metric and bundle recall,
    precision and F1; not a bundle's files or tokens."""
    figure = BUNDLE_METRICS.get(metric)
    return figure is None or figure.higher_is_better


def compare_configurations(model: Model, dataset: Dataset, configs: Sequence[Configuration],
                           metrics: Sequence[str] = DEFAULT_METRICS, *,
                           n_resamples: int = 10_000, seed: int = 0,
                           progress: Progress = NO_PROGRESS,
                           prepared: tuple[Params, Any] | None = None) -> Comparison:
    """Every configuration run on `dataset` (one prepare per model and distinct prepare-stage
    values) and its metrics set against the first's. A configuration of another model
    (`Configuration.model`) runs with that model. `prepared`: a state of `model` already
    prepared for `dataset` and the values it was prepared with (the window's), used by
    every configuration of `model` that prepares alike."""
    if len(configs) < 2:
        raise ValueError("compare needs at least two configurations")
    names = [c.name for c in configs]
    if len(set(names)) != len(names):
        dup = next(n for n in names if names.count(n) > 1)
        raise ValueError(f"two configurations are named {dup!r}")
    # a bundle-selecting model's own figures come with any ranking metric (extra_metrics):
    # the ranking metrics go to the live path, at least one so that it evaluates
    ranked = [m for m in metrics if m not in BUNDLE_METRICS]
    depth = metric_depth(ranked)
    judgments = (Judgments.build(dataset.qrels, dataset.queries.ids, dataset.corpus.index)
                 if dataset.qrels else None)

    def key(m: Model, values: Params) -> str:
        return m.id + repr(sorted(m.schema.prepare_values(values).items()))

    states: dict[str, Any] = {}
    if prepared is not None:
        states[key(model, model.schema.resolve(prepared[0]))] = prepared[1]
    results: list[Result] = []
    inert: list[dict[str, str]] = []
    kept: list[Any] = []
    turns: list[Any] = []
    for i, config in enumerate(configs):
        own = config.model or model
        params = own.schema.resolve(config.params)
        span = progress.span(i / len(configs), (i + 1) / len(configs))
        state = states.get(key(own, params))
        if state is None:
            state = states[key(own, params)] = engine.prepare(own, dataset, params, span)
        span(1.0, f"running {config.name}")
        res = run_live(own, state, params, judgments, ranked or ["ndcg@10"], depth)
        inert.append(own.inert_params(state, params))
        kept.append(state)
        # the queries its selection figures count (eval's rule: a manual search beside
        # injections injects nothing; dr5 2)
        turns.append(counted_queries(own, state, params))
        if judgments is not None and len(ranked) < len(metrics):
            res.per_query = with_bundle_f1(res.per_query)
            res.means = {m: mean_over_judged(v, judgments) for m, v in res.per_query.items()}
        results.append(res)
    comparison = Comparison(model, dataset, list(configs), results, list(metrics),
                            inert=inert, prepared=kept, turns=turns)
    # the paired tests count the judged queries, as the means do: a count every task has
    # (bundle files, tokens) counted the ones set aside too
    judged = judgments.judged_mask if judgments is not None else None
    # a model that selects no bundle has no bundle figure (bm25 beside codeledger): its mean
    # is NaN there, with no difference or test
    missing = np.full(len(dataset.queries), np.nan)
    for metric in metrics:
        if not any(metric in r.per_query for r in results):
            continue
        first = results[0].per_query.get(metric, missing)
        if judged is not None:
            first = first[judged]
        row = MetricRow(metric, [], [], [], [], [])
        for j, res in enumerate(results):
            values = res.per_query.get(metric, missing)
            values = values if judged is None else values[judged]
            mean = res.means.get(metric, float("nan"))
            row.means.append(mean)
            row.deltas.append(mean - row.means[0])
            if j == 0 or np.isnan(values).all() or np.isnan(first).all():
                row.p_values.append(None)
                row.improved.append(0)
                row.worsened.append(0)
                continue
            test = paired_test(first, values, n_resamples=n_resamples, seed=seed)
            row.p_values.append(test.p_value)
            up, down = test.improved, test.worsened  # queries whose value rose / fell
            if not higher_is_better(metric):
                up, down = down, up
            row.improved.append(up)
            row.worsened.append(down)
        comparison.rows.append(row)
    return comparison
