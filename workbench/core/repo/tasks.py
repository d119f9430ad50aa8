"""Tasks with ground truth from git history, without leakage.

REFERENCE §2: a commit (message → files it changed) is a labelled context-selection task. The
repository is indexed at a `snapshot` commit, and only commits after it (`snapshot..until`,
oldest first) become tasks, so nothing a task asks about is in the index it is scored on.

Per commit: merges are skipped (their changes are the side branch's commits, which are tasks of
their own). The task's files are what the commit changed, named as they were AT THE SNAPSHOT,
because that is what the index lists: a file added after the snapshot cannot be predicted and is
dropped; a renamed file counts under its snapshot name (renames are followed across commits, so a
later edit of `b.py`, once `a.py`, counts as `a.py`); a deleted file that existed at the
snapshot counts. Only code files count (a language `lang.language_of` knows, which includes
Markdown, JSON and YAML); `include_tests=False` drops test files too. Commits left with fewer
than `min_files` or more than `max_files` files are skipped and counted by reason.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from workbench.core.engine import NO_PROGRESS, Progress
from workbench.core.formats.code_tasks import CodeTask
from workbench.core.repo.git import GitError, git, ls_tree, resolve_commit
from workbench.core.repo.lang import language_of
from workbench.core.repo.pairing import is_test_path

__all__ = ["DROPPED", "SKIPPED", "MinedTasks", "commit_of", "mine_tasks", "pick_snapshot",
           "tasks_from_git"]

ID_CHARS = 10  # task id = "c" + the first 10 characters of the commit hash

# why a commit gave no task
SKIPPED = {
    "merge": "merge commits",
    "too_few_files": "changed fewer than min-files code files that existed at the snapshot",
    "too_many_files": "changed more than max-files code files",
}
# why a changed file is not among a task's files
DROPPED = {
    "added": "added after the snapshot (not in its index)",
    "not_code": "not a code file",
    "test": "test files (tests left out)",
}


@dataclass(frozen=True)
class MinedTasks:
    tasks: tuple[CodeTask, ...]
    snapshot: str  # full hash
    until: str  # full hash
    commits: int  # commits in snapshot..until, merges included
    skipped: Mapping[str, int] = field(default_factory=dict)  # commits by SKIPPED reason
    dropped: Mapping[str, int] = field(default_factory=dict)  # files of tasks, by DROPPED reason


def commit_of(repo: Path, rev: str) -> str:
    """The full hash of `rev`; GitError naming the repository when it is not a repository or
    `rev` names no commit."""
    git(repo, "rev-parse", "--git-dir")  # git's own "not a git repository" message
    try:
        sha = resolve_commit(repo, rev)
    except GitError:
        sha = ""
    if not sha:
        raise GitError(f"{repo}: unknown revision {rev!r}")
    return sha


def tasks_from_git(repo: str | Path, *, snapshot: str, until: str = "HEAD", max_files: int = 20,
                   min_files: int = 1, include_tests: bool = True, with_body: bool = False,
                   progress: Progress = NO_PROGRESS) -> list[CodeTask]:
    """The tasks of `mine_tasks` (which also says what was skipped and why)."""
    return list(mine_tasks(repo, snapshot=snapshot, until=until, max_files=max_files,
                           min_files=min_files, include_tests=include_tests,
                           with_body=with_body, progress=progress).tasks)


def mine_tasks(repo: str | Path, *, snapshot: str, until: str = "HEAD", max_files: int = 20,
               min_files: int = 1, include_tests: bool = True, with_body: bool = False,
               progress: Progress = NO_PROGRESS) -> MinedTasks:
    """Every non-merge commit in `snapshot..until`, oldest first, as a task (module docstring).

    Task text: the commit subject, or with `with_body` the whole message. Raises GitError (not
    a repository, unknown revision, `snapshot` not an ancestor of `until`), ValueError for
    min/max files out of range, `Cancelled` when `progress` says stop.
    """
    if min_files < 1 or max_files < min_files:
        raise ValueError(f"need 1 <= min_files <= max_files, got {min_files} and {max_files}")
    repo = Path(repo)
    snap, end = commit_of(repo, snapshot), commit_of(repo, until)
    try:
        git(repo, "merge-base", "--is-ancestor", snap, end)
    except GitError:
        raise GitError(f"{repo}: snapshot {snapshot!r} ({snap[:10]}) is not an ancestor of "
                       f"{until!r} ({end[:10]})") from None
    progress(0.0, "listing the snapshot's files")
    at_snapshot = {e.path for e in ls_tree(repo, snap)}
    span = f"{snap}..{end}"
    meta = git(repo, "log", "-z", "--date-order", "--reverse",
               "--format=%H%x1f%P%x1f%an%x1f%aI%x1f%s%x1f%b", span)
    progress(0.3, "reading changes")
    changes = _changes(git(repo, "log", "-z", "-M", "--name-status", "--date-order",
                           "--reverse", "--format=%x1e%H", span))
    records = [r.decode("utf-8", "replace").split("\x1f", 5) for r in meta.split(b"\0") if r]

    origin: dict[str, str | None] = {}  # path after some commit -> its name at the snapshot

    def snapshot_name(path: str) -> str | None:
        return origin.get(path, path if path in at_snapshot else None)

    tasks: list[CodeTask] = []
    ids: set[str] = set()
    skipped: Counter[str] = Counter()
    dropped: Counter[str] = Counter()
    for n, (sha, parents, author, date, subject, body) in enumerate(records):
        if n % 200 == 0:
            progress(0.4 + 0.6 * n / len(records), "following renames")
        if len(parents.split()) > 1:
            skipped["merge"] += 1
            continue
        files: dict[str, None] = {}
        lost: Counter[str] = Counter()
        for status, old, new in changes.get(sha, ()):
            name = None if status in "AC" else snapshot_name(old)
            if status in "RC":
                origin[new] = name
            if status in "RD":
                origin[old] = None
            elif status == "A":
                origin[new] = None
            if name is None:
                lost["added"] += 1
            elif language_of(name) == "other":
                lost["not_code"] += 1
            elif not include_tests and is_test_path(name):
                lost["test"] += 1
            else:
                files[name] = None
        if len(files) < min_files:
            skipped["too_few_files"] += 1
            continue
        if len(files) > max_files:
            skipped["too_many_files"] += 1
            continue
        dropped.update(lost)
        task_id = next(i for i in ("c" + sha[:k] for k in range(ID_CHARS, 41)) if i not in ids)
        ids.add(task_id)
        text = subject.strip()
        if with_body and body.strip():
            text = f"{text}\n\n{body.strip()}"
        tasks.append(CodeTask(id=task_id, task=text, files=tuple(files), commit=sha,
                              snapshot=snap, author=author, date=date))
    progress(1.0, f"{len(tasks)} tasks")
    return MinedTasks(tuple(tasks), snap, end, len(records), dict(skipped), dict(dropped))


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
