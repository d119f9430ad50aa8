"""Reading a git repository through a few batched `git` subprocesses.

Never one process per file: the tree comes from one `ls-tree`, contents from `cat-file --batch`
in chunks (so progress and cancel are honoured between chunks), history from one `log`.

Real clones lack objects: a partial clone (`--filter=blob:none`) holds only the blobs it checked
out, and git fetches any other from its remote on first use, one process per blob, or dies when
the remote cannot be reached. Reading an old snapshot must not do that, so in a partial clone
`ls_tree` asks `rev-list --missing=print` (which never fetches) which blobs are absent, marks
them `missing` and reads sizes only of the others; `read_blobs` leaves out any object
`cat-file` reports "<oid> missing".
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

__all__ = ["GitError", "TreeEntry", "changed_files", "commit_time", "git", "is_partial_clone",
           "ls_tree", "read_blobs", "resolve_commit"]


class GitError(RuntimeError):
    """A git command failed; str() names the repository and git's own message."""


# output formats we parse must not depend on the user's configuration
_CONFIG = ("-c", "core.quotepath=false", "-c", "color.ui=false", "-c", "log.showSignature=false")


def git(repo: Path, *args: str, stdin: bytes | None = None) -> bytes:
    if not Path(repo).is_dir():
        raise GitError(f"{repo}: no such folder" if not Path(repo).exists()
                       else f"{repo}: not a folder (a git repository is one)")
    try:
        done = subprocess.run(["git", *_CONFIG, *args], cwd=repo,
                              input=stdin, capture_output=True, check=False)
    except OSError as exc:  # git missing or not runnable
        raise GitError(f"{repo}: cannot run git: {exc}") from exc
    if done.returncode != 0:
        msg = done.stderr.decode("utf-8", "replace").strip().splitlines()
        if msg and "not a git repository (or any" in msg[-1]:  # git's "fatal: …", plainly
            raise GitError(f"{repo}: not a git repository (no .git here or in a folder above)")
        raise GitError(f"{repo}: git {args[0]}: {msg[-1] if msg else 'failed'}")
    return done.stdout


def resolve_commit(repo: Path, rev: str) -> str:
    """The full hash of the commit `rev` names; GitError naming `rev` when none."""
    try:
        return git(repo, "rev-parse", "--verify", "--quiet",
                   f"{rev}^{{commit}}").decode().strip()
    except GitError:
        if not repo.is_dir():
            raise
        if not (repo / ".git").exists() and not _is_repo(repo):
            raise GitError(f"{repo}: not a git repository") from None
        if not git(repo, "rev-list", "-n", "1", "--all").strip():
            raise GitError(f"{repo}: a git repository with no commits yet") from None
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
    size: int  # 0 when missing
    missing: bool = False  # not in this (partial) clone: its content cannot be read


def ls_tree(repo: Path, commit: str) -> list[TreeEntry]:
    """Every blob of the commit's tree (submodules and symlinks left out); in a partial clone
    the blobs it lacks are marked `missing` (nothing is fetched)."""
    partial = is_partial_clone(repo)
    # `-l` reads every blob's size: in a partial clone that would fetch the missing ones
    out = git(repo, "ls-tree", "-r", "-z", "--full-tree", *(() if partial else ("-l",)), commit)
    rows = []
    for rec in out.split(b"\0"):
        if not rec:
            continue
        meta, _, path = rec.partition(b"\t")
        mode, kind, blob, *size = meta.split()
        if kind != b"blob" or mode == b"120000":
            continue
        rows.append((path.decode("utf-8", "surrogateescape"), blob.decode(),
                     int(size[0]) if size and size[0].isdigit() else -1 if size else 0))
    if not partial:  # a size git cannot read ("BAD": the object is gone) marks it missing
        return [TreeEntry(p, b, max(n, 0), n < 0) for p, b, n in rows]
    missing = _missing_objects(repo, commit)
    sizes = _sizes(repo, [b for _, b, _ in rows if b not in missing])
    return [TreeEntry(p, b, sizes.get(b, 0), b in missing) for p, b, _ in rows]


def is_partial_clone(repo: Path) -> bool:
    """Whether objects may be absent and fetched on demand (`clone --filter`): a promisor
    remote, named by `remote.<name>.promisor` or the older `extensions.partialClone`."""
    try:
        out = git(repo, "config", "--get-regexp",
                  r"^(extensions\.partialclone|remote\..*\.promisor)$")
    except GitError:  # exit 1: none set
        return False
    return any(line.split()[-1:] != [b"false"] for line in out.splitlines())


def shallow_boundary(repo: Path) -> str:
    """"" for a clone with its whole history; else the commits where a shallow clone's history
    is cut (git's `shallow` file), which differ with the depth fetched."""
    try:
        if git(repo, "rev-parse", "--is-shallow-repository").strip() != b"true":
            return ""
        path = git(repo, "rev-parse", "--git-path", "shallow").decode().strip()
    except GitError:
        return ""
    file = Path(path) if Path(path).is_absolute() else repo / path
    try:
        return " ".join(sorted(file.read_text(encoding="ascii", errors="replace").split()))
    except OSError:
        return "shallow"


def history_length(repo: Path, commit: str) -> int:
    """Commits reachable from `commit` (in a shallow clone: those it holds)."""
    return int(git(repo, "rev-list", "--count", commit).decode().strip())


def _missing_objects(repo: Path, commit: str) -> set[str]:
    """Objects of the commit's tree the clone lacks; `--missing=print` never fetches."""
    out = git(repo, "rev-list", "--objects", "--no-walk", "--missing=print", commit)
    return {line[1:].decode() for line in out.splitlines() if line.startswith(b"?")}


def _sizes(repo: Path, blobs: Sequence[str]) -> dict[str, int]:
    """The size of each (present) blob, from one `cat-file --batch-check`."""
    if not blobs:
        return {}
    out = git(repo, "cat-file", "--batch-check", stdin=("\n".join(blobs) + "\n").encode())
    sizes = {}
    for line in out.decode().splitlines():
        oid, kind, *size = line.split()
        if kind == "blob" and size:
            sizes[oid] = int(size[0])
    return sizes


def read_blobs(repo: Path, blobs: Sequence[str], *, chunk: int = 2000,
               tick: Callable[[float], None] | None = None) -> dict[str, bytes]:
    """The contents of `blobs` by id, through `git cat-file --batch` in chunks. A blob the
    repository lacks ("<oid> missing") is left out of the result, as is any other object."""
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
            header = raw[pos:eol].split()  # "<oid> <type> <size>", or "<name> missing"
            pos = eol + 1
            if len(header) < 3:
                continue
            size = int(header[2])
            if header[1] == b"blob":
                out[blob] = raw[pos:pos + size]
            pos += size + 1  # the content is followed by a newline
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
