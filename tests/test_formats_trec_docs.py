"""TREC SGML documents (<DOC> <DOCNO> … </DOC>), a file or a folder of them, read as Anserini's
TrecCollection keeps them: headline tags as the title, TEXT, LP, LEADPARA, DATE and DD as the
text, every other tag dropped."""

from __future__ import annotations

import gzip
import json
import shlex
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from tests.conftest import dense_totals
from workbench.cli import main
from workbench.core.data import FormatError
from workbench.core.formats import load_dataset
from workbench.core.formats.trec_docs import is_trec_documents, read_trec_documents
from workbench.core.models.bm25 import BM25Model

# AP: two <HEAD>s and a <FILEID> (dropped); FT: <DATE> kept as text, <BYLINE> and <PROFILE>
# dropped; LA Times: <P> inside <TEXT> and <HEADLINE>; an entity
AP = """<DOC>
<DOCNO> AP880212-0001 </DOCNO>
<FILEID>AP-NR-02-12-88 2344EST</FILEID>
<HEAD>Green Tea Prices Rise</HEAD>
<HEAD>Growers Cite Frost</HEAD>
<TEXT>
   Green tea growers said Friday that a late frost
cut the spring harvest.
</TEXT>
</DOC>
<DOC>
<DOCNO> AP880212-0002 </DOCNO>
<TEXT>
Black tea exports held steady.
</TEXT>
</DOC>
"""

FT = """<DOC>
<DOCNO>FT911-3</DOCNO>
<PROFILE>_AN-BEOA7AAIFT</PROFILE>
<DATE>910514
</DATE>
<HEADLINE>
FT  14 MAY 91 / Oolong &amp; Darjeeling
</HEADLINE>
<BYLINE>By A Writer</BYLINE>
<TEXT>
Oolong buyers in London paid more.
</TEXT>
<PUB>The Financial Times</PUB>
</DOC>
"""

LATIMES = """<doc>
<docno> LA010189-0001 </docno>
<headline><P>Matcha Whisks Sell Out</P></headline>
<text>
<P>Shops ran out of whisks.</P>
<P>More arrive in March.</P>
</text>
</doc>
"""


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_kept_tags_as_title_and_text(tmp_path: Path) -> None:
    corpus = read_trec_documents(write(tmp_path / "ap880212", AP))
    assert corpus.name == "ap880212"
    assert corpus.ids == ["AP880212-0001", "AP880212-0002"]
    first, second = corpus
    assert first.title == "Green Tea Prices Rise Growers Cite Frost"
    assert first.text == ("Green tea growers said Friday that a late frost cut the spring "
                          "harvest.")
    assert (second.title, second.text) == ("", "Black tea exports held steady.")


def test_other_tags_dropped_as_anserini_drops_them(tmp_path: Path) -> None:
    (doc,) = read_trec_documents(write(tmp_path / "ft911_1", FT))
    assert doc.id == "FT911-3"
    assert doc.title == "FT 14 MAY 91 / Oolong & Darjeeling"
    assert doc.text == "910514 Oolong buyers in London paid more."  # DATE, then TEXT
    (doc,) = read_trec_documents(write(tmp_path / "la010189", LATIMES))
    assert (doc.id, doc.title, doc.text) == ("LA010189-0001", "Matcha Whisks Sell Out",
                                             "Shops ran out of whisks. More arrive in March.")


def test_an_id_attribute_where_there_is_no_docno(tmp_path: Path) -> None:
    text = ('<DOC id="APW_ENG_20050101.0001" type="story">\n<HEADLINE>Tea</HEADLINE>\n'
            "<TEXT>\n<P>Chai.</P>\n</TEXT>\n</DOC>\n")
    (doc,) = read_trec_documents(write(tmp_path / "apw.xml", text))
    assert (doc.id, doc.title, doc.text) == ("APW_ENG_20050101.0001", "Tea", "Chai.")


