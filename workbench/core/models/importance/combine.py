"""Combine: the live parameters applied to the prepared arrays, vectorised.

Importance is computed for every (clock, memory) at once — U × N, U the distinct pinned clocks
(usually 1) — then gathered onto the (query, memory) candidate pairs and multiplied by the
relevance:

    importance = min(cap if dismissed ≥ n, clamp₀¹(base + Σ boosts + outcome + repetition − decays))
    total      = relevance × importance        (0 where a gate zeroed it)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from workbench.core.engine import Scores
from workbench.core.models.bm25 import BM25Model
from workbench.core.models.importance.params import GATES
from workbench.core.models.importance.prepared import ImportancePrepared
from workbench.core.models.importance.rules import CATEGORIES, DIGITS, OUTCOMES, TIERS
from workbench.core.params import Params

_C = {c: i for i, c in enumerate(CATEGORIES)}


@dataclass(frozen=True)
class Importance:
    """Importance of every memory at every clock.

    parts:  float64 (C + 5, U, N)  base, the C categories, outcome, repetition, decay (≤ 0),
                                   clamp — summing to `final`
    final:  float64 (U, N)         the importance ("current relevance")
    stored: float64 (N,)           clamp₀¹(base + boosts + outcome + repetition): before decays
    fired:  bool (C, N)            categories fired (phrases, exclamations, outcome, contradiction)
    """

    parts: NDArray[np.float64]
    final: NDArray[np.float64]
    stored: NDArray[np.float64]
    fired: NDArray[np.bool_]


def days_inactive(prep: ImportancePrepared, params: Params) -> NDArray[np.float64]:
    """float64 (U, N): days since each memory's last access at each clock; `undated_days`
    where the memory has no readable last_accessed or created_at (dr3 2)."""
    out: NDArray[np.float64] = np.where(prep.undated, float(params["undated_days"]),
                                        prep.inactive)
    return out


def importance_table(prep: ImportancePrepared, params: Params) -> Importance:
    def f(name: str) -> float:
        return float(params[name])

    tier = np.where(prep.tier >= 0, prep.tier, TIERS.index(str(params["default_tier"])))
    base = np.array([f(f"base_{t.replace('-', '_')}") for t in TIERS])[tier]
    fired = prep.fired.copy()
    marks = int(params["exclamation_min"])
    if marks > 0:
        fired[_C["emotion"]] |= prep.exclaim >= marks
    if params["outcome_fires_failure"]:
        fired[_C["failure"]] |= prep.outcome == OUTCOMES.index("failure")
    fired[_C["correction"]] |= prep.contradicts
    boosts = fired * np.array([f(f"boost_{c}") for c in CATEGORIES])[:, None]
    out_vals = np.array([f(f"outcome_{o}") for o in OUTCOMES] + [0.0])
    outcome = out_vals[prep.outcome]  # -1 picks the trailing 0
    rep = np.minimum(f("repeat_cap"), f("repeat_per") * np.maximum(
        0, prep.mentions - int(params["repeat_free"])))
    # staleness per tier (ultra-short follows short unless ultra_short_own_decay)
    ultra = ("stale_ultra_short", "stale_ultra_short_days") if params["ultra_short_own_decay"] \
        else ("stale_short", "stale_short_days")
    per_day = np.array([f(ultra[0]), f("stale_short"), f("stale_medium"),
                        f("stale_long")])[tier]
    grace = np.array([f(ultra[1]), f("stale_short_days"),
                      f("stale_medium_days"), f("stale_long_days")])[tier]
    inactive = days_inactive(prep, params)
    days = np.floor(inactive) if params["whole_days"] else inactive
    stale = per_day * np.maximum(0.0, days - grace)
    sup = 0.0 if params["superseded_archive"] else f("superseded_decay")
    decay = 0.0 - (stale + f("dismissal") * prep.dismissals + sup * prep.superseded)  # no −0
    stored_raw = base + boosts.sum(axis=0) + outcome + rep
    raw = stored_raw + decay
    final = np.clip(raw, 0.0, 1.0)
    capped = prep.dismissals >= int(params["dismiss_cap_count"])
    final = np.round(np.where(capped, np.minimum(final, f("dismiss_cap")), final), DIGITS)
    u, n = final.shape
    parts = np.empty((len(CATEGORIES) + 5, u, n))
    parts[0] = base
    parts[1:1 + len(CATEGORIES)] = boosts[:, None, :]
    parts[-4] = outcome
    parts[-3] = rep
    parts[-2] = decay
    parts[-1] = final - raw
    return Importance(parts, final, np.clip(stored_raw, 0.0, 1.0), fired)


def relevance(prep: ImportancePrepared, params: Params,
              gate: NDArray[np.int8] | None = None) -> NDArray[np.float64]:
    """float64 (P,): the chosen relevance of every candidate pair. Read-only when it is the
    prepared coverage. bm25-max divides by each query's best over the pairs no gate zeroes
    (`gate`, per pair): the memories the pre-filter, archive and supersession keep out are not
    searched, so their scores set no scale (a gated pair's relevance is what it would score)."""
    if params["relevance"] == "coverage":
        return prep.coverage  # no live parameter touches it
    stats = prep.bm25
    bparams = BM25Model.schema.resolve({"k1": params["k1"], "b": params["b"]})
    raw = BM25Model().pair_scores(stats, bparams)
    if params["relevance"] == "bm25":
        return raw
    # bm25-max: each query's scores divided by its best one (rows are never empty here)
    lengths = np.diff(stats.row_ptr)
    full = lengths > 0
    best = np.zeros(len(lengths))
    if len(raw):
        searched = raw if gate is None else np.where(gate == 0, raw, 0.0)
        best[full] = np.maximum.reduceat(searched, stats.row_ptr[:-1][full])
    # one divisor per query, spread along its row (a repeat, not a gather)
    np.divide(raw, np.repeat(np.where(best > 0, best, 1.0), lengths), out=raw)
    return raw


def gate_table(prep: ImportancePrepared, params: Params, imp: Importance) -> NDArray[np.int8]:
    """int8 (U, N): for every (clock, memory), 1 + index into GATES of the first gate that zeroes
    it, else 0. Every gate reads only the memory and the clock, never the query, so it is decided
    per memory and gathered onto the pairs."""
    final = imp.final
    shape = final.shape
    gate = np.zeros(shape, np.int8)
    checks = {
        "superseded": np.broadcast_to(prep.superseded & bool(params["superseded_archive"]),
                                      shape),
        "archived": (final < float(params["archive_threshold"]))
        & bool(params["exclude_archived"]),
        "pre-filter": ~((final > float(params["prefilter_current"]))
                        | (days_inactive(prep, params) < float(params["prefilter_days"]))
                        | (imp.stored > float(params["prefilter_importance"]))[None, :])
        & bool(params["prefilter"]),
    }
    for name in reversed(GATES):  # the first gate in GATES wins
        gate[checks[name]] = GATES.index(name) + 1
    return gate


def gates(prep: ImportancePrepared, params: Params, imp: Importance,
          clock: NDArray[np.int64], docs: NDArray[np.int32]) -> NDArray[np.int8]:
    """int8 (P,): 1 + index into GATES of the first gate that zeroes the pair, else 0."""
    out: NDArray[np.int8] = gate_table(prep, params, imp)[clock, docs]
    return out


def combine_importance(prep: ImportancePrepared, params: Params,
                       signals: tuple[str, ...]) -> Scores:
    stats = prep.bm25
    imp = importance_table(prep, params)
    table = gate_table(prep, params, imp)
    # per (clock, memory): the importance where no gate zeroes it, else 0; then one gather
    # each onto the pairs. rel × 0 is 0 (rel ≥ 0), so total = where(gate == 0, rel × value, 0).
    kept = np.where(table == 0, imp.final, 0.0)
    gate = np.take(table.reshape(-1), prep.pair_flat)
    rel = relevance(prep, params, gate)
    total = np.take(kept.reshape(-1), prep.pair_flat)
    total *= rel

    def parts(pairs: NDArray[np.intp]) -> NDArray[np.float64]:
        c, d = np.divmod(prep.pair_flat[pairs], max(prep.n_docs, 1))
        out = np.empty((len(signals), len(pairs)))
        out[:-1] = imp.parts[:, c, d]
        out[-1] = (rel[pairs] - 1.0) * imp.final[c, d]
        return out

    return Scores(row_ptr=stats.row_ptr, docs=stats.cand, total=total, gate=gate,
                  signals=signals, parts=parts, gates=GATES)
