"""Plain documents and queries as JSON lines, CSV and TSV."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workbench.core.data import FormatError
from workbench.core.formats import read_documents, read_queries


def assert_names(err: FormatError, path: Path, line: int, field: str) -> None:
    msg = str(err)
    assert f"{path}:{line}:" in msg and f"field '{field}'" in msg
    assert (err.line, err.field) == (line, field)


def test_documents_jsonl(tmp_path: Path) -> None:
    path = tmp_path / "memories.jsonl"
    rows = [
        {"id": "m1", "title": "T", "text": "one", "tags": ["a"], "importance": 0.8,
         "createdAt": "2026-01-02", "pinned": True},
        {"_id": 7, "text": "seven", "metadata": {"cwd": "/src"}, "extra": [1, 2]},
    ]
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n\n", encoding="utf-8")
    corpus = read_documents(path)
    assert corpus.name == "memories"
    assert corpus.ids == ["m1", "7"]
    m1, m7 = corpus
    assert (m1.title, m1.text, m1.tags) == ("T", "one", ("a",))
    assert dict(m1.metadata) == {"importance": 0.8, "createdAt": "2026-01-02", "pinned": True}
    assert dict(m7.metadata) == {"cwd": "/src", "extra": [1, 2]}


def test_documents_csv(tmp_path: Path) -> None:
    path = tmp_path / "docs.csv"
    path.write_text(
        "\ufeffid,title,text,tags,importance\r\n"
        'a,Alpha,"first, with comma",x;y z;,0.5\r\n'
        '\r\n'
        'b,,"two\nlines","p, q",\r\n'
        'c,C,third,"[""j1"", ""j2""]",1\r\n',
        encoding="utf-8",
    )
    a, b, c = read_documents(path)
    assert (a.id, a.title, a.text, a.tags) == ("a", "Alpha", "first, with comma", ("x", "y z"))
    assert dict(a.metadata) == {"importance": "0.5"}  # CSV keeps strings
    assert (b.title, b.text, b.tags, dict(b.metadata)) == ("", "two\nlines", ("p", "q"),
                                                            {"importance": ""})
    assert c.tags == ("j1", "j2")


def test_queries_all_formats(tmp_path: Path) -> None:
    (tmp_path / "q.jsonl").write_text(
        '{"_id": "q1", "text": "hello", "context": {"now": "2026-01-01"}, "cwd": "/x"}\n',
        encoding="utf-8")
    (tmp_path / "q.csv").write_text("id,text,cwd\nq1,hello,/x\n", encoding="utf-8")
    (tmp_path / "q.tsv").write_text("_id\ttext\nq1\thello, world\n", encoding="utf-8")
    (q,) = read_queries(tmp_path / "q.jsonl")
    assert (q.id, q.text, dict(q.context)) == ("q1", "hello", {"now": "2026-01-01", "cwd": "/x"})
    (q,) = read_queries(tmp_path / "q.csv")
    assert dict(q.context) == {"cwd": "/x"}
    (q,) = read_queries(tmp_path / "q.tsv")
    assert q.text == "hello, world"


@pytest.mark.parametrize(("line3", "field", "fragment"), [
    ("c,C", "columns", "expected 3 columns"),
    (",C,text", "id", "empty id"),
    ("a,again,text", "id", "duplicate id 'a' (first on line 2)"),
])
def test_csv_errors(tmp_path: Path, line3: str, field: str, fragment: str) -> None:
    path = tmp_path / "docs.csv"
    path.write_text(f"id,title,text\na,A,alpha\n{line3}\n", encoding="utf-8")
    with pytest.raises(FormatError) as info:
        read_documents(path)
    assert_names(info.value, path, 3, field)
    assert fragment in str(info.value)


@pytest.mark.parametrize(("body", "line", "field"), [
    # the default csv reader folds lines 3-5 into one cell: one document, no error
    ('id,title,text\na,A,alpha\nb,B,"unclosed\nc,C,gamma\nd,D,delta\n', 3, "text"),
    # a quoted cell over two lines is fine; the quote opened on line 4 is not
    ('id,title,text\na,A,"two\nlines"\nb,"B, open,text\n', 4, "title"),
    ('id,"title,text\na,A,x\n', 1, "header"),
])
def test_csv_unclosed_quote(tmp_path: Path, body: str, line: int, field: str) -> None:
    for reader in (read_documents, read_queries):
        path = tmp_path / "rows.csv"
        path.write_text(body, encoding="utf-8")
        with pytest.raises(FormatError, match="never closes") as info:
            reader(path)
        assert_names(info.value, path, line, field)
    # TSV: a quote that does not make a quoted cell is text (MS MARCO's files quote nothing),
    # so no row folds into another
    tsv = tmp_path / "rows.tsv"
    tsv.write_text(body.replace(",", "\t"), encoding="utf-8")
    if field == "header":
        return
    try:
        assert any('"' in d.text + d.title for d in read_documents(tsv))
    except FormatError as exc:  # a quoted cell over two lines, read unquoted: a short row
        assert exc.line is not None and "columns as in the header" in str(exc)


def test_csv_text_after_a_closing_quote(tmp_path: Path) -> None:
    path = tmp_path / "docs.csv"
    path.write_text('id,text\na,"x""y"\nb,"x"y\n', encoding="utf-8")
    with pytest.raises(FormatError, match="invalid CSV") as info:
        read_documents(path)
    assert_names(info.value, path, 3, "csv")


def test_csv_quote_left_open_that_a_later_line_closes(tmp_path: Path) -> None:
    """ra 6: line 3's quote, never closed there, is closed by line 4's opening quote: the
    error had named line 4, which is valid, not line 3, where the cell opened."""
    path = tmp_path / "docs.csv"
    path.write_text('id,title,text\na,A,alpha\nd9,"Open quote,never closed\n'
                    'd5,Growing,"high up, on hills"\nd6,B,beta\n', encoding="utf-8")
    with pytest.raises(FormatError) as info:
        read_documents(path)
    assert str(info.value) == (
        f"{path}:3: field 'title': the quoted cell opened in column 2 runs on into line 4, "
        "where text follows its closing quote (',' expected after '\"'): a quote never "
        "closed on this line?")


def test_csv_missing_text_column(tmp_path: Path) -> None:
    path = tmp_path / "docs.csv"
    path.write_text("id,body\na,alpha\n", encoding="utf-8")
    with pytest.raises(FormatError, match="has no 'text' column") as info:
        read_documents(path)
    assert_names(info.value, path, 1, "header")


def test_csv_without_a_header_row_says_so(tmp_path: Path) -> None:
    # it said "line 2: field 'id': missing": the first record had become the header
    path = tmp_path / "docs.csv"
    path.write_text("d001,The Tea Plant,Tea comes from\nd002,Green,Green tea\n")
    with pytest.raises(FormatError, match=r"has no 'id' column \(found: d001, The Tea Plant"
                       ) as info:
        read_queries(path)
    assert_names(info.value, path, 1, "header")


def test_csv_duplicate_column(tmp_path: Path) -> None:
    path = tmp_path / "docs.csv"
    path.write_text("id,text,text\na,b,c\n", encoding="utf-8")
    with pytest.raises(FormatError, match="duplicate column") as info:
        read_documents(path)
    assert_names(info.value, path, 1, "text")


def test_csv_bad_tags_list(tmp_path: Path) -> None:
    path = tmp_path / "docs.csv"
    path.write_text('id,text,tags\na,b,"[1, 2]"\n', encoding="utf-8")
    with pytest.raises(FormatError) as info:
        read_documents(path)
    assert_names(info.value, path, 2, "tags")


@pytest.mark.parametrize(("row", "field", "fragment"), [
    ({"id": "b", "_id": "b", "text": "t"}, "_id", "both"),
    ({"id": "b", "text": None}, "text", "found null"),
    ({"id": "b", "text": "t", "tags": [["x"]]}, "tags", "list of strings"),
    ({"id": "b", "text": "t", "cwd": "/a", "metadata": {"cwd": "/b"}}, "metadata.cwd", "both"),
])
def test_jsonl_errors(tmp_path: Path, row: dict[str, object], field: str, fragment: str) -> None:
    path = tmp_path / "docs.jsonl"
    path.write_text(json.dumps({"id": "a", "text": "ok"}) + "\n" + json.dumps(row) + "\n",
                    encoding="utf-8")
    with pytest.raises(FormatError) as info:
        read_documents(path)
    assert_names(info.value, path, 2, field)
    assert fragment in str(info.value)


def test_empty_and_non_utf8(tmp_path: Path) -> None:
    empty = tmp_path / "docs.csv"
    empty.write_text("id,text\n", encoding="utf-8")
    with pytest.raises(FormatError, match="empty file") as info:
        read_documents(empty)
    assert_names(info.value, empty, 1, "id")
    latin = tmp_path / "queries.tsv"
    latin.write_bytes(b"id\ttext\nq1\tna\xefve\n")
    with pytest.raises(FormatError, match="not UTF-8") as info:
        read_queries(latin)
    assert_names(info.value, latin, 2, "encoding")


def test_unknown_suffix(tmp_path: Path) -> None:
    path = tmp_path / "docs.xml"
    path.write_text("<docs/>", encoding="utf-8")
    with pytest.raises(FormatError, match=r"\.jsonl, \.csv or \.tsv"):
        read_documents(path)


def test_tsv_has_no_quoting_and_reads_ms_marco_layout(tmp_path: Path) -> None:
    """A `"` in a TSV cell was read as a CSV quote (`invalid CSV ('\\t' expected after '"')`),
    and MS MARCO's headerless `qid<TAB>text` files had "no 'id' column"."""
    marco = tmp_path / "queries.tsv"
    marco.write_text('1048585\twhat is paula "deen" brother\n2\tAndrew Carnegie\n',
                     encoding="utf-8")
    assert [(q.id, q.text) for q in read_queries(marco)] == [
        ("1048585", 'what is paula "deen" brother'), ("2", "Andrew Carnegie")]
    docs = tmp_path / "collection.tsv"
    docs.write_text('0\tThe "presence" of communication\n', encoding="utf-8")
    assert [(d.id, d.text) for d in read_documents(docs)] == [
        ("0", 'The "presence" of communication')]
    headed = tmp_path / "headed.tsv"
    headed.write_text('id\ttext\tlang\nq1\t"quoted" words\ten\n', encoding="utf-8")
    (q,) = read_queries(headed)
    assert (q.id, q.text, q.context["lang"]) == ("q1", '"quoted" words', "en")
    # a quote opening one passage and one closing a later one: text, not one merged cell
    quoted = tmp_path / "quoted.tsv"
    quoted.write_text('1\t"Quoted start\n2\tmiddle\n3\tquoted end"\n', encoding="utf-8")
    assert [d.id for d in read_documents(quoted)] == ["1", "2", "3"]
    # three columns and no header, or a header of other names: still refused
    bad = tmp_path / "bad.tsv"
    bad.write_text("a\tb\tc\n", encoding="utf-8")
    with pytest.raises(FormatError, match="has no 'id' column"):
        read_queries(bad)
    named = tmp_path / "named.tsv"
    named.write_text("pid\tpassage\n7\tsome text\n", encoding="utf-8")
    with pytest.raises(FormatError, match="has no 'id' column"):
        read_documents(named)


