"""With embeddings=stored the hybrid model embeds nothing: the encoder's settings (model,
prompts, batch size) and the four that build the embedding query are idle. They are declared
so (`needs`), so the window greys them, tune leaves them out, changing one asks for no new
preparation, and the command line says that a value given for one changes nothing (review
C, F5). And stored vectors that OpenVault scores cosine 0 though present (another length,
all zeros, empty) are counted in a note (F11)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workbench.core.formats.openvault import read_openvault
from workbench.core.models import get_model
from workbench.core.models.hybrid.params import SCHEMA
from workbench.core.session import TuningSession
from workbench.core.tuning.space import idle_names

# the reviewer's list: Embedding model, Query prompt, Document prompt, Batch size and the four
# "Embedding …" query settings
ENCODER_ONLY = ("embedding_model", "query_prompt", "document_prompt", "batch_size",
                "embedding_lines", "embedding_window", "embedding_entities", "embedding_chars")


def test_the_encoder_settings_are_idle_under_stored_embeddings_only() -> None:
    stored = SCHEMA.resolve({"embeddings": "stored"})
    encoder = SCHEMA.resolve({})
    for name in ENCODER_ONLY:
        assert SCHEMA.idle_because(name, stored) == "Embeddings is stored", name
        assert SCHEMA.idle_because(name, encoder) == "", name
    # the BM25 query's settings and the candidates still act with stored vectors
    for name in ("user_messages", "user_chars", "vector_candidates", "fields"):
        assert SCHEMA.idle_because(name, stored) == "", name
    # a search naming them leaves them out, saying why
    assert idle_names(SCHEMA, ["embedding_chars", "alpha"], stored) == {
        "embedding_chars": "no effect while Embeddings is stored"}


def test_changing_one_under_stored_embeddings_asks_for_no_new_preparation(tmp_path: Path) -> None:
    s = TuningSession()
    s.open(folder_with_vectors(tmp_path))
    s.set_model("hybrid", {"embeddings": "stored"})
    s.recompute()
    assert not s.needs_prepare
    s.set_params({"embedding_model": "no-such-model", "query_prompt": "foo",
                  "embedding_chars": 10})
    assert not s.needs_prepare  # no "Re-embed" offered for what changes nothing
    s.set_params({"user_chars": 10})  # a setting that acts: a new preparation
    assert s.needs_prepare


def test_under_the_encoder_the_same_change_does_ask_for_one() -> None:
    values = SCHEMA.resolve({})
    moved = SCHEMA.resolve({"embedding_model": "other"})
    assert SCHEMA.prepare_values(values) != SCHEMA.prepare_values(moved)
    stored = SCHEMA.resolve({"embeddings": "stored"})
    assert SCHEMA.prepare_values(stored) == SCHEMA.prepare_values(
        {**stored, "embedding_model": "other", "batch_size": 3})


def test_the_command_line_notes_a_value_given_to_an_idle_setting(tmp_path: Path) -> None:
    ds = read_openvault(folder_with_vectors(tmp_path))
    model = get_model("hybrid")
    params = SCHEMA.resolve({"embeddings": "stored", "embedding_model": "nonexistent-model",
                             "query_prompt": "foo"})
    assert model.data_warnings(ds, params) == [
        "embedding_model=nonexistent-model, query_prompt=foo: no effect while Embeddings is "
        "stored (the stored vectors are used as they are)"]
    assert model.data_warnings(ds, SCHEMA.resolve({"embeddings": "stored"})) == []


def folder_with_vectors(folder: Path,
                        vectors: tuple[list[float], ...] = ([1, 0, 0], [0, 1, 0]),
                        query: list[float] | None = None) -> Path:
    """An OpenVault folder of memories with these stored vectors and one context."""
    memories = [{"id": f"m{i}", "summary": f"brass lamp number {i}", "importance": 3,
                 "message_ids": [i], "embedding": v} for i, v in enumerate(vectors)]
    (folder / "memories.json").write_text(json.dumps(memories), encoding="utf-8")
    context = {"_id": "c1", "messages": [{"is_user": True, "mes": "brass lamp"}],
               "chatLength": 5, "embedding": query if query is not None else [0.9, 0.1, 0.4]}
    (folder / "contexts.jsonl").write_text(json.dumps(context) + "\n", encoding="utf-8")
    return folder


def test_stored_vectors_that_score_cosine_0_are_counted(tmp_path: Path) -> None:
    # the reviewer's ov3: m1 2-d against a 3-d query, m2 all zeros, m3 empty
    folder = folder_with_vectors(tmp_path, ([1, 0], [0, 0, 0], [], [0.8, 0, 0.6],
                                           [0.5, 0.5, 0.5]))
    notes = get_model("hybrid").data_warnings(read_openvault(folder),
                                              SCHEMA.resolve({"embeddings": "stored"}))
    assert notes == [
        "2 memories' embeddings differ from the query's 3 dimensions (m0: 2, m2: 0): cosine "
        "0, as OpenVault (embedded by another model?)",
        "1 memory's embedding is all zeros (m1): cosine 0, as OpenVault"]


def test_a_query_vector_of_zeros_is_counted_too(tmp_path: Path) -> None:
    folder = folder_with_vectors(tmp_path, query=[0, 0, 0])
    notes = get_model("hybrid").data_warnings(read_openvault(folder),
                                              SCHEMA.resolve({"embeddings": "stored"}))
    assert notes == ["1 query's embedding is empty or all zeros (c1): cosine 0 with every "
                     "memory, as OpenVault"]


def test_a_query_of_another_length_than_the_memories_is_said_by_eval(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """ra 2: memories and one context 3-dimensional, another context 4: eval scored that one
    with no vector part and said nothing (rank, on it alone, warned)."""
    from workbench.cli import main

    folder = folder_with_vectors(tmp_path, ([1, 0, 0], [0, 1, 0], [0.5, 0.5, 0]))
    other = {"_id": "c2", "messages": [{"is_user": True, "mes": "brass lamp"}],
             "chatLength": 5, "embedding": [0.1, 0.2, 0.3, 0.4]}
    with (folder / "contexts.jsonl").open("a", encoding="utf-8") as f:
        f.write(json.dumps(other) + "\n")
    (folder / "qrels").mkdir()
    (folder / "qrels" / "test.tsv").write_text("c1\tm0\t1\nc2\tm1\t1\n", encoding="utf-8")
    assert main(["eval", str(folder), "--model", "hybrid", "-p", "embeddings=stored"]) == 0
    said = " ".join(capsys.readouterr().err.split())
    assert ("warning: 1 query's embedding differs from the memories' 3 dimensions (c2: 4): "
            "cosine 0 with every memory, as OpenVault (embedded by another model?)") in said
    assert said.count("differs from the memories'") == 1  # once per run