def test_a_folder_as_the_trec_disks_lay_it_out(tmp_path: Path) -> None:
    disk = tmp_path / "disk4"
    write(disk / "ft" / "ft911" / "ft911_1", FT)
    write(disk / "latimes" / "la010189", LATIMES)
    (disk / "latimes" / "la010190.gz").write_bytes(gzip.compress(AP.encode()))
    write(disk / "readme.ft", "The Financial Times, 1991-1994.\n")  # skipped, as Anserini
    write(disk / "cr" / "cr93e1", AP.replace("AP88", "CR93"))  # skipped: not in Robust04
    write(disk / "dtds" / "ft.dtd", "<!ELEMENT DOC - - (DOCNO)>\n")  # skipped
    dataset = load_dataset(disk)
    assert dataset.name == "disk4"
    assert dataset.corpus.ids == ["FT911-3", "LA010189-0001", "AP880212-0001",
                                  "AP880212-0002"]


def test_one_gz_file_opens_alone(tmp_path: Path) -> None:
    path = tmp_path / "ap880212.gz"
    path.write_bytes(gzip.compress(AP.encode()))
    assert load_dataset(path).corpus.ids == ["AP880212-0001", "AP880212-0002"]


def test_bm25_reads_the_words_of_the_same_corpus_as_title_and_text(tmp_path: Path) -> None:
    sgml = write(tmp_path / "ap.sgml", AP + FT)
    plain = tmp_path / "ap.jsonl"
    plain.write_text("".join(json.dumps(d) + "\n" for d in [
        {"id": "AP880212-0001", "title": "Green Tea Prices Rise Growers Cite Frost",
         "text": "Green tea growers said Friday that a late frost cut the spring harvest."},
        {"id": "AP880212-0002", "text": "Black tea exports held steady."},
        {"id": "FT911-3", "title": "FT 14 MAY 91 / Oolong & Darjeeling",
         "text": "910514 Oolong buyers in London paid more."}]), encoding="utf-8")
    queries = write(tmp_path / "q.jsonl", '{"id": "1", "text": "green tea frost"}\n'
                                          '{"id": "2", "text": "oolong tea london"}\n')
    model = BM25Model()
    params = model.schema.resolve({})
    totals = [dense_totals(model.combine(model.prepare(load_dataset(data, queries=queries),
                                                       params), params), 3)
              for data in (sgml, plain)]
    assert np.count_nonzero(totals[0]) == 5  # every document holds tea; frost, london too
    assert np.array_equal(totals[0], totals[1])


@pytest.mark.parametrize(("text", "line", "field", "said"), [
    ("<DOC>\n<TEXT>tea</TEXT>\n</DOC>\n", 1, "DOCNO", "a <DOC> without a <DOCNO>"),
    ("<DOC>\n<DOCNO>  </DOCNO>\n</DOC>\n", 2, "DOCNO", "empty document number"),
    ("<DOC>\n<DOCNO> A 1 </DOCNO>\n</DOC>\n", 2, "DOCNO",
     "document number 'A 1' holds white space (a run file names a document by one word)"),
    (AP + "<DOC>\n<DOCNO>AP880212-0001</DOCNO>\n</DOC>\n", 18, "DOCNO",
     "duplicate document number 'AP880212-0001' (first on line 2)"),
    ("<DOC>\n<DOCNO>a</DOCNO>\n<DOC>\n<DOCNO>b</DOCNO>\n</DOC>\n", 3, "DOC",
     "a <DOC> opens before the one on line 1 closes"),
    # ra 7: the second had been dropped without a word
    ("<DOC>\n<DOCNO> d5 </DOCNO>\n<TEXT>tea</TEXT>\n<DOCNO> d5b </DOCNO>\n</DOC>\n", 4, "DOCNO",
     "a <DOC> with two <DOCNO>s ('d5' on line 2, 'd5b' here): one record, one document number"),
    ("<DOC>\n<DOCNO>a</DOCNO>\n<TEXT>tea\n", 1, "DOC", "<DOC> never closes (no </DOC> after it)"),
    ("<DOC>\n<DOCNO>a</DOCNO>\n<TEXT>tea\n</DOC>\n", 3, "TEXT",
     "<TEXT> never closes before the </DOC> of the record on line 1"),
])
def test_a_bad_record_is_one_error(tmp_path: Path, text: str, line: int, field: str,
                                   said: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path / "docs.trec", text)
    with pytest.raises(FormatError) as info:
        read_trec_documents(path)
    assert str(info.value) == f"{path}:{line}: field '{field}': {said}"
    assert main(["rank", str(path), "-m", "bm25", "-q", "tea"]) != 0
    err = capsys.readouterr().err
    assert f"{path}:{line}: field '{field}': {said}" in err and "Traceback" not in err


