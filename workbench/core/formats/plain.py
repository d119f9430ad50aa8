"""Plain documents and queries as JSON lines or CSV/TSV, for corpora that are not BEIR.

Documents: `id` (or `_id`), `text` (required), `title`, `tags`; every other field goes into
`Document.metadata` (JSON lines keep JSON types, CSV keeps strings; a JSON `metadata` object is
merged in). Queries: `id` (or `_id`), `text`; every other field goes into `Query.context` (a JSON
`metadata` or `context` object is merged in).

Pyserini's and Anserini's JsonCollection name the text `contents` (`{"id": "d1", "contents":
"…"}`, no title): read as `text` where `text` is missing. A record with both reads `text`
and keeps `contents` in the metadata, as any other field (as before Pyserini's name was read). A
folder of such files (a collection's `*.jsonl` shards, or Pyserini's `docs00.json` of JSON
lines) is one corpus: `read_documents` takes the folder, `is_documents_folder` tells one. Each
shard's first record must hold `contents` (a queries.jsonl beside the shards is named, not
indexed). A .json file may also hold a JSON array of such objects, as JsonCollection reads
one (`[{"id": …, "contents": …}, …]`, each element's errors naming its line), or one such
object over several lines. The folder's other files (a README.md, a LICENSE) are skipped and
named in `skipped`; a compressed shard (docs00.jsonl.gz) is refused with how to decompress it.

CSV is read strictly: a quote never closed is an error naming the line it opened on and its
column (the csv module's default would fold every row after it into that one cell), as is text
after a closing quote (`"a"b`). TSV quotes nothing: a `"` is text, as in MS MARCO's files. A
TSV file of two columns whose first row starts with a number is read as MS MARCO ships its
queries and passages: id, text, no header.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal

from workbench.core.data import Corpus, Document, FormatError, Places, Query, QuerySet
from workbench.core.formats._common import (
    JSON,
    LONE_SURROGATE,
    StrPath,
    _has_lone_surrogate,
    _js_int,
    _json_type,
    _not_json,
    check_unique,
    empty_file,
    get_id,
    get_str,
    get_tags,
    is_pipe,
    iter_jsonl,
    json_error,
    numbered_lines,
    pipes_read_once,
    read_text,
)
from workbench.core.formats.beir import refuse_packed

ID_KEYS = ("id", "_id")
TEXT_KEYS = ("text", "contents")  # ours, then Pyserini's JsonCollection's
DOCUMENT_KEYS = {*ID_KEYS, "title", *TEXT_KEYS, "tags"}
QUERY_KEYS = {*ID_KEYS, "text"}
DELIMITERS = {".csv": ",", ".tsv": "\t"}
# csv refuses cells over 128 KiB by default; a long document is not malformed. (Process-wide
# setting: raised, never lowered; 2**31 - 1 because the limit is a C long on Windows.)
CSV_FIELD_LIMIT = 2**31 - 1
_ASCII_DIGITS = re.compile(r"[0-9]+")


def _records(path: Path) -> Iterator[tuple[int, dict[str, Any], bool]]:
    """(line, record, from_csv) for every record of a .jsonl, .csv or .tsv file."""
    if not path.exists():  # said before its suffix: "expected a .jsonl …" of a name mistyped
        raise FormatError(path, "no such file")
    refuse_packed(path)
    suffix = path.suffix.lower()
    if suffix not in (".jsonl", *DELIMITERS) and is_pipe(path):  # no suffix to go by (dr3 7)
        with pipes_read_once():
            yield from _records_of(path, _piped_kind(path))
        return
    yield from _records_of(path, suffix)


def _piped_kind(path: Path) -> str:
    """What a pipe (`<(cat queries.tsv)`, no suffix to go by) holds, by its first line: a
    JSON object is JSON lines, a header with a tab TSV, with a comma CSV."""
    first = next(numbered_lines(read_text(path)), None)
    if first is None:
        raise FormatError(path, "the pipe gave no records (only blank lines)", field="path")
    line = first[1].lstrip()
    if line.startswith("{"):
        return ".jsonl"
    if "\t" in line:
        return ".tsv"
    if "," in line:
        return ".csv"
    raise FormatError(path, f"a pipe is read by its first line, and this one ({line[:40]!r})"
                      " starts none of the kinds it can be: a JSON object (JSON lines), a "
                      "header with a tab (TSV) or a comma (CSV) between id and text, or, for "
                      "queries, <top> (TREC topics)", line=first[0], field="path")


def _records_of(path: Path, suffix: str) -> Iterator[tuple[int, dict[str, Any], bool]]:
    """`_records` of a file read as `suffix` says."""
    if suffix == ".jsonl":
        for line, obj in iter_jsonl(path):
            yield line, obj, False
    elif suffix in DELIMITERS:
        for line, row in _csv_rows(path, DELIMITERS[suffix]):
            yield line, row, True
    else:
        raise FormatError(path, "expected a .jsonl, .csv or .tsv file", field="path")


def _csv_rows(path: Path, delimiter: str) -> Iterator[tuple[int, dict[str, Any]]]:
    """(first line of the record, {column: cell}) per row; the first row is the header."""
    if csv.field_size_limit() < CSV_FIELD_LIMIT:
        csv.field_size_limit(CSV_FIELD_LIMIT)
    text = read_text(path)
    tsv = delimiter == "\t"
    # TSV quotes nothing (MS MARCO, BEIR's qrels): a `"` is text. Read with quoting, a
    # passage starting with `"` and a later one ending with one were merged into one cell
    quoting: Literal[0, 3] = csv.QUOTE_NONE if tsv else csv.QUOTE_MINIMAL
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True,
                        quoting=quoting)
    header: list[str] | None = None
    end = 0  # physical line the previous record ended on; quoted cells may span lines
    try:
        for row in reader:
            start, end = end + 1, reader.line_num
            if not any(cell.strip() for cell in row):
                continue
            if header is None and tsv and len(row) == 2 and _ASCII_DIGITS.fullmatch(
                    row[0].strip()):
                header = ["id", "text"]  # MS MARCO's layout (numeric ids): a record
            if header is None:
                # the columns read by name in any case: `Title` went to the metadata, never
                # searched, while `ID,Title,Text` was refused
                written = [h.strip() for h in row]
                header = [h.lower() if h.lower() in DOCUMENT_KEYS else h for h in written]
                for i, name in enumerate(header):
                    if not name:
                        raise FormatError(path, f"empty column name (column {i + 1})",
                                          line=start, field="header")
                    if name in header[:i]:  # named as written: Title and title are one
                        first = written[header.index(name)]
                        said = (repr(name) if first == written[i]
                                else f"{first!r} and {written[i]!r} (one column, {name!r})")
                        raise FormatError(path, f"duplicate column {said}",
                                          line=start, field=name)
                for need, names in (("id", ID_KEYS), ("text", TEXT_KEYS)):
                    if not set(names) & set(header):  # no header row, or another's
                        found = ", ".join(header[:5]) + (", …" if len(header) > 5 else "")
                        raise FormatError(path, f"the first row names the columns and has no "
                                          f"{need!r} column (found: {found})"
                                          + ("; a headerless TSV is read as id, text only "
                                             "where its first id is a number (MS MARCO's)"
                                             if tsv and len(row) == 2 else ""), line=start,
                                          field="header")
                continue
            if len(row) != len(header):
                raise FormatError(path, f"expected {len(header)} columns as in the header, "
                                  f"found {len(row)}", line=start, field="columns")
            yield start, dict(zip(header, row, strict=True))
    except csv.Error as e:
        opened = _open_quote(text, delimiter, end + 1)
        ran = None if opened is not None else _run_on(text, delimiter, end + 1)
        if ran is not None:  # ra 6: said at the line it ran into, which was valid
            line, column, into = ran
            raise FormatError(path, f"the quoted cell opened in column {column} runs on into "
                              f"line {into}, where text follows its closing quote ({e}): a "
                              "quote never closed on this line?", line=line,
                              field=_column_name(header, column)) from None
        if opened is None:
            raise FormatError(path, f"invalid CSV ({e})", line=reader.line_num,
                              field="csv") from None
        line, column = opened
        raise FormatError(path, f"a quote opened in column {column} never closes (the rest "
                          "of the file would be one cell)", line=line,
                          field=_column_name(header, column)) from None


def _column_name(header: list[str] | None, column: int) -> str:
    """The field an error in `column` (1-based) names: its header's name for it."""
    return ("header" if header is None
            else header[column - 1] if column <= len(header) else "csv")


