"""`load_dataset` tells the IR community's formats by their content, whatever the files are
named: Pyserini's JSON lines, TREC SGML documents and TREC topic files; one given where the
other belongs is said so."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workbench.cli import main
from workbench.core.data import FormatError
from workbench.core.formats import load_dataset

PYSERINI = "".join(json.dumps(d) + "\n" for d in [
    {"id": "d1", "contents": "green tea"}, {"id": "d2", "contents": "black tea"}])
SGML = ("<DOC>\n<DOCNO> D1 </DOCNO>\n<TEXT>\ngreen tea\n</TEXT>\n</DOC>\n"
        "<DOC>\n<DOCNO> D2 </DOCNO>\n<TEXT>\nblack tea\n</TEXT>\n</DOC>\n")
TOPICS = "<top>\n<num> Number: 7\n<title> green tea\n</top>\n"


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("name", ["collection.txt", "docs00", "docs00.json"])
def test_pyserini_lines_under_any_name(tmp_path: Path, name: str) -> None:
    dataset = load_dataset(write(tmp_path / name, PYSERINI))
    assert [(d.id, d.text) for d in dataset.corpus] == [("d1", "green tea"),
                                                        ("d2", "black tea")]


@pytest.mark.parametrize("name", ["la010189", "docs.txt", "docs.sgml", "docs.jsonl"])
def test_trec_sgml_under_any_name(tmp_path: Path, name: str) -> None:
    dataset = load_dataset(write(tmp_path / name, SGML))
    assert [(d.id, d.text) for d in dataset.corpus] == [("D1", "green tea"),
                                                        ("D2", "black tea")]


def test_trec_sgml_past_a_declaration_and_a_wrapper(tmp_path: Path) -> None:
    text = ('<?xml version="1.0"?>\n<!-- AQUAINT-2 -->\n<DOCSTREAM>\n<DOC id="X1" '
            'type="story">\n<TEXT>\n<P>oolong</P>\n</TEXT>\n</DOC>\n</DOCSTREAM>\n')
    (doc,) = load_dataset(write(tmp_path / "apw_eng_200501", text)).corpus
    assert (doc.id, doc.text) == ("X1", "oolong")


@pytest.mark.parametrize("name", ["topics.301-450", "queries.jsonl", "topics.xml"])
def test_topics_under_any_name(tmp_path: Path, name: str) -> None:
    corpus = write(tmp_path / "docs.jsonl", PYSERINI)
    dataset = load_dataset(corpus, queries=write(tmp_path / name, TOPICS))
    assert [(q.id, q.text) for q in dataset.queries] == [("7", "green tea")]


def test_topics_given_as_the_documents(tmp_path: Path) -> None:
    path = write(tmp_path / "topics.txt", TOPICS)
    with pytest.raises(FormatError) as info:
        load_dataset(path)
    assert str(info.value) == (f"{path}: a TREC topic file (the queries), not documents: give "
                               "it with --queries (File ▸ Open queries or tasks… in the window) "
                               "and the documents as the dataset")


def test_documents_given_as_the_topics(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    docs = write(tmp_path / "docs.jsonl", PYSERINI)
    sgml = write(tmp_path / "la010189", SGML)
    said = (f"{sgml}:1: field 'DOC': TREC documents (<DOC> records), not topics: give them as "
            "the dataset, and a topic file or a query file as the queries")
    with pytest.raises(FormatError) as info:
        load_dataset(docs, queries=sgml)
    assert str(info.value) == said
    assert main(["eval", str(docs), "--queries", str(sgml), "-m", "bm25"]) == 2
    err = capsys.readouterr().err
    assert said in err and "Traceback" not in err


def test_a_file_of_neither_is_still_refused(tmp_path: Path) -> None:
    path = write(tmp_path / "notes.txt", "<b>tea</b>\n")
    with pytest.raises(FormatError) as info:
        load_dataset(path)
    assert "expected a BEIR folder" in str(info.value)
    assert "TREC SGML documents (<DOC> records" in str(info.value)
