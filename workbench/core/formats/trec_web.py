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
word where it is one (it holds `://`; a header without one, `HTTP/1.1 200 OK` first, stores
no `url`), is kept as the document's metadata `url`; the rest of the header and the tags
between <DOC> and <DOCHDR> (DOCOLDNO) are dropped. As in TrecwebCollection, the record ends
only at a line that starts with </DOC> (a page's script may quote one mid-line), and a line of
the page that starts with <DOC> is skipped. The page, all that follows </DOCHDR>, is read as
Anserini's JsoupGenerator reads it (Jsoup's `text()`): `<script>` and `<style>` elements and
comments dropped whole, a block element's tags (p, div, td, li, h1 … as Jsoup's `Tag` lists
them) and `<br>` read as a space, every other tag (b, font, a, span … and unknown ones) as
nothing, so that `<b>l</b>anded` is one word, entities (`&amp;`) decoded and white space
read as one space. Its first `<title>` is the document's title and is left out of the text, so
that title and text hold its words once, as the page's text does.

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
STRAY_DOC = re.compile(r"^[^\S\n]*<DOC>.*$", re.I | re.M)  # skipped, as TrecwebCollection does
TAG = re.compile(r"</?([A-Za-z][A-Za-z0-9]*)\b[^<>]*>")
MARKUP = re.compile(r"<[^<>]*>")
# the elements whose tags separate words in Jsoup's text(): its Tag.blockTags, and <br>
SEPARATING = frozenset((
    "html", "head", "body", "frameset", "script", "noscript", "style", "meta", "link", "title",
    "frame", "noframes", "section", "nav", "aside", "hgroup", "header", "footer", "p", "h1",
    "h2", "h3", "h4", "h5", "h6", "ul", "ol", "pre", "div", "blockquote", "hr", "address",
    "figure", "figcaption", "form", "fieldset", "ins", "del", "dl", "dt", "dd", "li", "table",
    "caption", "thead", "tfoot", "tbody", "colgroup", "col", "tr", "th", "td", "video", "audio",
    "canvas", "details", "menu", "plaintext", "template", "article", "main", "svg", "math",
    "center", "dir", "applet", "marquee", "listing", "br"))


def web_record(path: Path, text: str, header: re.Match[str], end: int, line: int,
               line_of: Callable[[int], int]) -> tuple[str, str, dict[str, str]]:
    """(title, text, metadata) of the web record whose <DOCHDR> is `header`, its </DOC> at
    `end`; `line` is the line of its <DOC>. FormatError where the <DOCHDR> never closes."""
    closed = DOCHDR_CLOSE.search(text, header.end(), end)
    if closed is None:
        raise FormatError(path, f"<DOCHDR> never closes before the </DOC> of the record on "
                          f"line {line}", line=line_of(header.start()), field="DOCHDR")
    words = text[header.end():closed.start()].split()
    page = DROPPED.sub(" ", STRAY_DOC.sub("", text[closed.end():end]))
    title = TITLE.search(page)
    if title is not None:
        page = page[:title.start()] + " " + page[title.end():]
    return (_words(title.group(1)) if title else "", _words(page),
            {"url": words[0]} if words and "://" in words[0] else {})


def _words(markup: str) -> str:
    """The text of `markup` as Jsoup's text() reads it: a block element's tags as a space,
    other tags as nothing, entities decoded, white space one space."""
    joined = TAG.sub(lambda tag: " " if tag.group(1).lower() in SEPARATING else "", markup)
    return " ".join(html.unescape(MARKUP.sub(" ", joined)).split())
