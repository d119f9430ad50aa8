"""The `importance` model: the Memory Specialist's importance scoring document implemented
(memory-importance.md, REFERENCE.md §4), ranking by relevance × importance.

    importance = clamp₀¹(base[tier] + Σ category boosts + outcome + repetition − decays)
                 (then at most 0.3 after 3 dismissals)
    total      = relevance × importance, top `limit` (5), after the gates

Candidates of a query are the memories sharing a term with it (relevance 0 cannot rank).

Decisions where the document is silent (each a parameter; REFERENCE.md §4 for the first six):
- one boost per category; phrases case-insensitive on word boundaries; "multiple exclamation
  marks" = 2+ '!' (`exclamation_min`); repetition = min(0.3, 0.1·max(0, mentions − 2));
  clamp to [0, 1]; staleness from the last access, whole days (`whole_days`).
- outcome boosts are the companion schema's (`outcome_*`); a failure outcome counts once, as
  the outcome, unless `outcome_fires_failure` also fires the failure category.
- ultra-short memories decay like short ones unless `ultra_short_own_decay` gives them their own
  rate and grace; long ones not at all (`stale_long` = 0).
- dismissals: −0.15 each; 3 (`dismiss_cap_count`) cap importance at 0.3 (a min, never a
  raise); 2 (`resurface_dismissals`) stop resurfacing. Superseded: −0.5, or gated out
  (`superseded_archive`).
- bands: > 0.8 resurface and promote (strict, as the table), ≥ 0.6 standard, ≥ 0.4
  short-term, ≥ 0.2 decay candidate, else archive — gated out of retrieval
  (`exclude_archived`). Importance is rounded to 12 decimals so 0.5 − 3·0.1 is 0.2.
- pre-filter: `current_relevance` is the decayed importance, `importance` the stored one
  (before decays); a memory passes if current > 0.3 OR accessed < 30 days ago OR stored > 0.7.
- relevance (`relevance`): bm25-max (BM25 over title + text ÷ the query's best, in [0, 1]),
  raw bm25, or coverage (share of the query's distinct terms); no embeddings needed.
- budget: top `limit` = 5; the 50 ms timeout is not modelled.
- signals: base, one per category, outcome, repetition, decay (≤ 0), clamp, and relevance
  = (relevance − 1)·importance, so the importance parts show at face value and all sum to
  the total.
Modules: `rules` (phrases and the scalar reference), `params`, `prepared` (prepare),
`combine` (live), `explain`.
"""

from __future__ import annotations

import math
from typing import Any, ClassVar

from workbench.core.data import Dataset
from workbench.core.engine import NO_PROGRESS, Model, Progress, Scores, Selection
from workbench.core.models.clock import future_clock_warning, when
from workbench.core.models.importance.combine import combine_importance
from workbench.core.models.importance.explain import explain_pair
from workbench.core.models.importance.inert import inert
from workbench.core.models.importance.params import GATE_LABELS, GATES, GROUPS, SCHEMA, SIGNALS
from workbench.core.models.importance.prepared import (
    ImportancePrepared,
    count_notes,
    default_clock_source,
    prepare_importance,
)
from workbench.core.params import Params


