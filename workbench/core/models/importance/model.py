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
- staleness counts from `last_accessed`, else `created_at`; a memory with neither readable
  (missing or unreadable alike) is `undated_days` (0) days inactive: as if accessed at the
  query's clock, never stale, through the pre-filter's accessed test (named in a warning, and
  in explain's `days_inactive_from`).
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

from typing import Any, ClassVar

from workbench.core.data import Dataset
from workbench.core.engine import NO_PROGRESS, Model, Progress, Scores, Selection
from workbench.core.models.importance.combine import combine_importance
from workbench.core.models.importance.data_notes import data_warnings
from workbench.core.models.importance.explain import explain_pair
from workbench.core.models.importance.inert import inert
from workbench.core.models.importance.params import GATE_LABELS, GATES, GROUPS, SCHEMA, SIGNALS
from workbench.core.models.importance.prepared import ImportancePrepared, prepare_importance
from workbench.core.params import Params


class ImportanceModel(Model):
    id = "importance"
    label = "Memory importance (Memory Specialist)"
    description = ("The memory-importance document: tier base, phrase boosts, outcome and "
                   "repetition boosts, staleness/dismissal/superseded decays, clamp; retrieval "
                   "by relevance × importance with the pre-filter and a top-5 budget.")
    version = "5"  # 4: counts given as numeric strings are read; 5: `undated` prepared
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
        return data_warnings(dataset, params)

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

