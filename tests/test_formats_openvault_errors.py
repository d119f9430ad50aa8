"""Malformed OpenVault input: one FormatError naming the file, the line and the field."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path

import pytest

from workbench.core.data import FormatError
from workbench.core.formats import (
    load_dataset,
    read_contexts,
    read_memories,
    read_openvault,
    read_sillytavern_chat,
)


def named(field: str) -> str:
    """How an error names its field: "json" (the JSON's own syntax) is no field to name."""
    return "" if field == "json" else f"field '{field}': "


def raises(reader: Callable[[Path], object], path: Path, line: int, field: str,
           fragment: str = "") -> FormatError:
    with pytest.raises(FormatError) as info:
        reader(path)
    err, msg = info.value, str(info.value)
    assert msg.startswith(f"{path}:{line}: {named(field)}"), msg
    assert (err.path, err.line, err.field) == (str(path), line, field)
    assert fragment in msg, msg
    return err


# --- memories.json -------------------------------------------------------------------------

TWO = '[\n  {"id": "a", "summary": "ok"},\n\n  {"id": "b",\n   %s}\n]\n'
"""Memory 1 starts on line 4 (a blank line 3 in between)."""

@pytest.mark.parametrize(("body", "field", "fragment"), [
    ('"summary": ["x"]', "memories[1].summary", "found a list"),
    ('"summary": "x", "importance": "high"', "memories[1].importance", "found a string"),
    ('"summary": "x", "importance": true', "memories[1].importance", "found a boolean"),
    ('"summary": "x", "importance": NaN', "memories[1].importance", "found nan"),
    ('"summary": "x", "importance": 1e999', "memories[1].importance", "found inf"),
    ('"summary": "x", "message_ids": 4', "memories[1].message_ids", "list of integers"),
    # 2.0 is 2, as JavaScript reads it (test_formats_openvault_floats); 2.5 is no position
    ('"summary": "x", "message_ids": [1, 2.5]', "memories[1].message_ids[1]", "found 2.5"),
    ('"summary": "x", "message_ids": [true]', "memories[1].message_ids[0]", "found a boolean"),
    ('"summary": "x", "embedding": "AAAA"', "memories[1].embedding", "list of finite numbers"),
    ('"summary": "x", "embedding": [0.1, "2"]', "memories[1].embedding", "finite numbers"),
    ('"summary": "x", "embedding": [0.1, Infinity]', "memories[1].embedding", "finite"),
    ('"summary": "x", "characters_involved": "Suzy"', "memories[1].characters_involved",
     "list of strings"),
    ('"summary": "x", "event_type": 3', "memories[1].event_type", "found a number"),
])
def test_memory_field_errors(tmp_path: Path, body: str, field: str, fragment: str) -> None:
    path = tmp_path / "memories.json"
    path.write_text(TWO % body, encoding="utf-8")
    raises(read_memories, path, 4, field, fragment)


@pytest.mark.parametrize(("ident", "fragment"), [
    ("true", "found a boolean"), ("1.5", "found a number"), ('"  "', "empty id"),
    ("null", "found null"),
])
def test_memory_id_errors(tmp_path: Path, ident: str, fragment: str) -> None:
    path = tmp_path / "memories.json"
    path.write_text(TWO.replace('"id": "b"', f'"id": {ident}') % '"summary": "x"',
                    encoding="utf-8")
    raises(read_memories, path, 4, "memories[1].id", fragment)


def test_a_shared_id_loads_both_memories_as_openvault_scores_both(tmp_path: Path) -> None:
    """OpenVault's retrieval never reads an id: a merged or backfilled chat with one id
    twice (or a position-made id that collides) could not be opened at all."""
    from workbench.core.formats.openvault_memories import load_note

    path = tmp_path / "m.json"
    path.write_text('[{"id": "m1", "summary": "a"},\n {"summary": "b"},\n'
                    ' {"id": "m1", "summary": "c", "importance": "4"}]', encoding="utf-8")
    corpus = read_memories(path)
    assert corpus.ids == ["m1", "m1@1", "m1@2"]
    assert corpus[2].metadata["importance"] == 4.0  # "4" as JavaScript's arithmetic reads it
    note = load_note(corpus)
    assert "2 memories sharing an id with an earlier one, loaded as 'm1@1', 'm1@2'" in note
    assert "importance stored as text, read as the number" in note and "m1@2: '4'" in note
    # "0" (JavaScript keeps the string, where a number 0 becomes 3), "nan", "1_0": refused
    for text in ('"0"', '"nan"', '"1_0"'):
        path.write_text(f'[{{"summary": "a", "importance": {text}}}]', encoding="utf-8")
        with pytest.raises(FormatError, match="importance"):
            read_memories(path)


def test_memory_not_an_object(tmp_path: Path) -> None:
    path = tmp_path / "m.json"
    path.write_text('[\n{"summary": "a"},\n"just text"\n]', encoding="utf-8")
    raises(read_memories, path, 3, "memories[1]", "expected a memory object, found a string")


def test_lines_survive_strings_that_look_like_json(tmp_path: Path) -> None:
    path = tmp_path / "m.json"
    path.write_text('{"memories": [{"summary": "a { [ \\" ] },\\n"}, {"summary": "}"},\n'
                    '\n {"summary": 5}]}', encoding="utf-8")
    raises(read_memories, path, 3, "memories[2].summary")


def test_duplicate_container_key_last_wins_as_in_json(tmp_path: Path) -> None:
    path = tmp_path / "m.json"
    path.write_text('{"memories": [{"summary": 1}],\n "memories": [\n{"summary": "ok"},\n'
                    '{"summary": 2}]}', encoding="utf-8")
    raises(read_memories, path, 4, "memories[1].summary")


@pytest.mark.parametrize(("text", "line", "field", "fragment"), [
    ("", 1, "json", "empty file"),
    ("[\n{\"summary\": \"a\"},\n]", 3, "json", "invalid JSON"),
    ('"memories"', 1, "memories", "found a string"),
    ('{"events": []}', 1, "memories", "found none of them"),
    ("[\n]", 1, "memories", "no memories"),
    ('{\n"memories":\n {}}', 3, "memories", "expected a list, found an object"),
    ('{"openvault": []}', 1, "openvault", "expected an object, found a list"),
    ('{"openvault":\n {"character_states": {}}}', 2, "openvault.memories", "missing"),
    ('{"chat_metadata": {"openvault": {\n"memories": "none"}}}', 2,
     "chat_metadata.openvault.memories", "found a string"),
    ('[{"summary": "\\ud800"}]', 1, "json", "surrogate"),
    # an integer past the float range reads as JSON.parse reads it (Infinity): the field says so
    ('[{"summary": "x", "importance": 1' + "0" * 5000 + "}]", 1, "memories[0].importance",
     "expected a finite number"),
])
def test_memory_file_errors(tmp_path: Path, text: str, line: int, field: str,
                            fragment: str) -> None:
    path = tmp_path / "m.json"
    path.write_text(text, encoding="utf-8")
    raises(read_memories, path, line, field, fragment)


def test_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "m.json"
    path.write_bytes(b'[\n{"summary": "caf\xe9"}]')
    raises(read_memories, path, 2, "encoding", "not UTF-8")


# --- contexts.jsonl ------------------------------------------------------------------------

OK = {"_id": "ok", "messages": [{"mes": "hi", "is_user": True}]}


@pytest.mark.parametrize(("row", "field", "fragment"), [
    ({"messages": []}, "_id", "missing"),
    ({"_id": "a", "id": "b", "messages": []}, "_id", "keep one"),
    ({"_id": "ok", "messages": []}, "_id", "duplicate id 'ok' (first on line 1)"),
    ({"_id": "c"}, "messages", "missing"),
    ({"_id": "c", "messages": "hi"}, "messages", "found a string"),
    ({"_id": "c", "messages": [{"mes": "a"}, "b"]}, "messages[1]", "found a string"),
    ({"_id": "c", "messages": [{"name": "Suzy"}]}, "messages[0].mes", "'mes', else 'message'"),
    ({"_id": "c", "messages": [{"mes": 5}]}, "messages[0].mes", "found a number"),
    ({"_id": "c", "messages": [{"message": ["x"]}]}, "messages[0].message", "found a list"),
    ({"_id": "c", "messages": [{"mes": "a", "is_user": "yes"}]}, "messages[0].is_user",
     "true or false"),
    ({"_id": "c", "messages": [{"mes": "a", "is_system": 1}]}, "messages[0].is_system",
     "true or false"),
    ({"_id": "c", "messages": [{"mes": "a", "name": 3}]}, "messages[0].name", "a string"),
    ({"_id": "c", "messages": [], "chatLength": -1}, "chatLength", "found -1"),
    ({"_id": "c", "messages": [], "chatLength": 12.5}, "chatLength", "found 12.5"),
    ({"_id": "c", "messages": [], "chatLength": "12"}, "chatLength", "found a string"),
    ({"_id": "c", "messages": [], "chatLength": True}, "chatLength", "integer"),
    ({"_id": "c", "messages": [], "activeCharacters": "Suzy"}, "activeCharacters",
     "list of character names"),
    ({"_id": "c", "messages": [], "embedding": [1, None]}, "embedding", "finite numbers"),
])
def test_context_errors(tmp_path: Path, row: dict[str, object], field: str,
                        fragment: str) -> None:
    path = tmp_path / "contexts.jsonl"
    path.write_text(json.dumps(OK) + "\n\n" + json.dumps(row) + "\n", encoding="utf-8")
    raises(read_contexts, path, 3, field, fragment)


@pytest.mark.parametrize(("text", "line", "field", "fragment"), [
    ("\n\n", 1, "_id", "empty file"),
    (json.dumps(OK) + "\n{oops\n", 2, "json", "invalid JSON"),
    ("[1, 2]\n", 1, "json", "expected a JSON object"),
])
def test_context_file_errors(tmp_path: Path, text: str, line: int, field: str,
                             fragment: str) -> None:
    path = tmp_path / "contexts.jsonl"
    path.write_text(text, encoding="utf-8")
    raises(read_contexts, path, line, field, fragment)


# --- SillyTavern chats ---------------------------------------------------------------------

def chat(path: Path, header: object, *messages: object) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in (header, *messages)),
                    encoding="utf-8")
    return path


