"""OpenVault readers: memories, query contexts, folders, SillyTavern chats and detection."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from workbench.core.checks import load_warnings
from workbench.core.data import FormatError
from workbench.core.formats import (
    load_dataset,
    read_contexts,
    read_memories,
    read_openvault,
    read_sillytavern_chat,
)

REPO = Path(__file__).resolve().parents[1]

FULL = {
    "id": "ev1", "event_type": "revelation", "summary": "Suzy finds the map.",
    "importance": 4, "characters_involved": ["Suzy", "Alex"], "witnesses": ["Suzy"],
    "location": "Lighthouse", "is_secret": False, "emotional_impact": {"Suzy": "hopeful"},
    "relationship_impact": {"Suzy->Alex": "trust increased"}, "message_ids": [10, 11, 12],
    "sequence": 10000, "created_at": 1741000000000, "batch_id": "batch_1", "embedding": [1, 0.5],
}


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def jsonl(path: Path, *rows: object) -> Path:
    return write(path, "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))


def msg(mes: str, *, user: bool = False, system: bool = False, name: str = "") -> dict[str, Any]:
    return {"name": name or ("Alex" if user else "Suzy"), "is_user": user, "is_system": system,
            "mes": mes}


def test_memory_fields(tmp_path: Path) -> None:
    path = write(tmp_path / "m.json", json.dumps([FULL]))
    (doc,) = read_memories(path)
    assert (doc.id, doc.title, doc.text, doc.tags) == (
        "ev1", "revelation", "Suzy finds the map.", ("Suzy", "Alex"))
    meta = dict(doc.metadata)
    assert meta["importance"] == 4 and meta["message_ids"] == [10, 11, 12]
    # float64, exact: Python floats took 4× the memory (100k × 384: 1.2 GB)
    assert meta["embedding"].dtype == np.float64 and meta["embedding"].tolist() == [1.0, 0.5]
    for key in ("characters_involved", "witnesses", "location", "is_secret", "emotional_impact",
                "relationship_impact", "sequence", "created_at", "batch_id", "event_type"):
        assert meta[key] == FULL[key], key
    assert set(meta) == set(FULL) - {"id", "summary"}


def test_memory_defaults_are_left_to_the_model(tmp_path: Path) -> None:
    path = write(tmp_path / "m.json", json.dumps([
        {"summary": "no id, no importance"},
        {"id": 7, "summary": "empty ids", "message_ids": [], "importance": 5},
        {"id": "n", "summary": "nulls", "importance": None, "message_ids": None,
         "embedding": None, "characters_involved": None, "event_type": None},
        {"summary": "float importance", "importance": 2.5}]))
    docs = read_memories(path)
    assert docs.ids == ["m0", "7", "n", "m3"]
    # no stored value, only where it is (loaded as m0: said by load_note)
    assert dict(docs[0].metadata) == {"id_missing": "memories[0] at m.json:1"}
    assert (docs[0].title, docs[0].tags) == ("", ())
    assert docs[1].metadata["message_ids"] == []  # kept: the original's distance is infinite
    assert "importance" not in docs[2].metadata and "message_ids" not in docs[2].metadata
    assert "embedding" not in docs[2].metadata
    assert docs[2].metadata["characters_involved"] is None  # raw
    assert docs[3].metadata["importance"] == 2.5


@pytest.mark.parametrize("shape", [
    lambda ms: ms,
    lambda ms: {"memories": ms},
    lambda ms: {"openvault": {"memories": ms, "character_states": {}}},
    lambda ms: {"chat_metadata": {"openvault": {"memories": ms, "processed_message_ids": []}}},
])
def test_memory_file_shapes(tmp_path: Path, shape: Any) -> None:
    path = write(tmp_path / "m.json", json.dumps(shape([FULL, {"id": "b", "summary": "b"}]),
                                                 indent=2))
    assert read_memories(path).ids == ["ev1", "b"]


def test_contexts(tmp_path: Path) -> None:
    path = jsonl(tmp_path / "contexts.jsonl",
                 {"_id": "c1", "messages": [msg("hi", user=True), msg("hello"),
                                            msg("where is Orrin?", user=True),
                                            msg("(ooc note)", user=True, system=True),
                                            msg("at the lighthouse")],
                  "chatLength": 120, "activeCharacters": ["Suzy", "Alex"],
                  "embedding": [0, 1]},
                 {"id": "c2", "messages": [{"message": "old key", "is_user": True},
                                           {"mes": "", "message": "empty mes falls back"},
                                           {"mes": "mes wins", "message": "not this"}]},
                 {"_id": "c3", "messages": [msg("no user message here")]})
    c1, c2, c3 = read_contexts(path)
    assert c1.text == "where is Orrin?"  # newest non-system user message
    assert c1.context["chat_length"] == 120
    assert c1.context["active_characters"] == ["Suzy", "Alex"]
    assert c1.context["embedding"].tolist() == [0.0, 1.0]
    assert c1.context["messages"][0]["mes"] == "hi"  # oldest first
    assert c1.context["messages"][3] == {"name": "Alex", "is_user": True, "is_system": True,
                                         "mes": "(ooc note)"}
    assert c2.text == "old key"
    assert [m["mes"] for m in c2.context["messages"]] == [
        "old key", "empty mes falls back", "mes wins"]
    assert c2.context["messages"][1] == {"name": "", "is_user": False, "is_system": False,
                                         "mes": "empty mes falls back"}
    assert c2.context["chat_length"] == 3  # defaults to the message count
    assert c2.context["active_characters"] == [] and "embedding" not in c2.context
    assert c3.text == ""


def openvault_folder(root: Path) -> Path:
    write(root / "memories.json", json.dumps([FULL, {"id": "b", "summary": "b"}]))
    jsonl(root / "contexts.jsonl",
          {"_id": "c1", "messages": [msg("map?", user=True)]},
          {"_id": "c2", "messages": [msg("b?", user=True)]},
          {"_id": "c3", "messages": [msg("unjudged", user=True)]})
    write(root / "qrels" / "test.tsv", "query-id\tcorpus-id\tscore\nc1\tev1\t3\nc2\tb\t2\n"
          "c2\tev1\t0\n")
    write(root / "README.md", "# not a note\n")
    return root


def test_read_openvault_folder(tmp_path: Path) -> None:
    root = openvault_folder(tmp_path / "story")
    ds = read_openvault(root)
    assert (ds.name, ds.corpus.ids, ds.queries.ids) == ("story", ["ev1", "b"], ["c1", "c2"])
    assert ds.qrels == {"c1": {"ev1": 3}, "c2": {"b": 2, "ev1": 0}}
    # README.md beside memories.json does not make it a markdown vault
    assert load_dataset(root).qrels == ds.qrels
    (root / "qrels" / "test.tsv").unlink()
    assert load_dataset(root).queries.ids == ["c1", "c2", "c3"]


def test_folder_overrides(tmp_path: Path) -> None:
    root = openvault_folder(tmp_path / "story")
    other = jsonl(tmp_path / "other.jsonl", {"_id": "x", "messages": [msg("b", user=True)]})
    qrels = write(tmp_path / "j.tsv", "c3\tb\t1\n")
    ds = load_dataset(root, queries=other)
    assert ds.queries.ids == ["x"] and ds.qrels is None
    # judgments alone judge the folder's own contexts
    ds = load_dataset(root, qrels=qrels)
    assert ds.queries.ids == ["c3"] and ds.qrels == {"c3": {"b": 1}}


def test_memories_file_with_contexts(tmp_path: Path) -> None:
    mem = write(tmp_path / "vault.json", json.dumps({"memories": [FULL]}))
    ds = load_dataset(mem)
    assert (ds.name, ds.corpus.ids, len(ds.queries)) == ("vault", ["ev1"], 0)
    ctx = jsonl(tmp_path / "ctx.jsonl", {"_id": "c", "messages": [msg("q", user=True)],
                                         "chatLength": 50})
    ds = load_dataset(mem, queries=ctx, qrels=write(tmp_path / "j.tsv", "c\tev1\t2\n"))
    assert ds.queries[0].context["chat_length"] == 50 and ds.qrels == {"c": {"ev1": 2}}


def chat_file(path: Path, memories: list[Any]) -> Path:
    header = {"user_name": "Alex", "character_name": "Suzy", "create_date": "2025-03-02",
              "chat_metadata": {"note_prompt": "", "openvault": {
                  "memories": memories, "character_states": {},
                  "last_processed_message_id": 3, "processed_message_ids": [0, 1, 2, 3]}}}
    extra = {"send_date": "March 2, 2025 9:14pm", "extra": {}, "swipes": ["x"], "swipe_id": 0}
    return jsonl(path, header,
                 {**msg("Hello, Suzy.", user=True), **extra},
                 {**msg("Hi! Want tea?"), **extra},
                 {**msg("Tell me about Orrin.", user=True), **extra},
                 {**msg("[hidden]", system=True), **extra},
                 {"name": "Suzy", "is_user": False, "message": "He keeps the light."})


def test_sillytavern_chat(tmp_path: Path) -> None:
    path = chat_file(tmp_path / "Suzy - 2025-03-02.jsonl", [FULL, {"summary": "second"}])
    for ds in (read_sillytavern_chat(path), load_dataset(path)):
        assert ds.corpus.ids == ["ev1", "m1"] and ds.qrels is None
        (query,) = ds.queries
        assert (query.id, query.text) == ("chat", "Tell me about Orrin.")
        assert query.context["chat_length"] == 5
        assert query.context["active_characters"] == ["Suzy", "Alex"]
        assert [m["mes"] for m in query.context["messages"]] == [
            "Hello, Suzy.", "Hi! Want tea?", "Tell me about Orrin.", "[hidden]",
            "He keeps the light."]
    ds = load_dataset(path, qrels=write(tmp_path / "j.tsv", "chat\tm1\t2\n"))
    assert ds.queries.ids == ["chat"] and ds.qrels == {"chat": {"m1": 2}}


def test_a_chat_scores_the_memories_openvault_retrieves(tmp_path: Path) -> None:
    """OpenVault's retrieval scores only memories whose earliest message is hidden (REFERENCE
    §3, "On disk"): the chat's corpus is that batch, the others are named in a warning; where
    none qualifies every memory is kept and the warning says so."""
    memories = [{"id": "hid", "summary": "Orrin keeps the light", "message_ids": [3]},
                {"id": "vis", "summary": "Orrin Orrin", "message_ids": [2]},
                {"id": "mixed", "summary": "tea with Orrin", "message_ids": [3, 0]},
                {"id": "none", "summary": "no ids"},
                {"id": "empty", "summary": "no ids either", "message_ids": []},
                {"id": "gone", "summary": "a deleted message", "message_ids": [7]},
                {"id": "neg", "summary": "a bad position", "message_ids": [-2]}]
    path = chat_file(tmp_path / "c.jsonl", memories)  # message 3 is the hidden one
    ds = load_dataset(path)
    assert ds.corpus.ids == ["hid"]
    (warning,) = load_warnings(ds)
    assert warning.startswith("6 memories left out (vis, mixed, none, … 3 more)")
    assert "visible" in warning
    assert read_sillytavern_chat(path).corpus.ids == ["hid"]
    none_hidden = chat_file(tmp_path / "v.jsonl", [memories[1], memories[3]])
    ds = load_dataset(none_hidden)
    assert ds.corpus.ids == ["vis", "none"]
    (warning,) = load_warnings(ds)
    assert "OpenVault would retrieve none" in warning


def test_plain_documents_jsonl_still_documents(tmp_path: Path) -> None:
    docs = jsonl(tmp_path / "docs.jsonl", {"id": "a", "text": "chat_metadata is a word here"})
    assert load_dataset(docs).corpus.ids == ["a"]


def test_unknown_inputs_name_the_new_formats(tmp_path: Path) -> None:
    with pytest.raises(FormatError, match="OpenVault folder") as info:
        load_dataset(tmp_path)
    assert "SillyTavern chat" in str(info.value)
    no_contexts = openvault_folder(tmp_path / "s")
    (no_contexts / "contexts.jsonl").unlink()
    with pytest.raises(FormatError, match=r"no contexts\.jsonl"):
        read_openvault(no_contexts)
    with pytest.raises(FormatError, match=r"no memories\.json"):
        read_openvault(tmp_path)
    root = openvault_folder(tmp_path / "t")
    with pytest.raises(FormatError, match=r"no qrels/dev.tsv \(splits here: test\)"):
        read_openvault(root, split="dev")


def test_sample_story_corpus() -> None:
    folder = REPO / "sample_corpora" / "story"
    if not (folder / "memories.json").is_file():
        pytest.skip("no story sample")
    ds = load_dataset(folder)
    assert ds.qrels is not None and len(ds.corpus) >= 100
    assert set(ds.qrels) == set(ds.queries.ids)
    for qid, judged in ds.qrels.items():
        assert set(judged) <= set(ds.corpus.ids), qid
        assert max(judged.values()) >= 2, qid
    assert all("embedding" not in d.metadata for d in ds.corpus)
    assert sum(d.metadata.get("message_ids") == [] for d in ds.corpus) >= 2