def _open_quote(text: str, delimiter: str, first_line: int) -> tuple[int, int] | None:
    """(line, column) of the quote left open at the end of `text`, reading from the record
    that starts on `first_line`; None when every quote closes. A quote opens a cell only as
    its first character; inside one, `""` is a quote character (RFC 4180)."""
    start = 0
    for _ in range(first_line - 1):  # csv also counts a lone \r as a line end: then give up
        start = text.find("\n", start) + 1
        if start == 0:
            return None
    line, column, quoted, at_start = first_line, 1, False, True
    opened = (line, column)
    i = start
    while i < len(text):
        ch = text[i]
        if quoted:
            if ch == '"' and text[i + 1:i + 2] == '"':
                i += 1
            elif ch == '"':
                quoted = False
            elif ch == "\n":
                line += 1
        elif ch == '"' and at_start:
            quoted, opened = True, (line, column)
        elif ch == delimiter:
            column += 1
        elif ch == "\n":
            line, column = line + 1, 1
        at_start = not quoted and ch in (delimiter, "\n")
        i += 1
    return opened if quoted else None


def _run_on(text: str, delimiter: str, first_line: int) -> tuple[int, int, int] | None:
    """(line, column, line) of the first quoted cell, from the record that starts on
    `first_line`, that opens on one line and closes on a later one with text after its
    closing quote (`d9,"never closed` then `d5,a,"b"`: line 6's quote closes at line 7's
    opening one); None when there is none. Read as `_open_quote` reads."""
    start = 0
    for _ in range(first_line - 1):
        start = text.find("\n", start) + 1
        if start == 0:
            return None
    line, column, quoted, at_start = first_line, 1, False, True
    opened = (line, column)
    i = start
    while i < len(text):
        ch = text[i]
        if quoted:
            if ch == '"' and text[i + 1:i + 2] == '"':
                i += 1
            elif ch == '"':
                quoted = False
                after = text[i + 1:i + 2]
                if line > opened[0] and after not in ("", delimiter, "\n", "\r"):
                    return opened[0], opened[1], line
            elif ch == "\n":
                line += 1
        elif ch == '"' and at_start:
            quoted, opened = True, (line, column)
        elif ch == delimiter:
            column += 1
        elif ch == "\n":
            line, column = line + 1, 1
        at_start = not quoted and ch in (delimiter, "\n")
        i += 1
    return None


