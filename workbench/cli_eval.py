"""CLI subcommands that measure a query set: `eval` (metrics, per-query files, TREC runs, fixture
cases, a model's own bundle figures) and `sweep` (a metric over one parameter's range)."""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from workbench.cli_output import check_output, write_outputs
from workbench.core import engine
from workbench.core.csv_out import csv_text
from workbench.core.data import Dataset
from workbench.core.engine import Progress
from workbench.textout import format_table, progress_bar


def cmd_eval(args: argparse.Namespace) -> int:
    from workbench.cli import EXIT_OK, UsageError, _load, _model_and_params, _pipeline

    # every output checked before the work, and written only after it succeeded
    outputs = {arg: check_output(value, arg) for arg, value in
               (("--per-query", args.per_query), ("--run", args.run)) if value is not None}
    dataset = _load(args)
    if not dataset.qrels:
        from workbench.core.formats.code_repo import is_code_repo

        if is_code_repo(Path(args.data)):
            raise UsageError(f"{args.data}: no tasks to evaluate (give --queries tasks.jsonl, "
                             "written by `workbench tasks-from-git`, or keep one at "
                             ".codeledger/tasks.jsonl)")
        raise UsageError(f"{dataset.source or dataset.name}: no judgments to evaluate against "
                         "(give --qrels FILE)")
    metrics = _metric_list(args.metrics)
    model, params = _model_and_params(args)
    pipe = _pipeline(model, dataset, params, f"preparing {model.id} on {dataset.name}")
    result = pipe.run(metrics)
    assert pipe.judgments is not None
    judged = int(pipe.judgments.judged_mask.sum())
    print(f"{dataset.name}: {len(dataset.corpus):,} documents, {judged} judged queries; "
          f"model {model.id}")
    changed = model.schema.changed(params)
    if changed:
        print("parameters: " + ", ".join(f"{k}={v}" for k, v in changed.items()))
    extra = [m for m in result.means if m not in metrics]  # the model's own (bundle_*)
    print(format_table(["metric", "mean"], [[m, _mean_text(m, result.means[m])]
                                            for m in [*metrics, *extra]]))
    _print_cases(dataset, result, verbose=args.cases)
    if hasattr(model, "bundles"):
        from workbench.cli_code import print_bundle_summary

        print_bundle_summary(pipe)
    texts: list[tuple[str, Path | None, str]] = []
    if "--per-query" in outputs:
        path = outputs["--per-query"]
        texts.append(("--per-query", path, _per_query_text(path, dataset, pipe, result, metrics)))
    if "--run" in outputs:
        from workbench.core.formats.trec import format_trec_run

        run = engine.to_run(result.ranking, dataset.corpus.ids, dataset.queries.ids)
        texts.append(("--run", outputs["--run"], format_trec_run(run, f"workbench-{model.id}")))
    write_outputs(texts)
    for arg, path, _ in texts:
        if path is not None:
            what = "per-query metrics" if arg == "--per-query" else "TREC run"
            print(f"{what} written to {path}")
    return EXIT_OK


def _mean_text(name: str, value: float) -> str:
    return f"{value:,.1f}" if name in ("bundle_files", "bundle_tokens") else f"{value:.4f}"


def _print_cases(dataset: Dataset, result: Any, *, verbose: bool) -> None:
    """For fixture cases (eval.jsonl): pass/fail per case, recall and precision."""
    from workbench.core.cases import check_cases, has_cases

    if not has_cases(dataset):
        return
    report = check_cases(dataset, result.ranking)
    print(f"\ncases: {report.passed}/{len(report.cases)} pass; recall {report.recall:.3f}, "
          f"precision {report.precision:.3f}")
    for c in report.cases:
        if verbose or not c.passed:
            why = "; ".join(filter(None, [
                f"missing {', '.join(c.missing)}" if c.missing else "",
                f"forbidden {', '.join(c.forbidden)}" if c.forbidden else ""]))
            print(f"  {'pass' if c.passed else 'FAIL'}  {c.query}" + (f": {why}" if why else ""))


def _per_query_text(path: Path | None, dataset: Dataset, pipe: Any, result: Any,
                    metrics: Sequence[str]) -> str:
    """Per-query metrics as JSON (a .json path) or CSV (anything else, and stdout)."""
    mask = pipe.judgments.judged_mask
    metrics = [*metrics, *(m for m in result.per_query if m not in metrics)]
    rows = [{"query_id": q.id, **{m: float(result.per_query[m][i]) for m in metrics}}
            for i, q in enumerate(dataset.queries) if mask[i]]
    if path is not None and path.suffix.lower() == ".json":
        return json.dumps(rows, indent=2) + "\n"
    return csv_text(["query_id", *metrics],
                    [[r["query_id"], *(f"{r[m]:.6f}" for m in metrics)] for r in rows])


def cmd_sweep(args: argparse.Namespace) -> int:
    """A metric over a range of one parameter, the others held: the best value marked."""
    from workbench.cli import EXIT_OK, UsageError, _load, _model_and_params, _pipeline
    from workbench.core.tune import MAX_POINTS, parse_values, sweep

    metrics = _metric_list(args.metrics)
    model, params = _model_and_params(args)
    values = parse_values(model.schema[args.sweep], args.values,
                          None if args.force else MAX_POINTS)  # checked before loading
    dataset = _load(args)
    if not dataset.qrels:
        raise UsageError(f"{dataset.source or dataset.name}: no judgments to sweep against")
    pipe = _pipeline(model, dataset, params, f"preparing {model.id} on {dataset.name}")
    with progress_bar(f"sweeping {args.sweep}") as bar:
        points = sweep(pipe, args.sweep, values, metrics, Progress(on_progress=bar))
    first = metrics[0]
    best = max(points, key=lambda p: p.metrics[first])
    changed = model.schema.changed(params)
    print(f"{dataset.name}, model {model.id}, sweeping {args.sweep}"
          + (f"; held: {', '.join(f'{k}={v}' for k, v in changed.items())}" if changed else ""))
    rows = [[p.value, *(f"{p.metrics[m]:.4f}" for m in metrics),
             "← best" if p is best else ""] for p in points]
    print(format_table([args.sweep, *metrics, ""], rows))
    return EXIT_OK


def _metric_list(spec: str) -> list[str]:
    from workbench.core.metrics import parse_metric

    metrics = [m.strip().lower() for m in spec.split(",") if m.strip()]
    for m in metrics:
        try:
            parse_metric(m)
        except ValueError as exc:
            from workbench.cli import UsageError

            raise UsageError(str(exc)) from None
    return metrics
