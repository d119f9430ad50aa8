"""Plain text made safe for Markdown, and options, backticks and tables marked up:
what the data or the user wrote must show literally in a pull request."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

_INLINE = re.compile(r"[\\`*|~\[\]#$]|<(?=[A-Za-z/!?])|&(?=#?\w+;)"
                     r"|(?<![0-9A-Za-z])[_@]|_(?![0-9A-Za-z])")
_BLOCK = re.compile(r"^(\s*|\s*\d+)((?<=\d)[.)]|(?<!\d)[#>+\-=])")


def md(text: str, *, block: bool = True) -> str:
    """Plain text as Markdown shows it literally (GitHub's flavour), on one line: its
    emphasis, code, link, HTML, entity and table characters escaped and a marker that would
    open a block (a heading, a quote, a list) at its start. A title `</td><h1>x`, a query
    "`x` *y*" or `&amp;` in a pull request showed as markup, or as other text."""
    flat = _INLINE.sub(lambda m: "\\" + m.group(0), " ".join(text.splitlines()))
    # a line's leading spaces would open a code block: a bullet's text starts at its word
    return _BLOCK.sub(r"\1\\\2", flat.lstrip()) if block else flat


def code_span(text: str) -> str:
    """`text` as inline code, shown literally: fenced by more backticks than it holds in a
    row, padded where it starts or ends with one."""
    flat = " ".join(text.splitlines())
    run = max((len(m) for m in re.findall(r"`+", flat)), default=0)
    fence = "`" * (run + 1)
    pad = " " if flat.startswith("`") or flat.endswith("`") else ""
    return f"{fence}{pad}{flat}{pad}{fence}"


# an option and its value in the hint ("--qrels FILE", "--qrels data/qrels/test.tsv"): code;
# the words around them ("and", "the folder's qrels/ is read only …") prose
FLAG = re.compile(r"--[a-z][\w-]*(?: (?!and\b)[^\s;,]+)?")


def ticks_as_code(text: str, code: Callable[[str], str], prose: Callable[[str], str]) -> str:
    """`text` with each `backticked` piece passed through `code`, the rest through `prose`
    (a data warning's "`workbench explain` names each gate" had shown its backticks
    escaped)."""
    def words(piece: str) -> str:  # the spaces around a piece kept (md strips them)
        core = piece.strip()
        if not core:
            return piece
        return (piece[:len(piece) - len(piece.lstrip())] + prose(core)
                + piece[len(piece.rstrip()):])

    parts = re.split(r"`([^`]+)`", text)
    return "".join(code(p) if k % 2 else words(p) for k, p in enumerate(parts))


def flags_as_code(text: str, code: Callable[[str], str], prose: Callable[[str], str]) -> str:
    """`text` with each option and its value passed through `code`, the rest through
    `prose` (Markdown: a code span and escaping; HTML: <code> and escape)."""
    def words(piece: str) -> str:  # the spaces around a piece kept (md strips them)
        core = piece.strip()
        if not core:
            return piece
        return piece[:len(piece) - len(piece.lstrip())] + prose(core) + piece[len(
            piece.rstrip()):]

    out, at = [], 0
    for m in FLAG.finditer(text):
        out += [words(text[at:m.start()]), code(m.group(0))]
        at = m.end()
    return "".join([*out, words(text[at:])])


def _md_table(header: Sequence[str], rows: Sequence[Sequence[str]], *,
              numeric_from: int = 1) -> list[str]:
    """A GitHub table of plain-text cells (`md`); the columns from `numeric_from` on are
    numbers, right-aligned."""
    def cell(text: str) -> str:
        return md(text, block=False) if text.strip() else text  # a cell opens no block

    out = ["| " + " | ".join(cell(h) for h in header) + " |",
           "|" + "|".join("---" if j < numeric_from else "---:" for j in range(len(header)))
           + "|"]
    out += ["| " + " | ".join(cell(c) for c in r) + " |" for r in rows]
    return out
