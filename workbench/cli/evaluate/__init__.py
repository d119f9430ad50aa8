"""CLI subcommands that measure a query set: `eval` (metrics, per-query files, TREC runs, fixture
cases, a model's own bundle figures) and `sweep` (metrics over one parameter's range, the best
value marked, ties said as ties, the points written as JSON or CSV with `--out`)."""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import math
import sys
from collections.abc import Sequence
from decimal import Decimal
from pathlib import Path
from typing import Any, NoReturn

import numpy as np

from workbench.cli.args import whole as whole_number
from workbench.cli.bundles import print_bundle_summary
from workbench.cli.common import (
    EXIT_OK,
    UsageError,
    add_data,
    add_model,
    beir_folder_of,
    idle_text,
    informative_metrics,
    left_out_note,
    load_data,
    mean_text,
    metric_list,
    model_and_params,
    pipeline,
)
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
from workbench.core.engine import NO_PROGRESS, Progress
from workbench.core.metrics import BUNDLE_METRICS, METRICS, metric_label, parse_metric
from workbench.core.params import value_text
from workbench.core.pipeline import WHOLE_DEPTH, metric_depth
from workbench.core.selection_figures import FIGURES, selects, snippet_chars
from workbench.core.selection_figures import of_result as figure_per_query
from workbench.core.tuned_on import held_out_queries, read_tuned_on
from workbench.textout import format_table, p_equals, progress_bar, say

EVAL_METRICS = "ndcg@10,mrr@10,p@10,r@100,map@100,judged@10"
# for code tasks (a git repository, or a model that selects bundles): a task's files are all
# judged (judged@10 is p@10), and R@10 is what code context is compared on (`bench --code`)
CODE_METRICS = "r@10,ndcg@10,mrr@10,p@10,r@100,map@100"
SWEEP_METRICS = "ndcg@10,mrr@10,r@100"
CODE_SWEEP_METRICS = "r@10,ndcg@10,mrr@10"


def no_judgments(args: argparse.Namespace, dataset: Dataset, verb: str) -> NoReturn:
    """The one error for data with no judgments (eval, compare, report), saying what to
    give: a repository's task file; --qrels; and, where --queries stood in for a BEIR
    folder's own queries, that its qrels/ are read only with them."""
    from workbench.core.formats.code_repo import is_code_repo

    if is_code_repo(Path(args.data)):
        raise UsageError(f"{args.data}: no tasks to {verb} (give --queries tasks.jsonl, "
                         "written by `workbench tasks-from-git`, or keep one at "
                         ".codeledger/tasks.jsonl)")
    raise UsageError(f"{dataset.source or dataset.name}: no judgments to {verb} against "
                     f"(give {judgments_hint(args, dataset)})")


def judgments_hint(args: argparse.Namespace, dataset: Dataset) -> str:
    """What to give for judgments: --qrels FILE (and --queries FILE where there are none);
    where --queries stood in for a BEIR folder's own queries, that its qrels/ are read only
    with them, and which file judges these."""
    given = "--qrels FILE" if len(dataset.queries) else "--queries FILE and --qrels FILE"
    beir = beir_folder_of(args.data)  # DATA a BEIR folder's corpus: the folder judges it
    if beir is not None and Path(args.data).name == "corpus.jsonl" and not len(dataset.queries):
        given += f"; or as DATA the BEIR folder {beir} this corpus.jsonl is in"
    folder = Path(args.data) / "qrels"
    if getattr(args, "queries", None) and folder.is_dir():
        split = getattr(args, "split", None) or "test"  # the split read, not the first file
        tsv = folder / f"{split}.tsv"
        tsv = tsv if tsv.is_file() else next(iter(sorted(folder.glob("*.tsv"))), folder)
        given += (f"; the folder's {folder.name}/ is read only with its own queries: "
                  f"--qrels {tsv} judges these")
    return given


def code_tasks(args: argparse.Namespace, model: Any) -> bool:
    """Code tasks: DATA is a git repository (or a bundled sample's history stream), or the
    model selects bundles."""
    from workbench.core.formats.code_repo import is_code_repo, is_sample_stream_folder

    data = Path(args.data)
    return hasattr(model, "bundles") or is_code_repo(data) or is_sample_stream_folder(data)


