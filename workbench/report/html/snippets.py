"""A document's text around the query's words, escaped, the words marked: as prose,
or as a file's lines."""

from __future__ import annotations

from html import escape

from workbench.core.text import WORD_RE, Analyzer


def _hits(text: str, terms: set[str], analyzer: Analyzer) -> list[tuple[int, int]]:
    """(start, end) of the words of `text` whose analysed form is one of `terms`."""
    out = []
    for w in WORD_RE.finditer(text):
        tokens = analyzer.tokens(w.group())
        if tokens and tokens[0] in terms:
            out.append(w.span())
    return out


def _marked(text: str, terms: set[str], analyzer: Analyzer) -> str:
    """`text` escaped, its query-term words in <mark>."""
    out, at = [], 0
    for start, end in _hits(text, terms, analyzer):
        out += [escape(text[at:start]), f"<mark>{escape(text[start:end])}</mark>"]
        at = end
    out.append(escape(text[at:]))
    return "".join(out)


def code_snippet_html(text: str, terms: set[str], analyzer: Analyzer, width: int = 480,
                      most: int = 14) -> str:
    """A file's lines around its first line with a query term (from two lines before it), as
    many as fit in `width` characters and `most` lines, escaped, the terms in <mark>, '…'
    where cut: code flattened onto one line read as prose."""
    lines = text.splitlines()
    first = next((i for i, line in enumerate(lines) if _hits(line, terms, analyzer)), 0)
    start = max(0, first - 2)
    shown: list[str] = []
    used = 0
    for line in lines[start:start + most]:
        line = line.rstrip()
        if used + len(line) > width and shown:
            break
        shown.append(_marked(line[:width], terms, analyzer))
        used += len(line) + 1
    end = start + len(shown)
    return (("…\n" if start else "") + "\n".join(shown)
            + ("\n…" if end < len(lines) else ""))


def snippet_html(text: str, terms: set[str], analyzer: Analyzer, width: int = 320) -> str:
    """At most `width` characters of `text` (whitespace collapsed) around where the query
    terms (`terms`: analysed tokens) are densest, escaped, the terms in <mark>, '…' where
    cut."""
    text = " ".join(text.split())
    if len(text) > width:
        starts = [s for s, _ in _hits(text, terms, analyzer)]
        best = 0
        if starts:
            counts = [sum(1 for t in starts if s <= t < s + width - 40) for s in starts]
            best = max(0, starts[counts.index(max(counts))] - 40)
            space = text.rfind(" ", 0, best + 1)
            best = space + 1 if best and space >= 0 else best
        end = min(len(text), best + width)
        cut = text.rfind(" ", best, end) if end < len(text) else end
        end = cut if cut > best else end
        return (("…" if best else "") + _marked(text[best:end], terms, analyzer)
                + ("…" if end < len(text) else ""))
    return _marked(text, terms, analyzer)
