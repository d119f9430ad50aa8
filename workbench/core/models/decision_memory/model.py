"""The `decision-memory` model: pi-lodestone's decision scoring (REFERENCE.md §1,
k0udo/pi-lodestone 418f9a1), faithful at its default parameters.

Modules: `text` (tokenizer, stop words, tags, prompt compaction), `project` (project scope,
ISO times), `constants` (every hard-coded number), `scoring` (the original's functions, the
reference), `index`, `facts`, `queries` and `prepared` (prepare), `combine` (live), `explain`,
`params` (schema, signals, gates).

Documents are decision records (see formats.pi_memory): title, text, tags, and the record's
other keys (createdAt, cwd, project, source, important, archived, kbPath, supersededBy,
retrievalCount, injectionCount) in metadata. Queries carry their context (see `queries`).
"""

from __future__ import annotations

import math
from typing import Any, ClassVar

import numpy as np

from workbench.core.checks import with_value
from workbench.core.data import Dataset
from workbench.core.engine import NO_PROGRESS, Model, Progress, Scores, Selection
from workbench.core.models.clock import future_clock_warning, when
from workbench.core.models.decision_memory.combine import Live
from workbench.core.models.decision_memory.explain import explain_pair, explain_query
from workbench.core.models.decision_memory.inject import (
    Injection,
    injection_view,
    shown_scores,
    snippet,
)
from workbench.core.models.decision_memory.params import (
    FORCED_INJECTION,
    FORCED_SEARCH,
    GATE_LABELS,
    GATE_PARAMS,
    GATES,
    GROUPS,
    INJECTION_ONLY,
    NO_INJECTION,
    NO_SEARCH,
    SCHEMA,
    SEARCH_ONLY,
    SIGNALS,
)
from workbench.core.models.decision_memory.prepared import (
    DecisionMemoryPrepared,
    prepare_decisions,
)
from workbench.core.models.decision_memory.project import SAME_CWD, SAME_NAME, SAME_SCOPE
from workbench.core.models.decision_memory.queries import (
    MODE_KEYS,
    NEGATIVE_AS,
    ORIGINAL_NAMES,
    READ_AS,
    context_problems,
    negative_context,
    spelling_warnings,
    unread_keys,
)
from workbench.core.params import Params

# fields every pi-lodestone decision record has (data without any of them is no decision log)
DECISION_FIELDS = ("createdAt", "project", "cwd", "source")


def clock_used(dataset: Dataset, params: Params) -> str:
    """", here DATE, the now parameter" or ", here DATE, decision 'ID'" (the newest
    createdAt): the clock a query without a readable now is scored at; "" where nothing is
    dated (`rank` said it in a note of its own after the warning, dr4 8)."""
    from workbench.core.models.decision_memory.project import parse_time
    from workbench.core.models.decision_memory.queries import default_now, record_of

    ms = default_now(params, [record_of(d) for d in dataset.corpus])
    if math.isnan(ms):
        return ""
    if not math.isnan(parse_time(str(params["now"]))):
        return f", here {when(ms)}, the now parameter"
    newest = next((d.id for d in dataset.corpus
                   if parse_time(d.metadata.get("createdAt")) == ms), "")
    return f", here {when(ms)}, decision {newest!r}"


