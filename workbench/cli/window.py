"""The window's entries: `gui` (the desktop window on DATA, or a bundled sample), `screenshot`
(PNGs of it on each sample corpus), and `demo` (what the README's run command shows: each
sample evaluated and one query explained)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from workbench.cli.common import EXIT_FAIL, EXIT_OK, MODEL_HELP, UsageError, model_id
from workbench.core.params import (
    ParamError,
    file_model,
    load_params_file,
    parse_assignments,
    resolve_file,
)
from workbench.core.tuned_on import read_tuned_on

SAMPLES = Path(__file__).resolve().parents[2] / "sample_corpora"


def add_commands(sub: Any) -> None:
    """`gui` and `screenshot`."""
    p = sub.add_parser("gui", help="the desktop window (on DATA, or a bundled sample)")
    p.add_argument("data", nargs="?", help="dataset folder or file, or a saved session (.json, as "
                   "File ▸ Save session… writes it; default: the last one opened, else "
                   "sample_corpora/vault)")
    p.add_argument("--queries", help="query file (JSONL/CSV/TSV, or a TREC topic file, its "
                   "titles the queries; a repository's tasks from tasks-from-git) for DATA; "
                   "File ▸ Open queries or tasks… in the window")
    p.add_argument("--qrels", help="judgments (BEIR .tsv or TREC qrels) for DATA's queries")
    p.add_argument("--split", help="split to read, qrels/SPLIT.tsv of a BEIR, OpenVault or "
                   "vault folder (default: test, else the first split judged there; File ▸ "
                   "Split in the window)")
    p.add_argument("--model", "-m", type=model_id,
                   help=f"{MODEL_HELP}; default: the sample's, else bm25")
    p.add_argument("--param", "-p", action="append", metavar="NAME=VALUE",
                   help="start with this parameter value (repeatable)")
    p.add_argument("--params", metavar="FILE.toml", help="start with the parameters of a TOML "
                   "file (e.g. what `tune --out` wrote); checked before the window opens, "
                   "against -m, else the model the file names, else the one the window opens")
    p.set_defaults(func=cmd_gui)

    p = sub.add_parser("screenshot", help="PNGs of the window on each sample corpus: a "
                       "baseline pinned at the sample's settings, then one slider moved (the "
                       "status bar says which), so that deltas and movers show")
    p.add_argument("outdir", help="folder for <sample>.png")
    p.add_argument("--sample", action="append", help="only this sample (repeatable)")
    p.set_defaults(func=cmd_screenshot)


def add_demo_command(sub: Any) -> None:
    """`demo`: registered last, where `workbench --help` lists it."""
    what = "evaluate the bundled sample corpora and explain a query"
    p = sub.add_parser("demo", help=what, description=(
        f"{what[0].upper()}{what[1:]} on each: its metrics at the model's defaults, then one "
        "query's top five with the signals that scored them. Nothing to give: it runs on the "
        "samples shipped with the workbench (the window opens them too: workbench gui)."))
    p.set_defaults(func=cmd_demo)


def cmd_gui(args: argparse.Namespace) -> int:
    """The desktop window (PySide6), on DATA or the default sample corpus."""
    from workbench.gui.app import run

    if (args.queries or args.qrels) and not args.data:
        raise UsageError("--queries and --qrels belong to a DATA; give it too")
    if args.data and not Path(args.data).exists():  # rn 6: the window had opened the
        # default sample with the error in a dialog over it, and nothing said here
        raise UsageError(f"DATA {args.data}: no such file or folder")
    if args.data and Path(args.data).is_file():  # opened as OpenVault memories, failing
        from workbench.core.session_file import saved_session, saved_session_text

        saved = saved_session(Path(args.data))
        if saved is not None:  # the window opens it as File ▸ Open session… does
            given = [flag for flag, value in (
                ("--queries", args.queries), ("--qrels", args.qrels), ("--split", args.split),
                ("--model", args.model), ("--params", args.params),
                ("--param", args.param)) if value]
            if given:
                raise UsageError(f"{args.data}: {saved_session_text(saved)}: it holds its own "
                                 f"dataset, model and values; leave out {', '.join(given)} "
                                 "(change them in the window once it is open)")
            return EXIT_FAIL if _no_display() else run(session=args.data)
    if args.data:  # a .toml or a folder of a .7z: said here, as rank says it (dr4 3)
        from workbench.core.formats.auto import refuse_unreadable

        refuse_unreadable(args.data)
    for flag, value in (("--queries", args.queries), ("--qrels", args.qrels)):
        if value and not Path(value).is_file():
            raise UsageError(f"{flag} {value}: no such file")
    overrides: dict[str, object] = {}
    if args.params and not args.model:  # the model the file was written for, where it says
        from workbench.core.models import model_ids

        named = file_model(args.params)
        if named in model_ids():
            args.model = named
    if args.params and args.model:  # checked here, before a window opens
        from workbench.core.models import get_model

        overrides.update(resolve_file(get_model(args.model).schema, args.params))
    elif args.params:  # checked against the model the window opens (the dialog had blamed
        # the sample: "Could not open …/vault: unknown parameter 'k1'", no file, no line)
        from workbench.core.models import get_model

        model, whose = _window_model(args.data)
        try:
            resolve_file(get_model(model).schema, args.params)
        except ParamError as exc:
            raise UsageError(f"{exc} (the window opens {model}, {whose}; "
                             f"{_models_of(args.params, model)})") from None
        overrides.update(load_params_file(args.params))
    # the queries the file's values were tuned on (its `[tuned]` table, as Configurations ▸
    # Import reads it): the window's figures on them are training scores, never held out
    tuned = read_tuned_on(args.params) if args.params else None
    assigned = parse_assignments(args.param or [])
    overrides.update(assigned)
    if overrides and args.model:  # checked here, before a window opens
        from workbench.core.models import get_model

        try:
            schema = get_model(args.model).schema
            schema.resolve(overrides)
        except KeyError as exc:
            raise UsageError(str(exc.args[0])) from None
        overrides = {schema.name_of(k): v for k, v in overrides.items()}  # -p K1=1: k1
    elif assigned:  # -p without -m: against the model the window opens, as --params
        from workbench.core.models import get_model

        model, whose = _window_model(args.data)
        try:
            schema = get_model(model).schema
            schema.resolve(assigned)
        except (KeyError, ParamError) as exc:
            text = str(exc.args[0]) if isinstance(exc, KeyError) else str(exc)
            raise UsageError(f"-p: {text} (the window opens {model}, {whose}; give -m MODEL "
                             "for another)") from None
        overrides = {schema.name_of(k): v for k, v in overrides.items()}  # -p K1=1: k1
    if _no_display():
        return EXIT_FAIL
    return run(args.data, args.model, overrides or None, args.queries, args.qrels, args.split,
               tuned_on=tuned)


def _no_display() -> bool:
    """Whether Linux has no display for the window and Qt was told of none, said in one line
    before a QApplication is made: Qt aborts there (exit 134) saying "Reinstalling the
    application may fix this problem", which it would not."""
    if not sys.platform.startswith("linux") or any(
            os.environ.get(name) for name in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")):
        return False
    print("workbench gui: error: no display found (DISPLAY and WAYLAND_DISPLAY are not set): "
          "`workbench demo` prints the tour as text, or set QT_QPA_PLATFORM=offscreen",
          file=sys.stderr)
    return True


def _window_model(data: str | None) -> tuple[str, str]:
    """The model the window opens without -m, and whose it is, as `gui.app.run` and
    `MainWindow.open_path` choose it: with no DATA, the last dataset with the model last used
    (a sample folder's own model instead); else the folder's workbench.toml model; else bm25."""
    from workbench.core.data import FormatError
    from workbench.core.session_file import read_sample_settings
    from workbench.gui import settings as st
    from workbench.gui.app import default_dataset

    target = Path(data) if data else None
    if target is None:
        last = st.recall("last_dataset")
        if isinstance(last, str) and Path(last).exists():
            target = Path(last)
            remembered = st.recall("last_model")
            if isinstance(remembered, str) and not (target / "workbench.toml").exists():
                return remembered, f"the model last used, on the last dataset {target}"
    target = target or default_dataset()
    try:
        sample = read_sample_settings(target) if target.is_dir() else {}
    except FormatError:  # said by the window as it opens the folder
        sample = {}
    if sample.get("model"):
        return str(sample["model"]), f"the model {target}'s workbench.toml names"
    return "bm25", f"on {target}, which names no model"


def _models_of(path: str, opened: str) -> str:
    """"the names in it are bm25's: give -m bm25" (each model that has every name the file
    sets, where the model `opened` is not one), else "give -m MODEL for another"."""
    from workbench.core.models import get_model, model_ids

    try:
        names = list(load_params_file(path))
    except ParamError:
        names = []
    fits = [m for m in model_ids() if names and all(n in get_model(m).schema for n in names)]
    if not fits or opened in fits:
        return "give -m MODEL for another"
    owners = ", ".join(m + "'s" for m in fits)
    return (f"the names in it are {owners}: give -m {fits[0]}"
            + (" or another of them" if len(fits) > 1 else ""))


def cmd_screenshot(args: argparse.Namespace) -> int:
    """PNGs of the main window on each sample corpus (offscreen)."""
    from workbench.gui.screenshot import check_outdir, sample_names, take_screenshots

    unknown = [n for n in args.sample or [] if n not in sample_names()]
    if unknown:
        raise UsageError(f"--sample {unknown[0]}: no such sample; valid: "
                         + ", ".join(sample_names()))
    try:
        check_outdir(Path(args.outdir))
        written = take_screenshots(args.outdir, names=args.sample or None)
    except OSError as exc:
        raise UsageError(f"OUTDIR {args.outdir}: {exc.strerror or exc}") from None
    for path in written:
        print(path)
    return EXIT_OK if written else EXIT_FAIL


def cmd_demo(args: argparse.Namespace) -> int:
    """What the README's run command shows until the window exists: each bundled sample
    corpus evaluated, and one query explained."""
    from workbench.demo import run_demo

    return run_demo(SAMPLES)