def add_commands(sub: Any) -> None:
    p = sub.add_parser("eval", help="metrics over a judged query set")
    add_data(p)
    add_model(p)
    p.add_argument("--metrics",
                   help=metrics_help(f"{EVAL_METRICS}, judged@10 left out where every "
                                     "judgment is of a relevant document (it is p@10 there)"
                                     f"; on a git repository or for a model "
                                     f"that selects bundles {CODE_METRICS}, and every bundle "
                                     "figure for such a model unless one is named")
                   + "; what the selection returns, as sweep and tune's --constraint count "
                   "it: results (per query), empty (%% of queries returning nothing), "
                   "injected_tokens (per query)")
    p.add_argument("--per-query", metavar="OUT.csv|OUT.json",
                   help="write per-query metrics: CSV or JSON, by the file's ending (- for CSV "
                        "on standard output)")
    p.add_argument("--run", metavar="OUT.trec", help="write the ranking as a TREC run file: "
                   "each query's top --depth documents")
    p.add_argument("--depth", type=whole_number(1), metavar="N",
                   help="documents per query in the --run file (default: as deep as the "
                   "metrics read — 100, 1,000 with map or another metric without @k, as "
                   "trec_eval); the figures printed do not change")
    p.add_argument("--all-queries", action="store_true",
                   help="with --params from `tune --out`: count every judged query, also those "
                   "the values were tuned on. By default those are left out where others remain "
                   "(a train → test or time split: there the figures would be training "
                   "scores); a k-fold file was tuned on every query, so all count anyway, "
                   "said to be training scores, as on the split a train → test file was tuned "
                   "on (the few it left over are no held-out part)")
    p.add_argument("--cases", action="store_true",
                   help="list every fixture case (eval.jsonl), not only the failing ones")
    p.set_defaults(func=cmd_eval)

    p = sub.add_parser("sweep", help="a metric over a range of one parameter, others held")
    add_data(p)
    add_model(p)
    p.add_argument("--sweep", "-s", required=True, metavar="PARAM", help="parameter to vary")
    p.add_argument("--values", help="low:high:step, or a,b,c (default: its slider's range "
                   "in at most 41 values, every 1, 2, 5, 10, … steps; a count whose range is "
                   "over 50× its default, such as a token budget, up to 4× the value in use)")
    p.add_argument("--metrics",
                   help=metrics_help(f"{SWEEP_METRICS}; on a git repository or for a model "
                                     f"that selects bundles {CODE_SWEEP_METRICS}")
                   + "; cases: the share of fixture cases passing (eval.jsonl), first by "
                   "default where the data has them; the first picks the best value (the most; "
                   "the fewest files or tokens); what the selection returns, judgments or not: "
                   "results (per query), empty (%% of queries returning nothing), "
                   "injected_tokens (per query) — the default without judgments for a model "
                   "with a min score or limit, never a best")
    p.add_argument("--out", "-o", metavar="FILE.json|FILE.csv",
                   help="also write every value's metrics, the best marked (format by the "
                   "extension)")
    p.add_argument("--force", action="store_true",
                   help="sweep even more than 1,000 values (each one a full evaluation)")
    p.set_defaults(func=cmd_sweep)


def metrics_help(default: str) -> str:
    """The --metrics help of eval and sweep: every name accepted, from the registries."""
    whole = [n for n in METRICS if _accepted(n)]
    return (f"comma-separated: {', '.join(f'{n}@k' for n in METRICS)} ({', '.join(whole)} "
            f"also without @k: the first 1,000 results, as trec_eval reads a run of that "
            f"depth); trec_eval's and ir_measures' names too: ndcg_cut_10 (ndcg_cut.10), "
            f"P_10, recall_100, map_cut_100, recip_rank, AP@100, RR@10; for a model that "
            f"selects bundles "
            f"(e.g. codeledger): {', '.join(BUNDLE_METRICS)} (default: {default})")


def _accepted(spec: str) -> bool:
    try:
        parse_metric(spec)
    except ValueError:
        return False
    return True


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
    result = _measure(pipe, metrics)
    assert pipe.judgments is not None
    judged = int(pipe.judgments.judged_mask.sum())
    if figures:
        _add_figures(result, dataset, figures, pipe.judgments.judged_mask)
        # in the order named (a stable sort: the model's own figures stay after)
        metrics = sorted([*metrics, *figures],
                         key=lambda m: named.index(m) if m in named else len(named))
    # with a file on standard output (`-`), the summary goes to standard error: the output
    # stays a file that parses
    to_stdout = any(path is None for path in outputs.values())
    with contextlib.redirect_stdout(sys.stderr) if to_stdout else contextlib.nullcontext():
        metrics = _print_summary(args, dataset, model, params, pipe, result, metrics, notes,
                                 judged)
    texts: list[tuple[str, Path | None, str]] = []
    if "--per-query" in outputs:
        path = outputs["--per-query"]
        texts.append(("--per-query", path, _per_query_text(path, dataset, pipe, result, metrics)))
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
    for arg, path, _ in texts:
        if path is not None:
            what = ("per-query metrics" if arg == "--per-query"
                    else f"TREC run (each query's top {depth:,})")
            say(f"{what} written to {path}", file=sys.stderr if to_stdout else sys.stdout)
    whole = [m for m in metrics if m not in BUNDLE_METRICS and m not in FIGURES
             and parse_metric(m)[1] is None]
    if "--run" in outputs and whole and depth > WHOLE_DEPTH:  # trec_eval reads the whole file
        say(f"note: {', '.join(whole)} read each query's first {WHOLE_DEPTH:,} results; the "
            f"run holds {depth:,}, of which trec_eval reads all unless given -M "
            f"{WHOLE_DEPTH}", file=sys.stderr if to_stdout else sys.stdout)
    return EXIT_OK




def check_run_file_ids(args: argparse.Namespace, dataset: Dataset) -> None:
    """A query or document id a TREC run cannot hold (empty, or holding whitespace: the format
    splits on it) refused before the work, every document's alike (a full table had been
    printed, then the run refused for a document it ranked), named where it was read: the
    JSON-lines file, line and field, or a vault's note."""
    from workbench.core.formats.trec import check_run_ids

    try:
        check_run_ids(dataset.queries.ids, dataset.corpus.ids)
    except ValueError as exc:
        # the id it names, one at a time in its order, to say where it was read
        for what, value in [*(("query id", q) for q in dataset.queries.ids),
                            *(("document id", d) for d in dataset.corpus.ids)]:
            try:
                check_run_ids(*(((value,), ()) if what == "query id" else ((), (value,))))
            except ValueError:
                break
        where, change = _id_source(args, value, what)
        raise UsageError(f"{where}{exc} (--run {args.run}): {change}, or leave out --run"
                         ) from None


