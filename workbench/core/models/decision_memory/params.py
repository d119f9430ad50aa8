"""The decision-memory model's parameters, signals and gates, declared once as data.

Every constant of pi-lodestone (418f9a1) is a parameter named as its `Constants` field, with the
original's value as default (REFERENCE.md §1). Ranges: a setting the original reads
(PI_MEMORY_* variables, settings.json) spans every value that behaves differently there, its
help saying how the rest behave; a constant the original hard-codes gets a range around its
value wide enough to switch it off (0) or weigh it several times over. Prepare-stage
parameters change the query tokens (prompt compaction) or the clock; everything else is applied
live.
"""

from __future__ import annotations

import re

from workbench.core.engine import Signal
from workbench.core.models.decision_memory.constants import DEFAULTS as D
from workbench.core.models.decision_memory.constants import Constants
from workbench.core.models.decision_memory.project import check_time
from workbench.core.models.decision_memory.text import word_list
from workbench.core.params import Param, ParamSchema


def _check_disabled(text: str) -> str:
    """What is wrong with `text` as the disabled_projects parameter ("" when nothing is)."""
    from workbench.core.formats.pi_memory_settings import parse_disabled_list

    try:
        parse_disabled_list(text)
    except ValueError:
        return "expected nothing or a JSON list of cwd strings, such as [\"/repos/app\"]"
    return ""


def _one_line(text: str) -> str:
    """Line breaks and tabs as the commas they stand for in a list pasted from a file (such a
    list had been refused: "one line of words, separated by commas")."""
    return re.sub(r"[\r\n\t]", ",", text)


def _canon_words(text: str) -> str:
    """A word list as one form: entries trimmed, lower case, repeats dropped, ", "-joined."""
    return ", ".join(word_list(_one_line(text)))


def _canon_tags(text: str) -> str:
    """`_canon_words` keeping case: tags are compared as written."""
    return ", ".join(word_list(_one_line(text), lower=False))


MODES = ("query", "injection", "search")
QUERY_FORMS = ("context", "prompt", "as-is")
WEIGHT_SOURCES = ("corpus", "none")

SIGNALS = (
    Signal("lexical", "Lexical", "Σ over query tokens of location base × token weight (after "
           "the long-prompt damping in injection)."),
    Signal("locality", "Locality", "Same cwd, else same project scope, else same project "
           "name."),
    Signal("important", "Important", "The important (pinned) flag."),
    Signal("manual", "Manual source", "source = manual."),
    Signal("kb", "KB note", "The decision has a kbPath."),
    Signal("usage", "Usage", "Manual search only: min(retrievalCount, cap) + "
           "min(injectionCount, cap)."),
    Signal("superseded", "Superseded", "Manual search only: −penalty when supersededBy is set."),
    Signal("age", "Age", "Fresh (< 1 day), recent (< 14 days) or old (> 180 days)."),
    Signal("rounding", "Rounding", "max(0, Math.round(total)) − total: the final score is an "
           "integer."),
)

# first that applies is recorded; scoreDecision's gates in code order, between the candidate
# filters (archived, project-only) and the selection (min score, limit)
GATES = (
    "archived", "not_in_project", "superseded", "no_query_tokens", "lexical_zero",
    "single_token_evidence", "no_meaningful_evidence", "long_prompt_evidence", "source_turn",
    "operational_title", "no_durable_tag", "below_min_score", "over_limit",
    # the hook's own check before any search; listed last (profile codes are positional) but
    # it overrides every other gate of the query's pairs
    "project_disabled",
)
# each gate's label where its column is narrow (`Model.gate_labels`): its code's first words
# had read "not in…", "long…" or "…" (rv2 dr2 4); long_prompt_evidence's says what it zeroes,
# too few meaningful matches for a long query ("long query" read as a property of the query,
# whatever its matches: rv2 dr5 5; "long, weak" was the widest label, elided to "long,…" in a
# column under 70 px: r51 dr3 10)
GATE_LABELS = {
    "archived": "archived", "not_in_project": "off-project", "superseded": "replaced",
    "no_query_tokens": "no tokens", "lexical_zero": "no match",
    "single_token_evidence": "one word", "no_meaningful_evidence": "generic",
    "long_prompt_evidence": "few hits", "source_turn": "from turn",
    "operational_title": "ops title", "no_durable_tag": "no tag",
    "below_min_score": "low score", "over_limit": "over limit",
    "project_disabled": "disabled",
}

