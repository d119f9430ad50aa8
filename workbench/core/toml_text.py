"""`loads`: tomllib's, with nesting past Python's recursion limit said as a TOML error.

tomllib parses arrays and inline tables recursively, so a value nested a few hundred levels
deep (`k = [[[[…]]]]`) raised RecursionError, which every reader let through as a traceback.
It is a TOMLDecodeError here, at the line and column where the nesting passes NESTING_SAID, in
tomllib's own "(at line L, column C)" form that the readers turn into FILE:LINE.
"""

from __future__ import annotations

import tomllib
from typing import Any

NESTING_SAID = 100  # the depth named as the place where the file went wrong


def loads(text: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except RecursionError:
        line, column = _deep_at(text)
        raise tomllib.TOMLDecodeError(
            f"arrays or inline tables nested too deeply (at line {line}, column {column})"
        ) from None


def _deep_at(text: str) -> tuple[int, int]:
    """(line, column), 1-based, where brackets outside strings and comments first reach
    NESTING_SAID deep (a multi-line string is read as lines of their own: it only places the
    error); the end of the text when they never do."""
    depth, quote, line, column = 0, "", 1, 0
    escaped = False
    for ch in text:
        column += 1
        if ch == "\n":
            line, column, quote = line + 1, 0, ""  # a comment or one-line string ends
            continue
        if quote:
            if escaped:
                escaped = False
            elif ch == "\\" and quote == '"':
                escaped = True
            elif ch == quote:
                quote = ""
            continue
        if ch in "\"'":
            quote = ch
        elif ch == "#":
            quote = "\n"  # a comment: skipped to the end of its line
        elif ch in "[{":
            depth += 1
            if depth >= NESTING_SAID:
                return line, column
        elif ch in "]}":
            depth -= 1
    return line, max(column, 1)
