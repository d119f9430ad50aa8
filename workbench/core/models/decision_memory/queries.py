"""What prepare reads from each query's context, and each decision as the original's record.

Query context keys (all optional):
- `cwd` (str): the working directory of the turn or search; none = no locality bonus and no
  project filter (the original tests `cwd &&` and `!options.cwd`);
- `now` (ISO str): the pinned clock; else the `now` parameter, else the corpus's newest
  createdAt;
- `for_injection` (bool) or `mode` ("injection" / "search", any case): the query's mode (model
  mode "query");
- `project_only` (bool), `min_score` (number), `limit` (int): the query's own search settings
  (model mode "query");
- a flag may be written as a word (true/false, yes/no, on/off, 1/0, any case) and a number in
  a string, as a CSV query file's columns are; a value that cannot be read is warned of
  (`context_problems`) and the query scored as though it were not given;
- pi-lodestone's own names for these (its search options and eval fixtures' fields) are read
  as the same keys: `forInjection`, `projectOnly`, `minScore`, and `topK` for `limit`
  (`ORIGINAL_NAMES`); only the names, not the fixture harness's defaults: a query that gives
  no minScore or topK takes its mode's sliders (by default a search min score 1, limit 5, an
  injection min score 8, limit 3), not the harness's minScore 8 and topK 5 (to replay
  fixture cases, open the eval.jsonl itself);
- where one record gives a setting under two names that read differently, the workbench's
  name is read (`for_injection`, then `mode`, then `forInjection`), and it is warned of
  (`SPELLINGS`, `spelling_warnings`);
- `prompt` (bool): the text is a raw user prompt, to be compacted as the injection hook does;
- `candidates` (list of corpus positions): the query's own corpus (an eval case's); default
  the whole corpus.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from workbench.core.data import Document, Query, QuerySet
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


_TRUE = frozenset(("true", "yes", "on", "1"))
_FALSE = frozenset(("false", "no", "off", "0"))


def _given(value: object) -> bool:
    return value is not None and not (isinstance(value, str) and not value.strip())


def _flag(value: object) -> int:
    """1 / 0 for a true / false value — a boolean, 0 or 1, or its word in any case ("false"
    from a CSV column is false, not a non-empty string) — else −1 (not given, or unreadable:
    `context_problems` names it)."""
    if not _given(value):
        return -1
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int | float) and value in (0, 1):
        return int(value)
    word = value.strip().lower() if isinstance(value, str) else ""
    return 1 if word in _TRUE else 0 if word in _FALSE else -1


def _mode(ctx: Mapping[str, Any]) -> int:
    if _given(ctx.get("for_injection")):
        return _flag(ctx["for_injection"])
    mode = ctx.get("mode")
    name = mode.strip().lower() if isinstance(mode, str) else ""
    return {"injection": 1, "search": 0}.get(name, -1)


def _number(value: object) -> float:
    """A number, or one written in a string ("8" from a CSV column); else NaN."""
    if isinstance(value, bool):
        return math.nan
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, str):
        try:
            out = float(value.strip())
        except ValueError:
            return math.nan
        return out if math.isfinite(out) else math.nan
    return math.nan


# what a query context value that cannot be read is taken as (`context_problems`); the
# first five are read only in model mode "query"
MODE_KEYS = ("for_injection", "mode", "project_only", "min_score", "limit")
READ_AS = {
    "for_injection": "true or false; read as not given: an injection, as the eval harness "
                     "reads a query without one",
    "mode": "injection or search; read as not given: an injection, as the eval harness reads "
            "a query without one",
    "project_only": "true or false; read as not given: Global injection decides",
    "min_score": "a number; read as not given: the mode's min score parameter",
    "limit": "a number; read as not given: the mode's limit parameter",
    "cwd": "a path; read as none: no locality bonus and no project filter",
    "now": "an ISO 8601 date; read as none: the now parameter, else the newest createdAt",
    "prompt": "true or false; read as not given: false",
}


# pi-lodestone's names (`searchDecisions`' options, the eval fixtures' fields) → ours: a query
# file copied from the original's fixtures is read as it means (rv51 1: its forInjection false
# had been dropped unsaid, the search scored as an injection)
ORIGINAL_NAMES = {"forInjection": "for_injection", "projectOnly": "project_only",
                  "minScore": "min_score", "topK": "limit"}
# the other keys of a query's context that prepare reads or the workbench itself writes (an
# eval case's, a logged turn's) or that tune reads (`date`, for a time split): not said as
# unread
OTHER_KEYS = ("candidates", "injected_ids", "injected_scores", "case", "line", "top_k",
              "expected_top_ids", "must_not_include", "date")


# each setting's names, the one read first where a record gives several: the workbench's
# before pi-lodestone's, as the module says (rv2 4: forInjection had beaten a given mode)
SPELLINGS = {"for_injection": ("for_injection", "mode", "forInjection"),
             "project_only": ("project_only", "projectOnly"),
             "min_score": ("min_score", "minScore"), "limit": ("limit", "topK")}
SETTING_OF = {theirs: ours for ours, names in SPELLINGS.items() for theirs in names}


def own_context(ctx: Mapping[str, Any]) -> dict[str, Any]:
    """`ctx` with each of pi-lodestone's names (`ORIGINAL_NAMES`) given also under ours,
    where none of the workbench's names for the setting is given (`SPELLINGS`)."""
    out = dict(ctx)
    for theirs, ours in ORIGINAL_NAMES.items():
        if _given(ctx.get(theirs)) and not any(
                _given(ctx.get(k)) for k in SPELLINGS[ours] if k not in ORIGINAL_NAMES):
            out[ours] = ctx[theirs]
    return out