def _csv_tags(value: str, path: Path, line: int) -> list[str]:
    """A CSV tags cell: a JSON list, or a `;`-separated (else `,`-separated) string."""
    value = value.strip()
    if value.startswith("["):
        try:
            tags = json.loads(value)
        except json.JSONDecodeError:
            tags = None
        if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
            raise FormatError(path, "expected a JSON list of strings or a ';'-separated string",
                              line=line, field="tags")
        return tags
    sep = ";" if ";" in value else ","
    return [t.strip() for t in value.split(sep) if t.strip()]


def _extras(obj: dict[str, Any], known: set[str], merged: tuple[str, ...], from_csv: bool,
            path: Path, line: int) -> dict[str, Any]:
    """Every field not in `known`; JSON objects under `merged` keys are merged in."""
    extras: dict[str, Any] = {}
    for key, value in obj.items():
        if key in known:
            continue
        if not from_csv and key in merged and (value is None or isinstance(value, dict)):
            for sub, sub_value in (value or {}).items():
                if sub in obj and sub not in merged:
                    raise FormatError(path, f"{sub!r} is both a field and a key of {key!r}",
                                      line=line, field=f"{key}.{sub}")
                extras[sub] = sub_value
        else:
            extras[key] = value
    return extras


def _record_id(obj: dict[str, Any], path: Path, line: int) -> str:
    if all(k in obj for k in ID_KEYS):
        raise FormatError(path, "both 'id' and '_id' given; keep one", line=line, field="_id")
    return get_id(obj, ID_KEYS, path, line)


