"""tune's --metric and --constraint read into objectives and bounds, each refused as typed."""

from __future__ import annotations

import argparse
import math
from typing import Any

from workbench.core.params import ParamError


def _objectives(args: argparse.Namespace, model: Any, dataset: Any) -> tuple[str, ...]:
    from workbench.core.cases import has_cases

    if args.metric:
        names = tuple(_objective_name(n) for n in args.metric.split(",") if n.strip())
    elif has_cases(dataset):
        names = ("cases",)
    elif model.id.startswith("codeledger"):
        names = ("bundle_recall",)
    else:
        names = ("ndcg@10",)
    if not names or len(names) > 3:
        raise ParamError("--metric takes one to three objectives")
    # r, map and mrr without @k are the very figure of r@1000, map@1000 and mrr@1000 (as
    # eval's rows are one, `metric_list`): a Pareto front of map against map@1000 is one
    # figure against itself (dr7 3), said under the name given first
    from workbench.core.pipeline import WHOLE_DEPTH

    same = {f"{base}@{WHOLE_DEPTH}": base for base in ("r", "map", "mrr")}
    keys = [same.get(n, n) for n in names]
    first = {k: n for k, n in reversed(list(zip(keys, names, strict=True)))}
    twice = sorted({first[k] for k in keys if keys.count(k) > 1})
    if twice:  # a "Pareto front" of one metric against itself
        raise ParamError(f"--metric names {', '.join(twice)} twice: give each objective once")
    return names


def _objective_name(name: str) -> str:
    """The objective's canonical name (`check_name`); a metric's own error said once, the
    name as typed (dr4 5: "unknown objective 'ndgc@10' (unknown metric 'ndgc@10' (did you
    mean …); valid: …)")."""
    from workbench.core.metrics import parse_metric
    from workbench.core.tuning.objectives import COMPUTED, MODEL_FIGURES, check_name

    try:
        return check_name(name)
    except ParamError:
        try:
            parse_metric(name)
        except ValueError as exc:
            said = str(exc)
            if said.startswith("unknown metric "):  # 'X' (did you mean …?); valid: …
                what = said.removeprefix("unknown metric ").partition("; valid:")[0]
                said = (f"unknown objective {what}; use a metric such as ndcg@10 or one of "
                        f"{', '.join([*MODEL_FIGURES, *COMPUTED])}")
            raise ParamError(said) from None
        raise


def _constraint(text: str) -> Any:
    from workbench.core.tuning import Constraint
    from workbench.core.tuning.objectives import check_name

    for op in ("<=", ">="):
        name, sep, bound = text.partition(op)
        if sep:
            try:
                value = float(bound)
            except ValueError:
                break
            if math.isfinite(value):
                metric = check_name(name)
                share = metric not in ("bundle_files", "bundle_tokens", "injected_tokens",
                                       "results")  # the others lie in [0, 1]
                if share and ((op == ">=" and value > 1) or (op == "<=" and value < 0)):
                    # refused before the run: every trial ran, then none had met it
                    raise ParamError(f"--constraint {text}: {metric} lies between 0 and 1, so "
                                     "no trial can meet it")
                return Constraint(metric, op, value)
    raise ParamError(f"--constraint expects NAME<=NUMBER or NAME>=NUMBER, got {text!r}")
