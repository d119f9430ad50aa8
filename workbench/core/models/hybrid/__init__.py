"""OpenVault's hybrid BM25 + vector memory scoring (`hybrid`): the original's functions, ported
one by one, and the vectorised model built on them. See `model` for the layout."""

from workbench.core.models.hybrid.bm25 import adjust_query_tokens, bm25_score, calculate_idf
from workbench.core.models.hybrid.model import HybridModel
from workbench.core.models.hybrid.params import NORMALIZATIONS, SCHEMA, SIGNALS
from workbench.core.models.hybrid.prepared import HybridPrepared
from workbench.core.models.hybrid.query import (
    Entities,
    QueryConfig,
    build_bm25_tokens,
    build_embedding_query,
    entity_repeats,
    extract_from_text,
    extract_query_context,
    parse_recent_messages,
)
from workbench.core.models.hybrid.scoring import (
    Breakdown,
    Scored,
    calculate_score,
    cosine_similarity,
    migrate_settings,
    score_memories,
)
from workbench.core.models.hybrid.tokenizer import Tokenizer, stem_word, tokenize

__all__ = [
    "NORMALIZATIONS",
    "SCHEMA",
    "SIGNALS",
    "Breakdown",
    "Entities",
    "HybridModel",
    "HybridPrepared",
    "QueryConfig",
    "Scored",
    "Tokenizer",
    "adjust_query_tokens",
    "bm25_score",
    "build_bm25_tokens",
    "build_embedding_query",
    "calculate_idf",
    "calculate_score",
    "cosine_similarity",
    "entity_repeats",
    "extract_from_text",
    "extract_query_context",
    "migrate_settings",
    "parse_recent_messages",
    "score_memories",
    "stem_word",
    "tokenize",
]
