"""sweep of figures only (no best marked), and the points --out writes as JSON or CSV."""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from workbench.cli.common import EXIT_OK
from workbench.cli.evaluate.judgments import judgments_hint
from workbench.cli.evaluate.summary import _mean_text
from workbench.cli.evaluate.sweep_points import Point, _shown, row_label
from workbench.cli.output import check_table_output, write_outputs
from workbench.core.csv_out import csv_text
from workbench.core.data import Dataset
from workbench.core.metrics import metric_label
from workbench.core.params import value_text
from workbench.core.selection_figures import tokens_gloss
from workbench.textout import format_table, say


def _figures_only(args: argparse.Namespace, dataset: Dataset, model: Any, params: Any,
                  points: Sequence[Point], metrics: Sequence[str], out: Path | None,
                  swept: Sequence[Point], over: str = "", left_out: Sequence[str] = (),
                  searches_only: bool = False, searches_at: str = "") -> int:
    """A sweep of what each value returns (no judgments, or only these figures asked): the
    table, and no best — a figure is the cost side of a trade-off, better neither way.
    `over`: the queries the figures are the mean over (`counted.sweep_counted`; "": all),
    `left_out` the notes of the others; `searches_only`: at every value every query is a
    manual search, `searches_at` the values where it is ("at mode = search"), so that
    injected_tokens is glossed as what each search returns, as eval glosses it (dr7 4)."""
    changed = {k: v for k, v in model.schema.changed(params).items() if k != args.sweep}
    say(f"{dataset.name}, model {model.id}, sweeping {args.sweep}"
        + (f"; held: {', '.join(f'{k}={value_text(v)}' for k, v in changed.items())}"
           if changed else ""))
    in_use = _shown(model.schema[args.sweep], params[args.sweep])
    param = model.schema[args.sweep]
    rows = [[row_label(param, value), *(_mean_text(m, means[m]) for m in metrics)]
            for value, means in points]
    header = [args.sweep, *metrics]
    if any(value == in_use for value, _ in points):  # a column only where it marks a row,
        header.append("in use")  # and named (its rule had stood over no heading)
        rows = [[*row, "←" if value == in_use else ""]
                for row, (value, _) in zip(rows, points, strict=True)]
    print(format_table(header, rows))
    n = len(dataset.queries)
    width = max(len(m) for m in metrics)
    for line in left_out:
        say(f"note: {line}")
    say(f"what each value returns, the mean over "
        f"{over or f'all {n:,} quer' + ('y' if n == 1 else 'ies')}:")
    used = model.schema.resolve(params)  # its snippet lengths said, but the one swept
    for m in metrics:
        gloss = (metric_label(m) if m != "injected_tokens"
                 else tokens_gloss(model, True, used, args.sweep) if searches_only
                 else f"{metric_label(m)} ({tokens_gloss(model, params=used, swept=args.sweep)}"
                 + (f"; {searches_at}, what each search returns: nothing is injected)"
                    if searches_at else ")"))
        say(f"  {m.ljust(width)}  {gloss}", hang=width + 2)  # under the gloss
    say("no best is marked: these say how much is returned, not how well"
        + ("" if dataset.qrels else
           f" (no judgments: give {judgments_hint(args, dataset)} to measure quality)"))
    if out is not None:
        text = _sweep_text(out, args.sweep, swept, metrics, [], {
            "dataset": dataset.name, "model": model.id, "parameter": args.sweep,
            "held": changed, "best_by": None, "lower_is_better": False})
        write_outputs([("--out", out, text)])
        say(f"sweep written to {out}")
    return EXIT_OK


def _sweep_out(value: str) -> Path:
    path = check_table_output(value, "--out", stdout=False)
    assert path is not None
    return path


def _sweep_text(path: Path, name: str, points: Sequence[Point], metrics: Sequence[str],
                best: Sequence[int], about: dict[str, Any]) -> str:
    """The points as JSON (the run described, then one object per value) or as CSV (one row
    per value; `best` is 1 for each best value, tied ones included)."""
    def number(x: float) -> float | None:
        return None if math.isnan(x) else x

    if path.suffix.lower() == ".json":
        rows = [{name: value, **{m: number(means[m]) for m in metrics}, "best": i in best}
                for i, (value, means) in enumerate(points)]
        return json.dumps({**about, "metrics": list(metrics),
                           "best": [points[i][0] for i in best], "points": rows},
                          indent=2, ensure_ascii=False) + "\n"
    return csv_text([name, *metrics, "best"],
                    [[value_text(value) if isinstance(value, bool) else value,
                      *(f"{means[m]:.6f}" for m in metrics), int(i in best)]
                     for i, (value, means) in enumerate(points)])
