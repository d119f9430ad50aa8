"""An OpenVault memory without a summary is the empty text to the original (`summary || ''`):
accepted, counted in the load message, scored by its base and vector parts only."""

from __future__ import annotations

import json
from pathlib import Path

from workbench.core.data import Dataset, Query, QuerySet
from workbench.core.engine import resolve_params
from workbench.core.formats import read_memories
from workbench.core.formats.openvault_memories import load_note, without_summary
from workbench.core.models import get_model


def test_absent_or_null_summary_is_empty_text_and_counted(tmp_path: Path) -> None:
    path = tmp_path / "memories.json"
    path.write_text(json.dumps([
        {"id": "a", "summary": "Suzy lost the village key", "importance": 2},
        {"id": "b", "importance": 5},
        {"id": "c", "summary": None, "importance": 3}]))
    corpus = read_memories(path)
    assert [d.text for d in corpus] == ["Suzy lost the village key", "", ""]
    assert without_summary(corpus) == 2
    assert load_note(corpus) == ("2 memories without a summary, scored as empty text (base "
                                 "and vector parts only), as OpenVault does")
    # importance 5 is floored at base 5 whatever the distance; no token, no embedding: 5
    ds = Dataset("m", corpus, QuerySet([Query("q", "village key")]))
    model = get_model("hybrid")
    params = resolve_params(model, {"embeddings": "stored"})
    scores = model.combine(model.prepare(ds, params), params)
    row = scores.row(0)
    total = dict(zip(scores.docs[row].tolist(), scores.total[row].tolist(), strict=True))
    assert total[1] == 5.0


def test_no_note_when_every_memory_has_one(tmp_path: Path) -> None:
    path = tmp_path / "memories.json"
    path.write_text(json.dumps([{"id": "a", "summary": "x"}]))
    assert load_note(read_memories(path)) == ""


def test_memories_without_an_id_are_named_with_their_line(tmp_path: Path) -> None:
    # rv2 12: memory 17 without an id became 'm17' and nothing said so
    path = tmp_path / "memories.json"
    path.write_text('[\n {"id": "a", "summary": "x"},\n {"summary": "y"}\n]\n')
    corpus = read_memories(path)
    assert corpus.ids == ["a", "m1"]
    assert load_note(corpus) == ("memories[1] at memories.json:3 has no id: loaded as 'm1', "
                                 "its position in the list, the id judgments must name it by")
    path.write_text(json.dumps([{"summary": "x"}, {"id": "b", "summary": "y"},
                                {"summary": "z"}], indent=1))
    assert load_note(read_memories(path)) == (
        "2 memories without an id, each loaded as m and its position in the list, the id "
        "judgments must name it by (first: memories[0] at memories.json:2, as 'm0')")
