"""TREC SGML documents, as the TREC disks ship them (AP, WSJ, FT, LA Times, FBIS, FR94 …): a
file of records, or a folder of such files (plain, or gzip-compressed as `.gz`).

    <DOC>
    <DOCNO> FT911-3 </DOCNO>
    <HEADLINE> … </HEADLINE>
    <TEXT>
    …
    </TEXT>
    </DOC>

Read as Anserini's TrecCollection reads them: of a record's tags only these are kept, the rest
(DOCID, BYLINE, PROFILE, PUB, PAGE …) dropped — the title from HEADLINE, TITLE, HL, HEAD and
TTL (AP's, WSJ's, Ziff's headlines), the text from TEXT, LP, LEADPARA, DATE and DD, each in file
order; BM25 over title and text reads the words Anserini indexes. Markup inside a kept tag
(LA Times' <P>) is dropped, entities (`&amp;`) decoded and white space read as one space. The
id is the DOCNO, else the `id` of `<DOC id="…">` (AQUAINT-2). Tag names are read in either
case.

A folder is read at every depth, sorted, skipping what Anserini skips on the TREC disks: files
named readme…, folders named cr (the Congressional Record, not part of Robust04), dtd and dtds;
and hidden names. A file in it without <DOC> records (the disks' change notes, an MD5SUMS) is
read as no documents, as Anserini reads it, and named in `skipped`; so is, unread, a file
that is not text: an archive or a compressed file (a backup.7z beside the files, a disk4.zip,
a .tar, a .bz2), or another binary file (a PDF, a PNG), told by its name or its first bytes
(`trec_packed`; `checks.load_warnings` says each kind apart, with how to unpack the
archives). Unix `compress` files
(`.z`, `.0z` …) are refused with how to decompress them (the whole tree at once). Bytes that
are not UTF-8 (a crawled page kept in its server's charset) are read as U+FFFD, as Anserini's
UTF-8 reader reads them, and counted in `not_utf8` (one warning). Every malformed record is one
error naming the file, the line and the field.

The web collections (WT10g, GOV2: a <DOCHDR> and an HTML page in each <DOC>) are read as
Anserini's TrecwebCollection reads them (`trec_web`): the page's text, its <title> the title,
the URL kept as metadata. An HTML page in a <DOC> without a <DOCHDR> is refused: read as these
records its text would be lost and its head read as the title.
"""

from __future__ import annotations

import gzip
import html
import os
import re
import zlib
from bisect import bisect_right
from collections.abc import Callable, Iterator
from pathlib import Path

from workbench.core.data import Corpus, Document, FormatError
from workbench.core.formats._common import StrPath, decode_replacing, path_kind
from workbench.core.formats.trec_packed import (
    COMPRESSED,
    PACKED,
    not_read_as,
    packed_noun,
    then_move,
    unpack_commands,
)
from workbench.core.formats.trec_web import DOCHDR_OPEN, web_record

TITLE_TAGS = ("HEADLINE", "TITLE", "HL", "HEAD", "TTL")
TEXT_TAGS = ("TEXT", "LP", "LEADPARA", "DATE", "DD")
KEPT = re.compile(rf"<({'|'.join(TITLE_TAGS + TEXT_TAGS)})(?:\s[^<>]*)?>", re.I)
DOC_OPEN = re.compile(r"<DOC(\s[^<>]*)?>", re.I)
DOC_CLOSE = re.compile(r"</DOC\s*>", re.I)
# the end of a web record: a line that starts with </DOC>, as TrecwebCollection reads it (a
# page may quote one mid-line, in a script's string)
LINE_CLOSE = re.compile(r"^[^\S\n]*</DOC\s*>", re.I | re.M)
DOCNO = re.compile(r"<DOCNO(?:\s[^<>]*)?>(.*?)</DOCNO\s*>", re.I | re.S)
DOC_ID = re.compile(r"""\bid\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))""", re.I)
MARKUP = re.compile(r"<[^<>]*>")
# the first tag a <DOC>, past an XML declaration, comments, a doctype and AQUAINT-2's wrapper
STARTS = re.compile(r"\s*(?:<\?[^<>]*\?>\s*)?(?:<!--.*?-->\s*)*(?:<!DOCTYPE[^<>]*>\s*)?"
                    r"(?:<DOCSTREAM>\s*)?<DOC[\s>]", re.I | re.S)
