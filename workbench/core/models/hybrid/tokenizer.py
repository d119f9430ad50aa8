"""OpenVault's BM25 tokenizer (`tokenize` of src/retrieval/math.js, REFERENCE.md §3).

    text.toLowerCase().match(/[\\p{L}0-9_]+/gu)
        .filter(word => word.length > 2 && !STOP_WORDS.has(word))   // before stemming
        .map(stemWord)                                               // by script
        .filter(word => word.length > 2)                             // post-stem runts

- Runs are Unicode letters (`\\p{L}`), ASCII digits and `_`; Python's `\\w` also holds
  non-ASCII digits and numeric characters that are not letters (², Ⅻ), so those split runs.
- Lengths are UTF-16 units; `min_length` (3) generalises the original's `> 2`.
- `stemWord`: any Cyrillic character → Russian Snowball, else any Latin character → English
  Snowball, else unchanged. The original ships the JavaScript `snowball-stemmers` 0.6.0, whose
  stems only `snowballstemmer` 1.2.1's pure-Python stemmers reproduce (alice → alic,
  university → univers, pasting → past, ёлка → ёлка, боюсь → бо). `snowballstemmer.stemmer()`
  hands out PyStemmer's libstemmer (newer Snowball: universiti, paste, елк) whenever PyStemmer
  is installed, so the pure classes are instantiated directly.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator

from snowballstemmer import EnglishStemmer, RussianStemmer

from workbench.core.models.hybrid.jstext import utf16_len
from workbench.core.models.hybrid.lexicon import CYRILLIC, LATIN, STOP_WORDS

# a letter is a word character that is not a digit nor `_`; ASCII digits and `_` join runs
_RUN = re.compile(r"(?:[^\W\d_]|[0-9_])+")
_KEEP_EXTRA = frozenset("0123456789_")
MIN_LENGTH = 3


def word_runs(lowered: str) -> Iterator[str]:
    """The `[\\p{L}0-9_]+` runs of an already lower-cased text."""
    for run in _RUN.findall(lowered):
        if run.isascii() or run.isalpha():
            yield run
            continue
        start = 0  # split at numeric characters that `\w` holds but `\p{L}` does not
        for i, ch in enumerate(run):
            if not (ch.isalpha() or ch in _KEEP_EXTRA):
                if i > start:
                    yield run[start:i]
                start = i + 1
        if start < len(run):
            yield run[start:]


class Tokenizer:
    """`tokenize` with every distinct word's outcome memoised (a corpus holds far fewer
    distinct words than tokens). Stemmer objects keep state while stemming, so each tokenizer
    has its own and stems under a lock."""

    def __init__(self, min_length: int = MIN_LENGTH) -> None:
        self.min_length = min_length
        self._english = EnglishStemmer()
        self._russian = RussianStemmer()
        self._memo: dict[str, str] = {}  # word → its token, "" when dropped
        self._lock = threading.Lock()

    def stem(self, word: str) -> str:
        """stemWord: the stemmer of the word's script, or the word itself."""
        with self._lock:
            if word.isascii():
                if word.strip("0123456789_"):
                    return str(self._english.stemWord(word))
                return word
            if CYRILLIC.search(word):
                return str(self._russian.stemWord(word))
            if LATIN.search(word):
                return str(self._english.stemWord(word))
            return word

    def _token(self, word: str) -> str:
        n = self.min_length
        if utf16_len(word) < n or word in STOP_WORDS:
            return ""
        stem = self.stem(word)
        return stem if utf16_len(stem) >= n else ""

    def tokens(self, text: str | None) -> list[str]:
        if not text:
            return []
        memo = self._memo
        out: list[str] = []
        for word in word_runs(text.lower()):
            tok = memo.get(word)
            if tok is None:
                tok = memo[word] = self._token(word)
            if tok:
                out.append(tok)
        return out


_DEFAULT = Tokenizer()


def tokenize(text: str | None) -> list[str]:
    """OpenVault's `tokenize(text)` with its own constants."""
    return _DEFAULT.tokens(text)


def stem_word(word: str) -> str:
    """OpenVault's `stemWord(word)`."""
    return _DEFAULT.stem(word)
