"""What tune's held-out test of a configuration says, for a reader of its training
scores."""

from __future__ import annotations

import math
from typing import Any

from workbench.core.comparison import Comparison, higher_is_better
from workbench.report.text.compared import nouns, singular
from workbench.report.text.numbers import p_text, pair_texts


def _has_held_out(tuned: Any) -> bool:
    """Whether a `[tuned]` record carries held-out figures (tune --folds 0 keeps none)."""
    return bool(getattr(tuned, "held_n", 0)) and not math.isnan(getattr(tuned, "held_tuned",
                                                                         math.nan))


def held_out_estimate(comp: Comparison, name: str, metric: str) -> str:
    """The held-out figures tune recorded for configuration `name` on `metric`, in words ("" for
    none, or another metric's): what a reader of its training scores should believe."""
    t = comp.tuned.get(name)
    if t is None or not t.held_n or t.metric != metric or math.isnan(t.held_default) \
            or math.isnan(t.held_tuned):
        return ""
    p = "" if math.isnan(t.p_value) else f", p {p_text(t.p_value)}"
    before, after, delta = pair_texts(t.held_default, t.held_tuned)
    figures = f"{before} → {after} ({delta}{p})"
    if t.kfold:  # the procedure was tested, each fold's own values: not this file's
        # (review rv3, F9: "cran_tuned's ndcg@10 … 0.3714" of a file that is the defaults)
        return (f"on {t.held_n:,} held-out {nouns(comp)[1]}, tuning this way (k-fold: each "
                f"{singular(nouns(comp)[1])} scored by the values its own fold tuned, not by "
                f"{name}'s) against the starting values scored {metric} {figures}")
    return (f"on {t.held_n:,} held-out {nouns(comp)[1]}, tune measured {name}'s {metric} "
            f"against its own starting values: {figures}")


PRIMARY = "the primary comparison, tested alone"


def held_out_verdict(comp: Comparison, name: str, metric: str, aside: str = PRIMARY) -> str:
    """What tune's held-out test of configuration `name` on `metric` says, in the words an
    ordinary comparison uses ("" without a p): "no clear difference held out: it may be
    chance", "better held out, beyond chance (`aside`)" — `aside` saying how its p is
    judged, as the reader's line needs it (dJ 8: the report's had been made by replacing
    this one's words)."""
    from workbench.report.text.chance import _same_data

    t = comp.tuned.get(name)
    if t is None or not t.held_n or t.metric != metric or math.isnan(t.p_value) \
            or math.isnan(t.held_tuned) or math.isnan(t.held_default):
        return ""
    if not _same_data(comp, t):  # tuned on other documents: its figures are not of these
        return ""
    gain = t.held_tuned - t.held_default
    better = gain > 0 if higher_is_better(metric) else gain < 0
    # the primary comparison, tested alone at 0.05 as tune tests it (`chance`): the same
    # verdict whatever else is shown (review rb, 1). On a k-fold run the test is of the
    # procedure, each fold's own values: not of the values written (review rb, 9)
    if t.kfold:
        if t.p_value < 0.05:
            return (f"tuning this way scored {'better' if better else 'worse'} held out, "
                    f"beyond chance ({aside})")
        return "tuning this way made no clear difference held out: it may be chance"
    if t.p_value < 0.05:
        return f"{'better' if better else 'worse'} held out, beyond chance ({aside})"
    return "no clear difference held out: it may be chance"
