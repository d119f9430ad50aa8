"""A searched parameter that no objective reads, chosen last: the value nearest its start.

A parameter declared `figures_only` (CodeLedger's bundle stop rule and budget: sufficiency …)
moves only the model's own figures. Where no objective is one of them (a ranking metric, with
a constraint on bundle_tokens), every value of it scores alike: the search still draws one
(a constraint reads its figure, or --tune named it), and the value the kept trial drew is
random. On ky, `--metric ndcg@10 --constraint bundle_tokens<=6000` shipped sufficiency 0.1,
and held-out bundle recall fell from 0.93 to 0.31 with 1,071 tokens a bundle, far under the
6,000 allowed (dr2 1).

So such a parameter is settled after the trial is kept, on the kept trial's other values:
its start where that meets every constraint on the training queries, else the value nearest
its start (on the searched grid) that does; the objective, which does not read it, is the
same at every value, so this is the best value found with ties broken toward the start. Where
no single one meets them, the kept trial's own values stay.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from workbench.core.engine import NO_PROGRESS, Progress
from workbench.core.params import ParamValue
from workbench.core.tuning.evaluator import Evaluator
from workbench.core.tuning.objectives import MODEL_FIGURES, masked_mean
from workbench.core.tuning.space import Dimension, SearchSpace
from workbench.core.tuning.validation import Mask


def chosen_last(names: Sequence[str], objectives: Sequence[str],
                params: Mapping[str, Any]) -> list[str]:
    """Of `names`, those `params` (the model's parameters by name) declares `figures_only`
    where no objective is one of the model's own figures (`settle`): constraints aside."""
    if any(o in MODEL_FIGURES for o in objectives):
        return []
    return [n for n in names if n in params and params[n].figures_only]


def nearest_first(dim: Dimension, start: ParamValue) -> list[ParamValue]:
    """The values `dim` searches, the nearest to `start` first (a tie: the lower first);
    a choice's start first, then the others in their order."""
    values = dim.values()
    if dim.kind in ("choice", "bool") or isinstance(start, bool | str):
        return sorted(values, key=lambda v: v != start)
    s = float(start)
    return sorted(values, key=lambda v: (abs(float(v) - s), float(v)))


def meets_constraints(evaluator: Evaluator, constraints: Sequence[Any], train: Mask,
                      values: Mapping[str, ParamValue]) -> bool:
    """Whether `values` meet every constraint (a `study.Constraint`) on the `train` queries'
    mean."""
    if not constraints:
        return True
    per_q = evaluator.evaluate(values)
    return all(c.excess(masked_mean(per_q[c.name], train)) <= 0 for c in constraints)


def settle(evaluator: Evaluator, space: SearchSpace, objectives: Sequence[str],
           constraints: Sequence[Any], train: Mask,
           params: Mapping[str, ParamValue]) -> dict[str, ParamValue]:
    """`params` (a kept trial's) with each parameter `chosen_last` settled: all at their
    starts where that meets `constraints` (each a `study.Constraint`) on the `train`
    queries; else one moved, the first in `space`'s order, to the value nearest its start
    that meets them; else `params` as they are (the trial met them)."""
    names = chosen_last(space.names, objectives, evaluator.model.schema.by_name)
    if not names:
        return dict(params)
    start = {n: evaluator.base[n] for n in names}

    def meets(values: Mapping[str, ParamValue]) -> bool:
        return meets_constraints(evaluator, constraints, train, values)

    at_start = {**params, **start}
    if meets(at_start):
        return at_start
    dims = {d.name: d for d in space.dimensions}
    for name in names:
        for value in nearest_first(dims[name], start[name]):
            moved = {**at_start, name: value}
            if meets(moved):
                return moved
    return dict(params)


def _tied(a: float, b: float) -> bool:
    return (math.isnan(a) and math.isnan(b)) or math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-12)


def settle_ties(evaluator: Evaluator, space: SearchSpace, objectives: Sequence[str],
                constraints: Sequence[Any], train: Mask, params: Mapping[str, ParamValue],
                progress: Progress = NO_PROGRESS, label: str = ""
                ) -> tuple[dict[str, ParamValue], dict[str, ParamValue]]:
    """`params` (a kept trial's, settled) with each value put back to its start where that
    leaves every objective's mean on the `train` queries as it is and still meets
    `constraints`: one parameter at a time, in `space`'s order, each tried on the values the
    ones before it left. A value the objectives do not tell from the start's is a random
    draw (decision-memory's inject_snippet_chars 11 → 180 with nDCG tied, rv53 d): a tie is
    broken toward the start, as `settle` breaks it for a parameter no objective reads. Only
    the training queries are read, so a held-out score stays held out. Each evaluation
    reports to and polls `progress` as a trial does (the window's Cancel, a stop flag: a
    cancel lands between two of them; `label`: the study, as said). Returns the values and,
    of each parameter put back, the value the trial had drawn."""
    values = dict(params)
    changed = [d.name for d in space.dimensions if d.name in values
               and not _same(values[d.name], evaluator.base[d.name])]
    if not changed:
        return values, {}
    per_q = evaluator.evaluate(values)
    target = [masked_mean(per_q[o], train) for o in objectives]
    back: dict[str, ParamValue] = {}
    for k, name in enumerate(changed):
        progress(k / len(changed), f"{label + ': ' if label else ''}scoring ties with the "
                 f"start, {name} ({k + 1} of {len(changed)})")
        trial = {**values, name: evaluator.base[name]}
        per_q = evaluator.evaluate(trial)
        if not all(_tied(masked_mean(per_q[o], train), t) for o, t in zip(objectives, target,
                                                                          strict=True)):
            continue
        if not all(c.excess(masked_mean(per_q[c.name], train)) <= 0 for c in constraints):
            continue
        back[name] = values[name]
        values = trial
    return values, back


def _same(a: object, b: object) -> bool:
    """Equal, numbers to 1e-9 (a snapped value may differ from the start's in its last bits)."""
    if isinstance(a, int | float) and isinstance(b, int | float) \
            and not isinstance(a, bool) and not isinstance(b, bool):
        return math.isclose(a, b, rel_tol=0.0, abs_tol=1e-9)
    return a == b
