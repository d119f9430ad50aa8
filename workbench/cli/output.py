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
from collections.abc import Mapping, Sequence
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
              "workbench.toml", "tasks.jsonl", ".codeledger/tasks.jsonl",
              # a repository's CodeLedger files, which codeledger reads (untracked as a rule:
              # the repository guard had taken them for an earlier run's output)
              ".codeledger/config.json", ".codeledger/ledger.jsonl")
DATA_FOLDER = "DATA folder"  # a file of the dataset folder that its reading skips
CODELEDGER_FILES = (".codeledger/config.json", ".codeledger/ledger.jsonl", ".codeledgerignore")


def input_files(args: argparse.Namespace) -> list[tuple[str, Path]]:
    """(argument, file) of every file the command reads: DATA (a file, or the dataset
    files of a folder: its corpus, queries, splits' judgments …; a git repository's folder
    itself, whose files `check_outputs_apart` asks git about), --queries, --qrels,
    --params and each --config. A vault, a folder of Pyserini shards or of TREC <DOC> files
    lists the files read, and its other Markdown as DATA_FOLDER (`_collection_files`)."""
    files: list[tuple[str, Path]] = []
    data = getattr(args, "data", None)
    if data:
        folder = Path(data)
        if folder.is_file():
            files.append(("DATA", folder))
        elif folder.is_dir():
            if is_git_folder(folder):
                files.append(("DATA", folder))
            files += [("DATA", folder / n) for n in DATA_FILES if (folder / n).is_file()]
            files += [("DATA", f) for f in (*folder.glob("queries.*.jsonl"),
                                            *folder.glob("qrels/*.tsv"))]
            named = _sample_data(folder)  # a sample's workbench.toml: `data = FILE`
            if named is not None:
                files.append(("DATA", named))
            files += _collection_files(folder)
    for name in ("queries", "qrels", "params"):
        value = getattr(args, name, None)
        if value:
            files.append((f"--{name}", Path(value)))
    files += [("--config", Path(c)) for c in getattr(args, "config", None) or []]
    return files


def _collection_files(folder: Path) -> list[tuple[str, Path]]:
    """(argument, file) of the files of a folder read as a collection, as `load_dataset`
    reads it (`folder_reading`): a vault's notes (kept in git or not; a code repository's
    Markdown is no note: a report written there had been refused as "a dataset file"),
    Pyserini's shards (.json, .jsonl) or a TREC <DOC> folder's files (an `eval DATA --run
    DATA/docs00.json` had replaced a shard). The Markdown of a folder not read as a vault (a
    README.md beside Pyserini's shards, skipped when they are read) is listed as DATA_FOLDER:
    a file of the dataset, not one the command reads."""
    from workbench.core.formats.auto import PYSERINI, TREC, VAULT, folder_reading
    from workbench.core.formats.code_repo import is_code_repo
    from workbench.core.formats.plain import documents_folder_files
    from workbench.core.formats.trec_docs import trec_files
    from workbench.core.formats.vault import has_notes

    reading = folder_reading(folder)
    read = (list(folder.rglob("*.md")) if reading == VAULT
            else documents_folder_files(folder) if reading == PYSERINI
            else trec_files(folder) if reading == TREC else [])
    listed = set(read)
    kept = [] if reading == VAULT or is_code_repo(folder) or not has_notes(folder) else [
        f for f in folder.rglob("*.md") if f not in listed]
    return [("DATA", f) for f in read] + [(DATA_FOLDER, f) for f in kept]


def _sample_data(folder: Path) -> Path | None:
    try:
        from workbench.demo import sample_settings

        data = sample_settings(folder).get("data")
    except (OSError, ValueError):
        return None
    return folder / str(data) if data else None


def check_outputs_apart(outputs: Sequence[tuple[str, Path | None]],
                        inputs: Sequence[tuple[str, Path]],
                        own: Mapping[str, Sequence[str]] | None = None,
                        rewritten: Sequence[Path] = ()) -> None:
    """OutputError when an output is a file the command reads (`eval --run` onto the folder's
    own qrels replaced them), two outputs name one file (the second overwrote the first), or
    an output is an existing file in a git repository the command reads (an input that is a
    repository's folder): one git tracks (`tasks-from-git -o REPO/README.md` replaced the
    README), or an untracked one whose ending is not among `own[argument]`, the endings that
    argument writes (an untracked file replaced is lost for good; a new file there is
    allowed, and so is the command's own output of an earlier run)."""
    def key(p: Path) -> Path:
        return p.expanduser().resolve()

    read = {key(p): arg for arg, p in inputs if p.is_file()}
    repos = [p for _, p in inputs if p.is_dir() and is_git_folder(p)]
    seen: dict[Path, str] = {}
    for arg, path in outputs:
        if path is None:
            continue
        k = key(path)
        if k in read:
            what = ("a dataset file this command reads" if read[k] == "DATA"
                    else "a file of the dataset folder (not read, but part of it)"
                    if read[k] == DATA_FOLDER else f"the {read[k]} file this command reads")
            raise OutputError(f"{arg} {path}: is {what}; writing there would replace it")
        for repo in repos:
            _check_repo_output(arg, path, repo, (own or {}).get(arg, ()), rewritten)
        if k in seen:
            raise OutputError(f"{seen[k]} and {arg} name the same file, {path}")
        seen[k] = arg