def written(ctx: Mapping[str, Any], key: str) -> str:
    """The name `ctx` gives workbench key `key` under: pi-lodestone's where only its is
    given (a warning names the key the user wrote, rv2 7)."""
    if _given(ctx.get(key)):
        return key
    return next((k for k in SPELLINGS.get(key, ()) if k in ORIGINAL_NAMES
                 and _given(ctx.get(k))), key)


def _reading(name: str, value: object) -> object:
    """What `value` under `name` is read as, to compare two spellings' values."""
    if name == "mode":
        return {"injection": True, "search": False}.get(
            value.strip().lower() if isinstance(value, str) else "", repr(value))
    if SETTING_OF.get(name) in ("for_injection", "project_only"):
        flag = _flag(value)
        return bool(flag) if flag >= 0 else repr(value)
    number = _number(value)
    return repr(value) if math.isnan(number) else number


def spelling_conflicts(ctx: Mapping[str, Any]) -> list[tuple[tuple[str, ...], str]]:
    """(the names given, the one read) for each setting `ctx` gives under two or more names
    that read differently (`SPELLINGS`): a file put together from a workbench export and
    pi-lodestone's fixtures had been read one way with nothing said (rv2 4)."""
    out = []
    for names in SPELLINGS.values():
        given = tuple(k for k in names if _given(ctx.get(k)))
        if len({repr(_reading(k, ctx[k])) for k in given}) > 1:
            out.append((given, given[0]))
    return out


def _shown(value: object) -> str:
    return json.dumps(value) if isinstance(value, bool | int | float | str) else repr(value)


def conflict_text(ctx: Mapping[str, Any], given: tuple[str, ...], read: str) -> str:
    """"both 'forInjection' (false) and 'for_injection' (true) given; 'for_injection' read"."""
    names = [f"{k!r} ({_shown(ctx[k])})" for k in given]
    both = "both " if len(names) == 2 else ""
    return f"{both}{', '.join(names[:-1])} and {names[-1]} given; {read!r} read"


def spelling_warnings(queries: QuerySet) -> list[str]:
    """"FILE:LINE: query 'b1': both 'forInjection' (false) and 'for_injection' (true) given;
    'for_injection' read", once per file for each set of names (`spelling_conflicts`), at
    the first query that gives them, with how many more do."""
    found: dict[tuple[str, ...], list[Query]] = {}
    for q in queries:
        for given, _ in spelling_conflicts(q.context):
            found.setdefault(given, []).append(q)
    out = []
    for given, qs in found.items():
        q = qs[0]
        where = queries.at.get(q.id)
        more = f" (and {len(qs) - 1} more)" if len(qs) > 1 else ""
        out.append(f"{where + ': ' if where else ''}query {q.id!r}{more}: "
                   f"{conflict_text(q.context, given, given[0])}")
    return out


def _hint(key: str, readable: tuple[str, ...]) -> str:
    """The readable key `key` is most likely a slip for: the same letters but for case and
    underscores, in the style written (MinScore → minScore, minscore and min_Score →
    min_score), else a close misspelling (for_injecton); none for a mere look-alike (topic is
    no topK, project no projectOnly, nowMs no now: rv2 6)."""
    import difflib

    def squeezed(k: str) -> str:
        return k.lower().replace("_", "").replace("-", "")

    # camelCase where a capital joins words with no underscore between them: min_Score is
    # snake_case with a slip of the shift key (dr5 12: it had been offered minScore)
    camel = "_" not in key and any(c.isupper() for c in key)
    near = sorted((k for k in readable if squeezed(k) == squeezed(key)),
                  key=lambda k: (k in ORIGINAL_NAMES) != camel) or \
        difflib.get_close_matches(key, readable, n=1, cutoff=0.85)
    return f" (did you mean {near[0]}?)" if near else ""