def vault(memories: object) -> dict[str, object]:
    return {"user_name": "Alex", "character_name": "Suzy",
            "chat_metadata": {"openvault": {"memories": memories}}}


@pytest.mark.parametrize(("header", "field", "fragment"), [
    ({"user_name": "Alex"}, "chat_metadata", "not a SillyTavern chat"),
    ({"chat_metadata": []}, "chat_metadata", "expected an object, found a list"),
    ({"chat_metadata": {"note": 1}}, "chat_metadata.openvault", "no OpenVault memories"),
    ({"chat_metadata": {"openvault": "x"}}, "chat_metadata.openvault", "found a string"),
    ({"chat_metadata": {"openvault": {}}}, "chat_metadata.openvault.memories", "missing"),
    (vault({"a": 1}), "chat_metadata.openvault.memories", "expected a list"),
    (vault([]), "chat_metadata.openvault.memories", "no memories"),
    (vault([{"summary": "a"}, {"summary": 7}]), "memories[1].summary", "found a number"),
    ({**vault([{"summary": "a"}]), "user_name": 7}, "user_name", "expected a string"),
])
def test_chat_header_errors(tmp_path: Path, header: object, field: str,
                            fragment: str) -> None:
    path = chat(tmp_path / "c.jsonl", header, {"mes": "hi", "is_user": True})
    raises(read_sillytavern_chat, path, 1, field, fragment)


