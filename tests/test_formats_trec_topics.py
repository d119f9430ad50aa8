"""TREC topic files as --queries: the classic <top> SGML (tags never closed) and the <topic>
XML of the Web and COVID tracks; the query is the title unless --topic-field picks others."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from tests.conftest import SAMPLES
from workbench.cli import main
from workbench.core.data import FormatError
from workbench.core.formats import load_dataset
from workbench.core.formats.auto import read_query_set
from workbench.core.formats.trec_topics import read_topics

CLASSIC = """
<top>
<num> Number: 401
<title> green tea

<desc> Description:
Which temperature suits oolong?

<narr> Narrative:
A relevant document names a
temperature &amp; a time.
</top>

<top>
<num> Number: 402
<title> black tea
<desc> Description:
How long does black tea steep?
</top>
"""

# TREC 1-3: a zero-padded number, "Topic:" before the title, fields we do not read
TREC1 = """<top>
<head> Tipster Topic Description
<num> Number:  051
<dom> Domain: Beverages
<title> Topic:  Jasmine
  Scented Teas
<desc> Description:
Document names a scented tea.
<smry> Summary:
Not read.
</top>
"""

WEB_XML = """<?xml version="1.0" encoding="UTF-8"?>
<!-- a comment with <title> in it -->
<webtrack2009>
  <topic number="7" type="faceted">
    <query>matcha whisk</query>
    <description>Find out how to whisk matcha
      without lumps.
    </description>
    <subtopic number="1" type="nav">Shops that sell a chasen.</subtopic>
  </topic>
  <topic number='8' type="single">
    <query>tea &amp; milk</query>
    <description>Which teas take milk?</description>
  </topic>
</webtrack2009>
"""

COVID_XML = """<topics task="Tea 2026" batch="1">
  <topic number="1">
    <query>tea origin</query>
    <question>where does tea come from</question>
    <narrative>seeking where tea was first grown</narrative>
  </topic>
