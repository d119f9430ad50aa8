"""TREC topic files as queries: the classic SGML of the ad hoc and Robust tracks, and the XML of
the Web, COVID and Health Misinformation tracks.

Classic (TREC 1–8, Robust04, Core; FIRE's `<top lang='bn'>` and closed `<num>176</num>`):

    <top>
    <num> Number: 301
    <title> International Organized Crime
    <desc> Description:
    Identify organizations that participate in …
    <narr> Narrative:
    A relevant document must …
    </top>

Tags are not closed: a field's text runs to the next tag, over several lines where it does.
A tag is one the reader knows (the fields, the number, the topic, and the sections it passes
over: <dom>, <con>, <smry>, <subtopic> …), wherever it stands; any other `<` is text, at a
line's start too, as Anserini's TrecTopicReader, which ends a field only at the next field's
tag, reads it (`when x<y and y>z holds` had been cut to `when x`, `<y and y>` read as a tag;
a description line `<b>Bold</b> start` had ended the description).
The labels `Number:`, `Topic:` (TREC 1–3's titles), `Description:` and `Narrative:` are not
text. XML (`<topic number="1">` with `<query>`, `<question>` or `<description>`,
`<narrative>`; a `<number>` child where there is no attribute; `<subtopic>`s are not read).

A query's text is the title (`<query>`) by default; `fields` picks others, joined by a space:
`desc` is `<desc>`, `<description>` or `<question>`; `narr` is `<narr>` or `<narrative>`.
Entities (`&amp;`) are decoded and runs of white space read as one space. A number of
digits loses its leading zeros, as Anserini reads it (TREC 1's `Number: 051` is judged as 51 in
qrels.51-100). A gzip-compressed file (NIST's `topics.401-450.gz`) is read as it is. Every
malformed topic is one error naming the file, the line and the field.
"""

from __future__ import annotations

import gzip
import html
import re
import zlib
from bisect import bisect_right
from pathlib import Path

from workbench.core.data import FormatError, Query, QuerySet
from workbench.core.formats._common import (
    StrPath,
    decode_text,
    open_bytes,
    read_bytes,
    read_text,
)

TOPIC_FIELDS = ("title", "desc", "narr")
DEFAULT_FIELDS = ("title",)
# the tags each field is read from, classic and XML
FIELD_TAGS = {"title": ("title", "query"), "desc": ("desc", "description", "question"),
              "narr": ("narr", "narrative")}
TAG_FIELD = {tag: field for field, tags in FIELD_TAGS.items() for tag in tags}
NUMBER_TAGS = ("num", "number")
TOPIC_TAGS = ("top", "topic")
# the label the classic form writes before a field's text
LABELS = {tag: re.compile(rf"\s*{label}\s*:", re.I) for tag, label in (
    ("num", "number"), ("title", "topic"), ("desc", "description"), ("narr", "narrative"))}
TAG = re.compile(r"<(/?)([A-Za-z][\w.-]*)((?:\s[^<>]*)?)/?>")
# the tags read as tags wherever they stand: those read, and the sections of TREC 1-3's
# topics and of the XML tracks' that are passed over (text after a `<` mid-line is text)
KNOWN_TAGS = frozenset((*TOPIC_TAGS, *NUMBER_TAGS, *TAG_FIELD, "topics", "head", "dom", "smry",
                        "con", "fac", "nat", "def", "subtopic", "disclaimer", "evidence",
                        "stance", "answer"))
SKIPPED = re.compile(r"<!--.*?-->|<\?.*?\?>|<!\[CDATA\[|\]\]>|<![A-Za-z][^>]*>", re.S)
NUMBER_ATTRIBUTE = re.compile(r"""\bnumber\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))""", re.I)
HEAD = 64 * 1024


def topic_fields(spec: str) -> tuple[str, ...]:
    """`title`, `desc`, `narr` or several joined by `+` (`title+desc`), in the order given;
    ValueError naming the valid ones for anything else."""
    fields = tuple(part.strip().lower() for part in spec.split("+"))
    for field in fields:
        if field not in TOPIC_FIELDS:
            raise ValueError(f"unknown topic field {field!r}: expected {', '.join(TOPIC_FIELDS)}"
                             " or several joined by '+' (title+desc)")
    if len(set(fields)) != len(fields):
        raise ValueError(f"topic field {spec!r} names a field twice")
    return fields


def is_markup(path: StrPath) -> bool:
    """Whether the file's first non-blank character is `<`: topics, never JSON lines or CSV
    (whose first line names an id); read as topics, which says what else it holds."""
    try:
        with open_bytes(Path(path)) as f:
            head = f.read(HEAD)
        if head.startswith(GZIP_MAGIC):  # NIST ships topics.401-450.gz
            with open_bytes(Path(path)) as raw, gzip.open(raw, "rb") as f:
                head = f.read(HEAD)
    except (OSError, EOFError, zlib.error):
        return False
    return head.decode("utf-8", errors="replace").lstrip("\ufeff \t\r\n").startswith("<")


GZIP_MAGIC = b"\x1f\x8b"


def _read(path: Path) -> str:
    """The file's text, decompressed where it is gzip's (told by its first bytes)."""
    try:
        with open_bytes(path) as f:
            packed = f.read(2) == GZIP_MAGIC
    except OSError:
        packed = False
    if not packed:
        return read_text(path)
    try:
        data = gzip.decompress(read_bytes(path))
    except (EOFError, zlib.error, gzip.BadGzipFile) as exc:
        raise FormatError(path, f"not a readable gzip file ({exc})", field="encoding") from None
    except OSError as exc:
        raise FormatError(path, f"cannot read: {exc.strerror or exc}", field="path") from None
    return decode_text(path, data)