def unread_keys(queries: QuerySet) -> list[str]:
    """"FILE:LINE: field 'x': …" for each key of a query file that decision-memory does not
    read, once per key at the first line giving it, with the key it most likely meant (as
    --context refuses one): a misspelt minscore had been dropped unsaid. The keys it reads
    follow once, after them (rv2 7: on every line, 38 times). `top_k` is read only beside
    `expected_top_ids` (an eval case's, by tune's cases objective): elsewhere it is said too
    (rv2 5)."""
    readable = (*READ_AS, *ORIGINAL_NAMES)
    known = {*readable, *OTHER_KEYS}
    out = []
    for key, where in queries.keys_at.items():
        if key not in known:
            out.append(f"{where}: field {key!r}: decision-memory reads no key {key!r}"
                       f"{_hint(key, readable)}; the queries are scored without it")
    lone = next((q for q in queries if _given(q.context.get("top_k"))
                 and "expected_top_ids" not in q.context), None)
    if lone is not None:
        place = queries.at.get(lone.id) or queries.keys_at.get("top_k")
        out.append(f"{place + ': ' if place else ''}field 'top_k': read only beside "
                   "expected_top_ids (an eval case's), and query "
                   f"{lone.id!r} has none: scored without it (did you mean topK or limit?)")
    if out:
        out.append(f"the query keys decision-memory reads: {', '.join(readable)}")
    return out


def context_problems(ctx: Mapping[str, Any]) -> list[tuple[str, object]]:
    """(key, value) of each context value given but unreadable, which the query is scored
    without (`READ_AS` says as what): a mistyped mode, "maybe" for a flag, "last week" for
    now, 42 for a cwd."""
    given, ctx = ctx, own_context(ctx)
    out: list[tuple[str, object]] = []
    for key in ("for_injection", "project_only", "prompt"):
        if _given(ctx.get(key)) and _flag(ctx[key]) < 0:
            out.append((key, ctx[key]))
    if not _given(ctx.get("for_injection")) and _given(ctx.get("mode")) and _mode(ctx) < 0:
        out.append(("mode", ctx["mode"]))
    if _given(ctx.get("min_score")) and math.isnan(_number(ctx["min_score"])):
        out.append(("min_score", ctx["min_score"]))
    if _given(ctx.get("limit")) and math.isnan(_number(ctx["limit"])):
        out.append(("limit", ctx["limit"]))
    if _given(ctx.get("cwd")) and not isinstance(ctx["cwd"], str):
        out.append(("cwd", ctx["cwd"]))
    if _given(ctx.get("now")) and math.isnan(parse_time(ctx["now"])):
        out.append(("now", ctx["now"]))
    return [(written(given, key), value) for key, value in out]  # the name given (rv2 7)


# what a negative min_score or limit a query gives is taken as (`negative_context`): read, and
# warned of, as a minus sign is more likely a slip than meant
NEGATIVE_AS = {
    "min_score": "acts as 0, as the original's negative min scores do: every candidate, score "
                 "0 included",
    "limit": "read as 0: the query returns nothing",
}


def negative_context(ctx: Mapping[str, Any]) -> list[tuple[str, object]]:
    """(key, value) of a min_score or limit given below 0 (`NEGATIVE_AS` says as what), the
    key as given (minScore where the query says minScore)."""
    own = own_context(ctx)
    return [(written(ctx, key), own[key]) for key in NEGATIVE_AS
            if _given(own.get(key)) and _number(own[key]) < 0]


LIMIT_MAX = 2**31 - 1  # a query's own limit, at most (any larger cuts nothing either)


def query_spec(query: Query, params: Params, default_now: float, n_docs: int) -> QuerySpec:
    ctx = own_context(query.context)
    form = str(params["query_form"])
    is_prompt = form == "prompt" or (form == "context" and _flag(ctx.get("prompt")) == 1)
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
        # kept as given, within int32 ("1e20" from a CSV had overflowed int64; past the
        # corpus a limit cuts nothing, but it is the limit the query names, as said)
        limit=-1 if math.isnan(limit) else max(0, int(min(limit, LIMIT_MAX))),
        candidates=candidates,
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
