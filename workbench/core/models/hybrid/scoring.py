"""OpenVault's score of one memory and of a batch (calculateScore and scoreMemories of
src/retrieval/math.js at c112699, REFERENCE.md §3), ported with the original's JavaScript
defaults: `importance || 3`, `message_ids || [0]` (`[]` is kept), `threshold || 0.5`,
`alpha ?? 0.7`, `combinedBoostWeight ?? 15`.

    distance = max(0, chatLength − max(message_ids))        ([] → −∞ → distance ∞)
    base     = importance · e^(−λ·distance),  λ = BASE_LAMBDA / importance²
    floor    = importance 5 only: max(base, IMPORTANCE_5_FLOOR)
    vector   = α·W·(sim − t)/(1 − t)  when both embeddings exist and sim > t (strictly)
    bm25     = (1 − α)·W·raw/max(all raw in the batch, 1e-9)
    total    = floor + vector + bm25, sorted descending, stable (ties keep memory order)
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any

from workbench.core.models.hybrid.bm25 import (
    K1,
    B,
    adjust_query_tokens,
    bm25_score,
    calculate_idf,
)
from workbench.core.models.hybrid.tokenizer import tokenize

BASE_LAMBDA = 0.05
IMPORTANCE_5_FLOOR = 5.0
DEFAULT_IMPORTANCE = 3.0
ALPHA = 0.7
COMBINED_BOOST_WEIGHT = 15.0
VECTOR_THRESHOLD = 0.5
BM25_MAX_FLOOR = 1e-9
# legacy settings (before the alpha blend) and their defaults when one of them is missing
LEGACY_VECTOR_WEIGHT = 15.0
LEGACY_KEYWORD_WEIGHT = 3.0


def js_falsy(value: object) -> bool:
    """JavaScript falsiness of a JSON value: null, false, 0, NaN and ''."""
    if value is None or value is False or value == "":
        return True
    return isinstance(value, int | float) and (value == 0 or math.isnan(value))


def importance_of(value: object, default: float = DEFAULT_IMPORTANCE) -> float:
    """`memory.importance || 3` (3: `default`)."""
    return default if js_falsy(value) else float(value)  # type: ignore[arg-type]


def max_message_id(message_ids: object) -> float:
    """`Math.max(...(memory.message_ids || [0]))`: −∞ for `[]`."""
    if message_ids is None:
        return 0.0
    ids = [float(m) for m in message_ids]  # type: ignore[attr-defined]
    return max(ids, default=-math.inf)


def effective_threshold(threshold: object) -> float:
    """`settings.vectorSimilarityThreshold || 0.5`: 0 (or missing) means 0.5."""
    return VECTOR_THRESHOLD if js_falsy(threshold) else float(threshold)  # type: ignore[arg-type]


def cosine_similarity(a: Sequence[float] | None, b: Sequence[float] | None) -> float:
    """0 for a missing or empty vector, vectors of different length, or a zero vector."""
    if not a or not b or len(a) != len(b):
        return 0.0
    dot = na = nb = 0.0
    for x, y in zip(a, b, strict=True):
        dot += x * y
        na += x * x
        nb += y * y
    magnitude = math.sqrt(na) * math.sqrt(nb)
    return 0.0 if magnitude == 0 else dot / magnitude


@dataclass(frozen=True)
class Breakdown:
    """calculateScore's return value (`as_js()` gives the original's key names)."""

    total: float
    base: float
    base_after_floor: float
    recency_penalty: float
    vector_bonus: float
    vector_similarity: float
    bm25_bonus: float
    bm25_score: float
    distance: float
    importance: float

    def as_js(self) -> dict[str, float]:
        return {_camel(f.name): getattr(self, f.name) for f in fields(self)}


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(p.capitalize() for p in rest)


def calculate_score(memory: Mapping[str, Any], context_embedding: Sequence[float] | None,
                    chat_length: float, constants: Mapping[str, Any] | None = None,
                    settings: Mapping[str, Any] | None = None,
                    bm25: float = 0.0) -> Breakdown:
    """One memory's breakdown; `bm25` is already normalised to [0, 1]."""
    constants, settings = constants or {}, settings or {}
    distance = max(0.0, chat_length - max_message_id(memory.get("message_ids")))
    importance = importance_of(memory.get("importance"))
    lam = float(constants.get("BASE_LAMBDA", BASE_LAMBDA)) / (importance * importance)
    base = importance * math.exp(-lam * distance)
    after_floor = base
    if importance == 5:
        after_floor = max(base, float(constants.get("IMPORTANCE_5_FLOOR", IMPORTANCE_5_FLOOR)))
    alpha = settings.get("alpha")
    alpha = ALPHA if alpha is None else float(alpha)
    weight = settings.get("combinedBoostWeight")
    weight = COMBINED_BOOST_WEIGHT if weight is None else float(weight)
    vector_bonus = similarity = 0.0
    embedding = memory.get("embedding")
    if context_embedding is not None and embedding is not None:
        similarity = cosine_similarity(context_embedding, embedding)
        threshold = effective_threshold(settings.get("vectorSimilarityThreshold"))
        if similarity > threshold:
            vector_bonus = alpha * weight * ((similarity - threshold) / (1 - threshold))
    bm25_bonus = (1 - alpha) * weight * bm25
    return Breakdown(
        total=after_floor + vector_bonus + bm25_bonus, base=base, base_after_floor=after_floor,
        recency_penalty=after_floor - base, vector_bonus=vector_bonus,
        vector_similarity=similarity, bm25_bonus=bm25_bonus, bm25_score=bm25,
        distance=distance, importance=importance)


