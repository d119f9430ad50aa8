"""Index a local git repository at a commit: the prepare stage of CodeLedger-style selection.

`index_repository` reads git directly (one `ls-tree`, chunked `cat-file --batch`, one `log`),
never the working tree and never the wall clock: ages are measured from `now`, which defaults
to the commit time of `rev`. The result is cached on disk (`store.index_cache`) by commit
hash and options; only `branch_changed` (which depends on the working tree) is computed afresh.

A binary by `.gitattributes` or by its signature that has no NUL in its first 8 KiB (a PDF) is
kept, as CodeLedger keeps it, with `FileInfo.binary_mark` saying why (`binary`).

A file whose content cannot be read is skipped and named in `RepoIndex.skipped` with its
reason, as binaries and huge files are: a blob a partial clone lacks (nothing is fetched; such
an index is not cached, so it is rebuilt once the blobs are there) and a Git LFS pointer (the
content lives outside git). In a partial clone history comes from `log --name-only`, which
needs no blob (`--numstat` and rename detection would fetch every changed blob): renames are
not followed there.
"""

from __future__ import annotations

import dataclasses
import posixpath
import re
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

from workbench.core.engine import NO_PROGRESS, Progress
from workbench.core.repo import git as g
from workbench.core.repo.binary import ATTRIBUTES_FILE, Attributes, binary_mark
from workbench.core.repo.history import (
    KEEP_COMMIT_FILES,
    Commit,
    churn,
    file_history,
    past_commits,
    read_log,
    read_messages,
    recency,
    with_messages,
)
from workbench.core.repo.ignore import IGNORE_FILE, FileFilter
from workbench.core.repo.imports import ImportResolver, go_module_path
from workbench.core.repo.lang import exported_symbols, keywords, language_of, token_estimate
from workbench.core.repo.model import FileInfo, RepoIndex
from workbench.core.repo.pairing import is_test_path, pair_tests
from workbench.core.store import index_cache

__all__ = ["INDEX_VERSION", "LFS_POINTER", "MAX_FILE_BYTES", "MISSING", "index_repository"]

INDEX_VERSION = "8"  # bump when the index changes meaning, so old caches are not reused
MAX_FILE_BYTES = 10 * 1024 * 1024  # REFERENCE §2: files over 10 MB are skipped
BINARY_SNIFF = 8192  # a NUL byte in the first 8 KiB marks a binary
_ERROR_INFRA = re.compile(r"error|exception", re.I)
# skip reasons besides "binary" and "too large"
MISSING = "missing: the clone lacks it, nothing is fetched (checking the commit out fetches it)"
LOST = "missing from the repository's objects (damaged: `git fsck` names what is lost)"
NOT_UTF8 = "its name is not UTF-8 (shown with \\x escapes): no path to rank it by"
LFS_POINTER = "Git LFS pointer: the content is not in git (git lfs pull)"
_LFS_HEAD = b"version https://git-lfs.github.com/spec/"