def test_an_id_in_two_files_names_both(tmp_path: Path) -> None:
    write(tmp_path / "d" / "a", AP)
    write(tmp_path / "d" / "b", LATIMES + AP.split("</DOC>\n")[1] + "</DOC>\n")
    with pytest.raises(FormatError) as info:
        load_dataset(tmp_path / "d")
    assert str(info.value) == (f"{tmp_path / 'd' / 'b'}:10: field 'DOCNO': duplicate document "
                               f"number 'AP880212-0002' (first on {tmp_path / 'd' / 'a'}:12)")


def test_a_folder_file_without_records_is_skipped_and_named(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A change-notes file or an MD5SUMS among the disks' files is read as no documents, as
    Anserini's TrecCollection reads it, and named in a warning (dr5 4: it had refused the
    folder); sorted first, it no longer hides the folder's TREC files."""
    folder = tmp_path / "disk45"
    md5 = write(folder / "MD5SUMS", "d41d8cd98f00b204e9800998ecf8427e  ft/ft911_1\n")
    write(folder / "ft" / "ft911_1", AP)
    notes = write(folder / "ft" / "readfrcg", "Changes made to the FR files:\n")
    dataset = load_dataset(folder)
    assert dataset.corpus.ids == ["AP880212-0001", "AP880212-0002"]
    assert dataset.settings["trec_files_skipped"] == [str(md5), str(notes)]
    assert main(["rank", str(folder), "-m", "bm25", "-q", "green tea"]) == 0
    captured = capsys.readouterr()
    assert (f"warning: 2 file(s) of the TREC folder hold no <DOC> records and were skipped, "
            f"as Anserini's TrecCollection reads them as no documents ({md5}, {notes})"
            in captured.err)
    assert "(2 documents)" in captured.out


def test_a_folder_without_any_record_is_one_error(tmp_path: Path) -> None:
    folder = tmp_path / "d"
    first = write(folder / "MD5SUMS", "x\n")
    write(folder / "sub" / "a", "no records either\n")
    with pytest.raises(FormatError) as info:  # no file starts with <DOC>: not TREC at all
        load_dataset(folder)
    assert "expected a BEIR folder" in str(info.value)
    with pytest.raises(FormatError) as info:
        read_trec_documents(folder)
    assert str(info.value) == (f"{folder}: no <DOC> records in any of the "
                               f"folder's 2 file(s) (first: {first}): expected TREC SGML "
                               "documents")


def test_a_single_file_without_records_is_still_refused(tmp_path: Path) -> None:
    path = write(tmp_path / "notes.sgml", "<DOCSTREAM>\n</DOCSTREAM>\n")
    with pytest.raises(FormatError) as info:
        read_trec_documents(path)
    assert str(info.value) == (f"{path}:1: field 'DOC': no <DOC> records: expected TREC SGML "
                               "documents (<DOC> <DOCNO> … </DOCNO> … </DOC>)")


COMPRESS_SAID = ("which is not read: decompress it first (this file: gzip -d -S {s} {n}; "
                 "every such file under a folder: find FOLDER -iregex '.*\\.[0-9]*z' ! -iname "
                 "'*.7z' -exec sh -c 'for f; do gzip -d -S \".${{f##*.}}\" \"$f\"; done' sh "
                 "{{}} +)")


