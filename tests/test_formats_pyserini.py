"""Pyserini's and Anserini's JsonCollection: `{"id", "contents"}` records, a file or a folder
of shards, read as plain documents whose text is `contents`."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tests.conftest import dense_totals
from workbench.cli import main
from workbench.core.data import FormatError
from workbench.core.formats import load_dataset, read_documents
from workbench.core.formats.plain import first_record_object
from workbench.core.models.bm25 import BM25Model

DOCS = [
    {"id": "d1", "contents": "Green tea brewed at 80 degrees keeps its sweetness."},
    {"id": "d2", "contents": "Black tea wants boiling water and four minutes."},
    {"id": "d3", "contents": "Oolong sits between green and black tea."},
]


def write_jsonl(path: Path, rows: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_contents_is_the_text(tmp_path: Path) -> None:
    rows = [*DOCS[:2], {"id": "d9", "contents": "Matcha.", "lang": "en"}]
    corpus = read_documents(write_jsonl(tmp_path / "pys.jsonl", rows))
    assert corpus.ids == ["d1", "d2", "d9"]
    assert [d.text for d in corpus] == [DOCS[0]["contents"], DOCS[1]["contents"], "Matcha."]
    assert [d.title for d in corpus] == ["", "", ""]  # JsonCollection has no title
    assert dict(corpus[2].metadata) == {"lang": "en"}  # `contents` itself is not metadata


def test_the_rank_command_reads_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write_jsonl(tmp_path / "pys.jsonl", DOCS)
    assert main(["rank", str(path), "-m", "bm25", "-q", "green tea sweetness"]) == 0
    rows = [line.split()[:2] for line in capsys.readouterr().out.splitlines()
            if line.strip()[:1].isdigit()]
    # d1 alone holds all three words; d3 green and tea; d2 tea only
    assert rows == [["1", "d1"], ["2", "d3"], ["3", "d2"]]


def test_bm25_ranks_it_as_the_same_corpus_in_text_form(tmp_path: Path) -> None:
    pys = write_jsonl(tmp_path / "pys.jsonl", DOCS)
    plain = write_jsonl(tmp_path / "plain.jsonl",
                        [{"id": d["id"], "text": d["contents"]} for d in DOCS])
    queries = write_jsonl(tmp_path / "q.jsonl", [{"id": "1", "text": "green tea"},
                                                 {"id": "2", "text": "black tea water"}])
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("1 0 d1 1\n2 0 d2 1\n", encoding="utf-8")
    model = BM25Model()
    params = model.schema.resolve({})
    totals = []
    for data in (pys, plain):
        dataset = load_dataset(data, queries=queries, qrels=qrels)
        totals.append(dense_totals(model.combine(model.prepare(dataset, params), params), 3))
    assert totals[0].shape == (2, 3) and np.count_nonzero(totals[0]) == 6
    assert np.array_equal(totals[0], totals[1])


def test_a_folder_of_shards_is_one_corpus(tmp_path: Path) -> None:
    folder = tmp_path / "collection_jsonl"
    (folder / "part").mkdir(parents=True)
    write_jsonl(folder / "docs00.json", DOCS[:2])  # Pyserini's own name for a shard
    write_jsonl(folder / "part" / "docs01.jsonl", DOCS[2:])
    (folder / ".DS_Store").write_text("x", encoding="utf-8")  # hidden: not a shard
    dataset = load_dataset(folder)
    assert dataset.name == "collection_jsonl"
    assert dataset.corpus.ids == ["d1", "d2", "d3"]
    assert dataset.corpus[2].text == DOCS[2]["contents"]


def test_a_shard_named_json_opens_alone(tmp_path: Path) -> None:
    dataset = load_dataset(write_jsonl(tmp_path / "docs00.json", DOCS))
    assert dataset.corpus.ids == ["d1", "d2", "d3"]


def test_an_id_in_two_shards_names_both(tmp_path: Path) -> None:
    folder = tmp_path / "c"
    folder.mkdir()
    write_jsonl(folder / "a.jsonl", DOCS[:2])
    write_jsonl(folder / "b.jsonl", [DOCS[2], {"id": "d2", "contents": "again"}])
    with pytest.raises(FormatError) as info:
        load_dataset(folder)
    assert str(info.value) == (f"{folder / 'b.jsonl'}:2: field 'id': duplicate id 'd2' "
                               f"(first on {folder / 'a.jsonl'}:2)")


def test_a_folder_with_another_file_skips_it_by_name(tmp_path: Path) -> None:
    folder = tmp_path / "c"
    folder.mkdir()
    write_jsonl(folder / "a.jsonl", DOCS)
    (folder / "notes.txt").write_text("x\n", encoding="utf-8")
    skipped: list[Path] = []
    assert read_documents(folder, skipped=skipped).ids == ["d1", "d2", "d3"]
    assert skipped == [folder / "notes.txt"]


def test_shards_beside_a_readme_are_the_collection_not_a_vault(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A README.md beside Pyserini's shards had made the folder a vault of one note, the
    README (rank: "(1 document) no results"); the other files are skipped and named once."""
    folder = tmp_path / "x"
    folder.mkdir()
    write_jsonl(folder / "docs00.json", [{"id": "d1", "contents": "tea leaves green"},
                                         {"id": "d2", "contents": "coffee beans"}])
    (folder / "README.md").write_text("# My collection\n", encoding="utf-8")
    (folder / "LICENSE").write_text("CC BY 4.0\n", encoding="utf-8")
    dataset = load_dataset(folder)
    assert dataset.corpus.ids == ["d1", "d2"]
    assert dataset.settings["pyserini_files_skipped"] == [str(folder / "LICENSE"),
                                                          str(folder / "README.md")]
    assert main(["rank", str(folder), "-m", "bm25", "-q", "tea"]) == 0
    captured = capsys.readouterr()
    assert "(2 documents)" in captured.out
    assert [line.split()[:2] for line in captured.out.splitlines()
            if line.strip()[:1].isdigit()] == [["1", "d1"]]
    warnings = [line for line in captured.err.split("warning: ")[1:]
                if "Pyserini folder" in line]
    assert len(warnings) == 1
    said = " ".join(warnings[0].split())
    assert said == ("2 file(s) of the Pyserini folder are not .json or .jsonl shards and were "
                    f"skipped, as not documents ({folder / 'LICENSE'}, {folder / 'README.md'})")