def _id_source(args: argparse.Namespace, value: str, what: str) -> tuple[str, str]:
    """("FILE:LINE: field '_id': " of the JSON-lines record whose id is `value`, among the
    files the command reads (a document's in the corpus files, a query's in the query files
    first), "NOTE: " for a vault's note (its path is its id), "" where none is found; what to
    do: change the id, or rename the note)."""
    from workbench.core.formats.vault import vault_layout

    folder = Path(args.data)
    note = vault_layout(folder)[0] / value if folder.is_dir() else None
    if what == "document id" and note is not None and note.is_file():
        return f"{note}: ", "rename the note"
    queryish = ("queries", "tasks", "contexts")
    files = [(arg, p) for arg, p in input_files(args)
             if arg in ("DATA", "--queries") and p.suffix.lower() == ".jsonl" and p.is_file()]
    if what == "query id":  # --queries first, then the data's own query files
        files.sort(key=lambda f: (f[0] != "--queries", not f[1].name.startswith(queryish)))
    else:
        files = [f for f in files if f[0] == "DATA" and not f[1].name.startswith(queryish)]
    for _, path in files:
        try:
            with path.open(encoding="utf-8-sig", errors="replace") as lines:
                for n, line in enumerate(lines, start=1):
                    try:
                        record = json.loads(line)
                    except ValueError:
                        continue
                    if not isinstance(record, dict):
                        continue
                    field = next((k for k in ("_id", "id") if record.get(k) == value), None)
                    if field is not None:
                        return f"{path}:{n}: field '{field}': ", "change the id"
        except OSError:
            continue
    return "", "change the id"


def _eval_figures(args: argparse.Namespace, dataset: Dataset, model: Any, params: Any,
                  figures: Sequence[str]) -> int:
    """eval without judgments, of what the selection returns (results, empty,
    injected_tokens): each figure's mean over every query, as sweep counts it."""
    pipe = pipeline(model, dataset, params, f"preparing {model.id} on {dataset.name}")
    result = pipe.run(())
    chars = snippet_chars(dataset) if "injected_tokens" in figures else None
    means = {}
    for name in figures:
        values = figure_per_query(name, result, chars)
        means[name] = float(values.mean()) if values.size else math.nan
    n, q = len(dataset.corpus), len(dataset.queries)
    say(f"{dataset.name}: {n:,} document{'' if n == 1 else 's'}, {q:,} "
        f"quer{'y' if q == 1 else 'ies'} (no judgments); model {model.id}")
    changed = model.schema.changed(params)
    if changed:
        say("parameters: " + ", ".join(f"{k}={value_text(v)}" for k, v in changed.items()))
    print(format_table(["figure", "mean"], [[m, _mean_text(m, means[m])] for m in figures]))
    for m in figures:
        say(f"({m}: {metric_label(m)}, mean over all {q:,} quer{'y' if q == 1 else 'ies'}"
            + (f", {tokens_gloss(model)}" if m == "injected_tokens" else "") + ")")
    say("these say how much is returned, not how well (no judgments: give "
        f"{judgments_hint(args, dataset)} to measure quality)")
    return EXIT_OK


def tokens_gloss(model: Any) -> str:
    """How injected_tokens is estimated, for this model: the characters of each result's
    snippet / 4, as pi-lodestone estimates; a model with no snippet of its own (dense,
    vault-search) is told what stands in for one (it had been "snippet characters" of models
    that have none)."""
    how = "whitespace collapsed, up to 180 characters, / 4"
    if hasattr(model, "injections"):
        return f"estimated as pi-lodestone does: each injected snippet's characters, {how}"
    return (f"{model.id} injects no snippet of its own: estimated as pi-lodestone would inject "
            f"these results, each result's text {how}")


def _add_figures(result: Any, dataset: Dataset, figures: Sequence[str], judged: Any) -> None:
    """Each selection figure per query into `result`, its mean over the judged queries (the
    queries tune's objective and constraints average: tune's held-out table reads the same)."""
    chars = snippet_chars(dataset) if "injected_tokens" in figures else None
    for name in figures:
        values = figure_per_query(name, result, chars)
        result.per_query[name] = values
        result.means[name] = float(values[judged].mean()) if judged.any() else math.nan


def _overridden(model: Any, args: argparse.Namespace, params: Any) -> list[str]:
    """The parameters of the --params file that -p set to other values."""
    from workbench.core.params import resolve_file

    filed = resolve_file(model.schema, args.params)
    return [k for k, v in filed.items() if k in params and params[k] != v]


