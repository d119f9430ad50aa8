"""The importance rules pinned one by one, values worked out by hand from memory-importance.md
and REFERENCE.md §4 (the arithmetic is in the comments)."""

from __future__ import annotations

import pytest

from workbench.core.models.importance import (
    SCHEMA,
    Memory,
    Rules,
    band,
    fired_phrases,
    importance,
    repetition_boost,
    rules_from,
    staleness_decay,
)

R = Rules()


def imp(text: str = "", **kw: object) -> float:
    return importance(Memory(text=text, **kw), R).final  # type: ignore[arg-type]


def test_rules_from_defaults_equal_the_documents_numbers() -> None:
    assert rules_from(SCHEMA.defaults()) == R


@pytest.mark.parametrize(("text", "category", "phrase"), [
    ("This is IMPORTANT for billing", "emphasis", "important"),
    ("Don\u2019t forget the lock file", "emphasis", "don't forget"),  # curly apostrophe
    ("We are going with Postgres", "decision", "going with"),
    ("finally! it builds", "emotion", "finally!"),
    ("the deploy broke twice", "failure", "broke"),
    ("it doesn't work on arm", "failure", "doesn't work"),
    ("No I meant the other branch", "correction", "no i meant"),
    ("Update: the port is 5433", "correction", "update:"),
    ("please save this for later", "explicit", "save this"),
    ("Remember that I use vim", "explicit", "remember that i"),
])
def test_phrases_fire_case_insensitively(text: str, category: str, phrase: str) -> None:
    assert phrase in fired_phrases(text)[category]


@pytest.mark.parametrize("text", [
    "importantly, the hallways are alwaysdata", "debugging the errors", "bugs in choose",
    "we chose nothing",  # "chose" fires decision, nothing else
])
def test_word_boundaries_keep_near_misses_out(text: str) -> None:
    fired = fired_phrases(text)
    assert fired["emphasis"] == [] and fired["failure"] == []


def test_not_x_but_y() -> None:
    assert fired_phrases("use uv, not poetry, but keep the lock")["correction"]
    assert fired_phrases("not jest but vitest")["correction"]
    assert not fired_phrases("not today")["correction"]


def test_doc_example_capped_at_one() -> None:
    # short 0.5 + "important" 0.3 + "decided to" 0.2 = 1.0
    b = importance(Memory("Important: we decided to ship", tier="short"), R)
    assert b.raw == pytest.approx(1.0) and b.final == pytest.approx(1.0)


def test_one_boost_per_category_however_many_phrases() -> None:
    # short 0.5 + emphasis 0.3 once (important, critical, always, never all fire) = 0.8
    b = importance(Memory("important critical always never", tier="short"), R)
    assert b.fired["emphasis"] == ["important", "critical", "always", "never"]
    assert b.boosts["emphasis"] == 0.3 and b.final == pytest.approx(0.8)


@pytest.mark.parametrize(("tier", "base"), [("ultra-short", 0.5), ("short", 0.5),
                                            ("medium", 0.6), ("long", 0.8)])
def test_base_by_tier(tier: str, base: float) -> None:
    assert imp("plain note", tier=tier) == pytest.approx(base)


@pytest.mark.parametrize(("text", "expected"), [
    ("works!", 0.5),          # one '!': no emotion → short base 0.5
    ("works!!", 0.7),         # two in a row: 0.5 + 0.2
    ("yes! done!", 0.7),      # two anywhere: 0.5 + 0.2
    ("finally! yes!!", 0.7),  # phrase and marks: one emotion boost, 0.5 + 0.2
])
def test_multiple_exclamation_marks(text: str, expected: float) -> None:
    assert imp(text, tier="short") == pytest.approx(expected)


def test_exclamation_marks_can_be_switched_off() -> None:
    off = rules_from({**SCHEMA.defaults(), "exclamation_min": 0})
    assert importance(Memory("works!!!", tier="short"), off).final == pytest.approx(0.5)
    # the phrase still fires the category: 0.5 + 0.2
    assert importance(Memory("finally! yes!!", tier="short"), off).final == pytest.approx(0.7)
    one = rules_from({**SCHEMA.defaults(), "exclamation_min": 1})
    assert importance(Memory("works!", tier="short"), one).final == pytest.approx(0.7)


def test_each_category_value() -> None:
    # medium base 0.6 + the category's boost
    assert imp("always", tier="medium") == pytest.approx(0.9)   # + 0.3
    assert imp("switching to", tier="medium") == pytest.approx(0.8)  # + 0.2
    assert imp("annoying", tier="medium") == pytest.approx(0.8)  # + 0.2
    assert imp("a bug", tier="medium") == pytest.approx(0.8)    # + 0.2
    assert imp("actually", tier="medium") == pytest.approx(0.9)  # + 0.3
    assert imp("note that", tier="short") == pytest.approx(0.9)  # 0.5 + 0.4
    assert imp("x", tier="short", contradicts=True) == pytest.approx(0.8)  # 0.5 + 0.3


