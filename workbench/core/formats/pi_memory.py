"""pi-lodestone decision records (`decisions.jsonl`, REFERENCE.md §1) as Documents.

One complete record a line: `id, createdAt, updatedAt, cwd, project, source, title, text,
tags[], important, archived, kbPath?, supersedes?[], supersededBy?, conflictsWith?[],
retrievalCount, injectionCount` (pi-lodestone writes every one; other keys are kept).

A record becomes `Document(id, title, text, tags, metadata)`; metadata holds every other key
as stored (createdAt, cwd, project, source, important, archived, kbPath, supersededBy,
retrievalCount …), which the `decision-memory` model reads back as the original record.

Required: id, createdAt (an ISO date), source, title, text. Optional, with the value pi-lodestone
writes when it has nothing: cwd and project "", tags [], important and archived false,
retrievalCount and injectionCount 0. Blank lines are skipped. The original skips a line it
cannot parse in silence; the workbench stops at the first malformed line with one FormatError
naming the file, the line and the field (`corpus[2].createdAt` inside an eval case).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from workbench.core.data import Corpus, Document, FormatError
from workbench.core.formats._common import (
    StrPath,
    _has_lone_surrogate,
    _json_type,
    empty_file,
    free_id,
    json_error,
    json_loads,
    numbered_lines,
    read_text,
    replace_lone_surrogates,
)
from workbench.core.models.decision_memory.project import parse_time

DECISIONS_FILE = "decisions.jsonl"
INJECTIONS_FILE = "injections.jsonl"
REQUIRED_STR = ("source", "title", "text")
OPTIONAL_STR = {"cwd": "", "project": ""}
OPTIONAL_BOOL = ("important", "archived")
OPTIONAL_COUNT = ("retrievalCount", "injectionCount")
NULLABLE_STR = ("updatedAt", "kbPath", "supersededBy")
STR_LISTS = ("supersedes", "conflictsWith")
# keys that identify a line as a decision record (the sniffing in formats.auto)
SIGNATURE = ("createdAt", "source", "title", "text", "cwd")
# the fields of a record pi-lodestone writes that name what it is (an error lists those lacking)
WRITTEN = ("id", "createdAt", "source", "title", "text", "cwd", "project")


class DecisionKept(FormatError):
    """A flaw in a decision record that pi-lodestone loads all the same: loaded here as it
    reads it (str() names file, line and field as any FormatError does)."""


class DecisionSkipped(FormatError):
    """A record pi-lodestone's JSON.parse accepts but with a field the workbench cannot read
    (of the wrong type, or missing): left out here, where the original would load it."""


def _fail(path: Path, line: int, field: str, message: str) -> FormatError:
    return FormatError(path, message, line=line, field=field)


def decision_document(obj: Mapping[str, Any], path: Path, line: int, prefix: str = "",
                      doc_id: str | None = None, *, any_created: bool = False) -> Document:
    """The Document of one decision record; every field checked (errors name
    `prefix + field`). `doc_id` replaces the record's id (it stays as `original_id`).
    `any_created`: a createdAt that is missing or no date is let through (the record has no
    age, as in pi-lodestone, where it is NaN)."""
    def bad(key: str, message: str) -> FormatError:
        return _fail(path, line, prefix + key, message)

    meta: dict[str, Any] = {k: v for k, v in obj.items()
                            if k not in ("id", "title", "text", "tags")}
    rid = obj.get("id")
    if isinstance(rid, int) and not isinstance(rid, bool):
        rid = str(rid)
    if not isinstance(rid, str) or not rid.strip():
        raise bad("id", "missing" if "id" not in obj else
                  f"expected a non-empty string, found {_json_type(rid)}")
    created = obj.get("createdAt")
    if any_created:
        pass
    elif not isinstance(created, str):
        raise bad("createdAt", "missing" if "createdAt" not in obj else
                  f"expected an ISO date string, found {_json_type(created)}")
    elif math.isnan(parse_time(created)):
        raise bad("createdAt", f"not an ISO date: {created!r}")
    for key in REQUIRED_STR:
        if not isinstance(obj.get(key), str):
            raise bad(key, "missing" if key not in obj else
                      f"expected a string, found {_json_type(obj[key])}")
    for key, default in OPTIONAL_STR.items():
        value = obj.get(key, default)
        if not isinstance(value, str):
            raise bad(key, f"expected a string, found {_json_type(value)}")
        meta[key] = value
    for key in OPTIONAL_BOOL:
        value = obj.get(key, False)
        if not isinstance(value, bool):
            raise bad(key, f"expected true or false, found {_json_type(value)}")
        meta[key] = value
    for key in OPTIONAL_COUNT:
        value = obj.get(key, 0)
        if isinstance(value, bool) or not isinstance(value, int | float) \
                or not math.isfinite(value):
            raise bad(key, f"expected a number, found {_json_type(value)}")
        meta[key] = value
    for key in NULLABLE_STR:
        if obj.get(key) is not None and not isinstance(obj[key], str):
            raise bad(key, f"expected a string, found {_json_type(obj[key])}")
    for key in (*STR_LISTS, "tags"):
        value = obj.get(key)
        if value is not None and (not isinstance(value, list)
                                  or not all(isinstance(t, str) for t in value)):
            raise bad(key, "expected a list of strings")
    if doc_id is not None and doc_id != rid:
        meta["original_id"] = rid
    return Document(id=doc_id or rid, title=obj["title"], text=obj["text"],
                    tags=tuple(obj.get("tags") or ()), metadata=meta)


def read_decisions(path: StrPath, *, name: str | None = None,
                   skipped: list[FormatError] | None = None) -> Corpus:
    """The decisions of a `decisions.jsonl` file, in file order. The first malformed line
    raises its FormatError. Given a `skipped` list, the file loads as pi-lodestone loads it
    (REFERENCE.md: "reports them, and still loads the rest"), each flaw appended to the list:
    a line that is no JSON object is skipped, as the original skips it (FormatError); bytes
    that are not UTF-8 read as U+FFFD, as Node reads them, and so does a lone surrogate
    escape (an emoji cut in two, which JSON.parse reads: `replace_lone_surrogates`), a record
    without a readable createdAt loads with no age, a second record of an id loads under the
    id `id@line` (`DecisionKept`: the original loads them, its search scores both); a record
    with a field of the wrong type is left out (`DecisionSkipped`: the original would load
    it). Where no record loads, one error names the first left out, its field and how many
    fail so (`none_loaded`)."""
    path = Path(path)
    docs: list[Document] = []
    seen: dict[str, int] = {}
    try:
        content = read_text(path)
    except FormatError as err:
        if skipped is None or err.field != "encoding":
            raise
        content = path.read_bytes().decode("utf-8", errors="replace").removeprefix("\ufeff")
        skipped.append(DecisionKept(path, f"{err.message}: read with U+FFFD in place of each "
                                    "bad sequence, as Node reads the file (the record loads)",
                                    line=err.line, field="encoding"))
    left_out: list[tuple[FormatError, dict[str, Any] | None]] = []  # each record not loaded
    records = 0
    for line, text in numbered_lines(content):
        records += 1
        surrogates: list[tuple[str, str]] = []
        try:
            obj = parse_json_object(text, path, line, None if skipped is None else surrogates)
        except FormatError as err:
            if skipped is None:
                raise
            skipped.append(err)  # no JSON object: skipped by the original too
            left_out.append((err, None))
            continue
        try:
            doc = decision_document(obj, path, line)
        except FormatError as err:
            if skipped is None:
                raise
            if err.field != "createdAt":
                skipped.append(DecisionSkipped(
                    path, f"{err.message}: left out here (pi-lodestone would load it)",
                    line=line, field=err.field))
                left_out.append((err, obj))
                continue
            doc = decision_document(obj, path, line, any_created=True)
            skipped.append(DecisionKept(path, f"{err.message}: loaded with no age, as "
                                        "pi-lodestone loads it (no age bonus or penalty)",
                                        line=line, field="createdAt"))
        first = seen.get(doc.id)
        if first is not None:
            if skipped is None:
                raise FormatError(path, f"duplicate id {doc.id!r} (first on line {first})",
                                  line=line, field="id")
            new_id = free_id(f"{doc.id}@{line}", seen)
            skipped.append(DecisionKept(path, f"duplicate id {doc.id!r} (first on line "
                                        f"{first}): loaded as {new_id!r}, as pi-lodestone "
                                        "loads both (its search scores each)", line=line,
                                        field="id"))
            doc = decision_document(obj, path, line, doc_id=new_id,
                                    any_created=math.isnan(parse_time(obj.get("createdAt"))))
        absent = [key for key in OPTIONAL_COUNT if key not in obj]
        if absent and skipped is not None:  # NaN in the original's search score
            skipped.append(DecisionKept(
                path, "missing" + (" (and injectionCount)" if len(absent) == 2 else "")
                + ": counted as 0 here; pi-lodestone's manual search scores such a record NaN "
                "and never returns it (injection reads no count)", line=line,
                field=absent[0]))
        if surrogates and skipped is not None:  # JSON.parse reads it
            field, escape = surrogates[0]
            more = f" (and {len(surrogates) - 1} more)" if len(surrogates) > 1 else ""
            skipped.append(DecisionKept(
                path, f"{lone_surrogate_text(escape)}{more}: read as U+FFFD, as pi-lodestone "
                "loads the record (the same tokens and lengths)", line=line, field=field))
        seen.setdefault(doc.id, line)
        docs.append(doc)
    if not docs and left_out:
        raise none_loaded(path, left_out, records)
    if not docs:
        raise empty_file(path, "decision", "id")
    return Corpus(docs, name=name or path.stem)


def none_loaded(path: Path, left_out: list[tuple[FormatError, dict[str, Any] | None]],
                records: int) -> FormatError:
    """The error of a decisions file none of whose records loads: its first bad line and
    field, how many records fail the same way, each other field that fails with its count
    and first line, and the fields a decision record needs (a
    file of other records, read as decisions for its name, had said "empty file")."""
    first, obj = left_out[0]
    by_field: dict[str | None, list[FormatError]] = {}
    for err, _ in left_out:
        by_field.setdefault(err.field, []).append(err)
    count = (f"{len(by_field[first.field])} of {records} record{'' if records == 1 else 's'} "
             f"fail on {'this' if first.field == 'json' else repr(first.field)}")
    # every other reason too, with its count and first line: naming only the first, a user
    # who fixed it met the next (dr4 4)
    others = [f"{len(errs)} on {'invalid JSON' if field == 'json' else f'field {field!r}'}, "
              f"first on line {errs[0].line}: {errs[0].message}"
              for field, errs in by_field.items() if field != first.field]
    if others:
        count += f"; {'; '.join(others)}"
    if obj is None:  # no JSON object on the line
        return FormatError(path, f"{first.message}; no record loads ({count})",
                           line=first.line, field=first.field)
    lacking = [k for k in WRITTEN if k not in obj]
    also = f" (line {first.line} lacks {and_list(lacking)})" if lacking else ""
    return FormatError(
        path, f"{first.message}: no record loads ({count}). A pi-lodestone decision record "
        "needs id, createdAt (an ISO date), source (manual, extracted or turn), title and "
        f"text, and carries cwd and project{also}: give each record these fields, or, if "
        "these are no pi-lodestone decisions, give the file another name to read it as plain "
        "documents",
        line=first.line, field=first.field)


def parse_json_object(text: str, path: Path, line: int,
                      surrogates: list[tuple[str, str]] | None = None) -> dict[str, Any]:
    """One JSON-lines record, checked as `iter_jsonl` checks (same messages). A lone
    surrogate escape, which JSON.parse reads, raises; given a `surrogates` list, it reads as
    U+FFFD (`replace_lone_surrogates`) and each (field, escape) is appended to the list."""
    def bad(message: str) -> FormatError:
        return FormatError(path, message, line=line, field="json")

    try:
        obj = json_loads(text)
    except (ValueError, RecursionError) as e:
        raise json_error(path, e, line) from None
    if not isinstance(obj, dict):
        raise bad(f"expected a JSON object, found {_json_type(obj)}")
    if "\\u" in text and _has_lone_surrogate(obj):
        found: list[tuple[str, str]] = []
        fixed: dict[str, Any] = replace_lone_surrogates(obj, found)
        if surrogates is None:
            raise FormatError(path, lone_surrogate_text(found[0][1]), line=line,
                              field=found[0][0])
        surrogates.extend(found)
        return fixed
    return obj


def lone_surrogate_text(escape: str) -> str:
    """What a lone surrogate escape is ("\\ud83d")."""
    return (f"a lone surrogate escape {escape} (half of a character cut in two, as "
            "JavaScript's slice leaves an emoji)")


def and_list(items: Sequence[str], word: str = "and") -> str:
    """"a", "a and b", "a, b and c" (or `word` for "and")."""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} {word} {items[-1]}"


def first_record(path: Path) -> dict[str, Any] | None:
    """The first non-blank line of a .jsonl file as a JSON object, None when it is not one
    (for sniffing; the reader itself reports what is wrong)."""
    try:  # bytes that are not UTF-8 as U+FFFD, as the reader takes them (Node's reading)
        text = path.read_bytes().decode("utf-8", errors="replace").removeprefix("\ufeff")
        for line in text.split("\n"):
            if line.strip():
                value = json.loads(line)
                return value if isinstance(value, dict) else None
    except (OSError, ValueError, RecursionError):
        pass
    return None


def is_decisions_file(path: Path) -> bool:
    """A decisions file by its first record, or by its name: a decisions.jsonl whose first
    line is damaged is still one (read as plain documents it failed on that line, where the
    same file in its folder loads with the line skipped and said)."""
    if path.name == DECISIONS_FILE:
        return True
    first = first_record(path)
    return first is not None and all(k in first for k in SIGNATURE)


def is_pi_memory_folder(path: Path) -> bool:
    return path.is_dir() and (path / DECISIONS_FILE).is_file()