def gate_reason(gate: str, c: Constants = D) -> str:
    """`GATE_REASONS[gate]`, naming the word lists in use where the gate reads one (a user's
    own operational words or durable tags, not the original's)."""
    def listed(words: tuple[str, ...], most: int = 6) -> str:
        shown = ", ".join(words[:most]) + (" …" if len(words) > most else "")
        return shown or "none: the list is empty"

    if gate == "operational_title":
        return ("injection skips non-manual decisions whose title starts with an operational "
                f"word ({listed(c.operational_words)})")
    if gate == "no_durable_tag":
        return ("injection skips non-manual decisions without a durable tag "
                f"({listed(c.durable_tags)})")
    return GATE_REASONS[gate]


# why the settings of a mode no query is in change nothing (`inert_params`): one reason for
# all of them, which why-stats says once (dr5 9)
NO_INJECTION = "no query injects: every one is a manual search"
NO_SEARCH = "no query is a manual search: every one injects"
# the same where Mode forces it: the setting's doing, not the data's (dr7 6: "every one is a
# manual search" had been said of data that holds 28 injections)
FORCED_SEARCH = "Mode = search makes every query a search"
FORCED_INJECTION = "Mode = injection makes every query inject"
# the settings only manual search reads, and those only injection reads
SEARCH_ONLY = ("search_min_score", "search_limit", "important_search", "manual_search",
               "retrieval_cap", "injection_cap", "superseded_penalty", "search_snippet_chars")
INJECTION_ONLY = ("inject_min_score", "inject_limit", "important_injection", "manual_injection",
                  "min_strong", "min_meaningful", "long_query_tokens", "long_query_meaningful",
                  "damping_tokens", "global_inject", "gate_superseded", "gate_source_turn",
                  "gate_operational_title", "gate_no_durable_tag", "generic_terms",
                  "operational_words", "durable_tags", "injection_stop_words",
                  "inject_snippet_chars")

# the parameters that decide each gate (compare and report name only those for its moves)
GATE_PARAMS: dict[str, tuple[str, ...]] = {
    "superseded": ("gate_superseded",),
    "not_in_project": ("global_inject",),
    "single_token_evidence": ("min_strong",),
    "no_meaningful_evidence": ("min_meaningful", "generic_terms"),
    "long_prompt_evidence": ("long_query_tokens", "long_query_meaningful", "generic_terms"),
    "source_turn": ("gate_source_turn",),
    "operational_title": ("gate_operational_title", "operational_words"),
    "no_durable_tag": ("gate_no_durable_tag", "durable_tags"),
    "project_disabled": ("disabled_projects",),
}

GATE_REASONS = {
    "project_disabled": "injection is off for this cwd (settings.json disabledProjects): the "
                        "hook builds no query, injects nothing and logs nothing",
    "archived": "archived decisions score 0 (search and injection alike)",
    "not_in_project": "project-only: the decision's cwd is not in the query cwd's project scope",
    "superseded": "injection skips decisions with supersededBy set",
    "no_query_tokens": "the query has no tokens",
    "lexical_zero": "no query token matches the decision (lexical score 0)",
    "single_token_evidence": "injection needs at least min_strong strong (exact) matches",
    "no_meaningful_evidence": "injection needs min_meaningful strong matches on non-generic "
                              "terms",
    "long_prompt_evidence": "a query of long_query_tokens+ tokens needs long_query_meaningful "
                            "meaningful matches",
    "source_turn": "injection skips source=turn (session artifacts)",
    "operational_title": "injection skips non-manual decisions whose title starts with an "
                         "operational word (read, ran, executed …)",
    "no_durable_tag": "injection skips non-manual decisions without a decision, preference "
                      "or workflow tag",
    "below_min_score": "the score is under the min score of the query's mode",
    "over_limit": "ranked after the limit of the query's mode",
}


def _num(name: str, label: str, default: float, high: float, help: str, *, low: float = 0.0,
         step: float = 1.0, kind: str = "float", tunable: bool = True) -> Param:
    return Param(name, label, int(default) if kind == "int" else float(default),
                 kind="int" if kind == "int" else "float", low=low, high=high, step=step,
                 help=help, tunable=tunable)


