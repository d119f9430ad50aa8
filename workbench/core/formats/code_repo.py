"""A git repository as a dataset: its files (at a snapshot commit) are the corpus, coding tasks
are the queries, and the files each task needed are its judgments.

- `read_code_repo(repo, tasks=…, rev=…)`: the repository is indexed at `rev`, or at the
  snapshot commit the task set names (`tasks-from-git` writes it), so that no file fact comes
  from a commit later than the snapshot. Each document is one file: id = title = the
  repo-relative path, text = its content at the snapshot, metadata = the index's facts
  (`FILE_KEYS`) plus the ledger's weights.
- A folder holding a `git fast-import` stream (`history.fi`, the bundled sample) is built into
  a repository under the cache folder once (same stream → same commits) and read as above,
  with the folder's `tasks.jsonl`.
- `.codeledger/config.json` in the working tree: its `repo.include` / `repo.exclude` globs
  apply unless the caller gives its own (CodeLedger's own config, REFERENCE §2); the numbers
  its `selector` sets are kept in the settings (`repo_selector`), for codeledger to say when
  they are not what it measures.
- Ledger (optional, `.codeledger/ledger.jsonl` in the working tree, or a path): one outcome
  per line, `{"files": [paths], "outcome": "success" | "failure", "at": ISO time or epoch
  seconds, "task": text}`. Per file the entries naming it are counted and weighted by
  0.5^(age/30 days) (REFERENCE §2), age from the index's `now`; entries after `now` are
  ignored (they would leak the future into a time-split evaluation).
"""

from __future__ import annotations

import atexit
import hashlib
import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from workbench.core.data import Corpus, Dataset, Document, FormatError, Query, QuerySet
from workbench.core.engine import NO_PROGRESS, Progress
from workbench.core.formats._common import StrPath, iter_jsonl, json_error, json_problem
from workbench.core.formats.code_tasks import read_tasks, tasks_snapshot
from workbench.core.repo import git as g
from workbench.core.repo.config import SELECTOR_KEY, read_selector
from workbench.core.repo.index import index_repository
from workbench.core.repo.model import FileInfo, RepoIndex
from workbench.core.repo.sample import build_sample_repo
from workbench.core.store import cache_dir

__all__ = ["CONFIG_FILE", "FILE_KEYS", "HISTORY_KEY", "HISTORY_STREAM", "LEDGER_FILE",
           "TASKS_FILE", "is_code_repo", "is_sample_stream_folder", "read_code_repo", "read_ledger",
           "read_repo_globs", "sample_repo"]

TASKS_FILE = "tasks.jsonl"
CONFIG_FILE = ".codeledger/config.json"
LEDGER_FILE = ".codeledger/ledger.jsonl"
HISTORY_STREAM = "history.fi"
LEDGER_HALF_LIFE_DAYS = 30.0
DAY = 86400.0
SKIPPED_KEY = "repo_skipped"
SHALLOW_KEY = "repo_shallow"  # a shallow clone: the commits of history it holds
# tasks that name no snapshot, indexed at HEAD: [how many, the commit]
UNPINNED_KEY = "repo_unpinned"
# the index's past commits ([hash, message, [paths], files it changed], newest first) for
# codeledger's similar-commits signal; absent when the snapshot has none
HISTORY_KEY = "repo_history"
# FileInfo fields copied into each document's metadata (tuples become lists)
FILE_KEYS = ("language", "size", "lines", "tokens", "symbols", "keywords", "imports",
             "dependents", "is_test", "tests", "commits", "days_since_last", "churn", "recency",
             "centrality", "error_infrastructure", "branch_changed", "commit_days",
             "commit_files", "binary_mark")


def is_code_repo(path: Path) -> bool:
    """A git repository that is not a markdown vault kept in git (an Obsidian vault, with its
    `.obsidian/` settings folder, or a vault laid out as the workbench reads one: `notes/`
    beside `qrels/`), which opens as a vault."""
    if not (path.is_dir() and (path / ".git").exists()):
        return False
    vault = (path / ".obsidian").is_dir() or ((path / "notes").is_dir()
                                               and (path / "qrels").is_dir())
    return not vault


