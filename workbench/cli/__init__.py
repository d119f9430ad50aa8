"""The headless face: `workbench models | rank | explain | eval | sweep | compare | report |
embed | bench | why | why-stats | export | tasks-from-git | tune | demo`, and the window's two
entries: `workbench gui [DATA]` and `workbench screenshot OUTDIR`.

Every subcommand is a function taking the parsed arguments and returning an exit code, so tests
call them in-process. Bad input ends in one line on stderr naming file, line and field; never a
traceback.

One module per command family, each registering its subcommands with `add_commands(sub)`:
`ranking` (models, rank, explain), `evaluate` (eval, sweep), `compare` (compare, report),
`embed`, `bench`, `window` (gui, screenshot, demo), `memory` (why, why-stats, export), `code`
(tasks-from-git), `tune` (its printing in `tune_report`). What they share is in `common` (exit
codes, `UsageError`, loading data, model and parameters, the --metrics list, the argument
groups), `args` (argument types, the one-line parser), `output` (output files checked before the
work) and `bundles` (what explain and eval print for a bundle-selecting model). No module
imports a command module's private names.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Sequence

from workbench.cli import (
    bench,
    cache,
    code,
    compare,
    embed,
    evaluate,
    memory,
    ranking,
    tune,
    window,
)
from workbench.cli.args import OneLineParser
from workbench.cli.common import EXIT_FAIL, EXIT_OK, EXIT_USAGE, UsageError
from workbench.cli.output import OutputError
from workbench.core.data import FormatError
from workbench.core.embeddings import EmbeddingError, unkept_cache_warnings
from workbench.core.engine import Cancelled, MemoryEstimateError
from workbench.core.params import ParamError
from workbench.core.store.trim import CacheLimitError, cache_limit
from workbench.textout import warn_above_progress


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog="workbench",
        description="Scoring Workbench: tune how retrieval systems score.")
    from workbench import __version__

    parser.add_argument("--version", action="version", version=f"workbench {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    # in the order `workbench --help` lists them
    ranking.add_commands(sub)  # models, rank, explain
    evaluate.add_commands(sub)  # eval, sweep
    compare.add_commands(sub)  # compare, report
    embed.add_commands(sub)
    cache.add_commands(sub)
    bench.add_commands(sub)
    window.add_commands(sub)  # gui, screenshot
    memory.add_commands(sub)  # why, why-stats, export
    code.add_commands(sub)  # tasks-from-git
    tune.add_commands(sub)
    window.add_demo_command(sub)
    return parser


def _notes(exc: BaseException) -> str:
    """What the work under way said it kept (`add_note`), after the word."""
    notes = getattr(exc, "__notes__", [])
    return "".join(f"; {n}" for n in notes)


def _replace_unencodable() -> None:
    """stdout and stderr write what their encoding lacks as "?" instead of failing: where they
    are not UTF-8 (cp1252 when Windows output is redirected, a latin-1 locale) the first "≥"
    or "Δ" of a table ended the command in a UnicodeEncodeError traceback. surrogateescape
    (PYTHONIOENCODING=ascii:surrogateescape) escapes only surrogates: it failed alike."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None and getattr(stream, "errors", "strict") in (
                "strict", "surrogateescape"):
            reconfigure(errors="replace")


def main(argv: Sequence[str] | None = None) -> int:
    _replace_unencodable()
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if extra:  # said by the command's own parser: its name and its --help, not workbench's
        command = getattr(args, "command", None)
        sub = next((a for a in parser._actions
                    if isinstance(a, argparse._SubParsersAction)), None)
        owner = sub.choices.get(command, parser) if sub is not None and command else parser
        owner.error(f"unrecognized arguments: {' '.join(extra)}")
    args.argv = list(sys.argv[1:] if argv is None else argv)  # `tune --workers` repeats it
    func: Callable[[argparse.Namespace], int] | None = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return EXIT_USAGE
    try:
        said = False
        if args.command not in NO_CACHE:
            cache_limit()  # a $WORKBENCH_CACHE_LIMIT that is no size: said before any work
            said = _check_cache(args.command)
        with contextlib.ExitStack() as stack:
            if not said:  # a cache said to be unwritable up front is not said again per write
                stack.enter_context(unkept_cache_warnings(warn_above_progress))
            if args.command == "gui":  # Qt's event loop: a signal stays the end it always was
                return func(args)
            stack.enter_context(_terminate_as_interrupt())
            return func(args)
    except (FormatError, ParamError, UsageError, EmbeddingError, OutputError,
            MemoryEstimateError, CacheLimitError) as exc:
        print(f"workbench {args.command}: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except Cancelled as exc:
        print(f"workbench {args.command}: cancelled{_notes(exc)}", file=sys.stderr)
        return EXIT_FAIL
    except KeyboardInterrupt as exc:
        print(f"workbench {args.command}: interrupted{_notes(exc)}", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # the reader went away (`workbench models | head`): stop quietly, as Unix tools do;
        # stdout is pointed at /dev/null so Python's own flush at exit cannot fail again
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    except OSError as exc:  # a full disk, a folder made read-only meanwhile: said, not traced
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"workbench {args.command}: error: {where}{exc.strerror or exc}", file=sys.stderr)
        return EXIT_FAIL


# commands that read and write no cache: a bad $WORKBENCH_CACHE_LIMIT or cache folder is
# none of their business (`cache` says what it finds itself)
NO_CACHE = frozenset(("models", "export", "why", "cache", "tasks-from-git"))


def _check_cache(command: str) -> bool:
    """An unusable cache folder, said before any work: `embed`, whose work is to fill it,
    stops; the others warn that nothing is kept (each run prepares and embeds again). Whether
    it warned."""
    from workbench.core.store import cache_unusable

    why = cache_unusable()
    if why is None:
        return False
    if command == "embed":
        raise UsageError(f"the cache folder cannot be written ({why}): embed would keep "
                         "nothing; set $WORKBENCH_CACHE_DIR to a folder you can write")
    print(f"warning: the cache folder cannot be written ({why}): nothing is cached, so each "
          "run prepares (and embeds) again; set $WORKBENCH_CACHE_DIR to a folder you can "
          "write", file=sys.stderr)
    return True


@contextlib.contextmanager
def _terminate_as_interrupt() -> Iterator[None]:
    """SIGTERM and SIGHUP (`timeout`, a CI cancel, a closed terminal) end the command as
    Ctrl-C does, so the temporary files of the writes under way are removed; the handlers
    before are put back after. Only in the main thread, where Python takes signals."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    kept = {}
    for name in ("SIGTERM", "SIGHUP"):
        sig = getattr(signal, name, None)
        if sig is not None:
            kept[sig] = signal.signal(sig, interrupt)
    try:
        yield
    finally:
        for sig, handler in kept.items():
            signal.signal(sig, handler)


__all__ = ["build_parser", "main"]
