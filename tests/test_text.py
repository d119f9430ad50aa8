"""The shared analyser: tokens, stop words, and the pinned Snowball release's stems."""

from __future__ import annotations

import pytest

from workbench.core.text import Analyzer


def test_stems_are_snowball_1_2_1_even_with_pystemmer_installed() -> None:
    # REFERENCE.md §3: 1.2.1 gives univers / past; later Snowball gives universiti / paste.
    # snowballstemmer.stemmer() would hand out PyStemmer's newer C build when it is installed.
    an = Analyzer(stop_words="none")
    assert an.tokens("University pasting villages") == ["univers", "past", "villag"]


def test_word_runs_stop_words_and_case() -> None:
    an = Analyzer(stop_words="lucene", stemmer="none")
    assert an.tokens("The cat's 3 whiskers, and a CAT-flap!") == ["cat", "whiskers", "cat", "flap"]
    assert Analyzer(stop_words="none", stemmer="none").tokens("a an ok") == ["an", "ok"]


def test_unknown_options_list_the_valid_ones() -> None:
    with pytest.raises(ValueError, match="unknown stop word list 'french'; valid: none, lucene"):
        Analyzer(stop_words="french")
    with pytest.raises(ValueError, match="unknown stemmer 'porter'"):
        Analyzer(stemmer="porter")
