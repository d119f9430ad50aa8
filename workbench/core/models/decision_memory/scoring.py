"""pi-lodestone's scoring, ported function by function (REFERENCE.md §1): `build_token_weights`,
`score_decision` (scoreDecision, with the gate that zeroed it), `rank_decisions` (the search of
extension/index.ts, manual or for injection).

These are the reference the vectorised model is tested against; they take decision records
with the original's keys (createdAt, supersededBy, kbPath, retrievalCount …).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from workbench.core.models.decision_memory.constants import DEFAULTS, Constants
from workbench.core.models.decision_memory.project import (
    age_days,
    in_project,
    locality,
    parse_time,
)
from workbench.core.models.decision_memory.text import (
    has_durable_tag,
    is_operational_title,
    tokenize,
)

Decision = Mapping[str, Any]
# where a query token matched, first that holds
TITLE, TAGS, BODY, PARTIAL, NONE = 0, 1, 2, 3, 4
LOCATIONS = ("title", "tags", "body", "partial", "none")


def js_round(x: float) -> float:
    """Math.round: halves up (toward +∞)."""
    return math.floor(x + 0.5)


def decision_tokens(d: Decision) -> tuple[set[str], set[str], set[str]]:
    """(title, tags, body) token sets of a decision."""
    tags = {t for tag in d.get("tags") or () for t in tokenize(tag)}
    return set(tokenize(d.get("title") or "")), tags, set(tokenize(d.get("text") or ""))


def build_token_weights(decisions: Sequence[Decision], c: Constants = DEFAULTS
                        ) -> dict[str, float]:
    """`buildTokenWeights`: over the non-archived decisions, base + min(cap, ln((N+1)/(df+1)))
    for every token of some decision's title ∪ tags ∪ text."""
    active = [d for d in decisions if not d.get("archived")]
    df: dict[str, int] = {}
    for d in active:
        title, tags, body = decision_tokens(d)
        for token in title | tags | body:
            df[token] = df.get(token, 0) + 1
    n = len(active)
    if n == 0:
        return {}
    return {t: c.idf_base + min(c.idf_cap, math.log((n + 1) / (f + 1))) for t, f in df.items()}


def locate(term: str, title: set[str], tags: set[str], body: set[str]) -> int:
    """The first location a query token matches: title, tags, body, else partial when some
    decision token contains it or it contains one, else none."""
    if term in title:
        return TITLE
    if term in tags:
        return TAGS
    if term in body:
        return BODY
    if any(term in tok or tok in term for tok in (*body, *title, *tags)):
        return PARTIAL
    return NONE


@dataclass(frozen=True)
class Scored:
    score: int
    gate: str | None
    lexical: float
    strong: int
    meaningful: int


def score_decision(d: Decision, query: str, cwd: str | None, *, now_ms: float,
                   for_injection: bool = False, token_weights: Mapping[str, float] | None = None,
                   c: Constants = DEFAULTS) -> Scored:
    """`scoreDecision`, and the gate (REFERENCE's names) that returned 0, if one did."""
    if d.get("archived"):
        return Scored(0, "archived", 0.0, 0, 0)
    if for_injection and c.gate_superseded and d.get("supersededBy"):
        return Scored(0, "superseded", 0.0, 0, 0)
    q = tokenize(query)
    if not q:
        return Scored(0, "no_query_tokens", 0.0, 0, 0)
    title, tags, body = decision_tokens(d)
    base = c.location_weights()
    lexical, strong, meaningful = 0.0, 0, 0
    for term in q:
        where = locate(term, title, tags, body)
        if where == NONE:
            continue
        w = c.absent_weight if token_weights is None else token_weights.get(term,
                                                                           c.absent_weight)
        lexical += base[where] * w
        if where != PARTIAL:
            strong += 1
            meaningful += term not in c.generic_terms
    gate = _gate(d, len(q), lexical, strong, meaningful, for_injection, c)
    if gate is not None:
        return Scored(0, gate, lexical, strong, meaningful)
    if for_injection and len(q) > c.damping_tokens:
        lexical = max(1.0, js_round(lexical * math.sqrt(c.damping_tokens / len(q))))
    score = lexical
    for value in bonus_parts(d, cwd, now_ms, for_injection, c).values():
        score += value  # one addition per bonus, in the original's order
    return Scored(int(max(0.0, js_round(score))), None, lexical, strong, meaningful)