def _text(obj: dict[str, Any], path: Path, line: int) -> str:
    """The document's text: `text`, else `contents` as Pyserini's JsonCollection names it."""
    if "text" not in obj and "contents" in obj:
        return get_str(obj, "contents", path, line, required=True)
    if "text" not in obj:
        raise FormatError(path, "missing (or 'contents', as Pyserini's JsonCollection names "
                          "it)", line=line, field="text")
    return get_str(obj, "text", path, line, required=True)


def read_documents(path: StrPath, *, name: str | None = None,
                   skipped: list[Path] | None = None) -> Corpus:
    """Documents from a .jsonl, .csv or .tsv file, or a folder of JSON-lines files (see the
    module docstring for the fields). A folder's files that are not .json or .jsonl are
    passed over and appended to `skipped`."""
    path = Path(path)
    docs: list[Document] = []
    seen: dict[str, tuple[Path, int]] = {}
    at = Places()  # each document's place, for a warning about its metadata
    for where, line, obj, from_csv in _document_records(path, skipped):
        doc_id = _record_id(obj, where, line)
        first = seen.setdefault(doc_id, (where, line))
        if first != (where, line):
            said = f"line {first[1]}" if first[0] == where else f"{first[0]}:{first[1]}"
            raise FormatError(where, f"duplicate id {doc_id!r} (first on {said})", line=line,
                              field="id" if "id" in obj else "_id")
        at.add(where, line)
        if from_csv and "tags" in obj:
            obj = {**obj, "tags": _csv_tags(obj["tags"], where, line)}
        docs.append(Document(
            id=doc_id,
            title=get_str(obj, "title", where, line, required=False),
            text=_text(obj, where, line),
            tags=get_tags(obj, "tags", where, line),
            # `contents` beside `text` is another field (files of both opened so before)
            metadata=_extras(obj, DOCUMENT_KEYS - {"contents"} if "text" in obj
                             else DOCUMENT_KEYS, ("metadata",), from_csv, where, line),
        ))
    if not docs:
        if path.is_dir():
            raise FormatError(path, "no documents in the folder's JSON-lines files",
                              field="path")
        raise empty_file(path, "document", "id")
    return Corpus(docs, name=name or (path.resolve().name if path.is_dir() else path.stem),
                  at=at)


FOLDER_SUFFIXES = (".jsonl", ".json")  # Pyserini writes its shards as docs00.json


def _document_records(path: Path, skipped: list[Path] | None = None,
                      ) -> Iterator[tuple[Path, int, dict[str, Any], bool]]:
    """(file, line, record, from_csv) of a documents file, a file of JSON lines by another
    name (a Pyserini .json shard), or a folder of JSON-lines files (its other files appended
    to `skipped`)."""
    if path.is_dir():
        yield from _folder_records(path, skipped)
    elif path.suffix.lower() not in (".jsonl", *DELIMITERS) and path.is_file() and (
            first_record_object(path) is not None):  # JSON by another name: docs00.json
        for line, obj in _json_records(path):
            yield path, line, obj, False
    else:
        for line, obj, from_csv in _records(path):
            yield path, line, obj, from_csv


def _folder_files(folder: Path) -> list[Path]:
    """Every file under `folder` (at any depth, sorted), hidden names aside."""
    return sorted(f for f in folder.rglob("*") if not f.is_dir() and not any(
        part.startswith(".") for part in f.relative_to(folder).parts))


def documents_folder_files(folder: Path) -> list[Path]:
    """The files `read_documents` reads of a folder: its .json and .jsonl files, sorted."""
    return [f for f in _folder_files(folder) if _is_shard(f)]


def _is_shard(file: Path) -> bool:
    return file.suffix.lower() in FOLDER_SUFFIXES


