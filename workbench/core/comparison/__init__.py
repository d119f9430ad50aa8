"""Several named configurations of one model on one dataset, side by side: what `workbench
compare` prints and the report shows.

A configuration is a name and the model's parameter values (a params TOML file, the session's
sliders, a tuned result). Configurations sharing their prepare-stage values share one prepared
state; each is then one live combine, exactly what `eval` runs for those values.

- `compare_configurations`: every configuration's result; per metric, each one's mean, its
  difference from the first, the paired randomisation test against the first (p-value, queries
  improved and worsened), and the per-query differences.
- `explain_move`: one document of one query under the first configuration and another, rank
  and per-signal contributions on each side, their difference, and one sentence saying it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from workbench.core.compare import doc_contributions, gate_of, is_scored, pair_of
from workbench.core.comparison.configuration import Configuration, configuration_file, differing
from workbench.core.comparison.result import Comparison, MetricRow, data_notes
from workbench.core.comparison.run import compare_configurations, higher_is_better
from workbench.core.engine import Model, Scores
from workbench.core.params import ParamValue, min_score_param, value_text
from workbench.core.pipeline import Result
from workbench.core.signal_labels import signal_labels

__all__ = [
    "LIMIT_GATE",
    "MIN_SCORE_GATE",
    "Comparison",
    "Configuration",
    "CrossMove",
    "MetricRow",
    "MoveExplained",
    "_signed",
    "compare_configurations",
    "configuration_file",
    "data_notes",
    "differing",
    "explain_move",
    "explain_pair",
    "higher_is_better",
]


# the gate a model records its own min score with (decision-memory: each query's mode's); a
# document it cut keeps its score, under the min score (models name it so)
MIN_SCORE_GATE = "below_min_score"

# the gate a model records its own limit with (decision-memory: each case's top K); a
# document it cut is past the limit, not filtered (models name it so; engine declares none)
LIMIT_GATE = "over_limit"


@dataclass(frozen=True)
class MoveExplained:
    """One document of one query under configuration 0 (`a`) and configuration i (`b`)."""

    query: int
    doc: int
    rank_a: int | None
    rank_b: int | None
    total_a: float
    total_b: float
    signals: tuple[str, ...]
    contributions_a: NDArray[np.float64]
    contributions_b: NDArray[np.float64]
    changed: dict[str, tuple[ParamValue, ParamValue]]
    scored_a: bool = True  # False: not a candidate under a (its zeros are no score)
    scored_b: bool = True
    # documents ranked above it under b and not under a (they rose past it), and the
    # reverse: what moved it when its own score moved the other way
    overtaken_by: int = 0
    overtook: int = 0
    # the gate that zeroed it under a / b (None: not gated): its total is 0 there while its
    # signals show what it would score
    gate_a: str | None = None
    gate_b: str | None = None
    # where an unranked side still scores it, past the depth the comparison ranked to: how
    # deep that ranking went, and the document's place in the full order (None: unknown)
    depth_a: int = 0
    depth_b: int = 0
    beyond_a: int | None = None
    beyond_b: int | None = None
    tied_a: int = 0  # other candidates with exactly its score there (an order among them
    tied_b: int = 0  # is the ranking's tie-break, which cut it)
    # where a side's min score left it out (its total under it): (the parameter, its value)
    floor_a: tuple[str, float] | None = None
    floor_b: tuple[str, float] | None = None
    # each side's limit on results a query (None: none), to tell a list cut by it from one
    # that stopped at the depth compared
    limit_a: int | None = None
    limit_b: int | None = None
    # the documents above it under the first configuration and not under the second (it
    # passed them because they fell), each "id (signal −13)": named where its own score
    # did not move, so that what moved it is said
    passed: tuple[str, ...] = ()
    # whether its place past the list was counted over only the pairs a ranking to the depth
    # can reach (hybrid, where every pair's scores were not at hand): then more documents
    # may score above it or share its score than the counts say
    pruned_a: bool = False
    pruned_b: bool = False
    # each signal's shown name, by index of `signals` (`core.signal_labels`: "named in the
    # task" for codeledger's `mention`), as the window's sliders say it; () names them by id
    labels: tuple[str, ...] = ()
    # the signal id each of `passed` names ("" for none): what ties a fall to a setting
    passed_signals: tuple[str, ...] = ()
    # per signal id, the changed parameters tied to it (named after it or after what its
    # help says it sums: importance's decay, "staleness + dismissals + superseded", and
    # stale_short): named first where that signal moved
    related: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # the two configurations' names, said where a gate or a limit acts on one side only
    # ("" reads "the first configuration" / "the second")
    name_a: str = ""
    name_b: str = ""
    # a document a scoring gate holds at 0 under both, returned by one side only because its
    # min score of 0 keeps every candidate: (that side, its min score and value). Both sides'
    # contributions are then the 0 it scores (a gated side's would-be lexical 7.39 against
    # the other's 0 had read "lexical −7.39", and "let through" a gate that still held)
    kept_at_zero: tuple[int, tuple[str, float]] | None = None

    def _name(self, side: int) -> str:
        """How configuration a (0) or b (1) is named in a sentence."""
        name = (self.name_a, self.name_b)[side]
        return name or ("the first configuration", "the second")[side]

    def label(self, s: int) -> str:
        """The shown name of signal `s`."""
        return self.labels[s] if s < len(self.labels) else self.signals[s]

    @property
    def deltas(self) -> NDArray[np.float64]:
        out: NDArray[np.float64] = self.contributions_b - self.contributions_a
        return out

    @staticmethod
    def _below(place: int | None, depth: int, tied: int, limit: int | None = None,
               score: float | None = None, pruned: bool = False) -> str | None:
        if place is None:
            return None
        others = f"{'at least ' if pruned else ''}{tied:,} other{'s' if tied > 1 else ''}"
        if tied and place <= depth and score is not None:
            # its tie starts inside the list: "#1" beside "below the top 100" read as rank 1
            cut = (f"past the limit of {limit}" if limit is not None and depth >= limit
                   else f"below the top {depth}")
            return (f"{cut} (tied at {_plain(score)} with {others} from #{place} on; the "
                    f"order among them put it after #{depth})")
        ties = f", tied with {others}" if tied else ""
        if limit is not None and depth >= limit:  # the limit stopped the list, not the depth
            return f"#{place} (past the limit of {limit}{ties})"
        return f"below the top {depth} (#{place}{' or lower' if pruned else ''}{ties})"

    @staticmethod
    def _under(floor: tuple[str, float] | None, total: float) -> str | None:
        """Where a min score left it out: said, with its score (a list cut short by it had
        read "below the top 3 (#7)")."""
        if floor is None:
            return None
        return f"under {_floor_text(floor)} (its score {_plain(total)})"

    def _cut_by_limit(self) -> str | None:
        """"the same place (#10) under both, past the first configuration's limit of 5: cut,
        not moved" where a side's limit, not a change of order, put it outside that side's list."""
        for side, place, other, depth, limit in (
                (0, self.beyond_a, self.rank_b, self.depth_a, self.limit_a),
                (1, self.beyond_b, self.rank_a, self.depth_b, self.limit_b)):
            if place is None or other is None or limit is None or depth < limit:
                continue
            name = (self.name_a, self.name_b)[side]
            whose = (f"the limit of {limit} under {name}" if name else
                     f"the {('first', 'second')[side]} configuration's limit of {limit}")
            tied = (self.tied_a, self.tied_b)[side]
            if tied:
                # `place` is where its tie starts, not its place: the same place only where
                # its score held and the other side's place lies within the tie (m44, #3
                # under one and in a tie from #3 on, had fallen 0.688 → 0.4 and sat at #7)
                same = abs(self.total_b - self.total_a) <= 1e-9 * max(1.0, abs(self.total_a))
                if not same or not place <= other <= place + tied:
                    continue
                others = f"{tied:,} other{'s' if tied > 1 else ''}"
                return (f"its score held ({_plain(self.total_a)}), tied with {others} from "
                        f"#{place} on, past {whose}: cut, not moved")
            if place != other:  # it moved too: what moved it is said, not "cut"
                continue
            return f"the same place (#{place}) under both, past {whose}: cut, not moved"
        return None

    def _filtered(self, parts: list[str]) -> tuple[str, str] | None:
        """(where, why) of a document one side's min score left out and the other ranks:
        its score against that min score, the same wherever it did not change ("dropped out
        from 1: its score 0.171 is under min_score 0.3: filtered out"); None otherwise. It
        had read "no signal changed (other documents moved)" on vault-search and "21 → 0
        (below_min_score gate)" on decision-memory: one event, two causes, neither true."""
        same = abs(self.total_b - self.total_a) <= 1e-9 * max(1.0, abs(self.total_a))
        signals = f"; {', '.join(parts)}" if parts else ""
        if self.rank_a is not None and self.rank_b is None and self.floor_b is not None:
            floor = _floor_text(self.floor_b)
            if same:
                return (f"dropped out from {self.rank_a}",
                        f"its score {_plain(self.total_b)} is under {floor}: filtered out")
            return (f"dropped out from {self.rank_a}",
                    f"its score {'fell' if self.total_b < self.total_a else 'rose'} from "
                    f"{_plain(self.total_a)} to {_plain(self.total_b)}, under {floor}: "
                    f"filtered out{signals}")
        if self.rank_a is None and self.rank_b is not None and self.floor_a is not None:
            floor = _floor_text(self.floor_a)
            if same:
                return (f"entered at {self.rank_b}",
                        f"its score {_plain(self.total_a)} was under {floor}, and is no "
                        "longer filtered out")
            return (f"entered at {self.rank_b}",
                    f"its score {'rose' if self.total_b > self.total_a else 'fell'} from "
                    f"{_plain(self.total_a)}, under {floor}, to {_plain(self.total_b)}: let "
                    f"through{signals}")
        return None

    def sentence(self, top: int = 3) -> str:
        """'moved from 7 to 2: vector +1.9, bm25 −0.3 — alpha 0.3 → 0.6'."""
        under_a, under_b = (self._under(self.floor_a, self.total_a),
                            self._under(self.floor_b, self.total_b))
        order = np.argsort(-np.abs(self.deltas), kind="stable")
        parts = [f"{self.label(s)} {_signed(float(self.deltas[s]))}" for s in order[:top]
                 if abs(self.deltas[s]) > 1e-12]
        filtered = self._filtered(parts)
        if filtered is not None:
            return self._with_settings(*filtered, order)
        if self.kept_at_zero is not None:
            side, floor = self.kept_at_zero
            where = _move_words(self.rank_a, self.rank_b)
            return self._with_settings(
                where, f"the {self.gate_a} gate holds it at score 0 under both; "
                f"{self._name(side)} returns it only because {_floor_text(floor)} keeps "
                "candidates scoring 0", order)
        where = _move_words(self.rank_a, self.rank_b,
                            under_a or self._below(self.beyond_a, self.depth_a, self.tied_a,
                                                   self.limit_a, self.total_a, self.pruned_a),
                            under_b or self._below(self.beyond_b, self.depth_b, self.tied_b,
                                                   self.limit_b, self.total_b, self.pruned_b))
        why = ", ".join(parts) if parts else "no signal changed (other documents moved)"
        cut = self._cut_by_limit()
        if cut and (not parts or "same place" in cut):  # one list only stopped sooner
            where = _move_words(self.rank_a, self.rank_b)
            why = cut + (f" ({', '.join(parts)})" if parts else "")
        if self.gate_a != self.gate_b:  # a gate, not a signal, moved it
            gated = [f"{self.gate_a} gate under {self._name(0)}" if self.gate_a else "",
                     f"{self.gate_b} gate under {self._name(1)}" if self.gate_b else ""]
            lead = "filtered out by the " + " and the ".join(g for g in gated if g)
            lead += ("" if self.gate_a and self.gate_b else
                     f", let through by {self._name(1)}" if self.gate_a else
                     f", let through by {self._name(0)}")
            why = lead + (f"; {why}" if parts else "")
        # past its list, whatever place its tie starts at ("#76" of a tie cut after #100)
        place_a = self.rank_a if self.rank_a is not None else \
            None if self.beyond_a is None else max(self.beyond_a, self.depth_a + 1)
        place_b = self.rank_b if self.rank_b is not None else \
            None if self.beyond_b is None else max(self.beyond_b, self.depth_b + 1)
        fell = place_a is not None and place_b is not None and place_b > place_a
        rose = place_a is not None and place_b is not None and place_b < place_a
        own = self.total_b - self.total_a
        if parts and fell and self.overtaken_by:
            # said whether or not its own score fell: a −0.02 alone read as the cause of a
            # fall of 17 places that 17 others rising made
            least = "at least " if self.pruned_b and self.rank_b is None else ""
            why += (f", {'but' if own >= 0 else 'while'} {least}{self.overtaken_by} document"
                    f"{'s' if self.overtaken_by > 1 else ''} rose past it")
        elif parts and rose and own <= 0 and self.overtook:
            least = "at least " if self.pruned_a and self.rank_a is None else ""
            why += (f", but it passed {least}{self.overtook} document"
                    f"{'s' if self.overtook > 1 else ''} that fell further")
        elif not parts and rose and self.passed:
            # its score held: the documents that fell past it moved it (a limit of 1 had
            # read as a gate, its total as 0 and its change as +39)
            n = max(self.overtook, len(self.passed))
            why = (f"its own score did not change ({_plain(self.total_b)}); "
                   f"{'the document' if n == 1 else f'{n} documents'} above it before fell "
                   f"past it: {', '.join(self.passed[:3])}"
                   + (f" and {self.overtook - 3} more" if self.overtook > 3 else ""))
        unscored = [side for side, ok in ((0, self.scored_a), (1, self.scored_b)) if not ok]
        if unscored:
            named = (" or ".join((self.name_a, self.name_b)[j] for j in unscored)
                     if self.name_a and self.name_b else
                     f"the {' or '.join(('first', 'second')[j] for j in unscored)} "
                     "configuration")
            why = f"not a candidate under {named} (not scored); {why}"
        return self._with_settings(where, why, order)

    def _with_settings(self, where: str, why: str, order: NDArray[np.intp]) -> str:
        """The sentence, its changed settings after it: those tied to what moved it first."""
        # the min score that cut it first, not hidden in "and 2 more"
        floors = {f[0] for f in (self.floor_a, self.floor_b) if f is not None}
        # then a setting named after a signal that moved (superseded_penalty for a fall of
        # superseded), before those that moved nothing here
        moved = {self.signals[s] for s in order if abs(self.deltas[s]) > 1e-12}
        moved |= {p for p in self.passed_signals if p}
        # tied to the signal that moved most first (decay's stale_short before base's
        # base_short, where decay moved it more)
        tied: dict[str, int] = {}
        for rank, s in enumerate([*(self.signals[s] for s in order
                                    if abs(self.deltas[s]) > 1e-12), *self.passed_signals]):
            for n in self.related.get(s, ()):
                tied.setdefault(n, rank)
        # and before both, one named after the gate that let it through or filtered it out
        # (exclude_archived for the archived gate): 35 changed values had read "base_short
        # 0.5 → 0.8, base_medium … and 32 more" whatever moved the document
        gates = {_alnum(g) for g in (self.gate_a, self.gate_b) if g}
        changed = sorted(self.changed.items(), key=lambda kv: (
            kv[0] not in floors, not any(g in _alnum(kv[0]) for g in gates),
            not (kv[0] in tied or any(m and m in kv[0] for m in moved)),
            tied.get(kv[0], len(tied))))
        settings = ", ".join(f"{n} {value_text(a)} → {value_text(b)}"
                             for n, (a, b) in changed[:3])
        more = len(self.changed) - 3
        if more > 0:
            settings += f" and {more} more"
        return f"{where}: {why}" + (f" — {settings}" if settings else "")


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
                         _related(model, all_changed),
                         comparison.configs[0].name, comparison.configs[i].name, kept)


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