def test_chat_message_errors(tmp_path: Path) -> None:
    path = chat(tmp_path / "c.jsonl", vault([{"summary": "a"}]), {"mes": "hi"},
                {"name": "Suzy", "is_user": "false", "mes": "x"})
    raises(read_sillytavern_chat, path, 3, "is_user", "true or false")
    path = chat(tmp_path / "c.jsonl", vault([{"summary": "a"}]), {"name": "Suzy"})
    raises(read_sillytavern_chat, path, 2, "mes", "missing")
    path.write_text("\n", encoding="utf-8")
    raises(read_sillytavern_chat, path, 1, "chat_metadata", "empty file")


def test_chat_detection_needs_chat_metadata(tmp_path: Path) -> None:
    """A .jsonl without chat_metadata on its first line is read as documents."""
    path = chat(tmp_path / "c.jsonl", {"id": "a", "mes": "no text"})
    raises(load_dataset, path, 1, "text", "missing")


def test_broken_memories_through_load_dataset(tmp_path: Path) -> None:
    path = tmp_path / "m.json"
    path.write_text('[{"summary": 1}]', encoding="utf-8")
    raises(load_dataset, path, 1, "memories[0].summary")
    folder = tmp_path / "f"
    folder.mkdir()
    (folder / "memories.json").write_text('[{"summary": "a"}]', encoding="utf-8")
    (folder / "contexts.jsonl").write_text('{"_id": "c", "messages": 1}\n', encoding="utf-8")
    with pytest.raises(FormatError, match=r"contexts\.jsonl:1: field 'messages'"):
        read_openvault(folder)