def _print_summary(args: argparse.Namespace, dataset: Dataset, model: Any, params: Any,
                   pipe: Any, result: Any, metrics: list[str], notes: list[str],
                   judged: int) -> list[str]:
    """The summary eval prints; the metrics shown (the model's own added when none was
    named)."""
    from workbench.core.tuning.data import dataset_nouns, one_of

    n = len(dataset.corpus)
    # the data's own noun ("tasks" of a repository), as the notes below say it (dr7 3)
    many = dataset_nouns(dataset)[1]
    say(f"{dataset.name}: {n:,} document{'' if n == 1 else 's'}, {judged:,} judged "
        f"{one_of(many) if judged == 1 else many}{_left_out(args, dataset)}; model {model.id}")
    say(judgments_line(args, dataset, metrics))
    empty = int((pipe.judgments.judged_mask & (result.ranking.count == 0)).sum())
    if empty:  # an all-zero table said why
        say(f"note: {empty:,} of the {judged:,} judged {many} retrieved nothing; each counts "
            "0 in every mean (as trec_eval -c)")
        # and why, where the model can tell (vault-search's phrase rule: a question of several
        # words matches no line), for the first such query
        nothing = np.flatnonzero(pipe.judgments.judged_mask & (result.ranking.count == 0))
        # the first query the model knows a reason for (another may have matched, its
        # results all below the min score)
        for q in (int(x) for x in nothing):
            reason = model.not_a_candidate(pipe.prepared, dataset, q, None, pipe.params)
            if reason:
                say(f"  e.g. {dataset.queries[q].id}: {reason}")
                break
    changed = model.schema.changed(params)
    if changed:
        say("parameters: " + ", ".join(f"{k}={value_text(v)}" for k, v in changed.items()))
    for note in notes:
        say(f"note: {note.replace('compared on', 'evaluated on')}"
            + (" (--all-queries counts all)" if note.startswith("compared on") else ""))
    if not any(m in BUNDLE_METRICS for m in metrics):  # none named: the model's own, all
        metrics = [*metrics, *(m for m in result.means if m not in metrics)]
    print(format_table(["metric", "mean"], [[m, _mean_text(m, result.means[m])]
                                            for m in metrics]))
    capped = _cap_note(model, params, pipe, result, metrics)
    if capped:
        say(f"note: {capped}")
    for m in (m for m in metrics if m in FIGURES):  # what the selection returns: glossed
        say(f"({m}: {metric_label(m)}, mean over the {judged:,} judged {many}"
            + (f", {tokens_gloss(model)}" if m == "injected_tokens" else "") + ")")
    judged_k = next((m for m in metrics if m.startswith("judged@")), None)
    if judged_k is not None:  # the one a newcomer does not know
        k = judged_k.partition("@")[2]
        say(f"({judged_k}: the share of each top {k} that has a judgment at all — of the "
            "documents retrieved, where fewer were, as ir-measures' Judged@k. The other "
            "metrics count an unjudged document as not relevant: where it is low, they "
            "may undercount)")
    from workbench.core.cases import has_cases

    if args.cases and not has_cases(dataset):
        say("note: --cases lists fixture cases (eval.jsonl); this data has none",
            file=sys.stderr)
    _print_cases(dataset, result, verbose=args.cases)
    if hasattr(model, "bundles"):
        _print_bundle_legend([m for m in metrics if m in BUNDLE_METRICS], model.id, judged)
        print_bundle_summary(pipe, pipe.judgments.judged_mask)  # the tasks counted above
    return metrics


def _left_out(args: argparse.Namespace, dataset: Dataset) -> str:
    """`left_out_note`, with the judged queries a --params file's values were tuned on (set
    aside: said in the header too, not only in the note below it)."""
    note = left_out_note(args, dataset)
    tuned = getattr(args, "tuned_out", 0)
    if not tuned:
        return note
    text = f"{tuned:,} the values were tuned on, left out: --all-queries counts them"
    return f" ({note[2:-1]}; {text})" if note else f" ({text})"


def _cap_note(model: Any, params: Any, pipe: Any, result: Any, metrics: Sequence[str]) -> str:
    """Where no judged query gets as many results as a metric's cut-off (importance's limit
    of 5 under P@10 and R@100): what that bounds, said below the table ("" otherwise)."""
    from workbench.core.cap_lead import cap_lead
    from workbench.report.text import cap_note, cut_counts

    judged = pipe.judgments.judged_mask
    longest = int(result.ranking.count[judged].max(initial=0))
    if not longest:
        return ""
    # "count only those 5" only where the selection cut the lists: a query with 29
    # candidates, all returned, is no fewer for R@100
    said = cap_lead(model.id, longest, model.selection_params(params).limit)
    return cap_note(said, longest, metrics,
                    cut=cut_counts(result.scores, result.ranking, judged),
                    of=int(judged.sum()), every=result.ranking.count[judged])


def judgments_line(args: argparse.Namespace, dataset: Dataset, metrics: Sequence[str]) -> str:
    """Which judgments the figures count and how they read them: two tables of one collection
    (graded and binary Cranfield, SciFact's train and test) were otherwise told apart by
    their query counts only."""
    qrels = getattr(args, "qrels", None)
    folder = Path(args.data)
    if qrels:
        where = str(qrels)
    elif folder.is_dir() and (folder / "qrels").is_dir():
        split = getattr(args, "split", "test")
        exact = folder / "qrels" / f"{split}.tsv"  # what the split reads (test.binary.tsv is
        files = [exact] if exact.is_file() else []  # another split, sorted before test.tsv)
        where = f"split {split}" + (f" ({files[0].relative_to(folder)})" if files else "")
    else:
        where = "from the data"
    grades = sorted({g for judged in (dataset.qrels or {}).values() for g in judged.values()})
    top = grades[-1] if grades else 1
    kind = (f"graded {grades[0]}–{top}; relevant: grade ≥ 1, nDCG's gain is the grade, as "
            "trec_eval's" if top > 1 else "binary; relevant: grade ≥ 1")
    unjudged = ("" if any(m.startswith("judged@") for m in metrics)
                else "; a document without a judgment counts as not relevant")
    return f"judgments: {where}, {kind}{unjudged}"


