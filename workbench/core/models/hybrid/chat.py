"""From a workbench `Query` to what OpenVault computes before scoring: its BM25 tokens (split
into the user messages' tokens and each entity's), its entities and its embedding query.

A query with a chat (`context["messages"]`, oldest first, as the OpenVault readers give it)
follows the original's retrieval (retrieve.js and scoring.js):

    recent   = the non-system messages' text joined by "\\n"   → parseRecentMessages(·, 10)
               (newest first; a message holding line breaks counts as several lines)
    entities = extractQueryContext(recent, active characters)
    user     = the last 3 non-system user messages' text joined by "\\n", last 1000 units
    BM25     = tokenize(user) + each entity's tokens × ceil(weight · entity boost)
    vector   = buildEmbeddingQuery(parseRecentMessages(user, 3), entities)

A query without a chat (BEIR) has no entities: its BM25 tokens are `tokenize(Query.text)` and
its embedding query is `Query.text`. Its chat length is None: see `prepared` for what the
forgetting curve does then.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from workbench.core.data import Query
from workbench.core.models.hybrid.jstext import js_slice
from workbench.core.models.hybrid.query import (
    Entities,
    QueryConfig,
    build_embedding_query,
    extract_query_context,
    message_text,
    parse_recent_messages,
)
from workbench.core.models.hybrid.tokenizer import Tokenizer


@dataclass(frozen=True)
class ChatConfig:
    """Which messages form the queries (retrieve.js literals), with the entity settings."""

    query: QueryConfig = field(default_factory=QueryConfig)
    user_messages: int = 3       # last N user messages
    user_chars: int = 1000       # their joined text, cut to its last N UTF-16 units
    embedding_lines: int = 3     # parseRecentMessages(userMessages, 3): the embedding's lines
    entity_lines: int = 10       # parseRecentMessages(chat, 10): the lines scanned for entities


@dataclass(frozen=True)
class QueryPlan:
    """message_tokens: the user messages' BM25 tokens; entities with, per entity, its own
    tokens (repeated live by the entity boost); embedding_text ("" = no query embedding);
    chat_length: None when the query has no chat."""

    message_tokens: list[str]
    entities: Entities
    entity_tokens: list[list[str]]
    embedding_text: str
    user_text: str
    chat_length: int | None


def chat_messages(query: Query) -> list[Mapping[str, Any]] | None:
    """The query's chat messages (oldest first), None when it has none."""
    messages = query.context.get("messages")
    if isinstance(messages, Sequence) and not isinstance(messages, str) and messages:
        return [m for m in messages if isinstance(m, Mapping)]
    return None


def chat_length(query: Query) -> int | None:
    """`context["chat_length"]`, else the number of messages, else None (no chat)."""
    value = query.context.get("chat_length")
    if isinstance(value, int | float) and not isinstance(value, bool):
        return int(value)
    messages = chat_messages(query)
    return None if messages is None else len(messages)


def plan_query(query: Query, cfg: ChatConfig, tokenizer: Tokenizer) -> QueryPlan:
    messages = chat_messages(query)
    if messages is None:
        return QueryPlan(tokenizer.tokens(query.text), Entities(), [], query.text, query.text,
                         chat_length(query))
    visible = [m for m in messages if not m.get("is_system")]
    recent = parse_recent_messages("\n".join(message_text(m) for m in visible),
                                   cfg.entity_lines)
    active = query.context.get("active_characters") or []
    entities = extract_query_context(recent, [str(a) for a in active], cfg.query)
    users = [message_text(m) for m in visible if m.get("is_user")]
    user_text = "\n".join(users[-cfg.user_messages:] if cfg.user_messages > 0 else [])
    user_text = js_slice(user_text, -cfg.user_chars) if cfg.user_chars > 0 else ""
    embedding_text = build_embedding_query(
        parse_recent_messages(user_text, cfg.embedding_lines), entities, cfg.query)
    return QueryPlan(
        message_tokens=tokenizer.tokens(user_text),
        entities=entities,
        entity_tokens=[tokenizer.tokens(name) for name in entities.entities],
        embedding_text=embedding_text,
        user_text=user_text,
        chat_length=chat_length(query),
    )
