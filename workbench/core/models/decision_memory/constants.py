"""Every constant pi-lodestone's scoring hard-codes, as one record whose defaults are the
original's (k0udo/pi-lodestone 418f9a1, extension/scoring.ts and extension/index.ts).

The model's parameter schema (see `params`) declares one parameter per field with the same
name and default; `Constants.from_params` reads them back, so the pure port (`scoring`) and the
vectorised model score with the same values.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields

from workbench.core.models.decision_memory.text import (
    DURABLE_TAGS,
    GENERIC_WORDS,
    INJECTION_STOP_LIST,
    OPERATIONAL_WORDS,
    word_list,
)
from workbench.core.params import ParamValue


@dataclass(frozen=True)
class Constants:
    # lexical score: base per location, times the token's weight
    w_title: float = 6.0
    w_tags: float = 4.0
    w_body: float = 3.0
    w_partial: float = 1.0
    # token weights: base + min(cap, ln((N + 1) / (df + 1))); tokens absent from the map
    idf_base: float = 0.75
    idf_cap: float = 1.75
    absent_weight: float = 1.0
    # injection evidence
    min_strong: int = 2
    min_meaningful: int = 1
    long_query_tokens: int = 5
    long_query_meaningful: int = 3
    damping_tokens: int = 8
    # locality chain
    bonus_cwd: float = 6.0
    bonus_scope: float = 4.0
    bonus_project_name: float = 2.0
    # flags (injection / manual search)
    important_injection: float = 4.0
    important_search: float = 8.0
    manual_injection: float = 2.0
    manual_search: float = 4.0
    kb_bonus: float = 3.0
    # manual search only
    retrieval_cap: float = 6.0
    injection_cap: float = 4.0
    superseded_penalty: float = 4.0
    # age bands (days) and their bonuses
    fresh_days: float = 1.0
    fresh_bonus: float = 2.0
    recent_days: float = 14.0
    recent_bonus: float = 1.0
    old_days: float = 180.0
    old_penalty: float = 2.0
    # selection (PI_MEMORY_INJECT_MIN_SCORE, PI_MEMORY_INJECT_LIMIT, search defaults)
    inject_min_score: float = 8.0
    inject_limit: int = 3
    search_min_score: float = 1.0
    search_limit: int = 5
    # injection's categorical gates (the original always applies them)
    gate_superseded: bool = True
    gate_source_turn: bool = True
    gate_operational_title: bool = True
    gate_no_durable_tag: bool = True
    # word lists (prepare parameters, comma-separated text): tokens that are no meaningful
    # evidence, title openers of operational decisions, durable tags, and the injection
    # query's stop words
    generic_terms: tuple[str, ...] = GENERIC_WORDS
    operational_words: tuple[str, ...] = OPERATIONAL_WORDS
    durable_tags: tuple[str, ...] = DURABLE_TAGS
    injection_stop_words: tuple[str, ...] = INJECTION_STOP_LIST

    @classmethod
    def from_params(cls, params: Mapping[str, ParamValue]) -> Constants:
        """The constants in `params` (names as the fields; missing ones keep the default)."""
        values: dict[str, float | int | bool | tuple[str, ...]] = {}
        for f in fields(cls):
            if f.name in params:
                v = params[f.name]
                values[f.name] = (bool(v) if f.type == "bool" else int(v) if f.type == "int"
                                  else word_list(str(v), lower=f.name != "durable_tags")
                                  if f.type == "tuple[str, ...]" else float(v))
        return cls(**values)  # type: ignore[arg-type]

    def location_weights(self) -> tuple[float, float, float, float, float]:
        """Base score per location class: title, tags, body, partial, none."""
        return (self.w_title, self.w_tags, self.w_body, self.w_partial, 0.0)

    def locality_bonuses(self) -> tuple[float, float, float, float]:
        """Bonus per locality class: none, same cwd, same scope, same project name."""
        return (0.0, self.bonus_cwd, self.bonus_scope, self.bonus_project_name)


DEFAULTS = Constants()