def test_a_vault_with_json_but_no_shards_is_still_a_vault(tmp_path: Path) -> None:
    """Told by content: notes beside JSON files that hold no `id` and `contents` (a vault's
    queries.jsonl, a plugin's settings) open as the vault they are."""
    folder = tmp_path / "vault"
    folder.mkdir()
    for i in range(3):
        (folder / f"note{i}.md").write_text(f"# Note {i}\n\ngreen tea {i}\n",
                                            encoding="utf-8")
    write_jsonl(folder / "queries.jsonl", [{"id": "q1", "text": "green tea"}])
    (folder / "settings.json").write_text('{"theme": "dark"}\n', encoding="utf-8")
    dataset = load_dataset(folder)
    assert len(dataset.corpus) == 3
    assert all("green tea" in d.text for d in dataset.corpus)
    assert "pyserini_files_skipped" not in dataset.settings


def test_a_compressed_shard_is_refused_not_skipped(tmp_path: Path) -> None:
    folder = tmp_path / "c"
    folder.mkdir()
    write_jsonl(folder / "docs00.jsonl", DOCS)
    (folder / "docs01.jsonl.gz").write_bytes(b"\x1f\x8b\x08\x00")
    with pytest.raises(FormatError) as info:
        load_dataset(folder)
    assert str(info.value) == (f"{folder / 'docs01.jsonl.gz'}: a compressed shard is not "
                               "read: decompress it first (for example: gunzip -k "
                               "docs01.jsonl.gz), or move it out")


def test_queries_beside_documents_are_no_collection(tmp_path: Path) -> None:
    """A folder of docs.jsonl and queries.jsonl in our own fields is not read as one corpus
    (its queries would be ranked as documents): the first shard must hold `contents`."""
    folder = tmp_path / "mine"
    folder.mkdir()
    write_jsonl(folder / "docs.jsonl", [{"id": "d1", "text": "x"}])
    write_jsonl(folder / "queries.jsonl", [{"id": "q1", "text": "x"}])
    with pytest.raises(FormatError) as info:
        load_dataset(folder)
    assert "expected a BEIR folder" in str(info.value)


