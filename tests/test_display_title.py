"""A document's display title where it is the first line of its text (OpenVault memories:
"type: first line"): a long line is cut at a word, with "…"."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import SAMPLES
from workbench.core.data import Corpus, Document, display_title
from workbench.core.formats import load_dataset


def test_a_long_first_line_is_cut_at_a_word_with_an_ellipsis() -> None:
    # the story report's title read "…bought up half the abandoned obse" (120 characters,
    # cut mid-word, no mark), then the memory's text followed in full
    corpus = load_dataset(SAMPLES / "story").corpus
    doc = corpus[corpus.index["ev057"]]
    assert display_title(corpus, doc) == (
        "revelation: Maribel revealed that I. Vance was Isadora Vance, an instrument dealer "
        "who had quietly bought up half the abandoned…")
    other = corpus[corpus.index["ev060"]]  # it read "…longer than most clock ma"
    assert display_title(corpus, other).endswith(" instructions longer than most clock…")


def _corpus(*docs: tuple[str, str, dict[str, object]]) -> Corpus:
    return Corpus(Document(id=f"d{i}", title=title, text=text, metadata=meta)
                  for i, (title, text, meta) in enumerate(docs))


def test_a_small_chats_event_types_get_the_summary() -> None:
    # review C, F12: a new chat's 5 memories read "action, action, action, action, action"
    # (the rule waited for 10 titled documents); mixed types are labels too
    ev = {"event_type": "action"}
    corpus = _corpus(("action", "Orrin hid the key", ev),
                     ("dialogue", "Suzy asked about the lamp", {"event_type": "dialogue"}),
                     ("action", "Smugglers stole gears", ev))
    assert [display_title(corpus, d) for d in corpus] == [
        "action: Orrin hid the key", "dialogue: Suzy asked about the lamp",
        "action: Smugglers stole gears"]


def test_a_few_documents_sharing_one_title_get_their_first_line() -> None:
    corpus = _corpus(("Notes", "Brew at 80 degrees", {}), ("Notes", "Steep for 2 minutes", {}))
    assert [display_title(corpus, d) for d in corpus] == [
        "Notes: Brew at 80 degrees", "Notes: Steep for 2 minutes"]


def test_what_the_ten_document_rule_protects_stays_a_small_corpus_titles() -> None:
    # under 10 titled documents the one-in-five share says nothing: 9 papers with 3 titles
    # among them (a third distinct) keep their titles, as do distinct ones
    shared = _corpus(*((t, f"text {i}", {}) for i, t in
                       enumerate(["Intro", "Intro", "Intro", "Methods", "Methods",
                                  "Methods", "Results", "Results", "Results"])))
    assert [display_title(shared, d) for d in shared][:4] == [
        "Intro", "Intro", "Intro", "Methods"]
    plain = _corpus(("Korean Green Tea", "Korean tea is …", {}),
                    ("Pan-Firing Green Tea", "Pan firing …", {}))
    assert [display_title(plain, d) for d in plain] == [
        "Korean Green Tea", "Pan-Firing Green Tea"]
    # a memory with no summary keeps its type alone
    empty = _corpus(("action", "", {"event_type": "action"}))
    assert display_title(empty, empty[0]) == "action"


def test_rank_names_a_memory_by_its_type_and_first_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from workbench.cli import main

    memories = [{"id": f"m{i}", "event_type": "action", "summary": s, "importance": 3}
                for i, s in enumerate(["Orrin hid brass lamp key", "Suzy repaired lamp"])]
    (tmp_path / "memories.json").write_text(json.dumps(memories), encoding="utf-8")
    (tmp_path / "contexts.jsonl").write_text(json.dumps(
        {"_id": "c1", "messages": [{"is_user": True, "mes": "brass lamp"}]}) + "\n",
        encoding="utf-8")
    assert main(["rank", str(tmp_path), "-m", "hybrid", "-p", "embeddings=stored",
                 "--query-id", "c1"]) == 0
    out = capsys.readouterr().out
    assert "action: Orrin hid brass lamp key" in out and "action: Suzy repaired lamp" in out
