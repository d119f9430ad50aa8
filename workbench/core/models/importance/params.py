"""The importance model's parameters and signals, declared once as data.

Defaults are the document's numbers (memory-importance.md) and REFERENCE.md §4's decisions.
Prepare-stage: the pinned clock `now` (ages are prepared), the boost categories' phrase lists
(which phrases a memory holds is prepared) and the relevance's text analysis (fields, stop
words, stemmer); everything else is applied live.
"""

from __future__ import annotations

import re
from dataclasses import replace

from workbench.core.engine import Signal
from workbench.core.models.decision_memory.project import check_time
from workbench.core.models.importance.rules import (
    CATEGORIES,
    OUTCOMES,
    PHRASES,
    TIERS,
    Rules,
    phrase_list,
    phrases_text,
)
from workbench.core.params import Param, Params, ParamSchema
from workbench.core.text import STEMMERS, STOP_WORD_LISTS

RELEVANCES = ("bm25-max", "bm25", "coverage")
# which superseded_by / contradicts values mark a memory (`prepared.link_set`): the document
# says only "link to new", so a decision of the workbench's, exposed (REFERENCE §4)
LINK_RULES = ("set", "named", "in-corpus")
GATES = ("superseded", "archived", "pre-filter")
GATE_LABELS = {"superseded": "replaced", "archived": "archived", "pre-filter": "pre-filter"}

_LABELS = {"emphasis": "User emphasis", "decision": "Decision point",
           "emotion": "Emotional marker", "failure": "Failure context",
           "correction": "User correction", "explicit": "Explicit request"}
_BOOSTS = Rules().boost
_OUT = Rules().outcome

SIGNALS = (
    Signal("base", "Base (tier)", "The tier's base importance."),
    *(Signal(c, _LABELS[c], f"+{_BOOSTS[c]:g} by default when any of the category's "
             "phrases fires (once per category).") for c in CATEGORIES),
    Signal("outcome", "Outcome", "The companion schema's boost for the episode outcome."),
    Signal("repetition", "Repeated mention", "min(cap, per · max(0, mentions − free))."),
    Signal("decay", "Decays", "− (staleness + dismissals + superseded)."),
    Signal("clamp", "Clamp", "What clamping to [0, 1] (and the 3-dismissal cap) removed."),
    Signal("relevance", "Relevance factor", "(relevance − 1) · importance: the parts above "
           "sum to the importance, this turns it into relevance × importance."),
)


def _check_phrases(text: str) -> str:
    """What is wrong with `text` as a phrase list ("" when nothing is). Line breaks and tabs
    separate phrases as commas do (`_canon_phrases`): a list pasted one per line had been
    refused."""
    if len(text) > 4000:
        return "at most 4,000 characters"
    return ""


def _canon_phrases(text: str) -> str:
    """A phrase list as one line: line breaks and tabs read as commas, then `phrase_list`."""
    return phrases_text(phrase_list(re.sub(r"[\r\n\t]", ",", text)))


def _shown(p: Param) -> Param:
    """A band or resurfacing rule: it names what explain reports for a memory and ranks
    nothing (only the archive band gates retrieval), so it is left out of tuning unless
    named."""
    return replace(p, tunable=False, help=f"{p.help} Shown in explain only; ranks nothing.")


def _f(name: str, label: str, default: float, help: str, high: float = 1.0,
       step: float = 0.05) -> Param:
    return Param(name, label, default, low=0.0, high=high, step=step, help=help)


