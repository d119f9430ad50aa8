"""`workbench tune`: search many parameters at once, report held-out scores, write the settings.

    workbench tune DATA -m MODEL [--tune a,b] [--range a=lo:hi] [--metric M[,COST]]
        [--constraint "NAME<=X"] [--trials N | --timeout S] [--folds K | --time-split F |
        --train-split train --test-split test] [--sampler tpe|cmaes|random|grid] [--seed S]
        [--storage FILE|URL] [--study NAME] [--fresh] [--workers N] [--out best.toml]
"""

from __future__ import annotations

import argparse
import math
import os
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from workbench.cli.common import (
    EXIT_FAIL,
    EXIT_OK,
    UsageError,
    add_data,
    add_model,
    idle_text,
    left_out_note,
    load_data,
    model_and_params,
    pipeline,
)
from workbench.cli.evaluate import check_bundle_metrics
from workbench.cli.tune_report import print_plan, print_result, reasons_text
from workbench.core.engine import Progress
from workbench.core.params import ParamError, params_toml
from workbench.core.store import cache_dir
from workbench.core.tuned_on import of_result, tuned_toml
from workbench.core.tuning.run_record import run_lines
from workbench.textout import p_equals, progress_bar, say


def add_commands(sub: Any) -> None:
    from workbench.core.tuning import SAMPLERS

    p = sub.add_parser("tune", help="search many parameters at once; held-out scores; "
                       "write the best settings")
    add_data(p)
    add_model(p)
    p.add_argument("--tune", metavar="A,B,…", help="parameters to tune (default: every live "
                   "numeric, choice and on/off parameter that scores)")
    p.add_argument("--range", action="append", default=[], metavar="NAME=LOW:HIGH",
                   help="narrow a tuned parameter's range (repeatable)")
    # --metrics too: every other command spells it so (eval's --metric was accepted as an
    # abbreviation of --metrics, tune's --metrics refused)
    p.add_argument("--metric", "--metrics", dest="metric", metavar="M[,COST]",
                   help="objective(s): a metric such as "
                   "ndcg@10, or cases, bundle_recall, bundle_f1 …; a second, e.g. "
                   "bundle_tokens, gives a Pareto front (default: ndcg@10; cases for eval "
                   "cases; bundle_recall for codeledger)")
    p.add_argument("--constraint", action="append", default=[], metavar="NAME<=X|NAME>=X",
                   help="a bound on a mean over the training queries, e.g. "
                   "'injected_tokens<=120' or 'r@100>=0.9' (repeatable)")
    p.add_argument("--trials", type=int, default=None, help="trials per study, in all: a "
                   "continued study runs only what it lacks (default 100; a grid runs every "
                   "point)")
    p.add_argument("--timeout", type=float, help="seconds for the whole run (default: none; "
                   "--trials bounds it)")
    v = p.add_mutually_exclusive_group()
    v.add_argument("--folds", type=int, help="k-fold over queries (default 5; 0 = no "
                   "held-out score)")
    v.add_argument("--time-split", type=float, metavar="F", help="tasks in time order: the "
                   "oldest share F tunes, the rest is held out (default for repository tasks: "
                   "0.5)")
    v.add_argument("--train-split", metavar="SPLIT", help="tune on this split of the data, "
                   "e.g. BEIR's train … (needs --test-split)")
    p.add_argument("--test-split", metavar="SPLIT", help="… and score on this one, e.g. "
                   "test (the two go together; neither has a default)")
    p.add_argument("--sampler", default="tpe", choices=SAMPLERS,
                   help="how trials are drawn: optuna's TPE (default), random, CMA-ES, or every "
                   "point of a grid over the sliders' steps")
    p.add_argument("--pick", default=None, choices=("bound", "best"),
                   help="the trial kept (one objective): bound (default) = the surest gain over "
                   "the starting values on the training queries, the mean of its per-query "
                   "gains less about 2 standard errors (more for few queries: 2.1 for 30, 2.9 "
                   "for 5; the plan gives the number), among "
                   "the 20 best trials — the starting values when no trial's bound is above "
                   "0 (or a study tunes on one query); best = the highest training mean, "
                   "which often fits the training queries' quirks")
    p.add_argument("--seed", type=int, default=0, help="the seed of the sampler and of the "
                   "k-fold split: the same command and seed draw the same folds and trials "
                   "(default 0); another seed puts other queries in each fold too, so comparing "
                   "seeds varies both; a run stopped and continued draws on from where it "
                   "stopped, not the trials of one uninterrupted run")
    p.add_argument("--storage", metavar="FILE|URL", help="study storage: an SQLite file "
                   "(default: studies.db in the cache folder), a .log file (optuna's journal: "
                   "much faster per trial with many parameters) or postgresql://user@host/db")
    p.add_argument("--study", metavar="NAME", help="study name (default: derived from the "
                   "settings, so the same command continues the same study)")
    p.add_argument("--fresh", action="store_true", help="start the study anew")
    p.add_argument("--workers", type=int, default=1, help="processes on this machine sharing "
                   "the study; they pay only where a trial costs well over the storage's own "
                   "(~0.2 s a trial on PostgreSQL: slower than one process for BM25); sharing "
                   "processes may end a study a trial or two past --trials")
    p.add_argument("--worker-index", type=int, default=0, help=argparse.SUPPRESS)
    p.add_argument("--out", "-o", metavar="FILE.toml", help="write the tuned parameters (read back "
                   "by eval, gui, export with --params)")
    p.set_defaults(func=cmd_tune)


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
        cut = {n: why for n, why in tuning.space.cut_offs(names, measured).items()
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
    _say_what_cannot_ship(model, [d.name for d in space.dimensions], measured, list(cut))
    _say_fixed_figures(model, objectives, constraints)
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
                 note.verdict if carried in ("kept", "neither") else "")
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
    then each --constraint's figure (shown before only as a training mean), then the usual
    measures."""
    from workbench.core.cases import has_cases

    names = ["ndcg@10", "mrr@10", "r@10", "r@100"] if dataset.qrels else []
    if model.id.startswith("codeledger"):
        names += ["bundle_recall", "bundle_precision", "bundle_f1", "bundle_files",
                  "bundle_tokens"]
    if has_cases(dataset):
        names.append("cases")
    # the other objectives too: their held-out values at the start were shown nowhere
    return list(dict.fromkeys([*objectives[1:], *constrained,
                               *(n for n in names if n not in objectives)]))


def _not_reopenable(path: Path) -> bool:
    """A pipe or other stream (`<(cmd)`, /dev/stdin) that another process cannot read again."""
    import stat

    try:
        mode = path.stat().st_mode
    except OSError:
        return False  # a missing file is said where it is read
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))


def _check_args(args: argparse.Namespace) -> None:
    if args.trials is not None and args.trials < 1:
        raise UsageError(f"--trials must be at least 1, got {args.trials}")
    if args.timeout is not None and not args.timeout > 0:
        raise UsageError(f"--timeout must be a positive number of seconds, got {args.timeout}")
    if args.workers < 1:
        raise UsageError(f"--workers must be at least 1, got {args.workers}")
    import os

    most = max(8, 2 * (os.cpu_count() or 1))
    if args.workers > most:  # a typo (400 for --trials 400) would start 399 processes
        raise UsageError(f"--workers {args.workers}: at most {most} on this machine "
                         f"({os.cpu_count() or 1} cores; more only slow each other); to tune "
                         "with more, start tune on other machines over one PostgreSQL study")
    if args.workers > 1:  # the helpers run the command again: a pipe is read once (dr3 6)
        for name in ("data", "queries", "qrels", "params"):
            value = getattr(args, name, None)
            if value and _not_reopenable(Path(value)):
                flag = "DATA" if name == "data" else f"--{name}"
                raise UsageError(f"--workers {args.workers}: the helper processes open {flag} "
                                 f"{value} again, and it is a pipe, read once; save it to a "
                                 "file and give that")
    if not 0 <= args.seed < 2 ** 32:
        raise UsageError(f"--seed must be a whole number in [0, {2 ** 32 - 1}], got {args.seed}")
    if bool(args.train_split) != bool(args.test_split):
        raise UsageError("--train-split and --test-split go together")
    typed_split = args.split != "test" or any(a == "--split" or a.startswith("--split=")
                                              for a in getattr(args, "argv", None) or [])
    if args.train_split and typed_split:  # it was read by neither, without a word
        raise UsageError(f"--split {args.split} and --train-split/--test-split: the two splits "
                         "tuned on and held out are named by --train-split and --test-split; "
                         "leave out --split")
    if args.train_split and args.qrels:  # said in the options given (not "--split train")
        folder = Path(args.data)
        for flag, split in (("--train-split", args.train_split),
                            ("--test-split", args.test_split)):
            if not (folder.is_dir() and (folder / f"queries.{split}.jsonl").is_file()):
                raise UsageError(f"{flag} {split} and --qrels: the judgments come from --qrels, "
                                 f"and {args.data} has no queries.{split}.jsonl to tell split "
                                 f"{split}'s queries; give one, or leave out --train-split and "
                                 "--test-split to hold out queries by k-fold (--folds K)")
    # options that would be accepted and not used: said, not dropped without a word
    several = bool(args.metric) and len([m for m in args.metric.split(",") if m.strip()]) > 1
    if args.pick is not None and several and not args.worker_index:
        say("note: --pick keeps one trial of one objective; with several objectives the "
            "Pareto front is kept and shown", file=sys.stderr)
    if args.sampler == "grid" and args.trials is not None and not args.worker_index:
        say("note: a grid runs each of its points once; --trials is not used (narrow the "
            "grid with --tune or --range)", file=sys.stderr)
    args.pick = args.pick or "bound"
    if args.out == "-":  # a file named "-" was written: tune's own report is on stdout
        raise UsageError("--out -: tune prints its report on standard output; give a file "
                         "(best.toml) for the tuned values")
    if args.out:
        out = Path(args.out)
        if out.is_dir():
            raise UsageError(f"--out {args.out}: is a folder")
        from workbench.cli.output import check_output, check_outputs_apart, input_files

        check_output(args.out, "--out")  # a read-only folder: said before the tuning, not after
        # onto the corpus it replaced it with the TOML; onto --params it writes the values
        # that continue those, as asked
        check_outputs_apart([("--out", out)],
                            [(a, p) for a, p in input_files(args) if a != "--params"],
                            {"--out": (".toml",)},
                            [Path(args.params)] if args.params else [])
        # the study file, made or not yet (a first run made it, then the TOML replaced it)
        store = _storage_file(args.storage)
        if store is not None and store.expanduser().resolve() == out.expanduser().resolve():
            raise UsageError(f"--out {args.out}: is the --storage file the study is kept in; "
                             "writing there would replace every trial")
        if out.suffix.lower() != ".toml":  # t.json held TOML: the format follows no ending
            raise UsageError(f"--out {args.out}: give a file name ending .toml; tune writes "
                             "the values as TOML, as --params reads them")


def _check_default_folds(args: argparse.Namespace, dataset: Any, split_masks: Any,
                         counted: int) -> None:
    """k-fold by default (no --folds, no split, no tasks in time) takes 5 folds: with 1 to 4
    judged queries, said with what can be asked instead (the user asked for no 5)."""
    from workbench.core.tuning.data import is_task_set

    if args.folds is not None or args.time_split is not None or split_masks is not None \
            or is_task_set(dataset) or not 0 < counted < 5:
        return
    fewer = f"--folds {counted} for {counted} folds, or " if counted >= 2 else ""
    there = "is 1 judged query" if counted == 1 else f"are {counted} judged queries"
    raise UsageError(f"k-fold, the default, takes 5 folds, and there {there}: give {fewer}"
                     "--folds 0 to tune with no held-out score")


def _storage_file(storage: str | None) -> Path | None:
    """The file a --storage value names (a path, or a sqlite:/// URL); None for a server."""
    if not storage:
        return None
    if storage.startswith("sqlite:///"):
        return Path(storage[len("sqlite:///"):])
    return None if "://" in storage else Path(storage)


def _load_for_tuning(args: argparse.Namespace) -> tuple[Any, Any]:
    from workbench.core.tuning.data import merge_splits

    if not args.train_split:
        return load_data(args), None
    _check_splits_named(args)
    _check_splits_apart(args)
    args.split = args.train_split
    train = load_data(args)
    args.split = args.test_split
    test = load_data(args)
    merged, train_mask, test_mask, dropped = merge_splits(train, test, args.train_split,
                                                          args.test_split)
    if dropped:
        n = len(dropped)
        say(f"warning: {n:,} quer{'y is' if n == 1 else 'ies are'} in both splits; held out, "
            "not tuned on", file=sys.stderr)
    describe = (f"tuned on split {args.train_split} ({int(train_mask.sum())} queries), "
                f"held out: split {args.test_split} ({int(test_mask.sum())})")
    return merged, (train_mask, test_mask, describe)


def _check_splits_named(args: argparse.Namespace) -> None:
    """Each of --train-split and --test-split a split DATA judges, said in the option given
    (the data's own error said "give --split test", an option that does not fit here), with
    k-fold as the way where there is one split or none."""
    from workbench.core.formats import dataset_splits

    if args.queries or args.qrels:
        return  # judgments from elsewhere: load_data says what does not fit
    folder = Path(args.data)
    splits = dataset_splits(folder)
    for flag, split in (("--train-split", args.train_split), ("--test-split", args.test_split)):
        if split in splits or (folder / "qrels" / f"{split}.tsv").is_file():
            continue  # judged here, or a file load_data says more of (no grades in it)
        if not folder.is_dir():
            why = "is a file, which has no splits"
        elif not splits:
            why = "has no splits (no qrels/<split>.tsv)"
        else:
            why = (f"has no qrels/{split}.tsv (split{'s' if len(splits) > 1 else ''} here: "
                   f"{', '.join(splits)})")
        fold = "--folds K" + (" --split " + splits[0] if splits and splits[0] != "test"
                              else "")
        how = (f"name one of them with {flag}, or hold out queries of one split by k-fold: "
               if len(splits) > 1 else "with one split, hold out its queries by k-fold: "
               if splits else "hold out queries by k-fold: ")
        raise UsageError(f"{flag} {split}: {args.data} {why}; {how}{fold}, without "
                         "--train-split and --test-split")


def _check_splits_apart(args: argparse.Namespace) -> None:
    """--train-split names a split with queries of its own: one whose every query the
    held-out split judges too (Cranfield's test.binary: test's queries graded 0/1) would tune
    on the held-out queries. Said before the data is read twice."""
    from workbench.core.formats import split_overlap

    train, test = args.train_split, args.test_split
    if train == test:
        raise UsageError(f"--train-split and --test-split both name split {test}: the scores "
                         "would be of the queries tuned on (for held-out scores on one split, "
                         f"use --folds K with --split {test})")
    folder = Path(args.data)
    if args.queries or args.qrels or not (folder / "qrels" / f"{train}.tsv").is_file():
        return  # judgments from elsewhere, or no such split: load_data says which
    shared, judged = split_overlap(folder, train, test)
    if judged and shared == judged:
        raise UsageError(f"--train-split {train}: split {train} judges no query of its own — "
                         f"all {judged:,} it judges are judged in --test-split {test} too, so "
                         "tuning on it would be tuning on the held-out queries; tune on a split "
                         f"of other queries, or use --folds K with --split {test}")


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


def _say_fixed_figures(model: Any, objectives: Sequence[str], constraints: Sequence[Any]) -> None:
    """A selection figure (results, injected_tokens) of a model with no min score or limit:
    a query returns every document it matches, so the figure moves only with what matches
    (bm25's fields, stemmer), never with what scores it (k1, b): said before the search
    (bm25 on Cranfield: 970.04 results a query at every k1, b and variant)."""
    from workbench.core.selection_figures import selects

    if selects(model):
        return
    for name in dict.fromkeys([*objectives, *(c.name for c in constraints)]):
        if name not in ("results", "injected_tokens"):
            continue
        role = "the objective" if name == objectives[0] else (
            "an objective" if name in objectives else "a constraint")
        say(f"warning: {model.id} has no min score or limit: a query returns every document "
            f"it matches, so {name} ({role}) moves only with what matches, not with the "
            "values that score the documents; a search over those finds no change",
            file=sys.stderr)


def _say_what_cannot_ship(model: Any, names: list[str], measured: list[str],
                          left_out: list[str]) -> None:
    """Before any trial: which of the tuned parameters the model's target system cannot take
    as a setting, and the --tune that searches only those it can (OpenVault has no
    normalisation setting, pi-lodestone hard-codes most of its constants: a held-out gain
    from them needs a code change to be had). What it can set may be only cut-offs that
    `measured` (objectives and constraints) can only lose with (`left_out` of the default
    search, or named): then no --tune of its settings can gain, and that is said instead."""
    from workbench.core.export import export_params, unshippable
    from workbench.core.tuning.space import cut_offs

    code, absent = unshippable(model.id, names)
    if not code and not absent:
        return
    target = export_params(model.id).target
    cut = cut_offs([*names, *left_out], measured)
    settable = [n for n in names if n not in code and n not in absent and n not in cut]
    parts = ([f"{', '.join(absent)} (not in it)"] if absent else []) + (
        [f"{', '.join(code)} (no setting there: it takes a change to its code)"] if code
        else [])
    left_code, left_absent = unshippable(model.id, left_out)
    cuts = [n for n in [*names, *left_out] if n in cut
            and n not in {*code, *absent, *left_code, *left_absent}]
    if settable:
        advice = f". To tune only what it can set: --tune {','.join(settable)}"
    elif cuts:
        advice = (f". What it can set {'is a cut-off' if len(cuts) == 1 else 'are cut-offs'}"
                  f", {reasons_text({n: cut[n] for n in cuts})}: no setting of {target} can "
                  "raise the score" + (" but by chance" if any(n.endswith("limit") for n in cuts)
                                       else "")
                  + ", and a gain tuned here ships only as a change to its code")
    else:
        advice = (f". Nothing tuned here is a setting {target} takes: a gain tuned here ships "
                  "only as a change to its code")
    say(f"note: {target} cannot take as a setting what is tuned here for "
        + "; ".join(parts) + ": `export` lists them apart" + advice)


PARENT_ENV = "WORKBENCH_TUNE_PARENT"  # a helper's run's pid


def _end_with_parent(poll_s: float = 1.0) -> None:
    """A helper whose run was killed (SIGKILL: no chance to stop it) ends as on Ctrl-C —
    its trials stored — once its parent is gone, instead of tuning on, unseen, to the whole
    budget while the next run is refused as "being tuned by another". A daemon thread
    watches the parent's pid (the process is re-parented when it dies)."""
    import os
    import signal
    import threading
    import time

    # the pid of the run that started it, from its environment: a parent dead before this
    # line ran has left the helper re-parented already, and getppid() would name the new one
    named = os.environ.get(PARENT_ENV, "")
    parent = int(named) if named.isdigit() else os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(poll_s)
        os.kill(os.getpid(), signal.SIGTERM)

    threading.Thread(target=watch, name="end-with-parent", daemon=True).start()


def _start_workers(args: argparse.Namespace, spec: Any, evaluator: Any,
                   validation: Any) -> list[subprocess.Popen[bytes]]:
    """N − 1 more processes on the same studies (each prepares from the warm cache)."""
    if args.workers <= 1:
        return []
    from workbench.core.tuning.runner import study_name

    base = study_name(spec, evaluator, validation)
    argv = [a for a in args.argv if a != "--fresh"]
    helpers = []
    for i in range(1, args.workers):
        cmd = [sys.executable, "-m", "workbench.cli", *argv, "--worker-index", str(i),
               "--study", base]
        helpers.append(subprocess.Popen(cmd, stdout=subprocess.DEVNULL,
                                        env={**os.environ, PARENT_ENV: str(os.getpid())}))
    return helpers


def _set_aside_tuned_start(args: argparse.Namespace, dataset: Any, validation: Any) -> Any:
    """A --params file that tune wrote for this data: its values were tuned on the queries
    its `[tuned]` table names, so those are never held out here (a score on them is a
    training score), and the settings written count them as tuned on."""
    if not args.params:
        return validation
    import numpy as np

    from workbench.core.models import get_model
    from workbench.core.tuning.validation import StartCoversHeldOut, set_aside

    tuned = _tuned_start(args.params, dataset, get_model(args.model),
                         say=args.worker_index == 0,  # once, not by each helper
                         assignments=args.param)
    if tuned is None:
        return validation
    prior = np.isin(np.array(dataset.queries.ids, dtype=object), list(tuned.trained_on))
    try:
        from workbench.core.tuning.data import dataset_nouns

        narrowed = set_aside(validation, prior, dataset_nouns(dataset)[1])
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
        say(f"note: the starting values ({Path(args.params).name}) were tuned on "
            f"{int(prior.sum())} of these {dataset_nouns(dataset)[1]} by an earlier run: they "
            "are never held out "
            "here, and count as tuned on in --out", file=sys.stderr)
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


def _stop_workers(helpers: list[subprocess.Popen[bytes]], grace_s: float = 30.0) -> None:
    """Interrupt the helpers of a run that stopped (a SIGTERM reaches this process only, not
    its process group as Ctrl-C does): they store the trials done and end, instead of tuning
    on to the budget; one that has not ended after `grace_s` is killed."""
    for h in helpers:
        if h.poll() is None:
            h.terminate()  # SIGTERM: the helper's command ends as on Ctrl-C
    for h in helpers:
        try:
            h.wait(timeout=grace_s)
        except subprocess.TimeoutExpired:
            h.kill()


def _reporter(bar: Any, spec: Any, validation: Any, space: Any) -> Any:
    """Progress: the study, the trial, the highest training value so far. No held-out figure:
    the trial kept is picked on training alone (often not the best one), so a held-out value
    here would be a second, different "held-out" result — and one to stop or rerun on."""
    n_studies = len(validation.folds) + (1 if validation.kind in ("kfold", "none") else 0)
    per_study = space.grid_size() if spec.sampler == "grid" else spec.trials
    best: dict[str, float] = {}
    seen: list[str] = []
    sign = 1.0 if _maximised(spec.objectives[0]) else -1.0

    heard: dict[str, int] = {}  # trials this run reported per study

    def report(r: Any) -> None:
        if r.study not in seen:
            seen.append(r.study)
        heard[r.study] = heard.get(r.study, 0) + 1
        train = r.train[0]
        old = best.get(r.study)
        if r.feasible and (old is None or sign * train > sign * old):
            best[r.study] = train
        fold = r.study.rsplit("/", 1)[-1]
        b = best.get(r.study)
        text = f"{fold} trial {r.number}"
        if b is not None:
            # a continued study holds trials this run has not seen: its best may be higher
            earlier = r.number >= heard[r.study]
            # the highest so far, not the trial kept: the bound pick often keeps another
            text += (f" · {_most_word(spec.objectives[0])} training {spec.objectives[0]} "
                     f"{'this run ' if earlier else ''}{b:.4f}")
        if per_study:
            bar((len(seen) - 1 + min(1.0, r.done / per_study)) / n_studies, text)
        else:
            bar(0.0, text)

    return report


def _most_word(name: str) -> str:
    return "highest" if _maximised(name) else "lowest"


def _maximised(name: str) -> bool:
    from workbench.core.tuning.objectives import direction

    return direction(name) == "maximize"


def _record(result: Any, model: Any, params: Any, dataset: Any, params_file: str | None,
            assignments: Any = ()) -> tuple[Any, str]:
    """The `[tuned]` record --out writes of the run, and what it carries of the start's
    verdict (`carry_verdict`: "kept", "moved", "neither" or ""): one record for the closing
    report and the file, so both give the same advice (dr3 4, 8, 11)."""
    from workbench.cli.tune_report import start_whose
    from workbench.core.tuned_on import carry_verdict

    values = {**model.schema.changed(params), **result.tuned}
    values = {k: (round(v, 10) if isinstance(v, float) else v) for k, v in values.items()}
    start = _tuned_start(params_file, dataset, model, assignments=assignments)
    # whose starting values the verdict advises keeping: a flagged file's, where this run
    # started from one, had read as the model's (T5, dr9 9); with -p's values (dr3 2, 12)
    whose = start_whose(result, model, params_file, assignments)
    note = of_result(result, dataset, model.id, values, start=start, whose=whose)
    return carry_verdict(note, start, Path(params_file or "").name, result.final.kept_start)


def _write_out(path: Path, result: Any, model: Any, params: Any, dataset: Any,
               params_file: str | None = None, assignments: Any = ()) -> None:
    """The values to ship, their validation as comments, and a `[tuned]` table (the queries
    they were tuned on, their held-out figures) that compare and report read."""
    from workbench.core.store import atomic_write_text

    values = {**model.schema.changed(params), **result.tuned}
    values = {k: (round(v, 10) if isinstance(v, float) else v) for k, v in values.items()}
    held, kept = "", ""
    from workbench.core.tuning.data import dataset_nouns, one_of

    many = dataset_nouns(dataset)[1]  # "tasks" of a repository, as the notes say (dr7 3, dr9 5)
    from workbench.cli.tune_report import start_word

    if result.test is not None:
        t = result.test
        held = (f"held-out {result.spec.objectives[0]}: {start_word(result, model)} "
                f"{t.mean_a:.4f}, tuned "
                f"{t.mean_b:.4f} ({p_equals(t.p_value)}, {t.n} "
                f"{one_of(many) if t.n == 1 else many})")
        if result.validation.kind == "kfold":  # read as these values' score, it misled
            held += (f"; k-fold: each {one_of(many)} scored by the values its own fold tuned, "
                     "an estimate for tuning this way, not a score of the values below")
    from workbench.core.tuning.pick import start_kept_because

    why = start_kept_because(result.spec.pick)
    if result.final.kept_start:
        kept = f"the values below are the starting values: {why}"
    # the values written, keyed; with the queries the start was tuned on (compare on them
    # says "training"), and the run's advice against them, if it gave any
    name = Path(params_file or "").name
    from workbench.cli.tune_report import start_whose

    whose = start_whose(result, model, params_file, assignments)
    note, carried = _record(result, model, params, dataset, params_file, assignments)
    # the file says it in its own terms, first: a reader who ships whatever it holds had
    # seen only the numbers (rb 1)
    # "held-out ndcg@10 0.6131 → 0.6111", or under k-fold "tuning this way gained nothing …"
    from workbench.core.tuning.verdict import grounds

    figures = grounds(result) if note.verdict else ""
    kfold = result.validation.kind == "kfold"
    # k-fold: the values written were tuned on every query; the held-out figures estimate
    # tuning this way, not them (dr1 5)
    # the figures themselves are on the held-out line two below: said once (dr9 6)
    gained = ("tuning this way gained nothing held out (k-fold estimate)" if kfold else
              f"these values gain nothing over the starting values on {many} they were not "
              "tuned on")
    warning = (f"NOT RECOMMENDED: {gained} — keep the starting values ({whose}); the verdict "
               "in [tuned] says so too" if note.verdict else "")
    lineage = ""  # the --params file's run advised against the values this run started from
    # kept unchanged: its run's advice against them goes on, else a short run from a flagged
    # file wrote a clean-looking one (dr7 1); moved from them: compared with those values
    # only, not with the defaults, where a one-step nudge had written a clean file (dr9 2)
    if carried == "neither":  # its own verdict, the start's run's advice with it (dr3 8)
        warning = f"NOT RECOMMENDED: {gained} — {note.advice}; the verdict in [tuned] says so too"
    elif carried == "kept":
        warning = f"NOT RECOMMENDED: {note.verdict}; the verdict in [tuned] says so too"
    elif carried == "moved":
        lineage = note.verdict
        warning = (f"NOT RECOMMENDED as they stand: these values {lineage}; the verdict in "
                   "[tuned] says so too")
    t = result.test
    # no held-out change: no advice either way (dr1 4), said as that
    even = (f"no held-out evidence either way: the {t.n} held-out "
            f"{one_of(many) + ' scores' if t.n == 1 else many + ' score'} the same mean at the "
            "starting and the "
            "tuned values" if t is not None and not note.verdict and not result.final.kept_start
            and t.mean_a == t.mean_b else "")
    comments = [warning, f"workbench tune: model {model.id} on {dataset.name}",
                f"validation: {result.validation.describe}", held, even, kept]
    try:
        atomic_write_text(path, params_toml(values, [c for c in comments if c])
                          + tuned_toml(note, run_lines(result)))
    except OSError as exc:  # as every other writer says it (ra 4: a generic error, exit 1)
        from workbench.cli.output import OutputError

        raise OutputError(f"--out {path}: cannot write ({exc.strerror or exc}); nothing was "
                          "written. The tuned values are in the table above, and the study "
                          f"is kept in its storage: {_rerun_to_write(result)}") from None
    after = _readers_after(result, dataset, note)
    if result.final.kept_start:  # the file holds the start: nothing to apply
        # the run that advised it, not the run that only carried it (dr8 4)
        said = (f"; not recommended, as {note.carried}'s run advised and the file's verdict "
                "says" if note.verdict and note.carried else
                f"; not recommended, as the verdict {name} carries says" if note.verdict else "")
        say(f"the starting values written to {path} ({why}: nothing changed){said}, with the "
            f"{len(note.trained_on)} {many} they were tuned on: {after}")
        return
    if note.verdict and not lineage:  # written, as asked; not offered for use
        say(f"tuned parameters written to {path}, but not recommended: "
            + (figures if kfold else f"they gain nothing over the starting values ({figures})")
            + ", and the file says so in its verdict — "
            + (f"{note.advice}; with " if carried == "neither" else
               f"keep the starting values ({whose}), or tune fewer parameters (--tune) or "
               f"narrower ranges, or judge more {many}; with ")
            + f"the {len(note.trained_on)} {many} they were tuned on: {after}")
        return
    if lineage:  # compared with advised-against values only: not offered for use either
        say(f"tuned parameters written to {path}, but not recommended as they stand: they "
            f"{lineage}; the file says so in its verdict; with the {len(note.trained_on)} "
            f"{many} they were tuned on: {after}")
        return
    say(f"tuned parameters written to {path} (use: --params {path}), with the "
        f"{len(note.trained_on)} {many} they were tuned on: {after}")


def _rerun_to_write(result: Any) -> str:
    """How to write the values of a run whose --out failed without tuning anew: the same
    command adds no trial where each study holds its --trials; a --timeout run's would run
    for its time again, so --trials the fewest a study holds, in its place (dr1 7), and a
    shared study may be added to by others meanwhile."""
    spec = result.spec
    studies = [*result.folds, *([result.final] if result.final not in result.folds else [])]
    if spec.timeout:
        fewest = min(f.trials for f in studies)
        how = (f"the same command with --trials {fewest} and no --timeout (and without "
               "--fresh) and a writable --out writes them without running new trials")
    else:
        how = ("the same command (without --fresh) and a writable --out writes them without "
               "running its trials again")
    if spec.shared:
        how += ("; other processes sharing the study may add trials meanwhile, and so change "
                "the values kept")
    return how


def _readers_after(result: Any, dataset: Any, note: Any) -> str:
    """What eval, compare and report do with the file on this data (`held_out_queries`'s
    rule, dr1 2): every query counted as training scores where the values were tuned on all
    (k-fold, none) or on a named split (what they left of it is no held-out part); else the
    queries not tuned on (a time split's newer tasks) counted, as tune counted them."""
    from workbench.core.tuned_on import FEW_HELD_OUT
    from workbench.core.tuning.data import dataset_nouns, one_of

    trained = set(note.trained_on)
    judged = [q for q in dataset.queries.ids if (dataset.qrels or {}).get(q)]
    left = [q for q in judged if q not in trained]
    many = dataset_nouns(dataset)[1]  # "tasks" of a repository, as the rest of tune says
    one = one_of(many)
    estimate = ("tune's held-out figures above are the estimate" if result.test is not None
                else f"no figure estimates how they do on new {many} (no {one} was held out)")
    if not left:  # k-fold and none ship values tuned on every judged query of this data
        return (f"eval, compare and report on {dataset.name} count every {one} and say their "
                f"figures are training scores; {estimate}")
    if note.split_run:
        test = result.validation.folds[0].test
        ids = dataset.queries.ids
        spare = sum(1 for i, q in enumerate(ids) if q in left and not test[i])
        return ("eval, compare and report on the training split count every query and say "
                "their figures are training scores"
                + (f" (the {spare} quer{'y' if spare == 1 else 'ies'} it left untuned there "
                   f"{'is' if spare == 1 else 'are'} no held-out part)" if spare else "")
                + "; on the held-out split every figure is held out")
    rough = (f", a rough figure under {FEW_HELD_OUT} {many}, as they say"
             if len(left) < FEW_HELD_OUT else "")
    return (f"eval, compare and report on {dataset.name} leave those out and count the "
            f"{len(left)} not tuned on{rough}")


__all__ = ["add_commands", "cmd_tune"]
