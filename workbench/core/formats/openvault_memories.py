"""OpenVault memories as Documents, from a memories file or from a chat's metadata.

OpenVault (https://github.com/vadash/openvault) stores a chat's memories in SillyTavern's chat
metadata under `openvault.memories`; a stored memory has `id, event_type, summary, importance,
characters_involved, witnesses, location, is_secret, emotional_impact, relationship_impact,
message_ids, sequence, created_at, batch_id, embedding` (REFERENCE.md §3, "On disk").

A memory becomes `Document(id, title=event_type, text=summary, tags=characters_involved,
metadata)`. Metadata keeps the stored values raw and applies no defaults (the model does):
`importance` and `message_ids` are absent when the memory lacks them, and null counts as lacking,
as in the original's `memory.importance || 3` and `memory.message_ids || [0]`; `[]` stays `[]`.
A memory without an `id` is `m<i>`, its position, and where it is stays in metadata (`NO_ID`)
for the load note to name.

JSON gives no line per memory, so errors name the 1-based line on which the memory's object
starts and the field as `memories[i].summary` (i 0-based, the memory's position in the list).
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any

import numpy as np

from workbench.core.data import Corpus, Document, FormatError
from workbench.core.formats._common import (
    JSON,
    LONE_SURROGATE,
    StrPath,
    _has_lone_surrogate,
    _js_int,
    _json_type,
    free_id,
    json_error,
    json_loads,
    read_text,
)

# Stored fields kept raw in metadata (besides the checked importance, message_ids, embedding).
RAW_FIELDS = ("characters_involved", "witnesses", "location", "is_secret", "emotional_impact",
              "relationship_impact", "sequence", "created_at", "batch_id", "event_type")
NO_SUMMARY = "no_summary"  # metadata flag of a memory stored without a summary
SHARED_ID = "shared_id"  # metadata: the id a memory shares with an earlier one
NO_ID = "id_missing"  # metadata: where a memory stored without an id is ("memories[17] at …")
TEXT_IMPORTANCE = "importance_text"  # metadata: an importance stored as a numeric string
# Where a memories file may keep its list, tried in this order.
CONTAINERS: tuple[tuple[str, ...], ...] = (
    ("memories",), ("openvault", "memories"), ("chat_metadata", "openvault", "memories"))
SHAPES = ("expected a JSON list of memories, or an object with 'memories', 'openvault' "
          "or 'chat_metadata.openvault'")

_WS = " \t\n\r"
_DECODER = json.JSONDecoder(parse_int=_js_int)


def load_json(path: Path) -> tuple[str, Any]:
    """(text, value) of a JSON file; invalid JSON is a FormatError naming its line."""
    text = read_text(path)
    if not text.strip():
        raise FormatError(path, "empty file: expected a JSON list of memories", line=1,
                          field=JSON)
    try:
        value = json_loads(text, constants=True)  # the field checks name a NaN's line
    except (ValueError, RecursionError) as e:  # ValueError: past Python's 4300-digit limit
        raise json_error(path, e) from None
    if "\\u" in text and _has_lone_surrogate(value):
        raise FormatError(path, LONE_SURROGATE, line=1, field=JSON)
    return text, value


def _skip(text: str, i: int) -> int:
    while i < len(text) and text[i] in _WS:
        i += 1
    return i


def _member(text: str, i: int, key: str) -> int:
    """Offset of the value of `key` in the (valid) JSON object at offset `i`; the last one
    wins, as in json.loads."""
    i, found = _skip(text, i) + 1, -1
    while True:
        i = _skip(text, i)
        if text[i] == "}":
            return found
        name, i = _DECODER.raw_decode(text, i)
        i = _skip(text, _skip(text, i) + 1)  # past ':'
        if name == key:
            found = i
        i = _skip(text, _DECODER.raw_decode(text, i)[1])
        if text[i] == ",":
            i += 1


def _items(text: str, i: int) -> list[int]:
    """Offsets of the items of the (valid) JSON array at offset `i`."""
    out: list[int] = []
    i = _skip(text, i) + 1
    while True:
        i = _skip(text, i)
        if text[i] == "]":
            return out
        out.append(i)
        i = _skip(text, _DECODER.raw_decode(text, i)[1])
        if text[i] == ",":
            i += 1


def _lines(text: str, offsets: list[int]) -> list[int]:
    """1-based line of each (ascending) offset."""
    lines, line, last = [], 1, 0
    for off in offsets:
        line += text.count("\n", last, off)
        last = off
        lines.append(line)
    return lines


def find_memories(path: Path, text: str, value: Any) -> tuple[list[Any], list[int], int]:
    """(memories, the line each starts on, the line the list starts on) of a memories
    file's parsed `value`."""
    offset = _skip(text, 0)
    if isinstance(value, list):
        return value, _lines(text, _items(text, offset)), _lines(text, [offset])[0]
    if not isinstance(value, dict):
        raise FormatError(path, f"{SHAPES}, found {_json_type(value)}", line=1, field="memories")
    keys = next((c for c in CONTAINERS if c[0] in value), None)
    if keys is None:
        raise FormatError(path, f"{SHAPES}; found none of them", line=1, field="memories")
    for depth, key in enumerate(keys):
        where = ".".join(keys[:depth + 1])
        if key not in value:
            raise FormatError(path, "missing", line=_lines(text, [offset])[0], field=where)
        value, offset = value[key], _member(text, offset, key)
        expected = list if depth == len(keys) - 1 else dict
        if not isinstance(value, expected):
            kind = "a list" if expected is list else "an object"
            raise FormatError(path, f"expected {kind}, found {_json_type(value)}",
                              line=_lines(text, [offset])[0], field=where)
    return value, _lines(text, _items(text, offset)), _lines(text, [offset])[0]


