"""JavaScript string and number semantics the OpenVault port reproduces (REFERENCE.md, top).

- Lengths and slices count UTF-16 code units: an astral character (an emoji) counts 2, so
  `word.length > 2`, `content.length <= 50` and `text.slice(0, 500)` are measured in units.
  A slice that cuts a surrogate pair leaves a lone surrogate in JavaScript; the embedding model
  receives it as U+FFFD (TextEncoder's replacement), so here it becomes U+FFFD directly.
- `String.prototype.trim` strips ECMAScript white space and line terminators, a set that differs
  from Python's `str.strip()` (which adds U+001C–U+001F and U+0085 and lacks U+FEFF).
- `Math.round` rounds halves up (toward +∞): floor(x + 0.5), unlike Python's banker's `round`.
"""

from __future__ import annotations

import math

# ECMAScript WhiteSpace (TAB VT FF SP NBSP ZWNBSP and every Zs) plus LineTerminator (LF CR LS PS)
JS_WHITESPACE = (
    "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009"
    "\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
)
_ASTRAL = "\U00010000"


def js_round(x: float) -> int:
    """Math.round: halves go up (2.5 → 3, −2.5 → −2)."""
    return math.floor(x + 0.5)


def js_trim(text: str) -> str:
    """String.prototype.trim."""
    return text.strip(JS_WHITESPACE)


def _bmp_only(text: str) -> bool:
    return text.isascii() or not text or max(text) < _ASTRAL


def utf16_len(text: str) -> int:
    """`text.length` in JavaScript: UTF-16 code units."""
    if _bmp_only(text):
        return len(text)
    return len(text) + sum(1 for ch in text if ch >= _ASTRAL)


def js_slice(text: str, start: int, stop: int | None = None) -> str:
    """`text.slice(start, stop)` with UTF-16 indices (negative ones count from the end);
    a cut surrogate pair becomes U+FFFD."""
    if _bmp_only(text):
        return text[start:stop]
    units = text.encode("utf-16-le", "surrogatepass")
    n = len(units) // 2
    lo = max(0, n + start) if start < 0 else min(start, n)
    hi = n if stop is None else (max(0, n + stop) if stop < 0 else min(stop, n))
    if hi <= lo:
        return ""
    return units[2 * lo: 2 * hi].decode("utf-16-le", "replace")