class ImportanceModel(Model):
    id = "importance"
    label = "Memory importance (Memory Specialist)"
    description = ("The memory-importance document: tier base, phrase boosts, outcome and "
                   "repetition boosts, staleness/dismissal/superseded decays, clamp; retrieval "
                   "by relevance × importance with the pre-filter and a top-5 budget.")
    version = "4"  # 4: counts given as numeric strings are read
    schema = SCHEMA
    signals = SIGNALS
    # signal → the prepare-stage values it is computed from (a mover's settings name them
    # where that signal moved and undoing them cannot be scored live)
    prepare_signals: ClassVar[dict[str, tuple[str, ...]]] = {
        **{c: (f"phrases_{c}",) for c in ("emphasis", "decision", "emotion", "failure",
                                          "explicit")},
        "correction": ("phrases_correction", "not_but_fires_correction"),
        "repetition": ("mentions_from_access",),
        "decay": ("now",),
        "relevance": ("fields", "stop_words", "stemmer")}
    gates = GATES
    gate_labels = GATE_LABELS
    contribution_note = ("score = importance × relevance: relevance's bar is what a weaker "
                         "match takes off, (relevance − 1) × importance, 0 for the best")
    # the document's largest boosts, its staleness decay, and the top-5 budget
    headline = ("boost_emphasis", "boost_correction", "boost_explicit", "stale_short", "limit")
    # the parameter panel's groups, by topic (`params.GROUPS`)
    param_groups = GROUPS

    def data_warnings(self, dataset: Dataset, params: Params) -> list[str]:
        from workbench.core.models.decision_memory.project import parse_time
        from workbench.core.models.importance.rules import (
            OUTCOMES,
            TIERS,
            outcome_index,
            tier_index,
        )

        mentions = (("mentions", "access_count") if params["mentions_from_access"]
                    else ("mentions",))
        out = future_clock_warning(
            dataset, str(params["now"]),
            ((d.id, parse_time(d.metadata.get(k))) for d in dataset.corpus
             for k in ("created_at", "last_accessed")), "created_at or last_accessed")
        # a value read as absent changes a memory's score with nothing said: named
        bad: dict[str, list[str]] = {}
        counts: dict[str, list[str]] = {}  # count field → memories whose value is no count
        for d in dataset.corpus:
            m = d.metadata
            if m.get("tier") not in (None, "") and tier_index(m["tier"]) < 0:
                bad.setdefault(f"tier (one of {', '.join(TIERS)}; read as the default tier "
                               f"{params['default_tier']})", []).append(f"{d.id} {m['tier']!r}")
            if m.get("outcome") not in (None, "") and outcome_index(m["outcome"]) < 0:
                bad.setdefault(f"outcome (one of {', '.join(OUTCOMES)}; read as none)",
                               []).append(f"{d.id} {m['outcome']!r}")
            for k in ("created_at", "last_accessed"):
                if m.get(k) not in (None, "") and math.isnan(parse_time(m[k])):
                    bad.setdefault(f"{k} (an ISO 8601 date; read as none: no decay, counted "
                                   "as recently accessed)", []).append(f"{d.id} {m[k]!r}")
            for names, default in ((mentions, 1), (("dismissals",), 0)):
                for k, read in count_notes(m, names, default):
                    counts.setdefault(k, []).append(f"{d.id} {read}")
        for what, items in bad.items():
            out.append(f"{len(items)} memor{'y' if len(items) == 1 else 'ies'} with an "
                       f"unreadable {what}: {_some(items)}")
        for k, items in counts.items():
            out.append(f"{len(items)} memor{'y' if len(items) == 1 else 'ies'} whose {k} is "
                       "not stored as a plain count, a whole number of at least 0 (a number, or "
                       "one in a string, is read as its whole part, at least 0; anything else is "
                       f"ignored): {_some(items)}")
        # a query whose own clock cannot be read is scored at another one
        clocks = [(q.id, q.context.get("now")) for q in dataset.queries]
        odd = [f"{qid} {now!r}" for qid, now in clocks
               if now not in (None, "") and math.isnan(parse_time(now))]
        if odd:
            fallback, whence = default_clock_source(dataset, params)
            at = f"{when(fallback)}, {whence}" if not math.isnan(fallback) else whence
            out.append(f"{len(odd)} quer{'y' if len(odd) == 1 else 'ies'} with an unreadable "
                       f"now (an ISO 8601 date; read as none: scored at {at}): {_some(odd)}")
        return out

    def inert_params(self, prepared: Any, params: Params) -> dict[str, str]:
        """The explain-only bands, and what the data gives nothing to act on (`inert`):
        default_tier where every memory has a tier, an outcome no memory has, …"""
        prep: ImportancePrepared = prepared
        return inert(prep)

    def prepare(self, dataset: Dataset, params: Params, progress: Progress = NO_PROGRESS) -> Any:
        return prepare_importance(dataset, params, progress)

    def combine(self, prepared: Any, params: Params) -> Scores:
        prep: ImportancePrepared = prepared
        return combine_importance(prep, params, self.signal_names)

    def selection_params(self, params: Params) -> Selection:
        """The retrieval budget: max_results (0 = unlimited); the 50 ms timeout is not
        modelled (the workbench ranks everything)."""
        limit = int(params["limit"])
        return Selection(limit=limit if limit > 0 else None)

    def explain(self, prepared: Any, dataset: Dataset, query: int, doc: int,
                params: Params) -> dict[str, Any]:
        prep: ImportancePrepared = prepared
        return explain_pair(prep, dataset, query, doc, params)


def _some(items: list[str]) -> str:
    """The first five of `items`, and how many more."""
    return ", ".join(items[:5]) + (f", … {len(items) - 5} more" if len(items) > 5 else "")
