"""Explain one (query, memory) pair: the clock ages count to and where it comes from, every
boost with what fired it, every decay, the clamp, the band and its behaviour, the pre-filter's
three tests and the relevance."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from workbench.core.data import Dataset
from workbench.core.models.clock import when
from workbench.core.models.decision_memory.project import parse_time
from workbench.core.models.importance.combine import (
    Importance,
    days_inactive,
    gate_table,
    gates,
    importance_table,
    relevance,
)
from workbench.core.models.importance.params import GATES
from workbench.core.models.importance.prepared import ImportancePrepared, clock_source
from workbench.core.models.importance.rules import CATEGORIES, OUTCOMES, TIERS, band
from workbench.core.params import Params


def _gate(prep: ImportancePrepared, params: Params, imp: Importance, clock: int,
          doc: int) -> str | None:
    g = int(gates(prep, params, imp, np.array([clock], np.int64),
                  np.array([doc], np.int32))[0])
    return GATES[g - 1] if g else None


def explain_pair(prep: ImportancePrepared, dataset: Dataset, query: int, doc: int,
                 params: Params) -> dict[str, Any]:
    imp = importance_table(prep, params)
    u = int(prep.query_clock[query])
    parts = imp.parts[:, u, doc]
    final = float(imp.final[u, doc])
    stats = prep.bm25
    row = slice(int(stats.row_ptr[query]), int(stats.row_ptr[query + 1]))
    at = np.flatnonzero(stats.cand[row] == doc)
    rel = 0.0
    if len(at):
        pair_gate = np.take(gate_table(prep, params, imp).reshape(-1), prep.pair_flat)
        rel = float(relevance(prep, params, pair_gate)[row.start + int(at[0])])
    t, o = int(prep.tier[doc]), int(prep.outcome[doc])
    phrases = prep.phrases[doc]
    boosts = []
    for i, c in enumerate(CATEGORIES):
        if not imp.fired[i, doc]:
            continue
        why = list(phrases[c])
        marks = int(params["exclamation_min"])
        if c == "emotion" and marks > 0 and prep.exclaim[doc] >= marks:
            why.append(f"{int(prep.exclaim[doc])} exclamation marks")
        if c == "failure" and params["outcome_fires_failure"] and o == OUTCOMES.index("failure"):
            why.append("outcome: failure")
        if c == "correction" and prep.contradicts[doc]:
            why.append("contradicts a previous memory")
        boosts.append({"category": c, "boost": float(parts[1 + i]), "fired_by": why})
    days = float(days_inactive(prep, params)[u, doc])
    # where the days come from: said beside the number, and by the pre-filter's test, which
    # an undated memory passes at undated_days = 0 (dr3 2)
    doc_meta = dataset.corpus[doc].metadata
    since = ("no readable created_at or last_accessed; the undated_days parameter"
             if prep.undated[doc]
             else "last_accessed" if not math.isnan(parse_time(doc_meta.get("last_accessed")))
             else "created_at")
    clock = float(prep.clocks[u])
    tier = TIERS[t] if t >= 0 else str(params["default_tier"])
    stale_rate = {"long": "stale_long", "medium": "stale_medium"}.get(tier, "stale_short")
    if tier == "ultra-short" and params["ultra_short_own_decay"]:
        stale_rate = "stale_ultra_short"
    dismiss = float(params["dismissal"]) * int(prep.dismissals[doc])
    sup = (0.0 if params["superseded_archive"] else float(params["superseded_decay"])) \
        * bool(prep.superseded[doc])
    stale = -float(parts[-2]) - dismiss - sup  # decay part = −(staleness + dismissal + sup)
    decays = [{"decay": "staleness", "value": -stale,
               "days_inactive": days, "per_day": float(params[stale_rate])},
              {"decay": "dismissal", "value": -dismiss, "dismissals": int(prep.dismissals[doc])},
              {"decay": "superseded", "value": -sup}]
    name, behaviour = band(final, (float(params["resurface_threshold"]),
                                   float(params["standard_threshold"]),
                                   float(params["short_threshold"]),
                                   float(params["archive_threshold"])))
    resurface = (final > float(params["resurface_threshold"])
                 and int(prep.dismissals[doc]) < int(params["resurface_dismissals"]))
    return {
        "doc": dataset.corpus[doc].id,
        "query": dataset.queries[query].text,
        # the clock every age is counted to, and whose it is: a typed query (no `now`) and the
        # dataset's own queries may be scored at different clocks
        "clock": when(clock) if not math.isnan(clock) else None,
        "clock_from": clock_source(dataset, params, query)[1],
        "tier": tier,
        "outcome": OUTCOMES[o] if o >= 0 else None,
        "base": float(parts[0]),
        "boosts": boosts,
        "outcome_boost": float(parts[-4]),
        "mentions": int(prep.mentions[doc]),
        "repetition": float(parts[-3]),
        "days_inactive": days,
        "days_inactive_from": since,
        "decays": [d for d in decays if d["value"] != 0.0],
        "clamp": float(parts[-1]),
        "importance": final,
        "stored_importance": float(imp.stored[doc]),
        "band": name,
        "behaviour": behaviour,
        "resurface": resurface,
        "pre_filter": {
            "current_relevance": final > float(params["prefilter_current"]),
            "recently_accessed": days < float(params["prefilter_days"]),
            **({"days_inactive": f"{days:g} ({since})"} if prep.undated[doc] else {}),
            "important": float(imp.stored[doc]) > float(params["prefilter_importance"]),
        },
        "relevance_kind": str(params["relevance"]),
        "relevance": rel,
        "total": rel * final,
        "gate": _gate(prep, params, imp, u, doc),
        # the document's form (ranked by relevance × importance): the contributions add up
        # to the same total, with relevance as the part the product takes off or adds
        "formula": _formula(final, rel, parts, boosts, decays),
    }


def _formula(final: float, rel: float, parts: Any, boosts: list[dict[str, Any]],
             decays: list[dict[str, Any]]) -> str:
    terms = [f"base {float(parts[0]):.6g}",
             *(f"{b['category']} {b['boost']:.6g}" for b in boosts),
             *(f"{name} {float(v):.6g}" for name, v in (("outcome", parts[-4]),
                                                        ("repetition", parts[-3])) if v),
             *(f"{d['decay']} {d['value']:.6g}" for d in decays if d["value"])]
    clamp = float(parts[-1])
    # float noise is no clamp ("clamped by -2.77556e-17" where nothing was)
    clamped = f", clamped by {clamp:+.6g}" if abs(clamp) > 1e-9 else ""
    return (f"importance {final:.6g} × relevance {rel:.6g}   "
            f"(importance = {' + '.join(terms)}{clamped})")
