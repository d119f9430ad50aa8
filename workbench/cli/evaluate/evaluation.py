"""`workbench eval`: the metrics measured over the judged queries and the files written
(--per-query, --run); without judgments, what the selection returns."""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from workbench.cli.common import (
    EXIT_OK,
    UsageError,
    informative_metrics,
    load_data,
    metric_list,
    model_and_params,
    pipeline,
    say_fitted,
)
from workbench.cli.evaluate.counted import (
    NOT_COUNTED,
    counted_text,
    figure_mean,
    figure_queries,
    left_out_notes,
    not_counted,
)
from workbench.cli.evaluate.judgments import judgments_hint, no_judgments
from workbench.cli.evaluate.metrics import (
    CODE_METRICS,
    EVAL_METRICS,
    check_bundle_metrics,
    code_tasks,
)
from workbench.cli.evaluate.run_ids import check_run_file_ids
from workbench.cli.evaluate.summary import _mean_text, _print_summary, figure_glosses
from workbench.cli.output import (
    check_output,
    check_outputs_apart,
    check_table_output,
    input_files,
    write_outputs,
)
from workbench.core import engine
from workbench.core.csv_out import csv_text
from workbench.core.data import Dataset
from workbench.core.metrics import BUNDLE_METRICS, parse_metric
from workbench.core.params import value_text
from workbench.core.pipeline import WHOLE_DEPTH, metric_depth
from workbench.core.selection_figures import FIGURES, selects, snippet_chars
from workbench.core.selection_figures import of_result as figure_per_query
from workbench.core.tuned_on import held_out_queries, read_tuned_on, twins_set_aside
from workbench.textout import format_table, say