SCHEMA = ParamSchema([
    Param("mode", "Mode", "query", kind="choice", choices=MODES, tunable=False,
          help="query: each query's own context decides (for_injection / mode, project_only, "
               "min_score, limit; queries without one are injection, as the eval harness); "
               "injection or search: that mode and these parameters for every query."),
    Param("global_inject", "Global injection", False, kind="bool",
          help="PI_MEMORY_GLOBAL_AUTO_INJECT: injection searches every project, not only the "
               "cwd's (a query's own project_only wins in mode query)."),
    Param("disabled_projects", "Disabled projects", "", kind="text",
          help="settings.json disabledProjects: cwds where injection builds no query, injects "
               "nothing and logs nothing (the turn's cwd compared as a plain string, as the "
               "original does; search is unaffected). Empty: the memory folder's "
               "settings.json (none without one); a JSON list such as [\"/repos/app\"] "
               "replaces it; [] disables none.", check=_check_disabled),
    Param("token_weights", "Token weights", "corpus", kind="choice", choices=WEIGHT_SOURCES,
          help="corpus: IDF-style weights over the query's candidates (the search does this); "
               "none: every token weighs the absent weight (scoreDecision without weights)."),
    _num("w_title", "Title match", D.w_title, 50, "Base score of a query token in the title."),
    _num("w_tags", "Tag match", D.w_tags, 50, "Base score of a query token in the tags."),
    _num("w_body", "Body match", D.w_body, 50, "Base score of a query token in the text."),
    _num("w_partial", "Partial match", D.w_partial, 50,
         "Base score of a substring match either way (neither strong nor meaningful)."),
    _num("idf_base", "Token weight base", D.idf_base, 10, "weight = base + min(cap, "
         "ln((N + 1)/(df + 1))).", step=0.05),
    _num("idf_cap", "Token weight cap", D.idf_cap, 10, "Cap of the IDF part.", step=0.05),
    _num("absent_weight", "Absent token weight", D.absent_weight, 10,
         "Weight of a token no candidate holds (`?? 1`).", step=0.05),
    _num("min_strong", "Injection: strong matches", D.min_strong, 20,
         "Fewer strong matches → not injected.", kind="int"),
    _num("min_meaningful", "Injection: meaningful matches", D.min_meaningful, 20,
         "Fewer strong non-generic matches → not injected.", kind="int"),
    _num("long_query_tokens", "Injection: long query tokens", D.long_query_tokens, 100,
         "Queries with at least this many tokens need more meaningful matches.", kind="int"),
    _num("long_query_meaningful", "Injection: long query meaningful", D.long_query_meaningful,
         20, "Meaningful matches a long query needs.", kind="int"),
    _num("damping_tokens", "Injection: damping tokens", D.damping_tokens, 100,
         "Above this many query tokens: lexical = max(1, round(lexical·√(n/q))).", kind="int",
         low=1.0),
    _num("bonus_cwd", "Same cwd", D.bonus_cwd, 50, "Locality: the decision's cwd is the cwd."),
    _num("bonus_scope", "Same project scope", D.bonus_scope, 50,
         "Locality: same project root or name."),
    _num("bonus_project_name", "Same project name", D.bonus_project_name, 50,
         "Locality: stored project equals the cwd's project name."),
    _num("important_injection", "Important (injection)", D.important_injection, 50,
         "Bonus of an important decision when injecting."),
    _num("important_search", "Important (search)", D.important_search, 50,
         "Bonus of an important decision in manual search."),
    _num("manual_injection", "Manual (injection)", D.manual_injection, 50,
         "Bonus of source = manual when injecting."),
    _num("manual_search", "Manual (search)", D.manual_search, 50,
         "Bonus of source = manual in manual search."),
    _num("kb_bonus", "KB note", D.kb_bonus, 50, "Bonus of a decision with a kbPath."),
    _num("retrieval_cap", "Retrieval count cap", D.retrieval_cap, 100,
         "Manual search: + min(retrievalCount, cap)."),
    _num("injection_cap", "Injection count cap", D.injection_cap, 100,
         "Manual search: + min(injectionCount, cap)."),
    _num("superseded_penalty", "Superseded penalty", D.superseded_penalty, 50,
         "Manual search: − this when supersededBy is set."),
    _num("fresh_days", "Fresh: under days", D.fresh_days, 3650, "Age band 1: a decision "
         "younger than this many days (fractional, from its createdAt to the query's now) "
         "gets the fresh bonus. The bands are tried in order and the first that holds counts: "
         "age < fresh days → + fresh bonus, else age < recent days → + recent bonus, else "
         "age > old days → − old penalty.", step=0.5),
    _num("fresh_bonus", "Fresh bonus", D.fresh_bonus, 50, "Added to a decision younger than "
         "the fresh days."),
    _num("recent_days", "Recent: under days", D.recent_days, 3650, "Age band 2: not fresh and "
         "younger than this many days → + recent bonus (a value at or below the fresh days "
         "leaves the band empty).", step=0.5),
    _num("recent_bonus", "Recent bonus", D.recent_bonus, 50, "Added to a decision in the "
         "recent band."),
    _num("old_days", "Old: over days", D.old_days, 36500, "A decision older than this many "
         "days (and in neither band above) loses the old penalty; between the recent days and "
         "this, age adds nothing.", step=1.0),
    _num("old_penalty", "Old penalty", D.old_penalty, 50, "Subtracted from a decision older "
         "than the old days."),
    _num("inject_min_score", "Inject min score", D.inject_min_score, 1000,
         "PI_MEMORY_INJECT_MIN_SCORE (default 8). Range: scores are whole numbers ≥ 0, so "
         "the original's negative values act as 0 (every candidate, score 0 included) and a "
         "value above the best reachable score injects nothing."),
    _num("inject_limit", "Inject limit", D.inject_limit, 100, "PI_MEMORY_INJECT_LIMIT "
         "(default 3; 0 injects nothing).", kind="int"),
    _num("search_min_score", "Search min score", D.search_min_score, 1000,
         "Manual search's min score (default 1; 0 keeps every non-archived candidate, score "
         "0 included; negative values act as 0)."),
    _num("search_limit", "Search limit", D.search_limit, 1000, "Manual search's default limit.",
         kind="int"),
    Param("gate_superseded", "Injection skips superseded", D.gate_superseded, kind="bool",
          help="Injection gives 0 to a decision with supersededBy set (manual search "
               "subtracts the superseded penalty instead). Off: it scores as any other."),
    Param("gate_source_turn", "Injection skips source=turn", D.gate_source_turn, kind="bool",
          help="Injection gives 0 to decisions recorded from a turn (session artifacts)."),
    Param("gate_operational_title", "Injection skips operational titles",
          D.gate_operational_title, kind="bool",
          help="Injection gives 0 to a non-manual decision whose title starts with an "
               "operational word (read, ran, executed …)."),
    Param("gate_no_durable_tag", "Injection needs a durable tag", D.gate_no_durable_tag,
          kind="bool", help="Injection gives 0 to a non-manual decision without a decision, "
                            "preference or workflow tag."),
    Param("generic_terms", "Generic terms", ", ".join(D.generic_terms), kind="text",
          stage="prepare", canon=_canon_words,
          help="Query tokens that count as strong but not meaningful evidence (the injection "
               "gates' min_meaningful), comma-separated or one per line; the original's list "
               "by default. Compared with the lower-case tokens."),
    Param("operational_words", "Operational title words", ", ".join(D.operational_words),
          kind="text", stage="prepare", canon=_canon_words,
          help="A title starting with one of these words (any case, then a word boundary) is "
               "operational: injection skips the decision unless it is manual. "
               "Comma-separated or one per line; the original's list by default."),
    Param("durable_tags", "Durable tags", ", ".join(D.durable_tags), kind="text",
          stage="prepare", canon=_canon_tags,
          help="Tags that make a decision durable: injection skips a non-manual decision "
               "with none of them. Comma-separated or one per line, compared exactly as "
               "written; the original's list by default."),
    Param("injection_stop_words", "Injection query stop words",
          ", ".join(D.injection_stop_words), kind="text", stage="prepare", canon=_canon_words,
          help="Words the injection hook drops from a prompt before it searches "
               "(INJECTION_QUERY_STOP_WORDS), comma-separated or one per line; the original's "
               "44 by default. Read for prompts only (query form prompt, or context with a "
               "prompt)."),
    _num("search_snippet_chars", "Search snippet length", 220, 100_000,
         "PI_MEMORY_SEARCH_SNIPPET_CHARS: UTF-16 units of a search result's snippet (any "
         "count the original's Number() reads; 0 shows only the ellipsis).", kind="int",
         tunable=False),
    _num("inject_snippet_chars", "Injection snippet length", 180, 100_000,
         "PI_MEMORY_INJECT_SNIPPET_CHARS: UTF-16 units of an injected snippet; sets the "
         "memory block's size and the diagnostics' snippet lengths.", kind="int",
         tunable=False),
    # -- prepare: the query tokens and the clock --
    Param("query_form", "Query form", "context", kind="choice", choices=QUERY_FORMS,
          stage="prepare", help="prompt: each query is a user prompt, sanitised and compacted "
          "as the injection hook does; as-is: scored as written (eval fixtures, searches); "
          "context: the query's `prompt` flag decides (absent = as-is)."),
    Param("min_token_length", "Min token length", 3, kind="int", low=1, high=20, step=1,
          stage="prepare", tunable=False,
          help="Shorter words are no tokens, in decisions and queries alike (the original's "
               "tokenize: runs of 3+ characters, 3+ left after trimming . : - at the "
               "edges); a partial match looks for vocabulary tokens at least this long."),
    Param("query_max_tokens", "Compact query tokens", 32, kind="int", low=1, high=1000, step=1,
          stage="prepare", help="PI_MEMORY_INJECT_QUERY_MAX_TOKENS: tokens a compacted prompt "
          "keeps."),
    Param("prompt_min_chars", "Prompt min length", 8, kind="int", low=0, high=1000, step=1,
          stage="prepare", help="Shorter prompts inject nothing."),
    Param("query_min_chars", "Compact query min length", 3, kind="int", low=0, high=1000,
          step=1, stage="prepare", help="Shorter compact queries inject nothing."),
    Param("prompt_max_chars", "Prompt max length", 4000, kind="int", low=1, high=1_000_000,
          step=1, stage="prepare", help="PI_MEMORY_MAX_TEXT_CHARS: prompts are cut to this."),
    Param("now", "Now (ISO 8601)", "", kind="text", stage="prepare", check=check_time,
          help="The clock for queries without their own `now`; empty = the newest createdAt "
               "in the corpus."),
    Param("replay_as_of_turn", "Replay as of turn", True, kind="bool",
          stage="prepare",
          help="A turn read from injections.jsonl searches only the decisions created by its "
               "ts, as the original's store held them then (on: its N, token weights and "
               "candidates; a decision's later archiving or edits are not known). Off: "
               "today's store, every decision, as if the prompt were sent now."),
]).with_slider_tops({
    # where the sliders end (a larger value is typed): the useful span, not the
    # whole range, whose default sat at its left end
    "inject_min_score": 100, "search_min_score": 100, "inject_limit": 20, "search_limit": 50,
    "fresh_days": 30, "recent_days": 90, "old_days": 730, "retrieval_cap": 20, "injection_cap": 20,
    "search_snippet_chars": 2000, "inject_snippet_chars": 2000, "query_max_tokens": 100,
    "prompt_min_chars": 100, "query_min_chars": 100, "prompt_max_chars": 20000
})


