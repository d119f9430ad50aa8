"""JSON that does not parse is one line: `file:line: invalid JSON at column N: <the parser's
message, whole>` (review C, F9). It read `field 'json': invalid JSON (Unterminated string
starting at, column 25)`: Python's "starting at" cut from its position, and a field the file
does not have."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workbench.core.data import FormatError
from workbench.core.formats.beir import read_corpus_jsonl
from workbench.core.formats.openvault import read_sillytavern_chat
from workbench.core.formats.openvault_memories import read_memories

HEADER = {"chat_metadata": {"openvault": {"memories": [
    {"id": "m1", "summary": "a", "message_ids": [0]}]}}}


def _error(reader: object, path: Path) -> str:
    with pytest.raises(FormatError) as info:
        reader(path)  # type: ignore[operator]
    return str(info.value)


def test_an_unterminated_string_in_a_chat(tmp_path: Path) -> None:
    # the reviewer's st/bad_line.jsonl: line 6 opens a string at column 25 and never ends it
    path = tmp_path / "chat.jsonl"
    good = json.dumps({"name": "A", "is_user": True, "mes": "hi"})
    path.write_text("\n".join([json.dumps(HEADER), good, good, good, good,
                               '{"name": "A", "mes": "never closed']) + "\n", encoding="utf-8")
    # counted by hand: {"name": "A", "mes": "  — the opening quote is the 22nd character
    assert _error(read_sillytavern_chat, path) == (
        f"{path}:6: invalid JSON at column 22: Unterminated string starting at column 22")


def test_a_corpus_line_names_no_field(tmp_path: Path) -> None:
    path = tmp_path / "corpus.jsonl"
    path.write_text('{"_id": "a", "text": "ok"}\n{"_id": "b", "text": }\n', encoding="utf-8")
    # column 22: the "}" where a value was expected
    assert _error(read_corpus_jsonl, path) == (
        f"{path}:2: invalid JSON at column 22: Expecting value")


def test_a_memories_file_counts_its_own_lines(tmp_path: Path) -> None:
    path = tmp_path / "memories.json"
    path.write_text('[\n  {"summary": "a"}\n  {"summary": "b"}\n]\n', encoding="utf-8")
    # line 3, column 3: the second object where a comma or "]" was expected
    assert _error(read_memories, path) == (
        f"{path}:3: invalid JSON at column 3: Expecting ',' delimiter")
