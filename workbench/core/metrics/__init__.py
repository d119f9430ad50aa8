"""Retrieval metrics as trec_eval computes them, vectorised over queries.

- `Judgments`: qrels indexed for a query set and a corpus (judgments.py)
- `METRICS`, `parse_metric`, `canonical_metric`, `metric_label`, `evaluate`,
  `mean_over_judged` (measures.py)
- `ranking_from_run`: a run ordered as trec_eval orders it; `trec_tie_order`: a ranking put in
  that order (runs.py)
- `paired_test`: randomization and bootstrap significance tests (significance.py)
- `BUNDLE_METRICS`, `with_bundle_f1`: a bundle-selecting model's own figures (bundle.py)
"""

from workbench.core.metrics.bundle import BUNDLE_METRICS, BundleMetric, with_bundle_f1
from workbench.core.metrics.judgments import Judgments
from workbench.core.metrics.measures import (
    METRICS,
    MetricFn,
    average_precision,
    canonical_metric,
    evaluate,
    evaluate_means,
    judged,
    mean_over_judged,
    metric_label,
    mrr,
    ndcg,
    parse_metric,
    precision,
    recall,
)
from workbench.core.metrics.runs import TieBreak, name_ranks, ranking_from_run, trec_tie_order
from workbench.core.metrics.significance import Method, PairedTest, paired_test

__all__ = [
    "BUNDLE_METRICS",
    "METRICS",
    "BundleMetric",
    "Judgments",
    "Method",
    "MetricFn",
    "PairedTest",
    "TieBreak",
    "average_precision",
    "canonical_metric",
    "evaluate",
    "evaluate_means",
    "judged",
    "mean_over_judged",
    "metric_label",
    "mrr",
    "name_ranks",
    "ndcg",
    "paired_test",
    "parse_metric",
    "precision",
    "ranking_from_run",
    "recall",
    "trec_tie_order",
    "with_bundle_f1",
]
