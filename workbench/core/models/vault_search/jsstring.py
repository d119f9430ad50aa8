"""JavaScript string semantics that the obsidian-mcp port must reproduce.

JavaScript strings are sequences of UTF-16 code units: `length`, `indexOf`, `slice` and regex
match indices count units, so an emoji before a match shifts its column by 2. Here such text is
held as a *unit string*: a Python `str` with one character per UTF-16 code unit (an astral
character becomes its two surrogates). On unit strings Python's `len`, `find` and slicing are
JavaScript's, and `from_units` turns one back into ordinary text (a pair split by a cut stays a
lone surrogate, as in JavaScript).

Two case rules disagree in the original, and both are reproduced:
- matching (`new RegExp(escaped, 'gi')`, no `u` flag) compares units after ECMA-262's
  Canonicalize: upper-case each unit; keep it when its upper case is longer than one unit or
  maps a non-ASCII unit to ASCII (so `ß`, `ſ`, `İ`, the Kelvin sign and `ẞ` match only
  themselves, while σ, ς and Σ all match each other): `canonicalize`;
- term frequency counts occurrences after `toLowerCase` (full mappings with Final_Sigma, so the
  Kelvin sign counts as `k`, `İ` as `i̇`, `ẞ` as `ß`): Python's `str.lower` applies the same
  Unicode SpecialCasing rules: `js_lower`.
"""

from __future__ import annotations

import re
from functools import lru_cache

import numpy as np
from numpy.typing import NDArray

# ECMAScript \s: WhiteSpace (TAB VT FF ZWNBSP and every Zs) plus LineTerminator (LF CR LS PS).
# Python's own \s differs (it adds \x1c-\x1f and \x85, and lacks \ufeff).
JS_WHITESPACE = (
    "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009"
    "\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
)
_JS_WORD = re.compile("[^" + re.escape(JS_WHITESPACE) + "]+")
_ASTRAL = "\U00010000"


def to_units(text: str) -> str:
    """`text` as a unit string (unchanged when it holds no astral character)."""
    if text.isascii() or not text or max(text) < _ASTRAL:
        return text
    units = np.frombuffer(text.encode("utf-16-le", "surrogatepass"), "<u2")
    return units.astype("<u4").tobytes().decode("utf-32-le", "surrogatepass")


def from_units(units: str) -> str:
    """A unit string back as ordinary text: surrogate pairs rejoin, lone ones stay."""
    if units.isascii():
        return units
    return units.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


def units_array(units: str) -> NDArray[np.uint16]:
    """uint16 (len(units),): the code units of a unit string."""
    if units.isascii():
        return np.frombuffer(units.encode("ascii"), np.uint8).astype(np.uint16)
    return np.frombuffer(units.encode("utf-16-le", "surrogatepass"), "<u2").astype(np.uint16)


def _from_array(units: NDArray[np.uint16]) -> str:
    return units.astype("<u4").tobytes().decode("utf-32-le", "surrogatepass")


@lru_cache(maxsize=1)
def canon_table() -> NDArray[np.uint16]:
    """uint16 (65536,): ECMA-262 Canonicalize(ch) for non-unicode ignoreCase, per code unit."""
    table = np.arange(0x10000, dtype=np.uint16)
    for u in range(0x10000):
        if 0xD800 <= u < 0xE000:
            continue  # surrogates have no case
        upper = chr(u).upper()
        if len(upper) != 1:
            continue  # e.g. ß → SS: stays ß
        cu = ord(upper)
        if cu > 0xFFFF or (u >= 128 and cu < 128):
            continue  # e.g. ſ → S, Kelvin sign: a non-ASCII unit never maps to ASCII
        table[u] = cu
    return table


@lru_cache(maxsize=1)
def whitespace_table() -> NDArray[np.bool_]:
    """bool (65536,): whether a code unit is JavaScript whitespace (`\\s`)."""
    table = np.zeros(0x10000, dtype=np.bool_)
    table[[ord(c) for c in JS_WHITESPACE]] = True
    return table


def canonicalize(units: str) -> str:
    """A unit string with every unit canonicalised as a JS `/i` regex (no `u` flag) does."""
    if units.isascii():
        return units.upper()  # for ASCII, Canonicalize is plain upper-casing
    return _from_array(canon_table()[units_array(units)])


def js_lower(text: str) -> str:
    """`String.prototype.toLowerCase` (full Unicode mappings, Final_Sigma in context)."""
    return text.lower()


def count_words(text: str) -> int:
    """`text.split(/\\s+/).filter(w => w.length > 0).length` with JavaScript's `\\s`."""
    return len(_JS_WORD.findall(text)) if text else 0


def split_words(text: str) -> list[str]:
    """The non-empty pieces of `text.split(/\\s+/)`."""
    return _JS_WORD.findall(text)


def find_all(haystack: str, needle: str, *, per_line: bool = False) -> list[int]:
    """Start indices of the non-overlapping occurrences of `needle`, left to right (as a
    global regex's successive `exec` calls); with `per_line`, only the first on each line."""
    out: list[int] = []
    if not needle:
        return out
    find, step, pos = haystack.find, len(needle), 0
    while True:
        i = find(needle, pos)
        if i < 0:
            return out
        out.append(i)
        if per_line:
            end = find("\n", i + step)
            if end < 0:
                return out
            pos = end + 1
        else:
            pos = i + step