@pytest.mark.skipif(shutil.which("find") is None, reason="needs find")
def test_the_compress_hint_finds_compress_files_and_not_7z_archives(tmp_path: Path) -> None:
    """The hint's find, run over a folder holding a.Z, FR94's c.0z and a 7-Zip b.7z, names the
    compress files only: its `-iregex '.*\\.[0-9]*z'` alone had matched b.7z too, which
    `gzip -d` then fails on."""
    folder = tmp_path / "disk"
    folder.mkdir()
    for name in ("a.Z", "b.7z", "c.0z"):
        (folder / name).write_bytes(b"\x1f\x9d\x90<DOC>")
    with pytest.raises(FormatError) as info:
        load_dataset(folder)
    said = str(info.value)
    find = said[said.index("find FOLDER"):said.index(" -exec ")]
    command = find.replace("FOLDER", shlex.quote(str(folder))) + " -print"
    found = subprocess.run(["sh", "-c", command], capture_output=True, text=True, check=True)
    assert sorted(Path(line).name for line in found.stdout.splitlines()) == ["a.Z", "c.0z"]


def test_a_7z_archive_in_a_trec_folder_is_skipped_and_named(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A 7-Zip backup among the TREC files had refused the folder ("not UTF-8 text"): it is
    passed over and named, as a file without records is, with how to unpack it."""
    folder = tmp_path / "disk"
    write(folder / "ap" / "ap880212", AP)
    archive = folder / "backup.7z"
    archive.write_bytes(b"7z\xbc\xaf\x27\x1c\x00\x04" + bytes(range(256)))
    dataset = load_dataset(folder)
    assert dataset.corpus.ids == ["AP880212-0001", "AP880212-0002"]
    assert dataset.settings["trec_files_skipped"] == [str(archive)]
    assert main(["rank", str(folder), "-m", "bm25", "-q", "green tea"]) == 0
    captured = capsys.readouterr()
    assert "(2 documents)" in captured.out
    assert (f"warning: a 7-Zip archive of the TREC folder skipped, not read ({archive}): "
            f"unpack it (7z x -o{folder} {archive}, then move it out of the folder) if it holds "
            "documents"
            ) in " ".join(captured.err.split())
    assert "hold no <DOC> records" not in captured.err


def test_7z_archives_are_said_apart_from_files_without_records(tmp_path: Path) -> None:
    """The archives had been counted among the files that "hold no <DOC> records … as Anserini
    reads them as no documents", then said to maybe hold documents, with "7z x FILE" for two
    (dr1 8): they get their own warning, with a command for the first."""
    from workbench.core.checks import load_warnings

    folder = tmp_path / "disk 4"
    write(folder / "ap" / "ap880212", AP)
    md5 = write(folder / "MD5SUMS", "d41d8cd98f00b204e9800998ecf8427e  ap/ap880212\n")
    old = folder / "ap" / "old.7Z"
    backup = folder / "backup.7z"
    for archive in (old, backup):
        archive.write_bytes(b"7z\xbc\xaf\x27\x1c\x00\x04")
    assert load_warnings(load_dataset(folder)) == [
        f"1 file(s) of the TREC folder hold no <DOC> records and were skipped, as Anserini's "
        f"TrecCollection reads them as no documents ({md5})",
        f"2 7-Zip archives of the TREC folder skipped, not read ({backup}, {old}): unpack them "
        f"(7z x '-o{folder}' '{backup}', and so on, then move them out of the folder) if they "
        "hold documents"]


def test_unix_compress_is_refused_with_what_to_do(tmp_path: Path) -> None:
    packed = tmp_path / "fr94" / "fr940104.0z"
    packed.parent.mkdir()
    packed.write_bytes(b"\x1f\x9d\x90<DOC>")  # compress's magic
    with pytest.raises(FormatError) as info:
        load_dataset(tmp_path / "fr94")
    assert str(info.value) == (f"{packed}: compressed with Unix compress (.0z), "
                               + COMPRESS_SAID.format(s=".0z", n="fr940104.0z"))


def test_a_single_compressed_or_damaged_file_gets_its_own_message(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Given alone, a compress-ed file and a .gz that does not decompress are said so, not
    answered with the list of every format (dr5 6)."""
    packed = tmp_path / "fr940104.1z"
    packed.write_bytes(b"\x1f\x9d\x90<DOC>")
    bad = tmp_path / "docs.sgml.gz"
    bad.write_bytes(b"<DOC>\n<DOCNO> A </DOCNO>\n</DOC>\n")  # not gzip at all
    said = {packed: (f"{packed}: compressed with Unix compress (.1z), "
                     + COMPRESS_SAID.format(s=".1z", n="fr940104.1z")),
            bad: f"{bad}: field 'encoding': not a readable gzip file ("}
    for path, message in said.items():
        with pytest.raises(FormatError) as info:
            load_dataset(path)
        assert str(info.value).startswith(message)
        assert main(["rank", str(path), "-m", "bm25", "-q", "tea"]) != 0
        err = capsys.readouterr().err
        assert message in err and "expected a BEIR folder" not in err and "Traceback" not in err


WT10G = """<DOC>
<DOCNO>WTX001-B01-1</DOCNO>
<DOCOLDNO>IA001-000000-B001-1</DOCOLDNO>
<DOCHDR>
http://www.example.org/pool.html 192.0.2.1 19970101000000 text/html 1234
HTTP/1.0 200 OK
</DOCHDR>
<html><head><title>Recreation Services</title><style>body { color: red; }</style>
<script>var pool = "closed";</script></head><body>Swimming pool hours.</body></html>
</DOC>
"""


def test_a_web_collection_is_read_as_trecweb_reads_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """WT10g and GOV2 records (a <DOCHDR>, then the page) are read as Anserini's
    TrecwebCollection reads them: the page's text without its scripts, styles and comments,
    its <title> the title, the header's first word the URL (item 5; dr5 1 had refused them, as
    read as TREC news their head was the title and their body lost)."""
    gov2 = ("<DOC>\n<DOCNO>GX000-00-2</DOCNO>\n<DOCHDR>\nhttp://example.gov/tea\n</DOCHDR>\n"
            "<HTML><BODY><P>Green tea at the caf&eacute;.</P></BODY></HTML>\n</DOC>\n")
    path = write(tmp_path / "wt" / "wtx001", WT10G + gov2)
    for given in (path, path.parent):
        docs = list(load_dataset(given).corpus)
        assert [(d.id, d.title, d.text, dict(d.metadata)) for d in docs] == [
            ("WTX001-B01-1", "Recreation Services", "Swimming pool hours.",
             {"url": "http://www.example.org/pool.html"}),
            ("GX000-00-2", "", "Green tea at the café.", {"url": "http://example.gov/tea"})]
    assert main(["rank", str(path.parent), "-m", "bm25", "-q", "swimming pool"]) == 0
    out = capsys.readouterr().out
    assert "(2 documents)" in out
    assert [line.split()[:2] for line in out.splitlines() if line.strip()[:1].isdigit()] == [
        ["1", "WTX001-B01-1"]]


def web(doc_id: str, page: str, header: str = "http://a.example/x") -> str:
    """A web record (WT10g/GOV2) of `page` under a <DOCHDR> of `header`."""
    return f"<DOC>\n<DOCNO>{doc_id}</DOCNO>\n<DOCHDR>\n{header}\n</DOCHDR>\n{page}\n</DOC>\n"


def test_bytes_that_are_not_utf8_are_read_as_anserini_reads_them(tmp_path: Path) -> None:
    """A page kept in its server's charset (Latin-1 é) had refused the whole collection
    ("not UTF-8 text", dr1 1): read as U+FFFD, as Anserini's UTF-8 reader reads it, with one
    warning naming the file, the line and how many bytes; a news file the same."""
    folder = tmp_path / "wt10g"
    first = folder / "wtx001"
    first.parent.mkdir()
    first.write_bytes(web("W-1", "<html><body>caf\xe9 in UTF-8</body></html>").encode()
                      + web("W-2", "<p>na\xefve \xe9t\xe9</p>").encode("latin-1"))
    second = folder / "wtx002"
    second.write_bytes(AP.replace("late frost", "late fr\xf6st").encode("latin-1"))
    dataset = load_dataset(folder)
    texts = {d.id: d.text for d in dataset.corpus}
    assert texts["W-1"] == "caf\xe9 in UTF-8"
    assert texts["W-2"] == "na\ufffdve \ufffdt\ufffd"
    assert "late fr\ufffdst" in texts["AP880212-0001"]
    from workbench.core.checks import load_warnings

    assert load_warnings(dataset) == [
        f"4 byte(s) that are not UTF-8 (2 files, first {first}:13) read as U+FFFD, as "
        "Anserini reads them (a crawled page keeps its server's charset): the words holding "
        "one match no query word"]
    assert load_warnings(load_dataset(second)) == [
        f"1 byte(s) that are not UTF-8 ({second}:7) read as U+FFFD, as Anserini reads them (a "
        "crawled page keeps its server's charset): the words holding one match no query word"]


def test_a_web_record_ends_only_at_a_line_that_starts_with_its_close(tmp_path: Path) -> None:
    """As TrecwebCollection reads it, a web record ends only at a line starting with </DOC>
    (a script's "</DOC>" had ended it, the body lost and the script read as text, dr1 2), and
    a page's line starting with <DOC> is skipped (it had refused the file, dr1 3)."""
    script = ('<html><head><title>Tea page</title><script>var s="</DOC>";</script></head>'
              "<body><p>Green tea brewing</p></body></html>")
    quoted = ("<pre>\n&lt;DOC&gt; escaped is fine\n<DOC>\n<DOCNO>fake</DOCNO>\n</pre> oolong"
              "\n  <doc> a line Anserini skips")
    path = write(tmp_path / "wt" / "wtx001", web("W-1", script) + web("W-2", quoted) + AP)
    assert [(d.id, d.title, d.text) for d in load_dataset(path).corpus] == [
        ("W-1", "Tea page", "Green tea brewing"),
        ("W-2", "", "<DOC> escaped is fine fake oolong"),
        ("AP880212-0001", "Green Tea Prices Rise Growers Cite Frost",
         "Green tea growers said Friday that a late frost cut the spring harvest."),
        ("AP880212-0002", "", "Black tea exports held steady.")]


@pytest.mark.parametrize(("header", "metadata"), [
    ("HTTP/1.1 200 OK\nContent-Type: text/html", {}),
    ("", {}),
    ("http://www.example.org/pool.html 192.0.2.1 19970101000000", {
        "url": "http://www.example.org/pool.html"}),
], ids=["status-line-first", "empty", "url-first"])
def test_a_header_without_a_url_stores_none(tmp_path: Path, header: str,
                                            metadata: dict[str, str]) -> None:
    """The header's first word is the URL only where it is one: "HTTP/1.1" had been stored as
    the url (dr1 4)."""
    path = write(tmp_path / "wtx001", web("W-3", "<p>Jasmine</p>", header))
    (doc,) = load_dataset(path).corpus
    assert (doc.text, dict(doc.metadata)) == ("Jasmine", metadata)


def test_inline_tags_do_not_split_words_as_jsoup_reads_them(tmp_path: Path) -> None:
    """Jsoup's text() (Anserini's JsoupGenerator) separates words only at block elements and
    <br>: a drop cap `<font>W</font>elcome` and `<B>l</B>anded` had been read as two words
    each (dr1 10)."""
    page = ('<html><body><p><font size=+2>W</font>elcome to <a href="/x">tea</a>s.</p>'
            "<div>Apollo eleven <B>l</B>anded.</div><table><tr><td>one</td><td>two</td></tr>"
            "</table>line<br>break<br/>again<span>s</span></body></html>")
    path = write(tmp_path / "wtx001", web("W-7", page))
    (doc,) = load_dataset(path).corpus
    assert doc.text == "Welcome to teas. Apollo eleven landed. one two line break agains"


@pytest.mark.parametrize(("text", "line", "field", "said"), [
    ("<DOC>\n<DOCNO>GX000-00-1</DOCNO>\n<HTML><BODY><P>Only a body, swimming lessons.</P>"
     "</BODY></HTML>\n</DOC>\n", 3, "HTML",
     "an HTML page in a <DOC> without a <DOCHDR>: a TREC web record (WT10g, GOV2) gives the "
     "crawl's header in a <DOCHDR> before its page, and read as a TREC news record its page "
     "text would be lost: add the header (its first word the page's URL), or convert the "
     "pages to text first (JSON lines of id and contents)"),
    ("<DOC>\n<DOCNO>GX000-00-1</DOCNO>\n\n<DOCHDR>\nhttp://example.gov/\n<html>swimming"
     "</html>\n</DOC>\n", 4, "DOCHDR",
     "<DOCHDR> never closes before the </DOC> of the record on line 1"),
], ids=["page-without-header", "header-not-closed"])
def test_a_web_record_it_cannot_read_is_one_error(
        tmp_path: Path, text: str, line: int, field: str, said: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path / "wt" / "wtx001", text)
    said = f"{path}:{line}: field '{field}': {said}"
    for given in (path, path.parent):
        with pytest.raises(FormatError) as info:
            load_dataset(given)
        assert str(info.value) == said
    assert main(["rank", str(path), "-m", "bm25", "-q", "swimming pool"]) != 0
    err = capsys.readouterr().err
    assert said in err and "Traceback" not in err


def test_a_damaged_gz_is_one_error(tmp_path: Path) -> None:
    path = tmp_path / "d" / "ap.gz"
    path.parent.mkdir()
    path.write_bytes(gzip.compress(AP.encode())[:-12])  # cut short: no end of stream
    write(tmp_path / "d" / "a", AP.replace("AP88", "XX88"))
    with pytest.raises(FormatError) as info:
        load_dataset(tmp_path / "d")
    assert str(info.value).startswith(f"{path}: field 'encoding': not a readable gzip file (")


QRELS = """401 0 AP880212-0001 1
401 0 AP880212-0002 0
402 0 FT911-3 2
402 0 LA010189-0001 0
"""
TOPICS = """<top>
<num> Number: 401
<title> green tea frost
<desc> Description:
Why did black tea exports hold?
</top>
<top>
<num> Number: 402
<title> oolong prices in london
<desc> Description:
Shops selling matcha whisks.
</top>
"""


def test_eval_end_to_end_on_trec_files(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    """Titles: 401's green tea frost ranks AP880212-0001 (all three words) first; 402's
    oolong, london rank FT911-3 first: nDCG@10 1. Descriptions: 401's black tea exports ranks
    the judged-irrelevant AP880212-0002 first and AP880212-0001 (tea) below it; 402's matcha
    whisks finds LA010189-0001 only, judged 0: 402 scores 0."""
    disk = tmp_path / "disk"
    write(disk / "ap" / "ap880212", AP)
    write(disk / "ft" / "ft911_1", FT)
    write(disk / "la" / "la010189", LATIMES)
    run = tmp_path / "run.txt"
    args = ["eval", str(disk), "--queries", str(write(tmp_path / "topics.301", TOPICS)),
            "--qrels", str(write(tmp_path / "qrels.txt", QRELS)), "-m", "bm25",
            "--metrics", "ndcg@10,mrr@10"]
    assert main([*args, "--run", str(run)]) == 0
    out = capsys.readouterr().out
    assert "disk: 4 documents, 2 judged queries" in out
    assert {line.split()[0]: line.split()[1] for line in out.splitlines()
            if line.startswith(("ndcg@10 ", "mrr@10 "))} == {"ndcg@10": "1.0000",
                                                              "mrr@10": "1.0000"}
    firsts = [line.split()[:4] for line in run.read_text().splitlines()
              if line.split()[3] == "1"]
    assert firsts == [["401", "Q0", "AP880212-0001", "1"], ["402", "Q0", "FT911-3", "1"]]
    assert main([*args, "--topic-field", "desc"]) == 0
    mrr = next(line.split()[1] for line in capsys.readouterr().out.splitlines()
               if line.startswith("mrr@10 "))
    assert mrr == "0.2500"  # 401: the relevant one second (1/2), 402: none (0)


def test_a_readme_beside_the_files_leaves_the_folder_trec(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A README.md beside a TREC folder's files had made it a vault of that one note ("(1
    document) no results"); Anserini skips a readme, and so does the folder's reading."""
    folder = tmp_path / "la"
    write(folder / "la010189", LATIMES)
    write(folder / "README.md", "# LA Times 1989\nThe collection's notes.\n")
    assert load_dataset(folder).corpus.ids == ["LA010189-0001"]
    assert main(["rank", str(folder), "-m", "bm25", "-q", "tea"]) == 0
    assert "(1 document)" in capsys.readouterr().out


def test_a_vault_holding_a_compressed_file_stays_a_vault(tmp_path: Path) -> None:
    """Only a file read as starting with <DOC> keeps a folder of notes from being a vault: a
    backup.7z (a name Unix compress would have) is no TREC record."""
    vault = tmp_path / "vault"
    write(vault / "tea.md", "# Green tea\nLeaves steeped at 80 degrees.\n")
    write(vault / "coffee.md", "# Coffee\nBeans roasted dark.\n")
    (vault / "backup.7z").write_bytes(b"7z\xbc\xaf\x27\x1c\x00\x04")
    assert sorted(load_dataset(vault).corpus.ids) == ["coffee.md", "tea.md"]


def test_a_7z_archive_is_not_taken_for_unix_compress(tmp_path: Path) -> None:
    """7-Zip's .7z is no compress file (Unix compress is .Z, .z, FR94's .0z …): a backup.7z
    had made a vault's folder look like TREC documents (dr2 3)."""
    archive = tmp_path / "backup.7z"
    archive.write_bytes(b"7z\xbc\xaf\x27\x1c" + bytes(range(256)))
    assert not is_trec_documents(archive) and not is_trec_documents(tmp_path)
    with pytest.raises(FormatError) as info:
        load_dataset(archive)
    assert "Unix compress" not in str(info.value)
    assert is_trec_documents(tmp_path / "fr940104.2Z") is False  # no such file
    (tmp_path / "fr940104.2Z").write_bytes(b"\x1f\x9d\x90<DOC>")
    assert is_trec_documents(tmp_path / "fr940104.2Z")


def test_a_folder_of_7z_archives_only_says_to_unpack_them(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A TREC disk downloaded as .7z and opened packed had the list of every format, with no
    word of the archive (dr1 9): the error ends with how to unpack it."""
    folder = tmp_path / "T2"
    folder.mkdir()
    (folder / "disk4.7z").write_bytes(b"7z\xbc\xaf\x27\x1c\x00\x04")
    with pytest.raises(FormatError) as info:
        load_dataset(folder)
    said = (f"; it holds a 7-Zip archive (disk4.7z), which is not read: unpack it first (7z x "
            f"-o{folder} {folder / 'disk4.7z'}, then move it out of the folder)")
    assert str(info.value).startswith(f"{folder}: expected a BEIR folder")
    assert str(info.value).endswith(said)
    assert main(["rank", str(folder), "-m", "bm25", "-q", "tea"]) != 0
    err = " ".join(capsys.readouterr().err.split())
    assert said in err and "Traceback" not in err