def _folder_records(folder: Path, skipped: list[Path] | None = None,
                    ) -> Iterator[tuple[Path, int, dict[str, Any], bool]]:
    """(file, line, record, False) over the JSON-lines files of a collection folder; its
    other files (a README.md beside the shards) are appended to `skipped`."""
    for file in _folder_files(folder):
        if not _is_shard(file):
            if _is_shard(Path(file.stem)):  # docs00.jsonl.gz: documents, not a README
                raise FormatError(file, "a compressed shard is not read: decompress it first "
                                  f"(for example: gunzip -k {file.name}), or move it out",
                                  field="path")
            if skipped is not None:
                skipped.append(file)
            continue
        first = True
        for line, obj in _json_records(file):
            if first and "contents" not in obj:  # a queries.jsonl beside the shards
                raise FormatError(file, "a folder of Pyserini shards holds {\"id\", "
                                  "\"contents\"} records and this file's first has no "
                                  "'contents' (queries? move this file out of the folder)",
                                  line=line, field="contents")
            first = False
            yield file, line, obj, False


# Shards beside notes are the collection only where their documents clearly outnumber the
# notes: any more of them than FEW_NOTES - 1 notes (a CONTRIBUTING.md, a docs/index.md), or
# SHARDS_RATIO times as many as more notes (ten docs/ pages beside 200 documents). A vault's
# export of chunks runs to a few records a note (50 notes, an export of 80 chunks: dr7 1).
FEW_NOTES = 5
SHARDS_RATIO = 10


def shards_bar(notes: int) -> int:
    """How many shard documents `notes` notes stand against: the shards win above it."""
    return notes if notes < FEW_NOTES else SHARDS_RATIO * notes


def shard_files(folder: Path) -> list[Path]:
    """The folder's .json and .jsonl files (at any depth, sorted) whose first record holds
    `id` and `contents`: the shards `is_documents_folder` tells the folder by."""
    found = []
    for file in documents_folder_files(folder):
        first = first_record_object(file) if file.is_file() else None
        if first is not None and "contents" in first and any(k in first for k in ID_KEYS):
            found.append(file)
    return found


def shard_documents(folder: Path, at_most: int) -> int:
    """How many records the folder's shards (`shard_files`) hold, counted to `at_most` + 1
    and no further: enough to tell whether the notes beside them outnumber them, never a
    large collection read through for it. A malformed record ends its file's count (reading
    the folder says what is wrong with it)."""
    count = 0
    for file in shard_files(folder):
        try:
            for _ in _json_records(file):
                count += 1
                if count > at_most:
                    return count
        except (FormatError, OSError):
            continue
    return count


def shard_names(folder: Path, at_most: int) -> list[list[str]]:
    """The `id` and `title` of each of the folder's first `at_most` shard records
    (`shard_files`), as given: enough to tell an export of a vault's notes from a collection
    of its own. A malformed record ends its file's list (reading the folder says what is
    wrong with it)."""
    names: list[list[str]] = []
    for file in shard_files(folder):
        try:
            for _, obj in _json_records(file):
                names.append([str(obj[k]) for k in (*ID_KEYS, "title") if obj.get(k) is not None])
                at_most -= 1
                if at_most <= 0:
                    return names
        except (FormatError, OSError):
            continue
    return names


def is_documents_folder(folder: Path) -> bool:
    """A folder of JSON-lines documents (Pyserini's JsonCollection): one .jsonl or .json
    file at least holding `id` and `contents` in its first record (at any depth), told by
    that content. `contents`, not `text`: a
    folder of a queries.jsonl beside a docs.jsonl is not a collection; one whose docs.jsonl
    holds `contents` is, and reading it names the queries file (every shard must hold
    `contents` in its first record). Whether such a folder is read as the collection or as a
    vault holding a stray export is `formats.auto`'s decision (`collection_reading`)."""
    if not folder.is_dir():
        return False
    files = [f for f in _folder_files(folder) if _is_shard(f)]
    if not files or any(not f.is_file() for f in files):  # a named pipe is never sniffed
        return False
    for file in files:
        first = first_record_object(file)
        if first is not None and "contents" in first and any(k in first for k in ID_KEYS):
            return True
    return False


_DECODER = json.JSONDecoder(parse_int=_js_int, parse_constant=_not_json)  # as `json_loads`
_WHITE = " \t\r\n"  # JSON's white space
SNIFF = 64 * 1024  # the bytes of a file read to tell its first record: never more
# a value the sniff's head cuts off, as an empty value of its type (told by its first byte)
_CUT = {"\"": "", "[": [], "{": {}}


