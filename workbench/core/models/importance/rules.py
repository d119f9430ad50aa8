"""The memory-importance document's rules as small pure functions (one memory at a time).

These are the reference the vectorised combine is tested against. Every number they use comes
in as an argument (from `Rules`, built from the parameters); the phrase lists default to the
document's, verbatim, and are parameters too (`phrases_<category>`).

Decisions where the document is silent (REFERENCE.md §4):
- a category fires once however many of its phrases match;
- phrases match case-insensitively on word boundaries (`(?<!\\w)phrase(?!\\w)`), so "bug" does
  not fire on "debug" or "bugs", and curly apostrophes count as straight ones;
- "exclamation marks (multiple)" = at least `exclamation_min` (2) "!" anywhere in the text;
- "not X, but Y" is the pattern `not <1–4 words>[,] but <word>`;
- "contradicts previous memory" fires the correction category when the memory's metadata names
  a memory it `contradicts`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache

CATEGORIES: tuple[str, ...] = ("emphasis", "decision", "emotion", "failure", "correction",
                               "explicit")

PHRASES: dict[str, tuple[str, ...]] = {
    "emphasis": ("important", "remember this", "don't forget", "critical", "crucial",
                 "key point", "make sure to", "always", "never"),
    "decision": ("decided to", "going with", "chose", "will use", "switching to", "settled on",
                 "the plan is", "we'll do"),
    "emotion": ("finally!", "frustrated", "excited", "hate", "love", "annoying", "amazing"),
    "failure": ("broke", "failed", "error", "bug", "doesn't work", "wrong", "mistake"),
    "correction": ("actually", "no i meant", "that's wrong", "correction:", "update:"),
    "explicit": ("save this", "store this", "add to memory", "remember that i", "note that"),
}

# the Y word whole, as the X words are read: a word character, then word characters and
# + # / - (c++, c#, node-red), a dot only inside it (node.js; "but yarn." ends at "yarn").
# The span explain shows as fired_by had ended "but h" for "but Home Assistant" (rm 7), then
# "but node" for "but node-red" (dr3 6). All after the first \w may be empty, so the pattern
# matches exactly where `but\s+\w` did: what fires is the same, only the span shown grows.
NOT_X_BUT_Y = re.compile(r"(?<!\w)not\s+[\w.+#/-]+(?:\s+[\w.+#/-]+){0,3}\s*,?\s+but\s+"
                         r"\w[\w+#/-]*(?:\.[\w+#/-]+)*")


def phrase_list(text: str) -> tuple[str, ...]:
    """A phrase-list parameter's phrases: comma-separated, each trimmed, matched as written
    in lower case (curly apostrophes straightened, as the texts are); blanks and repeats
    dropped, the first kept."""
    seen: dict[str, None] = {}
    for part in text.split(","):
        phrase = normalise(" ".join(part.split()))
        if phrase:
            seen.setdefault(phrase)
    return tuple(seen)


def phrases_text(phrases: tuple[str, ...]) -> str:
    """The phrase-list parameter's text for `phrases` (`phrase_list`'s inverse)."""
    return ", ".join(phrases)


@lru_cache(maxsize=64)
def _compiled(phrases: tuple[str, ...]) -> tuple[tuple[str, re.Pattern[str]], ...]:
    return tuple((p, re.compile(r"(?<!\w)" + re.escape(p) + r"(?!\w)")) for p in phrases)

TIERS: tuple[str, ...] = ("ultra-short", "short", "medium", "long")
OUTCOMES: tuple[str, ...] = ("success", "failure", "decision", "observation", "correction")


def tier_index(value: object) -> int:
    """The tier a memory names, -1 for none or one unknown: case and spaces aside, with the
    document's own spelling "Short-term" (its decay signals) read as "short"."""
    if not isinstance(value, str):
        return -1
    name = value.strip().lower().replace(" ", "-").removesuffix("-term")
    return TIERS.index(name) if name in TIERS else -1


def outcome_index(value: object) -> int:
    """The outcome a memory names (case and spaces aside), -1 for none or one unknown."""
    name = value.strip().lower() if isinstance(value, str) else ""
    return OUTCOMES.index(name) if name in OUTCOMES else -1
DAY_S = 86400.0
# importance is rounded to 12 decimals, so that 0.5 − 3·0.1 is 0.2 (not 0.19999999999999998)
# and the band thresholds and gates see the values the document's arithmetic gives
DIGITS = 12


def normalise(text: str) -> str:
    """Lower case, curly apostrophes straightened (the phrases are written with ')."""
    return text.replace("\u2019", "'").replace("\u2018", "'").lower()


def fired_phrases(text: str, phrases: Mapping[str, tuple[str, ...]] = PHRASES,
                  not_but: bool = True) -> dict[str, list[str]]:
    """Category → the phrases of `phrases` (the document's lists unless given) found in
    `text`, in list order (empty if none). "not X, but Y" (unless `not_but` is off) reports
    the matched span; exclamation marks are counted separately."""
    low = normalise(text)
    out = {cat: [p for p, rx in _compiled(tuple(phrases.get(cat, ()))) if rx.search(low)]
           for cat in CATEGORIES}
    m = NOT_X_BUT_Y.search(low) if not_but else None
    if m:
        out["correction"].append(m.group(0))
    return out


def exclamations(text: str) -> int:
    return text.count("!")