def cmd_eval(args: argparse.Namespace) -> int:
    # every output checked before the work, and written only after it succeeded
    outputs = {arg: check(value, arg) for arg, value, check in
               (("--per-query", args.per_query, check_table_output),
                ("--run", args.run, check_output)) if value is not None}
    check_outputs_apart(list(outputs.items()), input_files(args),
                        {"--per-query": (".csv", ".json"), "--run": (".trec", ".run")})
    if sum(path is None for path in outputs.values()) > 1:  # a CSV then a run, unparseable
        raise UsageError("--per-query - and --run -: one of them can go to standard output")
    if args.depth is not None and args.run is None:
        raise UsageError("--depth sets how deep the --run file goes: give --run OUT.trec")
    model, params = model_and_params(args)
    # what the selection returns (results, empty, injected_tokens), as sweep and tune take
    # them: counted beside the ranking metrics, over the same judged queries
    named = [m.strip() for m in (args.metrics or "").split(",") if m.strip()]  # as typed
    figures = list(dict.fromkeys(m.lower() for m in named if m.lower() in FIGURES))
    asked = ",".join(m for m in named if m.lower() not in FIGURES)
    metrics = (metric_list(asked if args.metrics is not None  # "" names none: refused
                           else (CODE_METRICS if code_tasks(args, model) else EVAL_METRICS))
               if asked or not figures else [])
    check_bundle_metrics(metrics, model)
    ranked_by = [m for m in metrics if m not in BUNDLE_METRICS]  # what the ranking serves
    depth = args.depth or metric_depth(ranked_by)
    dataset = load_data(args)
    if "--run" in outputs:  # an id a TREC file cannot hold: said before the work
        check_run_file_ids(args, dataset)
    if not dataset.qrels and args.metrics is None and selects(model):
        figures = list(FIGURES)  # what it returns, judged or not (as sweep's default)
        metrics = []
    if not dataset.qrels and figures and not metrics and not outputs:
        return _eval_figures(args, dataset, model, params, figures)
    if not dataset.qrels:
        if figures and metrics:  # the figures need no judgments; the metrics beside them do
            raise UsageError(f"{dataset.source or dataset.name}: no judgments to evaluate "
                             f"{', '.join(metrics)} against (give "
                             f"{judgments_hint(args, dataset)}); --metrics "
                             f"{','.join(figures)} alone is counted without them")
        no_judgments(args, dataset, "evaluate")
    metrics = informative_metrics(metrics, dataset, bool(args.metrics))
    notes: list[str] = []
    tuned = read_tuned_on(args.params) if args.params else None
    if tuned is not None:  # as it holds for the file's own values (edited since? another model?)
        from workbench.core.params import load_params_file

        tuned, why = tuned.applies_to(model.id, load_params_file(args.params))
        if why:
            notes.append(f"{Path(args.params).name!r}: {why}")
    if tuned is not None:
        changed = _overridden(model, args, params)
        if changed:  # its queries are still set aside; its held-out figures are of other values
            tuned = dataclasses.replace(tuned, held_n=0, verdict="")
        judged_all = sum(1 for docs in (dataset.qrels or {}).values() if docs)
        # of them, those set aside only as repeats of queries tuned on (dE 3)
        args.tuned_twins = twins_set_aside(
            dataset, [("", tuned)], [q for q, docs in (dataset.qrels or {}).items() if docs])
        # what is left over decides (held_out_queries, as compare and report): a held-out
        # part is counted, a split's leftovers are not (dr1 2, 3)
        dataset, held = held_out_queries(dataset, [(Path(args.params).name, tuned)],
                                         args.all_queries)
        # the header says them
        args.tuned_out = judged_all - sum(1 for docs in (dataset.qrels or {}).values() if docs)
        notes = [*held, *notes]  # the record's own note (edited since) kept after them
        if changed:
            notes.append(f"-p changes {', '.join(changed)} from {Path(args.params).name!r}: "
                         "tune's held-out figures were of the file's values, not these")
    pipe = pipeline(model, dataset, params, f"preparing {model.id} on {dataset.name}")
    say_fitted(model, dataset)  # a figure on tasks the defaults were fitted on (rv2 4)
    result = _measure(pipe, metrics)
    assert pipe.judgments is not None
    judged = int(pipe.judgments.judged_mask.sum())
    # the injection figures over the judged turns why-stats --live counts (rv51 3, 6), as
    # sweep counts them; what is left out, of the judged queries
    counted, left_out = (figure_queries(pipe, pipe.judgments.judged_mask) if figures
                         else (None, None))
    if figures:
        _add_figures(result, dataset, figures, pipe.judgments.judged_mask, counted)
        # in the order named (a stable sort: the model's own figures stay after)
        metrics = sorted([*metrics, *figures],
                         key=lambda m: named.index(m) if m in named else len(named))
    # with a file on standard output (`-`), the summary goes to standard error: the output
    # stays a file that parses
    to_stdout = any(path is None for path in outputs.values())
    with contextlib.redirect_stdout(sys.stderr) if to_stdout else contextlib.nullcontext():
        metrics = _print_summary(
            args, dataset, model, params, pipe, result, metrics, notes, judged,
            figures_over=judged if counted is None else int(counted.sum()),
            left_out=left_out_notes([("", left_out)]),
            searches_only=left_out is not None and left_out.searches_only)
    texts: list[tuple[str, Path | None, str]] = []
    if "--per-query" in outputs:
        path = outputs["--per-query"]
        # the injection figures' cells empty where eval left the query out of their mean
        reasons = not_counted(pipe) if any(m in FIGURES for m in metrics) else None
        texts.append(("--per-query", path, _per_query_text(
            path, dataset, pipe, result, metrics,
            reasons[0] if reasons is not None else None)))
    if "--run" in outputs:
        from workbench.core.formats.trec import format_trec_run

        ranking = (result.ranking if depth == metric_depth(ranked_by)
                   else pipe.run((), depth=depth).ranking)
        run = engine.to_run(engine.head(ranking, depth), dataset.corpus.ids,
                            dataset.queries.ids)
        try:  # a document ranked whose id holds whitespace (one never ranked is no matter)
            texts.append(("--run", outputs["--run"],
                          format_trec_run(run, f"workbench-{model.id}")))
        except ValueError as exc:
            raise UsageError(f"--run {args.run}: {exc}; nothing was written") from None
    write_outputs(texts)
    # the figures' cells of the queries their means leave out, said where the file is
    blank = (int((pipe.judgments.judged_mask & ~counted).sum())
             if "--per-query" in outputs and counted is not None else 0)
    if blank:  # in the data's own noun, as the summary says it ("the 2 cases")
        from workbench.core.tuning.data import dataset_nouns, one_of

        many = dataset_nouns(dataset)[1]
        path = outputs["--per-query"]
        blank_in, column = (("null", "field") if path is not None
                            and path.suffix.lower() == ".json" else ("blank", "column"))
        said = (f"{', '.join(m for m in metrics if m in FIGURES)} are {blank_in} on the "
                f"{blank:,} {one_of(many) if blank == 1 else many} not counted above "
                f"({column} {NOT_COUNTED} says why), so each {column}'s mean is the one shown")
    for arg, path, _ in texts:
        if path is not None:
            what = ("per-query metrics" if arg == "--per-query"
                    else f"TREC run (each query's top {depth:,})")
            say(f"{what} written to {path}" + (f"; {said}" if blank and arg == "--per-query"
                                                else ""),
                file=sys.stderr if to_stdout else sys.stdout)
        elif blank and arg == "--per-query":  # on standard output: said on standard error
            say(f"per-query metrics on standard output: {said}", file=sys.stderr)
    whole = [m for m in metrics if m not in BUNDLE_METRICS and m not in FIGURES
             and parse_metric(m)[1] is None]
    if "--run" in outputs and whole and depth > WHOLE_DEPTH:  # trec_eval reads the whole file
        say(f"note: {', '.join(whole)} read each query's first {WHOLE_DEPTH:,} results; the "
            f"run holds {depth:,}, of which trec_eval reads all unless given -M "
            f"{WHOLE_DEPTH}", file=sys.stderr if to_stdout else sys.stdout)
    return EXIT_OK