def index_repository(path: str | Path, *, rev: str = "HEAD", include: Sequence[str] = (),
                     exclude: Sequence[str] = (), churn_days: int = 90,
                     max_commit_files: int = 50, now: int | None = None,
                     progress: Progress = NO_PROGRESS, use_cache: bool = True) -> RepoIndex:
    """The index of the repository at `path` as of `rev`.

    `include`/`exclude` are globs (see `ignore`); `.codeledgerignore` is read from the tree of
    `rev`. Churn counts commits within `churn_days` (1..3650) before `now`; commits touching
    more than `max_commit_files` files are ignored. Raises `GitError` for a path that is not a
    repository or an unknown rev, ValueError for churn_days out of range, `Cancelled` when
    `progress` says stop.
    """
    if not 1 <= churn_days <= 3650:
        raise ValueError(f"churn_days must be in 1..3650, got {churn_days}")
    repo = Path(path).resolve()
    progress(0.0, "resolving revision")
    commit = g.resolve_commit(repo, rev)
    if not commit:
        raise g.GitError(f"{repo}: unknown revision {rev!r}")
    at = g.commit_time(repo, commit) if now is None else int(now)
    # a shallow clone's history (its cut) is part of what the index holds: the same commit
    # with its whole history, or cut at another depth, is another index
    key = index_cache.index_key(INDEX_VERSION, commit, include, exclude, churn_days,
                                max_commit_files, at, g.shallow_boundary(repo))
    cached = index_cache.load_index(key) if use_cache else None
    if isinstance(cached, RepoIndex):
        index = dataclasses.replace(cached, root=str(repo))
        progress(0.95, "loaded from cache")
    else:
        index = _build(repo, commit, at, include, exclude, churn_days, max_commit_files,
                       progress.span(0.0, 0.95))
        if use_cache and not any(why in (MISSING, LOST) for _, why in index.skipped):
            index_cache.save_index(key, index)
    progress(0.95, "looking for changed files")
    changed = g.changed_files(repo) if commit == g.resolve_commit(repo, "HEAD") else set()
    if changed:
        index = dataclasses.replace(index, files=tuple(
            dataclasses.replace(f, branch_changed=f.path in changed) for f in index.files))
    progress(1.0, f"indexed {len(index)} files")
    return index


def _build(repo: Path, commit: str, now: int, include: Sequence[str], exclude: Sequence[str],
           churn_days: int, max_commit_files: int, progress: Progress) -> RepoIndex:
    progress(0.0, "listing files")
    tree = g.ls_tree(repo, commit)
    by_path = {e.path: e for e in tree}
    special = [e.blob for e in tree if e.path == IGNORE_FILE or e.path.endswith("go.mod")
               or posixpath.basename(e.path) == ATTRIBUTES_FILE]
    extra = g.read_blobs(repo, special) if special else {}
    ignore_text = extra.get(by_path[IGNORE_FILE].blob, b"").decode("utf-8", "replace") \
        if IGNORE_FILE in by_path else ""
    keep = FileFilter.of(include, exclude, ignore_text)
    attributes = Attributes.of({e.path: extra.get(e.blob, b"").decode("utf-8", "replace")
                                for e in tree if posixpath.basename(e.path) == ATTRIBUTES_FILE})
    go_modules = {}
    for e in tree:
        if posixpath.basename(e.path) == "go.mod":
            module = go_module_path(extra.get(e.blob, b"").decode("utf-8", "replace"))
            if module:
                go_modules[module] = posixpath.dirname(e.path)

    skipped: list[tuple[str, str]] = []
    wanted = []
    partial = any(e.missing for e in tree) and g.is_partial_clone(repo)
    for e in tree:
        if not keep.keeps(e.path):
            continue
        shown = e.path.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
        if shown != e.path:  # git keeps bytes; an old Latin-1 name cannot be a path here
            skipped.append((shown, NOT_UTF8))
        elif e.missing:
            skipped.append((e.path, MISSING if partial else LOST))
        elif e.size > MAX_FILE_BYTES:
            skipped.append((e.path, "too large"))
        else:
            wanted.append(e)
    blobs = g.read_blobs(repo, [e.blob for e in wanted],
                         tick=lambda f: progress(0.05 + 0.4 * f, "reading contents"))

    texts: dict[str, str] = {}
    marks: dict[str, str] = {}  # binary by .gitattributes or a signature, not by a NUL
    for e in wanted:
        data = blobs.get(e.blob)
        why = _unreadable(data)
        if why:
            skipped.append((e.path, why))
        else:
            texts[e.path] = (data or b"").decode("utf-8", "replace")
            marks[e.path] = binary_mark(e.path, data or b"", attributes)
    paths = sorted(texts)

    resolver = ImportResolver(paths, go_modules)
    parsed = {}
    imports: dict[str, tuple[str, ...]] = {}
    relative: dict[str, tuple[str, ...]] = {}
    dependents: dict[str, list[str]] = defaultdict(list)
    for n, p in enumerate(paths):
        if n % 500 == 0:
            progress(0.45 + 0.3 * n / max(1, len(paths)), "reading symbols and imports")
        text = texts[p]
        lines = text.splitlines()
        lang = language_of(p)
        parsed[p] = (lang, len(lines), exported_symbols(lines, lang), keywords(lines, lang))
        imports[p], relative[p] = resolver.resolve_relative(p, text, lang)
        for dep in imports[p]:
            dependents[dep].append(p)
    pairs = pair_tests(paths, imports, relative)
    tested_by: dict[str, list[str]] = defaultdict(list)
    for test, sources in pairs.items():
        for src in sources:
            tested_by[src].append(test)

    progress(0.75, "reading history")
    if g.is_partial_clone(repo):
        log = _log_without_blobs(repo, commit)
    else:
        try:
            log = read_log(repo, commit)
        except g.GitError as exc:  # a blob --numstat reads is gone (a damaged clone)
            if "unable to read" not in str(exc):
                raise
            log = _log_without_blobs(repo, commit)
    history = file_history(log, paths, now=now, churn_days=churn_days,
                           max_commit_files=max_commit_files, keep_files=KEEP_COMMIT_FILES)
    past = past_commits(log, paths, now=now, max_commit_files=max_commit_files,
                        keep_files=KEEP_COMMIT_FILES)
    degree = {p: len(imports[p]) + len(dependents[p]) for p in paths}
    top = max(degree.values(), default=0)
    files = []
    for p in paths:
        lang, n_lines, symbols, words = parsed[p]
        h = history[p]
        is_test = is_test_path(p)
        files.append(FileInfo(
            path=p, language=lang, size=by_path[p].size, lines=n_lines,
            tokens=token_estimate(n_lines, lang), symbols=symbols, keywords=words,
            imports=imports[p], dependents=tuple(sorted(dependents[p])), is_test=is_test,
            tests=pairs.get(p, ()) if is_test else tuple(sorted(tested_by[p])),
            commits=h.commits, days_since_last=h.days_since_last,
            churn=churn(h.commits, h.days_since_last), recency=recency(h.days_since_last),
            centrality=degree[p] / top if top else 0.0, commit_days=h.commit_days,
            commit_files=h.commit_files, binary_mark=marks[p],
            error_infrastructure=bool(_ERROR_INFRA.search(p)
                                      or any(_ERROR_INFRA.search(s) for s in symbols)),
        ))
    progress(1.0, "indexed")
    return RepoIndex(root=str(repo), commit=commit, now=now, churn_days=churn_days,
                     files=tuple(files), skipped=tuple(sorted(skipped)), history=past)