def _print_bundle_legend(names: Sequence[str], model: str, judged: int) -> None:
    """What each bundle figure shown counts, for a reader who has not met them."""
    if not names:
        return
    width = max(len(m) for m in names)
    say(f"\nbundle_*: the files {model} would hand the agent, per task (mean over "
        f"{judged}); needed: the task's judged files")
    for m in names:
        say(f"  {m.ljust(width)}  {BUNDLE_METRICS[m].help}", hang=width + 2)  # under the help


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


_mean_text = mean_text


def _print_cases(dataset: Dataset, result: Any, *, verbose: bool) -> None:
    """For fixture cases (eval.jsonl): pass/fail per case, recall and precision."""
    from workbench.core.cases import check_cases, has_cases

    if not has_cases(dataset):
        return
    report = check_cases(dataset, result.ranking)
    say(f"\ncases: {report.passed}/{len(report.cases)} pass; recall {report.recall:.3f} "
        f"(of the expected ids, the share returned), precision {report.precision:.3f} (of "
        "the ids returned, the share expected)")
    for c in report.cases:
        if verbose or not c.passed:
            why = "; ".join(filter(None, [
                f"missing {', '.join(c.missing)}" if c.missing else "",
                f"forbidden {', '.join(c.forbidden)}" if c.forbidden else ""]))
            say(f"  {'pass' if c.passed else 'FAIL'}  {c.query}" + (f": {why}" if why else ""))


def _per_query_text(path: Path | None, dataset: Dataset, pipe: Any, result: Any,
                    metrics: Sequence[str]) -> str:
    """Per-query metrics as JSON (a .json path) or CSV (anything else, and stdout)."""
    mask = pipe.judgments.judged_mask
    rows = [{"query_id": q.id, **{m: float(result.per_query[m][i]) for m in metrics}}
            for i, q in enumerate(dataset.queries) if mask[i]]
    if path is not None and path.suffix.lower() == ".json":
        return json.dumps(rows, indent=2) + "\n"
    return csv_text(["query_id", *metrics],
                    [[r["query_id"], *(f"{r[m]:.6f}" for m in metrics)] for r in rows])


# -- sweep -----------------------------------------------------------------------------------