SKIPPED_DIRS = frozenset(("cr", "dtd", "dtds"))
HEAD = 4096
SNIFFED = 100  # files of a folder sniffed for a <DOC> before it is taken for something else
HTML = re.compile(r"<html[\s>]", re.I)  # a page: in a TREC news record, refused


def is_trec_documents(path: StrPath) -> bool:
    """A file (plain or .gz) whose first tag is <DOC>, a compress-ed file or a .gz that does
    not decompress (both said when it is read), or a folder of which one of the first
    SNIFFED files (as `read_trec_documents` reads them) is one of these."""
    path = Path(path)
    if path.is_dir():
        return any(COMPRESSED.match(file.name) is not None or _starts_as_trec(file)
                   for _, file in zip(range(SNIFFED), _files(path), strict=False))
    return path.is_file() and (COMPRESSED.match(path.name) is not None
                               or _starts_as_trec(path))


def has_trec_records(folder: Path) -> bool:
    """Whether one of the folder's first SNIFFED files begins with a <DOC> record, read (a
    compress-ed or damaged file, taken for TREC by `is_trec_documents`, is not enough here: a
    vault holding a backup.7z is still a vault)."""
    return any(_starts_as_trec(file, damaged=False)
               for _, file in zip(range(SNIFFED), _files(folder), strict=False))


def _starts_as_trec(path: Path, *, damaged: bool = True) -> bool:
    if not path.is_file():  # a named pipe is never opened to sniff
        return False
    try:
        if path.suffix.lower() == ".gz":
            with gzip.open(path, "rb") as f:
                head = f.read(HEAD)
        else:
            with path.open("rb") as f:
                head = f.read(HEAD)
    except (EOFError, zlib.error, gzip.BadGzipFile):
        return damaged  # a .gz that does not decompress: said so when it is read
    except OSError:
        return False
    return _head_is_trec(head)


def _head_is_trec(head: bytes) -> bool:
    return STARTS.match(head.decode("utf-8", errors="replace").lstrip("\ufeff")) is not None


def _files(folder: Path) -> Iterator[Path]:
    """The files of a collection folder, sorted at each depth, less those Anserini skips."""
    for root, dirs, names in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".")
                         and d.lower() not in SKIPPED_DIRS)
        for name in sorted(names):
            if not name.startswith(".") and not name.lower().startswith("readme"):
                yield Path(root) / name


def trec_files(folder: Path) -> list[Path]:
    """The files `read_trec_documents` reads of a folder, in its order."""
    return list(_files(folder))


