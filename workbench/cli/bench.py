"""`workbench bench`: time the live path (combine + top-k + metrics) on a dataset, or instead
the encoder, the optimiser, the window, or codeledger on a repository's own history."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from workbench.cli.args import fraction, whole
from workbench.cli.common import UsageError, model_list

# `bench DATA --quick`: DATA timed this many times (it had timed the synthetic sets instead
# and left DATA out unsaid: review rn 2)
QUICK_REPEATS = 3


class _Renamed(argparse.Action):
    """An option under its old name: stored as the new one, with a note on stderr."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        print(f"note: {option_string} is now --task-fraction (the newest share of the "
              "commits that become tasks); the old name still works", file=sys.stderr)
        setattr(namespace, self.dest, values)
        namespace.old_names = {**getattr(namespace, "old_names", {}), self.dest: option_string}


def add_commands(sub: Any) -> None:
    p = sub.add_parser("bench", help="time the live combine + top-k + metrics path",
                       description="Time the live combine + top-k + metrics path (or, with "
                       "a mode below, another part). Where a row has a target, a verdict says "
                       "whether it was met, and the exit status is 1 when one was not.")
    p.add_argument("data", nargs="?", metavar="DATA",
                   help="dataset to time on (default: SciFact from $WORKBENCH_DATASETS or "
                   "the shared datasets beside the checkout; with neither its rows are left "
                   "out, never replaced)")
    p.add_argument("--repeats", type=whole(1), default=None,
                   help=f"timed repetitions (median taken; default 15, {QUICK_REPEATS} for "
                   "bench DATA --quick)")
    p.add_argument("--quick", action="store_true",
                   help="small synthetic sizes: every row, in a few minutes on two cores; "
                   f"with DATA: DATA alone, timed {QUICK_REPEATS} times")
    p.add_argument("--model", "-m", type=model_list, action="append",
                   help="comma-separated model ids or systems' names (openvault, "
                        "pi-lodestone, obsidian-mcp, codeledger; default: all); repeatable, "
                        "as compare's -m is (-m bm25 -m hybrid)")
    # the configuration timed (rb 6: hybrid was timed at other fields and prompts than eval
    # scores, said in a note only)
    p.add_argument("--defaults", action="store_true",
                   help="time each model at its defaults, the configuration eval scores "
                   "(without it, hybrid is timed at no prompts and title+text, the texts "
                   "`embed -m dense` caches: said before the table)")
    p.add_argument("--param", "-p", action="append", metavar="NAME=VALUE",
                   help="time the model -m names at its defaults with this value, as eval "
                   "takes it (repeatable)")
    p.add_argument("--params", "--config", "-c", dest="params", metavar="FILE.toml",
                   help="time the model -m names at the values of this params file (what "
                   "`tune --out` writes), as eval takes it; -p values go over it")
    # past ten million documents the vectors alone outgrow any machine this runs on
    p.add_argument("--scale", type=whole(1, 10_000_000), nargs="?", const=200_000,
                   metavar="DOCS",
                   help="instead: the models that embed (dense, hybrid) prepared on DOCS "
                   "synthetic documents (default 200,000) × 1,000 queries, each in a child "
                   "process: prepare time and peak memory against the 2 GB target, and the "
                   "live path")
    p.add_argument("--embeddings", action="store_true",
                   help="instead: encoder throughput against sentence-transformers called "
                   "directly, and cache reopen time")
    p.add_argument("--texts", type=whole(1),
                   help="texts for --embeddings (default 1000)")
    p.add_argument("--tune", action="store_true",
                   help="optimiser trials per second on SciFact hybrid, against the live tick")
    p.add_argument("--trials", type=whole(1),
                   help="trials per study for --tune (default 60)")
    p.add_argument("--gui", action="store_true",
                   help="instead: slider moved → window repainted, on SciFact with the "
                   "hybrid model (offscreen), and first launch → first ranked table")
    p.add_argument("--positions", type=whole(1),
                   help="slider positions for --gui (default 60)")
    p.add_argument("--timeout", type=whole(1), metavar="SECONDS",
                   help="for --gui: stop (exit status 1) when the bench runs longer than this "
                   "(default 1800)")
    p.add_argument("--code", metavar="REPO",
                   help="instead: codeledger on REPO's own history (tasks from the commits "
                   "after a time split) against BM25 over file contents, defaults and a quick "
                   "tune, index and combine times")
    p.add_argument("--code-scale", type=whole(10), metavar="FILES",
                   help="instead: codeledger's index, prepare and live times on a repository "
                   "of FILES real Python files (from the installed packages) with a seeded "
                   "synthetic history of 500 commits, 200 tasks; timings only")
    # the two names of one option: both given is refused, as tasks-from-git refuses them
    # (the last had been kept without a word: dr4 10)
    fractions = p.add_mutually_exclusive_group()
    fractions.add_argument("--task-fraction", type=fraction, metavar="FRACTION",
                   help="for --code: the newest share of the commits that become tasks, "
                   "counted from the new end, as tasks-from-git's: 0.5 = the newest 50%% of "
                   "commits are tasks, the older 50%% the indexed history (default 0.5)")
    # its name until rv2 5 (as tasks-from-git's), read as the share that stays history:
    # still read, said
    fractions.add_argument("--history-fraction", type=fraction, dest="task_fraction",
                   action=_Renamed, help=argparse.SUPPRESS)
    p.add_argument("--snapshot-every", type=whole(0), metavar="COMMITS",
                   help="for --code: also score each newer task on an index at most COMMITS "
                   "commits before it (a snapshot per run of COMMITS tasks; 0: not; default 10)")
    p.set_defaults(func=cmd_bench)


