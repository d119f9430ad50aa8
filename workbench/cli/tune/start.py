"""The values tune starts from (--params): a file tune wrote, its queries set aside, its
verdict said."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from workbench.cli.common import UsageError
from workbench.textout import say


def _set_aside_tuned_start(args: argparse.Namespace, dataset: Any, validation: Any) -> Any:
    """A --params file that tune wrote for this data: its values were tuned on the queries
    its `[tuned]` table names, so those are never held out here (a score on them is a
    training score), and the settings written count them as tuned on."""
    if not args.params:
        return validation
    from workbench.core.models import get_model
    from workbench.core.tuning.validation import StartCoversHeldOut, set_aside, start_prior

    tuned = _tuned_start(args.params, dataset, get_model(args.model),
                         say=args.worker_index == 0,  # once, not by each helper
                         assignments=args.param)
    if tuned is None:
        return validation
    # a twin of a query tuned on (same text and judgments, any split) is tuned on too (rB 2),
    # said as a repeat of one (dI 3)
    prior, repeats = start_prior(dataset, list(tuned.trained_on))
    from workbench.core.tuning.data import dataset_nouns

    many = dataset_nouns(dataset)[1]
    try:
        narrowed = set_aside(validation, prior, many, repeats)
    except StartCoversHeldOut as exc:  # the one score asked for cannot be had: said, with
        # the two runs that can be
        name = Path(args.params).name
        if args.train_split:
            raise UsageError(
                f"--params {name}: its values were tuned on all {exc.held:,} queries of "
                f"--test-split {args.test_split} by an earlier run, so no score there would "
                "be held out; leave out --params to tune from the model's defaults, or tune "
                f"on split {args.train_split} alone from these values, with no held-out "
                f"score: --split {args.train_split} --folds 0") from None
        raise UsageError(
            f"--params {name}: its values were tuned on all {exc.held:,} newer tasks the time "
            "split holds out, by an earlier run, so no score there would be held out; leave "
            "out --params to tune from the model's defaults, or tune on every task from these "
            "values, with no held-out score: --folds 0") from None
    if narrowed is not validation and args.worker_index == 0:
        # tuned on their twins, not on them: said as eval says it (dI 3)
        k, n = len(repeats), int(prior.sum()) - len(repeats)
        total = sum(1 for q in dataset.queries.ids if (dataset.qrels or {}).get(q))
        shown = ", ".join(list(repeats.values())[:3]) + (f" and {k - 3} more" if k > 3 else "")
        repeat = ("1 of them repeats one they were tuned on" if k == 1 else
                  f"{k} of them repeat {many} they were tuned on") + (
                      f" (same text and judgments: {shown})")
        those = (f"were tuned on {n} of these {many} by an earlier run: they" if not k else
                 f"were tuned by an earlier run on none of these {total:,} {many}, but "
                 f"{repeat}: those" if not n else
                 f"were tuned on {n} of these {many} by an earlier run, and "
                 f"{repeat.replace(' of', ' more of', 1)}: all {n + k}")
        say(f"note: the starting values ({Path(args.params).name}) {those} are never held "
            "out here, and count as tuned on in --out", file=sys.stderr)
    return narrowed


def _tuned_start(params_file: str | None, dataset: Any, model: Any = None,
                 say: bool = False, assignments: Any = ()) -> Any:
    """The `[tuned]` record of a --params file that tune wrote for this data, else None —
    another model's too (its figures left aside): the values were fitted on its queries
    whichever model reads them. `assignments`: the -p values set over the file's: where
    they move its values, its figures and verdict are not of the values this run starts
    from, and are left aside (dr3 2)."""
    from workbench.core.tuned_on import read_tuned_on
    from workbench.textout import say as say_line  # `say` is this function's switch

    tuned = read_tuned_on(params_file) if params_file else None
    name = Path(params_file or "").name
    if tuned is not None and say and tuned.unread:  # as eval says them (dr5 4)
        say_line(f"note: {tuned.unread}", file=sys.stderr)
    if tuned is not None and model is not None:
        from dataclasses import replace

        from workbench.cli.tune_report import moved_by_p
        from workbench.core.params import load_params_file

        tuned, why = tuned.applies_to(model.id, load_params_file(params_file or ""),
                                      any_model=True)
        moved = moved_by_p(model, params_file, assignments)
        if tuned is not None and moved and (tuned.held_n or tuned.verdict):
            tuned = replace(tuned, held_n=0, verdict="", owner="", kind="")
            why = why or (f"-p sets {', '.join(moved)} off its values: its run's held-out "
                          "figures and verdict are not of the values this run starts from and "
                          f"are left aside; the {tuned.noun} it was tuned on are still set "
                          "aside")
        if why and say and tuned is not None and tuned.same_data(dataset):
            say_line(f"note: {name}: {why}", file=sys.stderr)
    if tuned is not None and say and tuned.verdict and tuned.same_data(dataset):
        # the run that wrote them advised against them: tuning on from them is no harm, but
        # the reader was told nothing (dr5 4); "keep the starting values" would read as
        # "keep this file", the values this run starts from (dr7 1)
        # the values it advised, as the record names them and by what it advises (dr3 6,
        # dr6 1: a neither verdict's owner is where to go back to, not where it started);
        # a verdict that names no owner, once, as it reads (dr6 7)
        from workbench.core.tuning.verdict import KEEP_NEITHER, KEEP_START, is_inherited

        # without an owner: a bare advice said as the values it started from ("keep the
        # starting values" would read as "keep this file", dr7 1), else the verdict as it
        # names them, once
        said = (f"{tuned.why}; that run advised keeping the values it started from"
                if tuned.why != tuned.verdict else tuned.verdict)
        if tuned.owner and not is_inherited(tuned.verdict):
            began = f" ({tuned.start})" if tuned.start else ""
            if tuned.advises == KEEP_START:
                said = (f"{tuned.why}; that run advised keeping the starting values "
                        f"({tuned.owner})")
            elif tuned.advises == KEEP_NEITHER:
                said = (f"{tuned.why}; that run advised keeping neither them nor the values it "
                        f"started from{began}: go back to {tuned.owner}")
        # a carried verdict, as whose run it was (dr8 4)
        say_line(f"note: the values you start from ({name}) were "
                 f"{tuned.lead(it='them', this=name)}: {said}", file=sys.stderr)
    return tuned if tuned is not None and tuned.same_data(dataset) else None
