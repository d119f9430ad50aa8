"""Tasks with ground truth from git history, without leakage.

REFERENCE §2: a commit (message → files it changed) is a labelled context-selection task. The
repository is indexed at a `snapshot` commit, and only commits after it (`snapshot..until`,
oldest first) become tasks, so nothing a task asks about is in the index it is scored on.

Per commit: merges are skipped (their changes are the side branch's commits, which are tasks of
their own), and so are commits `commit_rules` says ask for nothing (bots, releases, dependency
bumps, one-word messages). The task's text is the whole message without trailers, or with
`subject_only` its subject. The task's files are what the commit changed, named as they were AT
THE SNAPSHOT, because that is what the index lists: a file added after the snapshot cannot be
predicted and is dropped; a renamed file counts under its snapshot name (renames are followed
across commits, so a later edit of `b.py`, once `a.py`, counts as `a.py`); a deleted file that
existed at the snapshot counts. Only source files count (tests included, `file_kinds`) unless
`include` names more kinds (docs, config, lock, changelog, other); `include_tests=False` drops
test files too. Commits left with fewer than `min_files` or more than `max_files` files are
skipped; every skipped commit and dropped file is counted by reason.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from workbench.core.engine import NO_PROGRESS, Progress
from workbench.core.formats.code_tasks import CodeTask
from workbench.core.repo.commit_rules import SKIP_REASONS, skip_reason, task_text
from workbench.core.repo.file_kinds import FILE_KINDS, OPTIONAL_KINDS, SOURCE, file_kind
from workbench.core.repo.git import (
    GitError,
    git,
    is_partial_clone,
    ls_tree,
    read_blobs,
    resolve_commit,
)
from workbench.core.repo.pairing import looks_like_test

__all__ = ["DROPPED", "SKIPPED", "MinedTasks", "commit_of", "mine_tasks", "pick_snapshot",
           "tasks_from_git"]

ID_CHARS = 10  # task id = "c" + the first 10 characters of the commit hash

# why a commit gave no task
SKIPPED = {
    "merge": "merge commits",
    **SKIP_REASONS,
    "too_few_files": "changed fewer than min-files kept files that existed at the snapshot "
                     "(only docs, config, new files, …)",
    "too_many_files": "changed more than max-files kept files",
}
# why a changed file is not among a task's files: added later, a kind not kept, a test
DROPPED = {
    "added": "added after the snapshot (not in its index)",
    **{kind: f"{kind} ({FILE_KINDS[kind]})" for kind in OPTIONAL_KINDS},
    "test": "test files (tests left out)",
    "not_utf8": "files whose name is not UTF-8 (the index leaves them out too)",
    "not_indexed": "binary or over 10 MB at the snapshot (the index leaves them out too)",
    "submodule": "submodules (another repository's commit, no file to rank)",
}


@dataclass(frozen=True)
class MinedTasks:
    tasks: tuple[CodeTask, ...]
    snapshot: str  # full hash
    until: str  # full hash
    commits: int  # commits in snapshot..until, merges included
    skipped: Mapping[str, int] = field(default_factory=dict)  # commits by SKIPPED reason
    # changed files left out, by DROPPED reason, of the commits not skipped as merges or by
    # `commit_rules` (a commit left with too few files is skipped: its files say why)
    dropped: Mapping[str, int] = field(default_factory=dict)
    include: tuple[str, ...] = ()  # file kinds kept besides source
    subject_only: bool = False  # task text: the subject, not the whole message
    notes: tuple[str, ...] = ()  # what the user should know about how the tasks were read
    # each skipped commit, oldest first: (full hash, SKIPPED reason, subject)
    skipped_commits: tuple[tuple[str, str, str], ...] = ()


def commit_of(repo: Path, rev: str) -> str:
    """The full hash of `rev`; GitError naming the repository when it is not a repository or
    `rev` names no commit."""
    git(repo, "rev-parse", "--git-dir")  # git's own "not a git repository" message
    sha = resolve_commit(repo, rev)  # names the revision, or a repository with no commits
    if not sha:
        raise GitError(f"{repo}: unknown revision {rev!r}")
    return sha


def tasks_from_git(repo: str | Path, *, snapshot: str, until: str = "HEAD", max_files: int = 20,
                   min_files: int = 1, include_tests: bool = True, include: Iterable[str] = (),
                   subject_only: bool = False,
                   progress: Progress = NO_PROGRESS) -> list[CodeTask]:
    """The tasks of `mine_tasks` (which also says what was skipped and why)."""
    return list(mine_tasks(repo, snapshot=snapshot, until=until, max_files=max_files,
                           min_files=min_files, include_tests=include_tests, include=include,
                           subject_only=subject_only, progress=progress).tasks)


def mine_tasks(repo: str | Path, *, snapshot: str, until: str = "HEAD", max_files: int = 20,
               min_files: int = 1, include_tests: bool = True, include: Iterable[str] = (),
               subject_only: bool = False, progress: Progress = NO_PROGRESS) -> MinedTasks:
    """Every commit in `snapshot..until` that the rules keep, oldest first, as a task (module
    docstring). `include`: file kinds kept besides source (keys of `file_kinds.FILE_KINDS`).

    Raises GitError (not a repository, unknown revision, `snapshot` not an ancestor of
    `until`), ValueError for min/max files out of range or an unknown kind, `Cancelled` when
    `progress` says stop.
    """
    if min_files < 1 or max_files < min_files:
        raise ValueError(f"need 1 <= min_files <= max_files, got {min_files} and {max_files}")
    kinds = _kinds(include)
    repo = Path(repo)
    snap, end = commit_of(repo, snapshot), commit_of(repo, until)
    try:
        git(repo, "merge-base", "--is-ancestor", snap, end)
    except GitError:
        raise GitError(f"{repo}: snapshot {snapshot!r} ({snap[:10]}) is not an ancestor of "
                       f"{until!r} ({end[:10]})") from None
    progress(0.0, "listing the snapshot's files")
    tree = ls_tree(repo, snap)
    names = _SnapshotNames({e.path for e in tree})
    submodules = _submodules(repo, snap)
    span = f"{snap}..{end}"
    meta = git(repo, "log", "-z", "--date-order", "--reverse",
               "--format=%H%x1f%P%x1f%an%x1f%ae%x1f%aI%x1f%s%x1f%b", span)
    progress(0.3, "reading changes")
    changes, notes = _read_changes(repo, span)
    records = [r.decode("utf-8", "replace").split("\x1f", 6) for r in meta.split(b"\0") if r]
    tasks: list[CodeTask] = []
    ids: set[str] = set()
    skipped: Counter[str] = Counter()
    dropped: Counter[str] = Counter()
    skips: list[tuple[str, str, str]] = []
    for n, (sha, parents, author, email, date, subject, body) in enumerate(records):
        if n % 200 == 0:
            progress(0.4 + 0.6 * n / len(records), "following renames")
        files: dict[str, None] = {}
        lost: Counter[str] = Counter()
        changed = changes.get(sha, ())
        # renames are followed, even in skips
        for (_, old, _), name in zip(changed, names.follow(changed), strict=True):
            why = ("submodule" if name is None and old in submodules
                   else _drop_reason(name, kinds, include_tests))
            if why:
                lost[why] += 1
            else:
                files[str(name)] = None
        text = task_text(subject, body, subject_only=subject_only)
        why = ("merge" if len(parents.split()) > 1
               else skip_reason(author=f"{author} <{email}>", subject=subject, text=text))
        if not why:  # a commit the rules keep: say which files it lost, task or not
            dropped.update(lost)
            if not min_files <= len(files) <= max_files:
                why = "too_few_files" if len(files) < min_files else "too_many_files"
        if why:
            skipped[why] += 1
            skips.append((sha, why, subject))
            continue
        task_id = next(i for i in ("c" + sha[:k] for k in range(ID_CHARS, 41)) if i not in ids)
        ids.add(task_id)
        tasks.append(CodeTask(id=task_id, task=text, files=tuple(files), commit=sha,
                              snapshot=snap, author=author, date=date))
    tasks = _indexed_files_only(repo, tree, tasks, min_files, skipped, dropped, skips)
    progress(1.0, f"{len(tasks)} tasks")
    order = {sha: i for i, (sha, *_) in enumerate(records)}
    return MinedTasks(tuple(tasks), snap, end, len(records), dict(skipped), dict(dropped),
                      tuple(k for k in OPTIONAL_KINDS if k in kinds), subject_only, notes,
                      tuple(sorted(skips, key=lambda s: order[s[0]])))


def _submodules(repo: Path, snap: str) -> frozenset[str]:
    """The paths of the snapshot's submodules (gitlinks): `ls_tree` leaves them out, so a
    change to one was counted as a file added after the snapshot."""
    out = git(repo, "ls-tree", "-r", "-z", "--full-tree", snap)
    return frozenset(rec.partition(b"\t")[2].decode("utf-8", "surrogateescape")
                     for rec in out.split(b"\0") if rec.startswith(b"160000 "))


def _indexed_files_only(repo: Path, tree: Iterable[Any], tasks: list[CodeTask],
                        min_files: int, skipped: Counter[str], dropped: Counter[str],
                        skips: list[tuple[str, str, str]]) -> list[CodeTask]:
    """The tasks without the files the index leaves out (a binary, over 10 MB, an LFS
    pointer: `index.unindexed`), read at the snapshot in one batch: a task needing one was
    scored against a document no corpus holds ("relevant judgments name documents not in the
    corpus", recall capped). A task left with fewer than `min_files` is skipped, counted."""
    from workbench.core.repo.index import MAX_FILE_BYTES, unindexed

    wanted = {f for t in tasks for f in t.files}
    entries = [e for e in tree if e.path in wanted and not e.missing]
    big = {e.path for e in entries if e.size > MAX_FILE_BYTES}
    blobs = read_blobs(repo, [e.blob for e in entries if e.path not in big])
    out = {e.path for e in entries if e.path in big
           or (e.blob in blobs and unindexed(blobs[e.blob]) is not None)}
    if not out:
        return tasks
    kept: list[CodeTask] = []
    for t in tasks:
        files = tuple(f for f in t.files if f not in out)
        if len(files) < len(t.files):
            dropped["not_indexed"] += len(t.files) - len(files)
        if len(files) < min_files:
            skipped["too_few_files"] += 1
            skips.append((str(t.commit), "too_few_files", t.task.partition("\n")[0]))
            continue
        kept.append(t if len(files) == len(t.files) else replace(t, files=files))
    return kept


def _kinds(include: Iterable[str]) -> frozenset[str]:
    kinds = frozenset(include) | {SOURCE}
    unknown = sorted(kinds - set(FILE_KINDS))
    if unknown:
        raise ValueError(f"unknown file kind {unknown[0]!r}: expected one of "
                         f"{', '.join(OPTIONAL_KINDS)}")
    return kinds


def _drop_reason(name: str | None, kinds: frozenset[str], include_tests: bool) -> str | None:
    """Why a changed file (by its snapshot name; None: added since) is not a task's file."""
    if name is None:
        return "added"
    if not name.isascii():
        try:
            name.encode("utf-8")
        except UnicodeEncodeError:  # git's bytes of an old Latin-1 name, held as surrogates
            return "not_utf8"
    kind = file_kind(name)
    if kind not in kinds:
        return kind
    if not include_tests and looks_like_test(name):
        return "test"
    return None


class _SnapshotNames:
    """Follows each path back to its name at the snapshot, commit by commit."""

    def __init__(self, at_snapshot: set[str]) -> None:
        self.at_snapshot = at_snapshot
        self.origin: dict[str, str | None] = {}  # path after some commit -> snapshot name

    def name(self, path: str) -> str | None:
        return self.origin.get(path, path if path in self.at_snapshot else None)

    def follow(self, changes: Iterable[tuple[str, str, str]]) -> list[str | None]:
        """The snapshot name of each path a commit changed (None: added since the snapshot),
        recording the commit's renames, copies, deletes and adds for the commits after it."""
        out = []
        for status, old, new in changes:
            name = None if status in "AC" else self.name(old)
            if status in "RC":
                self.origin[new] = name
            if status in "RD":
                self.origin[old] = None
            elif status == "A":
                self.origin[new] = None
            out.append(name)
        return out


def _read_changes(repo: Path, span: str) -> tuple[dict[str, list[tuple[str, str, str]]],
                                                  tuple[str, ...]]:
    """`_changes` of the span, and notes. Rename detection (-M) reads the blobs of added and
    deleted files: a partial clone whose remote cannot be reached fails there, so it falls
    back to exact renames (-M100%, by blob id, no content read)."""
    args = ("--name-status", "--date-order", "--reverse", "--format=%x1e%H", span)
    try:
        return _changes(git(repo, "log", "-z", "-M", *args)), ()
    except GitError as exc:
        partial = is_partial_clone(repo)
        if not partial and "unable to read" not in str(exc):
            raise
        why = str(exc).rsplit(": ", 1)[-1]
    what = ("a partial clone that could not fetch the blobs" if partial
            else "a damaged clone that lacks some of the blobs")
    return _changes(git(repo, "log", "-z", "-M100%", *args)), (
        f"{what} rename detection reads ({why}): only renames without edits were followed",)


def _changes(raw: bytes) -> dict[str, list[tuple[str, str, str]]]:
    """commit → [(status letter, path before, path after)] from `log -z --name-status`."""
    out: dict[str, list[tuple[str, str, str]]] = {}
    for chunk in raw.split(b"\x1e"):
        if not chunk:
            continue
        head, _, body = chunk.partition(b"\0")
        tokens = [t.decode("utf-8", "surrogateescape") for t in body.lstrip(b"\n").split(b"\0")]
        rows: list[tuple[str, str, str]] = []
        i = 0
        while i < len(tokens):
            status = tokens[i][:1]
            i += 1
            if not status:
                continue
            if status in "RC":
                rows.append((status, tokens[i], tokens[i + 1]))
                i += 2
            else:
                rows.append((status, tokens[i], tokens[i]))
                i += 1
        out[head.decode().strip()] = rows
    return out


def pick_snapshot(repo: str | Path, *, until: str = "HEAD", tasks_fraction: float = 0.3) -> str:
    """A time split: the commit on `until`'s first-parent line after which about
    `tasks_fraction` of the non-merge history up to `until` remains (at least one commit).

    Among first-parent commits, the one whose count of later non-merge commits is nearest
    round(fraction · total) wins, the older one on a tie. Raises GitError as `mine_tasks`,
    ValueError for a fraction outside (0, 1) or a history too short to split.
    """
    if not 0.0 < tasks_fraction < 1.0:
        raise ValueError(f"tasks fraction must be between 0 and 1, got {tasks_fraction}")
    repo = Path(repo)
    end = commit_of(repo, until)
    parents: dict[str, list[str]] = {}
    for line in git(repo, "rev-list", "--parents", end).decode().splitlines():
        sha, *ps = line.split()
        parents[sha] = ps
    total = sum(len(ps) <= 1 for ps in parents.values())
    if total < 2:
        raise ValueError(f"{repo}: {total} non-merge commit(s) up to {until!r}: too few to split")
    want = min(total - 1, max(1, int(total * tasks_fraction + 0.5)))
    chain = [end]
    while parents[chain[-1]]:
        chain.append(parents[chain[-1]][0])
    chain.reverse()  # oldest first
    seen: set[str] = set()
    below = 0  # non-merge commits reachable from the candidate, itself included
    best: tuple[int, str] | None = None
    for candidate in chain[:-1]:
        stack = [candidate]
        while stack:
            c = stack.pop()
            if c in seen:
                continue
            seen.add(c)
            below += len(parents[c]) <= 1
            stack.extend(parents[c])
        gap = abs(total - below - want)
        if best is None or gap < best[0]:
            best = (gap, candidate)
    if best is None:
        raise ValueError(f"{repo}: no commit before {until!r} on its first-parent line")
    return best[1]
