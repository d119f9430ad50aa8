"""What prepare reads from each query's context, and each decision as the original's record.

Query context keys (all optional):
- `cwd` (str): the working directory of the turn or search; none = no locality bonus and no
  project filter (the original tests `cwd &&` and `!options.cwd`);
- `now` (ISO str): the pinned clock; else the `now` parameter, else the corpus's newest
  createdAt;
- `for_injection` (bool) or `mode` ("injection" / "search"): the query's mode (model mode
  "query");
- `project_only` (bool), `min_score` (number), `limit` (int): the query's own search settings
  (model mode "query");
- `prompt` (bool): the text is a raw user prompt, to be compacted as the injection hook does;
- `candidates` (list of corpus positions): the query's own corpus (an eval case's); default
  the whole corpus.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from workbench.core.data import Document, Query
from workbench.core.models.decision_memory.project import parse_time
from workbench.core.models.decision_memory.text import injection_query, word_list
from workbench.core.params import Params

# the original record's keys a Document keeps in its metadata
RECORD_KEYS = ("createdAt", "updatedAt", "cwd", "project", "source", "important", "archived",
               "kbPath", "supersedes", "supersededBy", "conflictsWith", "retrievalCount",
               "injectionCount")


def record_of(doc: Document) -> dict[str, Any]:
    """The decision record of a Document (title, text, tags and the metadata's keys)."""
    out: dict[str, Any] = dict(doc.metadata)
    out.update(id=doc.id, title=doc.title, text=doc.text, tags=list(doc.tags))
    return out


@dataclass(frozen=True)
class QuerySpec:
    """One query as prepare sees it. mode: 1 injection, 0 search, −1 not given;
    project_only: 1 / 0 / −1; min_score NaN and limit −1 when not given."""

    text: str
    note: str
    cwd: str | None
    now_ms: float
    mode: int
    project_only: int
    min_score: float
    limit: int
    candidates: tuple[int, ...] | None
    # a logged turn replayed: only decisions created by its `now` were in the store
    as_of: bool = False


def _flag(value: object) -> int:
    return -1 if value is None else int(bool(value))


def _mode(ctx: Mapping[str, Any]) -> int:
    if ctx.get("for_injection") is not None:
        return int(bool(ctx["for_injection"]))
    mode = ctx.get("mode")
    return {"injection": 1, "search": 0}.get(mode, -1) if isinstance(mode, str) else -1


def _number(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return math.nan
    return float(value)


def query_spec(query: Query, params: Params, default_now: float, n_docs: int) -> QuerySpec:
    ctx = query.context
    form = str(params["query_form"])
    is_prompt = form == "prompt" or (form == "context" and bool(ctx.get("prompt")))
    text, note = query.text, ""
    if is_prompt:
        text, note = injection_query(
            query.text, max_tokens=int(params["query_max_tokens"]),
            min_prompt_chars=int(params["prompt_min_chars"]),
            min_query_chars=int(params["query_min_chars"]),
            max_chars=int(params["prompt_max_chars"]),
            min_length=int(params["min_token_length"]),
            stop_words=frozenset(word_list(str(params["injection_stop_words"]))))
    now = parse_time(ctx.get("now"))
    if math.isnan(now):
        now = default_now
    cwd = ctx.get("cwd")
    limit = _number(ctx.get("limit"))
    cands = ctx.get("candidates")
    candidates = None
    if isinstance(cands, list | tuple):
        candidates = tuple(int(c) for c in cands if isinstance(c, int) and 0 <= c < n_docs)
    return QuerySpec(
        text=text, note=note, cwd=cwd if isinstance(cwd, str) and cwd else None, now_ms=now,
        mode=_mode(ctx), project_only=_flag(ctx.get("project_only")),
        min_score=_number(ctx.get("min_score")),
        limit=-1 if math.isnan(limit) else max(0, int(limit)), candidates=candidates,
        as_of=bool(params["replay_as_of_turn"]) and "injected_ids" in ctx
        and not math.isnan(now))


def default_now(params: Params, records: list[dict[str, Any]]) -> float:
    """The `now` parameter, else the newest createdAt of the corpus (NaN when none)."""
    t = parse_time(str(params["now"]))
    if not math.isnan(t):
        return t
    times = [parse_time(r.get("createdAt")) for r in records]
    valid = [x for x in times if not math.isnan(x)]
    return max(valid) if valid else math.nan
