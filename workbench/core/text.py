"""Tokenisers and stemmers shared by the models.

Models that port a source system keep that system's tokenizer next to the model (its rules are
part of what is faithful); this module holds the general-purpose analyser used by the BM25 and
dense baselines: Unicode word runs of two or more characters, lower-cased, optional English stop
words, optional Snowball stemming.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field

# `\w\w+`: the token pattern of scikit-learn and bm25s, so baselines compare like for like.
WORD_RE = re.compile(r"(?u)\b\w\w+\b")

# Lucene's classic English stop set (EnglishAnalyzer.ENGLISH_STOP_WORDS_SET), which Anserini's
# BEIR baselines use.
LUCENE_STOP_WORDS = frozenset(
    "a an and are as at be but by for if in into is it no not of on or such that the their "
    "then there these they this to was will with".split()
)

# A longer list of English function words, for users who want more aggressive filtering.
EXTENDED_STOP_WORDS = LUCENE_STOP_WORDS | frozenset(
    "about above after again against all am any because been before being below between both "
    "can could did do does doing down during each few from further had has have having he her "
    "here hers herself him himself his how i its itself just me more most my myself nor now "
    "off once only other our ours ourselves out over own same she should so some than that's "
    "theirs them themselves those through too under until up very we were what when where "
    "which while who whom why would you your yours yourself yourselves".split()
)

STOP_WORD_LISTS: dict[str, frozenset[str]] = {
    "none": frozenset(),
    "lucene": LUCENE_STOP_WORDS,
    "extended": EXTENDED_STOP_WORDS,
}

STEMMERS = ("none", "snowball-english")


_THREAD = threading.local()


def _snowball(language: str) -> object:
    """The pure-Python Snowball stemmer of the pinned release, one per thread: a stemmer keeps
    its word and a cache in itself while it stems, so two threads sharing one (the window's
    worker and a compare or tune preparing at once) get wrong stems or a KeyError. Not
    `snowballstemmer.stemmer()`, which silently switches to PyStemmer's C build (a newer
    Snowball with other stems) whenever that happens to be installed."""
    from snowballstemmer.english_stemmer import EnglishStemmer

    if language != "english":
        raise ValueError(f"no stemmer for {language!r}")
    mine: dict[str, object] = _THREAD.__dict__.setdefault("stemmers", {})
    stemmer = mine.get(language)
    if stemmer is None:
        stemmer = mine[language] = EnglishStemmer()
    return stemmer


@dataclass
class Analyzer:
    """Text → tokens. Stems are memoised per analyser (a corpus has far fewer distinct words
    than tokens, so stemming each distinct word once is what makes this fast)."""

    stop_words: str = "lucene"
    stemmer: str = "snowball-english"
    _stems: dict[str, str] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        if self.stop_words not in STOP_WORD_LISTS:
            raise ValueError(
                f"unknown stop word list {self.stop_words!r}; valid: {', '.join(STOP_WORD_LISTS)}"
            )
        if self.stemmer not in STEMMERS:
            raise ValueError(f"unknown stemmer {self.stemmer!r}; valid: {', '.join(STEMMERS)}")
        self._stop = STOP_WORD_LISTS[self.stop_words]

    def words(self, text: str) -> list[str]:
        """Lower-cased word runs with stop words removed, before stemming."""
        stop = self._stop
        return [w for w in WORD_RE.findall(text.lower()) if w not in stop]

    def stem(self, word: str) -> str:
        if self.stemmer == "none":
            return word
        s = self._stems.get(word)
        if s is None:
            stemmer = _snowball("english")
            s = stemmer.stemWord(word)  # type: ignore[attr-defined]
            self._stems[word] = s
        return s

    def tokens(self, text: str) -> list[str]:
        if self.stemmer == "none":
            return self.words(text)
        stems = self._stems
        out: list[str] = []
        for w in self.words(text):
            s = stems.get(w)
            out.append(s if s is not None else self.stem(w))
        return out

    def tokenize_all(self, texts: Iterable[str]) -> list[list[str]]:
        return [self.tokens(t) for t in texts]
