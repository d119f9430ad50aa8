"""Files named on the command line as outputs: checked before any work starts, written only
after it succeeded, all of them or none.

`check_output` turns a path the command will write into one line naming the argument and the
reason when it cannot be written (a folder that does not exist, a folder given as the file, a
device, a read-only folder); `-` means standard output. `write_outputs` writes every output
through `store.atomic_write_many`, so a failure leaves no file half-written or left behind.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from workbench.core.store import atomic_write_many, write_target

STDOUT = "-"


class OutputError(ValueError):
    """An output that cannot be written; str() is one line naming the argument."""


def check_output(value: str, arg: str) -> Path | None:
    """The path to write for `arg VALUE`, None for standard output (`-`); OutputError when
    it cannot be written."""
    if value == STDOUT:
        return None
    if not value.strip():
        raise OutputError(f"{arg}: empty file name")
    path = Path(value)
    try:
        target = write_target(path)
    except NotADirectoryError:  # "Not a directory": which of the folders above is a file
        raise OutputError(f"{arg} {value}: {_file_above(path)} is a file, not a folder") from None
    except OSError as exc:
        raise OutputError(f"{arg} {value}: {exc.strerror}") from None
    folder = target.parent
    if not folder.is_dir():
        raise OutputError(f"{arg} {value}: folder {folder} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OutputError(f"{arg} {value}: folder {folder} is not writable")
    try:  # os.access says yes to root on a read-only mount or in /proc: a file is made there
        fd, probe = tempfile.mkstemp(prefix=".wb-probe-", dir=folder)
    except OSError as exc:
        raise OutputError(f"{arg} {value}: cannot write in folder {folder} "
                          f"({exc.strerror or exc})") from None
    os.close(fd)
    os.unlink(probe)
    return path


def _file_above(path: Path) -> Path:
    """The nearest folder above `path` that is a file (`path` itself failing that)."""
    return next((p for p in reversed(path.parents) if p.is_file()), path)


def check_table_output(value: str, arg: str, *, stdout: bool = True) -> Path | None:
    """`check_output` for a table whose format follows the file name: .json or .csv, and `-`
    (CSV on standard output) where `stdout`."""
    path = check_output(value, arg)
    if path is None and stdout:
        return None
    if path is None:  # its table is printed there: a CSV after it would parse as neither
        raise OutputError(f"{arg} -: the table is on standard output already; give a file "
                          "name ending .json or .csv for the values as data")
    if path is None or path.suffix.lower() not in (".json", ".csv"):
        raise OutputError(f"{arg} {value}: give a file name ending .json or .csv"
                          + (" (or - for CSV on standard output)" if stdout else "")
                          + "; the format follows it")
    return path


# the files a dataset folder is read from (formats/auto.py's layouts)
DATA_FILES = ("corpus.jsonl", "queries.jsonl", "memories.json", "contexts.jsonl",
              "decisions.jsonl", "injections.jsonl", "settings.json", "eval.jsonl",
              "workbench.toml", "tasks.jsonl", ".codeledger/tasks.jsonl")


def input_files(args: argparse.Namespace) -> list[tuple[str, Path]]:
    """(argument, file) of every file the command reads: DATA (a file, or the dataset
    files of a folder: its corpus, queries, splits' judgments …), --queries, --qrels,
    --params and each --config."""
    files: list[tuple[str, Path]] = []
    data = getattr(args, "data", None)
    if data:
        folder = Path(data)
        if folder.is_file():
            files.append(("DATA", folder))
        elif folder.is_dir():
            files += [("DATA", folder / n) for n in DATA_FILES if (folder / n).is_file()]
            files += [("DATA", f) for f in (*folder.glob("queries.*.jsonl"),
                                            *folder.glob("qrels/*.tsv"))]
            named = _sample_data(folder)  # a sample's workbench.toml: `data = FILE`
            if named is not None:
                files.append(("DATA", named))
            from workbench.core.formats.vault import has_notes

            if has_notes(folder):  # a vault: its notes are the documents
                files += [("DATA", f) for f in folder.rglob("*.md")]
    for name in ("queries", "qrels", "params"):
        value = getattr(args, name, None)
        if value:
            files.append((f"--{name}", Path(value)))
    files += [("--config", Path(c)) for c in getattr(args, "config", None) or []]
    return files


def _sample_data(folder: Path) -> Path | None:
    try:
        from workbench.demo import sample_settings

        data = sample_settings(folder).get("data")
    except (OSError, ValueError):
        return None
    return folder / str(data) if data else None


def check_outputs_apart(outputs: Sequence[tuple[str, Path | None]],
                        inputs: Sequence[tuple[str, Path]]) -> None:
    """OutputError when an output is a file the command reads (`eval --run` onto the folder's
    own qrels replaced them) or two outputs name one file (the second overwrote the first)."""
    def key(p: Path) -> Path:
        return p.expanduser().resolve()

    read = {key(p): arg for arg, p in inputs if p.is_file()}
    seen: dict[Path, str] = {}
    for arg, path in outputs:
        if path is None:
            continue
        k = key(path)
        if k in read:
            what = "a dataset file" if read[k] == "DATA" else f"the {read[k]} file"
            raise OutputError(f"{arg} {path}: is {what} this command reads; writing there "
                              "would replace it")
        if k in seen:
            raise OutputError(f"{seen[k]} and {arg} name the same file, {path}")
        seen[k] = arg


def write_outputs(items: Sequence[tuple[str, Path | None, str | bytes]]) -> None:
    """Write each (argument, path, content): files together (all or none), then the ones for
    standard output in order."""
    files = [(path, _bytes(content)) for _, path, content in items if path is not None]
    try:
        atomic_write_many(files)
    except OSError as exc:
        arg = next((a for a, p, _ in items if p is not None and str(p) == exc.filename), None)
        where = f"{arg} {exc.filename}" if arg else str(exc.filename or "output")
        raise OutputError(f"{where}: cannot write ({exc.strerror or exc}); "
                          "nothing was written") from None
    for _, path, content in items:
        if path is None:
            sys.stdout.write(content if isinstance(content, str) else content.decode())
            sys.stdout.flush()


def _bytes(content: str | bytes) -> bytes:
    return content.encode("utf-8") if isinstance(content, str) else content