def _eval_figures(args: argparse.Namespace, dataset: Dataset, model: Any, params: Any,
                  figures: Sequence[str]) -> int:
    """eval without judgments, of what the selection returns (results, empty,
    injected_tokens): each figure's mean over every query, as sweep counts it."""
    pipe = pipeline(model, dataset, params, f"preparing {model.id} on {dataset.name}")
    result = pipe.run(())
    chars = snippet_chars(dataset) if "injected_tokens" in figures else None
    n, q = len(dataset.corpus), len(dataset.queries)
    # the queries why-stats --live counts as turns (a manual search injects nothing; rv51 3)
    mask, left_out = figure_queries(pipe)
    if mask is None:
        mask = np.ones(q, np.bool_)
    means = {name: figure_mean(figure_per_query(name, result, chars), mask) for name in figures}
    say(f"{dataset.name}: {n:,} document{'' if n == 1 else 's'}, {q:,} "
        f"quer{'y' if q == 1 else 'ies'} (no judgments); model {model.id}")
    changed = model.schema.changed(params)
    if changed:
        say("parameters: " + ", ".join(f"{k}={value_text(v)}" for k, v in changed.items()))
    print(format_table(["figure", "mean"], [[m, _mean_text(m, means[m])] for m in figures]))
    for line in left_out_notes([("", left_out)]):
        say(f"note: {line}")
    counted = int(mask.sum())
    over = (f"all {q:,} quer{'y' if q == 1 else 'ies'}" if counted == q
            else counted_text(counted, q, "query" if q == 1 else "queries"))
    for line in figure_glosses(figures, over, model,
                               left_out is not None and left_out.searches_only, params=params):
        say(line)
    say("these say how much is returned, not how well (no judgments: give "
        f"{judgments_hint(args, dataset)} to measure quality)")
    return EXIT_OK


def _add_figures(result: Any, dataset: Dataset, figures: Sequence[str], judged: Any,
                 counted: Any = None) -> None:
    """Each selection figure per query into `result`, its mean over the judged queries (the
    queries tune's objective and constraints average: tune's held-out table reads the same)
    that `counted` keeps (bool (Q,): the turns of a model with query modes, `figure_queries`;
    None: every one)."""
    chars = snippet_chars(dataset) if "injected_tokens" in figures else None
    keep = judged if counted is None else judged & counted
    for name in figures:
        values = figure_per_query(name, result, chars)
        result.per_query[name] = values
        result.means[name] = figure_mean(values, keep)


def _overridden(model: Any, args: argparse.Namespace, params: Any) -> list[str]:
    """The parameters of the --params file that -p set to other values."""
    from workbench.core.params import resolve_file

    filed = resolve_file(model.schema, args.params)
    return [k for k, v in filed.items() if k in params and params[k] != v]


def _measure(pipe: Any, metrics: Sequence[str]) -> Any:
    """`pipe.run` with bundle figures among `metrics`: the ranking metrics go to the pipeline,
    the model's own figures come with them (`Model.extra_metrics`), `bundle_f1` is added."""
    from workbench.core.metrics import mean_over_judged, with_bundle_f1

    ranking = [m for m in metrics if m not in BUNDLE_METRICS]
    result = pipe.run(ranking)
    if pipe.judgments is None or not hasattr(pipe.model, "bundles"):
        return result
    if not ranking:  # the pipeline evaluates nothing without a ranking metric
        result.per_query = dict(pipe.model.extra_metrics(
            pipe.prepared, pipe.params, result.scores, result.ranking, pipe.judgments))
    result.per_query = with_bundle_f1(result.per_query)
    result.means = {m: mean_over_judged(v, pipe.judgments) for m, v in result.per_query.items()}
    return result


def _per_query_text(path: Path | None, dataset: Dataset, pipe: Any, result: Any,
                    metrics: Sequence[str], why: Sequence[str] | None = None) -> str:
    """Per-query metrics as JSON (a .json path) or CSV (anything else, and stdout), a row per
    judged query. `why`: per query, why the injection figures (results, empty,
    injected_tokens) leave it out ("" where counted; `counted.not_counted`): its figures are
    empty in CSV, null in JSON, and a last column, `not_counted`, says why, so that each
    column's mean is the one eval prints (a search's own figure had stood in the column)."""
    mask = pipe.judgments.judged_mask
    judged = [i for i in range(len(dataset.queries)) if mask[i]]
    blank = why is not None and any(why[i] for i in judged)

    def value(m: str, i: int) -> float | None:
        if blank and m in FIGURES and why is not None and why[i]:
            return None
        return float(result.per_query[m][i])

    rows = [{"query_id": dataset.queries[i].id, **{m: value(m, i) for m in metrics},
             **({NOT_COUNTED: why[i] or None} if blank and why is not None else {})}
            for i in judged]
    if path is not None and path.suffix.lower() == ".json":
        return json.dumps(rows, indent=2) + "\n"
    return csv_text(["query_id", *metrics, *([NOT_COUNTED] if blank else [])],
                    [[r["query_id"], *("" if r[m] is None else f"{r[m]:.6f}" for m in metrics),
                      *([r[NOT_COUNTED] or ""] if blank else [])] for r in rows])