def cmd_sweep(args: argparse.Namespace) -> int:
    """Metrics over a range of one parameter, the others held: the best value by the first
    metric marked (every one of them when several tie), the points written with --out."""
    from workbench.core.tune import MAX_POINTS, parse_values, values_for

    out = _sweep_out(args.out) if args.out is not None else None  # checked before the work
    check_outputs_apart([("--out", out)], input_files(args), {"--out": (".json", ".csv")})
    from workbench.core.cases import has_cases

    model, params = model_and_params(args)
    args.sweep = model.schema.name_of(args.sweep)  # -s K1 sweeps k1, as -p K1 sets it (dr7 4)
    default = CODE_SWEEP_METRICS if code_tasks(args, model) else SWEEP_METRICS
    if hasattr(model, "bundles"):  # a bundle's stop rules move its figures, not the ranking
        default += ",bundle_recall,bundle_tokens"
    names = [m.strip() for m in (args.metrics if args.metrics is not None else default)
             .split(",") if m.strip()]
    if not names:  # "": said, not the defaults swept instead
        raise UsageError("--metrics names no metric")
    # what each value returns (results, empty, injected_tokens): measured without judgments
    figures = list(dict.fromkeys(n.lower() for n in names if n.lower() in FIGURES))
    names = [n for n in names if n.lower() not in FIGURES]
    # "cases": the share of fixture cases passing (eval.jsonl), as tune's objective
    asked = ",".join(n for n in names if n != CASES)
    ranking_metrics = metric_list(asked or default) if asked or not figures else []
    metrics = (ranking_metrics if CASES not in names else [CASES, *ranking_metrics]
               if names[0] == CASES else [*ranking_metrics, CASES])
    check_bundle_metrics(ranking_metrics, model)
    param = model.schema[args.sweep]
    values = (parse_values(param, args.values, None if args.force else MAX_POINTS)
              if args.values is not None else None)
    dataset = load_data(args)
    if values is None:  # a limit whose 0 means all: below the documents there are
        values = values_for(param, params[args.sweep], len(dataset.corpus))
    if not dataset.qrels and args.metrics is None and selects(model):
        metrics, figures = [], list(FIGURES)  # what each value returns, judged or not
    if not dataset.qrels and metrics:
        raise UsageError(f"{dataset.source or dataset.name}: no judgments to sweep against"
                         + (f"; --metrics {','.join(FIGURES)} sweeps what each value returns"
                            if selects(model) else ""))
    if CASES in metrics and not has_cases(dataset):
        raise UsageError("--metrics cases: this data has no fixture cases (an eval.jsonl "
                         "with expected_top_ids)")
    if args.metrics is None and has_cases(dataset):  # what its cases pass comes first
        metrics = [CASES, *metrics]
    measured = metrics  # the best is by the first of these: a figure is better neither way
    metrics = [*metrics, *figures]
    pipe = pipeline(model, dataset, params, f"preparing {model.id} on {dataset.name}")
    with progress_bar(f"sweeping {args.sweep}") as bar:
        per_query: list[dict[str, Any]] = []
        points = _sweep(pipe, args.sweep, values, metrics, Progress(on_progress=bar), per_query)
    swept = points  # as measured, for --out; shown below as the parameter is written
    points = [(_shown(param, value), means) for value, means in points]
    if not measured:
        return _figures_only(args, dataset, model, params, points, metrics, out, swept)
    first = measured[0]
    best = _best(points, first)
    moved = [m for m in measured[1:] if len({round(pt[1][m], 12) for pt in points}) > 1]
    ranked_by_default = args.metrics is None and len(best) == len(points) > 1 and moved
    if ranked_by_default:  # the default first metric does not move (a bundle's budget)
        first = next((m for m in moved if m in BUNDLE_METRICS
                      and BUNDLE_METRICS[m].higher_is_better), moved[0])
        best = _best(points, first)
    changed = {k: v for k, v in model.schema.changed(params).items() if k != args.sweep}
    say(f"{dataset.name}, model {model.id}, sweeping {args.sweep}"
        + (f"; held: {', '.join(f'{k}={value_text(v)}' for k, v in changed.items())}"
           if changed else ""))
    mark = "← best" if len(best) == 1 else "← best (tied)"
    in_use = _shown(param, params[args.sweep])
    rows = [[value, *(_mean_text(m, means[m]) for m in metrics),
             " ".join(t for t in (mark if i in best else "",
                                  "(in use)" if value == in_use else "") if t)]
            for i, (value, means) in enumerate(points)]
    print(format_table([args.sweep, *metrics, f"best by {first}"], rows))
    say(_best_line(args.sweep, points, first, best, (param.low, param.high)))
    against = _against_in_use(points, per_query, first, best, in_use, pipe.judgments, param)
    if best and len(best) < len(points) and "optimistic" not in against:
        # said beside the best always, not only with the value in use swept (rb 8)
        judged = (int(pipe.judgments.judged_mask.sum()) if pipe.judgments is not None
                  else len(dataset.queries))
        say(f"(the best was picked on these same {judged:,} judged queries, so its score is "
            "optimistic — `workbench tune` holds queries out for an honest estimate)")
    # rrf k while not rrf: why they tie
    idle = idle_text(model.schema, args.sweep, model.schema.idle_because(args.sweep, params))
    if idle:
        say(f"note: {args.sweep} has no effect while {idle}: its values tie whatever the "
            "data")
    else:  # idle on this data (no chat for the forgetting curve): why, as tune says it
        why = model.inert_params(pipe.prepared, pipe.params).get(args.sweep, "")
        if why:
            say(f"note: why {args.sweep}'s values tie on this data: {why}")
    if against:
        say(against)
    elif all(value != in_use for value, _ in points):
        say(f"(the value in use, {in_use}, is not among those swept: add it to --values to "
            "set the best against it)")
    if ranked_by_default:
        say(f"note: {metrics[0]} is the same at every value, so the best is by {first} "
            "(--metrics puts another first)")
    elif len(best) == len(points) > 1 and moved:
        say(f"note: {first} is the same at every value, and {', '.join(moved)} "
            f"{'is' if len(moved) == 1 else 'are'} not: rank by "
            f"{moved[0]} with --metrics {','.join([moved[0], *metrics[:1]])}")
    if not param.tunable and args.sweep in CUTS and len(best) < len(points):
        # vector_candidates "best" at 5 with r@100 at 0.61 for 20: a cut, read as quality
        say(f"note: {args.sweep} is not a quality setting (how much is ranked or returned: "
            "tune leaves it out unless named): the metrics move with what it cuts or "
            "pages, so its best is a trade-off to choose, not a tuning result")
    largest = max(range(len(points)), key=lambda i: points[i][0]) if points else -1
    if args.sweep in BUDGETS and best == [largest]:  # a tie with less: not bought
        # token_budget "best" at the cap, "significant": a bundle finds more the more it holds
        say(f"note: {args.sweep} sets how much a bundle may hold: what a bundle finds "
            "mostly grows with it (not always: a larger file may then fit and crowd out "
            "another), and so do its tokens, so a higher best is bought with tokens, not "
            "found. Choose by the tokens you can afford (--metrics "
            "bundle_recall,bundle_tokens shows both)")
    if out is not None:
        text = _sweep_text(out, args.sweep, swept, metrics, best, {
            "dataset": dataset.name, "model": model.id, "parameter": args.sweep,
            "held": changed, "best_by": first, "lower_is_better": _lower_is_better(first)})
        write_outputs([("--out", out, text)])
        say(f"sweep written to {out}")
    return EXIT_OK


Point = tuple[Any, dict[str, float]]  # (the parameter's value, the mean of each metric)


def _shown(param: Any, value: Any) -> Any:
    """A swept value as the parameter is written: a whole number of a parameter stepped in
    whole numbers without its '.0' (w_title 6, as compare and tune write it; it was 6.0)."""
    step = getattr(param, "step", None)
    if (isinstance(value, float) and value.is_integer() and step is not None
            and float(step).is_integer()):
        return int(value)
    return value
# settings that decide how much is ranked or returned (speed, paging, a result budget), not
# how it is scored: a sweep's best over them is no quality result
CUTS = frozenset(("vector_candidates", "limit", "offset", "early_stop",
                  "early_stop_threshold", "early_stop_found"))
# a bundle's size (codeledger): its best is the most it may hold, a cost to choose
BUDGETS = frozenset(("token_budget", "max_files", "overshoot", "sufficiency", "skip_limit"))
CASES = "cases"  # the share of fixture cases passing