def _gate(d: Decision, n_tokens: int, lexical: float, strong: int, meaningful: int,
          for_injection: bool, c: Constants) -> str | None:
    if lexical == 0:
        return "lexical_zero"
    if not for_injection:
        return None
    manual = d.get("source") == "manual"
    checks = (
        ("single_token_evidence", strong < c.min_strong),
        ("no_meaningful_evidence", meaningful < c.min_meaningful),
        ("long_prompt_evidence",
         n_tokens >= c.long_query_tokens and meaningful < c.long_query_meaningful),
        ("source_turn", c.gate_source_turn and d.get("source") == "turn"),
        ("operational_title", c.gate_operational_title and not manual
         and is_operational_title(d.get("title") or "", c.operational_words)),
        ("no_durable_tag", c.gate_no_durable_tag and not manual
         and not has_durable_tag(d.get("tags") or (), c.durable_tags)),
    )
    return next((name for name, hit in checks if hit), None)


def bonus_parts(d: Decision, cwd: str | None, now_ms: float, for_injection: bool,
                c: Constants = DEFAULTS) -> dict[str, float]:
    """Each bonus in the original's order of addition (the score is lexical + each in turn):
    locality, important, manual, kb, retrieval, injection, superseded, age."""
    loc = locality(d.get("cwd") or "", d.get("project") or "", cwd)
    out = {"locality": c.locality_bonuses()[loc]}
    out["important"] = ((c.important_injection if for_injection else c.important_search)
                        if d.get("important") else 0.0)
    out["manual"] = ((c.manual_injection if for_injection else c.manual_search)
                     if d.get("source") == "manual" else 0.0)
    out["kb"] = c.kb_bonus if d.get("kbPath") else 0.0
    manual_only = not for_injection
    out["retrieval"] = (min(float(d.get("retrievalCount") or 0), c.retrieval_cap)
                        if manual_only else 0.0)
    out["injection"] = (min(float(d.get("injectionCount") or 0), c.injection_cap)
                        if manual_only else 0.0)
    out["superseded"] = -c.superseded_penalty if manual_only and d.get("supersededBy") else 0.0
    age = age_days(now_ms, d.get("createdAt"))
    out["age"] = (c.fresh_bonus if age < c.fresh_days else c.recent_bonus
                  if age < c.recent_days else -c.old_penalty if age > c.old_days else 0.0)
    return out


def rank_decisions(decisions: Sequence[Decision], query: str, cwd: str | None, *,
                   now_ms: float, for_injection: bool, project_only: bool = False,
                   min_score: float | None = None, limit: int | None = None,
                   use_weights: bool = True, c: Constants = DEFAULTS) -> list[tuple[str, int]]:
    """The original's `search`: candidates = non-archived (and in the cwd's project when
    project-only), weights built from them, scores ≥ min score, sorted by score then newer
    createdAt (stable), the first `limit`. Defaults: the mode's min score and limit."""
    if min_score is None:
        min_score = c.inject_min_score if for_injection else c.search_min_score
    if limit is None:
        limit = c.inject_limit if for_injection else c.search_limit
    candidates = [d for d in decisions if not d.get("archived")
                  and (not project_only or in_project(d.get("cwd") or "", cwd))]
    weights = build_token_weights(candidates, c) if use_weights else None
    scored = [(d, score_decision(d, query, cwd, now_ms=now_ms, for_injection=for_injection,
                                 token_weights=weights, c=c).score) for d in candidates]
    kept = [(d, s) for d, s in scored if s >= min_score]
    kept.sort(key=lambda x: (-x[1], -_created(x[0])))
    return [(str(d["id"]), s) for d, s in kept[: max(0, limit)]]


def _created(d: Decision) -> float:
    t = parse_time(d.get("createdAt"))
    return -math.inf if math.isnan(t) else t