SCHEMA = ParamSchema([
    *(_f(f"base_{t.replace('-', '_')}", f"Base: {t}", Rules().base[t],
         f"Base importance of {t} memories.") for t in TIERS),
    Param("default_tier", "Tier when missing", "short", kind="choice", choices=TIERS,
          help="Tier of a memory whose metadata has none (or an unknown one)."),
    *(_f(f"boost_{c}", f"Boost: {_LABELS[c].lower()}", _BOOSTS[c],
         f"Added once when any {_LABELS[c].lower()} phrase fires.") for c in CATEGORIES),
    Param("exclamation_min", "Exclamation marks for emotion", 2, kind="int", low=0, high=10,
          step=1, zero="off", help="'Exclamation marks (multiple)': this many '!' in the text "
                                   "fire the emotional category (0: '!' never fires it)."),
    Param("outcome_fires_failure", "Failure outcome fires failure context", False,
          kind="bool", help="Also fire the failure category for outcome 'failure' (the "
                            "document's 'Task outcome: failure'); off: counted once, as the "
                            "outcome boost."),
    *(_f(f"outcome_{o}", f"Outcome: {o}", _OUT[o], f"Boost of a memory whose outcome is {o} "
         "(companion schema).") for o in OUTCOMES),
    _f("repeat_per", "Repetition: per mention", 0.1, "Boost per mention beyond the free ones."),
    Param("repeat_free", "Repetition: free mentions", 2, kind="int", low=0, high=20, step=1,
          needs=("repeat_per",), help="Mentions that earn nothing (2: 3+ mentions boost)."),
    replace(_f("repeat_cap", "Repetition: cap", 0.3, "Most the repetition boost adds."),
            needs=("repeat_per",)),
    _f("stale_short", "Staleness: short per day", 0.1, "Decay per inactive day of short (and, "
       "unless ultra_short_own_decay, ultra-short) memories after the grace."),
    Param("stale_short_days", "Staleness: short grace (days)", 7.0, low=0.0, high=365.0,
          step=1.0, needs=("stale_short",), help="Inactive days before a short memory decays."),
    _f("stale_medium", "Staleness: medium per day", 0.05, "Decay per inactive day of medium "
       "memories after the grace.", step=0.01),
    Param("stale_medium_days", "Staleness: medium grace (days)", 30.0, low=0.0, high=365.0,
          step=1.0, needs=("stale_medium",), help="Inactive days before a medium memory decays."),
    _f("stale_long", "Staleness: long per day", 0.0, "Decay per inactive day of long memories "
       "after the grace (the document: no automatic decay, 0).", step=0.01),
    Param("stale_long_days", "Staleness: long grace (days)", 0.0, low=0.0, high=3650.0,
          step=1.0, needs=("stale_long",),
          help="Inactive days before a long memory decays (only with a rate above 0)."),
    Param("ultra_short_own_decay", "Staleness: ultra-short apart", False, kind="bool",
          help="Off: ultra-short memories decay like short ones (the document names the tier "
               "but gives it no decay rule). On: by the two settings below."),
    Param("stale_ultra_short", "Staleness: ultra-short per day", 0.1, low=0.0, high=1.0,
          step=0.05, needs=("ultra_short_own_decay",),
          help="Decay per inactive day of ultra-short memories after the grace."),
    Param("stale_ultra_short_days", "Staleness: ultra-short grace (days)", 7.0, low=0.0,
          high=365.0, step=1.0, needs=("ultra_short_own_decay", "stale_ultra_short"),
          help="Inactive days before an ultra-short memory decays."),
    Param("whole_days", "Count whole days", True, kind="bool",
          help="Inactive days are floored before the grace is subtracted."),
    # the document counts staleness from the last access and has no word on a memory with no
    # date at all; 0 keeps what was always done (REFERENCE.md §4: decide, say, make it a
    # parameter; dr3 2)
    Param("undated_days", "Staleness: days inactive with no date", 0.0, low=0.0, high=3650.0,
          step=1.0, help="Days inactive of a memory with no readable last_accessed or "
          "created_at (missing or unreadable alike). 0: as if accessed at the query's clock, "
          "so it never goes stale and passes the pre-filter's 'accessed within' test; more: "
          "staleness and the pre-filter count these days."),
    _f("dismissal", "Dismissal decay", 0.15, "Decay per dismissal of a resurfaced memory."),
    Param("dismiss_cap_count", "Dismissals to cap", 3, kind="int", low=1, high=20, step=1,
          help="This many dismissals reduce importance to the cap below."),
    _f("dismiss_cap", "Dismissal cap", 0.3, "Importance of a memory dismissed that often."),
    _shown(Param("resurface_dismissals", "Dismissals to stop resurfacing", 2, kind="int", low=1,
                 high=20, step=1, help="This many dismissals disable resurfacing.")),
    replace(_f("superseded_decay", "Superseded decay", 0.5, "Decay of a memory marked "
               "superseded."), needs=("!superseded_archive",)),
    Param("superseded_archive", "Archive superseded", False, kind="bool",
          help="Gate superseded memories out of retrieval instead of decaying them."),
    Param("link_rule", "Links that count", "set", kind="choice", choices=LINK_RULES,
          stage="prepare", help="Which superseded_by or contradicts values mark a memory "
          "(superseded; a contradiction): set: any value read as true, an id or not (a blank "
          "text, true, a fraction), even one naming no memory of the corpus; named: a value "
          "naming a memory id (a text or whole number, or a list holding one); in-corpus: one "
          "naming a memory of the corpus. 0, false, \"\", [] and {} never do."),
    _shown(_f("resurface_threshold", "Resurface above", 0.8, "Importance above this: eligible "
              "for resurfacing, promote to long-term.")),
    _shown(_f("standard_threshold", "Standard retention from", 0.6, "Band: standard "
              "retention.")),
    _shown(_f("short_threshold", "Short-term from", 0.4, "Band: short-term only.")),
    _f("archive_threshold", "Archive below", 0.2, "Importance below this: archive or delete."),
    Param("exclude_archived", "Exclude archived", True, kind="bool",
          help="Gate memories in the archive band out of retrieval."),
    Param("prefilter", "Pre-filter", True, kind="bool",
          help="Search only memories with current relevance > a OR last access < d days OR "
               "importance > i (the retrieval budget's pre_filter)."),
    replace(_f("prefilter_current", "Pre-filter: current relevance >", 0.3,
               "current_relevance is the decayed importance."), needs=("prefilter",)),
    Param("prefilter_days", "Pre-filter: accessed within (days)", 30.0, low=0.0, high=3650.0,
          step=1.0, needs=("prefilter",), help="Memories last accessed fewer days ago pass."),
    replace(_f("prefilter_importance", "Pre-filter: importance >", 0.7,
               "importance is the stored importance before decays (clamped)."),
            needs=("prefilter",)),
    Param("limit", "Max results", 5, kind="int", low=0, high=1000, step=1, zero="no limit",
          tunable=False,
          help="The budget's max_results (0 = no limit). Not tuned unless named: more results "
               "only find more, so a search would raise it (name it with a constraint that "
               "holds the size)."),
    Param("relevance", "Relevance", "bm25-max", kind="choice", choices=RELEVANCES,
          help="bm25-max: BM25 divided by the query's best among the memories searched (those "
               "no gate keeps out; in [0, 1]); bm25: raw BM25; "
               "coverage: share of the query's distinct terms the memory holds."),
    Param("k1", "BM25 k1", 1.2, low=0.0, high=3.0, step=0.05, needs=("!relevance=coverage",),
          help="BM25 saturation."),
    Param("b", "BM25 b", 0.75, low=0.0, high=1.0, step=0.05, needs=("!relevance=coverage",),
          help="BM25 length norm."),
    Param("now", "Now (ISO 8601)", "", kind="text", stage="prepare", check=check_time,
          help="The pinned clock when a query's context has no `now`; empty: the newest "
               "created_at/last_accessed of the corpus."),
    Param("fields", "Fields", "title+text", kind="choice", choices=("title+text", "text"),
          stage="prepare", help="What the relevance indexes (boosts read the text only)."),
    Param("stop_words", "Stop words", "lucene", kind="choice", choices=tuple(STOP_WORD_LISTS),
          stage="prepare", help="Stop words removed for the relevance."),
    Param("stemmer", "Stemmer", "snowball-english", kind="choice", choices=STEMMERS,
          stage="prepare", help="Stemming for the relevance."),
    *(Param(f"phrases_{c}", f"Phrases: {_LABELS[c].lower()}", phrases_text(PHRASES[c]),
            kind="text", stage="prepare", check=_check_phrases,
            canon=_canon_phrases,
            help=f"The phrases that fire the {_LABELS[c].lower()} category, comma-separated "
                 "or one per line (the document's list by default). Matched "
                 "case-insensitively as whole words (\"bug\" does not fire on \"debug\"); "
                 "empty: no phrase fires it.")
      for c in CATEGORIES),
    Param("not_but_fires_correction", "'not X, but Y' fires correction", True, kind="bool",
          stage="prepare", help="The document's 'not X, but Y' pattern (not, one to four "
                                "words, an optional comma, but, a word) fires the user "
                                "correction category."),
    Param("mentions_from_access", "Count accesses as mentions", False, kind="bool",
          stage="prepare", tunable=False,
          help="Where a memory has no `mentions`, take its `access_count` for the "
               "repetition boost. Off: the document's rule — mentions of the concept across "
               "sessions; how often the memory was retrieved is not that."),
]).with_slider_tops({
    # where the sliders end (a larger value is typed): the useful span, not the
    # whole range, whose default sat at its left end
    "stale_long_days": 730, "prefilter_days": 365, "limit": 100, "undated_days": 365
})


