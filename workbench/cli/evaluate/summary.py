"""What eval prints around its table: the header, notes, glosses, fixture cases and bundle
legend."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

import numpy as np

from workbench.cli.bundles import print_bundle_summary
from workbench.cli.common import left_out_note, mean_text
from workbench.cli.evaluate.counted import counted_text
from workbench.cli.evaluate.judgments import judgments_line
from workbench.core.data import Dataset
from workbench.core.metrics import BUNDLE_METRICS, metric_label
from workbench.core.params import value_text
from workbench.core.selection_figures import FIGURES, tokens_gloss
from workbench.textout import format_table, say


def figure_glosses(shown: Sequence[str], over: str, model: Any,
                   searches_only: bool = False, searches_at: str = "",
                   params: Any = None, swept: str = "", noun: str = "queries") -> list[str]:
    """The glosses of the selection figures shown, what they are the mean over said once
    where there are several (dr5 14: "mean over the 0 of the 2 queries counted (see the
    notes)" had come under each of three figures), as sweep says it. `searches_only`: every
    query is a manual search, so injected_tokens is what each returns (`tokens_gloss`);
    `searches_at`: where only some of sweep's values make every query one ("at mode =
    search"), said of those. `params`: the values in use, said in the gloss of
    injected_tokens (its snippet lengths; rv 3), but for the parameter `swept`. `noun`: the
    data's word for its queries, said throughout (dC 5: "judged cases" above "% of queries
    returning nothing"); the several figures' meanings on one line, each once (it had said
    "(results: results per query)")."""
    from workbench.core.tuning.data import one_of

    params = model.schema.resolve(params) if params is not None else None
    one = one_of(noun)
    labels = {"results": f"results per {one}", "empty": f"% of {noun} returning nothing",
              "injected_tokens": f"tokens each search returns per {one}" if searches_only
              else f"tokens injected per {one}"}
    how = tokens_gloss(model, params=params, swept=swept) + (  # of injected_tokens
        f"; {searches_at}, what each search returns: nothing is injected" if searches_at
        else "")

    def label(m: str) -> str:
        return labels.get(m, metric_label(m))

    if len(shown) == 1:
        m = shown[0]
        if m == "injected_tokens" and searches_only:
            return [f"({m}: mean over {over}, {tokens_gloss(model, True, params, swept)})"]
        return [f"({m}: {label(m)}, mean over {over}"
                + (f", {how}" if m == "injected_tokens" else "") + ")"]
    # what it is was said on the line above: the method alone (dJ 9)
    tokens = ([f"(injected_tokens: {tokens_gloss(model, True, params, swept, True)})"]
              if searches_only else [f"(injected_tokens: {how})"]
              ) if "injected_tokens" in shown else []
    return [f"({', '.join(f'{m} = {label(m)}' for m in shown)}; means over {over})", *tokens]


def _print_summary(args: argparse.Namespace, dataset: Dataset, model: Any, params: Any,
                   pipe: Any, result: Any, metrics: list[str], notes: list[str],
                   judged: int, figures_over: int | None = None,
                   left_out: Sequence[str] = (), searches_only: bool = False) -> list[str]:
    """The summary eval prints; the metrics shown (the model's own added when none was
    named). `figures_over`: of the judged queries, how many the injection figures count
    (`counted.figure_queries`), `left_out` the notes of why the others are not;
    `searches_only`: every query is a manual search (what each returns is glossed so)."""
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
    shown = [m for m in metrics if m in FIGURES]
    for line in left_out if shown else ():  # what the figures below leave out, said once
        say(f"note: {line}")
    over = counted_text(judged if figures_over is None else figures_over, judged,
                        f"judged {one_of(many) if judged == 1 else many}")
    for line in figure_glosses(shown, over, model, searches_only, params=params,
                               noun=many) if shown else ():
        say(line)
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
    from workbench.core.tuning.data import dataset_nouns, one_of

    # repeats of queries tuned on said as such: the values saw none of them (dE 3)
    twins = min(getattr(args, "tuned_twins", 0), tuned)
    qs = dataset_nouns(dataset)[1]
    repeat = (f"1 repeats a {one_of(qs)}" if twins == 1 else f"{twins:,} repeat {qs}")
    which = (f"{repeat} the values were tuned on" if twins == tuned else
             f"{tuned - twins:,} the values were tuned on and {repeat} they were tuned on"
             if twins else f"{tuned:,} the values were tuned on")
    text = f"{which}, left out: --all-queries counts them"
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


def _print_bundle_legend(names: Sequence[str], model: str, judged: int) -> None:
    """What each bundle figure shown counts, for a reader who has not met them."""
    if not names:
        return
    width = max(len(m) for m in names)
    say(f"\nbundle_*: the files {model} would hand the agent, per task (mean over "
        f"{judged}); needed: the task's judged files")
    for m in names:
        say(f"  {m.ljust(width)}  {BUNDLE_METRICS[m].help}", hang=width + 2)  # under the help


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