</topics>
"""

FIRE = """<top lang='en'>
<num>176</num>
<title>rooibos caffeine</title>
<desc>Is rooibos free of caffeine?</desc>
<narr>Documents on rooibos and caffeine.</narr>
</top>
"""


def write(tmp_path: Path, text: str, name: str = "topics.txt") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def pairs(path: Path, fields: tuple[str, ...] = ("title",)) -> list[tuple[str, str]]:
    return [(q.id, q.text) for q in read_topics(path, fields)]


def test_classic_titles_by_default(tmp_path: Path) -> None:
    path = write(tmp_path, CLASSIC)
    assert [(q.id, q.text) for q in read_query_set(path)] == [("401", "green tea"),
                                                             ("402", "black tea")]


def test_classic_other_fields(tmp_path: Path) -> None:
    path = write(tmp_path, CLASSIC)
    assert pairs(path, ("desc",)) == [("401", "Which temperature suits oolong?"),
                                      ("402", "How long does black tea steep?")]
    assert pairs(path, ("title", "desc"))[0] == ("401", "green tea Which temperature suits "
                                                 "oolong?")
    (first,) = read_topics(write(tmp_path, CLASSIC.split("<top>\n<num> Number: 402")[0],
                                 "one.txt"), ("narr",))
    assert first.text == "A relevant document names a temperature & a time."


def test_trec1_labels_and_padded_numbers(tmp_path: Path) -> None:
    path = write(tmp_path, TREC1)
    assert pairs(path, ("title", "desc")) == [("51", "Jasmine Scented Teas Document names a "
                                               "scented tea.")]


def test_web_track_xml(tmp_path: Path) -> None:
    path = write(tmp_path, WEB_XML, "wt09.topics.xml")
    assert pairs(path) == [("7", "matcha whisk"), ("8", "tea & milk")]
    assert pairs(path, ("desc",)) == [("7", "Find out how to whisk matcha without lumps."),
                                      ("8", "Which teas take milk?")]


def test_covid_xml_and_fire(tmp_path: Path) -> None:
    covid = write(tmp_path, COVID_XML, "topics-rnd1.xml")
    assert pairs(covid, ("title", "desc", "narr")) == [
        ("1", "tea origin where does tea come from seeking where tea was first grown")]
    fire = write(tmp_path, FIRE, "fire.txt")
    assert pairs(fire, ("title", "narr")) == [("176", "rooibos caffeine Documents on rooibos "
                                               "and caffeine.")]


@pytest.mark.parametrize(("text", "fields", "line", "field", "said"), [
    ("<top>\n<title> green tea\n</top>\n", ("title",), 1, "num",
     'a topic without a number (<num> Number: 301, or <topic number="1">)'),
    ("<top>\n<num> Number:\n<title> t\n</top>\n", ("title",), 2, "num", "empty topic number"),
    (CLASSIC + "<top>\n<num> Number: 401\n<title> again\n</top>\n", ("title",), 21, "num",
     "duplicate topic number '401' (first on line 3)"),
    ("<top>\n<num> Number: 9\n<title>\n<desc> d\n</top>\n", ("title",), 3, "title",
     "empty in topic 9"),
    ("<top>\n<num> Number: 9\n<title> t\n</top>\n", ("desc",), 1, "desc",
     "topic 9 has no <desc> (or <description>, <question>)"),
    ("<top>\n<num> Number: 9\n<title> t\n\n<top>\n", ("title",), 5, "top",
     "<top> opens before the topic opened on line 1 closes"),
    ("\n\n<top>\n<num> Number: 9\n<title> t\n", ("title",), 3, "top",
     "<top> never closes (no </top> after it)"),
    ('<topic number="1 2">\n<query>q</query>\n</topic>\n', ("title",), 1, "num",
     "topic number '1 2' holds white space (a run file names a topic by one word)"),
    ("<DOC>\n<DOCNO> d1 </DOCNO>\n</DOC>\n", ("title",), 1, "top",
     'no topics: expected TREC topics, <top> … </top> (classic) or <topic number="…"> … '
     "</topic> (XML)"),
])
def test_a_bad_topic_is_one_error(tmp_path: Path, text: str, fields: tuple[str, ...],
                                  line: int, field: str, said: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(FormatError) as info:
        read_topics(path, fields)
    assert str(info.value) == f"{path}:{line}: field '{field}': {said}"


def _corpus(tmp_path: Path) -> Path:
    docs = [{"id": "d1", "contents": "Green tea brewed at 80 degrees keeps its sweetness."},
            {"id": "d2", "contents": "Black tea wants boiling water and four minutes."},
            {"id": "d3", "contents": "Oolong sits between green and black tea, brewed at 90 "
                                     "degrees."}]
    path = tmp_path / "docs.jsonl"
    path.write_text("".join(json.dumps(d) + "\n" for d in docs), encoding="utf-8")
    return path


def test_load_dataset_reads_topics_as_queries(tmp_path: Path) -> None:
    qrels = write(tmp_path, "401 0 d1 1\n402 0 d2 1\n", "qrels.txt")
    topics = write(tmp_path, CLASSIC)
    dataset = load_dataset(_corpus(tmp_path), queries=topics, qrels=qrels)
    assert [(q.id, q.text) for q in dataset.queries] == [("401", "green tea"),
                                                         ("402", "black tea")]
    dataset = load_dataset(_corpus(tmp_path), queries=topics, qrels=qrels, topic_field="desc")
    assert dataset.queries[1].text == "How long does black tea steep?"


def _mrr(out: str) -> str:
    return next(line.split()[1] for line in out.splitlines() if line.startswith("mrr@10 "))


def test_eval_with_a_topic_field(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Titles: green tea ranks d1 first, black tea d2 (the shorter of d2, d3): MRR 1. The
    descriptions: 401's "Which temperature suits oolong?" finds d3 only (oolong), so d1 is not
    ranked; 402's finds d2 first: MRR (0 + 1) / 2."""
    args = ["eval", str(_corpus(tmp_path)), "--queries", str(write(tmp_path, CLASSIC)),
            "--qrels", str(write(tmp_path, "401 0 d1 1\n402 0 d2 1\n", "qrels.txt")),
            "-m", "bm25", "--metrics", "mrr@10"]
    assert main(args) == 0
    assert _mrr(capsys.readouterr().out) == "1.0000"
    assert main([*args, "--topic-field", "desc"]) == 0
    assert _mrr(capsys.readouterr().out) == "0.5000"