def rules_from(params: Params) -> Rules:
    """The scalar rules at these parameter values (the reference computation's input)."""
    def f(name: str) -> float:
        return float(params[name])

    short = (f("stale_short"), f("stale_short_days"))
    ultra = ((f("stale_ultra_short"), f("stale_ultra_short_days"))
             if params["ultra_short_own_decay"] else short)
    return Rules(
        base={t: f(f"base_{t.replace('-', '_')}") for t in TIERS},
        boost={c: f(f"boost_{c}") for c in CATEGORIES},
        outcome={o: f(f"outcome_{o}") for o in OUTCOMES},
        exclamation_min=int(params["exclamation_min"]),
        outcome_fires_failure=bool(params["outcome_fires_failure"]),
        repeat_per=f("repeat_per"), repeat_free=int(params["repeat_free"]),
        repeat_cap=f("repeat_cap"),
        stale={"ultra-short": ultra, "short": short,
               "medium": (f("stale_medium"), f("stale_medium_days")),
               "long": (f("stale_long"), f("stale_long_days"))},
        whole_days=bool(params["whole_days"]),
        dismissal=f("dismissal"), dismiss_cap_count=int(params["dismiss_cap_count"]),
        dismiss_cap=f("dismiss_cap"),
        superseded=0.0 if params["superseded_archive"] else f("superseded_decay"),
        phrases={c: phrase_list(str(params[f"phrases_{c}"])) for c in CATEGORIES},
        not_but=bool(params["not_but_fires_correction"]),
    )


