"""`workbench tune`: the run from parsed arguments to the closing report, and what it
measures besides its objectives."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from workbench.cli.common import (
    EXIT_FAIL,
    EXIT_OK,
    UsageError,
    idle_text,
    left_out_note,
    model_and_params,
    pipeline,
    say_fitted,
)
from workbench.cli.evaluate import check_bundle_metrics
from workbench.cli.tune.checks import _check_args, _check_default_folds
from workbench.cli.tune.notes import (
    _clamp_tie_note,
    _say_chosen_last,
    _say_fixed_figures,
    _say_what_cannot_ship,
)
from workbench.cli.tune.objectives import _constraint, _objectives
from workbench.cli.tune.out import _record, _write_out
from workbench.cli.tune.progress import _reporter
from workbench.cli.tune.splits import _load_for_tuning
from workbench.cli.tune.start import _set_aside_tuned_start
from workbench.cli.tune.workers import _end_with_parent, _start_workers, _stop_workers
from workbench.cli.tune_report import print_plan, print_result
from workbench.core.engine import Progress
from workbench.core.store import cache_dir
from workbench.textout import progress_bar, say


def cmd_tune(args: argparse.Namespace) -> int:
    from workbench.core import tuning

    if args.worker_index > 0:  # before the data is read: a parent killed meanwhile counts
        _end_with_parent()
    _check_args(args)
    model, params = model_and_params(args)
    dataset, split_masks = _load_for_tuning(args)
    from workbench.core.cases import has_cases

    if not dataset.qrels and not has_cases(dataset):  # before the preparing and the plan
        costs = [m.strip().lower() for m in (args.metric or "").split(",")
                 if m.strip().lower() in ("results", "injected_tokens")]
        raise UsageError(f"{dataset.source or dataset.name}: no judgments to tune against "
                         "(give --qrels FILE, or for a repository --queries tasks.jsonl)"
                         + (f"; {costs[0]} is a cost, which returning nothing minimises: it "
                            "cannot be tuned alone — tune a quality measure against judgments "
                            f"and hold {costs[0]} with --constraint" if costs else ""))
    objectives = _objectives(args, model, dataset)
    constraints = tuple(_constraint(c) for c in args.constraint)
    # a bundle figure of a model without bundles: said before a study is made (it failed
    # after the plan, leaving an empty study in the storage)
    check_bundle_metrics([*objectives, *(c.name for c in constraints)], model)
    names = tuning.parse_names(args.tune, model.schema)
    ranges = tuning.parse_ranges(args.range, model.schema,
                                 lambda line: print(f"warning: {line}", file=sys.stderr))
    worker = args.worker_index > 0
    label = f"preparing {model.id} on {dataset.name}"
    pipe = pipeline(model, dataset, params, label) if not worker else None
    evaluator = tuning.Evaluator(model, dataset, params, [*objectives,
                                                          *(c.name for c in constraints)],
                                 prepared=pipe.prepared if pipe else None)
    inert: dict[str, str] = {}
    range_notes: list[str] = []
    # the cut-offs a ranking objective can only lose with: left out of a default search, and
    # said of a named one (`space.cut_offs`)
    measured = [*objectives, *(c.name for c in constraints)]
    cut: dict[str, str] = {}
    if names is None:  # the default search, less what cannot change a score on this data
        every = model.inert_params(evaluator.prepared(evaluator.base), evaluator.base)
        inert = {n: why for n, why in every.items() if n not in ranges}
        names = [n for n in tuning.model_names(model) if n not in inert]
        idle = {n: idle_text(model.schema, n, why) for n, why in tuning.space.idle_names(
            model.schema, names, evaluator.base).items() if n not in ranges}
        inert.update(idle)
        # a parameter --range names is searched as asked, and said where it moves nothing
        # (its `needs` left out as inert had dropped it: "which is not tuned")
        # idle by its needs only where what it needs is not searched too (rrf_k while the
        # default search tunes the normalisation is no idle parameter)
        idle_ranged = tuning.space.idle_names(model.schema, [*names, *ranges],
                                              evaluator.base)
        for n in ranges:
            why = every.get(n) or (idle_text(model.schema, n, idle_ranged[n])
                                   if n in idle_ranged else "")
            if why:  # said with the plan's other --range notes, below what is tuned
                range_notes.append(f"note: --range {n}: searched as asked, though no score "
                                   f"moves with it here: {why.removeprefix('no effect while ')}")
        cut = {n: why for n, why in tuning.space.cut_offs(names, measured,
                                                             model.schema.by_name).items()
               if n not in ranges and n not in idle}
        names = [n for n in names if n not in idle and n not in cut]
    else:  # named with --tune: searched as asked, and said where it moves nothing here
        every = model.inert_params(evaluator.prepared(evaluator.base), evaluator.base)
        # by its needs only where what it needs is not named too (tf_multiplier beside
        # variant moves with the documented variant the search reaches)
        idle_named = tuning.space.idle_names(model.schema, [n for n in names
                                                            if n in model.schema],
                                             evaluator.base)
        for n in names:
            why = every.get(n) or (idle_text(model.schema, n, idle_named[n])
                                   if n in idle_named else "")
            if why:
                range_notes.append(f"note: --tune {n}: searched as asked, though no score "
                                   f"moves with it here: {why.removeprefix('no effect while ')}")
    if not names:  # said, not searched as every default (budget and all)
        by_why: dict[str, list[str]] = {}
        for n, why in {**inert, **cut}.items():
            by_why.setdefault(why, []).append(n)
        raise UsageError(
            "nothing to tune: " + (f"no score on {dataset.name} moves with any parameter "
                                   f"{model.id}'s default search takes (" if not cut else
                                   f"{model.id}'s default search on {dataset.name} leaves "
                                   "every parameter out (")
            + "; ".join(f"{', '.join(ns)}: {why}" for why, ns in by_why.items())
            + "); --tune names parameters to search anyway")
    space = tuning.build_space(model.schema, names, ranges)
    _check_default_folds(args, dataset, split_masks, int(evaluator.counted().sum()))
    validation = tuning.data.choose_validation(
        dataset, evaluator.counted(), folds=args.folds, time_fraction=args.time_split,
        seed=args.seed, split_masks=split_masks)
    validation = _set_aside_tuned_start(args, dataset, validation)
    storage = tuning.storage_url(args.storage, cache_dir() / "studies.db")
    shared = args.workers > 1 or worker or storage.startswith("postgresql")
    spec = tuning.TuneSpec(space, objectives, constraints, args.sampler, args.seed,
                           None if args.trials is None and args.timeout else
                           (args.trials or 100), args.timeout, storage, args.study or "",
                           args.fresh and not worker, shared, args.worker_index, args.pick)
    if worker:
        # a helper process adds trials to the shared studies and reports nothing
        try:
            tuning.tune(evaluator, validation, spec, score=False)
        except KeyboardInterrupt:  # the run that started it says "interrupted", once
            return 130
        return EXIT_OK
    # what the studies hold already: the plan says how many trials will run new (a fresh
    # run deletes them first)
    stored = ({} if spec.fresh else tuning.runner.stored_counts(spec, evaluator, validation))
    print_plan(dataset, model, space, objectives, constraints, validation, spec, evaluator,
               inert, left_out_note(args, dataset), stored, cut, by_tune=bool(args.tune))
    for line in range_notes:
        say(line)
    _say_chosen_last(model, space.names, objectives, constraints, evaluator.base,
                     tuning.data.dataset_nouns(dataset)[1])
    _say_counted_turns(model, evaluator, measured)
    _say_what_cannot_ship(model, [d.name for d in space.dimensions], measured, list(cut))
    _say_fixed_figures(model, objectives, constraints)
    # the start's figures, and the trials', on tasks the defaults were fitted on (dr4 5)
    say_fitted(model, dataset)
    from workbench.core.tuning.validation import has_time

    # newer tasks then tune what older ones score; only where a time split would run (a mix
    # of dated queries and tasks is refused by it)
    if validation.kind == "kfold" and has_time(dataset):
        say("note: these queries are dated (repository tasks, or a 'date'): k-fold mixes "
            "times, tuning on newer ones what it scores on older; --time-split 0.5 tunes "
            "on the older half and holds out the newer, as a model meets new tasks")
    for d in space.dimensions:  # a --range end moved onto the slider's step: said
        asked = ranges.get(d.name)
        if asked is not None and d.step and (d.low, d.high) != asked:
            say(f"note: --range {d.name}={asked[0]:g}:{asked[1]:g} is searched as "
                f"{d.low:g}:{d.high:g}, on the slider's step ({d.step:g})")
        if asked is not None and d.kind in ("float", "int") and d.low == d.high:
            say(f"note: --range leaves {d.name} one value, {d.low:g}: every trial takes it, "
                f"so it is fixed, not tuned (-p {d.name}={d.low:g} fixes it without a search "
                "dimension)")
    if spec.fresh and args.workers > 1:
        # cleared before any helper can open them
        tuning.runner.delete_studies(spec, evaluator, validation)
        spec = replace(spec, fresh=False)
    from optuna.exceptions import StorageInternalError

    # refused before any helper process starts (each printed the refusal, and could go on
    # tuning alone after this command had failed)
    tuning.runner.check_free(spec, evaluator, validation)
    # counted before the helpers start: what they finish before this process opens a study
    # is this run's too
    before = (tuning.runner.stored_counts(spec, evaluator, validation) if args.workers > 1
              else None)
    # … and when it began: their trials are this run's, waited for before the result
    began = tuning.runner.run_began(spec) if args.workers > 1 else None
    helpers = _start_workers(args, spec, evaluator, validation)
    finished = False
    # another program's lock on an SQLite file: said after a few seconds, not a silent minute
    tuning.storage.say_waits(lambda line: print(line, file=sys.stderr, flush=True))
    try:
        with progress_bar("tuning") as bar:
            result = tuning.tune(evaluator, validation, spec, on_trial=_reporter(bar, spec,
                                 validation, space), progress=Progress(),
                                 report=_also_measures(model, dataset, objectives,
                                                       [c.name for c in constraints]),
                                 stored_before=before, began=began,
                                 say_wait=_say_wait_in_log)
        finished = True
    except KeyboardInterrupt:
        say("interrupted: the trials done are stored; run the same command again to "
            "continue", file=sys.stderr)
        raise
    except (OSError, StorageInternalError) as exc:  # a full disk …
        # a study on read-only storage (an archive): said as such, with what to do (rb 7)
        tuning.storage.refuse_read_only(storage)
        cause = exc.__cause__ or exc.__context__ or exc
        why = getattr(cause, "strerror", None) or str(cause).splitlines()[0]
        # a file as given; a URL never with its password
        shown = (args.storage if args.storage and "://" not in args.storage
                 else tuning.storage.shown_url(storage))
        lost = ("lost its connection or refused a write" if "://" in shown
                and not shown.startswith(("sqlite", "journal")) else "cannot write")
        raise UsageError(f"the study storage {shown}: {lost} ({why}); the trials stored "
                         "before are kept") from None
    finally:
        tuning.storage.say_waits(None)
        if not finished:
            _stop_workers(helpers)
        for h in helpers:
            h.wait()
    assert result is not None
    from workbench.cli.tune_report import start_whose
    from workbench.core.tuning.data import dataset_nouns

    note, carried = _record(result, model, params, dataset, args.params, args.param)
    print_result(result, model, objectives, dataset_nouns(dataset)[1],
                 start_whose(result, model, args.params, args.param),
                 note.verdict if carried in ("kept", "neither") else "",
                 _clamp_tie_note(model, evaluator, result.final.best, objectives[0]))
    if not result.final.best:  # no trial met the constraints: nothing tuned, nothing written
        return EXIT_FAIL
    if args.out:
        _write_out(Path(args.out), result, model, params, dataset, args.params, args.param)
    return EXIT_OK


def _say_wait_in_log(line: str) -> None:
    """The wait for other processes' trials, said once on stderr where no bar shows it (a
    log, CI: dr1 1 had two silent minutes)."""
    if not sys.stderr.isatty():
        say(line, file=sys.stderr)


def _also_measures(model: Any, dataset: Any, objectives: tuple[str, ...],
                   constrained: Sequence[str] = ()) -> list[str]:
    """What the closing report also compares on the held-out queries: the other objectives,
    then each --constraint's figure (shown before only as a training mean), then the metrics
    `compare` and `report` show by default on the same data (`compare_metrics`: rb 8, tune's
    r@10 was in no report, the report's p@10 and map@100 in no tune summary)."""
    from workbench.core.cases import has_cases
    from workbench.core.compare import compare_metrics
    from workbench.core.metrics import BUNDLE_METRICS

    names = (compare_metrics(model, dataset) if dataset.qrels
             else list(BUNDLE_METRICS) if hasattr(model, "bundles") else [])
    if has_cases(dataset):
        names.append("cases")
    # the other objectives too: their held-out values at the start were shown nowhere
    # a bundle constraint holds the bundle's size: its recall, beside it, says what that
    # costs (dr2 1: a constraint met with bundle recall 0.93 → 0.31)
    held = ["bundle_recall"] if any(c in BUNDLE_METRICS for c in constrained) else []
    return list(dict.fromkeys([*objectives[1:], *constrained, *held,
                               *(n for n in names if n not in objectives)]))


def _say_counted_turns(model: Any, evaluator: Any, measured: Sequence[str]) -> None:
    """Where an objective or constraint is an injection figure (results, empty,
    injected_tokens), what the figure leaves out at the starting values, as eval says it
    (dr7 3: tune's injected_tokens counted the injection turns only, unsaid)."""
    from workbench.core.diagnostics import counted_queries
    from workbench.core.selection_figures import FIGURES

    figures = [m for m in measured if m in FIGURES]
    if not figures:
        return
    found = counted_queries(model, evaluator.prepared(evaluator.base), evaluator.base)
    lines = found[1].lines() if found is not None else []
    if lines:
        say(f"note: {', '.join(figures)} count{'s' if len(figures) == 1 else ''} the "
            "injection turns only, as eval does; at the starting values: " + "; ".join(lines))