@dataclass(frozen=True)
class Scored:
    index: int
    score: float
    breakdown: Breakdown


def score_memories(memories: Sequence[Mapping[str, Any]],
                   context_embedding: Sequence[float] | None, chat_length: float,
                   constants: Mapping[str, Any] | None = None,
                   settings: Mapping[str, Any] | None = None,
                   query_tokens: str | Sequence[str] | None = None, *, k1: float = K1,
                   b: float = B) -> tuple[list[Scored], dict[str, Any] | None]:
    """scoreMemories: every memory scored (BM25 over the batch, batch-max normalised) and
    sorted by total, stable. Also returns the intermediates (query tokens, memory tokens, idf,
    avgDL, adjusted tokens, raw BM25, batch max), None when no query tokens were passed."""
    inter: dict[str, Any] | None = None
    raw = [0.0] * len(memories)
    if query_tokens is not None and query_tokens != "":  # falsy in JavaScript; [] is not
        tokens = tokenize(query_tokens) if isinstance(query_tokens, str) else list(query_tokens)
        inter = {"query_tokens": tokens}
        if tokens:
            doc_tokens = [tokenize(str(m.get("summary") or "")) for m in memories]
            idf_map, avgdl = calculate_idf(doc_tokens)
            adjusted = adjust_query_tokens(tokens, idf_map, len(memories))
            raw = [bm25_score(adjusted, d, idf_map, avgdl, k1, b) for d in doc_tokens]
            inter.update(memory_tokens=doc_tokens, idf=idf_map, avgDL=avgdl,
                         adjusted_query_tokens=adjusted, raw_bm25=raw)
    top = max([*raw, BM25_MAX_FLOOR])
    if inter is not None and "raw_bm25" in inter:
        inter["max_bm25"] = top
    scored = [Scored(i, (bd := calculate_score(m, context_embedding, chat_length, constants,
                                               settings, raw[i] / top)).total, bd)
              for i, m in enumerate(memories)]
    scored.sort(key=lambda s: -s.score)
    return scored, inter


def migrate_settings(settings: Mapping[str, Any]) -> dict[str, Any]:
    """The settings panel's migration of legacy weights: when `alpha` is unset and either
    `vectorSimilarityWeight` (vw, default 15) or `keywordMatchWeight` (kw, default 3) is set,
    alpha = vw/(vw + kw) and combinedBoostWeight = vw. Other settings pass unchanged."""
    out = dict(settings)
    vw, kw = out.get("vectorSimilarityWeight"), out.get("keywordMatchWeight")
    if out.get("alpha") is None and (vw is not None or kw is not None):
        v = LEGACY_VECTOR_WEIGHT if vw is None else float(vw)
        k = LEGACY_KEYWORD_WEIGHT if kw is None else float(kw)
        out["alpha"] = v / (v + k) if v + k != 0 else math.nan  # 0/0 is NaN in JavaScript
        out["combinedBoostWeight"] = v
    return out
