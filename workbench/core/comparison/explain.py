"""Explaining a move within one model: one document's place, score, gates, min score and limit
under two configurations, gathered into a `MoveExplained`."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from workbench.core.compare import doc_contributions, gate_of, is_scored, pair_of
from workbench.core.comparison.move import MoveExplained
from workbench.core.comparison.result import Comparison
from workbench.core.comparison.undo import LIMIT_GATE, MIN_SCORE_GATE, declared, undo_each
from workbench.core.comparison.values import text_params
from workbench.core.comparison.words import _signed
from workbench.core.engine import Scores
from workbench.core.params import ParamValue, min_score_param
from workbench.core.pipeline import Result
from workbench.core.signal_labels import signal_labels

__all__ = ["LIMIT_GATE", "MIN_SCORE_GATE", "explain_move"]


def explain_move(comparison: Comparison, i: int, query: int, doc: int) -> MoveExplained:
    """`doc` for `query` under configuration 0 and configuration i, both of one model
    (`explain_pair` also takes two models)."""
    if not comparison.same_model(i):
        raise ValueError("configurations of different models: their signals do not compare "
                         "(explain_pair)")
    model = comparison.model_of(i)
    a, b = comparison.results[0], comparison.results[i]
    if a.scores.signals != b.scores.signals:
        raise ValueError("the two results have different signals")
    total_a, parts_a = doc_contributions(a.scores, query, doc)
    total_b, parts_b = doc_contributions(b.scores, query, doc)
    values_a, values_b = comparison.configs[0].params, comparison.configs[i].params
    changed = {n: (v, values_b[n]) for n, v in values_a.items() if v != values_b[n]}
    all_changed = changed
    gate_a, gate_b = gate_of(a.scores, query, doc), gate_of(b.scores, query, doc)
    if gate_a != gate_b:  # a gate moved it: the settings that decide that gate, where changed
        deciding = {p for g in (gate_a, gate_b) if g
                    for p in model.gate_params.get(g, ())}
        if deciding & changed.keys():
            changed = {n: v for n, v in changed.items() if n in deciding}
    rank_a, rank_b = _rank_of(a, query, doc), _rank_of(b, query, doc)
    kept = _kept_at_zero(comparison, i, (gate_a, gate_b), (rank_a, rank_b),
                         (total_a, total_b), (parts_a, parts_b), all_changed)
    if kept is not None:  # one gate, both sides: the min score moved it, and only that
        gate_a = gate_b = gate_a or gate_b
        parts_a, parts_b = np.zeros_like(parts_a), np.zeros_like(parts_b)
        total_a = total_b = 0.0
        if any(_is_min_score(n) for n in all_changed):
            changed = {n: v for n, v in all_changed.items() if _is_min_score(n)}
    above_a, above_b = _above(a, query, rank_a), _above(b, query, rank_b)
    beyond_a, tied_a, bound_a = (
        _place_beyond(a, query, doc, comparison.whole_scores(0))
        if rank_a is None and gate_a is None else (None, 0, False))
    beyond_b, tied_b, bound_b = (
        _place_beyond(b, query, doc, comparison.whole_scores(i))
        if rank_b is None and gate_b is None else (None, 0, False))
    # a model that records its own limit as a gate (decision-memory's over_limit, each case
    # with its top K): the document keeps its score there, ranked past the limit
    cut_limit: list[int | None] = [None, None]
    if gate_a == LIMIT_GATE:
        total_a = float(parts_a.sum())
        beyond_a, tied_a, above_a = _place_past_limit(a, query, total_a)
        gate_a, cut_limit[0] = None, int(a.ranking.count[query])
    if gate_b == LIMIT_GATE:
        total_b = float(parts_b.sum())
        beyond_b, tied_b, above_b = _place_past_limit(b, query, total_b)
        gate_b, cut_limit[1] = None, int(b.ranking.count[query])
    # a model that records its min score as a gate (decision-memory's below_min_score, the
    # min score of each query's mode): the document keeps its score, under that min score
    gate_floor: list[tuple[str, float] | None] = [None, None]
    if gate_a == MIN_SCORE_GATE:
        total_a, gate_a = float(parts_a.sum()), None
        gate_floor[0] = _gate_floor(comparison, 0, all_changed)
    if gate_b == MIN_SCORE_GATE:
        total_b, gate_b = float(parts_b.sum()), None
        gate_floor[1] = _gate_floor(comparison, i, all_changed)
    floor_a, floor_b = (gate_floor[side] or _floor(comparison, j, query, doc, rank, gate)
                        for side, j, rank, gate in ((0, 0, rank_a, gate_a),
                                                    (1, i, rank_b, gate_b)))
    if floor_a is not None:  # out of the list by its score, not by the depth compared
        beyond_a, tied_a = None, 0
    if floor_b is not None:
        beyond_b, tied_b = None, 0
    limit_a, limit_b = (cut_limit[side] or model.selection_params(
        model.schema.resolve(comparison.configs[j].params)).limit
        for side, j in ((0, 0), (1, i)))
    overtaken, overtook = len(above_b - above_a), len(above_a - above_b)
    # named only where its own score held (then they are what moved it), the first four
    fell = sorted(above_a - above_b, key=lambda d: _rank_of(a, query, d) or 0)
    same = not np.any(np.abs(parts_b - parts_a) > 1e-12)
    named = [_named_fall(comparison, i, query, d) for d in fell[:4]] if same else []
    # from or to below the depth compared: counted from its places (the lists stop short)
    if beyond_b is not None and rank_a is not None:
        overtaken = max(0, beyond_b - rank_a)
    if beyond_a is not None and rank_b is not None and cut_limit[0] is None:
        overtook = max(0, beyond_a - rank_b)
    return MoveExplained(query, doc, rank_a, rank_b,
                         total_a, total_b, a.scores.signals, parts_a, parts_b, changed,
                         is_scored(a.scores, query, doc), is_scored(b.scores, query, doc),
                         overtaken, overtook, gate_a, gate_b,
                         int(a.ranking.count[query]), int(b.ranking.count[query]),
                         beyond_a, beyond_b, tied_a, tied_b, floor_a, floor_b,
                         limit_a, limit_b, tuple(t for t, _ in named),
                         bound_a, bound_b,
                         tuple(signal_labels(model, a.scores.signals)),
                         tuple(sig for _, sig in named),
                         declared(model, all_changed),
                         comparison.configs[0].name, comparison.configs[i].name, kept,
                         # the settings said, each undone alone: one combine each, once a
                         # configuration, for the few documents a list of moves shows
                         undo_each(comparison, i, query, doc, changed, rank_a),
                         texts=text_params([model.schema]))


def _kept_at_zero(comparison: Comparison, i: int, gates: tuple[str | None, str | None],
                  ranks: tuple[int | None, int | None], totals: tuple[float, float],
                  parts: tuple[NDArray[np.float64], NDArray[np.float64]],
                  changed: dict[str, tuple[ParamValue, ParamValue]]
                  ) -> tuple[int, tuple[str, float]] | None:
    """(the side that returns it, its min score) where a scoring gate zeroed `doc` on one
    side and the other ranks it at 0 with no contribution under a min score of 0 or less:
    the gate still holds there (a model whose min score of 0 keeps every candidate returns
    the gated ones at 0, decision-memory's `floor.widen`), so only the min score moved it;
    None otherwise."""
    for gated, kept in ((0, 1), (1, 0)):
        gate = gates[gated]
        if (gate is None or gate in (LIMIT_GATE, MIN_SCORE_GATE) or gates[kept] is not None
                or ranks[kept] is None or ranks[gated] is not None or totals[kept] != 0
                or np.any(parts[kept] != 0)):
            continue
        floor = _gate_floor(comparison, (0, i)[kept], changed)
        if floor[1] <= 0:
            return kept, floor
    return None


def _named_fall(comparison: Comparison, i: int, query: int, doc: int) -> tuple[str, str]:
    """("qm-005 (superseded −13)", "superseded"): a document and the signal that changed
    most for it between configuration 0 and configuration i, by its shown name, and that
    signal's id ("" for none)."""
    _, parts_a = doc_contributions(comparison.results[0].scores, query, doc)
    _, parts_b = doc_contributions(comparison.results[i].scores, query, doc)
    diff = parts_b - parts_a
    name = comparison.dataset.corpus.ids[doc]
    s = int(np.argmax(np.abs(diff))) if len(diff) else 0
    if not len(diff) or abs(diff[s]) <= 1e-12:
        return name, ""
    signal = comparison.results[0].scores.signals[s]
    shown = signal_labels(comparison.model_of(i), [signal])[0]
    return f"{name} ({shown} {_signed(float(diff[s]))})", signal


def _place_past_limit(result: Result, query: int, mine: float
                      ) -> tuple[int, int, set[int]]:
    """(place, ties, the documents above it) of a document the model's limit gate left
    out, by the scores it and the others past the limit would have: every ranked document
    is above it, then those past the limit that score more."""
    ranked = {int(d) for d in result.ranking.docs[query, :int(result.ranking.count[query])]}
    scores = result.scores
    row = scores.row(query)
    pairs = np.arange(row.start, row.stop, dtype=np.intp)
    cut = scores.gate[pairs] == scores.gates.index(LIMIT_GATE) + 1
    would = scores.contributions_of(pairs[cut]).sum(axis=0)
    docs = scores.docs[pairs[cut]]
    above = ranked | {int(d) for d in docs[would > mine]}
    return len(above) + 1, int(np.count_nonzero(would == mine)) - 1, above


def _gate_floor(comparison: Comparison, j: int,
                changed: dict[str, tuple[ParamValue, ParamValue]]) -> tuple[str, float]:
    """(the min score, its value) that a model's min-score gate applied under configuration
    j: the changed parameter named for a min score (inject_min_score 8 → 30), its value
    under j; else the model's single min score, if it states one; else its name alone."""
    model = comparison.model_of(j)
    params = model.schema.resolve(comparison.configs[j].params)
    names = [n for n in changed if _is_min_score(n)]
    if names:
        return names[0], float(params[names[0]])
    value = model.selection_params(params).min_score
    first = min_score_param(model.schema)
    if value is not None and first is not None:
        return first.name, float(value)
    return "its min score", float("nan")


def _is_min_score(name: str) -> bool:
    return any(part in name.lower() for part in ("min_score", "min_similarity", "minscore"))


def _floor(comparison: Comparison, j: int, query: int, doc: int, rank: int | None,
           gate: str | None) -> tuple[str, float] | None:
    """(the min score, its value) where configuration j left `doc` unranked for `query`
    because its score fell under it; None otherwise."""
    if rank is not None or gate is not None:
        return None
    model = comparison.model_of(j)
    params = model.schema.resolve(comparison.configs[j].params)
    value = model.selection_params(params).min_score  # the cut the model makes, if one
    res = comparison.results[j]
    if value is None or not is_scored(res.scores, query, doc):
        return None
    total, _ = doc_contributions(res.scores, query, doc)
    if total >= value:
        return None
    # named by the parameter that holds it (dense's min_similarity, pi-lodestone's inject or
    # search min score by mode), not by a name alone (codeledger's overshoot_min_score cuts
    # no ranking)
    names = [p.name for p in model.schema if p.kind in ("float", "int")
             and any(part in p.name.lower() for part in ("min_score", "min_similarity",
                                                         "minscore"))
             and float(params[p.name]) == value]
    first = min_score_param(model.schema)
    name = first.name if first is not None and first.name in names else \
        names[0] if names else "the min score"
    return name, float(value)


def _above(result: Result, query: int, rank: int | None) -> set[int]:
    """The documents ranked above rank `rank` (1-based) for `query`; none when unranked."""
    if rank is None:
        return set()
    return {int(d) for d in result.ranking.docs[query, :rank - 1]}


def _rank_of(result: Result, query: int, doc: int) -> int | None:
    row = result.ranking.docs[query, :int(result.ranking.count[query])]
    hit = np.flatnonzero(row == doc)
    return int(hit[0]) + 1 if hit.size else None


def _place_beyond(result: Result, query: int, doc: int, whole: Scores | None = None
                  ) -> tuple[int | None, int, bool]:
    """(place, ties, bound): where the ranking stopped short of `doc` (its depth) though it
    was scored and not gated, its place in the full order of `query`'s candidates (the first
    of its ties) and how many others share its score; (None, 0, False) otherwise. `whole`:
    the scores of every pair, where the result's own table kept only those a ranking to its
    depth can reach (hybrid; `Comparison.whole_scores`): the place is counted there, as
    `explain` counts it. `bound`: the pruned table is all there was, so the place is only
    where it is at the least (documents left out of it may score more)."""
    if int(result.ranking.count[query]) < result.ranking.docs.shape[1]:
        return None, 0, False  # the list is not full: a min score or a limit left it out
    pruned = result.scores.elsewhere is not None
    for scores in ((whole,) if whole is not None else ()) + (result.scores,):
        pair = pair_of(scores, query, doc)
        if pair < 0:
            continue
        totals = scores.total[scores.row(query)]
        mine = float(scores.total[pair])
        if not np.isfinite(mine):
            return None, 0, False
        return (int(np.count_nonzero(totals > mine)) + 1,
                int(np.count_nonzero(totals == mine)) - 1, pruned and scores is not whole)
    return None, 0, False
