"""Churn and recency from `git log --numstat`, renames followed, huge commits ignored.

REFERENCE §2: churn = min(1, commits/20 · exp(−days_since_last/30)) over a window of the last
`churn_days` (default 90, 1..3650) days; commits touching more than 50 files are ignored;
recency bands from days since the last touch: ≤ 7 → 1, ≤ 30 → 0.6, ≤ 90 → 0.3, else 0.1, and a
file with no history counts as 90 days old.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path

from workbench.core.repo.git import git

__all__ = ["Commit", "FileHistory", "churn", "file_history", "parse_log", "past_commits",
           "read_log", "recency"]

DAY = 86400.0
# the largest commit the index keeps the ages (and files) of, beside REFERENCE §2's 50 that
# its own counts use: codeledger's `max_commit_files` chooses among them without git
KEEP_COMMIT_FILES = 1000
# (upper bound in days, score), first hit wins
RECENCY_BANDS: tuple[tuple[float, float], ...] = ((7.0, 1.0), (30.0, 0.6), (90.0, 0.3))
RECENCY_ELSE = 0.1
NO_HISTORY_DAYS = 90.0


@dataclass(frozen=True)
class Commit:
    sha: str
    time: int
    # (path before, path after): equal unless the commit renamed the file
    changes: tuple[tuple[str, str], ...]
    message: str = ""  # the whole message, subject and body



def read_log(repo: Path, commit: str) -> list[Commit]:
    """Every commit reachable from `commit`, newest first, with rename detection (-M)."""
    raw = git(repo, "log", "-z", "-M", "--numstat", "--format=%x1e%H%x1f%ct", commit)
    return with_messages(parse_log(raw), read_messages(repo, commit))


# messages are read for this many of the newest commits (4 × the 5,000 `past_commits` keeps, so
# a history whose newest commits are often huge or gone still fills it); older ones keep ""
MESSAGE_COMMITS = 20_000


def read_messages(repo: Path, commit: str, limit: int = MESSAGE_COMMITS) -> dict[str, str]:
    """hash → whole message of the newest `limit` commits reachable from `commit` (a history of
    a million commits would otherwise hold every message in memory). A separate walk: NUL
    separates the entries (git keeps NUL out of messages), so no message can split them."""
    raw = git(repo, "log", "-z", f"--max-count={limit}", "--format=%H%x1f%B", commit)
    out = {}
    for entry in raw.split(b"\0"):
        sha, sep, message = entry.partition(b"\x1f")
        if sep:
            out[sha.decode().strip()] = message.decode("utf-8", "replace").strip()
    return out


def with_messages(log: list[Commit], messages: dict[str, str]) -> list[Commit]:
    return [replace(c, message=messages.get(c.sha, "")) for c in log]


def parse_log(raw: bytes) -> list[Commit]:
    commits = []
    for chunk in raw.split(b"\x1e"):
        if not chunk:
            continue
        header, _, body = chunk.partition(b"\0")
        sha, _, ts = header.partition(b"\x1f")
        tokens = body.lstrip(b"\n").split(b"\0")
        changes: list[tuple[str, str]] = []
        i = 0
        while i < len(tokens):
            tok = tokens[i]
            i += 1
            if not tok:
                continue
            _, _, rest = tok.partition(b"\t")
            _, _, path = rest.partition(b"\t")
            if path:
                p = path.decode("utf-8", "surrogateescape")
                changes.append((p, p))
            elif i + 1 < len(tokens):
                old, new = tokens[i], tokens[i + 1]
                i += 2
                changes.append((old.decode("utf-8", "surrogateescape"),
                                new.decode("utf-8", "surrogateescape")))
        commits.append(Commit(sha.decode(), int(ts), tuple(changes)))
    return commits


@dataclass(frozen=True)
class FileHistory:
    commits: int  # commits in the window that touched the file (under any earlier name)
    days_since_last: float | None  # None: no commit (≤ now, not huge) touched it
    # age in days of every commit (≤ now) of at most `keep_files` files that touched it,
    # newest first, whole history: churn over any other window, or for another largest
    # commit, is recomputed from these without re-reading git …
    commit_days: tuple[float, ...] = ()
    # … and how many files each of those commits changed
    commit_files: tuple[int, ...] = ()


def file_history(log: Iterable[Commit], paths: Iterable[str], *, now: int, churn_days: int = 90,
                 max_commit_files: int = 50, keep_files: int | None = None
                 ) -> dict[str, FileHistory]:
    """Per current path: commits in the window and days since the last touch, commits of
    more than `max_commit_files` files left out; and the age and size of every commit of at
    most `keep_files` (default `max_commit_files`) files that touched it.

    `log` is newest first. Renames are followed backwards: once a commit renamed `a` to `b`,
    older commits touching `a` count for whatever `b` is called now.
    """
    keep = max_commit_files if keep_files is None else max(keep_files, max_commit_files)
    current = set(paths)
    counts = dict.fromkeys(current, 0)
    last: dict[str, int] = {}
    ages: dict[str, list[float]] = {p: [] for p in current}
    sizes: dict[str, list[int]] = {p: [] for p in current}
    alias: dict[str, str] = {}  # path at some older time -> path now
    since = now - churn_days * DAY
    for c in log:
        n = len(c.changes)
        for old, new in c.changes:
            now_path = alias.get(new, new)
            if old != new:
                alias[old] = now_path
            if n > keep or c.time > now or now_path not in current:
                continue
            ages[now_path].append(round((now - c.time) / DAY, 4))
            sizes[now_path].append(n)
            if n > max_commit_files:
                continue
            last.setdefault(now_path, c.time)
            if c.time >= since:
                counts[now_path] += 1
    return {p: FileHistory(counts[p], (now - last[p]) / DAY if p in last else None,
                           tuple(ages[p]), tuple(sizes[p]))
            for p in current}


def past_commits(log: Iterable[Commit], paths: Iterable[str], *, now: int,
                 max_commit_files: int = 50, limit: int = 5000, keep_files: int | None = None
                 ) -> tuple[tuple[str, str, tuple[str, ...], int], ...]:
    """(hash, message, the current paths it changed, how many files it changed) of the
    newest `limit` commits at or before `now` that changed at most `max_commit_files` files,
    one of them still present; with them, those of at most `keep_files` files among them
    (codeledger's `max_commit_files` chooses); newest first, renames followed as in
    `file_history`."""
    keep = max_commit_files if keep_files is None else max(keep_files, max_commit_files)
    current = set(paths)
    alias: dict[str, str] = {}
    out: list[tuple[str, str, tuple[str, ...], int]] = []
    counted = 0  # of at most max_commit_files files: what `limit` counts
    for c in log:
        now_paths = []
        for old, new in c.changes:
            now_path = alias.get(new, new)
            if old != new:
                alias[old] = now_path
            now_paths.append(now_path)
        n = len(c.changes)
        if counted >= limit or c.time > now or n > keep:
            continue
        kept = tuple(sorted({p for p in now_paths if p in current}))
        if kept:
            out.append((c.sha, c.message, kept, n))
            counted += n <= max_commit_files
    return tuple(out)


def churn(commits: int, days_since_last: float | None) -> float:
    days = NO_HISTORY_DAYS if days_since_last is None else days_since_last
    return min(1.0, commits / 20.0 * math.exp(-days / 30.0))


def recency(days_since_last: float | None) -> float:
    days = NO_HISTORY_DAYS if days_since_last is None else days_since_last
    for bound, score in RECENCY_BANDS:
        if days <= bound:
            return score
    return RECENCY_ELSE
