"""The shipped variant's behaviours, one test each (REFERENCE.md §5), on the pure port."""

from __future__ import annotations

import math
import re

import pytest

from workbench.core.models.vault_search import (
    ExtractorConfig,
    ScoringWeights,
    calculate_score,
    extract_matches,
    find_column_position,
    highlight_match,
    score_components,
    shipped_score,
    term_frequency,
)
from workbench.core.models.vault_search.jsstring import count_words, from_units, to_units
from workbench.core.models.vault_search.original import term_count


def lines_of(content: str, query: str) -> list[int]:
    return [m.line for m in extract_matches(content, query)]


def test_multi_word_query_is_one_phrase() -> None:
    content = "notes about the meeting\nMeeting Notes today\nmeeting  notes\nmeeting notes"
    assert lines_of(content, "meeting notes") == [2, 4]
    assert shipped_score("meeting and notes", "meeting notes") == 0.0


def test_first_occurrence_per_line_only() -> None:
    [m] = extract_matches("xx query QUERY query", "query")
    assert (m.line, m.column) == (1, 3)
    assert m.snippet == "xx **query** **QUERY** **query**"  # the snippet still marks all
    # density counts lines (1 of 2), tf counts every occurrence (3 of 5 words)
    content = "xx query QUERY query\nother"
    c = score_components(lines_of(content, "query"), content, "query")
    assert c.density == pytest.approx(math.log1p(50) / math.log1p(50))
    assert c.tf == pytest.approx(min(1, math.log1p(3 / 5 * 100) / math.log1p(100)))


def test_columns_count_utf16_units() -> None:
    line = "😀 query"  # the emoji is two UTF-16 units
    assert find_column_position(line, "query") == 3
    [m] = extract_matches("a\n" + line, "query")
    assert (m.line, m.column, m.snippet) == (2, 3, "😀 **query**")
    assert find_column_position("日本語のテスト", "テスト") == 4  # BMP characters: one unit each


def test_kelvin_sign_tf_counts_what_matching_does_not() -> None:
    kelvin = "\u212a"
    assert lines_of(f"100 {kelvin}", "k") == []  # Canonicalize keeps K: no match
    assert term_count(f"100 {kelvin}", "k") == 1  # toLowerCase(K) = k
    assert lines_of("100 k", kelvin) == [] and term_count("100 k", kelvin) == 1


def test_final_sigma_matches_but_tf_misses() -> None:
    # σ, ς and Σ all canonicalise to Σ; toLowerCase gives word-final Σ as ς
    assert lines_of("ΟΔΟΣ", "σ") == [1] and lines_of("οδος", "Σ") == [1]
    assert term_count("ΟΔΟΣ", "σ") == 0
    c = score_components([1], "ΟΔΟΣ", "σ")
    assert c.tf == 0.0 and c.position == 1.0


def test_dotted_capital_i() -> None:
    assert lines_of("İstanbul", "i") == []  # İ upper-cases to itself, i to I
    assert term_count("İstanbul", "i") == 1  # toLowerCase(İ) = i + U+0307
    assert lines_of("istanbul", "İ") == [] and term_count("istanbul", "İ") == 0
    assert lines_of("İİ", "İ") == [1]


def test_long_s_matches_nothing_but_itself() -> None:
    assert re.search("s", "ſ", re.IGNORECASE)  # what Python's folding would wrongly do
    assert lines_of("ſ", "s") == [] and lines_of("s", "ſ") == [] and lines_of("S", "ſ") == []
    assert term_count("ſ", "s") == 0
    assert lines_of("ſ", "ſ") == [1]


def test_sharp_s() -> None:
    assert lines_of("STRASSE", "ß") == [] and lines_of("ß", "ss") == []
    assert lines_of("ẞ", "ß") == [] and term_count("ẞ", "ß") == 1  # toLowerCase(ẞ) = ß
    assert lines_of("ß", "ß") == [1]