# each mode's own options (option, dest, mode, default): given without their mode they were
# ignored and the default bench ran (`bench --texts 5`: 16 minutes of embedding SciFact)
MODE_OPTIONS = (("--texts", "texts", "--embeddings", 1000), ("--trials", "trials", "--tune", 60),
                ("--positions", "positions", "--gui", 60),
                ("--timeout", "timeout", "--gui", 1800),
                ("--task-fraction", "task_fraction", "--code", 0.5),
                ("--snapshot-every", "snapshot_every", "--code", 10))


# options of the default bench (and of --scale, where it reads them): ignored by the other
# modes, where --tune --quick had run the whole 60-trial study (review dr1, 5)
PLAIN_OPTIONS = (("--quick", "quick", ()), ("--repeats", "repeats", ("--scale",)),
                 ("--model", "model", ("--scale",)), ("--defaults", "defaults", ()),
                 ("--param", "param", ()), ("--params", "params", ()))


def _check_mode_options(args: argparse.Namespace, modes: list[str]) -> None:
    """UsageError for an option of a mode not given, or of the default bench given with a
    mode that does not read it; each option not given takes its default."""
    for option, dest, also in PLAIN_OPTIONS:
        if getattr(args, dest) and modes and modes[0] not in also:
            where = " and bench " + " and ".join(also) if also else ""
            raise UsageError(f"{option} is an option of bench without a mode{where}, not of "
                             f"{modes[0]}")
    if getattr(args, "data", None) and modes and modes[0] in ("--scale", "--code-scale",
                                                              "--code"):
        # each of these makes or names its own data: a DATA beside it had been dropped
        raise UsageError(f"DATA {args.data}: bench {modes[0]} does not read it"
                         + (" (give the repository to --code)" if modes[0] == "--code"
                            else " (it makes synthetic data)"))
    if args.repeats is None:
        args.repeats = QUICK_REPEATS if args.quick and args.data is not None else 15
    for option, dest, mode, default in MODE_OPTIONS:
        if getattr(args, dest) is None:
            setattr(args, dest, default)
        elif mode not in modes:  # named as typed: --history-fraction, not its new name
            option = getattr(args, "old_names", {}).get(dest, option)
            raise UsageError(f"{option} is an option of bench {mode}"
                             + (f", not of {modes[0]}" if modes else f": give {mode} too"))


def cmd_bench(args: argparse.Namespace) -> int:
    modes = [name for name, on in (("--scale", args.scale is not None),
                                   ("--embeddings", args.embeddings), ("--tune", args.tune),
                                   ("--gui", args.gui), ("--code", bool(args.code)),
                                   ("--code-scale", bool(args.code_scale))) if on]
    if len(modes) > 1:  # each is an "instead": one ran and the others were dropped unsaid
        raise UsageError(f"{' and '.join(modes)}: each is a bench of its own; give one")
    _check_mode_options(args, modes)
    if args.code_scale:
        from workbench.bench.code_scale import run_code_scale_bench

        return run_code_scale_bench(args.code_scale)
    if args.code:
        from workbench.bench.code_selection import run_code_bench
        from workbench.core.formats.code_repo import is_sample_stream_folder, sample_repo
        from workbench.core.repo import GitError

        code = args.code
        if is_sample_stream_folder(Path(code)):  # the bundled sample: its own repository
            code = str(sample_repo(Path(code)))
        try:
            return run_code_bench(code, split=args.task_fraction,
                                  every=args.snapshot_every)
        except (GitError, ValueError) as exc:
            raise UsageError(str(exc)) from None
    if args.data is not None and not Path(args.data).exists():
        raise UsageError(f"DATA {args.data}: no such file or folder")
    if args.tune:
        from workbench.bench.tune_bench import run_tune_bench

        return run_tune_bench(args.data, trials=args.trials)
    if args.gui:
        from workbench.bench.gui_bench import run_gui_bench

        return run_gui_bench(positions=args.positions, data=args.data, timeout=args.timeout)
    if args.scale is not None:
        from workbench.bench.scale_bench import run_scale_bench

        return run_scale_bench(args.scale, repeats=args.repeats,
                               models=_models(args))
    if args.embeddings:
        from workbench.bench.embedding_bench import run_embedding_bench

        return run_embedding_bench(n_texts=args.texts, data=args.data)
    from workbench.bench.harness import run_benchmarks

    # quick with DATA: fewer repeats on DATA (above), not the small synthetic sets instead
    return run_benchmarks(data=args.data, repeats=args.repeats,
                          quick=args.quick and args.data is None, models=_models(args),
                          params=_timed_params(args))


def _timed_params(args: argparse.Namespace) -> dict[str, dict[str, object]] | None:
    """Each model's values over its defaults as -p/--params name them (one model, -m), as
    eval reads them (a bad value: ParamError naming it); {} with --defaults; None: the
    bench's own (`harness.BENCH_PARAMS`, said as not the evaluated configuration)."""
    if args.param or args.params:
        from workbench.core.models import get_model
        from workbench.core.params import parse_assignments, resolve_file

        models = _models(args) or []
        if len(models) != 1:
            raise UsageError("-p/--params set one model's values: name that model alone with "
                             "-m (bench DATA -m hybrid --params best.toml)")
        model = get_model(models[0])
        overrides: dict[str, object] = {}
        if args.params:
            overrides.update(resolve_file(model.schema, args.params))
        overrides.update(parse_assignments(args.param or []))
        model.schema.resolve(overrides)  # checked before any work
        return {models[0]: overrides}
    return {} if args.defaults else None


def _models(args: argparse.Namespace) -> list[str] | None:
    """The models -m names, each once, in order: comma lists and repeated -m alike (a
    repeated -m had kept only the last)."""
    if not args.model:
        return None
    return list(dict.fromkeys(m for given in args.model for m in given.split(",")))