def _case_passes(dataset: Dataset, ranking: Any) -> Any:
    """float (Q,): 1 where the query's fixture case passes, 0 where it fails, NaN where the
    query is no case."""
    from workbench.core.cases import check_cases

    passed = {c.query: c.passed for c in check_cases(dataset, ranking).cases}
    return np.array([float(passed[q]) if q in passed else np.nan
                     for q in dataset.queries.ids])


def _sweep(pipe: Any, name: str, values: Sequence[Any], metrics: Sequence[str],
           progress: Progress = NO_PROGRESS,
           per_query: list[dict[str, Any]] | None = None) -> list[Point]:
    """Each value of `name` in turn, measured as `eval` measures (`core.tune.sweep`, with the
    bundle figures), each value's per-query figures appended to `per_query` when given; the
    pipeline's parameters are left as they were found."""
    held = dict(pipe.params)
    points: list[Point] = []
    chars = None  # the documents' snippet lengths, for injected_tokens
    try:
        for i, value in enumerate(values):
            progress(i / max(len(values), 1), f"{name} = {value}")
            pipe.update({name: value})
            measured = _measure(pipe, [m for m in metrics if m != CASES and m not in FIGURES])
            means, each = dict(measured.means), dict(measured.per_query)
            if CASES in metrics:
                each[CASES] = _case_passes(pipe.dataset, measured.ranking)
                means[CASES] = float(np.nanmean(each[CASES]))
            for figure in (m for m in metrics if m in FIGURES):
                if figure == "injected_tokens" and chars is None:
                    chars = snippet_chars(pipe.dataset)
                each[figure] = figure_per_query(figure, measured, chars)
                means[figure] = float(each[figure].mean()) if each[figure].size else math.nan
            points.append((value, means))
            if per_query is not None:
                per_query.append(each)
    finally:
        pipe.update(held)
    progress(1.0, "swept")
    return points