def is_sample_stream_folder(path: Path) -> bool:
    return path.is_dir() and (path / HISTORY_STREAM).is_file()


def sample_repo(folder: Path) -> Path:
    """The repository of a folder's fast-import stream, built once under the cache folder
    (a temporary folder renamed into place, so a half-built repository is never used)."""
    stream = folder / HISTORY_STREAM
    digest = hashlib.sha256(stream.read_bytes()).hexdigest()[:16]
    dest = cache_dir() / "sample-repos" / f"{folder.resolve().name}-{digest}"
    if (dest / ".git").is_dir() and _sound(dest):
        return dest
    try:
        dest.parent.mkdir(parents=True, exist_ok=True)
        probe = tempfile.mkdtemp(dir=dest.parent, prefix=".probe-")
        os.rmdir(probe)
    except OSError:  # a read-only or full cache: built for this process alone, then removed
        dest = Path(tempfile.mkdtemp(prefix="workbench-sample-repo-")) / dest.name
        atexit.register(shutil.rmtree, dest.parent, True)
    tmp = dest.with_name(dest.name + f".{id(stream)}.tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    try:
        build_sample_repo(tmp, stream)
    except subprocess.CalledProcessError as exc:  # a full disk, a git that refuses
        said = (exc.stderr or b"").decode("utf-8", "replace").strip().splitlines()
        why = said[-1] if said else f"exit status {exc.returncode}"
        raise FormatError(stream, f"could not build the sample repository under {dest.parent}"
                          f": git {exc.cmd[5] if len(exc.cmd) > 5 else ''}: {why}") from None
    except OSError as exc:
        raise FormatError(stream, f"could not build the sample repository under {dest.parent}"
                          f": {exc.strerror or exc}") from None
    try:
        tmp.rename(dest)
    except OSError:  # another process built it first, or a damaged one is in the way
        if (dest / ".git").is_dir() and _sound(dest):
            shutil.rmtree(tmp, ignore_errors=True)
        else:
            aside = dest.with_name(dest.name + f".{os.getpid()}.damaged")
            dest.rename(aside)
            tmp.rename(dest)
            shutil.rmtree(aside, ignore_errors=True)
    return dest


def _sound(repo: Path) -> bool:
    """Whether a cached sample repository still reads: its head commit is there (a copy with
    its packs gone, or cut short, failed every later run with an error about `rev`)."""
    done = subprocess.run(["git", "-C", str(repo), "rev-list", "-1", "HEAD", "--"],
                          capture_output=True, check=False)
    return done.returncode == 0


def read_code_repo(repo: StrPath, *, tasks: StrPath | None = None, rev: str | None = None,
                   ledger: StrPath | None = None, include: Sequence[str] | None = None,
                   exclude: Sequence[str] | None = None, churn_days: int = 90,
                   name: str | None = None, progress: Progress = NO_PROGRESS) -> Dataset:
    """The repository `repo` as a dataset (see the module docstring).

    `rev` wins over the task set's snapshot; without either the index is of HEAD. Tasks'
    files that the index does not hold (excluded, binary) stay in the judgments, so recall
    counts them as missed rather than quietly forgetting them; a file the snapshot does not
    hold at all is a FormatError (the task set was made for another commit).
    """
    root = Path(repo)
    if not is_code_repo(root):
        raise FormatError(root, "not a git repository (no .git)", field="path")
    task_list = read_tasks(tasks) if tasks is not None else []
    own_include, own_exclude = read_repo_globs(root / CONFIG_FILE)
    include = own_include if include is None else include
    exclude = own_exclude if exclude is None else exclude
    try:
        snapshot = rev or (tasks_snapshot(task_list) if task_list else None) or "HEAD"
    except ValueError as exc:
        raise FormatError(Path(str(tasks)), str(exc), field="snapshot",
                          line=getattr(exc, "line", None) or None) from None
    try:
        index = index_repository(root, rev=snapshot, include=include, exclude=exclude,
                                 churn_days=churn_days, progress=progress.span(0.0, 0.8))
    except g.GitError as exc:
        if rev is None and task_list and "unknown revision" in str(exc):  # the tasks' own
            why = ("a shallow clone, which lacks the older commits: `git fetch --unshallow`"
                   if g.shallow_boundary(root) else "a task set made for another repository, "
                   "or history rewritten since")
            raise FormatError(Path(str(tasks)), f"snapshot {snapshot!r} is not a commit of "
                              f"{root} ({why})", field="snapshot") from None
        # "REPO: a git repository with no commits yet": the path said once; 'rev' only where
        # one was given
        raise FormatError(root, str(exc).removeprefix(f"{root}: "),
                          field="rev" if rev is not None else None) from None
    progress(0.8, "reading file contents")
    tree = {e.path: e.blob for e in g.ls_tree(root, index.commit)}
    # a needed file the snapshot never had: a wrong task set, not a miss; every such task
    # said at once (the first alone made a fix-and-rerun loop)
    stale = [(t, [f for f in t.files if f not in tree]) for t in task_list]
    stale = [(t, absent) for t, absent in stale if absent]
    if stale:
        t, absent = stale[0]
        more = (f"; so do {len(stale) - 1} more task(s), on line(s) "
                + ", ".join(str(u.line) for u, _ in stale[1:8])
                + (" …" if len(stale) > 8 else "") if len(stale) > 1 else "")
        raise FormatError(Path(str(tasks)), f"task {t.id!r} needs {absent[0]!r}, which the "
                          f"snapshot {index.commit[:10]} does not hold{more} (a file renamed "
                          "or added later: give the tasks their snapshot, or mine them again "
                          "with tasks-from-git)", line=t.line or None,
                          field=f"files[{t.files.index(absent[0])}]")
    if not index.files and index.skipped:
        reasons = sorted({why for _, why in index.skipped})
        raise FormatError(root, f"none of the {len(index.skipped):,} files of the snapshot "
                          f"{index.commit[:10]} could be read ({'; '.join(reasons)})",
                          field="path")
    texts = _contents(root, index, tree)
    if len(texts) < len(index.files):  # a cached index whose blobs this clone has lost since
        index = index_repository(root, rev=index.commit, include=include, exclude=exclude,
                                 churn_days=churn_days, use_cache=False)
        texts = _contents(root, index, tree)
    weights = read_ledger(Path(ledger) if ledger else root / LEDGER_FILE, index.now)
    docs = [Document(id=f.path, title=f.path, text=texts.get(f.path, ""),
                     metadata=_metadata(f, weights.get(f.path))) for f in index.files]
    label = name or root.resolve().name
    # the date kept: a time split orders the tasks by it (a shuffled file was split by line)
    queries = QuerySet((Query(t.id, t.task, {"files": list(t.files), "commit": t.commit or "",
                                             "snapshot": index.commit,
                                             **({"date": t.date} if t.date else {})})
                        for t in task_list), name=label)
    qrels = {t.id: dict.fromkeys(t.files, 1) for t in task_list} if task_list else None
    progress(1.0, f"{len(docs)} files, {len(queries)} tasks")
    # files left out of the index (a partial clone's missing blobs, LFS pointers, too large),
    # said by the load warnings
    settings: dict[str, Any] = {}
    if index.skipped:
        settings[SKIPPED_KEY] = [[path, why] for path, why in index.skipped]
    if task_list and rev is None and snapshot == "HEAD":  # said by the load warnings
        settings[UNPINNED_KEY] = [len(task_list), index.commit]
    if g.shallow_boundary(root):  # said by the load warnings: the history signals see less
        settings[SHALLOW_KEY] = g.history_length(root, index.commit)
    selector = read_selector(root / CONFIG_FILE)  # not scored by: codeledger says so
    if selector:
        settings[SELECTOR_KEY] = [list(item) for item in selector]
    if index.history:
        settings[HISTORY_KEY] = [[sha, message, list(paths), n]
                                 for sha, message, paths, n in index.history]
    return Dataset(name=label, corpus=Corpus(docs, name=label), queries=queries, qrels=qrels,
                   source=f"{root.resolve()}@{index.commit}", settings=settings)


def read_repo_globs(path: Path) -> tuple[list[str], list[str]]:
    """`repo.include` and `repo.exclude` of a CodeLedger config; ([], []) without one."""
    if not path.is_file():
        return [], []
    try:
        config = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise json_error(path, exc) from None
    except RecursionError:  # a traceback, as a number past Python's digit limit was
        raise FormatError(path, json_problem(RecursionError()), field="json") from None
    except (UnicodeDecodeError, ValueError) as exc:
        raise FormatError(path, json_problem(exc), field="json") from None
    repo = config.get("repo", {}) if isinstance(config, dict) else None
    if not isinstance(repo, dict):
        raise FormatError(path, "expected an object", field="repo")
    out = []
    for key in ("include", "exclude"):
        globs = repo.get(key, [])
        if not isinstance(globs, list) or not all(isinstance(g, str) for g in globs):
            raise FormatError(path, "expected a list of globs", field=f"repo.{key}")
        out.append(globs)
    return out[0], out[1]


def _contents(root: Path, index: RepoIndex, tree: dict[str, str]) -> dict[str, str]:
    """The indexed files' texts; one whose blob the clone cannot read is left out."""
    wanted = {p: blob for p, blob in tree.items() if p in index}
    blobs = g.read_blobs(root, list(wanted.values()))
    return {p: blobs[b].decode("utf-8", "replace") for p, b in wanted.items() if b in blobs}


def _metadata(f: FileInfo, ledger: dict[str, Any] | None) -> dict[str, Any]:
    meta: dict[str, Any] = {}
    for key in FILE_KEYS:
        value = getattr(f, key)
        meta[key] = list(value) if isinstance(value, tuple) else value
    meta["ledger"] = ledger or {"success": 0.0, "fail": 0.0, "entries": 0}
    return meta


def read_ledger(path: Path, now: int) -> dict[str, dict[str, Any]]:
    """Per file: decayed success and failure weights and the number of entries naming it.
    A missing file is an empty ledger; a malformed line is a FormatError naming it."""
    if not path.is_file():
        return {}
    out: dict[str, dict[str, Any]] = {}
    for n, rec in iter_jsonl(path):
        files = rec.get("files")
        if not isinstance(files, list) or not all(isinstance(x, str) for x in files):
            raise FormatError(path, "expected a list of paths", line=n, field="files")
        outcome = rec.get("outcome")
        if outcome not in ("success", "failure"):
            raise FormatError(path, f"expected 'success' or 'failure', got {outcome!r}",
                              line=n, field="outcome")
        at = _seconds(rec.get("at"), path, n)
        if at > now:
            continue
        age = (now - at) / DAY
        weight = 0.5 ** (age / LEDGER_HALF_LIFE_DAYS)
        kind = "success" if outcome == "success" else "fail"
        for p in dict.fromkeys(files):
            w = out.setdefault(p, {"success": 0.0, "fail": 0.0, "entries": 0,
                                   "success_ages": [], "fail_ages": []})
            w[kind] += weight
            w["entries"] += 1
            w[f"{kind}_ages"].append(age)  # codeledger decays them by its own half-life
    return out


def _seconds(value: object, path: Path, line: int) -> float:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    if isinstance(value, str):
        try:
            t = datetime.fromisoformat(value.replace("Z", "+00:00"))
            return (t if t.tzinfo else t.replace(tzinfo=UTC)).timestamp()
        except ValueError:
            pass
    raise FormatError(path, f"expected an ISO time or epoch seconds, got {value!r}", line=line,
                      field="at")
