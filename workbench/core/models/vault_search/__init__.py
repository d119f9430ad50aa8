"""obsidian-mcp's vault search (`vault-search`): the shipped code and the documented formulas.

Modules: `jsstring` (JavaScript string and case semantics), `original` (the original's
functions, ported one by one), `documented` (the document's formulas), `scan` (the corpus-wide
matching behind prepare), `params` (the schema), `prepared` (the prepare stage), `explain`,
`model` (the Model).
"""

from workbench.core.models.vault_search.documented import (
    EXAMPLE_TABLE,
    DocumentedParams,
    documented_score,
    example_scores,
    query_words,
)
from workbench.core.models.vault_search.model import VaultSearchModel
from workbench.core.models.vault_search.original import (
    ExtractorConfig,
    Match,
    ScoringWeights,
    calculate_score,
    density_bonus,
    extract_context,
    extract_matches,
    extractor_config,
    find_column_position,
    highlight_match,
    position_bonus,
    resolve_weights,
    score_components,
    shipped_score,
    term_frequency,
)
from workbench.core.models.vault_search.prepared import VaultSearchPrepared

__all__ = [
    "EXAMPLE_TABLE",
    "DocumentedParams",
    "ExtractorConfig",
    "Match",
    "ScoringWeights",
    "VaultSearchModel",
    "VaultSearchPrepared",
    "calculate_score",
    "density_bonus",
    "documented_score",
    "example_scores",
    "extract_context",
    "extract_matches",
    "extractor_config",
    "find_column_position",
    "highlight_match",
    "position_bonus",
    "query_words",
    "resolve_weights",
    "score_components",
    "shipped_score",
    "term_frequency",
]
