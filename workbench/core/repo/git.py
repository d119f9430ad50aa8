"""Reading a git repository through a few batched `git` subprocesses.

Never one process per file: the tree comes from one `ls-tree`, contents from `cat-file --batch`
in chunks (so progress and cancel are honoured between chunks), history from one `log`.
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

__all__ = ["GitError", "TreeEntry", "changed_files", "commit_time", "git", "ls_tree",
           "read_blobs", "resolve_commit"]


class GitError(RuntimeError):
    """A git command failed; str() names the repository and git's own message."""


# output formats we parse must not depend on the user's configuration
_CONFIG = ("-c", "core.quotepath=false", "-c", "color.ui=false", "-c", "log.showSignature=false")


def git(repo: Path, *args: str, stdin: bytes | None = None) -> bytes:
    try:
        done = subprocess.run(["git", *_CONFIG, *args], cwd=repo,
                              input=stdin, capture_output=True, check=False)
    except OSError as exc:  # git missing, repo folder missing
        raise GitError(f"{repo}: cannot run git: {exc}") from exc
    if done.returncode != 0:
        msg = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise GitError(f"{repo}: git {args[0]}: {msg[-1] if msg else 'failed'}")
    return done.stdout


def resolve_commit(repo: Path, rev: str) -> str:
    """The full hash of the commit `rev` names; GitError naming `rev` when none."""
    try:
        return git(repo, "rev-parse", "--verify", "--quiet",
                   f"{rev}^{{commit}}").decode().strip()
    except GitError:
        if not (repo / ".git").exists() and not _is_repo(repo):
            raise GitError(f"{repo}: not a git repository") from None
        raise GitError(f"{repo}: unknown revision {rev!r}") from None


def _is_repo(repo: Path) -> bool:
    try:
        git(repo, "rev-parse", "--git-dir")
    except GitError:
        return False
    return True


def commit_time(repo: Path, commit: str) -> int:
    """The committer time of `commit`, seconds since the epoch."""
    return int(git(repo, "show", "-s", "--format=%ct", commit).decode().strip())


@dataclass(frozen=True)
class TreeEntry:
    path: str
    blob: str
    size: int


def ls_tree(repo: Path, commit: str) -> list[TreeEntry]:
    """Every blob of the commit's tree (submodules and symlinks left out)."""
    out = git(repo, "ls-tree", "-r", "-l", "-z", "--full-tree", commit)
    entries = []
    for rec in out.split(b"\0"):
        if not rec:
            continue
        meta, _, path = rec.partition(b"\t")
        mode, kind, blob, size = meta.split()
        if kind != b"blob" or mode == b"120000":
            continue
        entries.append(TreeEntry(path.decode("utf-8", "surrogateescape"), blob.decode(),
                                 int(size)))
    return entries


def read_blobs(repo: Path, blobs: Sequence[str], *, chunk: int = 2000,
               tick: Callable[[float], None] | None = None) -> dict[str, bytes]:
    """The contents of `blobs` by id, through `git cat-file --batch` in chunks."""
    out: dict[str, bytes] = {}
    unique = list(dict.fromkeys(blobs))
    for start in range(0, len(unique), chunk):
        if tick is not None:
            tick(start / max(1, len(unique)))
        part = unique[start:start + chunk]
        raw = git(repo, "cat-file", "--batch", stdin=("\n".join(part) + "\n").encode())
        pos = 0
        for blob in part:
            eol = raw.index(b"\n", pos)
            header = raw[pos:eol].split()
            if len(header) < 3 or header[1] != b"blob":
                pos = eol + 1
                continue
            size = int(header[2])
            out[blob] = raw[eol + 1:eol + 1 + size]
            pos = eol + 1 + size + 1  # the content is followed by a newline
    return out


def changed_files(repo: Path) -> set[str]:
    """Files changed on this branch or not yet committed: the working tree and index against
    HEAD, untracked files, and HEAD against its merge base with main/master (when HEAD is on
    another branch)."""
    changed: set[str] = set()

    def names(*args: str) -> set[str]:
        try:
            raw = git(repo, *args)
        except GitError:
            return set()
        return {p.decode("utf-8", "surrogateescape") for p in raw.split(b"\0") if p}

    changed |= names("diff", "--name-only", "-z", "HEAD")
    changed |= names("ls-files", "--others", "--exclude-standard", "-z")
    head = resolve_commit(repo, "HEAD")
    for base in ("origin/HEAD", "main", "master"):
        try:
            base_commit = resolve_commit(repo, base)
        except GitError:
            continue
        if base_commit and base_commit != head:
            changed |= names("diff", "--name-only", "-z", f"{base}...HEAD")
        if base_commit:
            break
    return changed
