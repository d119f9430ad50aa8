"""What a file's text says: language, token estimate, exported symbols, content keywords.

REFERENCE §2: token estimate per line by language (TypeScript 3.5, Python 3.2, Java 4.5, others
4.0); keywords from the first 50 lines plus every definition/export line, identifiers split on
camelCase, `_` and `-`, lowercased, words over 2 characters, at most 100.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Mapping

__all__ = ["LANGUAGES", "TOKENS_PER_LINE", "definition_lines", "exported_symbols", "keywords",
           "language_of", "split_identifier", "token_estimate"]

LANGUAGES: dict[str, str] = {
    ".py": "python", ".pyi": "python",
    ".ts": "typescript", ".tsx": "typescript", ".mts": "typescript", ".cts": "typescript",
    ".js": "javascript", ".jsx": "javascript", ".mjs": "javascript", ".cjs": "javascript",
    ".go": "go", ".java": "java", ".rs": "rust", ".rb": "ruby", ".c": "c", ".h": "c",
    ".cpp": "cpp", ".hpp": "cpp", ".cs": "csharp", ".kt": "kotlin", ".swift": "swift",
    ".md": "markdown", ".json": "json", ".yaml": "yaml", ".yml": "yaml", ".toml": "toml",
    ".sh": "shell", ".html": "html", ".css": "css", ".sql": "sql", ".mod": "go-mod",
}
TOKENS_PER_LINE: dict[str, float] = {"typescript": 3.5, "python": 3.2, "java": 4.5}
DEFAULT_TOKENS_PER_LINE = 4.0
KEYWORD_HEAD_LINES = 50
MAX_KEYWORDS = 100
KEYWORD_MIN_CHARS = 3


def language_of(path: str) -> str:
    name = path.rsplit("/", 1)[-1]
    dot = name.rfind(".")
    return LANGUAGES.get(name[dot:].lower(), "other") if dot > 0 else "other"


def token_estimate(lines: int, language: str,
                   rates: Mapping[str, float] | None = None) -> int:
    """ceil(lines · tokens per line of the language); `rates` replace REFERENCE §2's
    (language → tokens per line; "other" for every language it does not name)."""
    if rates is None:
        return math.ceil(lines * TOKENS_PER_LINE.get(language, DEFAULT_TOKENS_PER_LINE))
    return math.ceil(lines * rates.get(language, rates["other"]))


_DEF = {
    "python": re.compile(r"^\s*(?:async\s+)?(?:def|class)\s+\w"),
    "typescript": re.compile(
        r"^\s*(?:export\b|(?:async\s+)?function\b|class\b|interface\b|type\s+\w+\s*=)"),
    "go": re.compile(r"^(?:func|type|var|const)\b"),
    "java": re.compile(r"^\s*(?:public|protected)\b.*[({]"),
}
_DEF["javascript"] = _DEF["typescript"]

_EXPORT = {
    "python": re.compile(r"^(?:async\s+)?(?:def|class)\s+([A-Za-z]\w*)"),
    "typescript": re.compile(
        r"^\s*export\s+(?:default\s+)?(?:declare\s+)?(?:abstract\s+)?(?:async\s+)?"
        r"(?:function\*?|class|const|let|var|interface|type|enum)\s+([A-Za-z_$][\w$]*)"),
    "go": re.compile(r"^(?:func\s+(?:\([^)]*\)\s*)?|type\s+|var\s+|const\s+)([A-Z]\w*)"),
    "java": re.compile(r"^\s*public\s+(?:[\w<>\[\],]+\s+)*?(?:class|interface|enum|record)?\s*"
                       r"([A-Za-z_]\w*)\s*[({<]"),
}
_EXPORT["javascript"] = _EXPORT["typescript"]
_TS_REEXPORT = re.compile(r"^\s*export\s+(?:type\s+)?\{([^}]*)\}")


def definition_lines(lines: list[str], language: str) -> list[str]:
    pattern = _DEF.get(language)
    return [ln for ln in lines if pattern.match(ln)] if pattern else []


def exported_symbols(lines: list[str], language: str) -> tuple[str, ...]:
    """Top-level public names: Python top-level def/class not starting with `_`; JS/TS
    `export` declarations and `export { a, b as c }`; Go capitalised func/type/var/const;
    Java public declarations. In order of appearance, without repeats."""
    pattern = _EXPORT.get(language)
    if pattern is None:
        return ()
    found: list[str] = []
    for ln in lines:
        m = pattern.match(ln)
        if m:
            found.append(m.group(1))
        elif language in ("typescript", "javascript"):
            r = _TS_REEXPORT.match(ln)
            if r:
                for part in r.group(1).split(","):
                    name = part.split(" as ")[-1].strip()
                    if name:
                        found.append(name)
    return tuple(dict.fromkeys(found))


_IDENT = re.compile(r"[A-Za-z][A-Za-z0-9_\-]*")
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")


def split_identifier(ident: str) -> list[str]:
    """`getUserById` → get, user, by, id; `HTTPServer_v2-x` → http, server, v, 2, x."""
    return list(_split(ident))


@functools.lru_cache(maxsize=1 << 16)  # identifiers repeat across a repository's files
def _split(ident: str) -> tuple[str, ...]:
    return tuple(w.lower() for part in re.split(r"[_\-]+", ident) for w in _CAMEL.findall(part))


def keywords(lines: list[str], language: str, limit: int = MAX_KEYWORDS,
             head_lines: int = KEYWORD_HEAD_LINES, min_chars: int = KEYWORD_MIN_CHARS
             ) -> tuple[str, ...]:
    """Words of at least `min_chars` characters from the first `head_lines` lines and the
    definition/export lines after them, in order of first appearance, at most `limit`
    (REFERENCE §2: over 2 characters, the first 50 lines, at most 100)."""
    source = lines[:head_lines] + definition_lines(lines[head_lines:], language)
    seen: dict[str, None] = {}
    for ln in source:
        for ident in _IDENT.findall(ln):
            for word in _split(ident):
                if len(word) >= min_chars and word not in seen:
                    seen[word] = None
                    if len(seen) >= limit:
                        return tuple(seen)
    return tuple(seen)
