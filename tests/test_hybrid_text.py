"""The hybrid model's tokenizer and JavaScript string rules (REFERENCE.md §3 and its
conventions), with expected values worked out by hand from the rules."""

from __future__ import annotations

import pytest

from workbench.core.models.hybrid import Tokenizer, stem_word, tokenize
from workbench.core.models.hybrid.jstext import js_round, js_slice, js_trim, utf16_len
from workbench.core.models.hybrid.lexicon import (
    ENGLISH_STOP_WORDS,
    RUSSIAN_STOP_WORDS,
    STOP_WORDS,
)


def test_stop_word_lists_are_the_originals() -> None:
    assert len(ENGLISH_STOP_WORDS) == 109 and len(RUSSIAN_STOP_WORDS) == 151
    assert {"the", "whose", "their", "и", "между", "всю"} <= STOP_WORDS


@pytest.mark.parametrize(("word", "stem"), [
    # REFERENCE.md §3: the stems of snowball-stemmers 0.6.0 (= snowballstemmer 1.2.1's pure
    # Python stemmers), not those of newer Snowball releases (universiti, paste, елк)
    ("alice", "alic"), ("suzy", "suzi"), ("village", "villag"), ("university", "univers"),
    ("pasting", "past"), ("боюсь", "бо"), ("страшно", "страшн"), ("ёлка", "ёлка"),
])
def test_stems_match_the_javascript_stemmer(word: str, stem: str) -> None:
    assert stem_word(word) == stem


def test_russian_runt_is_dropped_after_stemming() -> None:
    # боюсь: 5 letters > 2 and no stop word, so it is stemmed: бо (2 letters) is dropped
    assert tokenize("боюсь") == []
    assert tokenize("Боюсь, страшно!") == ["страшн"]


def test_stop_words_are_checked_before_stemming() -> None:
    # "others" is no stop word, its stem "other" is one: kept (as "other")
    assert tokenize("others") == ["other"]
    # "during" is a stop word, its stem "dure" is not: dropped all the same
    assert tokenize("during") == []
    # upper case is lowered first: "The" is the stop word "the"
    assert tokenize("The Dragon") == ["dragon"]


def test_stemmer_by_script() -> None:
    # Cyrillic → Russian, Latin → English, anything else unchanged
    assert tokenize("страшно village 日本語") == ["страшн", "villag", "日本語"]
    # digits and `_` join letters into one run; a run without letters is not stemmed
    assert tokenize("covid_19 12345") == [stem_word("covid_19"), "12345"]


def test_runs_are_letters_ascii_digits_and_underscore() -> None:
    # ² is a numeric character but not a letter: it splits the run
    assert tokenize("abc²def") == ["abc", "def"]
    # an apostrophe splits: alice's → alice (stem alic) + s (too short)
    assert tokenize("Alice's") == ["alic"]
    # two-letter words are dropped, before and after stemming
    assert tokenize("an ox is at") == []


def test_lengths_count_utf16_units() -> None:
    # 𝒜𝒷: two letters outside the BMP (Script=Common: not stemmed); JavaScript's length is
    # 4 > 2, so it is kept, where a code-point count (2) would drop it
    assert tokenize("𝒜𝒷") == ["𝒜𝒷"]
    assert utf16_len("𝒜𝒷") == 4 and utf16_len("abc") == 3


def test_min_length_is_a_parameter() -> None:
    assert Tokenizer(min_length=2).tokens("an ox go") == ["ox", "go"]  # "an": a stop word


def test_js_round_halves_go_up() -> None:
    assert js_round(2.5) == 3 and js_round(-2.5) == -2 and js_round(0.4999) == 0
    assert round(2.5) == 2  # why the port does not use Python's round


def test_js_slice_and_trim() -> None:
    assert js_slice("abcdef", -3) == "def" and js_slice("abcdef", 0, 2) == "ab"
    # a cut surrogate pair: the lone half becomes U+FFFD (what the embedder receives)
    assert js_slice("a😀b", 0, 2) == "a\ufffd"
    assert js_slice("a😀b", 0, 3) == "a😀"
    # U+FEFF is white space to JavaScript's trim; U+001F is not
    assert js_trim("\ufeff x \u001f") == "x \u001f"