@pytest.mark.parametrize(("mentions", "boost"), [
    (0, 0.0), (1, 0.0), (2, 0.0),  # max(0, m − 2) = 0
    (3, 0.1), (4, 0.2), (5, 0.3),  # 0.1 · (m − 2)
    (9, 0.3),                      # min(0.3, 0.7)
])
def test_repetition(mentions: int, boost: float) -> None:
    assert repetition_boost(mentions) == pytest.approx(boost)


@pytest.mark.parametrize(("outcome", "expected"), [
    ("success", 0.7), ("failure", 0.8), ("decision", 0.8),  # medium 0.6 + 0.1 / 0.2 / 0.2
    ("observation", 0.6), ("correction", 0.9), ("", 0.6),    # + 0 / + 0.3 / none
])
def test_outcome_boosts(outcome: str, expected: float) -> None:
    assert imp("plain", tier="medium", outcome=outcome) == pytest.approx(expected)


def test_failure_outcome_counts_once_unless_asked() -> None:
    # medium 0.6 + outcome 0.2 = 0.8; with the switch the category adds 0.2 more = 1.0
    assert imp("plain", tier="medium", outcome="failure") == pytest.approx(0.8)
    both = Rules(outcome_fires_failure=True)
    b = importance(Memory("plain", tier="medium", outcome="failure"), both)
    assert b.final == pytest.approx(1.0) and b.fired["failure"] == ["outcome: failure"]


@pytest.mark.parametrize(("days", "per_day", "grace", "whole", "decay"), [
    (7.0, 0.1, 7.0, True, 0.0),     # not yet past the grace
    (10.5, 0.1, 7.0, True, 0.3),    # floor(10.5) − 7 = 3 days · 0.1
    (10.5, 0.1, 7.0, False, 0.35),  # 3.5 days · 0.1
    (40.0, 0.05, 30.0, True, 0.5),  # 10 days · 0.05
    (400.0, 0.0, 0.0, True, 0.0),   # long: no automatic decay
])
def test_staleness(days: float, per_day: float, grace: float, whole: bool,
                   decay: float) -> None:
    assert staleness_decay(days, per_day, grace, whole) == pytest.approx(decay)


def test_staleness_by_tier() -> None:
    assert imp("x", tier="short", days_inactive=10.5) == pytest.approx(0.2)   # 0.5 − 0.3
    assert imp("x", tier="ultra-short", days_inactive=9) == pytest.approx(0.3)  # 0.5 − 0.2
    assert imp("x", tier="medium", days_inactive=36) == pytest.approx(0.3)  # 0.6 − 6·0.05
    assert imp("x", tier="long", days_inactive=365) == pytest.approx(0.8)   # no decay


def test_long_memories_decay_after_their_own_grace() -> None:
    r = rules_from({**SCHEMA.defaults(), "stale_long": 0.01, "stale_long_days": 60.0})
    # 0.8 − 0.01 · (90 − 60) = 0.5; within the grace nothing
    assert importance(Memory("x", tier="long", days_inactive=90), r).final == pytest.approx(0.5)
    assert importance(Memory("x", tier="long", days_inactive=59), r).final == pytest.approx(0.8)


def test_clamp_both_ends() -> None:
    hi = importance(Memory("store this", tier="long"), R)  # 0.8 + 0.4 = 1.2 → 1.0
    assert hi.raw == pytest.approx(1.2) and hi.clamp == pytest.approx(-0.2)
    lo = importance(Memory("x", tier="short", days_inactive=30), R)  # 0.5 − 23·0.1 = −1.8 → 0
    assert lo.raw == pytest.approx(-1.8) and lo.final == 0.0


def test_dismissals_and_superseded() -> None:
    assert imp("x", tier="medium", dismissals=2) == pytest.approx(0.3)  # 0.6 − 2·0.15
    # long 0.8 + emphasis 0.3 − 3·0.15 = 0.65, then 3 dismissals cap it at 0.3
    assert imp("always", tier="long", dismissals=3) == pytest.approx(0.3)
    # below the cap already: 0.5 − 0.45 = 0.05 stays 0.05
    assert imp("x", tier="short", dismissals=3) == pytest.approx(0.05)
    assert imp("x", tier="long", superseded=True) == pytest.approx(0.3)  # 0.8 − 0.5


@pytest.mark.parametrize(("score", "name"), [
    (0.81, "resurface"), (0.8, "standard"), (0.6, "standard"), (0.59, "short-term"),
    (0.4, "short-term"), (0.39, "decay-candidate"), (0.2, "decay-candidate"),
    (0.19, "archive"), (0.0, "archive"),
])
def test_threshold_bands(score: float, name: str) -> None:
    assert band(score)[0] == name
