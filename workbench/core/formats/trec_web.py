"""TREC web records (WT10g, GOV2), as Anserini's TrecwebCollection reads them: a <DOC> whose
<DOCHDR> (the crawl's header) is followed by the page as it was fetched.

    <DOC>
    <DOCNO>WTX001-B01-1</DOCNO>
    <DOCOLDNO>IA001-000000-B001-1</DOCOLDNO>
    <DOCHDR>
    http://www.example.org/pool.html 192.0.2.1 19970101000000 text/html 1234
    HTTP/1.0 200 OK
    </DOCHDR>
    <html><head><title>…</title></head><body>…</body></html>
    </DOC>

The id is the DOCNO (`trec_docs` reads it, before the <DOCHDR>); the URL, the header's first
word, is kept as the document's metadata `url`; the rest of the header and the tags between
<DOC> and <DOCHDR> (DOCOLDNO) are dropped. The page, all that follows </DOCHDR>, is read as
Anserini's JsoupGenerator reads it: its text, with `<script>` and `<style>` elements and
comments dropped whole, every other tag read as a space, entities (`&amp;`) decoded and white
space read as one space. Its first `<title>` is the document's title and is left out of the
text, so that title and text hold its words once, as the page's text does.

Every record of a file is read by what it holds: one with a <DOCHDR> as a web record, one
without as TREC news (`trec_docs`).
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from pathlib import Path

from workbench.core.data import FormatError

DOCHDR_OPEN = re.compile(r"<DOCHDR(?:\s[^<>]*)?>", re.I)
DOCHDR_CLOSE = re.compile(r"</DOCHDR\s*>", re.I)
# what the page's text leaves out, content and all: comments, scripts and style sheets
DROPPED = re.compile(r"<!--.*?-->|<(script|style)\b[^<>]*>.*?</\1\s*>", re.I | re.S)
TITLE = re.compile(r"<title\b[^<>]*>(.*?)</title\s*>", re.I | re.S)
MARKUP = re.compile(r"<[^<>]*>")


def web_record(path: Path, text: str, header: re.Match[str], end: int, line: int,
               line_of: Callable[[int], int]) -> tuple[str, str, dict[str, str]]:
    """(title, text, metadata) of the web record whose <DOCHDR> is `header`, its </DOC> at
    `end`; `line` is the line of its <DOC>. FormatError where the <DOCHDR> never closes."""
    closed = DOCHDR_CLOSE.search(text, header.end(), end)
    if closed is None:
        raise FormatError(path, f"<DOCHDR> never closes before the </DOC> of the record on "
                          f"line {line}", line=line_of(header.start()), field="DOCHDR")
    words = text[header.end():closed.start()].split()
    page = DROPPED.sub(" ", text[closed.end():end])
    title = TITLE.search(page)
    if title is not None:
        page = page[:title.start()] + " " + page[title.end():]
    return (_words(title.group(1)) if title else "", _words(page),
            {"url": words[0]} if words else {})


def _words(markup: str) -> str:
    """The text of `markup`: tags as spaces, entities decoded, white space one space."""
    return " ".join(html.unescape(MARKUP.sub(" ", markup)).split())