def axis_key(param: Any, value: Any, i: int) -> tuple[float, int]:
    """Where `value` lies along the parameter's axis: its number, a limit's 0 ("all") past
    every other, a choice by its place (`i`)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return (0.0, i)
    if value == 0 and getattr(param, "zero_unlimited", False):
        return (math.inf, i)
    return (float(value), i)


def _against_in_use(points: Sequence[Point], per_query: Sequence[dict[str, Any]], metric: str,
                    best: Sequence[int], in_use: Any, judgments: Any, param: Any = None) -> str:
    """The one best value against the value in use, paired over the judged queries: the
    difference and its p-value, said to be possibly chance where p ≥ 0.05 (a sweep names a
    best by any margin), and optimistic either way (the best of the grid, chosen and tested
    on the same queries)."""
    from workbench.core.metrics import paired_test

    at = next((i for i, (v, _) in enumerate(points) if v == in_use), None)
    if not best or at is None or judgments is None or len(best) == len(points):
        return ""
    if at in best:
        if len(best) == 1:
            return ""
        cost = "bundle_tokens"  # a bundle model: a tie that costs fewer tokens is a gain
        cheap = (min(best, key=lambda i: (points[i][1][cost], i))
                 if metric != cost and all(cost in points[i][1] for i in best) else at)
        saved = points[at][1][cost] - points[cheap][1][cost] if cheap != at else 0.0
        if saved > 0:
            return (f"the value in use ({in_use}) is among the tied best by {metric}; "
                    f"{points[cheap][0]} gives the same at {_mean_text(cost, saved)} fewer "
                    "tokens per bundle")
        return f"the value in use ({in_use}) is among the tied best: nothing to gain here"
    # tied: the first along the axis stands for them (their means are equal), as the
    # window's Metric vs parameter chart stars it: for a limit the smallest that reaches the
    # best, 0 ("all") counted last (the value nearest the one in use had named "all" where
    # the window named 10)
    pick = min(best, key=lambda i: axis_key(param, points[i][0], i))
    a, b = per_query[at][metric], per_query[pick][metric]
    mask = judgments.judged_mask & ~np.isnan(a) & ~np.isnan(b)  # cases: only the cases
    a, b = a[mask], b[mask]
    test = paired_test(a, b)
    if test.n == 0:
        return ""
    gap = _shown_gap(metric, points[at][1][metric], points[pick][1][metric])
    verdict = ("significant at 0.05" if test.p_value < 0.05 else
               "not significant at 0.05: the difference may be chance")
    which = f", the tied best {points[pick][0]}:" if len(best) > 1 else ":"
    return (f"against the value in use ({in_use}){which} {gap} {metric}, "
            f"{p_equals(test.p_value)} over "
            f"{test.n} judged queries (paired randomisation test), {verdict}; the best was "
            f"picked on these same queries, so the gap is optimistic — `workbench tune` "
            "holds queries out for an honest estimate")


def _shown_gap(metric: str, a: float, b: float) -> str:
    """b − a as the table above shows the two means (`_mean_text`), the rule of compare,
    report and tune: the difference of the means as shown, so that the figures add up (the
    exact +0.00316 read +0.0032 beside compare's 0.6802 → 0.6833, +0.0031: review rn 3)."""
    shown = [_mean_text(metric, x).replace(",", "") for x in (a, b)]
    places = len(shown[0].partition(".")[2])
    gap = (Decimal(shown[1]) - Decimal(shown[0]) if not math.isnan(a + b)
           else Decimal("nan"))
    figure = BUNDLE_METRICS.get(metric)
    return f"{gap:+,.{places}f}" if figure is not None and figure.count else f"{gap:+.{places}f}"


def _figures_only(args: argparse.Namespace, dataset: Dataset, model: Any, params: Any,
                  points: Sequence[Point], metrics: Sequence[str], out: Path | None,
                  swept: Sequence[Point]) -> int:
    """A sweep of what each value returns (no judgments, or only these figures asked): the
    table, and no best — a figure is the cost side of a trade-off, better neither way."""
    changed = {k: v for k, v in model.schema.changed(params).items() if k != args.sweep}
    say(f"{dataset.name}, model {model.id}, sweeping {args.sweep}"
        + (f"; held: {', '.join(f'{k}={value_text(v)}' for k, v in changed.items())}"
           if changed else ""))
    in_use = _shown(model.schema[args.sweep], params[args.sweep])
    rows = [[value, *(_mean_text(m, means[m]) for m in metrics)] for value, means in points]
    header = [args.sweep, *metrics]
    if any(value == in_use for value, _ in points):  # a column only where it marks a row,
        header.append("in use")  # and named (its rule had stood over no heading)
        rows = [[*row, "←" if value == in_use else ""]
                for row, (value, _) in zip(rows, points, strict=True)]
    print(format_table(header, rows))
    n = len(dataset.queries)
    width = max(len(m) for m in metrics)
    say(f"what each value returns, the mean over all {n:,} quer{'y' if n == 1 else 'ies'}:")
    for m in metrics:
        say(f"  {m.ljust(width)}  {metric_label(m)}"
            + (f" ({tokens_gloss(model)})" if m == "injected_tokens" else ""),
            hang=width + 2)  # under the gloss
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


def _lower_is_better(metric: str) -> bool:
    figure = BUNDLE_METRICS.get(metric)
    return figure is not None and not figure.higher_is_better


def _best(points: Sequence[Point], metric: str) -> list[int]:
    """The positions of the best points by `metric`: every one that ties with the best
    (equal to 1e-9), none when the metric is undefined (NaN) everywhere."""
    sign = -1.0 if _lower_is_better(metric) else 1.0
    scores = [sign * means[metric] for _, means in points]
    defined = [s for s in scores if not math.isnan(s)]
    if not defined:
        return []
    top = max(defined)
    return [i for i, s in enumerate(scores)
            if not math.isnan(s) and math.isclose(s, top, rel_tol=1e-9, abs_tol=1e-12)]


def _best_line(name: str, points: Sequence[Point], metric: str, best: Sequence[int],
               limits: tuple[float | None, float | None] = (None, None)) -> str:
    """The best value in words, ties named as ties; a best at the end of the values swept,
    short of the parameter's `limits` (low, high), said to be one."""
    if not best:
        return f"best by {metric}: none ({metric} is undefined at every value)"
    score = _mean_text(metric, points[best[0]][1][metric])
    way = " (lower is better)" if _lower_is_better(metric) else ""
    if len(best) == 1:
        value = points[best[0]][0]
        return f"best by {metric}{way}: {name} = {value} ({score})" + _edge(
            value, [v for v, _ in points], limits)
    if len(best) == len(points):
        return (f"best by {metric}: none — all {len(points)} values tie at {score} "
                f"({name} makes no difference to {metric} over this range)")
    values = [points[i][0] for i in best]
    if len(values) > 6 and best == list(range(best[0], best[-1] + 1)):  # one run of values
        tied = f"{values[0]} to {values[-1]} ({len(values)} values)"
    elif len(values) > 6:
        tied = f"{', '.join(map(str, values[:3]))}, … {values[-1]} ({len(values)} values)"
    else:
        tied = ", ".join(map(str, values))
    line = f"best by {metric}{way}: {score}, tied at {name} = {tied}"
    cost = "bundle_tokens"  # a bundle model: of the tied values, the one that costs least
    if metric != cost and all(cost in points[i][1] for i in best):
        cheap = min(best, key=lambda i: (points[i][1][cost], i))
        spent = _mean_text(cost, points[cheap][1][cost])
        line += (f"; of these, the fewest tokens per bundle: {name} = {points[cheap][0]} "
                 f"({spent})")
    return line


def _edge(value: Any, values: Sequence[Any], limits: tuple[float | None, float | None]) -> str:
    numbers = [v for v in values if isinstance(v, int | float) and not isinstance(v, bool)]
    if len(numbers) < 3 or value not in numbers:
        return ""
    low, high = limits
    if value == max(numbers) and (high is None or value < high):
        return "; the highest value swept: a better one may lie above it"
    if value == min(numbers) and (low is None or value > low):
        return "; the lowest value swept: a better one may lie below it"
    return ""


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
                    [[value, *(f"{means[m]:.6f}" for m in metrics), int(i in best)]
                     for i, (value, means) in enumerate(points)])


# -- bundle figures --------------------------------------------------------------------------


def check_bundle_metrics(metrics: Sequence[str], model: Any) -> None:
    """One line when a bundle figure is asked of a model that selects no bundles."""
    asked = [m for m in metrics if m in BUNDLE_METRICS]
    if not asked or hasattr(model, "bundles"):
        return
    from workbench.core.models import get_model, model_ids

    having = [i for i in model_ids() if hasattr(get_model(i), "bundles")]
    raise UsageError(f"metric {asked[0]} needs a model that selects bundles "
                     f"({', '.join(having)}); model {model.id} has none")
