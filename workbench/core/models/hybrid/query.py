"""OpenVault's query construction (src/retrieval/query-context.js, REFERENCE.md §3): entities
from the recent messages, the BM25 token list and the embedding query.

Entities (`extract_from_text`, in this order within a message):
- capitalised Latin words `\\b[A-Z][a-z]{2,}\\b` — `\\b` is JavaScript's ASCII word boundary, so
  `McDonald` gives nothing and `O'Brien` gives `Brien`;
- capitalised Cyrillic words `[А-ЯЁ][а-яё]{2,}` not touching other `[а-яёА-ЯЁ]` letters;
- both not among the sentence starters (any other capitalised word is taken: They, Time, Она);
- quoted strings "…" and «…» of 3–50 UTF-16 units after removing quote marks and trimming.

`extract_query_context(messages newest first)`: message i (of the first `entity_window`)
weighs 1 − i·recency_decay per occurrence; active characters get +3.0 even when absent; an
entity found in more than half of the scanned messages is dropped; the `top_entities`
heaviest are kept (ties in first-seen order).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from workbench.core.models.hybrid.jstext import js_slice, js_trim, utf16_len
from workbench.core.models.hybrid.lexicon import CYRILLIC_STARTERS, LATIN_STARTERS
from workbench.core.models.hybrid.tokenizer import tokenize

_LATIN_NAME = re.compile(r"(?<![A-Za-z0-9_])[A-Z][a-z]{2,}(?![A-Za-z0-9_])")
# the original consumes one non-letter before the name; a lookbehind finds the same names
_CYRILLIC_NAME = re.compile(r"(?<![а-яёА-ЯЁ])[А-ЯЁ][а-яё]{2,}(?![а-яёА-ЯЁ])")
_LATIN_QUOTE = re.compile(r'"[^"]+"')
_CYRILLIC_QUOTE = re.compile(r"«[^»]+»")
_QUOTE_MARKS = str.maketrans("", "", '"«»')


@dataclass(frozen=True)
class QueryConfig:
    """QUERY_CONTEXT_DEFAULTS and the literals of query-context.js, as parameters."""

    entity_window: int = 10          # messages scanned for entities
    recency_decay: float = 0.09      # message i weighs 1 − i·decay
    top_entities: int = 5            # entities kept
    active_character_boost: float = 3.0
    entity_max_share: float = 0.5    # dropped when in more than this share of the messages
    quote_min_chars: int = 3
    quote_max_chars: int = 50
    entity_boost_weight: float = 5.0
    embedding_window: int = 5        # messages in the embedding query
    embedding_entities: int = 5      # entity names appended to it
    embedding_chars: int = 500       # its cut (getOptimalChunkSize of the default model)


@dataclass(frozen=True)
class Entities:
    """extractQueryContext's result: names heaviest first, and their weights."""

    entities: list[str] = field(default_factory=list)
    weights: dict[str, float] = field(default_factory=dict)


def message_text(message: Mapping[str, Any]) -> str:
    """`msg.mes || msg.message || ''`."""
    return str(message.get("mes") or message.get("message") or "")


def extract_from_text(text: str, cfg: QueryConfig = QueryConfig()) -> list[str]:
    if not text:
        return []
    found = [m for m in _LATIN_NAME.findall(text) if m not in LATIN_STARTERS]
    found += [m for m in _CYRILLIC_NAME.findall(text) if m not in CYRILLIC_STARTERS]
    for quote in [*_LATIN_QUOTE.findall(text), *_CYRILLIC_QUOTE.findall(text)]:
        content = js_trim(quote.translate(_QUOTE_MARKS))
        if cfg.quote_min_chars <= utf16_len(content) <= cfg.quote_max_chars:
            found.append(content)
    return found


def extract_query_context(messages: Sequence[Mapping[str, Any]] | None,
                          active_characters: Sequence[str] | None = None,
                          cfg: QueryConfig = QueryConfig()) -> Entities:
    if not messages:
        return Entities()
    scanned = messages[: max(cfg.entity_window, 0)]
    scores: dict[str, float] = {}
    seen_in: dict[str, int] = {}
    for index, msg in enumerate(scanned):
        recency = 1 - (index * cfg.recency_decay)
        names = extract_from_text(message_text(msg), cfg)
        for name in dict.fromkeys(names):
            seen_in[name] = seen_in.get(name, 0) + 1
        for name in names:
            scores[name] = scores.get(name, 0.0) + recency
    for name in active_characters or ():
        if name and utf16_len(name) >= 2:
            scores[name] = scores.get(name, 0.0) + cfg.active_character_boost
    limit = len(scanned) * cfg.entity_max_share
    for name, count in seen_in.items():
        if count > limit:
            scores.pop(name, None)
    ranked = sorted(scores.items(), key=lambda kv: -kv[1])[: max(cfg.top_entities, 0)]
    return Entities([name for name, _ in ranked], dict(ranked))


def entity_repeats(weight: float | None, entity_boost_weight: float) -> int:
    """`Math.ceil((weight || 1) * entityBoostWeight)`; 0 or less adds nothing."""
    w = 1.0 if not weight or math.isnan(weight) else weight
    return max(0, math.ceil(w * entity_boost_weight))


def build_bm25_tokens(user_message: str | None, extracted: Entities | None,
                      cfg: QueryConfig = QueryConfig(),
                      tokenizer: Callable[[str], list[str]] = tokenize) -> list[str]:
    """The user messages' tokens, then each entity's tokens repeated entity_repeats times."""
    tokens = list(tokenizer(user_message or ""))
    if extracted is None:
        return tokens
    for name in extracted.entities:
        stems = tokenizer(name)
        for _ in range(entity_repeats(extracted.weights.get(name), cfg.entity_boost_weight)):
            tokens.extend(stems)
    return tokens


def build_embedding_query(messages: Sequence[Mapping[str, Any]] | None,
                          extracted: Entities | None, cfg: QueryConfig = QueryConfig()) -> str:
    """The newest `embedding_window` messages' `mes` joined by spaces, a space, the top
    entity names joined by spaces; cut to `embedding_chars` UTF-16 units."""
    if not messages:
        return ""
    texts = [str(m["mes"]) for m in messages[: max(cfg.embedding_window, 0)] if m.get("mes")]
    names = " ".join((extracted.entities if extracted else [])[: cfg.embedding_entities])
    return js_slice(" ".join(texts) + " " + names, 0, cfg.embedding_chars)


def parse_recent_messages(recent_context: str | None, count: int = 10) -> list[dict[str, str]]:
    """Non-blank lines, the last `count` of them, newest first, as `{"mes": line}`."""
    if not recent_context:
        return []
    lines = [line for line in recent_context.split("\n") if js_trim(line)]
    return [{"mes": line} for line in reversed(lines[-count:] if count else lines)]
