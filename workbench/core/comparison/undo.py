"""What each changed setting did to one moved document, measured: the setting undone alone (set
back to the first configuration's value, the others kept at the second's) and the query scored
again on the prepared state, the document's place and score then set against the second's.

A live setting is one combine on the second configuration's prepared state ("prepare once,
combine live"); a prepare-stage one is measured only where undoing it gives the first
configuration's prepared state, which the comparison holds. The others are tied to a signal
by the model's declaration (`Model.prepare_signals`) or by a name that contains the signal's.
Each undone setting costs one combine of the configuration, kept in the comparison for the
next document of that configuration: only the few documents a list of moves shows ask.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from workbench.core.compare import gate_of, pair_of
from workbench.core.comparison.result import Comparison
from workbench.core.comparison.words import _signed
from workbench.core.engine import Model, Ranking, Scores
from workbench.core.params import Params, ParamValue
from workbench.core.pipeline import run_live

# the gate a model records its own min score with (decision-memory: each query's mode's); a
# document it cut keeps its score, under the min score (models name it so)
MIN_SCORE_GATE = "below_min_score"

# the gate a model records its own limit with (decision-memory: each case's top K); a
# document it cut is past the limit, not filtered (models name it so; engine declares none)
LIMIT_GATE = "over_limit"


@dataclass(frozen=True)
class Undone:
    """One document with one changed setting undone alone, against the second configuration
    with every change (both scored the same way, `run_live` without judgments)."""

    rank: int | None  # its place then (None: not in the list)
    rank_before: int | None  # its place under the second configuration, scored alike
    back_to: int | None  # its place under the first configuration (None: not in the list)
    total_delta: float  # its score then − its score under the second (0 where not comparable)
    depth: int  # how deep the lists were ranked: a place past it is "not in the list"

    def _place(self, rank: int | None) -> int:
        return self.depth + 1 if rank is None else rank

    @property
    def places(self) -> int:
        """Places the change itself moved the document up: its place with the setting undone
        minus its place as changed (negative: the change moved it down)."""
        return self._place(self.rank) - self._place(self.rank_before)

    @property
    def gain(self) -> float:
        """What the change itself added to the document's score (0 where not comparable)."""
        return -self.total_delta

    def side(self, rose: bool, gained: float) -> int:
        """1 where the change alone moved the document the way it moved, -1 where it held it
        back, 0 where it moves it not at all: by places against the move (`rose`: it went
        up), else by score against its own score's change (`gained`; scores compare within
        one query only, so a place is not weighed against a score)."""
        if self.places:
            return 1 if (self.places > 0) == rose else -1
        if abs(self.gain) <= 1e-9 or abs(gained) <= 1e-9:
            return 0
        return 1 if (self.gain > 0) == (gained > 0) else -1

    @property
    def moves(self) -> bool:
        """Whether undoing it alone changes the document's place or score."""
        return self.rank != self.rank_before or abs(self.total_delta) > 1e-9

    def text(self) -> str:
        """What the second configuration gives with only this setting set back to the first's
        value: "only it set back: at 11; score −0.307 from it" (its place then, not its place
        under the first configuration; what the change added to its score); "only it set
        back: score +11 from it"; "" where nothing moves. ("alone: 11 → 6"
        had read as the change made on its own, whose place differs: dr7 2.)"""
        parts = []
        if self.rank != self.rank_before:
            parts.append("out of the list" if self.rank is None else f"at {self.rank}")
        if abs(self.total_delta) > 1e-9:
            parts.append(f"score {_signed(self.gain)} from it")
        return f"only it set back: {'; '.join(parts)}" if parts else ""


@dataclass(frozen=True)
class _Run:
    """One configuration scored with one setting undone: what a document's place and score
    are read from (its scores without their contributions, which can be large)."""

    scores: Scores
    ranking: Ranking


