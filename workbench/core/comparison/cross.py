"""A move between configurations of two models (`CrossMove`): their scores share no scale, so
each side says its own place, score and signals; `explain_pair` picks this or explain_move."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from workbench.core.compare import doc_contributions, gate_of, is_scored
from workbench.core.comparison.explain import (
    LIMIT_GATE,
    MIN_SCORE_GATE,
    _floor,
    _gate_floor,
    _rank_of,
    explain_move,
)
from workbench.core.comparison.move import MoveExplained
from workbench.core.comparison.result import Comparison
from workbench.core.comparison.words import _floor_text, _move_words, _number
from workbench.core.signal_labels import signal_labels


@dataclass(frozen=True)
class CrossMove:
    """One document of one query under configuration 0 (`a`) and configuration i (`b`) of
    another model: each side's place, score and signals. Two models' scores are on no common
    scale (a bm25 sum against codeledger's weighted 0–1 signals), so no difference of
    scores or signals is taken: the places compare, and each side says what scored it."""

    query: int
    doc: int
    rank_a: int | None
    rank_b: int | None
    # each side's score; where its own min score or limit left the document out (a gate
    # that keeps the score, or a list cut short), the score it has there
    total_a: float
    total_b: float
    # each side's signals, their shown names and this document's contributions
    signals_a: tuple[str, ...]
    signals_b: tuple[str, ...]
    labels_a: tuple[str, ...]
    labels_b: tuple[str, ...]
    contributions_a: NDArray[np.float64]
    contributions_b: NDArray[np.float64]
    model_a: str
    model_b: str
    name_a: str
    name_b: str
    scored_a: bool = True  # False: not a candidate there (its zeros are no score)
    scored_b: bool = True
    gate_a: str | None = None  # the gate that held it at 0 there (None: none did)
    gate_b: str | None = None
    depth_a: int = 0  # how many results each side returned for the query
    depth_b: int = 0
    # whether each side's list ran to the depth ranked (False: a min score, a limit or the
    # candidates ran out first, so a document it leaves out was not returned, not "below")
    full_a: bool = True
    full_b: bool = True
    # what left it out of a side's list where that side's own selection did: "under
    # min_score 0.5", "past the limit of 3" ("" where nothing, or not known)
    cut_a: str = ""
    cut_b: str = ""

    def _side(self, side: int, top: int) -> str:
        """"bm25 scores it 12.3"; "codeledger scores it 0.83 (content 0.5, …)"; "… is not a
        candidate"; "… holds it at 0 (the archived gate)"; "…, under min_score 0.5"."""
        name, model = (self.name_a, self.model_a) if side == 0 else (self.name_b, self.model_b)
        who = name if name == model else f"{name} ({model})"
        scored, gate = (self.scored_a, self.gate_a) if side == 0 else (self.scored_b, self.gate_b)
        if not scored:
            return f"{who} does not score it (not a candidate)"
        if gate:
            return f"{who} holds it at 0 (the {gate} gate)"
        total = self.total_a if side == 0 else self.total_b
        parts = self.contributions_a if side == 0 else self.contributions_b
        labels = self.labels_a if side == 0 else self.labels_b
        cut = self.cut_a if side == 0 else self.cut_b
        order = [int(s) for s in np.argsort(-np.abs(parts), kind="stable")[:top]
                 if abs(parts[s]) > 1e-12]
        signals = ", ".join(f"{labels[s]} {_number(float(parts[s]))}" for s in order)
        if len(parts) == 1:  # one signal is the total (bm25's one sum): said once
            signals = ""
        return (f"{who} scores it {_number(total)}" + (f" ({signals})" if signals else "")
                + (f", {cut}" if cut else ""))

    def sentence(self, top: int = 3) -> str:
        """'moved from 7 to 2: bm25 scores it 12.3; codeledger scores it 0.83 (content 0.5,
        named in the task 0.3)'."""
        below_a = (f"below the top {self.depth_a}" if self.rank_a is None and self.scored_a
                   and not self.gate_a and not self.cut_a and self.depth_a and self.full_a
                   else None)
        below_b = (f"below the top {self.depth_b}" if self.rank_b is None and self.scored_b
                   and not self.gate_b and not self.cut_b and self.depth_b and self.full_b
                   else None)
        where = _move_words(self.rank_a, self.rank_b, below_a, below_b)
        # that the two scales do not compare is said once, where the moves are listed
        return f"{where}: {self._side(0, top)}; {self._side(1, top)}"


def explain_pair(comparison: Comparison, i: int, query: int, doc: int
                 ) -> MoveExplained | CrossMove:
    """`doc` for `query` under configuration 0 and configuration i: `explain_move` where both
    are of one model; each side's own place, score and signals where they are not."""
    if comparison.same_model(i):
        return explain_move(comparison, i, query, doc)
    sides = [_cross_side(comparison, j, query, doc) for j in (0, i)]
    (rank_a, total_a, parts_a, gate_a, cut_a), (rank_b, total_b, parts_b, gate_b, cut_b) = sides
    a, b = comparison.results[0], comparison.results[i]
    return CrossMove(query, doc, rank_a, rank_b, total_a, total_b,
                     a.scores.signals, b.scores.signals,
                     tuple(signal_labels(comparison.model_of(0), a.scores.signals)),
                     tuple(signal_labels(comparison.model_of(i), b.scores.signals)),
                     parts_a, parts_b, comparison.model_of(0).id, comparison.model_of(i).id,
                     comparison.configs[0].name, comparison.configs[i].name,
                     is_scored(a.scores, query, doc), is_scored(b.scores, query, doc),
                     gate_a, gate_b,
                     int(a.ranking.count[query]), int(b.ranking.count[query]),
                     int(a.ranking.count[query]) >= a.ranking.docs.shape[1],
                     int(b.ranking.count[query]) >= b.ranking.docs.shape[1],
                     cut_a, cut_b)


def _cross_side(comparison: Comparison, j: int, query: int, doc: int
                ) -> tuple[int | None, float, NDArray[np.float64], str | None, str]:
    """(rank, score, contributions, gate, cut) of `doc` under configuration j alone, for a
    move between two models: a gate that records the model's own min score or limit
    (decision-memory's) is no gate here but a cut, the score kept; an unranked document
    under the min score, or past the limit of a list cut short, says so."""
    res = comparison.results[j]
    model = comparison.model_of(j)
    params = model.schema.resolve(comparison.configs[j].params)
    total, parts = doc_contributions(res.scores, query, doc)
    gate = gate_of(res.scores, query, doc)
    rank = _rank_of(res, query, doc)
    cut = ""
    if gate == MIN_SCORE_GATE:
        total, gate = float(parts.sum()), None
        cut = f"under {_floor_text(_gate_floor(comparison, j, {}))}"
    elif gate == LIMIT_GATE:
        total, gate = float(parts.sum()), None
        cut = f"past the limit of {int(res.ranking.count[query])}"
    elif rank is None and gate is None and is_scored(res.scores, query, doc):
        floor = _floor(comparison, j, query, doc, None, None)
        limit = model.selection_params(params).limit
        if floor is not None:
            cut = f"under {_floor_text(floor)}"
        elif limit is not None and int(res.ranking.count[query]) >= limit:
            cut = f"past the limit of {limit}"
    return rank, total, parts, gate, cut
