"""Malformed pi-lodestone files: one FormatError naming the file, the line and the field (the
original skips such decision lines in silence; the workbench reports and stops)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from workbench.core.data import FormatError
from workbench.core.formats import read_decisions, read_eval_cases, read_injections

GOOD = {"id": "a", "createdAt": "2026-01-01T00:00:00.000Z", "cwd": "/repos/x", "project": "x",
        "source": "manual", "title": "t", "text": "body", "tags": [], "important": False,
        "archived": False, "retrievalCount": 0, "injectionCount": 0}


def named(field: str) -> str:
    """How an error names its field: "json" (the JSON's own syntax) is no field to name."""
    return "" if field == "json" else f"field '{field}': "


def raises(reader: Callable[[Path], object], path: Path, line: int, field: str,
           fragment: str = "") -> None:
    with pytest.raises(FormatError) as info:
        reader(path)
    err, msg = info.value, str(info.value)
    assert (err.path, err.line, err.field) == (str(path), line, field), msg
    assert msg.startswith(f"{path}:{line}: {named(field)}"), msg
    assert fragment in msg, msg


def two_lines(tmp_path: Path, second: str) -> Path:
    path = tmp_path / "decisions.jsonl"
    path.write_text(json.dumps(GOOD) + "\n\n" + second + "\n", encoding="utf-8")
    return path  # the bad record is on line 3


def bad(**change: Any) -> str:
    obj = {**GOOD, "id": "b", **change}
    return json.dumps({k: v for k, v in obj.items() if v is not ...})


@pytest.mark.parametrize(("line", "field", "fragment"), [
    (bad(createdAt=...), "createdAt", "missing"),
    (bad(createdAt="yesterday"), "createdAt", "not an ISO date"),
    (bad(createdAt=5), "createdAt", "found a number"),
    (bad(title=...), "title", "missing"),
    (bad(text=None), "text", "found null"),
    (bad(source=1), "source", "expected a string"),
    (bad(important="yes"), "important", "expected true or false"),
    (bad(archived=1), "archived", "expected true or false"),
    (bad(tags="decision"), "tags", "list of strings"),
    (bad(tags=["ok", 3]), "tags", "list of strings"),
    (bad(retrievalCount="3"), "retrievalCount", "expected a number"),
    (bad(kbPath=7), "kbPath", "expected a string"),
    (bad(supersedes="x"), "supersedes", "list of strings"),
    (bad(id=""), "id", "non-empty string"),
    (bad(id="a"), "id", "duplicate id 'a' (first on line 1)"),
    ('{"id": "b",', "json", "invalid JSON"),
    ("[1, 2]", "json", "expected a JSON object"),
])
def test_decision_errors(tmp_path: Path, line: str, field: str, fragment: str) -> None:
    raises(read_decisions, two_lines(tmp_path, line), 3, field, fragment)


def test_empty_and_missing_files(tmp_path: Path) -> None:
    empty = tmp_path / "decisions.jsonl"
    empty.write_text("\n \n", encoding="utf-8")
    raises(read_decisions, empty, 1, "id", "empty file")
    with pytest.raises(FormatError, match="no such file"):
        read_decisions(tmp_path / "absent.jsonl")
    with pytest.raises(FormatError, match="no such file"):
        read_injections(tmp_path / "absent.jsonl")
    latin = tmp_path / "injections.jsonl"  # read as Node reads it: a line, not a record
    latin.write_bytes(b'{"ts": "caf\xe9"}\n')
    assert read_injections(latin).skipped == ((1, "field 'results': missing"),)


CASE = {"name": "c", "query": "q words", "cwd": "/repos/x", "now": "2026-01-02T00:00:00Z",
        "corpus": [GOOD], "expected_top_ids": ["a"]}


def case_file(tmp_path: Path, **change: Any) -> Path:
    path = tmp_path / "eval.jsonl"
    obj = {k: v for k, v in {**CASE, "name": "c2", **change}.items() if v is not ...}
    path.write_text(json.dumps(CASE) + "\n" + json.dumps(obj) + "\n", encoding="utf-8")
    return path  # the changed case is on line 2


@pytest.mark.parametrize(("change", "field", "fragment"), [
    ({"name": ...}, "name", "missing"),
    ({"name": "c"}, "name", "duplicate case name 'c' (first on line 1)"),
    ({"query": 3}, "query", "expected a string"),
    ({"now": "soon"}, "now", "not an ISO date"),
    ({"forInjection": "yes"}, "forInjection", "true or false"),
    ({"topK": 2.5}, "topK", "an integer"),
    ({"topK": -1}, "topK", "≥ 0"),
    ({"minScore": "8"}, "minScore", "a number"),
    ({"corpus": []}, "corpus", "empty corpus"),
    ({"corpus": [GOOD, 3]}, "corpus[1]", "decision object"),
    ({"corpus": [GOOD, {**GOOD, "id": "b", "title": None}]}, "corpus[1].title", "found null"),
    ({"corpus": [GOOD, {**GOOD, "text": "other"}]}, "corpus[1].id", "duplicate id 'a'"),
    ({"expected_top_ids": ...}, "expected_top_ids", "missing"),
    ({"must_not_include": [1]}, "must_not_include", "decision ids"),
])
def test_eval_errors(tmp_path: Path, change: dict[str, Any], field: str, fragment: str) -> None:
    raises(read_eval_cases, case_file(tmp_path, **change), 2, field, fragment)


def test_skipping_reports_each_bad_line_and_loads_the_rest(tmp_path: Path) -> None:
    path = tmp_path / "decisions.jsonl"
    lines = [json.dumps(GOOD), "{broken", bad(important="yes"), bad(id="c"),
             bad(id="a"), '"\\ud800"']
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    skipped: list[FormatError] = []
    corpus = read_decisions(path, skipped=skipped)
    # what is no JSON object is skipped, as pi-lodestone skips it; a field the workbench
    # cannot read leaves its record out (said); a second id loads under another id
    assert corpus.ids == ["a", "c", "a@5"]
    assert [(e.line, e.field, type(e).__name__) for e in skipped] == [
        (2, "json", "FormatError"), (3, "important", "DecisionSkipped"),
        (5, "id", "DecisionKept"), (6, "json", "FormatError")]
    raises(read_decisions, path, 2, "json", "invalid JSON")


def test_a_duplicate_id_loads_as_the_original_loads_it(tmp_path: Path) -> None:
    """pi-lodestone's store holds both records of an id and its search scores each: the
    second was left out here."""
    path = tmp_path / "decisions.jsonl"
    path.write_text(json.dumps(GOOD) + "\n" + json.dumps({**GOOD, "title": "again"}) + "\n",
                    encoding="utf-8")
    skipped: list[FormatError] = []
    corpus = read_decisions(path, skipped=skipped)
    assert [(d.id, d.title) for d in corpus] == [("a", "t"), ("a@2", "again")]
    assert corpus[1].metadata["original_id"] == "a"
    assert len(skipped) == 1 and ("duplicate id 'a' (first on line 1): loaded as 'a@2', as "
                                  "pi-lodestone loads both") in str(skipped[0])
    raises(read_decisions, path, 2, "id", "duplicate id 'a' (first on line 1)")  # strict


def test_a_record_without_a_date_or_with_bytes_not_utf8_loads(tmp_path: Path) -> None:
    """pi-lodestone skips only lines JSON.parse refuses: a record without createdAt loads
    (its age NaN: no bonus or penalty), and Node reads bytes that are not UTF-8 as U+FFFD.
    One such byte refused all 135 decisions of a folder here."""
    path = tmp_path / "decisions.jsonl"
    undated = {k: v for k, v in {**GOOD, "id": "b"}.items() if k != "createdAt"}
    latin = json.dumps({**GOOD, "id": "c", "title": "Caf\u00e9"}).replace(
        "\\u00e9", "\u00e9").encode("utf-8").replace("é".encode(), b"\xe9")
    path.write_bytes(json.dumps(GOOD).encode() + b"\n" + json.dumps(undated).encode()
                     + b"\n" + latin + b"\n")
    skipped: list[FormatError] = []
    corpus = read_decisions(path, skipped=skipped)
    assert corpus.ids == ["a", "b", "c"] and corpus[2].title == "Caf\ufffd"
    assert [(e.line, e.field, type(e).__name__) for e in skipped] == [
        (3, "encoding", "DecisionKept"), (2, "createdAt", "DecisionKept")]
    assert "loaded with no age" in str(skipped[1])
    raises(read_decisions, path, 3, "encoding", "not UTF-8")  # strict: the first flaw
    # under any name: found to be decisions, then read so (the sniffing read it strictly)
    from workbench.core.formats import load_dataset

    other = tmp_path / "team-memory.jsonl"
    other.write_bytes(path.read_bytes())
    assert load_dataset(other, skipped=[]).corpus.ids == ["a", "b", "c"]


def test_a_renamed_duplicate_never_takes_another_records_id(tmp_path: Path) -> None:
    """Ids a, a@3, a: the third became "a@3", the second's own id, and the load ended in a
    traceback."""
    path = tmp_path / "decisions.jsonl"
    path.write_text("\n".join(json.dumps({**GOOD, "id": i}) for i in ("a", "a@3", "a"))
                    + "\n", encoding="utf-8")
    skipped: list[FormatError] = []
    corpus = read_decisions(path, skipped=skipped)
    assert corpus.ids == ["a", "a@3", "a@3#2"] and len(skipped) == 1


def test_json_nested_past_the_parser_is_said_so(tmp_path: Path) -> None:
    # settings.json said Python's "maximum recursion depth exceeded while decoding a JSON
    # array from a unicode string"; an injections log line skipped with the same words
    from workbench.core.formats.pi_memory_settings import read_pi_settings

    deep = '{"disabledProjects": ' + "[" * 100_000 + "]" * 100_000 + "}"
    settings = tmp_path / "settings.json"
    settings.write_text(deep)
    raises(read_pi_settings, settings, 1, "json", "invalid JSON: nested too deeply")
    log = tmp_path / "injections.jsonl"
    log.write_text(deep + "\n")
    assert read_injections(log).skipped == ((1, "invalid JSON: nested too deeply"),)


def test_a_prompt_preview_that_is_not_text_is_a_skipped_line(tmp_path: Path) -> None:
    # a number there was read as "no preview logged": why said nothing, why-stats counted
    # the turn, and the decisions folder's query set lost it without a word
    record = {"ts": "2026-01-01T00:00:00.000Z", "cwd": "/r", "project": "r",
              "promptPreview": "fix the cache", "promptCharCount": 13, "minScore": 8,
              "limit": 3, "globalInject": False, "results": []}
    log = tmp_path / "injections.jsonl"
    log.write_text("\n".join(json.dumps({**record, "promptPreview": v})
                             for v in ("fix the cache", 5, None)) + "\n")
    read = read_injections(log)
    assert [r.prompt_preview for r in read.records] == ["fix the cache", None]
    assert read.skipped == ((2, "field 'promptPreview': expected a string, found a number"),)


def test_a_record_without_its_counts_is_said_to_be_one_search_never_returns(
        tmp_path: Path) -> None:
    """pi-lodestone's search adds min(retrievalCount, 6): a record without one scores NaN
    there and is never returned. Read as 0 here (injection reads no count), it was said
    nowhere."""
    path = tmp_path / "decisions.jsonl"
    bare = {k: v for k, v in {**GOOD, "id": "b"}.items()
            if k not in ("retrievalCount", "injectionCount")}
    half = {k: v for k, v in {**GOOD, "id": "c"}.items() if k != "injectionCount"}
    path.write_text("\n".join(json.dumps(r) for r in (GOOD, bare, half)) + "\n",
                    encoding="utf-8")
    skipped: list[FormatError] = []
    corpus = read_decisions(path, skipped=skipped)
    assert corpus.ids == ["a", "b", "c"]
    assert corpus[1].metadata["retrievalCount"] == 0
    assert [(e.line, e.field, type(e).__name__) for e in skipped] == [
        (2, "retrievalCount", "DecisionKept"), (3, "injectionCount", "DecisionKept")]
    assert "missing (and injectionCount): counted as 0 here; pi-lodestone's manual search " \
        "scores such a record NaN and never returns it" in str(skipped[0])
    assert read_decisions(path).ids == ["a", "b", "c"]  # strict: not an error


def test_a_lone_surrogate_escape_loads_the_record_as_json_parse_reads_it(
        tmp_path: Path) -> None:
    """JavaScript's `"…😀".slice(0, n)` can end inside the emoji; JSON.stringify then writes
    `"…\\ud83d"`, which Node's JSON.parse reads: pi-lodestone keeps the record. It was left out
    here, said to be skipped "as pi-lodestone skips them"."""
    path = tmp_path / "decisions.jsonl"
    cut = json.dumps({**GOOD, "title": "Site config"}).replace(
        '"Site config"', '"Site config\\ud83d"')  # as JSON.stringify writes it
    tagged = json.dumps({**GOOD, "id": "b", "tags": ["zz"]}).replace('"zz"', '"\\ude00zz"')
    path.write_text(cut + "\n" + tagged + "\n", encoding="utf-8")
    skipped: list[FormatError] = []
    corpus = read_decisions(path, skipped=skipped)
    assert corpus.ids == ["a", "b"]
    assert corpus[0].title == "Site config\ufffd" and corpus[1].tags == ("\ufffdzz",)
    assert [(e.line, e.field, type(e).__name__) for e in skipped] == [
        (1, "title", "DecisionKept"), (2, "tags[0]", "DecisionKept")]
    assert "\\ud83d" in str(skipped[0]) and "skips" not in str(skipped[0])
    # what pi-lodestone's scoring reads of the title is unchanged: the same tokens (runs of
    # 3+ of [a-z0-9_./:-]: "site", "config") and the same length in UTF-16 units, 12
    from workbench.core.models.decision_memory.excerpt import units
    from workbench.core.models.decision_memory.text import tokenize

    assert tokenize(corpus[0].title) == ["site", "config"]
    assert units(corpus[0].title) == 12
    raises(read_decisions, path, 1, "title", "lone surrogate escape \\ud83d")  # strict


def test_a_settings_folder_is_said(tmp_path: Path) -> None:
    """settings.json that is a folder had been passed over without a word (its disabled
    projects unread), where a malformed one is an error."""
    from workbench.core.formats import load_dataset

    folder = tmp_path / "memory"
    folder.mkdir()
    (folder / "decisions.jsonl").write_text(json.dumps(GOOD) + "\n", encoding="utf-8")
    (folder / "settings.json").mkdir()
    with pytest.raises(FormatError) as info:
        load_dataset(folder)
    assert (info.value.path, info.value.field) == (str(folder / "settings.json"), "path")
    assert "a folder, where pi-lodestone keeps its settings file" in str(info.value)
    (folder / "settings.json").rmdir()  # absent: no settings, as the original reads none
    assert len(load_dataset(folder).corpus) == 1


# records as another tool writes them: no cwd, project or source (found in rv 52, item 1)
UNSOURCED = [{"id": "a-1", "title": "Use PgBouncer", "text": "connection pooling",
              "tags": ["decision"], "createdAt": "2026-03-01T00:00:00.000Z"},
             {"id": "b-1", "title": "Use PgBouncer", "text": "connection pooling",
              "tags": ["decision"], "createdAt": "2026-03-04T08:00:00.000Z"}]


def test_a_decisions_file_none_of_whose_records_loads_names_the_first_and_its_field(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Every record left out: the error named line 1's field 'id' and "empty file", though
    the file holds two records, each left out for its missing source."""
    from workbench.cli import main

    folder = tmp_path / "dmx"
    folder.mkdir()
    path = folder / "decisions.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in UNSOURCED) + "\n", encoding="utf-8")
    from workbench.core.formats import load_dataset

    with pytest.raises(FormatError) as info:
        load_dataset(folder, skipped=[])
    err, msg = info.value, str(info.value)
    assert (err.path, err.line, err.field) == (str(path), 1, "source"), msg
    assert msg.startswith(f"{path}:1: field 'source': missing: no record loads (2 of 2 "
                          "records fail on 'source')"), msg
    assert "line 1 lacks source, cwd and project" in msg and "empty file" not in msg
    assert main(["rank", str(folder), "-m", "decision-memory", "-q", "pgbouncer pooling"]) == 2
    said = capsys.readouterr().err
    assert f"{path}:1: field 'source': missing: no record loads" in said
    assert "Traceback" not in said
    # lines that are no JSON at all: the first named, with how many there are
    path.write_text("{broken\n\n[1]\n", encoding="utf-8")
    raises(lambda p: load_dataset(p.parent, skipped=[]), path, 1, "json",
           "no record loads (2 of 2 records fail on this)")
    # one record readable: it loads, the other is said with its line and field
    path.write_text(json.dumps(UNSOURCED[0]) + "\n" + json.dumps(GOOD) + "\n",
                    encoding="utf-8")
    skipped: list[FormatError] = []
    assert load_dataset(folder, skipped=skipped).corpus.ids == ["a"]
    assert [(e.line, e.field) for e in skipped if "left out" in str(e)] == [(1, "source")]


def test_no_record_loads_names_every_reason_with_its_count_and_first_line(
        tmp_path: Path) -> None:
    """Line 1 no JSON, lines 2 and 4 tags that are no list, line 3 no source: the error named
    only line 1, so a user who fixed it met the next (dr4 4)."""
    from workbench.core.formats import load_dataset

    folder = tmp_path / "dm"
    folder.mkdir()
    path = folder / "decisions.jsonl"
    bad_tags = {**GOOD, "tags": "notalist"}
    path.write_text("\n".join(["not json", json.dumps({**bad_tags, "id": "b"}),
                               json.dumps({k: v for k, v in GOOD.items() if k != "source"}),
                               json.dumps({**bad_tags, "id": "c"})]) + "\n",
                    encoding="utf-8")
    with pytest.raises(FormatError) as info:
        load_dataset(folder, skipped=[])
    err, msg = info.value, str(info.value)
    assert (err.path, err.line, err.field) == (str(path), 1, "json"), msg
    assert msg == (f"{path}:1: invalid JSON at column 1: Expecting value; no record loads (1 of "
                   "4 records fail on this; 2 on field 'tags', first on line 2: expected a "
                   "list of strings; 1 on field 'source', first on line 3: missing)"), msg


def test_the_same_records_named_otherwise_are_said_to_be_read_as_plain_documents(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Records pi-lodestone wrote (a cwd) but without a source: named decisions.jsonl they are
    left out; named otherwise they load as plain documents, and a decision-memory run says
    so, naming what it reads from the metadata (dr4 1: it said source and project were not
    read) and what it lacks. A bm25 run on the same file says nothing (dr4 2)."""
    from workbench.cli import main
    from workbench.core.formats import load_dataset

    other = tmp_path / "other.jsonl"
    rows = [{**r, "cwd": "/repos/x"} for r in UNSOURCED]
    other.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    dataset = load_dataset(other, skipped=[])
    assert dataset.corpus.ids == ["a-1", "b-1"]
    note = str(dataset.settings["read_as_documents"])
    assert note.startswith("other.jsonl is read as plain documents") and \
        "its first record has createdAt and cwd but no source" in note, note
    assert "reads its cwd and createdAt from the metadata" in note, note
    assert "(no source: not manual)" in note and "locality" not in note, note
    assert main(["rank", str(other), "-m", "decision-memory", "-q", "pgbouncer pooling"]) == 0
    assert "note: other.jsonl is read as plain documents" in capsys.readouterr().err
    assert main(["rank", str(other), "-m", "bm25", "-q", "pgbouncer pooling"]) == 0
    assert "plain documents" not in capsys.readouterr().err
    # a manual source and a project, read from the metadata and scored so: not said otherwise
    tickets = tmp_path / "tickets.jsonl"
    tickets.write_text(json.dumps({"id": "t1", "title": "Login fix", "text": "session handler",
                                   "source": "manual", "project": "webapp", "important": True})
                       + "\n", encoding="utf-8")
    assert main(["rank", str(tickets), "-m", "decision-memory", "-p", "mode=search",
                 "-p", "now=2026-01-01T00:00:00Z", "-q", "login session handler"]) == 0
    out, err = capsys.readouterr()
    said = " ".join(err.split())
    assert "its first record has source and project but no createdAt or cwd" in said, said
    assert "reads its source, project and important from the metadata" in said, said
    assert "(no createdAt: no age bonus)" in said and "not manual" not in said, said
    assert "locality" not in said, said
    lines = out.splitlines()
    head = next(line for line in lines if line.startswith("rank"))
    row = next(line for line in lines if " t1 " in line)
    assert head.split()[-2:] == ["important", "manual"] and row.split()[-2:] == ["8", "4"], out
    # documents without keys only pi-lodestone writes: nothing to say, a dated title and
    # text (a blog export, the records above before the cwd) included
    plain = tmp_path / "docs.jsonl"
    plain.write_text(json.dumps({"id": "d", "title": "t", "text": "x", "source": "web"})
                     + "\n", encoding="utf-8")
    assert "read_as_documents" not in load_dataset(plain, skipped=[]).settings
    plain.write_text("\n".join(json.dumps(r) for r in UNSOURCED) + "\n", encoding="utf-8")
    assert "read_as_documents" not in load_dataset(plain, skipped=[]).settings
    assert main(["rank", str(plain), "-m", "decision-memory", "-q", "pgbouncer pooling"]) == 0
    assert "plain documents" not in capsys.readouterr().err