def _number(x: float) -> str:
    """_plain with a real minus, as the signals' differences are written."""
    return _plain(x).replace("-", "−")


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


def _alnum(name: str) -> str:
    """"pre-filter" and "exclude_archived" as "prefilter" and "excludearchived"."""
    return "".join(c for c in name.lower() if c.isalnum())


def _related(model: Model, changed: dict[str, tuple[ParamValue, ParamValue]]
             ) -> dict[str, tuple[str, ...]]:
    """Per signal of `model`, the parameters of `changed` tied to it: named after the
    signal (w_tf, superseded_penalty), or after a word of six letters or more in its help,
    by their first five letters (importance's decay is "− (staleness + dismissals +
    superseded)": stale_short, dismissal, superseded_decay)."""
    out: dict[str, tuple[str, ...]] = {}
    for signal in model.signals:
        words = {w[:5] for w in re.findall(r"[a-z]{6,}", signal.help.lower())}
        tied = tuple(n for n in changed if signal.name in n or any(
            len(t) >= 5 and t[:5] in words for t in n.lower().split("_")))
        if tied:
            out[signal.name] = tied
    return out


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


def _floor_text(floor: tuple[str, float]) -> str:
    """"min_score 0.3"; the name alone where its value is not known here (a model's min
    score of each query's mode)."""
    return floor[0] if np.isnan(floor[1]) else f"{floor[0]} {_plain(floor[1])}"


def _plain(x: float) -> str:
    """A value in three significant digits: 0.3, 0.239."""
    return f"{x:.3g}"


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


def _move_words(a: int | None, b: int | None, below_a: str | None = None,
                below_b: str | None = None) -> str:
    if a is None and b is None:
        return "ranked by neither"
    if a is None:
        return f"moved from {below_a} to {b}" if below_a else f"entered at {b}"
    if b is None:
        return f"moved from {a} to {below_b}" if below_b else f"dropped out from {a}"
    if a == b:
        return f"stayed at {a}"
    return f"moved from {a} to {b}"


def _signed(x: float) -> str:
    """+1.9, −0.3; three significant digits, kept where rounding leaves a whole number that
    is not one (−3.997 read as an integer, "−4"; it is −4.00)."""
    text = f"{abs(x):.3g}"
    if "." not in text and "e" not in text and abs(x) != round(abs(x)):
        text = f"{abs(x):.{max(0, 3 - len(text))}f}"
    return f"{'+' if x >= 0 else '−'}{text}"