def first_record_object(path: Path) -> dict[str, Any] | None:
    """The file's first record as a JSON object, read from its first SNIFF bytes only: its
    first line's (JSON lines), the first element of a top-level JSON array, or a top-level
    object over several lines; None when it is none of these. A record longer than the head
    gives the fields read before the cut, the one cut off as an empty value of its type
    (`"contents": ""`, `"contents": []`): enough to tell a Pyserini shard, never the whole
    of a large file parsed to learn that it is not one (a vault's 55 MB plugin data)."""
    try:
        with path.open("rb") as f:
            head = f.read(SNIFF)
    except OSError:
        return None
    text = head.decode("utf-8", errors="replace")
    cut = len(head) == SNIFF  # the file may go on past the head
    i = _skip_white(text, 0, "\ufeff")
    if text[i:i + 1] == "[":
        i = _skip_white(text, i + 1)
    if text[i:i + 1] != "{":
        return None
    return _head_object(text, i, cut)


def _skip_white(text: str, i: int, also: str = "") -> int:
    while i < len(text) and text[i] in _WHITE + also:
        i += 1
    return i


def _head_object(text: str, i: int, cut: bool) -> dict[str, Any] | None:
    """The object opening at `text[i]`, read one member at a time; where the head ends
    inside it (`cut`), the members read so far. None where it is not a JSON object."""
    record: dict[str, Any] = {}
    i = _skip_white(text, i + 1)
    if text[i:i + 1] == "}":
        return record
    while True:
        try:
            key, i = _DECODER.raw_decode(text, i)
        except (ValueError, RecursionError):
            return record if cut and _runs_to_end(text, i) else None
        if not isinstance(key, str):
            return None
        i = _skip_white(text, i)
        if text[i:i + 1] != ":":
            return record if cut and i == len(text) else None
        i = _skip_white(text, i + 1)
        try:
            record[key], i = _DECODER.raw_decode(text, i)
        except (ValueError, RecursionError):
            if not (cut and _runs_to_end(text, i)):
                return None
            if text[i:i + 1] in _CUT:
                record[key] = _CUT[text[i]]
            return record
        i = _skip_white(text, i)
        if text[i:i + 1] == "}":
            return record
        if text[i:i + 1] != ",":
            return record if cut and i == len(text) else None
        i = _skip_white(text, i + 1)


def _runs_to_end(text: str, i: int) -> bool:
    """Whether the JSON value at `text[i]` could be one the head cut off: a string, array or
    object opening there (the rest of it past the head), or nothing left to read."""
    return i >= len(text) or text[i] in _CUT or text[i:].strip(_WHITE + "-0123456789.eE+") == ""