def unindexed(data: bytes | None) -> str | None:
    """Why a blob's content is not indexed (`_unreadable`), for tasks-from-git's files."""
    return _unreadable(data)


def _unreadable(data: bytes | None) -> str | None:
    """Why a blob's content is not indexed, or None: absent (`cat-file` said missing), a Git
    LFS pointer, a binary."""
    if data is None:
        return MISSING
    if data.startswith(_LFS_HEAD):
        return LFS_POINTER
    if b"\0" in data[:BINARY_SNIFF]:
        return "binary"
    return None


def _log_without_blobs(repo: Path, commit: str) -> list[Commit]:
    """`read_log` for a partial clone: the paths each commit changed from tree diffs alone
    (`--name-only --no-renames`), so no blob is fetched; renames are not followed."""
    raw = g.git(repo, "log", "-z", "--no-renames", "--name-only", "--format=%x1e%H%x1f%ct",
                commit)
    commits = []
    for chunk in raw.split(b"\x1e"):
        header, _, body = chunk.partition(b"\0")
        if not header:
            continue
        sha, _, ts = header.partition(b"\x1f")
        paths = [t.decode("utf-8", "surrogateescape") for t in body.lstrip(b"\n").split(b"\0")
                 if t]
        commits.append(Commit(sha.decode(), int(ts), tuple((p, p) for p in paths)))
    return with_messages(commits, read_messages(repo, commit))