@pytest.mark.parametrize(("names", "odd"), [
    (("docs.jsonl", "queries.jsonl"), "queries.jsonl"),  # the shards sort first
    (("b_docs.jsonl", "a_queries.jsonl"), "a_queries.jsonl"),  # the queries sort first
    (("docs00.jsonl", "docs01.jsonl"), "docs01.jsonl"),  # a shard in our own fields
])
def test_a_shard_without_contents_is_named(tmp_path: Path, names: tuple[str, str], odd: str,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """Pyserini shards beside a file whose first record has no `contents` (a queries.jsonl):
    refused naming that file; its queries had been indexed as documents (dr5 3)."""
    folder = tmp_path / "dq"
    folder.mkdir()
    write_jsonl(folder / names[0], DOCS[:2])
    write_jsonl(folder / names[1], [{"id": "q1", "text": "which tea is green"}])
    said = (f"{folder / odd}:1: field 'contents': a folder of Pyserini shards holds "
            '{"id", "contents"} records and this file\'s first has no \'contents\' (queries? '
            "move this file out of the folder)")
    with pytest.raises(FormatError) as info:
        load_dataset(folder)
    assert str(info.value) == said
    assert main(["rank", str(folder), "-m", "bm25", "-q", "tea"]) != 0
    captured = capsys.readouterr()
    assert said in captured.err and "Traceback" not in captured.err
    assert "q1" not in captured.out


@pytest.mark.parametrize(("record", "field", "said"), [
    ({"id": "d2", "title": "only a title"}, "text",
     "missing (or 'contents', as Pyserini's JsonCollection names it)"),
    ({"id": "d2", "contents": None}, "contents", "expected a string, found null"),
    ({"id": "d2", "contents": ["a"]}, "contents", "expected a string, found a list"),
])
def test_a_bad_record_is_one_error(tmp_path: Path, record: dict[str, object], field: str,
                                   said: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = write_jsonl(tmp_path / "pys.jsonl", [DOCS[0], record])
    with pytest.raises(FormatError) as info:
        read_documents(path)
    assert str(info.value) == f"{path}:2: field '{field}': {said}"
    assert main(["rank", str(path), "-m", "bm25", "-q", "tea"]) != 0
    err = capsys.readouterr().err
    assert f"{path}:2: field '{field}': {said}" in err and "Traceback" not in err


def test_text_wins_over_contents_kept_as_metadata(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """A file of our own fields with a `contents` field beside `text` opens as before Pyserini's
    name was read (dr5 2): `text` is the text, `contents` one more metadata field."""
    jsonl = write_jsonl(tmp_path / "docs.jsonl", [
        {"id": "a", "title": "Tea", "text": "green tea brewing", "contents": "chapter 1; 2"},
        {"id": "b", "text": "coffee beans", "contents": "chapter 3"}])
    csv_path = tmp_path / "docs.csv"
    csv_path.write_text("id,title,text,contents\na,Tea,green tea brewing,chapter 1; 2\n"
                        "b,,coffee beans,chapter 3\n", encoding="utf-8")
    for path in (jsonl, csv_path):
        a, b = read_documents(path)
        assert (a.title, a.text, dict(a.metadata)) == ("Tea", "green tea brewing",
                                                       {"contents": "chapter 1; 2"})
        assert (b.text, dict(b.metadata)) == ("coffee beans", {"contents": "chapter 3"})
        assert main(["rank", str(path), "-m", "bm25", "-q", "tea"]) == 0
        out = capsys.readouterr().out
        assert "(2 documents)" in out and "   1  a   Tea" in out


def test_a_csv_with_a_contents_column(tmp_path: Path) -> None:
    path = tmp_path / "docs.csv"
    path.write_text("id,contents\nd1,green tea\n", encoding="utf-8")
    (doc,) = read_documents(path)
    assert (doc.id, doc.text) == ("d1", "green tea")


def test_the_washington_post_collection_is_said_so(tmp_path: Path) -> None:
    """TREC's Washington Post file holds `id` and `contents`, a list of paragraphs: said what
    it is, not "expected a string, found a list" (dr5 7)."""
    path = write_jsonl(tmp_path / "TREC_Washington_Post_collection.v2.jl", [
        {"id": "b2e89334", "title": "Tea", "contents": [
            {"content": "Green tea prices rose.", "type": "sanitized_html"}]}])
    with pytest.raises(FormatError) as info:
        load_dataset(path)
    assert str(info.value) == (f"{path}:1: field 'contents': the TREC Washington Post "
                               "collection ('contents' a list of paragraphs, which Anserini "
                               "reads with WashingtonPostCollection) is not read: write its "
                               "articles as JSON lines of id and contents (the text) first")


ARRAY = ('[\n  {"id": "d1", "contents": "tea leaves green"},\n'
         '  {"id": "d2",\n   "contents": "coffee beans"}\n]\n')


def test_a_json_array_is_documents_not_memories(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    """JsonCollection reads a .json file of a JSON array of {"id", "contents"} objects: it
    had been read as OpenVault memories (and refused: no memory field)."""
    path = tmp_path / "docs.json"
    path.write_text(ARRAY, encoding="utf-8")
    dataset = load_dataset(path)
    assert [(d.id, d.text) for d in dataset.corpus] == [("d1", "tea leaves green"),
                                                        ("d2", "coffee beans")]
    assert main(["rank", str(path), "-m", "bm25", "-q", "coffee"]) == 0
    out = capsys.readouterr().out
    assert "(2 documents)" in out
    assert [line.split()[:2] for line in out.splitlines()
            if line.strip()[:1].isdigit()] == [["1", "d2"]]


def test_json_array_shards_in_a_folder(tmp_path: Path) -> None:
    folder = tmp_path / "c"
    folder.mkdir()
    (folder / "docs00.json").write_text(ARRAY, encoding="utf-8")
    write_jsonl(folder / "docs01.jsonl", [DOCS[2]])
    assert load_dataset(folder).corpus.ids == ["d1", "d2", "d3"]


def test_one_object_over_several_lines_is_one_document(tmp_path: Path) -> None:
    path = tmp_path / "doc.json"
    path.write_text('{\n  "id": "d1",\n  "contents": "tea time"\n}\n', encoding="utf-8")
    (doc,) = load_dataset(path).corpus
    assert (doc.id, doc.text) == ("d1", "tea time")


@pytest.mark.parametrize(("text", "line", "field", "said"), [
    # the element opens on line 3; its bad field is on line 4
    ('[\n  {"id": "d1", "contents": "tea"},\n  {"id": "d2",\n   "contents": 5}\n]\n', 3,
     "contents", "expected a string, found a number"),
    ('[\n  {"id": "d1", "contents": "tea"},\n\n  {"id": "d2"}\n]\n', 4, "text",
     "missing (or 'contents', as Pyserini's JsonCollection names it)"),
    ('[\n  {"id": "d1", "contents": "tea"},\n  {"id": "d1", "contents": "again"}\n]\n', 3,
     "id", "duplicate id 'd1' (first on line 2)"),
    ('[\n  {"id": "d1", "contents": "tea"},\n  "d2"\n]\n', 3, "json",
     "expected a JSON object, found a string"),
    ('[\n  {"id": "d1", "contents": "tea"},\n  {"id": "d2", "contents": "x" "y"}\n]\n', 3,
     "json", "invalid JSON at column 32: Expecting ',' delimiter"),
    ('[\n  {"id": "d1", "contents": "tea"}\n  {"id": "d2", "contents": "x"}\n]\n', 3,
     "json", "expected ',' or ']' after the array's element, found '{'"),
    ('\n[\n  {"id": "d1", "contents": "tea"},\n  {"id": "d2", "contents": "x"}\n', 2,
     "json", "the JSON array never closes (no ']' after its last element)"),
    ('[\n  {"id": "d1", "contents": "tea"}\n]\n{"id": "d2"}\n', 4, "json",
     "text after the JSON array opened on line 1 closes"),
    # dr2 8: had said "invalid JSON at column 1: Expecting value" on the ']' line
    ('[\n  {"id": "d1", "contents": "tea"},\n  {"id": "d2", "contents": "x"},\n\n]\n', 3,
     "json", "a trailing comma before ']' — JSON allows none: remove it"),
    ('[{"id": "d1", "contents": "tea"},]', 1, "json",
     "a trailing comma before ']' — JSON allows none: remove it"),
])
def test_an_error_in_the_array_names_its_line(tmp_path: Path, text: str, line: int,
                                              field: str, said: str,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "docs.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(FormatError) as info:
        load_dataset(path)
    # an error in the JSON itself names no field
    assert str(info.value) == (f"{path}:{line}: {said}" if field == "json"
                               else f"{path}:{line}: field '{field}': {said}")
    assert main(["rank", str(path), "-m", "bm25", "-q", "tea"]) == 2
    err = capsys.readouterr().err
    assert said in err and "Traceback" not in err


def test_openvault_memories_in_a_json_array_stay_memories(tmp_path: Path) -> None:
    path = tmp_path / "memories.json"
    path.write_text('[\n  {"id": "m1", "summary": "tea by the river", "importance": 3,\n'
                    '   "message_ids": [1]}\n]\n', encoding="utf-8")
    (memory,) = load_dataset(path).corpus
    assert memory.id == "m1"
    assert memory.text == "tea by the river"


SAMPLE_VAULT = Path(__file__).resolve().parents[1] / "sample_corpora" / "vault"
EXPORT = '[\n  {\n    "id": "x1",\n    "contents": "stray export of search index"\n  }\n]\n'


def _vault_with(tmp_path: Path, where: str, text: str, *, queries: bool = True) -> Path:
    """The sample vault copied, with `text` written at `where` (dr2 1's fixtures)."""
    folder = tmp_path / "vault"
    shutil.copytree(SAMPLE_VAULT, folder)
    if not queries:
        (folder / "queries.jsonl").unlink()
        shutil.rmtree(folder / "qrels")
    (folder / where).write_text(text, encoding="utf-8")
    return folder


@pytest.mark.parametrize(("where", "text", "queries"), [
    ("export.json", EXPORT, True),  # the vault's queries.jsonl had been blamed
    ("export.json", EXPORT, False),  # read as a Pyserini folder of one document
    ("notes/index.jsonl", '{"id":"x1","contents":"an index export of espresso"}\n', True),
], ids=["export", "export-no-queries", "index-in-notes"])
def test_a_vault_holding_an_id_contents_file_stays_a_vault(
        tmp_path: Path, where: str, text: str, queries: bool,
        capsys: pytest.CaptureFixture[str]) -> None:
    """One .json or .jsonl of `id` and `contents` among a vault's notes (an export, an index
    a plugin keeps) had made the whole folder a Pyserini collection: the notes skipped, the
    queries.jsonl refused as a shard without `contents` (dr2 1)."""
    folder = _vault_with(tmp_path, where, text, queries=queries)
    notes = sorted(p.relative_to(folder / "notes").as_posix()
                   for p in (folder / "notes").rglob("*.md") if ".obsidian" not in p.parts)
    dataset = load_dataset(folder)
    assert dataset.corpus.ids == notes and "x1" not in dataset.corpus.ids
    assert "pyserini_files_skipped" not in dataset.settings
    assert main(["rank", str(folder), "-m", "bm25", "-q", "espresso grind"]) == 0
    captured = capsys.readouterr()
    assert f"({len(notes)} documents)" in captured.out
    # the file passed over is named, not dropped without a word (dr4 1)
    assert ("1 .json/.jsonl file(s) of id and contents records (Pyserini shards, 1 document(s)) "
            f"not read ({folder / where}): this folder is read as a vault, as its {len(notes)} "
            "notes outnumber the shards' 1 document(s); give a shard file itself as DATA to "
            "read its documents") in " ".join(captured.err.split())


def test_a_flat_vault_with_an_export_beside_its_notes_stays_a_vault(tmp_path: Path) -> None:
    """Notes at the folder's top level, beside a shard-like export: the notes are the corpus."""
    folder = tmp_path / "flat"
    folder.mkdir()
    for name in ("tea.md", "coffee.md", "README.md"):
        (folder / name).write_text(f"# {name}\n\ngreen tea\n", encoding="utf-8")
    (folder / "export.json").write_text(EXPORT, encoding="utf-8")
    assert load_dataset(folder).corpus.ids == ["README.md", "coffee.md", "tea.md"]


def test_shards_beside_a_readme_and_a_license_note_are_the_collection(tmp_path: Path) -> None:
    """Cards at the top level (README.md, LICENSE.md) beside a shard there: the shards."""
    folder = tmp_path / "x"
    (folder / "part").mkdir(parents=True)
    write_jsonl(folder / "docs00.jsonl", DOCS[:2])
    write_jsonl(folder / "part" / "docs01.jsonl", DOCS[2:])
    (folder / "README.md").write_text("# shards\n", encoding="utf-8")
    (folder / "LICENSE.md").write_text("CC BY 4.0\n", encoding="utf-8")
    dataset = load_dataset(folder)
    assert dataset.corpus.ids == ["d1", "d2", "d3"]
    assert dataset.settings["pyserini_files_skipped"] == [str(folder / "LICENSE.md"),
                                                          str(folder / "README.md")]


def test_shards_all_in_subfolders_under_a_readme_are_the_collection(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A README.md at the top level and every shard in a subfolder (corpus/part1/docs00.jsonl,
    corpus/part2/docs01.jsonl) had opened as a vault of one note, the README."""
    folder = tmp_path / "corpus"
    (folder / "part1").mkdir(parents=True)
    (folder / "part2").mkdir()
    write_jsonl(folder / "part1" / "docs00.jsonl", DOCS[:2])
    write_jsonl(folder / "part2" / "docs01.jsonl", DOCS[2:])
    (folder / "README.md").write_text("# My corpus\n", encoding="utf-8")
    dataset = load_dataset(folder)
    assert dataset.corpus.ids == ["d1", "d2", "d3"]
    assert dataset.settings["pyserini_files_skipped"] == [str(folder / "README.md")]
    assert main(["rank", str(folder), "-m", "bm25", "-q", "oolong"]) == 0
    captured = capsys.readouterr()
    assert "(3 documents)" in captured.out
    assert ("1 file(s) of the Pyserini folder are not .json or .jsonl shards and were skipped, "
            f"as not documents ({folder / 'README.md'})") in " ".join(captured.err.split())


class _Counted:
    """Path.open, counting the bytes read through it."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.read = 0
        opened = Path.open

        def counting(path: Path, *args: Any, **kwargs: Any) -> Any:
            f = opened(path, *args, **kwargs)
            plain_read = f.read

            def read(*a: Any) -> Any:
                data = plain_read(*a)
                self.read += len(data)
                return data

            f.read = read
            return f

        monkeypatch.setattr(Path, "open", counting)


BIG = 2 * 1024 * 1024


@pytest.mark.parametrize(("head", "shard"), [
    ('{\n  "data": [\n', False),  # a plugin's pretty-printed data
    ('[\n  {"id": "d1", "contents": "', True),  # a first document longer than the head
    ('{"id": "d1", "contents": "', True),  # JSON lines, the first line as long
], ids=["plugin-data", "array", "json-lines"])
def test_telling_a_large_json_file_reads_its_head_only(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, head: str, shard: bool) -> None:
    """Whether a .json file is a shard is told from its first 64 KiB: a vault's 55 MB plugin
    data had been parsed whole, and again by the output guard (dr2 2). What follows the head
    is garbage here, never read."""
    path = tmp_path / "big.json"
    with path.open("wb") as f:
        f.write(head.encode() + b"x" * BIG + b"\x00 not JSON {[")
    counted = _Counted(monkeypatch)
    first = first_record_object(path)
    assert counted.read <= 64 * 1024
    if shard:
        assert first is not None and first["id"] == "d1" and "contents" in first
    else:
        assert first is None or "contents" not in first



def test_a_washington_post_article_longer_than_the_head_is_still_told(tmp_path: Path) -> None:
    """The sniff gives a value the head cuts off as an empty one of its type: a list of
    paragraphs is still a list."""
    path = tmp_path / "wapo.jl"
    paragraph = {"content": "Green tea prices rose. " * 20, "type": "sanitized_html"}
    write_jsonl(path, [{"id": "b2e89334", "contents": [paragraph] * 400}])
    assert path.stat().st_size > 64 * 1024
    with pytest.raises(FormatError) as info:
        load_dataset(path)
    assert "the TREC Washington Post collection" in str(info.value)


@pytest.mark.parametrize("cards", [
    ("README.md", "part/README.md"),
    ("README.md", ".github/PULL_REQUEST_TEMPLATE.md", ".github/ISSUE_TEMPLATE/bug.md"),
], ids=["subfolder-readme", "github-templates"])
def test_a_part_readme_or_github_markdown_leaves_the_shards_the_collection(
        tmp_path: Path, cards: tuple[str, ...], capsys: pytest.CaptureFixture[str]) -> None:
    """A subfolder's own README.md, or a .github/ template, had made the shard folder a vault
    of those files, its shards dropped without a word (dr1 5): they are cards, the shards the
    collection, and the Markdown passed over is named."""
    folder = tmp_path / "corpus"
    (folder / "part" / "deep").mkdir(parents=True)
    write_jsonl(folder / "part" / "deep" / "docs00.jsonl", DOCS)
    for card in cards:
        (folder / card).parent.mkdir(parents=True, exist_ok=True)
        (folder / card).write_text("# About\n", encoding="utf-8")
    dataset = load_dataset(folder)
    assert dataset.corpus.ids == ["d1", "d2", "d3"]
    assert sorted(dataset.settings["pyserini_files_skipped"]) == sorted(
        str(folder / card) for card in cards)
    assert main(["rank", str(folder), "-m", "bm25", "-q", "oolong"]) == 0
    captured = capsys.readouterr()
    assert "(3 documents)" in captured.out
    assert (f"{len(cards)} file(s) of the Pyserini folder are not .json or .jsonl shards and "
            "were skipped, as not documents (") in " ".join(captured.err.split())


def test_notes_in_subfolders_beside_a_readme_stay_a_vault(tmp_path: Path) -> None:
    """Widening the cards to any depth leaves a vault a vault: a README plus real notes in
    subfolders, more of them than the stray export of id and contents holds documents."""
    folder = tmp_path / "vault"
    (folder / "daily").mkdir(parents=True)
    (folder / "README.md").write_text("# Vault\n", encoding="utf-8")
    (folder / "daily" / "README.md").write_text("# Daily\n", encoding="utf-8")
    for day in ("mon", "tue", "wed", "thu"):
        (folder / "daily" / f"{day}.md").write_text("# tea\n\noolong\n", encoding="utf-8")
    write_jsonl(folder / "export.jsonl", DOCS)
    dataset = load_dataset(folder)
    assert dataset.corpus.ids == ["README.md", "daily/README.md", "daily/mon.md",
                                  "daily/thu.md", "daily/tue.md", "daily/wed.md"]
    assert dataset.settings["vault_shards_skipped"] == [
        [str(folder / "export.jsonl")], 4, 3, "count", 4]


@pytest.mark.parametrize("note", [
    "CONTRIBUTING.md", "docs/index.md", "NOTES.md", "part1/Tea-notes.md"])
def test_shards_beside_one_ordinary_markdown_file_are_the_collection(
        tmp_path: Path, note: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Shards of three documents beside cards and one ordinary Markdown file had opened as a
    vault of the Markdown, four 'documents', the shards dropped without a word (dr4 1): the
    shards outnumber the notes, so they are the collection and every .md is named skipped."""
    folder = tmp_path / "shard"
    (folder / "part1").mkdir(parents=True)
    write_jsonl(folder / "part1" / "docs00.jsonl", DOCS)
    markdown = ["README.md", "part1/README.md", ".github/pull_request_template.md", note]
    for name in markdown:
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text("# About this tea template\n", encoding="utf-8")
    dataset = load_dataset(folder)
    assert dataset.corpus.ids == ["d1", "d2", "d3"]
    assert sorted(dataset.settings["pyserini_files_skipped"]) == sorted(
        str(folder / name) for name in markdown)
    assert main(["rank", str(folder), "-m", "bm25", "-q", "oolong"]) == 0
    captured = capsys.readouterr()
    assert "(3 documents)" in captured.out
    assert ("4 file(s) of the Pyserini folder are not .json or .jsonl shards and were skipped, "
            "as not documents (") in " ".join(captured.err.split())
    assert note.rsplit("/", 1)[-1] in captured.err


def _notes_and_export(folder: Path, notes: int, records: list[dict[str, str]]) -> Path:
    """`notes` ordinary notes (note00.md …) at the top of `folder`, an export.jsonl beside."""
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(notes):
        (folder / f"note{i:02d}.md").write_text(f"# Note {i}\n\noolong tea {i}\n",
                                                encoding="utf-8")
    write_jsonl(folder / "export.jsonl", records)
    return folder


@pytest.mark.parametrize(("records", "why"), [
    ([{"id": f"note{i:02d}", "contents": f"oolong tea {i}"} for i in range(12)],
     "as they are an export of its 12 notes, named for them"),
    ([{"id": f"note{i // 3:02d}.md#{i % 3}", "contents": "oolong"} for i in range(36)],
     "as they are an export of its 12 notes, named for them"),
    ([{"id": f"c{i}", "contents": "oolong"} for i in range(30)],
     "as its 12 notes are not outnumbered ten to one by the shards' documents"),
    # the notes outnumber the records: said so, not 'not outnumbered ten to one' (dr8 2)
    ([{"id": f"c{i}", "contents": "oolong"} for i in range(5)],
     "as its 12 notes outnumber the shards' 5 document(s)"),
    # an export past the bar of 120: its records counted in full, not 'more than 120' (dr8 3)
    ([{"id": f"note{i % 12:02d}.md#{i}", "contents": "oolong"} for i in range(130)],
     "as they are an export of its 12 notes, named for them"),
], ids=["same-notes", "chunks-named-for-notes", "more-chunks", "fewer-records",
        "export-past-the-bar"])
def test_a_vault_with_an_export_of_as_many_records_stays_a_vault(
        tmp_path: Path, records: list[dict[str, str]], why: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A vault's export of its own notes holds as many records as notes or more: the folder
    had been read as the export, the notes dropped as 'not documents' and the ids changed
    (dr7 1). It stays a vault; the warning says why and how to read the export."""
    folder = _notes_and_export(tmp_path / "vault", 12, records)
    dataset = load_dataset(folder)
    assert dataset.corpus.ids == [f"note{i:02d}.md" for i in range(12)]
    assert main(["rank", str(folder), "-m", "bm25", "-q", "oolong"]) == 0
    said = " ".join(capsys.readouterr().err.split())
    assert (f"1 .json/.jsonl file(s) of id and contents records (Pyserini shards, "
            f"{len(records)} document(s)) not read ({folder / 'export.jsonl'}): this folder is "
            f"read as a vault, {why}; give a shard file itself as DATA to read its "
            "documents") in said
    assert len(load_dataset(folder / "export.jsonl").corpus.ids) == len(records)


@pytest.mark.parametrize(("notes", "reason"), [
    # the 200 documents read, not the count that stopped at the bar ('more than 2', dr8 3)
    (("notes/n0.md", "notes/n1.md"), "its 2 note(s) are outnumbered by the shards' 200 "
     "documents"),
    (tuple(f"docs/page{i}.md" for i in range(10)), "its 10 note(s) are outnumbered more than "
     "ten to one by the shards' 200 documents"),
    (("notes/README.md",), ""),
], ids=["notes-folder-of-two", "docs-pages", "notes-folder-readme"])
def test_shards_outnumbering_a_few_notes_are_the_collection_and_say_why(
        tmp_path: Path, notes: tuple[str, ...], reason: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A notes/ subfolder had made a folder of 200 shard documents a vault of its two notes,
    or of its README alone, 'its 0 notes outnumbering them' (dr7 2): the counts decide, a
    README is a card, and the warning names the counts that decided."""
    folder = tmp_path / "shards"
    folder.mkdir()
    write_jsonl(folder / "docs00.jsonl",
                [{"id": f"d{i}", "contents": "oolong tea"} for i in range(200)])
    for name in notes:
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text("# About\n\noolong\n", encoding="utf-8")
    assert len(load_dataset(folder).corpus.ids) == 200
    assert main(["rank", str(folder), "-m", "bm25", "-q", "oolong"]) == 0
    captured = capsys.readouterr()
    said = " ".join(captured.err.split())
    assert "(200 documents)" in captured.out and "notes outnumbering" not in said
    line = next(w for w in said.split("warning: ") if "Pyserini folder" in w).strip()
    tail = f": {reason}; move the .json/.jsonl files out to read the Markdown as a vault"
    assert line.endswith(f"){tail}" if reason else f"{folder / notes[0]})")