def is_git_folder(folder: Path) -> bool:
    """The top folder of a git work tree (its `.git`: a folder, or a worktree's file)."""
    return (folder / ".git").exists()


def _check_repo_output(arg: str, path: Path, repo: Path, endings: Sequence[str],
                       rewritten: Sequence[Path] = ()) -> None:
    """OutputError when `path` is an existing file inside `repo`'s work tree: one of
    CodeLedger's own; one whose ending is not among `endings`, the kinds the argument writes
    (README.md, app.py: a person's file); or one git tracks (client/package.json beside
    --per-query's .json), except a file the command makes again by design, `rewritten` (a
    committed .codeledger/tasks.jsonl, tune's --params file continued), where git holds
    every change of it: written, and a warning says git keeps the old one. An untracked file
    of the argument's kind is written again only where it is an earlier run's output
    (`written_by_us`). The files the command reads are refused before this."""
    target = path.expanduser().resolve()  # a symlink's target: where the write lands
    top = repo.expanduser().resolve()
    if not target.is_file() or not target.is_relative_to(top):
        return  # a new file (tasks.jsonl beside the code), or one outside the repository
    where = f"{arg} {path}: is a file in the git repository {repo}, which this command reads"
    instead = "give a path outside the repository, or a new file name"
    relative = target.relative_to(top).as_posix()
    if relative in CODELEDGER_FILES:  # never an output of ours
        raise OutputError(f"{arg} {path}: is CodeLedger's own {relative} in the git "
                          f"repository {repo}; writing there would replace it: {instead}")
    tracked = _tracked(top, relative)
    if tracked is None:
        raise OutputError(f"{where}, and git cannot say whether it tracks it; writing there "
                          f"could replace it for good: {instead}")
    again = any(target == p.expanduser().resolve() for p in rewritten)
    why = ([f"not a {' or '.join(endings)} file as {arg} writes"]
           if endings and target.suffix.lower() not in endings else [])
    if not why and not tracked and not again and not written_by_us(target):
        # .vscode/settings.json beside --per-query's .json: a person's file, not a run's
        why.append(f"not one this workbench wrote ({arg} replaces only its own output there)")
    if tracked and not again:
        why.append("tracked by git")
    elif not tracked and why:
        why.append("not tracked by git, so writing there would replace it for good")
    if why:
        raise OutputError(f"{where} ({'; '.join(why)}): {instead}")
    if tracked and _changed(top, relative):  # git holds no copy of the edits
        raise OutputError(f"{where} (tracked by git, with changes git does not hold: the run "
                          "would replace them for good): commit or stash them first, or "
                          f"{instead}")
    if tracked:
        from workbench.textout import warn_above_progress

        warn_above_progress(f"{arg} {path} is tracked by git: a run that finishes replaces "
                            "it, and `git diff` shows what changed (`git checkout -- FILE` "
                            "brings the committed one back)")


def written_by_us(path: Path) -> bool:
    """Whether the file looks like one of this workbench's outputs, by its ending and first
    lines: a tasks JSONL, a per-query or sweep CSV/JSON, a TREC run, a tune TOML, a report
    (what a run in a repository may write again; anything else there is a person's)."""
    try:
        with path.open("r", encoding="utf-8", errors="replace") as fh:
            head = fh.read(4096)
    except OSError:
        return False
    suffix = path.suffix.lower()
    first = next((line.strip() for line in head.splitlines() if line.strip()), "")
    if suffix == ".jsonl":
        return first.startswith("{") and all(f'"{k}"' in first for k in ("id", "task", "files"))
    if suffix == ".csv":
        cells = first.split(",")
        return cells[0] == "query_id" or cells[-1] == "best"
    if suffix == ".json":
        return '"query_id"' in head or ('"parameter"' in head and '"best_by"' in head)
    if suffix in (".trec", ".run"):
        fields = first.split()
        return len(fields) == 6 and fields[1] == "Q0"
    if suffix == ".toml":
        return first.startswith("# workbench tune")
    if suffix in (".html", ".htm"):
        return "<title>Ranking comparison" in head
    if suffix in (".md", ".markdown"):
        return first == "# Ranking comparison"
    return False


def _changed(top: Path, relative: str) -> bool:
    """Whether the work tree's copy of a tracked file differs from git's (index) copy."""
    from workbench.core.repo.git import GitError, git

    try:
        git(top, "--literal-pathspecs", "diff", "--quiet", "--", relative)
    except GitError:  # exit 1: it differs (or git could not say: held as changed)
        return True
    return False


def _tracked(top: Path, relative: str) -> bool | None:
    """Whether git tracks the file `relative` (a path inside the work tree `top`, taken
    literally: no glob); None when git cannot be asked."""
    from workbench.core.repo.git import GitError, git

    try:
        listed = git(top, "--literal-pathspecs", "ls-files", "-z", "--", relative)
    except GitError:
        return None
    return bool(listed.strip(b"\0"))


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
