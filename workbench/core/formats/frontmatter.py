"""A tiny reader for the YAML front matter of markdown notes (no PyYAML dependency).

Understands what note front matter holds in practice: `key: value` lines with plain, quoted,
boolean, null and numeric scalars, inline lists `[a, b]`, block lists (`- a` lines), block
scalars (`|`, `>`) and folded continuation lines. Anything nested deeper (mappings under a key)
is skipped: the key is left out, as it is not a simple value. A front matter without its
closing `---` is an error, as is a top-level line that is not `key: value`, a list item or a
comment, and a value whose quote, `[` or `{` is never closed (YAML lets one go on over
indented lines; it would not read the rest).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from workbench.core.data import FormatError

FIELD = "front matter"
_KEY = re.compile(r"^([^\s#:\-'\"][^:]*?|-[^\s:][^:]*?|['\"][^'\"]+['\"])[ \t]*:(?:[ \t]+(.*))?$")
_ITEM = re.compile(r"^[ \t]*-(?:[ \t]+(.*))?$")
_INT = re.compile(r"^[-+]?\d+$")
_FLOAT = re.compile(r"^[-+]?(\d+\.\d*|\.\d+|\d+(\.\d*)?[eE][-+]?\d+)$")
_BOOLS = {"true": True, "false": False}
_NULLS = {"", "~", "null"}


@dataclass
class FrontMatter:
    """The parsed front matter and where the body starts (0-based index into the lines)."""

    values: dict[str, Any] = field(default_factory=dict)
    body_start: int = 0


def parse_front_matter(lines: list[str], path: Path) -> FrontMatter:
    """Parse `lines` (the note split on `\\n`, `\\r` stripped) if they open with `---`."""
    if not lines or lines[0].lstrip("\ufeff").rstrip() != "---":
        return FrontMatter()
    end = next((i for i in range(1, len(lines)) if lines[i].rstrip() in ("---", "...")), None)
    if end is None:
        raise FormatError(path, "opened with '---' on line 1 but never closed with '---'",
                          line=1, field=FIELD)
    values: dict[str, Any] = {}
    key: str | None = None  # the key the indented / list lines below belong to
    block: list[str] | None = None  # lines of a `|` or `>` block scalar
    folded = False
    skipped: set[str] = set()
    joined_to = 0  # lines up to this one continued a flow value or quote above
    for i in range(1, end):
        if i <= joined_to:
            continue
        line = lines[i]
        stripped = line.strip()
        indented = line[:1] in (" ", "\t")
        if key is not None and block is not None and (indented or not stripped):
            block.append(stripped)
            continue
        if not stripped or stripped.startswith("#"):
            continue
        item = _ITEM.match(line)
        if item and key is not None and (values.get(key) is None or isinstance(values[key], list)):
            if values.get(key) is None:
                values[key] = []
            values[key].append(_scalar(_strip_comment(item.group(1) or "")))
            continue
        if indented and key is not None:
            if isinstance(values.get(key), str):  # a plain scalar folded over several lines
                values[key] = f"{values[key]} {stripped}"
            else:  # a nested mapping: not a simple value
                skipped.add(key)
            continue
        match = _KEY.match(line)
        if match is None:
            raise FormatError(path, f"expected 'key: value', found {stripped[:40]!r}",
                              line=i + 1, field=FIELD)
        if key is not None and block is not None:
            values[key] = _join_block(block, folded)
        written = (match.group(2) or "").strip()
        if _unclosed(written).endswith("never closed"):
            # YAML lets a flow list, mapping or quoted value go on over indented lines
            j = i
            while j + 1 < end and lines[j + 1][:1] in (" ", "\t", "") and \
                    _unclosed(written).endswith("never closed"):
                j += 1
                written = f"{written} {lines[j].strip()}".rstrip()
            if not _unclosed(written):
                joined_to = j
            else:
                written = (match.group(2) or "").strip()
        key, raw = _unquote(match.group(1)), _strip_comment(written)
        block = None
        if raw[:1] in ("|", ">"):
            block, folded = [], raw.startswith(">")
            values[key] = ""
        else:
            wrong = _unclosed(written)
            if wrong:
                raise FormatError(path, f"{key}: {wrong}", line=i + 1, field=FIELD)
            if raw.startswith("{"):  # a flow mapping: not a simple value
                skipped.add(key)
            values[key] = _value(raw)
    if key is not None and block is not None:
        values[key] = _join_block(block, folded)
    for k in skipped:
        values.pop(k, None)
    return FrontMatter(values, end + 1)


def _unclosed(raw: str) -> str:
    """What YAML would not read in a value (`raw`: as written, comment included, indented
    continuation lines joined): a quote, list or mapping opened and never closed, or text after
    one ("" when none)."""
    if raw[:1] in ("'", '"'):
        return "" if _closing_quote(raw) >= 0 else (
            f"a value opened with {raw[0]} and never closed")
    if raw[:1] not in ("[", "{"):
        return ""
    what = "an inline list" if raw[0] == "[" else "an inline mapping"
    depth, quote, last = 0, "", ""
    for i, ch in enumerate(raw):
        if quote:
            quote = "" if ch == quote else quote
            continue
        if ch in ("'", '"') and last in ("[", "{", ",", ":"):  # a quoted item starts
            quote = ch
        elif ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
            if depth == 0:
                rest = raw[i + 1:].strip()
                if rest and not rest.startswith("#"):
                    return f"{what} followed by text after its closing '{ch}'"
                return ""
        if not ch.isspace():
            last = ch
    return f"{what} opened with '{raw[0]}' and never closed"


def _join_block(lines: list[str], folded: bool) -> str:
    while lines and not lines[-1]:
        lines.pop()
    return (" " if folded else "\n").join(lines)


def _strip_comment(raw: str) -> str:
    """Drop a trailing ` # comment` outside quotes and after a closing `]`."""
    raw = raw.strip()
    if raw[:1] in ("'", '"'):
        close = _closing_quote(raw)
        return raw if close < 0 else raw[: close + 1]
    if raw.startswith("["):  # `[#a, #b]`: the `#` inside are tags, not comments
        close = raw.find("]")
        return raw if close < 0 else raw[: close + 1]
    return re.sub(r"\s+#.*$", "", raw)


def _closing_quote(raw: str) -> int:
    """Index of the quote closing the one at raw[0] ('' escapes ', backslash escapes "), or -1."""
    quote, i = raw[0], 1
    while i < len(raw):
        if quote == '"' and raw[i] == "\\":
            i += 2
            continue
        if raw[i] == quote:
            if quote == "'" and raw[i + 1 : i + 2] == "'":
                i += 2
                continue
            return i
        i += 1
    return -1


def _value(raw: str) -> Any:
    if raw.startswith("[") and raw.endswith("]"):
        inner = raw[1:-1].strip()
        return [_scalar(item.strip()) for item in _split_flow(inner)] if inner else []
    return _scalar(raw)


def _split_flow(inner: str) -> list[str]:
    """Split an inline list on commas outside quotes."""
    items, current, quote = [], "", ""
    for ch in inner:
        if quote:
            quote = "" if ch == quote else quote
        elif ch in ("'", '"'):
            quote = ch
        elif ch == ",":
            items.append(current)
            current = ""
            continue
        current += ch
    items.append(current)
    return items


def _unquote(raw: str) -> str:
    raw = raw.strip()
    if len(raw) >= 2 and raw[0] == raw[-1] == '"':
        return raw[1:-1].replace('\\"', '"').replace("\\\\", "\\")
    if len(raw) >= 2 and raw[0] == raw[-1] == "'":
        return raw[1:-1].replace("''", "'")
    return raw


def _scalar(raw: str) -> Any:
    """A YAML 1.2 core-schema scalar: null, bool, int, float or string."""
    if raw[:1] in ("'", '"'):
        return _unquote(raw)
    low = raw.lower()
    if low in _NULLS:
        return None
    if low in _BOOLS:
        return _BOOLS[low]
    if _INT.match(raw):
        try:
            return int(raw)
        except ValueError:  # past Python's 4,300-digit limit: kept as the text it is
            return raw
    if _FLOAT.match(raw):
        return float(raw)
    return raw
