"""OpenVault datasets: a folder of memories and query contexts, or a SillyTavern chat.

Folder layout (`read_openvault`):

    memories.json      the memories (see `openvault_memories`; corpus-id = memory id)
    contexts.jsonl     one query context per line (see `openvault_contexts`)
    qrels/<split>.tsv  optional BEIR judgments: query-id, corpus-id, score

A SillyTavern chat (`read_sillytavern_chat`) is JSON lines: the first line a header with
`chat_metadata` (OpenVault's data under `openvault`), `user_name` and `character_name`; every
further line one message. Its memories come from `chat_metadata.openvault.memories`, and it
gives one query context, id "chat": the chat as it stands (every message; chat length = their
count; active characters the character and the user, as OpenVault's `getActiveCharacters`).
The corpus is the memories OpenVault's retrieval scores there: those whose earliest message is
hidden (`is_system`); the others are left out (their ids in `settings["memories_visible"]`,
which the load warnings name), so BM25's batch statistics are the original's. Where no memory
qualifies, every memory is kept and the warning says that OpenVault would retrieve none.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from workbench.core.checks import refuse_unjudgeable
from workbench.core.data import Corpus, Dataset, FormatError, QuerySet
from workbench.core.formats._common import StrPath, _json_type, iter_jsonl, judged_subset
from workbench.core.formats.beir import read_qrels_tsv
from workbench.core.formats.openvault_contexts import (
    context_query,
    parse_message,
    read_contexts,
)
from workbench.core.formats.openvault_memories import memories_corpus, read_memories

MEMORIES_FILE = "memories.json"
CONTEXTS_FILE = "contexts.jsonl"
CHAT_QUERY_ID = "chat"
OPENVAULT_KEY = "chat_metadata.openvault"

__all__ = ["is_openvault_folder", "is_sillytavern_chat", "read_contexts", "read_memories",
           "read_openvault", "read_sillytavern_chat"]


def is_openvault_folder(folder: StrPath) -> bool:
    return (Path(folder) / MEMORIES_FILE).is_file()


def is_sillytavern_chat(path: StrPath) -> bool:
    """Whether the first non-blank line of a .jsonl file is a JSON object with
    `chat_metadata` (a SillyTavern chat header rather than a document)."""
    try:
        with Path(path).open("rb") as f:
            for raw in f:
                if raw.strip():
                    first = json.loads(raw.decode("utf-8").lstrip("\ufeff"))
                    return isinstance(first, dict) and "chat_metadata" in first
    except (OSError, ValueError, RecursionError):  # unreadable: the documents reader says why
        pass
    return False


def read_openvault(folder: StrPath, split: str = "test") -> Dataset:
    """An OpenVault folder as a Dataset (see the module docstring). With judgments, the query
    set is the judged contexts, as in `read_beir`."""
    folder = Path(folder)
    name = folder.resolve().name or str(folder)
    if not is_openvault_folder(folder):
        raise FormatError(folder, f"not an OpenVault folder: no {MEMORIES_FILE}",
                          field=MEMORIES_FILE)
    corpus = read_memories(folder / MEMORIES_FILE, name=name)
    if not (folder / CONTEXTS_FILE).is_file():
        raise FormatError(folder, f"no {CONTEXTS_FILE} (the query contexts)", field=CONTEXTS_FILE)
    queries = read_contexts(folder / CONTEXTS_FILE, name=name)
    qrels_path = folder / "qrels" / f"{split}.tsv"
    if not qrels_path.is_file():
        others = sorted(p.stem for p in (folder / "qrels").glob("*.tsv"))
        if others:
            raise FormatError(folder, f"no qrels/{split}.tsv (splits here: {', '.join(others)})",
                              field="split")
        return Dataset(name=name, corpus=corpus, queries=queries, source=str(folder))
    qrels = read_qrels_tsv(qrels_path, query_ids=queries.index)
    refuse_unjudgeable(qrels, corpus, qrels_path)
    judged = judged_subset(queries, qrels)
    return Dataset(name=name, corpus=corpus, queries=judged, qrels=qrels, source=str(folder),
                   unjudged_left_out=len(queries) - len(judged))


def read_sillytavern_chat(path: StrPath) -> Dataset:
    """A SillyTavern chat file with OpenVault memories as a Dataset of one query context."""
    path = Path(path)
    rows = iter_jsonl(path)
    header_line, header = next(rows, (1, None))
    if header is None:
        raise FormatError(path, "empty file: expected a SillyTavern chat header", line=1,
                          field="chat_metadata")
    memories = _chat_memories(header, path, header_line)
    names: list[str] = []
    for key in ("character_name", "user_name"):
        who = header.get(key)
        if who is not None and not isinstance(who, str):
            raise FormatError(path, f"expected a string, found {_json_type(who)}",
                              line=header_line, field=key)
        if who:
            names.append(who)
    corpus = memories_corpus(path, memories, [header_line] * len(memories), header_line,
                             name=path.stem, where=f"{OPENVAULT_KEY}.memories")
    messages = [parse_message(obj, path, line) for line, obj in rows]
    query = context_query(CHAT_QUERY_ID, messages, len(messages), names)
    hidden = [d for d in corpus if _retrievable(d.metadata.get("message_ids"), messages)]
    settings: dict[str, Any] = {}
    if hidden and len(hidden) < len(corpus):  # the batch OpenVault scores: N, df, max from it
        kept = {d.id for d in hidden}
        settings["memories_visible"] = [d.id for d in corpus if d.id not in kept]
        corpus = Corpus(hidden, name=corpus.name)
    elif not hidden:
        settings["memories_visible"] = ["*"]  # none retrievable: every memory kept, and said
    return Dataset(name=path.stem, corpus=corpus, queries=QuerySet([query], name=path.stem),
                   source=str(path), settings=settings)


def _retrievable(message_ids: Any, messages: list[dict[str, Any]]) -> bool:
    """Whether OpenVault retrieves a memory from this chat (REFERENCE §3, "On disk"): the
    earliest of its `message_ids` is a hidden (`is_system`) message. Memories whose messages
    are still visible are in the chat already; one without message ids, or whose earliest
    message is not in the chat, is never retrieved."""
    if not message_ids:
        return False
    first = min(message_ids)
    return 0 <= first < len(messages) and bool(messages[first]["is_system"])


def _chat_memories(header: dict[str, Any], path: Path, line: int) -> list[Any]:
    """The memories list in a chat header's `chat_metadata.openvault.memories`."""
    value: Any = header
    for field in ("chat_metadata", OPENVAULT_KEY, f"{OPENVAULT_KEY}.memories"):
        key = field.rsplit(".", 1)[-1]
        if value.get(key) is None:
            what = ("not a SillyTavern chat: the first line has no chat_metadata"
                    if key == "chat_metadata" else "missing: no OpenVault memories in this chat")
            raise FormatError(path, what, line=line, field=field)
        value = value[key]
        if not isinstance(value, list if key == "memories" else dict):
            kind = "a list" if key == "memories" else "an object"
            raise FormatError(path, f"expected {kind}, found {_json_type(value)}", line=line,
                              field=field)
    return list(value)