def test_crlf_keeps_carriage_returns() -> None:
    content = "first\r\nthe query\r\nlast"
    [m] = extract_matches(content, "query")
    assert m.line == 2 and m.column == 4
    assert m.context == "  first\r\n> the query\r\n  last"
    assert extract_matches("query\r", "query")[0].snippet == "**query**\r"
    assert score_components([2], content, "query").total_lines == 3


def test_front_matter_is_scored() -> None:
    content = "---\ntags: [budget]\n---\n# Notes\nnothing here"
    assert lines_of(content, "budget") == [2]
    c = score_components([2], content, "budget")
    assert c.total_lines == 5 and c.position == pytest.approx(math.exp(-3 / 5))
    assert shipped_score(content, "budget") > 0


def test_score_is_zero_without_match_content_or_query() -> None:
    assert shipped_score("nothing", "query") == 0.0
    assert calculate_score([1], "", "query") == 0.0
    assert calculate_score([1], "content", "") == 0.0
    assert calculate_score([], "content", "content") == 0.0


def test_weights_above_one_are_clamped() -> None:
    content = "query"
    assert calculate_score([1], content, "query", ScoringWeights(1.0, 1.0, 1.0)) == 1.0
    assert calculate_score([1], content, "query", ScoringWeights(0.2, 0.2, 0.2)) == \
        pytest.approx(0.6)


def test_context_defaults_to_two_lines() -> None:
    content = "\n".join(f"l{i}" for i in range(1, 10)) + "\nquery\n" + "\n".join(
        f"m{i}" for i in range(1, 10))
    [m] = extract_matches(content, "query")
    assert m.context == "  l8\n  l9\n> query\n  m1\n  m2"
    [m1] = extract_matches(content, "query", context_lines=0)
    assert m1.context == "> query"


def test_snippet_cut_centres_on_first_highlight() -> None:
    cfg = ExtractorConfig()
    line = "a" * 300 + "query" + "b" * 300
    s = highlight_match(line, "query", cfg)
    # 200 units from 100 before the first marker, markers included, ... at both cut ends
    assert s == "..." + "a" * 100 + "**query**" + "b" * 91 + "..."
    assert len(s) == 206


def test_snippet_cut_at_line_start_keeps_the_first_units() -> None:
    s = highlight_match("query " + "x" * 300, "query")
    assert s == ("**query** " + "x" * 300)[:200] + "..."


def test_snippet_cut_near_start_has_no_leading_dots() -> None:
    s = highlight_match("a" * 50 + "query" + "b" * 300, "query")
    assert s == ("a" * 50 + "**query**" + "b" * 300)[:200] + "..."


def test_snippet_centres_on_existing_bold_markers() -> None:
    # the original looks for the first "**" in the highlighted line: markdown bold counts
    line = "x**bold** " + "a" * 300 + "query"
    s = highlight_match(line, "query")
    assert s == "x**bold** " + "a" * 190 + "..."


def test_snippet_cut_counts_utf16_units() -> None:
    line = "😀" * 150 + "query" + "b" * 300  # 300 units before the match
    s = highlight_match(line, "query")
    # the first marker is at unit 300: the window is units 200..400 (50 emoji = 100 units)
    assert s == "..." + "😀" * 50 + "**query**" + "b" * 91 + "..."
    assert len(to_units(s)) == 206 and len(s) == 156


def test_snippet_cut_can_split_a_surrogate_pair() -> None:
    line = "😀" * 150 + "query"
    s = highlight_match(line, "query", ExtractorConfig(max_snippet_length=23))
    # start = 300 − 11 = 289 units: inside a pair, so the cut opens with a lone low surrogate
    # (as the original's String.slice does); the window reaches the line end: no "..." there
    assert s == "...\ude00" + "😀" * 5 + "**query**"
    assert from_units(to_units(s)) == s


def test_word_count_uses_javascript_whitespace() -> None:
    assert count_words("a\u001cb") == 1  # Python's split() would see two words
    assert count_words("a\u0085b") == 1
    assert count_words("a\ufeffb") == 2  # ZWNBSP is \s in JavaScript, not in Python
    assert count_words("  a \t\n b\u3000c  ") == 3
    assert term_frequency("a\u001cquery", "query") == 1.0
