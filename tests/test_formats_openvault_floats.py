"""OpenVault (JavaScript) reads 50.0 as 50: a chat length or message ids written as integral
floats (by Python's json from floats, by pandas or numpy) load as those integers; a fraction
is refused with the element and the value named (review C, F10)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workbench.core.data import FormatError
from workbench.core.formats.openvault import read_sillytavern_chat
from workbench.core.formats.openvault_contexts import read_contexts
from workbench.core.formats.openvault_memories import read_memories


def _memories(tmp_path: Path, message_ids: object) -> Path:
    path = tmp_path / "memories.json"
    path.write_text(json.dumps([{"id": "m1", "summary": "a", "message_ids": [3]},
                                {"id": "m2", "summary": "b", "message_ids": message_ids}]),
                    encoding="utf-8")
    return path


def test_integral_float_message_ids_are_integers(tmp_path: Path) -> None:
    corpus = read_memories(_memories(tmp_path, [10.0, 11.0]))
    ids = corpus[1].metadata["message_ids"]
    assert ids == [10, 11] and all(type(i) is int for i in ids)


@pytest.mark.parametrize(("ids", "found"), [
    ([10, 11.5], "found 11.5"), ([10, "11"], "found a string"), ([True], "found a boolean"),
])
def test_a_message_id_that_is_no_integer_is_named_with_its_value(
        tmp_path: Path, ids: list[object], found: str) -> None:
    path = _memories(tmp_path, ids)
    with pytest.raises(FormatError) as info:
        read_memories(path)
    j = len(ids) - 1  # the last element is the bad one
    assert str(info.value) == (f"{path}:1: field 'memories[1].message_ids[{j}]': expected an "
                               f"integer (a message position), {found}")


def test_message_ids_that_are_no_list_say_what_they_are(tmp_path: Path) -> None:
    path = _memories(tmp_path, "10")
    with pytest.raises(FormatError, match=r"field 'memories\[1\]\.message_ids': expected a "
                                          r"list of integers \(message positions\), found a "
                                          r"string"):
        read_memories(path)


def test_an_integral_float_chat_length_is_that_count(tmp_path: Path) -> None:
    path = tmp_path / "contexts.jsonl"
    rows = [{"_id": "c1", "messages": [], "chatLength": 50.0},
            {"_id": "c2", "messages": [], "chatLength": 50}]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    lengths = [q.context["chat_length"] for q in read_contexts(path)]
    assert lengths == [50, 50] and type(lengths[0]) is int
    path.write_text(json.dumps({"_id": "c1", "messages": [], "chatLength": 50.5}) + "\n",
                    encoding="utf-8")
    with pytest.raises(FormatError, match=r"chatLength': expected a message count \(an integer "
                                          r">= 0\), found 50.5"):
        read_contexts(path)


def test_a_chat_reads_its_memories_float_ids_as_positions(tmp_path: Path) -> None:
    # message 1 is hidden: the memory on it (written [1.0]) is the one OpenVault retrieves
    header = {"chat_metadata": {"openvault": {"memories": [
        {"id": "m1", "summary": "old", "message_ids": [1.0]},
        {"id": "m2", "summary": "new", "message_ids": [2.0]}]}}}
    messages = [{"is_user": True, "mes": "a"}, {"is_user": False, "is_system": True,
                                                "mes": "b"}, {"is_user": True, "mes": "c"}]
    path = tmp_path / "chat.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in (header, *messages)),
                    encoding="utf-8")
    assert read_sillytavern_chat(path).corpus.ids == ["m1"]
