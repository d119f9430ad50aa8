"""Whether a run advises against the values it tuned: one text for every face that keeps them.

`tune` prints "keep the starting values" where the tuned values gain nothing on the queries
they never saw; the values are still written (`--out`) and saved (the window's "tuned on …"
configuration), since they were asked for. The file and the configuration carry that advice
as their own `verdict` (`TunedOn.verdict`), so a reader who ships whatever the file holds is
told, not only the terminal that ran the search (review rb 1).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from workbench.core.tuned_on import TunedOn

START = "keep the starting values"  # a run's own advice: the values it started from


def against(result: Any, whose: str = "") -> str:
    """"keep the starting values; held-out ndcg@10 0.6131 → 0.6111" where the values written
    are not the starting ones and their held-out change on the primary objective is a loss
    (Δ < 0: the terminal's rule, `tune_report`; a held-out mean unchanged, as where the one
    held-out query sits at the metric's ceiling, is no evidence either way, dr1 4); under
    k-fold the figures are an estimate for tuning this way, not these values' scores, and
    are said so (dr1 5). "" where the run kept the starting values, tuned nothing, held no
    query out, or where the starting values break a constraint (they cannot be kept, so
    there is nothing better to advise). One clause after another, no parenthesis inside
    another where a reader puts it in one (dr5 6). `whose`: whose the starting values are
    ("cl2.toml's", "the model's defaults"), said after them: a run from a file another run
    advised against had told the reader to keep that file (T5, dr9 9)."""
    why = grounds(result)
    if not why:
        return ""
    return f"{START} ({whose}); {why}" if whose else f"{START}; {why}"


def whose_said(verdict: str) -> str:
    """`verdict` with whose starting values it advises where it does not say (one written
    before it did, or in the window from values no configuration holds): "keep the starting
    values (those the run that tuned it started from); …"."""
    rest = verdict[len(START):]
    if not verdict.startswith(START) or rest.startswith(" ("):
        return verdict
    return f"{START} (those the run that tuned it started from){rest}"


def grounds(result: Any) -> str:
    """What `against` rests on: "held-out ndcg@10 0.6131 → 0.6111", or under k-fold "tuning
    this way gained nothing held out (k-fold estimate, ndcg@10 0.6131 → 0.6111)"; "" where it
    gives no verdict."""
    from workbench.core.tuning.objectives import direction

    final, t = result.final, result.test
    if t is None or not final.best or final.kept_start or final.start_breaks:
        return ""
    metric = result.spec.objectives[0]
    up = direction(metric) == "maximize"
    gain = t.mean_b - t.mean_a if up else t.mean_a - t.mean_b
    if not gain < 0:  # a gain, none, or NaN (no held-out query scored)
        return ""
    figures = f"{metric} {t.mean_a:.4f} → {t.mean_b:.4f}"
    if result.validation.kind == "kfold":
        return f"tuning this way gained nothing held out (k-fold estimate, {figures})"
    return f"held-out {figures}"


# the verdict of values a run kept unchanged from a --params file whose own run advised
# against them (dr7 1): "the starting values" would be that file's, the very values advised
# against, so it names the values that earlier run started from, as that file's run's (dr9 4)
INHERITED = "keep the values "
# the verdict of values a run moved from such a file: its held-out figures compare them with
# that file's values only, not with the model's defaults (dr9 2)
LINEAGE = "started from "


def is_inherited(verdict: str) -> bool:
    """Whether `verdict` was carried over from a --params file's run (`inherited`): its
    figures are that run's, not those the file records as its own (dr9 3)."""
    return verdict.startswith((INHERITED, LINEAGE))  # "keep the starting values": a run's own


def inherited(start: TunedOn, name: str, unchanged: bool = True) -> str:
    """The verdict for --out of a run from file `name`, `start` being that file's record
    (`TunedOn`): the earlier run's grounds, said as its, one clause after another (no
    parenthesis inside another, dr9 7); `unchanged`: the run kept that file's values. A
    verdict already inherited is kept as it is. The values to go back to are named by the
    owner `start` records, not parsed from its text (dr3 1); none where it records none."""
    verdict = start.verdict
    if is_inherited(verdict):  # from a file a run from a flagged file wrote
        if unchanged:
            return verdict
        return (f"{LINEAGE}{name}'s values, whose verdict reads: {verdict}; tune compared "
                f"these only with {name}'s values, not with the model's defaults")
    why = start.why
    if unchanged:
        back = f" ({start.owner})" if start.owner else ""
        return (f"{INHERITED}{name}'s run started from{back}, not these; {name}'s run advised "
                f"against them: {why}; a run from {name} kept them unchanged")
    return (f"{LINEAGE}{name}'s values, which the run that tuned them advised against: {why}; "
            f"tune compared these only with {name}'s values, not with the model's defaults")


def neither(why: str, start: TunedOn, name: str) -> str:
    """The verdict of a run that lost held out from values `start` (`TunedOn`, of `name`)
    whose own run advised against them: "keep the starting values" would send the reader
    back to values advised against without a word (dr3 8), so it says to keep neither, and
    where to go: the values `start`'s run advised (`owner`), else those it started from.
    `why`: this run's grounds (`grounds`)."""
    back = start.owner or f"the values {name}'s run started from"
    return (f"{NEITHER}{name}'s run advised against its values and this run's tuned ones "
            f"gained nothing held out — go back to {back}{_NEITHER_END}{why}")


# a run's own verdict where its start was advised against too (`neither`): its advice, then
# its grounds after `_NEITHER_END`
NEITHER = "keep neither: "
_NEITHER_END = " or tune differently; "


def own_grounds(verdict: str, owner: str) -> str:
    """What a run's own verdict rests on, after the advice `against` or `neither` built it
    with (`owner`: whose values it advises, as recorded): no whose parsed out of the text
    (dr3 1: a name with parentheses had broken a pattern). A verdict built otherwise (an
    inherited one, a hand edit, one naming whose before `owner` was recorded) whole."""
    # one written before had ": " or ", " after a bare advice, as well as "; "
    for advice in ([f"{START} ({owner}); "] if owner else []) + [f"{START}{sep} "
                                                                  for sep in ";:,"]:
        if verdict.startswith(advice):
            return verdict[len(advice):]
    if verdict.startswith(NEITHER) and _NEITHER_END in verdict:  # grounds have no such text
        return verdict.rpartition(_NEITHER_END)[2]
    return verdict


__all__ = ["INHERITED", "LINEAGE", "NEITHER", "START", "against", "grounds", "inherited",
           "is_inherited", "neither", "own_grounds", "whose_said"]
