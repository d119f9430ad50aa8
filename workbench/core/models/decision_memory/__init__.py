"""pi-lodestone's decision-memory scoring (`decision-memory`): the original's functions, ported
one by one, and the vectorised model built on them. See `model` for the layout."""

from workbench.core.models.decision_memory.constants import DEFAULTS, Constants
from workbench.core.models.decision_memory.model import DecisionMemoryModel
from workbench.core.models.decision_memory.params import GATES, SCHEMA, SIGNALS
from workbench.core.models.decision_memory.prepared import DecisionMemoryPrepared
from workbench.core.models.decision_memory.project import (
    parse_time,
    project_name,
    project_root,
    same_project_scope,
)
from workbench.core.models.decision_memory.queries import record_of
from workbench.core.models.decision_memory.scoring import (
    build_token_weights,
    rank_decisions,
    score_decision,
)
from workbench.core.models.decision_memory.text import (
    compact_query,
    infer_tags,
    injection_query,
    sanitize_prompt,
    tokenize,
)

__all__ = [
    "DEFAULTS",
    "GATES",
    "SCHEMA",
    "SIGNALS",
    "Constants",
    "DecisionMemoryModel",
    "DecisionMemoryPrepared",
    "build_token_weights",
    "compact_query",
    "infer_tags",
    "injection_query",
    "parse_time",
    "project_name",
    "project_root",
    "rank_decisions",
    "record_of",
    "same_project_scope",
    "sanitize_prompt",
    "score_decision",
    "tokenize",
]
