"""OpenVault query contexts: the state of a chat when OpenVault retrieves memories.

A context becomes `Query(id, text, context)`: `text` is the newest non-system user message,
`context` holds `messages` (oldest first, each `{"name", "is_user", "is_system", "mes"}`),
`chat_length` (the chat's message count, which the forgetting curve measures distance from),
`active_characters` and, where given, `embedding`.

`contexts.jsonl` holds one context per line:
`{"_id": "c01", "messages": [...], "chatLength": 120, "activeCharacters": [...], "embedding":
[...]}`; `chatLength` defaults to the number of messages, the others to nothing. A message is a
SillyTavern message: text from `mes`, else `message` (as the original reads it), `name`
optional, `is_user` and `is_system` false unless given.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from workbench.core.data import FormatError, Query, QuerySet
from workbench.core.formats._common import (
    StrPath,
    _json_type,
    check_unique,
    empty_file,
    get_id,
    iter_jsonl,
)
from workbench.core.formats.openvault_memories import finite_number, whole_number

ID_KEYS = ("_id", "id")
def parse_message(obj: object, path: Path, line: int, at: str = "") -> dict[str, Any]:
    """A SillyTavern message as `{"name", "is_user", "is_system", "mes"}`; `at` prefixes the
    field names in errors (`messages[3].`)."""
    if not isinstance(obj, dict):
        raise FormatError(path, f"expected a message object, found {_json_type(obj)}",
                          line=line, field=at.rstrip(".") or "json")

    def text(key: str) -> str | None:
        value = obj.get(key)
        if value is not None and not isinstance(value, str):
            raise FormatError(path, f"expected a string, found {_json_type(value)}",
                              line=line, field=f"{at}{key}")
        return value

    def flag(key: str) -> bool:
        value = obj.get(key)
        if value is not None and not isinstance(value, bool):
            raise FormatError(path, f"expected true or false, found {_json_type(value)}",
                              line=line, field=f"{at}{key}")
        return bool(value)

    mes, message = text("mes"), text("message")
    if mes is None and message is None:
        raise FormatError(path, "missing (a message's text is 'mes', else 'message')",
                          line=line, field=f"{at}mes")
    return {"name": text("name") or "", "is_user": flag("is_user"),
            "is_system": flag("is_system"), "mes": mes or message or ""}


def context_query(query_id: str, messages: Sequence[Mapping[str, Any]], chat_length: int,
                  active_characters: Sequence[str],
                  embedding: Sequence[float] | None = None) -> Query:
    """The Query for a chat state: text = the newest non-system user message (or "")."""
    text = next((str(m["mes"]) for m in reversed(messages)
                 if m["is_user"] and not m["is_system"]), "")
    context: dict[str, Any] = {"messages": [dict(m) for m in messages],
                               "chat_length": chat_length,
                               "active_characters": list(active_characters)}
    if embedding is not None:  # float64, exact (not a list of Python floats: 4× the memory)
        context["embedding"] = np.asarray(embedding, np.float64)
    return Query(id=query_id, text=text, context=context)


def _context(obj: dict[str, Any], path: Path, line: int) -> tuple[Query, str]:
    """The context's Query and, where its messages give it no text, why ("FILE:LINE: field
    'messages': why", for `QuerySet.no_text`; ra 3: such a query had been empty in silence),
    else ""."""
    if all(k in obj for k in ID_KEYS):
        raise FormatError(path, "both '_id' and 'id' given; keep one", line=line, field="_id")
    query_id = get_id(obj, ID_KEYS, path, line)
    raw = obj.get("messages")
    if not isinstance(raw, list):
        raise FormatError(path, "missing" if "messages" not in obj else
                          f"expected a list of messages, found {_json_type(raw)}",
                          line=line, field="messages")
    messages = [parse_message(m, path, line, f"messages[{j}].") for j, m in enumerate(raw)]

    raw_length = obj.get("chatLength")
    chat_length = len(messages) if raw_length is None else whole_number(raw_length)
    if chat_length is None or chat_length < 0:  # 50.0 is 50, as JavaScript reads it
        found = (raw_length if isinstance(raw_length, int | float)
                 and not isinstance(raw_length, bool) else _json_type(raw_length))
        raise FormatError(path, f"expected a message count (an integer >= 0), found {found}",
                          line=line, field="chatLength")
    active = obj.get("activeCharacters")
    if active is None:
        active = []
    elif not isinstance(active, list) or not all(isinstance(a, str) for a in active):
        raise FormatError(path, "expected a list of character names", line=line,
                          field="activeCharacters")
    embedding = obj.get("embedding")
    if embedding is not None and (not isinstance(embedding, list)
                                  or not all(finite_number(x) for x in embedding)):
        raise FormatError(path, "expected a list of finite numbers", line=line,
                          field="embedding")
    query = context_query(query_id, messages, chat_length, active, embedding)
    if not messages or query.text.strip():  # no messages at all: the empty-text warning
        return query, ""
    user = any(m["is_user"] and not m["is_system"] for m in messages)
    why = ("the newest user message (is_user) is empty" if user else
           "no user message (is_user, not is_system) to take the query from")
    return query, f"{path}:{line}: field 'messages': {why}"


def read_contexts(path: StrPath, *, name: str = "queries") -> QuerySet:
    """Query contexts from a contexts.jsonl (see the module docstring)."""
    path = Path(path)
    queries: list[Query] = []
    no_text: dict[str, str] = {}
    seen: dict[str, int] = {}
    for line, obj in iter_jsonl(path):
        query, why = _context(obj, path, line)
        check_unique(seen, query.id, path, line, "id" if "id" in obj else "_id")
        queries.append(query)
        if why:
            no_text[query.id] = why
    if not queries:
        raise empty_file(path, "query context", "_id")
    return QuerySet(queries, name=name, no_text=no_text)