def test_a_tsv_documents_file_opens_as_a_dataset(tmp_path: Path) -> None:
    """MS MARCO's collection.tsv: read_documents took it, the dataset loader refused it."""
    from workbench.core.formats import load_dataset

    docs = tmp_path / "collection.tsv"
    docs.write_text("0\tThe presence of communication\n1\tAnother passage\n", encoding="utf-8")
    assert load_dataset(docs).corpus.ids == ["0", "1"]


@pytest.mark.parametrize("header", ["id,Title,text", "ID,Title,Text", "Id,TITLE,Text,Tags"])
def test_csv_columns_are_read_by_name_in_any_case(tmp_path: Path, header: str) -> None:
    # `Title` went to the metadata, never searched; `ID,Title,Text` was refused
    path = tmp_path / "docs.csv"
    cells = "d1,Green tea,about leaves" + (",a;b" if header.endswith("Tags") else "")
    path.write_text(f"{header}\n{cells}\n", encoding="utf-8")
    doc = read_documents(path)[0]
    assert (doc.id, doc.title, doc.text) == ("d1", "Green tea", "about leaves")


def test_columns_that_differ_only_in_case_are_one_column_said_as_written(tmp_path: Path) -> None:
    path = tmp_path / "docs.csv"
    path.write_text("id,Title,title,text\nd1,a,b,c\n", encoding="utf-8")
    with pytest.raises(FormatError, match=r"duplicate column 'Title' and 'title' \(one "
                                          r"column, 'title'\)"):
        read_documents(path)


def test_a_gzip_file_under_a_plain_name_says_to_decompress_it(tmp_path: Path) -> None:
    """docs.csv holding gzip's bytes (reviewer d, F6): said as compressed, not as "not
    UTF-8 text (byte 0x8b …)"."""
    import gzip

    path = tmp_path / "docs.csv"
    path.write_bytes(gzip.compress(b"id,text\nd1,tea\n"))
    with pytest.raises(FormatError, match=r"docs.csv:1: field 'encoding': gzip-compressed"):
        read_documents(path)
