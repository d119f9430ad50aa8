"""Explain one (query, decision) pair of `decision-memory`: every query token's match location,
weight and points, the evidence counts, each bonus, the query's mode and selection, and the
gate with its reason."""

from __future__ import annotations

from typing import Any

import numpy as np

from workbench.core.models.decision_memory.combine import BONUSES, Live
from workbench.core.models.decision_memory.params import GATES, gate_reason
from workbench.core.models.decision_memory.scoring import LOCATIONS, NONE

LOCALITY = ("none", "same cwd", "same project scope", "same project name")


def explain_query(live: Live, query: int) -> dict[str, Any]:
    prep = live.prep
    spec = prep.specs[query]
    out: dict[str, Any] = {
        "query_text": spec.text,
        "tokens": prep.tokens[query],
        "cwd": spec.cwd,
        "mode": "injection" if live.q_injection[query] else "search",
        "project_only": bool(live.q_project_only[query]),
        "min_score": float(live.q_min_score[query]),
        "limit": int(live.q_limit[query]),
        # the N of the token weights, ln((N+1)/(df+1)): a hand check needs it (rv51 7)
        "candidates": (f"{candidate_count(live, query):,} ("
                       + (("project-only" if spec.cwd else
                           # the original filters by `options.cwd` only where one is given
                           # (rv2 9: "project-only" had labelled every project's count)
                           "all projects, as project-only has no cwd")
                          if live.q_project_only[query] else "all projects")
                       + ", not archived: the token weights' N)"),
    }
    if spec.note:
        out["no_query_reason"] = spec.note
    if live.q_disabled[query]:
        out["no_query_reason"] = ("the cwd is in settings.json disabledProjects: no query, "
                                  "no injection, no log record")
    return out


def candidate_count(live: Live, query: int) -> int:
    """The query's candidate decisions, as its token weights count them: its corpus (an eval
    case's own), less the archived, less those created after a replayed turn (as of it), and
    in project-only mode only the cwd's project's (`prepared._Builder.add`)."""
    prep = live.prep
    spec = prep.specs[query]
    pool = ~np.asarray(prep.docs.archived, np.bool_)
    if spec.candidates is not None:
        mine = np.zeros(prep.n_docs, np.bool_)
        mine[list(spec.candidates)] = True
        pool &= mine
    if spec.as_of:
        pool &= ~(prep.docs.created > spec.now_ms)
    if live.q_project_only[query]:
        pool &= prep.cwd_member[prep.q_cwd[query]]
    return int(pool.sum())


KEPT_AT_ZERO = ("min score ≤ 0: the search keeps every candidate scoring ≥ min score, this one "
                "at 0")


def returned(live: Live, query: int, doc: int) -> bool:
    """Whether the query's search returns decision `doc` (ranked within the limit)."""
    rows = live.rows
    lo, hi = int(rows.row_ptr[query]), int(rows.row_ptr[query + 1])
    return bool(((rows.doc[lo:hi] == doc) & (rows.gate[lo:hi] == 0)).any())


def explain_pair(live: Live, query: int, doc: int, pair: int | None) -> dict[str, Any]:
    """`pair`: the prepared pair of (query, doc), None when no query token meets it."""
    out = explain_query(live, query)
    out["returned"] = returned(live, query, doc)
    if pair is None:
        why = ("project_disabled" if live.q_disabled[query] else
               "no_query_tokens" if not out["tokens"] else "lexical_zero")
        out.update(matched=False, score=0, gate=why, reason=gate_reason(why, live.c))
        if out["returned"]:
            out["kept"] = KEPT_AT_ZERO
        return out
    prep = live.prep
    lo, hi = (int(x) for x in np.searchsorted(prep.e_pair, [pair, pair + 1]))
    t0 = int(prep.qt_ptr[query])
    hit = {int(prep.e_qt[e]) - t0: e for e in range(lo, hi)}
    tokens = []
    for j, tok in enumerate(prep.tokens[query]):
        e = hit.get(j)
        tokens.append({"token": tok,
                       "location": LOCATIONS[int(prep.e_loc[e]) if e is not None else NONE],
                       "weight": float(live.weight[t0 + j]),
                       "generic": bool(prep.qt_generic[t0 + j]),
                       "points": float(live.points(np.array([e]))[0]) if e is not None
                       else 0.0})
    g = int(live.gate[pair])
    gate = GATES[g - 1] if g else None
    v = {k: float(x[0]) for k, x in live.at(np.array([pair])).items()}
    out.update(
        matched=True,
        score=v["final"] if g == 0 else 0.0,
        score_before_gate=v["final"],
        gate=gate,
        reason=gate_reason(gate, live.c) if gate else None,
        token_matches=tokens,
        strong_matches=int(prep.strong[pair]),
        meaningful_matches=int(prep.meaningful[pair]),
        lexical_before_damping=float(live.raw_lexical(np.array([pair]))[0]),
        lexical=v["lexical"],
        bonuses={k: v[k] for k in BONUSES},
        locality=LOCALITY[int(prep.locality[pair])],
        in_project=bool(prep.in_project[pair]),
        age_days=float(prep.age[pair]),
        total_before_rounding=v["total"],
    )
    if out["returned"] and out["score"] == 0:
        out["kept"] = KEPT_AT_ZERO
    return out
