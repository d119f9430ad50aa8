"""Code task sets: round trip, one FormatError per bad input naming file, line and field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import SAMPLES
from workbench.core.data import FormatError
from workbench.core.formats.code_tasks import (
    CodeTask,
    read_tasks,
    tasks_qrels,
    tasks_queries,
    tasks_snapshot,
    write_tasks,
)

SHA = "072f535af975c4d661b27f6c2d2e1ff4aa0c7d93"
GOOD = {"id": "t1", "task": "Fix the crash", "files": ["api/app.py"]}


def named(field: str) -> str:
    """How an error names its field: "json" (the JSON's own syntax) is no field to name."""
    return "" if field == "json" else f"field '{field}': "


def test_round_trip_keeps_fields_and_order(tmp_path: Path) -> None:
    tasks = [CodeTask("t1", "Réparer l'alias ✓", ("a.py", "b/c.ts"), commit=SHA, snapshot=SHA,
                      author="Zoë", date="2026-03-26T10:00:00+00:00"),
             CodeTask("t2", "Add stats", ("x.go",))]
    path = tmp_path / "tasks.jsonl"
    write_tasks(path, tasks)
    assert read_tasks(path) == tasks
    lines = path.read_text("utf-8").splitlines()
    assert "Zoë" in lines[0]  # not \u-escaped
    assert json.loads(lines[1]) == {"id": "t2", "task": "Add stats", "files": ["x.go"]}
    assert not list(tmp_path.glob(".*tmp"))  # written atomically, nothing left behind


def test_blank_lines_skipped_integer_ids_and_nulls(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_text("\n" + json.dumps({**GOOD, "id": 7, "commit": None, "extra": 1})
                    + "\n\n   \n")
    (task,) = read_tasks(path)
    assert task == CodeTask("7", "Fix the crash", ("api/app.py",))


@pytest.mark.parametrize(("line", "field", "message"), [
    ("{not json", "json", "invalid JSON"),
    ("# a comment", "json", "invalid JSON"),
    ("[1, 2]", "json", "expected a JSON object"),
    (json.dumps({"task": "x", "files": ["a.py"]}), "id", "missing"),
    (json.dumps({**GOOD, "id": " "}), "id", "empty id"),
    (json.dumps({**GOOD, "id": ["x"]}), "id", "expected a string or an integer"),
    (json.dumps({"id": "t", "files": ["a.py"]}), "task", "missing"),
    (json.dumps({**GOOD, "task": ""}), "task", "empty task text"),
    (json.dumps({**GOOD, "task": 3}), "task", "expected a string"),
    (json.dumps({"id": "t", "task": "x"}), "files", "missing"),
    (json.dumps({**GOOD, "files": "a.py"}), "files", "expected a list of strings"),
    (json.dumps({**GOOD, "files": ["a.py", 3]}), "files", "expected a list of strings"),
    (json.dumps({**GOOD, "files": []}), "files", "at least one file"),
    (json.dumps({**GOOD, "files": ["a.py", "/etc/x"]}), "files[1]", "repository-relative"),
    (json.dumps({**GOOD, "files": ["a.py", "a.py"]}), "files[1]", "listed twice"),
    (json.dumps({**GOOD, "commit": "HEAD"}), "commit", "hexadecimal commit hash"),
    (json.dumps({**GOOD, "snapshot": 12}), "snapshot", "expected a string"),
    (json.dumps({**GOOD, "date": "last tuesday"}), "date", "ISO 8601"),
])
def test_errors_name_file_line_and_field(tmp_path: Path, line: str, field: str,
                                         message: str) -> None:
    path = tmp_path / "t.jsonl"
    path.write_text(json.dumps({**GOOD, "id": "t0"}) + "\n" + line + "\n")
    with pytest.raises(FormatError) as info:
        read_tasks(path)
    err = info.value
    assert (err.path, err.line, err.field) == (str(path), 2, field)
    assert message in str(err) and str(err).startswith(f"{path}:2: {named(field)}")
    assert "\n" not in str(err)


def test_duplicate_id_and_empty_file(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_text(json.dumps(GOOD) + "\n" + json.dumps(GOOD) + "\n")
    with pytest.raises(FormatError, match=r":2: field 'id': duplicate id 't1' \(first on line 1"):
        read_tasks(path)
    path.write_text("\n\n")
    with pytest.raises(FormatError, match="empty file: expected at least one task"):
        read_tasks(path)
    with pytest.raises(FormatError, match="no such file"):
        read_tasks(tmp_path / "absent.jsonl")


def test_snapshot_shared_or_refused() -> None:
    a = CodeTask("a", "x", ("a.py",), snapshot=SHA)
    b = CodeTask("b", "y", ("b.py",))
    assert tasks_snapshot([b]) is None and tasks_snapshot([]) is None
    assert tasks_snapshot([b, a, a]) == SHA
    with pytest.raises(ValueError, match=r"disagree on the snapshot: a has 072f535a.*c has abcd"):
        tasks_snapshot([a, CodeTask("c", "z", ("c.py",), snapshot="abcd")])


def test_queries_and_judgments() -> None:
    tasks = [CodeTask("a", "Fix it", ("a.py", "b.py"), commit=SHA, author="Al"),
             CodeTask("b", "Add it", ("c.py",))]
    queries = tasks_queries(tasks)
    assert queries.ids == ["a", "b"] and queries[0].text == "Fix it"
    assert dict(queries[0].context) == {"commit": SHA, "author": "Al"}
    assert tasks_qrels(tasks) == {"a": {"a.py": 1, "b.py": 1}, "b": {"c.py": 1}}


def test_shipped_sample_reads() -> None:
    tasks = read_tasks(SAMPLES / "code-repo" / "tasks.jsonl")
    assert len(tasks) == 12 and tasks_snapshot(tasks) == SHA


def test_one_snapshot_named_in_full_by_a_prefix_or_in_capitals_is_one(tmp_path: Path) -> None:
    """`git log --oneline` shows a commit by its first digits, and git reads hashes in either
    case: a task set naming its snapshot in full on one line and abbreviated on another was
    refused ("tasks disagree on the snapshot"), an upper-case hash "expected a hexadecimal
    commit hash"."""
    import subprocess

    from tests.test_repo_index import make_repo
    from workbench.core.formats import load_dataset

    repo = make_repo(tmp_path / "r", {"a.py": "x = 1\n", "b.py": "y = 2\n"})
    full = subprocess.run(["git", "-C", str(repo), "rev-parse", "HEAD"], capture_output=True,
                          text=True, check=True).stdout.strip()
    make_repo(repo, {"c.py": "z = 3\n"}, message="later")  # HEAD is not the snapshot
    rows = [{**GOOD, "id": "t1", "files": ["a.py"], "snapshot": full},
            {**GOOD, "id": "t2", "files": ["b.py"], "snapshot": full[:10]},
            {**GOOD, "id": "t3", "files": ["a.py"], "snapshot": full[:12].upper(),
             "commit": full.upper()}]
    path = tmp_path / "tasks.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    tasks = read_tasks(path)
    assert [t.snapshot for t in tasks] == [full, full[:10], full[:12]]
    assert tasks[2].commit == full
    assert tasks_snapshot(tasks) == full
    assert tasks_snapshot(tasks[1:]) == full[:12]  # the longest of the prefixes
    data = load_dataset(repo, queries=path)
    assert data.source.endswith(f"@{full}") and "c.py" not in data.corpus.ids
    other = CodeTask("t4", "x", ("a.py",), snapshot=full[:8] + "0000", line=4)
    with pytest.raises(ValueError, match=f"t1 has {full}, t4 has {full[:8]}0000"):
        tasks_snapshot([*tasks, other])


@pytest.mark.parametrize(("row", "field", "has"), [
    ({"id": "q1", "text": "fix the cache"}, "task", "'text'"),
    ({"_id": "q1", "text": "fix the cache"}, "id", "'_id'"),
    ({"id": "q1", "task": "fix the cache"}, "files", None),
])
def test_a_query_file_given_as_tasks_says_what_a_task_is(
        tmp_path: Path, row: dict[str, str], field: str, has: str | None) -> None:
    """A plain or BEIR query file given as a repository's --queries (reviewer d, F4): the
    missing field named with what a task needs and where such a file comes from."""
    path = tmp_path / "q.jsonl"
    path.write_text(json.dumps(row) + "\n", encoding="utf-8")
    with pytest.raises(FormatError) as err:
        read_tasks(path)
    assert str(err.value) == (
        f"{path}:1: field '{field}': missing: a code task needs id, task and files, as "
        "tasks-from-git writes them"
        + (f" (this line has {has}: a query file, not a task file?)" if has else ""))
