"""Stemming from two threads at once (the window's worker preparing while a compare or a tune
prepares): every stem is what one stemmer alone gives, and nothing raises. A Snowball stemmer
keeps its word and a cache in itself while it stems; shared between threads it gave wrong
stems and KeyErrors."""

from __future__ import annotations

import random
import threading
from collections.abc import Callable

from snowballstemmer.english_stemmer import EnglishStemmer

from workbench.core.models.codeledger import content
from workbench.core.text import Analyzer

N = 15_000


def _words() -> list[str]:
    rng = random.Random(0)
    ends = ("ing", "ation", "ness", "ly", "ed", "es", "ful", "ize")
    return ["".join(rng.choice("abcdefghiklmnoprstuy") for _ in range(rng.randint(4, 12)))
            + rng.choice(ends) for _ in range(N)]


def _in_two_threads(make: Callable[[], Callable[[str], str]],
                    words: list[str]) -> list[list[object]]:
    """Each thread stems every word with the function `make` gives it (a failure ends its
    list)."""
    outs: list[list[object]] = [[], []]

    def run(out: list[object]) -> None:
        stem = make()
        try:
            out.extend(stem(w) for w in words)
        except Exception as exc:
            out.append(exc)

    threads = [threading.Thread(target=run, args=(o,)) for o in outs]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return outs


def test_the_analyzer_stems_alike_in_two_threads() -> None:
    words = _words()
    alone = EnglishStemmer()  # the reference: one stemmer, one thread
    expected = [alone.stemWord(w) for w in words]
    for out in _in_two_threads(lambda: Analyzer().stem, words):  # an Analyzer each
        assert out == expected


def test_codeledger_stems_alike_in_two_threads() -> None:
    words = _words()
    expected = [content._stem(w) for w in words]
    content._stem.cache_clear()  # every word a miss again: the stemmer itself runs
    for out in _in_two_threads(lambda: content._stem, words):
        assert out == expected
