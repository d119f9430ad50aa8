"""The repository index cache: a `RepoIndex` per commit and indexing options, one state file
(`state_file`) under `cache_dir()/repo-index/`.

The key covers the index version, the core's source, the commit hash, the include and exclude
globs, the churn window, the commit size limit, `now` and a shallow clone's cut. `repo.index`
builds the index on a miss, checks that what it reads back is a `RepoIndex`, and saves only
complete indexes.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from workbench.core.store.checksum import code_fingerprint
from workbench.core.store.paths import cache_dir
from workbench.core.store.state_file import SUFFIX, read_state, write_state
from workbench.core.store.trim import after_save, mark_used

if TYPE_CHECKING:  # repo.index imports this module: annotations only
    from workbench.core.repo.model import RepoIndex

__all__ = ["index_key", "index_path", "load_index", "save_index"]


def index_key(version: str, commit: str, include: Sequence[str], exclude: Sequence[str],
              churn_days: int, max_commit_files: int, now: int, shallow: str = "") -> str:
    """`shallow`: a shallow clone's cut (`git.shallow_boundary`), "" for a whole history."""
    return hashlib.sha256(json.dumps(
        [version, code_fingerprint(), commit, list(include), list(exclude),
         churn_days, max_commit_files, now, *([shallow] if shallow else [])]).encode()
    ).hexdigest()[:32]


def index_path(key: str) -> Path:
    return cache_dir() / "repo-index" / f"{key}{SUFFIX}"


def load_index(key: str) -> object:
    """What the cache holds under `key` (the caller checks it is a `RepoIndex`), or None."""
    path = index_path(key)
    state = read_state(path)
    if state is not None:
        mark_used(path)  # the last to be trimmed (trim.py)
    return state


def save_index(key: str, index: RepoIndex) -> None:
    path = index_path(key)
    write_state(path, index)
    after_save(path)
