"""A bundle-selecting model's own figures (CodeLedger: the files it would hand the agent for a
task), by name, so that `eval` and `sweep` can ask for them beside the ranking metrics.

The model computes `bundle_recall`, `bundle_precision`, `bundle_files` and `bundle_tokens` per
task (`Model.extra_metrics`); `bundle_f1` is derived here, per task, from the first two, and
averaged like every other metric (over the judged tasks), so it is the mean of the tasks' F1
scores, not the F1 of the mean recall and mean precision.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

PerQuery = NDArray[np.float64]


@dataclass(frozen=True)
class BundleMetric:
    name: str
    help: str
    higher_is_better: bool
    count: bool  # a count per bundle (files, tokens), not a fraction in [0, 1]


BUNDLE_METRICS: dict[str, BundleMetric] = {m.name: m for m in (
    BundleMetric("bundle_recall", "needed files in the bundle / needed files", True, False),
    BundleMetric("bundle_precision", "needed files in the bundle / files in the bundle",
                 True, False),
    BundleMetric("bundle_f1", "harmonic mean of bundle recall and precision, per task",
                 True, False),
    BundleMetric("bundle_files", "files in the bundle", False, True),
    BundleMetric("bundle_tokens", "tokens in the bundle", False, True),
)}
"""The bundle figures by name, in the order they are shown."""


def bundle_f1(recall: PerQuery, precision: PerQuery) -> PerQuery:
    """2·R·P / (R + P) per task: 0 where both are 0, NaN where either is NaN (unjudged)."""
    total = recall + precision
    f1 = np.divide(2.0 * recall * precision, total, out=np.zeros_like(total), where=total > 0)
    return np.where(np.isnan(total), np.nan, f1)


def with_bundle_f1(per_query: Mapping[str, PerQuery]) -> dict[str, PerQuery]:
    """`per_query` with `bundle_f1` added after `bundle_precision`, when both parts are there."""
    out = dict(per_query)
    if "bundle_recall" in out and "bundle_precision" in out:
        f1 = bundle_f1(np.asarray(out["bundle_recall"], np.float64),
                       np.asarray(out["bundle_precision"], np.float64))
        out = {}
        for name, values in per_query.items():
            out[name] = values
            if name == "bundle_precision":
                out["bundle_f1"] = f1
    return out
