"""`workbench sweep`: one parameter's values measured, the best marked, and what to make of
it said."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from itertools import pairwise
from typing import Any

from workbench.cli.common import (
    EXIT_OK,
    UsageError,
    idle_text,
    load_data,
    metric_list,
    model_and_params,
    pipeline,
    say_fitted,
)
from workbench.cli.evaluate.counted import idle_for_figures, sweep_counted
from workbench.cli.evaluate.metrics import (
    CODE_SWEEP_METRICS,
    SWEEP_METRICS,
    check_bundle_metrics,
    code_tasks,
)
from workbench.cli.evaluate.summary import _mean_text, figure_glosses
from workbench.cli.evaluate.sweep_best import _against_in_use, _best, _best_line, _lower_is_better
from workbench.cli.evaluate.sweep_output import _figures_only, _sweep_out, _sweep_text
from workbench.cli.evaluate.sweep_points import BUDGETS, CASES, CUTS, _shown, _sweep, row_label
from workbench.cli.output import check_outputs_apart, input_files, write_outputs
from workbench.core.clamp_ties import TREC_TIES, named_queries, tie_order
from workbench.core.engine import Progress
from workbench.core.metrics import BUNDLE_METRICS
from workbench.core.params import value_text
from workbench.core.selection_figures import FIGURES, SELECTION_PARAMS, selects
from workbench.textout import format_table, progress_bar, say


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
    cut_off = args.sweep in SELECTION_PARAMS or args.sweep in CUTS
    if dataset.qrels and args.metrics is None and cut_off and not figures:
        # a cut-off's best is a trade-off with how much it returns: shown beside the metrics
        # (rv 8: they had stood alone, the trade-off said with nothing to read it by)
        figures = ["results", "empty"]
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
    say_fitted(model, dataset)  # each value's figure, on tasks the defaults were fitted on
    with progress_bar(f"sweeping {args.sweep}") as bar:
        per_query: list[dict[str, Any]] = []
        counted: list[tuple[int, Any]] = []
        ties: list[Any] | None = [] if tie_order(model) and measured else None
        points = _sweep(pipe, args.sweep, values, metrics, Progress(on_progress=bar), per_query,
                        counted, ties, _cut(measured[0]) if measured else 0)
    swept = points  # as measured, for --out; shown below as the parameter is written
    points = [(_shown(param, value), means) for value, means in points]
    # the injection figures' queries: the judged ones, as eval counts them, that are turns
    # (a manual search, a disabled project's turn left out)
    over, left_out = (sweep_counted(args.sweep, [value for value, _ in points], counted,
                                    *_among(dataset, pipe)) if figures else ("", []))
    # the values that make every query a manual search: injected_tokens is then what each
    # search returns, said as eval says it (dr7 4)
    searches = [str(value) for (value, _), (_, left) in zip(points, counted, strict=True)
                if left is not None and left.searches_only] if figures else []
    searches_only = bool(searches) and len(searches) == len(points)
    searches_at = (f"at {args.sweep} = {', '.join(searches)}"
                   if searches and not searches_only else "")
    # a setting no counted turn takes (search_snippet_chars beside injections): said, as
    # why-stats --live says it, unless the note on why the values tie below says the same
    idle_figures = idle_for_figures(pipe, args.sweep, searches_only) if figures else ""
    if idle_figures and (not measured or idle_figures != model.inert_params(
            pipe.prepared, pipe.params).get(args.sweep, "")):
        left_out = [*left_out,
                    f"{args.sweep} applies to none of the counted turns: {idle_figures}"]
    if not measured:
        return _figures_only(args, dataset, model, params, points, metrics, out, swept,
                             over, left_out, searches_only, searches_at)
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
    rows = [[row_label(param, value), *(_mean_text(m, means[m]) for m in metrics),
             " ".join(t for t in (mark if i in best else "",
                                  "(in use)" if value == in_use else "") if t)]
            for i, (value, means) in enumerate(points)]
    print(format_table([args.sweep, *metrics, f"best by {first}"], rows))
    for line in left_out:  # then what the figures are, as eval says them
        say(f"note: {line}")
    from workbench.core.tuning.data import dataset_nouns, one_of

    many = dataset_nouns(dataset)[1]  # the data's own: OpenVault's chat moments (rm 9)
    for line in figure_glosses(figures, over, model, searches_only, searches_at, params,
                               args.sweep, noun=many) if figures else ():
        say(line)
    say(_best_line(args.sweep, points, first, best, (param.low, param.high), param))
    if cut_off and len(best) < len(points) and (param.tunable or args.sweep in CUTS):
        # said before the gap to the value in use, which read as a gain proven (dC 5)
        say(_cut_note(args.sweep, param.tunable, "results" in figures, points,
                      one_of(many)))
    against = _against_in_use(points, per_query, first, best, in_use, pipe.judgments, param,
                              many)
    if best and len(best) < len(points) and "optimistic" not in against:
        # said beside the best always, not only with the value in use swept (rb 8)
        judged = (int(pipe.judgments.judged_mask.sum()) if pipe.judgments is not None
                  else len(dataset.queries))
        say(f"(the best was picked on these same {judged:,} judged "
            f"{one_of(many) if judged == 1 else many}, so its score is optimistic — "
            f"`workbench tune` holds {many} out for an honest estimate)")
    # rrf k while not rrf: why they tie
    idle = idle_text(model.schema, args.sweep, model.schema.idle_because(args.sweep, params))
    if idle:
        say(f"note: {args.sweep} has no effect while {idle}: its values tie whatever the "
            "data")
    else:  # idle on this data (no chat for the forgetting curve): why, as tune says it
        why = model.inert_params(pipe.prepared, pipe.params).get(args.sweep, "")
        if why:
            say(f"note: why {args.sweep}'s values tie on this data: {why}")
    tied = _tie_note(args.sweep, points, best, first, ties, pipe, param, model) if ties else ""
    if tied:
        say(tied)
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
    largest = max(range(len(points)), key=lambda i: points[i][0]) if points else -1
    if args.sweep in BUDGETS and best == [largest]:  # a tie with less: not bought
        # token_budget "best" at the cap, "beyond chance": a bundle finds more the more it holds
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


def _cut(metric: str) -> int:
    """The ranks `metric` reads: its @k, every rank (the run's depth) for one without."""
    from workbench.core.metrics import parse_metric

    try:
        k = parse_metric(metric)[1]
    except ValueError:  # cases, a bundle's figure: not a ranking's metric
        k = None
    return k if k is not None else 1 << 30


def _tie_note(name: str, points: Any, best: list[int], metric: str, ties: list[Any],
              pipe: Any, param: Any, model: Any) -> str:
    """Where at a best value results tied at 1 (clamped) take places within the first
    metric's cut-off on some judged query, so that the tie order decides what it reads there,
    that said with what orders them (rank says it of one query: rv52 9; sweep had not, where
    the best weights often win through such ties)."""
    from workbench.core.tuning.data import dataset_nouns

    at = [i for i in best if ties[i].any()]
    if not at or len(best) == len(points):
        return ""
    many = dataset_nouns(pipe.dataset)[1]
    judged = (int(pipe.judgments.judged_mask.sum()) if pipe.judgments is not None
              else len(pipe.dataset.queries))
    widest = max(at, key=lambda i: int(ties[i].sum()))  # its queries named (rv53 dH 6)
    most = int(ties[widest].sum())
    which = named_queries([q.id for q in pipe.dataset.queries], ties[widest])
    values = ", ".join(row_label(param, points[i][0]) for i in at)
    _, k = cut_text(metric)
    return (f"note: at {name} = {values} (best), on {'up to ' if len(at) > 1 else ''}{most} "
            f"of the {judged:,} judged {many} ({which}), results tied at 1 (clamped) take "
            f"places {k}, "
            f"{TREC_TIES.format(metric)}{tie_order(model)}")


def cut_text(metric: str) -> tuple[int, str]:
    """`metric`'s cut-off (`_cut`) and the words for it: "within the first 10"."""
    cut = _cut(metric)
    return cut, (f"within the first {cut}" if cut < 1 << 30 else "in the ranking")


def _among(dataset: Any, pipe: Any) -> tuple[int, str]:
    """The queries sweep's injection figures are counted among, how many and what they are
    called: the judged ones with judgments ('judged cases'), else every query ('')."""
    from workbench.core.tuning.data import dataset_nouns, one_of

    if pipe.judgments is None:
        return len(dataset.queries), ""
    judged = int(pipe.judgments.judged_mask.sum())
    many = dataset_nouns(dataset)[1]
    return judged, f"judged {one_of(many) if judged == 1 else many}"


def _cut_note(name: str, tunable: bool, columns: bool, points: Sequence[Any],
              one: str = "query") -> str:
    """What a cut-off's best is, one note whether or not tune searches it (dC 5: two notes
    had worded it two ways, and limit's had not pointed at the columns): inject_min_score
    "best" at 0 with every candidate returned, vector_candidates "best" at 5 with r@100 at
    0.61 for 20. For vector_candidates, where fewer candidates returned more results, why
    (dC 7: 138.88 results at 5 against 20 at 20 on story), of `one`, the data's word for one
    of its queries (dJ 9: "a query" under glosses "per chat moment")."""
    said = (f"note: {name} is a cut-off, not a quality setting"
            + ("" if tunable else " (tune leaves it out unless named)")
            + ": it decides how much is " + ("returned" if tunable else "ranked or returned")
            + (" (the results and empty columns)" if columns else "")
            + ", so its best is a trade-off with that, not a better ranking")
    counts = sorted((value, means["results"]) for value, means in points
                    if "results" in means and isinstance(value, (int, float)))
    rises = any(a[1] > b[1] for a, b in pairwise(counts) if a[0] != 0)
    if name == "vector_candidates" and rises:
        said += (f". Fewer candidates can return more results: a {one} whose left-out memories "
                 "the forgetting curve's tick cannot bound below its ranking is scored against "
                 "every memory (see vector_candidates' help)")
    return said