def undo_each(comparison: Comparison, i: int, query: int, doc: int,
              changed: dict[str, tuple[ParamValue, ParamValue]], back_to: int | None
              ) -> dict[str, Undone]:
    """Per changed setting that can be scored again here, `doc`'s place and score for `query`
    with that setting alone set back to configuration 0's value. `back_to`: its place under
    configuration 0. Settings no score moves with on this data (`Comparison.untested`) are
    not run, and move nothing; those that cannot be scored again are left out (see the
    module)."""
    model = comparison.model_of(i)
    if i >= len(comparison.prepared) or not changed:
        return {}
    inert = comparison.untested(i)
    base = _run(comparison, i, "", model, comparison.prepared[i], _params(comparison, i, None))
    depth = base.ranking.docs.shape[1]
    rank_before, total_before = _place(base, query, doc)
    out: dict[str, Undone] = {}
    for name in changed:
        if name in inert:  # nothing it could move: measured as moving nothing
            out[name] = Undone(rank_before, rank_before, back_to, 0.0, depth)
            continue
        try:  # a value the others at the second's do not admit is not scored again
            state = _state_for(comparison, i, name)
            if state is None:
                continue
            run = _run(comparison, i, name, model, state, _params(comparison, i, name))
        except ValueError:
            continue
        rank, total = _place(run, query, doc)
        delta = total - total_before if total is not None and total_before is not None else 0.0
        out[name] = Undone(rank, rank_before, back_to, delta, depth)
    return out


def _params(comparison: Comparison, i: int, undone: str | None) -> Params:
    """Configuration i's values, with `undone` set back to configuration 0's."""
    values = dict(comparison.configs[i].params)
    if undone is not None:
        values[undone] = comparison.configs[0].params[undone]
    return comparison.model_of(i).schema.resolve(values)


def _state_for(comparison: Comparison, i: int, name: str) -> Any | None:
    """The prepared state configuration i's values with `name` undone combine on: its own for
    a live setting; for a prepare-stage one, configuration 0's where undoing it makes the
    prepare-stage values configuration 0's (None otherwise: not scored again)."""
    model = comparison.model_of(i)
    if model.schema[name].stage == "live":
        return comparison.prepared[i]
    first = comparison.model_of(0)
    if first.id != model.id or not comparison.prepared:
        return None
    undone = model.schema.prepare_values(_params(comparison, i, name))
    if undone != first.schema.prepare_values(first.schema.resolve(comparison.configs[0].params)):
        return None
    return comparison.prepared[0]


def _run(comparison: Comparison, i: int, name: str, model: Model, state: Any,
         params: Params) -> _Run:
    """Configuration i scored with `name` undone ("": as it is), once per comparison."""
    key = (i, name)
    cached = comparison.undone_runs.get(key)
    if isinstance(cached, _Run):
        return cached
    depth = max(1, comparison.results[i].ranking.docs.shape[1])
    res = run_live(model, state, params, None, [], depth)
    # the totals and gates are what a place and a score are read from: the contributions'
    # closure (a table of every pair's signals) and a pruned table's lookup are let go
    scores = res.scores
    total, gate = scores.total, scores.gate
    # a document a model's own min score or limit left out keeps its score (the gate records
    # the cut): its score is read as it is, the cut from its place
    kept = [scores.gates.index(g) + 1 for g in (MIN_SCORE_GATE, LIMIT_GATE) if g in scores.gates]
    if kept and len(gate):
        cut = np.flatnonzero(np.isin(gate, kept))
        if cut.size:
            total = total.copy()
            total[cut] = scores.contributions_of(cut).sum(axis=0)
            gate = np.where(np.isin(gate, kept), 0, gate).astype(gate.dtype)
    scores = dataclasses.replace(scores, total=total, gate=gate, parts=_no_parts,
                                 elsewhere=None)
    run = _Run(scores, res.ranking)
    comparison.undone_runs[key] = run
    return run


def _no_parts(pairs: NDArray[np.intp]) -> NDArray[np.float64]:
    raise RuntimeError("an undone run keeps no contributions")


def _place(run: _Run, query: int, doc: int) -> tuple[int | None, float | None]:
    """(its place, its score) in `run`; the score None where it is gated or no candidate."""
    row = run.ranking.docs[query, :int(run.ranking.count[query])]
    hit = np.flatnonzero(row == doc)
    rank = int(hit[0]) + 1 if hit.size else None
    pair = pair_of(run.scores, query, doc)
    if pair < 0 or gate_of(run.scores, query, doc) is not None:
        return rank, None
    return rank, float(run.scores.total[pair])


def declared(model: Model, changed: dict[str, tuple[ParamValue, ParamValue]]
             ) -> dict[str, tuple[str, ...]]:
    """Per signal of `model`, the parameters of `changed` tied to it without measuring: the
    model's declaration (`Model.prepare_signals`), or a name that contains the signal's
    (w_tf, superseded_penalty)."""
    out: dict[str, tuple[str, ...]] = {}
    for signal in model.signals:
        listed = model.prepare_signals.get(signal.name, ())
        tied = tuple(n for n in changed if n in listed or signal.name in n)
        if tied:
            out[signal.name] = tied
    return out