def _json_records(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line, object) of a JSON file: JSON lines; a top-level array of objects, each on the
    line it starts on; or one object over several lines."""
    refuse_packed(path)
    head = first_line_object(path)
    if head is None:
        with path.open("r", encoding="utf-8", errors="replace") as f:
            opens = f.read(SNIFF).lstrip("\ufeff" + _WHITE)[:1]
        if opens in ("[", "{"):
            text = read_text(path)
            start = len(text) - len(text.lstrip(_WHITE))
            if opens == "[":
                yield from _array_records(path, text, start)
                return
            single = _single_object(path, text, start)
            if single is not None:
                yield single
                return
    yield from iter_jsonl(path)


def _line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def _checked(path: Path, text: str, start: int, end: int, value: Any,
             line: int) -> dict[str, Any]:
    """`value`, decoded from text[start:end], as a record: an object without lone surrogates."""
    if not isinstance(value, dict):
        raise FormatError(path, f"expected a JSON object, found {_json_type(value)}",
                          line=line, field=JSON)
    if "\\u" in text[start:end] and _has_lone_surrogate(value):
        raise FormatError(path, LONE_SURROGATE, line=line, field=JSON)
    return value


def _single_object(path: Path, text: str, start: int) -> tuple[int, dict[str, Any]] | None:
    """(line, object) of a file holding one JSON object over several lines; None where it
    holds anything else (the JSON-lines reader then says what)."""
    try:
        value, end = _DECODER.raw_decode(text, start)
    except (ValueError, RecursionError):
        return None
    if text[end:].strip(_WHITE) or not isinstance(value, dict):
        return None
    line = _line_of(text, start)
    return line, _checked(path, text, start, end, value, line)


def _array_records(path: Path, text: str, start: int) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line it starts on, object) of each element of the JSON array at `text[start]`, read
    one element at a time so that an error names the element's line (a whole-file parse
    would lose where each element was)."""
    opened = line = comma = _line_of(text, start)
    i, counted = start + 1, start  # `line` is the line of offset `counted`
    first = True
    while True:
        while i < len(text) and text[i] in _WHITE:
            i += 1
        line += text.count("\n", counted, i)
        counted = i
        if i == len(text):
            raise FormatError(path, "the JSON array never closes (no ']' after its last "
                              "element)", line=opened, field=JSON)
        if text[i] == "]" and first:
            i += 1
            break
        if text[i] == "]":  # hand-made arrays often end so: Python's message said "value"
            raise FormatError(path, "a trailing comma before ']' — JSON allows none: remove "
                              "it", line=comma, field=JSON)
        try:
            value, end = _DECODER.raw_decode(text, i)
        except json.JSONDecodeError as e:
            raise json_error(path, e) from None  # its line counts the whole text's newlines
        except (ValueError, RecursionError) as e:  # NaN, nested too deeply: no position
            raise json_error(path, e, line) from None
        yield line, _checked(path, text, i, end, value, line)
        line += text.count("\n", counted, end)
        counted = i = end
        while i < len(text) and text[i] in _WHITE:
            i += 1
        line += text.count("\n", counted, i)
        counted = i
        if text[i:i + 1] == "]":
            i += 1
            break
        if i == len(text):
            raise FormatError(path, "the JSON array never closes (no ']' after its last "
                              "element)", line=opened, field=JSON)
        if text[i] != ",":
            raise FormatError(path, f"expected ',' or ']' after the array's element, found "
                              f"{text[i]!r}", line=line, field=JSON)
        comma = line  # the line of the comma just read
        i += 1
        first = False
    if text[i:].strip(_WHITE):
        rest = i + len(text[i:]) - len(text[i:].lstrip(_WHITE))
        raise FormatError(path, f"text after the JSON array opened on line {opened} closes",
                          line=_line_of(text, rest), field=JSON)


def first_line_object(path: Path) -> dict[str, Any] | None:
    """The first non-blank line of `path` as a JSON object, None when it is not one (a sniff
    that reads one line, not the file: a shard is hundreds of megabytes)."""
    try:
        with path.open("rb") as f:
            for raw in f:
                if raw.strip():
                    value = json.loads(raw.decode("utf-8", errors="replace").lstrip("\ufeff"))
                    return value if isinstance(value, dict) else None
    except (OSError, ValueError, RecursionError):
        pass
    return None


def read_queries(path: StrPath, *, name: str = "queries") -> QuerySet:
    """Queries from a .jsonl, .csv or .tsv file: `id` (or `_id`), `text`, extras → context."""
    path = Path(path)
    queries: list[Query] = []
    seen: dict[str, int] = {}
    keys_at: dict[str, str] = {}  # each context key, where it is first given a value
    empty_at: dict[str, str] = {}  # where first named with none (a CSV column's empty cell)
    at: dict[str, str] = {}  # each query's place
    for line, obj, from_csv in _records(path):
        query_id = _record_id(obj, path, line)
        check_unique(seen, query_id, path, line, "id" if "id" in obj else "_id")
        context = _extras(obj, QUERY_KEYS, ("metadata", "context"), from_csv, path, line)
        at[query_id] = f"{path}:{line}"
        for key, value in context.items():
            # the first line that holds a value: a CSV's first row had been named though its
            # cell was empty (rv2 8)
            empty = value is None or (isinstance(value, str) and not value.strip())
            (empty_at if empty else keys_at).setdefault(key, f"{path}:{line}")
        queries.append(Query(
            id=query_id,
            text=get_str(obj, "text", path, line, required=True),
            context=context,
        ))
    keys_at = {**{k: v for k, v in empty_at.items() if k not in keys_at}, **keys_at}
    if not queries:
        raise empty_file(path, "query", "id")
    return QuerySet(queries, name=name, keys_at=keys_at, at=at)
