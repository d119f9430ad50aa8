"""BEIR folders: corpus.jsonl, queries.jsonl, qrels/<split>.tsv."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workbench.core.data import FormatError
from workbench.core.formats import (
    read_beir,
    read_corpus_jsonl,
    read_qrels_tsv,
    read_queries_jsonl,
)

SCIFACT = Path(__file__).resolve().parents[1].parent / "shared" / "datasets" / "scifact"


def assert_names(err: FormatError, path: Path, line: int | None, field: str) -> None:
    """The one-line message names the file, the 1-based line and the field."""
    msg = str(err)
    assert path.name in msg
    if line is not None:
        assert f"{path}:{line}:" in msg
    # an error in the JSON itself names no field: "invalid JSON at column 22: …"
    assert (f"field '{field}'" in msg) == (field != "json"), msg
    assert (err.line, err.field) == (line, field)


def jsonl(path: Path, *rows: object) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def beir_folder(root: Path) -> Path:
    jsonl(root / "corpus.jsonl",
          {"_id": "d1", "title": "Alpha", "text": "alpha text", "metadata": {"year": 2020}},
          {"_id": 2, "text": "two", "tags": ["x", "y"]},
          {"_id": "d3", "title": None, "text": ""})
    jsonl(root / "queries.jsonl",
          {"_id": "q1", "text": "alpha?", "metadata": {"lang": "en"}},
          {"_id": "q2", "text": "two?"},
          {"_id": "q3", "text": "unjudged"})
    (root / "qrels").mkdir()
    (root / "qrels" / "test.tsv").write_text(
        "query-id\tcorpus-id\tscore\nq1\td1\t2\nq1\tgone\t1\nq2\t2\t0\n", encoding="utf-8")
    return root


def test_read_beir_folder(tmp_path: Path) -> None:
    ds = read_beir(beir_folder(tmp_path / "mini"))
    assert ds.name == "mini"
    assert ds.corpus.ids == ["d1", "2", "d3"]
    d1 = ds.corpus[0]
    assert (d1.title, d1.text, d1.tags) == ("Alpha", "alpha text", ())
    assert dict(d1.metadata) == {"year": 2020}
    assert ds.corpus[1].tags == ("x", "y")
    assert ds.corpus[2].title == ""
    # only judged queries, file order kept; metadata becomes the query context
    assert ds.queries.ids == ["q1", "q2"]
    assert dict(ds.queries[0].context) == {"lang": "en"}
    # a judged document missing from the corpus is kept (relevant but unretrievable)
    assert ds.qrels == {"q1": {"d1": 2, "gone": 1}, "q2": {"2": 0}}


def test_split_queries_file_preferred_and_no_qrels(tmp_path: Path) -> None:
    root = beir_folder(tmp_path / "mini")
    jsonl(root / "queries.dev.jsonl", {"_id": "q2", "text": "dev two"})
    (root / "qrels" / "dev.tsv").write_text("q2\td1\t1\n", encoding="utf-8")
    ds = read_beir(root, split="dev")
    assert [q.text for q in ds.queries] == ["dev two"]
    assert ds.qrels == {"q2": {"d1": 1}}

    bare = tmp_path / "bare"
    jsonl(bare / "corpus.jsonl", {"_id": "a", "text": "a"})
    jsonl(bare / "queries.jsonl", {"_id": "q", "text": "q"})
    ds = read_beir(bare)
    assert ds.qrels is None and ds.queries.ids == ["q"] and not ds.judged


def test_missing_split(tmp_path: Path) -> None:
    root = beir_folder(tmp_path / "mini")
    with pytest.raises(FormatError, match="splits here: test"):
        read_beir(root, split="train")


# -- errors: one FormatError naming file, line and field ------------------------------------


@pytest.mark.parametrize(("line2", "field", "fragment"), [
    ('{"_id": "b", "text": ', "json", "invalid JSON"),
    ('["b", "text"]', "json", "expected a JSON object"),
    ('{"text": "no id"}', "_id", "missing"),
    ('{"_id": "b"}', "text", "missing"),
    ('{"_id": "b", "text": 7}', "text", "expected a string, found a number"),
    ('{"_id": true, "text": "t"}', "_id", "expected a string or an integer"),
    ('{"_id": " ", "text": "t"}', "_id", "empty id"),
    ('{"_id": "b", "text": "t", "title": ["x"]}', "title", "expected a string"),
    ('{"_id": "b", "text": "t", "tags": "x"}', "tags", "list of strings"),
    ('{"_id": "b", "text": "t", "tags": ["x", 1]}', "tags", "list of strings"),
    ('{"_id": "b", "text": "t", "metadata": [1]}', "metadata", "expected an object"),
    ('{"_id": "a", "text": "again"}', "_id", "duplicate id 'a' (first on line 1)"),
])
def test_corpus_errors(tmp_path: Path, line2: str, field: str, fragment: str) -> None:
    path = tmp_path / "corpus.jsonl"
    # a blank line first: line numbers count it
    path.write_text('{"_id": "a", "text": "ok"}\n\n' + line2 + "\n", encoding="utf-8")
    with pytest.raises(FormatError) as info:
        read_corpus_jsonl(path)
    assert_names(info.value, path, 3, field)
    assert fragment in str(info.value)


def test_empty_corpus(tmp_path: Path) -> None:
    path = tmp_path / "corpus.jsonl"
    path.write_text("\n  \n", encoding="utf-8")
    with pytest.raises(FormatError, match="empty file") as info:
        read_corpus_jsonl(path)
    assert_names(info.value, path, 1, "_id")


def test_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "queries.jsonl"
    path.write_bytes(b'{"_id": "a", "text": "ok"}\n{"_id": "b", "text": "caf\xe9"}\n')
    with pytest.raises(FormatError, match="not UTF-8") as info:
        read_queries_jsonl(path)
    assert_names(info.value, path, 2, "encoding")


def test_duplicate_query(tmp_path: Path) -> None:
    path = jsonl(tmp_path / "queries.jsonl", {"_id": 1, "text": "a"}, {"_id": "1", "text": "b"})
    with pytest.raises(FormatError, match="duplicate") as info:
        read_queries_jsonl(path)
    assert_names(info.value, path, 2, "_id")


@pytest.mark.parametrize(("line2", "field", "fragment"), [
    ("q1\td1", "columns", "expected 3 columns"),
    ("q1 d1 1", "columns", "separated by tabs"),
    ("q1\td1\t1\textra", "columns", "found 4"),
    ("q1\td1\t1.5", "score", "integer grade"),
    ("q1\td1\thigh", "score", "integer grade"),
    ("q1\td1\t99999999999999999999999", "score", "integer grade (within"),
    ("qX\td1\t1", "query-id", "unknown query id 'qX'"),
    ("\td1\t1", "query-id", "empty id"),
    ("q1\td9\t1", "corpus-id", "duplicate judgment"),
])
def test_qrels_errors(tmp_path: Path, line2: str, field: str, fragment: str) -> None:
    path = tmp_path / "test.tsv"
    path.write_text(f"query-id\tcorpus-id\tscore\nq1\td9\t1\n{line2}\n", encoding="utf-8")
    with pytest.raises(FormatError) as info:
        read_qrels_tsv(path, query_ids={"q1"})
    assert_names(info.value, path, 3, field)
    assert fragment in str(info.value)


def test_qrels_unknown_document_only_with_doc_ids(tmp_path: Path) -> None:
    path = tmp_path / "test.tsv"
    path.write_text("q1\td1\t1\r\nq1\tmissing\t0\r\n", encoding="utf-8")
    assert read_qrels_tsv(path) == {"q1": {"d1": 1, "missing": 0}}
    with pytest.raises(FormatError) as info:
        read_qrels_tsv(path, doc_ids={"d1"})
    assert_names(info.value, path, 2, "corpus-id")


def test_header_only_qrels_has_no_judgments(tmp_path: Path) -> None:
    # not an "empty file": it holds a header
    path = tmp_path / "test.tsv"
    path.write_text("query-id\tcorpus-id\tscore\n", encoding="utf-8")
    with pytest.raises(FormatError, match="no judgments under the header line") as info:
        read_qrels_tsv(path)
    assert f"{path}:2:" in str(info.value)


def test_not_a_beir_folder(tmp_path: Path) -> None:
    with pytest.raises(FormatError, match=r"no corpus\.jsonl"):
        read_beir(tmp_path)


@pytest.mark.datasets
@pytest.mark.skipif(not SCIFACT.is_dir(), reason="SciFact not under ../shared/datasets")
def test_scifact() -> None:
    ds = read_beir(SCIFACT)
    assert ds.name == "scifact"
    assert len(ds.corpus) == 5183
    assert len(ds.queries) == 300
    assert ds.qrels is not None
    assert sum(len(docs) for docs in ds.qrels.values()) == 339
    assert set(ds.qrels) == set(ds.queries.ids)


def test_a_qrels_file_of_another_column_is_no_split(tmp_path: Path) -> None:
    """Cranfield ships raw_cranqrel.tsv beside its qrels: `query-id corpus-id cleverdon-code`,
    1 the most relevant. It was offered as a split (File ▸ Split, the Tune tab), and read
    said 'expected an integer grade … found cleverdon-code'."""
    from workbench.core.formats.auto import dataset_splits

    root = beir_folder(tmp_path / "mini")
    raw = root / "qrels" / "raw_codes.tsv"
    raw.write_text("query-id\tcorpus-id\tcleverdon-code\nq1\td1\t1\n", encoding="utf-8")
    (root / "qrels" / "binary.tsv").write_text("q1\td1\t1\n", encoding="utf-8")  # no header
    assert dataset_splits(root) == ["binary", "test"]
    with pytest.raises(FormatError) as info:
        read_qrels_tsv(raw)
    assert_names(info.value, raw, 1, "score")
    assert "its header names 'cleverdon-code' where BEIR's qrels have 'score'" in str(info.value)


def test_a_training_split_of_the_held_out_queries_only_is_said_so(tmp_path: Path) -> None:
    from workbench.core.params import ParamError
    from workbench.core.tuning.data import merge_splits

    root = beir_folder(tmp_path / "mini")
    (root / "qrels" / "test.binary.tsv").write_text("q1\td1\t1\nq2\t2\t1\n", encoding="utf-8")
    with pytest.raises(ParamError) as info:
        merge_splits(read_beir(root, "test.binary"), read_beir(root), "test.binary", "test")
    assert str(info.value).startswith("every query test.binary judges (2) is one of test, the "
                                      "held-out split: nothing is left to tune on")


def test_a_folders_judgments_of_unknown_queries_are_left_aside_and_said(tmp_path: Path) -> None:
    """As --qrels reads the same file (and trec_eval): the folder's own file had been an
    error for one query queries.jsonl lacks, the same file beside it a warning."""
    from workbench.core.checks import load_warnings
    from workbench.core.formats.beir import read_beir

    jsonl(tmp_path / "corpus.jsonl", {"_id": "d1", "text": "green tea"},
          {"_id": "d2", "text": "black tea"})
    jsonl(tmp_path / "queries.jsonl", {"_id": "q1", "text": "green"})
    (tmp_path / "qrels").mkdir()
    qrels = tmp_path / "qrels" / "test.tsv"
    qrels.write_text("query-id\tcorpus-id\tscore\nq1\td1\t1\nq9\td2\t1\n", encoding="utf-8")
    ds = read_beir(tmp_path)
    assert ds.qrels == {"q1": {"d1": 1}} and ds.queries.ids == ["q1"]
    assert any("judgments of 1 query the query set lacks left aside (q9)" in w
               for w in load_warnings(ds))
    qrels.write_text("query-id\tcorpus-id\tscore\nq8\td1\t1\nq9\td2\t1\n", encoding="utf-8")
    with pytest.raises(FormatError) as info:  # judging none of them: the wrong file
        read_beir(tmp_path)
    assert_names(info.value, qrels, 2, "query-id")


def test_the_splits_a_missing_split_names_are_those_offered(tmp_path: Path) -> None:
    """Asked for a split it lacks, Cranfield's folder listed raw_cranqrel among its splits
    ('splits here: raw_cranqrel, test, test.binary'), a file no split reads."""
    root = beir_folder(tmp_path / "mini")
    (root / "qrels" / "raw_codes.tsv").write_text("query-id\tcorpus-id\tcleverdon-code\n"
                                                  "q1\td1\t1\n", encoding="utf-8")
    (root / "qrels" / "binary.tsv").write_text("q1\td1\t1\n", encoding="utf-8")
    (root / "qrels" / "test.binary.tsv").write_text("q1\td1\t1\n", encoding="utf-8")
    with pytest.raises(FormatError) as info:  # in the order offered: test before test.binary
        read_beir(root, "train")
    assert str(info.value).endswith("no qrels/train.tsv (splits here: binary, test, "
                                    "test.binary)")
    (root / "qrels" / "test.binary.tsv").unlink()
    (root / "qrels" / "binary.tsv").unlink()
    (root / "qrels" / "test.tsv").unlink()
    with pytest.raises(FormatError) as info:
        read_beir(root, "test")
    assert str(info.value).endswith("no qrels/test.tsv (qrels/raw_codes.tsv holds no grades "
                                    "to score by)")


def test_ids_named_id_are_read_as_the_plain_reader_reads_them(tmp_path: Path) -> None:
    """A BEIR-like folder written with `id` in place of `_id` (reviewer d, F3): it loads, as
    the same corpus.jsonl given alone does; where a record has both, BEIR's `_id` is the id;
    a duplicate is named under the key the record used."""
    jsonl(tmp_path / "corpus.jsonl", {"id": "d1", "text": "green tea"},
          {"_id": "d2", "id": "other", "text": "black tea"})
    jsonl(tmp_path / "queries.jsonl", {"id": "q1", "text": "tea"})
    (tmp_path / "qrels").mkdir()
    (tmp_path / "qrels" / "test.tsv").write_text("q1\td1\t1\nq1\td2\t0\n", encoding="utf-8")
    ds = read_beir(tmp_path)
    assert [d.id for d in ds.corpus] == ["d1", "d2"]
    assert ds.queries.ids == ["q1"] and ds.qrels == {"q1": {"d1": 1, "d2": 0}}
    jsonl(tmp_path / "queries.jsonl", {"id": "q1", "text": "tea"}, {"id": "q1", "text": "x"})
    with pytest.raises(FormatError) as err:
        read_queries_jsonl(tmp_path / "queries.jsonl")
    assert_names(err.value, tmp_path / "queries.jsonl", 2, "id")


def _tea_like(root: Path) -> Path:
    jsonl(root / "corpus.jsonl", {"_id": "d1", "text": "green tea"})
    jsonl(root / "queries.jsonl", {"_id": "q1", "text": "tea"})
    return root


def test_judgments_there_but_not_as_read_are_said_not_taken_for_none(tmp_path: Path) -> None:
    """qrels/test.tsv.gz, qrels/test.tsv a folder, qrels a file: each was read as a folder
    without judgments ("no judgments to evaluate against") (reviewer d, F6)."""
    import gzip

    packed = _tea_like(tmp_path / "packed")
    (packed / "qrels").mkdir()
    (packed / "qrels" / "test.tsv.gz").write_bytes(gzip.compress(b"q1\td1\t1\n"))
    with pytest.raises(FormatError) as err:
        read_beir(packed)
    assert str(err.value) == (f"{packed / 'qrels' / 'test.tsv.gz'}: BEIR judgments are read as "
                              "plain test.tsv; decompress this one first (for example: "
                              "gunzip -k test.tsv.gz)")
    folder = _tea_like(tmp_path / "folder")
    (folder / "qrels" / "test.tsv").mkdir(parents=True)
    with pytest.raises(FormatError) as err:
        read_beir(folder)
    assert str(err.value) == (f"{folder / 'qrels' / 'test.tsv'}: a folder, not a file: BEIR "
                              "judgments are read from a tab-separated file")
    flat = _tea_like(tmp_path / "flat")
    (flat / "qrels").write_text("q1\td1\t1\n", encoding="utf-8")
    with pytest.raises(FormatError) as err:
        read_beir(flat)
    assert str(err.value) == (f"{flat / 'qrels'}: a file, not a folder: a BEIR folder's "
                              "judgments are read from qrels/<split>.tsv (move this one to "
                              "qrels/test.tsv)")


@pytest.mark.parametrize("name", ["corpus.jsonl", "queries.jsonl", "qrels/test.tsv"])
def test_a_gzip_file_under_a_plain_name_says_to_decompress_it(tmp_path: Path,
                                                              name: str) -> None:
    """A download saved as corpus.jsonl, not decompressed: it was "not UTF-8 text (byte 0x8b
    at offset 1)" (reviewer d, F6)."""
    import gzip

    folder = _tea_like(tmp_path)
    (folder / "qrels").mkdir()
    (folder / "qrels" / "test.tsv").write_text("q1\td1\t1\n", encoding="utf-8")
    path = folder / name
    path.write_bytes(gzip.compress(path.read_bytes()))
    with pytest.raises(FormatError) as err:
        read_beir(folder)
    base = path.name
    assert str(err.value) == (f"{path}:1: field 'encoding': gzip-compressed (its first bytes "
                              "are gzip's), not text: decompress it first (for example: mv "
                              f"{base} {base}.gz && gunzip -k {base}.gz)")


