"""The Memory Specialist's importance scoring (`importance`): memory-importance.md implemented,
its open points settled by REFERENCE.md §4, each decision a parameter. See `model`.

Memories are JSONL documents (BEIR `corpus.jsonl`: `_id`, `title`, `text`, `metadata`). The
boosts read `text`; the relevance reads title and text. Metadata fields (all optional):

- `tier`: "ultra-short" | "short" | "medium" | "long" (else the `default_tier` parameter)
- `outcome`: "success" | "failure" | "decision" | "observation" | "correction"
- `created_at`, `last_accessed`: ISO 8601; staleness counts from `last_accessed`, else
  `created_at`, to the query's pinned `now`
- `mentions`: times the concept came up across sessions (else 1)
- `access_count`: informational (read for a missing `mentions` only with the parameter
  `mentions_from_access`)
- `dismissals`: times the user dismissed it when resurfaced
  (the three counts: a number in a string, a fraction or a negative reads as its whole part,
  at least 0; true or a word as absent; each named by `data_warnings`)
- `superseded_by`: id of the memory that replaced it (or `superseded`: true)
- `contradicts`: id of an earlier memory it contradicts (fires the correction category)
  (by default either link is set by any value read as true, an id or a list of ids, even one
  not in the corpus or naming none; the `link_rule` parameter can ask for an id, or one of the
  corpus; 0, false, "", [] and {} leave it unset: `prepared.link_set`. Each value that is not
  an id of the corpus is named by `data_warnings`, as the file writes it)

Queries (`queries.jsonl`) may carry `metadata.now` (ISO 8601): the pinned clock. Else the `now`
parameter, else the newest timestamp in the corpus (an unreadable `now` is named, and falls
back the same way; explain names each query's clock and where it came from). Nothing reads
the wall clock.
"""

from workbench.core.models.importance.combine import Importance, importance_table
from workbench.core.models.importance.model import ImportanceModel
from workbench.core.models.importance.params import GATES, RELEVANCES, SCHEMA, SIGNALS, rules_from
from workbench.core.models.importance.prepared import ImportancePrepared
from workbench.core.models.importance.rules import (
    CATEGORIES,
    OUTCOMES,
    PHRASES,
    TIERS,
    Breakdown,
    Memory,
    Rules,
    band,
    categories_fired,
    fired_phrases,
    importance,
    repetition_boost,
    staleness_decay,
)

__all__ = [
    "CATEGORIES", "GATES", "OUTCOMES", "PHRASES", "RELEVANCES", "SCHEMA", "SIGNALS", "TIERS",
    "Breakdown", "Importance", "ImportanceModel", "ImportancePrepared", "Memory", "Rules",
    "band", "categories_fired", "fired_phrases", "importance", "importance_table",
    "repetition_boost", "rules_from", "staleness_decay",
]