def read_trec_documents(path: StrPath, *, name: str | None = None,
                        skipped: list[Path] | None = None,
                        not_utf8: list[tuple[Path, int, int]] | None = None,
                        not_text: list[tuple[Path, str]] | None = None) -> Corpus:
    """The documents of a TREC SGML file, or of every file of a folder of them. A folder's
    files without <DOC> records are passed over, as Anserini passes them, and appended to
    `skipped`; so are its archives, compressed files and other binary files, unread, each
    also appended to `not_text` with why (`trec_packed.not_read_as`). Bytes that are not
    UTF-8 are read as U+FFFD, as Anserini reads them (a web crawl keeps each page in its
    server's charset); each file of documents holding some is appended to `not_utf8` as
    (file, bytes, line of the first)."""
    path = Path(path)
    docs: list[Document] = []
    seen: dict[str, tuple[Path, int]] = {}
    files = list(_files(path)) if path.is_dir() else [path]
    for file in files:
        why = not_read_as(file, _head_is_trec) if path.is_dir() else None
        if why is not None:  # no text: passed over, unread
            if skipped is not None:
                skipped.append(file)
            if not_text is not None:
                not_text.append((file, why))
            continue
        count = len(docs)
        text, bad, first_bad = _text(file)
        for line, doc in _documents(file, text):
            first = seen.setdefault(doc.id, (file, line))
            if first != (file, line):
                said = f"line {first[1]}" if first[0] == file else f"{first[0]}:{first[1]}"
                raise FormatError(file, f"duplicate document number {doc.id!r} (first on "
                                  f"{said})", line=line, field="DOCNO")
            docs.append(doc)
        if len(docs) == count and not path.is_dir():
            raise FormatError(file, "no <DOC> records: expected TREC SGML documents (<DOC> "
                              "<DOCNO> … </DOCNO> … </DOC>)", line=1, field="DOC")
        if len(docs) == count and skipped is not None:
            skipped.append(file)
        if bad and len(docs) > count and not_utf8 is not None:
            not_utf8.append((file, bad, first_bad))
    if not files:
        raise FormatError(path, "no files of TREC documents in the folder", field="path")
    if not docs:
        raise FormatError(path, f"no <DOC> records in any of the folder's {len(files):,} "
                          f"file(s) (first: {files[0]}): expected TREC SGML documents"
                          + (archives_hint(path) if path.is_dir() else ""), field="path")
    return Corpus(docs, name=name or (path.resolve().name if path.is_dir() else path.stem))


def archives_hint(folder: Path) -> str:
    """For a folder no format reads: "; it holds a 7-Zip archive (disk4.7z): unpack it first
    (7z x disk4.7z)" where some of its first SNIFFED files (as `read_trec_documents` reads
    them) are archives or compressed files (the TREC disks downloaded packed), else ""."""
    if not folder.is_dir():
        return ""
    packed = [(str(file), why)
              for _, file in zip(range(SNIFFED), _files(folder), strict=False)
              if (why := not_read_as(file, _head_is_trec)) in PACKED]
    if not packed:
        return ""
    one = len(packed) == 1
    names = [Path(file).relative_to(folder).as_posix() for file, _ in packed]
    shown = ", ".join(names[:3]) + (f", … {len(names) - 3:,} more" if len(names) > 3 else "")
    kinds = [why for _, why in packed]
    return (f"; it holds {packed_noun(kinds)} ({shown}), which {'is' if one else 'are'} not "
            f"read: unpack {'it' if one else 'them'} first ({unpack_commands(packed)}"
            f"{then_move(kinds, one)})")


def _text(path: Path) -> tuple[str, int, int]:
    """The file's text, decompressed where it is .gz, its bytes that are not UTF-8 read as
    U+FFFD; Unix compress refused. (text, bytes not UTF-8, line of the first or 0)."""
    if not path.is_file():
        raise FormatError(path, f"{path_kind(path)}, not a file of TREC documents",
                          field="path")
    if COMPRESSED.match(path.name):
        suffix = path.name[path.name.rindex("."):]
        raise FormatError(path, f"compressed with Unix compress ({suffix}), which is not read: "
                          f"decompress it first (this file: gzip -d -S {suffix} {path.name}; "
                          "every such file under a folder: find FOLDER -iregex '.*\\.[0-9]*z' "
                          "! -iname '*.7z' -exec sh -c 'for f; do gzip -d -S \".${f##*.}\" "
                          "\"$f\"; done' sh {} +)",
                          field="path")
    try:
        data = path.read_bytes()
        if path.suffix.lower() == ".gz":
            data = gzip.decompress(data)
    except (EOFError, zlib.error, gzip.BadGzipFile) as exc:
        raise FormatError(path, f"not a readable gzip file ({exc})", field="encoding") from None
    except OSError as exc:
        raise FormatError(path, f"cannot read: {exc.strerror or exc}", field="path") from None
    return decode_replacing(path, data)