@pytest.mark.parametrize(("extra", "said"), [
    (["--topic-field", "summary"], "argument --topic-field: unknown topic field 'summary': "
     "expected title, desc, narr or several joined by '+' (title+desc)"),
    (["--topic-field", "title+title"], "topic field 'title+title' names a field twice"),
    (["--topic-field", "desc", "--queries", "QUERIES"], "--topic-field desc: QUERIES is no TREC "
     "topic file (<top> or <topic> records); its queries are read as id and text: leave out "
     "--topic-field"),
    (["--topic-field", "desc"], "--topic-field desc picks the field of a TREC topic file's "
     "topics: give the file with --queries"),
])
def test_a_topic_field_that_reads_nothing_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str],
        said: str) -> None:
    queries = write(tmp_path, '{"id": "1", "text": "tea"}\n', "q.jsonl")
    extra = [str(queries) if a == "QUERIES" else a for a in extra]
    try:
        code = main(["rank", str(_corpus(tmp_path)), "-m", "bm25", "-q", "tea", *extra])
    except SystemExit as stop:  # argparse's own check of the value
        code = stop.code
    assert code == 2
    err = capsys.readouterr().err
    assert said.replace("QUERIES", str(queries)) in err and "Traceback" not in err


def test_help_names_topic_files(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["eval", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "a TREC topic file: <top> SGML or <topic> XML" in out and "--topic-field" in out


def test_a_gzip_topic_file_is_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """NIST ships topics gzipped (topics.401-450.gz): read as they are (dr5 5); a gzipped
    query file of JSON lines is told how to decompress it, `gunzip -k NAME` (it had said
    `mv q.jsonl.gz q.jsonl.gz.gz && gunzip -k q.jsonl.gz.gz`)."""
    topics = tmp_path / "topics.401-402.gz"
    topics.write_bytes(gzip.compress(CLASSIC.encode()))
    assert [(q.id, q.text) for q in read_query_set(topics)] == [("401", "green tea"),
                                                               ("402", "black tea")]
    args = ["eval", str(_corpus(tmp_path)), "--queries", str(topics),
            "--qrels", str(write(tmp_path, "401 0 d1 1\n402 0 d2 1\n", "qrels.txt")),
            "-m", "bm25", "--metrics", "mrr@10"]
    assert main(args) == 0
    assert _mrr(capsys.readouterr().out) == "1.0000"
    packed = tmp_path / "q.jsonl.gz"
    packed.write_bytes(gzip.compress(b'{"id": "1", "text": "tea"}\n'))
    with pytest.raises(FormatError) as info:
        read_query_set(packed)
    assert str(info.value) == (f"{packed}:1: field 'encoding': gzip-compressed (its first "
                               "bytes are gzip's), not text: decompress it first (for example: "
                               "gunzip -k q.jsonl.gz)")


def test_padded_numbers_are_said_where_they_do_not_match(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Topic 051 is read as 51 (dr5 8): a duplicate and a qrels file that writes 051 say so."""
    dup = write(tmp_path, "<top>\n<num> Number: 001\n<title> a\n</top>\n"
                "<top>\n<num> Number: 1\n<title> b\n</top>\n", "dup.txt")
    with pytest.raises(FormatError) as info:
        read_topics(dup)
    assert str(info.value) == (f"{dup}:6: field 'num': duplicate topic number '1' (first on "
                               "line 2); the topic file's 001 is read as 1, as Anserini reads "
                               "it")
    qrels = write(tmp_path, "051 0 d1 1\n", "qrels051.txt")
    assert main(["eval", str(_corpus(tmp_path)), "--queries", str(write(tmp_path, TREC1)),
                 "--qrels", str(qrels), "-m", "bm25"]) != 0
    err = capsys.readouterr().err
    assert (f"{qrels}:1: field 'qid': unknown query id '051' (a topic file's 051 is read as 51, "
            "as Anserini reads it: write 51 here)") in err


def test_a_topic_without_a_title_points_to_its_desc(tmp_path: Path) -> None:
    """TREC-4's topics 201-250 have no <title> (dr5 9)."""
    path = write(tmp_path, "<top>\n<num> Number: 201\n<desc> Description:\nTea prices.\n</top>\n")
    with pytest.raises(FormatError) as info:
        read_topics(path)
    assert str(info.value) == (f"{path}:1: field 'title': topic 201 has no <title> (or <query>)"
                               "; this topic has <desc>: --topic-field desc")
    assert pairs(path, ("desc",)) == [("201", "Tea prices.")]


@pytest.mark.parametrize("sample", ["story", "code-repo"])
@pytest.mark.parametrize("extra", [[], ["--topic-field", "desc"]])
def test_a_topic_file_where_none_is_read_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], sample: str,
        extra: list[str]) -> None:
    """OpenVault memories read contexts and a repository reads tasks: a topic file (and
    --topic-field) given to them is said so in one line (dr5 11: it had answered "invalid
    JSON at column 1")."""
    topics = write(tmp_path, CLASSIC)
    said = {"story": "story: OpenVault memories read contexts (contexts.jsonl) as their queries",
            "code-repo": "code-repo: a repository reads tasks (tasks.jsonl)"}[sample]
    assert main(["eval", str(SAMPLES / sample), "--queries", str(topics), "-m", "bm25",
                 *extra]) != 0
    err = capsys.readouterr().err
    assert (f"{topics}: field 'queries': {said}; a TREC topic file is not read here"
            + (" (leave out --topic-field desc)" if extra else "")) in err
    assert "invalid JSON" not in err and "Traceback" not in err


LESS_THAN = """<top>
<num> Number: 501
<title> when x<y and y>z holds
<desc> Description:
Which value of x < 5 keeps c <d> e, and a<b testing?
<con> Concept(s):
Not read.
</top>
<top>
<num> Number: 502
<title> a<b testing
<desc> a<b
</top>
"""


def test_a_raw_less_than_is_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A `<` in a topic's text that opens no tag the reader knows, mid-line, is text, as
    Anserini's line-based TrecTopicReader reads it: `<y and y>` and `<d>` had been read as
    tags, cutting 501's title to "when x" and its description to "Which value of x < 5 keeps
    c"; a line-starting <con> still ends the description."""
    path = write(tmp_path, LESS_THAN)
    assert pairs(path) == [("501", "when x<y and y>z holds"), ("502", "a<b testing")]
    assert pairs(path, ("desc",))[0] == (
        "501", "Which value of x < 5 keeps c <d> e, and a<b testing?")
    assert main(["rank", str(_corpus(tmp_path)), "--queries", str(path), "--query-id", "501",
                 "-m", "bm25"]) == 0
    assert "query: when x<y and y>z holds" in capsys.readouterr().out


LINE_START = """<top>
<num> Number: 305
<title> tea <i>ceremony</i> notes
<desc> Description:
Some text first
<b>Bold start</b> of desc line, then more
</top>
<top>
<num> Number: 306
<title> only bold
<desc> Description:
<b>Bold start</b> of desc line
</top>
<top>
<num> Number: 401
<title> espresso
<desc> Description:
Relevant documents discuss
<espresso grinders> and burrs.
<narr> Narrative:
none
</top>
"""


def test_an_unknown_tag_at_a_line_start_is_text(tmp_path: Path) -> None:
    """A line starting with a tag the reader does not know (`<b>`, `<espresso grinders>`)
    goes on the field, as Anserini reads it, ending a field only at the next field's tag: it
    had cut 305's description to "Some text first", 401's to "Relevant documents discuss",
    and left 306's empty (dr2 6)."""
    path = write(tmp_path, LINE_START)
    assert pairs(path, ("desc",)) == [
        ("305", "Some text first <b>Bold start</b> of desc line, then more"),
        ("306", "<b>Bold start</b> of desc line"),
        ("401", "Relevant documents discuss <espresso grinders> and burrs.")]