@pytest.mark.parametrize("first", ["query_id\tdoc_id\trelevance", "qid\tdocid\tlabel"])
def test_another_tools_header_is_said_as_a_header(tmp_path: Path, first: str) -> None:
    """A first line whose third cell is a name was "field 'score': expected an integer
    grade … found 'relevance'" (reviewer d, F9)."""
    path = tmp_path / "test.tsv"
    path.write_text(f"{first}\nq1\td1\t1\n", encoding="utf-8")
    with pytest.raises(FormatError) as err:
        read_qrels_tsv(path)
    # the line once (dr4 11), the header once (dr7 8)
    assert str(err.value) == (f"{path}:1: field 'header': column names "
                              f"({first.replace(chr(9), ', ')}), not a judgment: BEIR's are "
                              "query-id<TAB>corpus-id<TAB>score; rename them so, or remove the "
                              "line")


@pytest.mark.parametrize("grade", ["1.5", "", "x2"])
def test_a_bad_grade_on_line_1_is_still_a_bad_grade(tmp_path: Path, grade: str) -> None:
    path = tmp_path / "test.tsv"
    path.write_text(f"q1\td1\t{grade}\n", encoding="utf-8")
    with pytest.raises(FormatError) as err:
        read_qrels_tsv(path)
    assert_names(err.value, path, 1, "score")