def _documents(path: Path, text: str) -> Iterator[tuple[int, Document]]:
    """(line of its DOCNO, document) for every record of one file, whose text is `text`."""
    starts = [0, *(m.end() for m in re.finditer("\n", text))]

    def line_of(offset: int) -> int:
        return bisect_right(starts, offset)

    pos = 0
    while (opened := DOC_OPEN.search(text, pos)) is not None:
        closed: re.Match[str] | None = DOC_CLOSE.search(text, opened.end())
        header = DOCHDR_OPEN.search(text, opened.end(), closed.start() if closed else len(text))
        if header is not None:  # a web record (`trec_web`): its page may hold </DOC>, <DOC>
            closed = LINE_CLOSE.search(text, header.end())
        head = header.start() if header else closed.start() if closed else len(text)
        again = DOC_OPEN.search(text, opened.end(), head)
        if again is not None:
            raise FormatError(path, f"a <DOC> opens before the one on line "
                              f"{line_of(opened.start())} closes", line=line_of(again.start()),
                              field="DOC")
        if closed is None:
            said = "at the start of a line " if header is not None else ""
            raise FormatError(path, f"<DOC> never closes (no </DOC> {said}after it)",
                              line=line_of(opened.start()), field="DOC")
        yield _document(path, text, opened, header, closed.start(), line_of)
        pos = closed.end()


def _document(path: Path, text: str, opened: re.Match[str], header: re.Match[str] | None,
              end: int, line_of: Callable[[int], int]) -> tuple[int, Document]:
    """(line of its DOCNO, the record from the end of `opened`, its <DOC>, to `end`, its
    </DOC>); `header` its <DOCHDR>, a web record's (`trec_web`), or None."""
    start, line = opened.end(), line_of(opened.start())
    page = None if header is not None else HTML.search(text, start, end)
    if page is not None:
        raise FormatError(path, "an HTML page in a <DOC> without a <DOCHDR>: a TREC web "
                          "record (WT10g, GOV2) gives the crawl's header in a <DOCHDR> before "
                          "its page, and read as a TREC news record its page text would be "
                          "lost: add the header (its first word the page's URL), or convert "
                          "the pages to text first (JSON lines of id and contents)",
                          line=line_of(page.start()), field="HTML")
    head = end if header is None else header.start()  # the page's own tags are not the DOC's
    number = DOCNO.search(text, start, head)
    if number is not None:
        doc_id, where = number.group(1).strip(), line_of(number.start())
        second = DOCNO.search(text, number.end(), head)
        if second is not None:  # ra 7: the second had been dropped without a word
            raise FormatError(path, f"a <DOC> with two <DOCNO>s ({doc_id!r} on line {where}, "
                              f"{second.group(1).strip()!r} here): one record, one document "
                              "number", line=line_of(second.start()), field="DOCNO")
    else:
        attribute = DOC_ID.search(opened.group(1) or "")
        if attribute is None:
            raise FormatError(path, "a <DOC> without a <DOCNO>", line=line, field="DOCNO")
        doc_id, where = next(g for g in attribute.groups() if g is not None).strip(), line
    if not doc_id:
        raise FormatError(path, "empty document number", line=where, field="DOCNO")
    if len(doc_id.split()) > 1:
        raise FormatError(path, f"document number {doc_id!r} holds white space (a run file "
                          "names a document by one word)", line=where, field="DOCNO")
    if header is not None:
        title, body, metadata = web_record(path, text, header, end, line, line_of)
        return where, Document(id=doc_id, title=title, text=body, metadata=metadata)
    titles: list[str] = []
    texts: list[str] = []
    pos = start
    while (tag := KEPT.search(text, pos, end)) is not None:
        tag_name = tag.group(1).upper()
        close = re.compile(rf"</{tag_name}\s*>", re.I).search(text, tag.end(), end)
        if close is None:
            raise FormatError(path, f"<{tag.group(1)}> never closes before the </DOC> of the "
                              f"record on line {line}", line=line_of(tag.start()),
                              field=tag_name)
        words = " ".join(html.unescape(MARKUP.sub(" ", text[tag.end():close.start()])).split())
        if words:
            (titles if tag_name in TITLE_TAGS else texts).append(words)
        pos = close.end()
    return where, Document(id=doc_id, title=" ".join(titles), text=" ".join(texts))