@dataclass(frozen=True)
class Rules:
    """Every constant of the document and its companion schema (the parameters' defaults)."""

    base: Mapping[str, float] = field(default_factory=lambda: {
        "ultra-short": 0.5, "short": 0.5, "medium": 0.6, "long": 0.8})
    boost: Mapping[str, float] = field(default_factory=lambda: {
        "emphasis": 0.3, "decision": 0.2, "emotion": 0.2, "failure": 0.2, "correction": 0.3,
        "explicit": 0.4})
    outcome: Mapping[str, float] = field(default_factory=lambda: {
        "success": 0.1, "failure": 0.2, "decision": 0.2, "observation": 0.0,
        "correction": 0.3})
    exclamation_min: int = 2
    outcome_fires_failure: bool = False
    repeat_per: float = 0.1
    repeat_free: int = 2
    repeat_cap: float = 0.3
    # tier → (per-day decay, days of grace); ultra-short follows short
    stale: Mapping[str, tuple[float, float]] = field(default_factory=lambda: {
        "ultra-short": (0.1, 7.0), "short": (0.1, 7.0), "medium": (0.05, 30.0),
        "long": (0.0, 0.0)})
    whole_days: bool = True
    dismissal: float = 0.15
    dismiss_cap_count: int = 3
    dismiss_cap: float = 0.3
    superseded: float = 0.5
    # category → its phrases (the document's lists); "not X, but Y" fires correction
    phrases: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: dict(PHRASES))
    not_but: bool = True


def repetition_boost(mentions: int, per: float = 0.1, free: int = 2, cap: float = 0.3) -> float:
    """min(cap, per · max(0, mentions − free)): 3+ mentions boost, +0.1 each, at most +0.3."""
    return min(cap, per * max(0, mentions - free))


def staleness_decay(days_inactive: float, per_day: float, grace: float,
                    whole_days: bool = True) -> float:
    """per_day · max(0, days − grace), days counted whole (floored) unless `whole_days` is off."""
    days = math.floor(days_inactive) if whole_days else days_inactive
    return per_day * max(0.0, days - grace)


@dataclass(frozen=True)
class Memory:
    """What the rules read of one memory (see the package docstring for the JSONL fields)."""

    text: str
    tier: str = "short"
    outcome: str = ""
    mentions: int = 1
    days_inactive: float = 0.0
    dismissals: int = 0
    superseded: bool = False
    contradicts: bool = False


@dataclass(frozen=True)
class Breakdown:
    """One memory's importance, part by part; `final` = clamp(sum of the parts) then the cap."""

    base: float
    boosts: dict[str, float]
    fired: dict[str, list[str]]
    outcome: float
    repetition: float
    staleness: float
    dismissal: float
    superseded: float
    raw: float
    final: float

    @property
    def clamp(self) -> float:
        return self.final - self.raw


def categories_fired(memory: Memory, rules: Rules) -> dict[str, list[str]]:
    """Category → what fired it (phrases, "!! ×n", the outcome, the contradiction)."""
    fired = fired_phrases(memory.text, rules.phrases, rules.not_but)
    n = exclamations(memory.text)
    if rules.exclamation_min > 0 and n >= rules.exclamation_min:
        fired["emotion"].append(f"{n} exclamation marks")
    if rules.outcome_fires_failure and memory.outcome == "failure":
        fired["failure"].append("outcome: failure")
    if memory.contradicts:
        fired["correction"].append("contradicts a previous memory")
    return fired


def importance(memory: Memory, rules: Rules,
               fired: dict[str, list[str]] | None = None) -> Breakdown:
    """final = min(cap, clamp₀¹(base + Σ boosts + outcome + repetition − Σ decays)).
    `fired`: `categories_fired(memory, rules)` where already found (it reads only the text,
    the outcome and the contradiction, never the clock)."""
    if fired is None:
        fired = categories_fired(memory, rules)
    boosts = {c: (rules.boost[c] if fired[c] else 0.0) for c in CATEGORIES}
    base = rules.base[memory.tier]
    outcome = rules.outcome.get(memory.outcome, 0.0)
    rep = repetition_boost(memory.mentions, rules.repeat_per, rules.repeat_free,
                           rules.repeat_cap)
    per_day, grace = rules.stale[memory.tier]
    stale = staleness_decay(memory.days_inactive, per_day, grace, rules.whole_days)
    dismissed = rules.dismissal * memory.dismissals
    superseded = rules.superseded if memory.superseded else 0.0
    raw = base + sum(boosts.values()) + outcome + rep - stale - dismissed - superseded
    final = min(1.0, max(0.0, raw))
    if memory.dismissals >= rules.dismiss_cap_count:
        final = min(final, rules.dismiss_cap)
    final = round(final, DIGITS)
    return Breakdown(base, boosts, fired, outcome, rep, stale, dismissed, superseded, raw, final)


BANDS: tuple[tuple[float, str, str], ...] = (
    (0.8, "resurface", "eligible for resurfacing, promote to long-term"),
    (0.6, "standard", "standard retention, medium-term"),
    (0.4, "short-term", "short-term only, faster decay"),
    (0.2, "decay-candidate", "decay candidate, low priority retrieval"),
    (-math.inf, "archive", "archive or delete"),
)


def band(score: float, thresholds: tuple[float, float, float, float] = (0.8, 0.6, 0.4, 0.2)
         ) -> tuple[str, str]:
    """The document's threshold band: (> 0.8), [0.6, 0.8], [0.4, 0.6), [0.2, 0.4), (< 0.2).
    Only the top band is strict (the table says "> 0.8"); 0.8 itself is standard retention."""
    hi, mid, low, floor = thresholds
    if score > hi:
        return BANDS[0][1:]
    for (_, name, what), t in zip(BANDS[1:4], (mid, low, floor), strict=True):
        if score >= t:
            return name, what
    return BANDS[4][1:]
