"""Task text analysis for `codeledger`: terms, plural tolerance, compounds, task type.

Terms of a task (and of a file's path, symbols and content keywords — the same rule on both
sides): identifiers split on non-alphanumerics, camelCase, `_` and `-` (`repo.lang`'s
splitter), lowercased; English stop words and words of ≤ 2 characters dropped; then reduced to
a *plural key* so that singular and plural meet:

    1. -ies → -y when the word is longer than 4 letters     (retries → retry)
    2. drop a final -s, unless the word ends -ss, -us or -is (handlers → handler)
    3. drop a final -e after s, x, z, ch or sh              (aliase → alias, boxe → box)
    4. step 2 once more                                      (alias → alia)

The key is not a word ("aliases" and "alias" both become "alia", "case" and "cases" "cas"),
only a meeting point; explain shows the words.

Compound identifiers (`api-gateway`, `stripe_billing`) are kept whole, lowercased, for
auto-scope. Task type (REFERENCE §2): the first category, in the order below, with a
whole-word hit (allowing the inflections -s, -es, -ed, -d, -ing), else `unknown`.
"""

from __future__ import annotations

import functools
import re

from workbench.core.repo.lang import split_identifier
from workbench.core.text import EXTENDED_STOP_WORDS

__all__ = ["TASK_TYPES", "TYPE_WORDS", "compounds", "detect_task_type", "plural_key",
           "term_keys", "words"]

_IDENT = re.compile(r"[A-Za-z0-9]+(?:[-_][A-Za-z0-9]+)*")
_COMPOUND = re.compile(r"[A-Za-z0-9]+(?:[-_][A-Za-z0-9]+)+")
_ES_AFTER = ("s", "x", "z", "ch", "sh")

TYPE_WORDS: dict[str, tuple[str, ...]] = {
    "bug_fix": ("fix", "bug", "error", "crash", "broken", "fail", "issue", "regression"),
    "feature_add": ("add", "create", "implement", "new", "build", "introduce", "feature"),
    "refactor": ("refactor", "extract", "cleanup", "rename", "reorganize", "simplify",
                 "move"),
    "test_update": ("test", "spec", "coverage", "assertion", "mock", "stub", "vitest",
                    "jest"),
    "config": ("config", "env", "setting", "deploy", "ci", "yaml", "yml", "json", "toml"),
}
TASK_TYPES: tuple[str, ...] = (*TYPE_WORDS, "unknown")
_TYPE_RE = {t: re.compile(r"\b(?:" + "|".join(ws) + r")(?:s|es|ed|d|ing)?\b", re.I)
            for t, ws in TYPE_WORDS.items()}


def _strip_s(w: str) -> str:
    if w.endswith("s") and not w.endswith(("ss", "us", "is")) and len(w) > 3:
        return w[:-1]
    return w


@functools.lru_cache(maxsize=1 << 16)
def plural_key(word: str) -> str:
    """The plural-tolerant key of a lowercased word (see the module docstring)."""
    w = word
    if w.endswith("ies") and len(w) > 4:
        return w[:-3] + "y"
    w = _strip_s(w)
    if w.endswith("e") and w[:-1].endswith(_ES_AFTER) and len(w) > 3:
        w = w[:-1]
    return _strip_s(w)


def words(text: str) -> list[str]:
    """Informative lowercased words of `text`, in order, with repeats: split identifiers,
    no stop words, no words of ≤ 2 characters."""
    out: list[str] = []
    for ident in _IDENT.findall(text):
        for w in split_identifier(ident):
            if len(w) > 2 and w not in EXTENDED_STOP_WORDS:
                out.append(w)
    return out


def term_keys(text: str) -> dict[str, str]:
    """Plural key → the first word of `text` that gave it, in order of appearance."""
    out: dict[str, str] = {}
    for w in words(text):
        out.setdefault(plural_key(w), w)
    return out


def compounds(text: str) -> list[str]:
    """Compound identifiers (joined by `-` or `_`), lowercased, in order, without repeats."""
    return list(dict.fromkeys(c.lower() for c in _COMPOUND.findall(text)))


def detect_task_type(text: str) -> str:
    for task_type, rx in _TYPE_RE.items():
        if rx.search(text):
            return task_type
    return "unknown"