def finite_number(value: object) -> bool:
    """A finite JSON number (not a boolean)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:  # an integer too large for a float
        return False


def whole_number(value: object) -> int | None:
    """A JSON number that is a whole number, as an int: 10 and 10.0 alike, as JavaScript
    reads them (10.0 === 10; a file written from Python floats or numpy holds 10.0); None for
    anything else (10.5, "10", true, NaN)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None


def _found(value: object) -> str:
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return "an integer too large for a float"
    return _json_type(value)


def _memory_id(obj: dict[str, Any], i: int, path: Path, line: int) -> str:
    if "id" not in obj:
        return f"m{i}"
    value = obj["id"]
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    if not isinstance(value, str):
        raise FormatError(path, f"expected a string or an integer, found {_json_type(value)}",
                          line=line, field=f"memories[{i}].id")
    if not value.strip():
        raise FormatError(path, "empty id", line=line, field=f"memories[{i}].id")
    return value


def memory_document(obj: object, i: int, path: Path, line: int) -> Document:
    """Memory number `i` (0-based), whose object starts on `line`, as a Document."""
    at = f"memories[{i}]"
    if not isinstance(obj, dict):
        raise FormatError(path, f"expected a memory object, found {_json_type(obj)}",
                          line=line, field=at)

    def bad(key: str, message: str) -> FormatError:
        return FormatError(path, message, line=line, field=f"{at}.{key}")

    # the original scores a memory without a summary as the empty text (`summary || ''`):
    # it still has its base and vector parts; such memories are marked and counted
    summary = obj.get("summary")
    metadata: dict[str, Any] = {}
    if summary is None:
        summary, metadata[NO_SUMMARY] = "", True
    elif not isinstance(summary, str):
        raise bad("summary", f"expected a string, found {_json_type(summary)}")
    importance = obj.get("importance")
    if isinstance(importance, str) and _numeric(importance):
        # JavaScript's arithmetic reads "4" as 4 (`0.05 / importance²`): so is it read here
        metadata[TEXT_IMPORTANCE], importance = importance, float(importance)
    if importance is not None:
        if not finite_number(importance):
            raise bad("importance", f"expected a finite number, found {_found(importance)}")
        metadata["importance"] = importance
    message_ids = obj.get("message_ids")
    if message_ids is not None:
        if not isinstance(message_ids, list):
            raise bad("message_ids", "expected a list of integers (message positions), found "
                      f"{_json_type(message_ids)}")
        ids = [whole_number(m) for m in message_ids]
        j = next((j for j, m in enumerate(ids) if m is None), None)
        if j is not None:
            raise bad(f"message_ids[{j}]", "expected an integer (a message position), found "
                      f"{_found(message_ids[j])}")
        metadata["message_ids"] = ids
    embedding = obj.get("embedding")
    if embedding is not None:
        if not isinstance(embedding, list) or not all(finite_number(x) for x in embedding):
            raise bad("embedding", "expected a list of finite numbers")
        # float64, exact: 100k memories × 384 as Python floats held 1.2 GB (this, 0.3 GB)
        metadata["embedding"] = np.asarray(embedding, np.float64)
    characters = obj.get("characters_involved")
    if characters is not None and (not isinstance(characters, list)
                                   or not all(isinstance(c, str) for c in characters)):
        raise bad("characters_involved", "expected a list of strings")
    event_type = obj.get("event_type")
    if event_type is not None and not isinstance(event_type, str):
        raise bad("event_type", f"expected a string, found {_json_type(event_type)}")
    for key in RAW_FIELDS:
        if key in obj:
            metadata[key] = obj[key]
    if "id" not in obj:  # loaded as m<i>: said (`load_note`), judgments must name it so
        metadata[NO_ID] = f"{at} at {path.name}:{line}"
    return Document(id=_memory_id(obj, i, path, line), title=event_type or "", text=summary,
                    tags=tuple(characters or ()), metadata=metadata)


