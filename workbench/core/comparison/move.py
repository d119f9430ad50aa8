"""A move between two configurations of one model (`MoveExplained`) and the sentence that says
what moved it: its signals, a gate, a min score, a limit or the documents around it."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from workbench.core.comparison.undo import Undone
from workbench.core.comparison.values import shown_value
from workbench.core.comparison.words import _alnum, _floor_text, _move_words, _plain, _signed
from workbench.core.params import ParamValue


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
    # per signal id, the changed parameters tied to it without measuring (the model's
    # `prepare_signals`, or named after it: w_tf, superseded_penalty): named, where that
    # signal moved, among those `undone` could not score again
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
    # per changed parameter that could be scored again, the document with it alone undone
    # (`comparison.undo`): those whose change alone moved it the way it moved are named
    # first, with what it did ("only it set back: at 3"); the one that held it back most is
    # said apart; those that move it not at all are not named ("absent_weight 1 → 2.25" had
    # been named for a 3-word query with no absent word, w_title 6 → 17 left out)
    undone: dict[str, Undone] = field(default_factory=dict)
    # the text parameters among `changed` (a prompt): quoted where said (`shown_value`)
    texts: frozenset[str] = frozenset()

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
        # then those that moved it the way it moved, each alone measured (w_title 6 → 17:
        # alone, 3 → 1), by places, then by how far its score moves; one that held it back
        # (k1 1.2 → 1.5 alone raised a document that fell 2 → 74) is no cause: said apart
        undone = self.undone
        effect = {n: u for n, u in undone.items() if u.moves}
        big = len(self.signals) + 10**6  # past any list: out of it
        place_a = big if self.rank_a is None else self.rank_a
        place_b = big if self.rank_b is None else self.rank_b
        rose = place_b < place_a or (place_b == place_a and self.total_b > self.total_a)
        # then, of those not scored again (a prepare-stage value), one tied to a signal that
        # moved (the model's declaration or its name: superseded_penalty for superseded),
        # that signal moving most first
        moved = [self.signals[s] for s in order if abs(self.deltas[s]) > 1e-12]
        moved += [p for p in self.passed_signals if p]
        tied: dict[str, int] = {}
        for rank, sig in enumerate(moved):
            for n in self.related.get(sig, ()):
                if n not in undone:
                    tied.setdefault(n, rank)
        # and before all, one named after the gate that let it through or filtered it out
        # (exclude_archived for the archived gate): 35 changed values had read "base_short
        # 0.5 → 0.8, base_medium … and 32 more" whatever moved the document
        gates = {_alnum(g) for g in (self.gate_a, self.gate_b) if g}

        def pinned(n: str) -> bool:  # the min score or the gate that cut it
            return n in floors or any(g in _alnum(n) for g in gates)

        gained = self.total_b - self.total_a
        held = sorted((n for n, u in effect.items() if u.side(rose, gained) < 0 and not pinned(n)),
                      key=lambda n: (-abs(effect[n].places), -abs(effect[n].gain)))
        # one that moves it a place, or a quarter of its own score's change, before those
        # tied; one that moves it less after them (k1's +0.015 of a −3.17 had led stemmer and
        # stop_words, which no live run can undo)
        own = abs(self.total_b - self.total_a)

        def group(n: str) -> int:
            u = effect.get(n)
            if u is not None and (u.places != 0 or abs(u.total_delta) >= own / 4):
                return 0
            return 1 if n in tied else 2 if u is not None else 3 if n not in undone else 4

        def key(item: tuple[str, tuple[ParamValue, ParamValue]]) -> tuple[object, ...]:
            n = item[0]
            u = effect.get(n)
            return (n not in floors, not any(g in _alnum(n) for g in gates), group(n),
                    -abs(u.places) if u else 0, -abs(u.total_delta) if u else 0.0,
                    tied.get(n, len(tied)))

        changed = sorted((kv for kv in self.changed.items() if kv[0] not in held), key=key)
        # a setting measured to move nothing here is not named (it had been, before those
        # that did); where nothing else is left, the count says so
        named = [kv for kv in changed[:3]
                 if kv[0] not in undone or kv[0] in effect or pinned(kv[0])]
        if not named and changed and not held and len(changed) <= 3:
            named = changed  # each alone moves nothing, all together do: all named
        # what the change alone did, where more than one changed (one alone is the move
        # itself, said already)
        said = {n: effect[n].text() for n in [*(n for n, _ in named), *held[:1]]
                if n in effect} if len(self.changed) > 1 else {}

        def setting(n: str, a: ParamValue, b: ParamValue) -> str:
            text = n in self.texts
            return f"{n} {shown_value(a, text)} → {shown_value(b, text)}" + \
                (f" ({said[n]})" if said.get(n) else "")

        settings = ", ".join(setting(n, a, b) for n, (a, b) in named)
        # said where it held it back a place, or a quarter of its own score's change; one that
        # held it back less is only counted ("b … score +0.000982" of a −1.67)
        back_names = [n for n in held[:1] if group(n) == 0]
        back = [setting(n, *self.changed[n]) for n in back_names]
        rest = [n for n in self.changed
                if n not in back_names and all(n != m for m, _ in named)]
        # "and N more" counts those that moved it less or were not scored again, not those
        # measured to move nothing here (docs/API.md's "and 5 more" were five such: dr7 7)
        more = sum(1 for n in rest if n not in undone or n in effect or pinned(n))
        if more > 0 and named:
            settings += f" and {more} more"
        elif rest and not named:
            settings = (f"{len(rest)} setting{'s' if len(rest) > 1 else ''} changed, none of "
                        f"which, set back on its own, moves it{' this way' if back else ''}")
        if back:
            settings += ("; " if settings else "") + f"held back by {back[0]}"
        return f"{where}: {why}" + (f" — {settings}" if settings else "")
