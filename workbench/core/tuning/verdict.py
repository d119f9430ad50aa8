"""Whether a run advises against the values it tuned: one text for every face that keeps them.

`tune` prints "keep the starting values" where the tuned values gain nothing on the queries
they never saw; the values are still written (`--out`) and saved (the window's "tuned on …"
configuration), since they were asked for. The file and the configuration carry that advice
as their own `verdict` (`TunedOn.verdict`), so a reader who ships whatever the file holds is
told, not only the terminal that ran the search (review rb 1).
"""

from __future__ import annotations

from typing import Any


def against(result: Any) -> str:
    """"keep the starting values; held-out ndcg@10 0.6131 → 0.6111" where the values written
    are not the starting ones and their held-out change on the primary objective is a loss
    (Δ < 0: the terminal's rule, `tune_report`; a held-out mean unchanged, as where the one
    held-out query sits at the metric's ceiling, is no evidence either way, dr1 4); under
    k-fold the figures are an estimate for tuning this way, not these values' scores, and
    are said so (dr1 5). "" where the run kept the starting values, tuned nothing, held no
    query out, or where the starting values break a constraint (they cannot be kept, so
    there is nothing better to advise). One clause after another, no parenthesis inside
    another where a reader puts it in one (dr5 6)."""
    why = grounds(result)
    return f"keep the starting values; {why}" if why else ""


def grounds(result: Any) -> str:
    """What `against` rests on: "held-out ndcg@10 0.6131 → 0.6111", or under k-fold "tuning
    this way gained nothing held out (k-fold estimate, ndcg@10 0.6131 → 0.6111)"; "" where it
    gives no verdict."""
    from workbench.core.tuning.objectives import direction

    final, t = result.final, result.test
    if t is None or not final.best or final.kept_start or final.start_breaks:
        return ""
    metric = result.spec.objectives[0]
    up = direction(metric) == "maximize"
    gain = t.mean_b - t.mean_a if up else t.mean_a - t.mean_b
    if not gain < 0:  # a gain, none, or NaN (no held-out query scored)
        return ""
    figures = f"{metric} {t.mean_a:.4f} → {t.mean_b:.4f}"
    if result.validation.kind == "kfold":
        return f"tuning this way gained nothing held out (k-fold estimate, {figures})"
    return f"held-out {figures}"


__all__ = ["against", "grounds"]