# --- whatever the bytes --------------------------------------------------------------------

PIECES = ['{', '}', '"', ':', ',', '[', ']', '\n', '\r\n', ' ', '"summary"', '"memories"',
          '"openvault"', '"chat_metadata"', '"messages"', '"mes"', '"message"', '"_id"', '"id"',
          '"importance"', '"message_ids"', '"embedding"', '"is_user"', '"chatLength"', '1',
          '-', '1.5', 'NaN', 'null', 'true', '"x"', '"é"', '\\ud800', '\ufeff', '1e999']

READERS: dict[str, Callable[[Path], object]] = {
    "memories.json": read_memories,
    "contexts.jsonl": read_contexts,
    "chat.jsonl": read_sillytavern_chat,
    "auto.jsonl": load_dataset,
    "auto.json": load_dataset,
}


VALID = {
    "memories.json": json.dumps({"chat_metadata": {"openvault": {"memories": [
        {"id": "a", "summary": "x", "importance": 3, "message_ids": [1], "embedding": [0.5]},
        {"summary": "y", "characters_involved": ["Suzy"]}]}}}, indent=1),
    "contexts.jsonl": json.dumps({"_id": "c", "messages": [{"mes": "a", "is_user": True}],
                                  "chatLength": 3, "activeCharacters": ["S"]}) + "\n",
    "chat.jsonl": json.dumps(vault([{"summary": "a"}])) + "\n"
                  + json.dumps({"name": "S", "is_user": False, "mes": "b"}) + "\n",
}
VALID["auto.jsonl"] = VALID["chat.jsonl"]
VALID["auto.json"] = VALID["memories.json"]


@pytest.mark.parametrize("name", list(READERS))
def test_random_input_raises_only_format_errors(tmp_path: Path, name: str) -> None:
    """Random pieces, and valid files with random pieces spliced in."""
    rnd = random.Random(name)
    path = tmp_path / name
    for k in range(300):
        text = "".join(rnd.choice(PIECES) for _ in range(rnd.randint(0, 40)))
        if k % 2:
            valid = VALID[name]
            at = rnd.randint(0, len(valid))
            text = valid[:at] + text[:rnd.randint(0, 3)] + valid[at + rnd.randint(0, 3):]
        data = text.encode("utf-8")
        if rnd.random() < 0.1:
            data += b"\xff"
        path.write_bytes(data)
        try:
            READERS[name](path)
        except FormatError as e:
            assert e.field, str(e)
            assert e.line is not None, str(e)


def test_a_json_list_of_plain_documents_is_refused_not_read_as_empty_memories(
        tmp_path: Path) -> None:
    # [{"id", "title", "text"}] loaded as memories without a summary: every text empty, no
    # result, said only as "300 memories without a summary"
    from workbench.core.data import FormatError
    from workbench.core.formats import load_dataset

    docs = tmp_path / "docs.json"
    docs.write_text(json.dumps([{"id": "d1", "title": "Tea", "text": "green tea"},
                                {"id": "d2", "title": "Coffee", "text": "dark roast"}]))
    with pytest.raises(FormatError, match=r"docs\.json:1: field 'summary': no record holds an "
                                          r"OpenVault memory field .*these hold id, text, "
                                          r"title.*documents go in a \.jsonl, \.csv or \.tsv"):
        load_dataset(docs)
    # a memory without a summary among others is still a memory (said by its own note)
    docs.write_text(json.dumps([{"id": "m1", "summary": "tea", "importance": 3},
                                {"id": "m2", "importance": 2}]))
    assert load_dataset(docs).corpus.ids == ["m1", "m2"]
