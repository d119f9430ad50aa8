"""Code task sets: a task's text and the repository files it needed, as JSON lines.

One task per line:

    {"id": "c1a2b3c4d5e", "task": "Fix crash when alias is empty",
     "files": ["api/shorty/app.py", "api/tests/test_app.py"],
     "commit": "<sha>", "snapshot": "<sha>", "author": "Alice", "date": "2026-01-24T10:00:00+00:00"}

`id` (a non-empty string, or an integer), `task` (a non-empty string) and `files` (a non-empty
list of repository-relative paths, no repeats) are required; `commit`, `snapshot` (hex commit
hashes, full or abbreviated to 4+ digits, in either case: read in lower case, as git writes
them), `author` and `date` (ISO 8601) are optional and may be null. Other fields are
ignored. Blank lines are skipped; `#` comment lines are not accepted, so that a task set stays
plain JSON lines any tool reads.

`snapshot` is the commit whose tree the task is scored against (the index is built there): a
task set mined from git history has one snapshot for all tasks, and `tasks_snapshot` returns it
(a hash and an abbreviation of it, as `git log --oneline` shows one, name the same commit).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from workbench.core.data import FormatError, Qrels, Query, QuerySet
from workbench.core.formats._common import (
    StrPath,
    check_unique,
    empty_file,
    get_id,
    get_str,
    iter_jsonl,
)
from workbench.core.store import atomic_write_text

__all__ = ["CodeTask", "read_tasks", "tasks_qrels", "tasks_queries", "tasks_snapshot",
           "write_tasks"]

_SHA = re.compile(r"[0-9a-fA-F]{4,64}")


@dataclass(frozen=True)
class CodeTask:
    id: str
    task: str
    files: tuple[str, ...]  # repository-relative, as in the snapshot's tree
    commit: str | None = None  # the commit the task was mined from
    snapshot: str | None = None  # the commit the repository is indexed at
    author: str | None = None
    date: str | None = None  # ISO 8601
    line: int = field(default=0, compare=False)  # its line in the file read (0: not read)

    def to_json(self) -> dict[str, Any]:
        """The task as one JSON object, optional fields left out when absent."""
        out: dict[str, Any] = {"id": self.id, "task": self.task, "files": list(self.files)}
        for key in ("commit", "snapshot", "author", "date"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        return out


def read_tasks(path: StrPath) -> list[CodeTask]:
    """The tasks of a .jsonl file, in file order. Raises FormatError naming file, line, field."""
    path = Path(path)
    tasks: list[CodeTask] = []
    seen: dict[str, int] = {}
    for line, obj in iter_jsonl(path):
        _check_task_fields(obj, path, line)
        task_id = get_id(obj, ("id",), path, line)
        check_unique(seen, task_id, path, line, "id")
        text = get_str(obj, "task", path, line, required=True)
        if not text.strip():
            raise FormatError(path, "empty task text", line=line, field="task")
        tasks.append(CodeTask(
            id=task_id, task=text, files=_files(obj, path, line),
            commit=_optional(obj, "commit", path, line),
            snapshot=_optional(obj, "snapshot", path, line),
            author=_optional(obj, "author", path, line),
            date=_optional(obj, "date", path, line),
            line=line,
        ))
    if not tasks:
        raise empty_file(path, "task", "id")
    return tasks


# a query file's names for a task's fields (BEIR's `_id`, the plain reader's `text`)
OTHER_NAMES = {"id": ("_id", "qid", "query_id"), "task": ("text", "query"), "files": ()}


def _check_task_fields(obj: Mapping[str, Any], path: Path, line: int) -> None:
    """A field a task needs, missing: said with what a task is made of (a query file given
    as a repository's tasks said only "field 'task': missing")."""
    for key, others in OTHER_NAMES.items():
        if key in obj:
            continue
        found = [k for k in others if k in obj]
        raise FormatError(path, "missing: a code task needs id, task and files, as "
                          "tasks-from-git writes them" + (
                              f" (this line has {found[0]!r}: a query file, not a task "
                              "file?)" if found else ""), line=line, field=key)


def _files(obj: Mapping[str, Any], path: Path, line: int) -> tuple[str, ...]:
    value = obj.get("files")
    if value is None:
        raise FormatError(path, "missing" if "files" not in obj else "expected a list of "
                          "paths, found null", line=line, field="files")
    if not isinstance(value, list) or not all(isinstance(f, str) for f in value):
        raise FormatError(path, "expected a list of strings", line=line, field="files")
    if not value:
        raise FormatError(path, "empty list: a task needs at least one file", line=line,
                          field="files")
    for i, f in enumerate(value):
        if not f.strip() or f.startswith("/") or "\\" in f:
            raise FormatError(path, f"expected a repository-relative path with '/', found "
                              f"{f!r}", line=line, field=f"files[{i}]")
        if f in value[:i]:
            raise FormatError(path, f"{f!r} listed twice", line=line, field=f"files[{i}]")
    return tuple(value)


def _optional(obj: Mapping[str, Any], key: str, path: Path, line: int) -> str | None:
    if obj.get(key) is None:
        return None
    value = get_str(obj, key, path, line, required=False)
    if key in ("commit", "snapshot") and not _SHA.fullmatch(value):
        raise FormatError(path, f"expected a hexadecimal commit hash, found {value!r}",
                          line=line, field=key)
    if key in ("commit", "snapshot"):
        return value.lower()  # git reads either case and writes lower case
    if key == "date":
        try:
            datetime.fromisoformat(value)
        except ValueError:
            raise FormatError(path, f"expected an ISO 8601 date, found {value!r}", line=line,
                              field=key) from None
    return value


def write_tasks(path: StrPath, tasks: Iterable[CodeTask]) -> None:
    """Write `tasks` as JSON lines, atomically (readers see the old file or the new one)."""
    atomic_write_text(Path(path), tasks_jsonl(tasks))


def tasks_jsonl(tasks: Iterable[CodeTask]) -> str:
    return "".join(json.dumps(t.to_json(), ensure_ascii=False) + "\n" for t in tasks)


class SnapshotsDiffer(ValueError):
    def __init__(self, message: str, line: int) -> None:
        super().__init__(message)
        self.line = line  # of the task that differs from the first


def tasks_snapshot(tasks: Sequence[CodeTask]) -> str | None:
    """The snapshot commit the tasks share, in its longest spelling (a full hash and its
    abbreviation name one commit); None when none names one. Raises SnapshotsDiffer (a
    ValueError) when two tasks name different snapshots, neither the start of the other (a
    task set is scored against one index)."""
    held: CodeTask | None = None  # the task with the longest spelling so far
    for t in tasks:
        if t.snapshot is None:
            continue
        if held is None or held.snapshot is None or t.snapshot.startswith(held.snapshot):
            held = t
        elif not held.snapshot.startswith(t.snapshot):
            raise SnapshotsDiffer(f"tasks disagree on the snapshot: {held.id} has "
                                  f"{held.snapshot}, {t.id} has {t.snapshot}", t.line)
    return None if held is None else held.snapshot


def tasks_queries(tasks: Sequence[CodeTask], *, name: str = "tasks") -> QuerySet:
    """The tasks as queries; commit, snapshot, author and date go into the query context."""
    return QuerySet((Query(t.id, t.task, {k: v for k, v in t.to_json().items()
                                          if k not in ("id", "task", "files")})
                     for t in tasks), name=name)


def tasks_qrels(tasks: Sequence[CodeTask]) -> Qrels:
    """Judgments: every file a task needed is relevant (grade 1), all others are not."""
    return {t.id: dict.fromkeys(t.files, 1) for t in tasks}