class DecisionMemoryModel(Model):
    id = "decision-memory"
    label = "Decision memory (pi-lodestone)"
    description = ("pi-lodestone's lexical decision scoring: location-weighted token matches "
                   "with IDF-style weights, injection gates, locality, flag, usage and age "
                   "bonuses; integer scores.")
    # 3: prepared rows carry candidate order and cwd membership; 4: the decisions' texts, which
    # the figures' snippet lengths are cut from
    version = "4"
    schema = SCHEMA
    signals = SIGNALS
    # signal → the prepare-stage values it is computed from (a mover's settings name them
    # where that signal moved and undoing them cannot be scored live)
    prepare_signals: ClassVar[dict[str, tuple[str, ...]]] = {
        "lexical": ("generic_terms", "injection_stop_words", "query_form", "min_token_length",
                    "query_max_tokens", "prompt_max_chars"),
        "age": ("now", "replay_as_of_turn")}
    gates = GATES
    gate_labels = GATE_LABELS
    headline = ("inject_min_score", "inject_limit")
    gate_params = GATE_PARAMS
    param_groups = GROUPS  # the parameter panel's groups, by meaning

    def prepare(self, dataset: Dataset, params: Params, progress: Progress = NO_PROGRESS) -> Any:
        return prepare_decisions(dataset, params, progress)

    def live(self, prepared: Any, params: Params) -> Live:
        prep: DecisionMemoryPrepared = prepared
        return Live(prep, params)

    def combine(self, prepared: Any, params: Params) -> Scores:
        live = self.live(prepared, params)
        return shown_scores(live.scores(self.signal_names), live, params)

    def selection_params(self, params: Params) -> Selection:
        """Min score and limit are gated per query in combine (each query has its mode, and
        in mode "query" its own settings); a single-mode run also states them here."""
        mode = str(params["mode"])
        if mode == "injection":
            return Selection(min_score=float(params["inject_min_score"]),
                             limit=int(params["inject_limit"]))
        if mode == "search":
            return Selection(min_score=float(params["search_min_score"]),
                             limit=int(params["search_limit"]))
        return Selection()

    def inert_params(self, prepared: Any, params: Params) -> dict[str, str]:
        """A locality bonus no candidate is in the class of; in mode "query", the settings
        every query's own context replaces (min_score, limit, project_only); and those of a mode
        no query is in (manual search's bonuses when every query injects, or when mode
        "injection" makes every one inject): no value of theirs changes a score here."""
        prep: DecisionMemoryPrepared = prepared
        out: dict[str, str] = {}
        if len(prep.pair_doc):
            # a locality bonus no candidate gets: the chain gives the first class that holds,
            # so a decision sharing the project name mostly shares the scope too (the review
            # moved Same project name 0 to 50 on the sample's log: no score changed)
            seen = set(np.unique(prep.locality).tolist())
            for name, cls, what in (
                    ("bonus_cwd", SAME_CWD, "shares the query's cwd"),
                    ("bonus_scope", SAME_SCOPE, "shares its project scope without its cwd"),
                    ("bonus_project_name", SAME_NAME,
                     "matches its project name alone (the cwd and scope bonuses come first)")):
                if cls not in seen:
                    out[name] = f"no candidate decision {what}"
        mode = str(params["mode"])
        if mode != "query":  # a forced mode: every query is of it (dr5 11)
            for name in INJECTION_ONLY if mode == "search" else SEARCH_ONLY:
                out.setdefault(name, FORCED_SEARCH if mode == "search" else FORCED_INJECTION)
            return out
        if not len(prep.specs):
            return out
        inj = prep.q_mode != 0
        for name, rows, own, what in (
                ("inject_min_score", inj, ~np.isnan(prep.q_min_score), "min score"),
                ("search_min_score", ~inj, ~np.isnan(prep.q_min_score), "min score"),
                ("inject_limit", inj, prep.q_limit >= 0, "limit"),
                ("search_limit", ~inj, prep.q_limit >= 0, "limit"),
                ("global_inject", inj, prep.q_project_only >= 0, "project-only setting")):
            if rows.any() and own[rows].all():
                out[name] = f"every query's context sets its own {what}"
        if not (~inj).any():
            for name in SEARCH_ONLY:
                out.setdefault(name, NO_SEARCH)
        if not inj.any():
            for name in INJECTION_ONLY:
                out.setdefault(name, NO_INJECTION)
        return out

    def explain(self, prepared: Any, dataset: Dataset, query: int, doc: int,
                params: Params) -> dict[str, Any]:
        prep: DecisionMemoryPrepared = prepared
        out: dict[str, Any] = {"doc": dataset.corpus[doc].id,
                               "query": dataset.queries[query].text}
        live = self.live(prep, params)
        out.update(explain_pair(live, query, doc, prep.pair(query, doc)))
        out["snippet"] = snippet(live, dataset, query, doc, params)
        if live.q_injection[query]:
            out["memory_block"] = injection_view(live, dataset, query, params).block
        return out

    def explain_search(self, prepared: Any, query: int, params: Params) -> dict[str, Any]:
        """The query's own settings (mode, min score, limit, candidates): explain prints them
        where no result carries them (rv2 9: the candidate count, N, could not be checked)."""
        return explain_query(self.live(prepared, params), query)

    def data_warnings(self, dataset: Dataset, params: Params) -> list[str]:
        from workbench.core.models.decision_memory.project import parse_time

        out = future_clock_warning(
            dataset, str(params["now"]),
            ((d.id, parse_time(d.metadata.get("createdAt"))) for d in dataset.corpus),
            "createdAt")
        if len(dataset.corpus) and not any(k in d.metadata for d in dataset.corpus
                                           for k in DECISION_FIELDS):
            # a BEIR collection scored 0 on every query, "gated" with no word of why
            out.append(f"no document of {dataset.name} is a pi-lodestone decision record (none "
                       f"has {', '.join(DECISION_FIELDS)}): decision-memory's gates, made for "
                       "short decisions and logged prompts, pass few or none of them "
                       "(`workbench explain` names each gate); it reads a pi-memory folder's "
                       "decisions.jsonl")
        # a context value that cannot be read changes what the query asks with nothing said
        # ("false" from a CSV column had run as true, a mistyped mode as injection)
        # and so does a negative limit (the query returned nothing, said only as over_limit)
        bad: dict[tuple[str, str], list[str]] = {}
        first: dict[tuple[str, str], str] = {}  # the first such query's place, "FILE:LINE"
        for q in dataset.queries:
            for kind, found in (("unreadable", context_problems(q.context)),
                                ("negative", negative_context(q.context))):
                for key, value in found:  # the key as the query gives it (rv2 7)
                    if ORIGINAL_NAMES.get(key, key) in MODE_KEYS and str(params["mode"]) != "query":
                        continue  # read only in mode "query"
                    bad.setdefault((kind, key), []).append(with_value(dataset, q.id, value))
                    if q.id in dataset.queries.at:
                        first.setdefault((kind, key), dataset.queries.at[q.id])
        for (kind, key), items in bad.items():
            shown = ", ".join(items[:5]) + (f" and {len(items) - 5} more" if len(items) > 5
                                            else "")
            ours = ORIGINAL_NAMES.get(key, key)
            why = READ_AS[ours] if kind == "unreadable" else NEGATIVE_AS[ours]
            if (kind, ours) == ("unreadable", "now"):  # the clock itself (dr4 8)
                why += clock_used(dataset, params)
            where = first.get((kind, key))
            out.append(f"{where + ': ' if where else ''}"
                       f"{len(items)} quer{'y' if len(items) == 1 else 'ies'} with "
                       f"{'an' if kind == 'unreadable' else 'a'} {kind} {key} ({why}): "
                       f"{shown}")
        if str(params["mode"]) == "query":  # a setting under two names (rv2 4)
            out += spelling_warnings(dataset.queries)
        out += unread_keys(dataset.queries)  # a query file's key read by none (rv51 1)
        return out

    def not_a_candidate(self, prepared: Any, dataset: Dataset, query: int, doc: int | None,
                        params: Params) -> str:
        prep: DecisionMemoryPrepared = prepared
        spec = prep.specs[query]
        if spec.note:  # a prompt too short to search: the original searched nothing
            return f"{spec.note}: pi-lodestone searches nothing for it"
        if not prep.tokens[query]:
            return ("the query keeps no token: pi-lodestone's tokenizer keeps runs of 3 or "
                    "more ASCII letters, digits and _ . / : - that are not stop words, so "
                    f"{spec.text[:60]!r} searches nothing (gate no_query_tokens)")
        if doc is None:
            return ""
        created = float(prep.docs.created[doc])
        if spec.as_of and created > spec.now_ms:
            return (f"created {when(created)}, after this logged turn ran "
                    f"({when(spec.now_ms)}): not in the store it searched "
                    "(replay_as_of_turn)")
        return ""

    def injections(self, prepared: Any, dataset: Dataset, params: Params) -> list[Injection]:
        """Per query: what its search returns as the original shows it (snippets, the memory
        block of an injection, whether the turn is logged)."""
        live = self.live(prepared, params)
        return [injection_view(live, dataset, q, params) for q in range(len(dataset.queries))]
