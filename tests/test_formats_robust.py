"""Whatever the bytes, a reader returns a value or raises one FormatError naming line and field."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest

from workbench.core.data import FormatError
from workbench.core.formats import (
    read_corpus_jsonl,
    read_documents,
    read_memories,
    read_qrels,
    read_qrels_tsv,
    read_queries,
    read_queries_jsonl,
    read_trec_qrels,
    read_trec_run,
    read_vault,
)
from workbench.core.formats.pi_memory_settings import read_pi_settings

PIECES = ['{', '}', '"', ':', ',', '[', ']', '\n', '\r\n', '\t', ' ', '_id', 'id', 'text',
          'title', 'tags', 'metadata', '1', '-', '---', '#', 'a', '\\', "'", 'null', 'true',
          'é', '|', '>', '...', 'Q0', '0', '1.5', 'nan', '\\ud800', '\ufeff', 'key: v', '- x',
          '"disabledProjects"', '"summary"', '"memories"', '"importance"', '"message_ids"']

READERS: dict[str, Callable[[Path], object]] = {
    "corpus.jsonl": read_corpus_jsonl,
    "queries.jsonl": read_queries_jsonl,
    "test.tsv": read_qrels_tsv,
    "qrels.txt": read_trec_qrels,
    "run.txt": read_trec_run,
    "docs.jsonl": read_documents,
    "docs.csv": read_documents,
    "queries.tsv": read_queries,
    "judgments.txt": read_qrels,
    "vault/n.md": lambda p: read_vault(p.parent),
    "settings.json": read_pi_settings,
    "memories.json": read_memories,
}


@pytest.mark.parametrize("name", list(READERS))
def test_random_input_raises_only_format_errors(tmp_path: Path, name: str) -> None:
    rnd = random.Random(name)
    path = tmp_path / name
    path.parent.mkdir(exist_ok=True)
    for _ in range(150):
        text = "".join(rnd.choice(PIECES) for _ in range(rnd.randint(0, 30)))
        data = text.encode("utf-8")
        if rnd.random() < 0.1:
            data += b"\xff"
        path.write_bytes(data)
        try:
            READERS[name](path)
        except FormatError as e:
            assert e.field, str(e)
            assert e.line is not None, str(e)


def test_lone_surrogate_escape(tmp_path: Path) -> None:
    path = tmp_path / "corpus.jsonl"
    path.write_text('{"_id": "a", "text": "ok \\ud83d\\ude00"}\n{"_id": "b", "text": "\\ud800"}\n',
                    encoding="utf-8")
    with pytest.raises(FormatError, match="surrogate") as info:
        read_corpus_jsonl(path)
    assert f"{path}:2:" in str(info.value) and "field 'json'" in str(info.value)


def test_long_csv_cell(tmp_path: Path) -> None:
    path = tmp_path / "docs.csv"
    long_text = "word " * 60_000  # 300 kB, over csv's default 128 KiB cell limit
    path.write_text(f'id,text\na,"{long_text}"\n', encoding="utf-8")
    (doc,) = read_documents(path)
    assert doc.text == long_text
