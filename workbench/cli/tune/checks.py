"""tune's options checked before any data is read: said in the flags given, nothing written."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from workbench.cli.common import UsageError
from workbench.textout import say


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