def without_summary(corpus: Corpus) -> int:
    """How many memories had no summary (absent or null), read as the empty text."""
    return sum(1 for d in corpus if d.metadata.get(NO_SUMMARY))


_JS_NUMBER = re.compile(r"\s*[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\s*", re.ASCII)


def _numeric(text: str) -> bool:
    """A string JavaScript's arithmetic reads as a number other than 0 ("4"): `importance ||
    3` keeps any non-empty string, so "0" stays 0 there, where a number 0 becomes 3: left to
    the number check's error, as before. Python's float() takes more ("nan", "1_0")."""
    return bool(_JS_NUMBER.fullmatch(text)) and math.isfinite(float(text)) and float(text) != 0


def load_note(corpus: Corpus) -> str:
    """What the load message adds about memories OpenVault scores all the same though they
    lack something ("" when there are none)."""
    def many(n: int) -> str:
        return f"{n} memor{'y' if n == 1 else 'ies'}"

    n = without_summary(corpus)
    shared = [d for d in corpus if d.metadata.get(SHARED_ID) is not None]
    texts = [d for d in corpus if d.metadata.get(TEXT_IMPORTANCE) is not None]
    notes = [f"{many(n)} without a summary, scored as empty text (base and vector parts "
             "only), as OpenVault does"] if n else []
    if shared:
        notes.append(f"{many(len(shared))} sharing an id with an earlier one, loaded as "
                     f"{', '.join(repr(d.id) for d in shared[:3])}"
                     + (" …" if len(shared) > 3 else "")
                     + ": OpenVault's retrieval scores each, whatever its id")
    if texts:
        notes.append(f"{many(len(texts))} with an importance stored as text, read as the "
                     f"number, as JavaScript's arithmetic reads it ({texts[0].id}: "
                     f"{texts[0].metadata[TEXT_IMPORTANCE]!r})")
    unnamed = [d for d in corpus if d.metadata.get(NO_ID)]
    if len(unnamed) == 1:
        notes.append(f"{unnamed[0].metadata[NO_ID]} has no id: loaded as {unnamed[0].id!r}, "
                     "its position in the list, the id judgments must name it by")
    elif unnamed:
        notes.append(f"{many(len(unnamed))} without an id, each loaded as m and its position "
                     f"in the list, the id judgments must name it by (first: "
                     f"{unnamed[0].metadata[NO_ID]}, as {unnamed[0].id!r})")
    return "; ".join(notes)


def memories_corpus(path: Path, memories: list[Any], lines: list[int], list_line: int, *,
                    name: str, where: str = "memories") -> Corpus:
    """The memories (each starting on its line of `lines`) as a Corpus; ids must be unique
    and the list (starting on `list_line`) not empty."""
    if not memories:
        raise FormatError(path, "no memories: expected at least one", line=list_line,
                          field=where)
    docs: list[Document] = []
    seen: dict[str, int] = {}
    for i, (obj, line) in enumerate(zip(memories, lines, strict=True)):
        doc = memory_document(obj, i, path, line)
        first = seen.get(doc.id)
        if first is not None:  # a merge or a backfill: OpenVault never reads the id
            doc = Document(free_id(f"{doc.id}@{i}", seen), doc.title, doc.text, doc.tags,
                           {**doc.metadata, SHARED_ID: doc.id})
        seen[doc.id] = i
        docs.append(doc)
    return Corpus(docs, name=name)


def read_memories(path: StrPath, *, name: str | None = None) -> Corpus:
    """OpenVault memories from a .json file: a list of memories, `{"memories": [...]}`,
    `{"openvault": {"memories": [...]}}` or `{"chat_metadata": {"openvault": {...}}}`."""
    path = Path(path)
    text, value = load_json(path)
    memories, lines, list_line = find_memories(path, text, value)
    _refuse_plain_documents(path, memories, lines)
    return memories_corpus(path, memories, lines, list_line, name=name or path.stem)


# what only an OpenVault memory holds (REFERENCE §3's stored memory)
MEMORY_FIELDS = frozenset(("summary", "event_type", "importance", "message_ids",
                           "characters_involved", "witnesses", "embedding", "sequence",
                           "batch_id", "emotional_impact", "relationship_impact"))


def _refuse_plain_documents(path: Path, memories: list[Any], lines: list[int]) -> None:
    """A list of plain documents ([{"id", "title", "text"}]) in a .json file read as
    memories without a summary: every text empty, no result, said only as a note."""
    records = [m for m in memories if isinstance(m, dict)]
    if not records or any(MEMORY_FIELDS & m.keys() for m in records):
        return
    shown = ", ".join(sorted({k for m in records[:20] for k in m})[:6])
    raise FormatError(path, f"no record holds an OpenVault memory field (summary, "
                      f"importance, message_ids …; these hold {shown}): a .json file is read "
                      "as OpenVault memories — documents go in a .jsonl, .csv or .tsv file",
                      line=lines[0] if lines else None, field="summary")