# the parameter panel's groups, by meaning (by name prefix, "Bonuses" had held 3 of the 14
# bonuses and "Weights" 11 rows of evidence counts below it): key, title, members
GROUPS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("lexical", "Lexical match", ("w_title", "w_tags", "w_body", "w_partial", "token_weights",
                                  "idf_base", "idf_cap", "absent_weight")),
    ("locality", "Locality", ("bonus_cwd", "bonus_scope", "bonus_project_name")),
    ("flags", "Flags and usage", ("important_injection", "important_search",
                                  "manual_injection", "manual_search", "kb_bonus",
                                  "retrieval_cap", "injection_cap", "superseded_penalty")),
    ("age", "Age", ("fresh_days", "fresh_bonus", "recent_days", "recent_bonus", "old_days",
                    "old_penalty")),
    ("evidence", "Injection", ("min_strong", "min_meaningful", "long_query_tokens",
                               "long_query_meaningful", "damping_tokens")),
    ("gates", "Injection gates", ("gate_superseded", "gate_source_turn",
                                  "gate_operational_title", "gate_no_durable_tag")),
    ("search", "Manual search", ("search_min_score", "search_limit")),
    ("mode", "Mode and scope", ("mode", "global_inject", "disabled_projects")),
    ("snippets", "Snippets", ("search_snippet_chars", "inject_snippet_chars")),
)