def read_topics(path: StrPath, fields: tuple[str, ...] = DEFAULT_FIELDS, *,
                name: str = "queries") -> QuerySet:
    """The topics of a TREC topic file as queries: id the topic's number, text its `fields`."""
    path = Path(path)
    text = _read(path)
    starts = [0, *(m.end() for m in re.finditer("\n", text))]

    def line_of(offset: int) -> int:
        return bisect_right(starts, offset)

    text = SKIPPED.sub(_blank, text)
    tags = [tag for tag in TAG.finditer(text) if _is_tag(tag)]
    queries: list[Query] = []
    seen: dict[str, tuple[int, str]] = {}  # topic id: (line, its number as written)
    opened: re.Match[str] | None = None
    parts: dict[str, tuple[int, str]] = {}  # field tag → (line, text)
    number: tuple[int, str] | None = None
    for i, tag in enumerate(tags):
        closing, tag_name = tag.group(1) == "/", tag.group(2).lower()
        if tag_name in TOPIC_TAGS and not closing:
            if opened is not None:
                raise FormatError(path, f"<{tag.group(2)}> opens before the topic opened on "
                                  f"line {line_of(opened.start())} closes", line=line_of(
                                      tag.start()), field=tag_name)
            opened, parts, number = tag, {}, None
            found = NUMBER_ATTRIBUTE.search(tag.group(3) or "")
            if found is not None:
                number = (line_of(tag.start()), next(g for g in found.groups() if g is not None))
            continue
        if opened is None or (closing and tag_name not in TOPIC_TAGS):
            continue
        if closing:  # the topic ends
            if tag_name != opened.group(2).lower():
                raise FormatError(path, f"</{tag.group(2)}> closes the <{opened.group(2)}> "
                                  f"opened on line {line_of(opened.start())}",
                                  line=line_of(tag.start()), field=tag_name)
            queries.append(_query(path, line_of(opened.start()), number, parts, fields, seen))
            opened = None
            continue
        end = tags[i + 1].start() if i + 1 < len(tags) else len(text)
        value = " ".join(html.unescape(text[tag.end():end]).split())
        label = LABELS.get(tag_name)
        said = label.match(value) if label is not None else None
        if said is not None:
            value = value[said.end():].strip()
        if tag_name in NUMBER_TAGS and number is None:
            number = (line_of(tag.start()), value)
        elif tag_name in TAG_FIELD and tag_name not in parts:
            parts[tag_name] = (line_of(tag.start()), value)
    if opened is not None:
        raise FormatError(path, f"<{opened.group(2)}> never closes (no </{opened.group(2)}> "
                          "after it)", line=line_of(opened.start()), field=opened.group(2).lower())
    if not queries:
        raise FormatError(path, "no topics: expected TREC topics, <top> … </top> (classic) or "
                          '<topic number="…"> … </topic> (XML)', line=1, field="top")
    return QuerySet(queries, name=name)


def _is_tag(tag: re.Match[str]) -> bool:
    """Whether `tag` is markup, not text: a tag the reader knows, wherever it stands (at a
    line's start too: `<b>Bold start</b> of the line` in a description is text, as Anserini
    ends a field only at the next field's tag)."""
    return tag.group(2).lower() in KNOWN_TAGS


def _blank(match: re.Match[str]) -> str:
    """A comment, declaration or processing instruction as spaces and its newlines, so that
    offsets and lines stay those of the file."""
    return "".join(c if c == "\n" else " " for c in match.group())


def _query(path: Path, line: int, number: tuple[int, str] | None,
           parts: dict[str, tuple[int, str]], fields: tuple[str, ...],
           seen: dict[str, tuple[int, str]]) -> Query:
    if number is None:
        raise FormatError(path, "a topic without a number (<num> Number: 301, or <topic "
                          'number="1">)', line=line, field="num")
    number_line, topic_id = number
    if not topic_id:
        raise FormatError(path, "empty topic number", line=number_line, field="num")
    if len(topic_id.split()) > 1:
        raise FormatError(path, f"topic number {topic_id!r} holds white space (a run file "
                          "names a topic by one word)", line=number_line, field="num")
    written = topic_id
    if topic_id.isascii() and topic_id.isdigit():
        topic_id = str(int(topic_id))  # TREC 1's "Number: 051" is judged as 51
    first = seen.get(topic_id)
    if first is not None:
        padded = next((w for w in (first[1], written) if w != topic_id), None)
        raise FormatError(path, f"duplicate topic number {topic_id!r} (first on line "
                          f"{first[0]})" + ("" if padded is None else
                                            f"; the topic file's {padded} is read as "
                                            f"{topic_id}, as Anserini reads it"),
                          line=number_line, field="num")
    seen[topic_id] = (number_line, written)
    texts = []
    for field in fields:
        tag = next((t for t in FIELD_TAGS[field] if t in parts), None)
        if tag is None:
            desc = ("; this topic has <desc>: --topic-field desc"
                    if field != "desc" and any(t in parts for t in FIELD_TAGS["desc"]) else "")
            raise FormatError(path, f"topic {topic_id} has no <{FIELD_TAGS[field][0]}>"
                              + (f" (or <{'>, <'.join(FIELD_TAGS[field][1:])}>)") + desc,
                              line=line, field=field)
        field_line, value = parts[tag]
        if not value:
            raise FormatError(path, f"empty in topic {topic_id}", line=field_line, field=tag)
        texts.append(value)
    return Query(id=topic_id, text=" ".join(texts))