# the parameter panel's groups, by topic (the name prefixes left a topic's switch outside it
# and the dismissal, superseded, band and relevance settings under no header): key, title,
# members. `limit` leads the panel as a headline parameter.
GROUPS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("base", "Base", (*(f"base_{t.replace('-', '_')}" for t in TIERS), "default_tier")),
    ("boost", "Boost", (*(f"boost_{c}" for c in CATEGORIES), "exclamation_min")),
    ("phrases", "Phrases", (*(f"phrases_{c}" for c in CATEGORIES),
                            "not_but_fires_correction")),
    ("outcome", "Outcome", ("outcome_fires_failure", *(f"outcome_{o}" for o in OUTCOMES))),
    ("repeat", "Repetition", ("repeat_per", "repeat_free", "repeat_cap")),
    ("stale", "Staleness", ("stale_short", "stale_short_days", "stale_medium",
                            "stale_medium_days", "stale_long", "stale_long_days",
                            "ultra_short_own_decay", "stale_ultra_short",
                            "stale_ultra_short_days", "whole_days", "undated_days")),
    ("dismiss", "Dismissal", ("dismissal", "dismiss_cap_count", "dismiss_cap")),
    ("superseded", "Superseded", ("superseded_archive", "superseded_decay", "link_rule")),
    ("archive", "Archive band", ("exclude_archived", "archive_threshold")),
    ("prefilter", "Pre-filter", ("prefilter", "prefilter_current", "prefilter_days",
                                 "prefilter_importance")),
    ("relevance", "Relevance", ("relevance", "k1", "b")),
    ("bands", "Bands — explain only", ("resurface_threshold", "standard_threshold",
                                       "short_threshold", "resurface_dismissals")),
)

