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


def owned(name: str) -> str:
    """`name`'s, as every verdict says whose values ("clnew.toml's", "the configuration
    clnew's"): the name as it is, no quotes or escapes added (dr6 3: the window had written
    Python's repr, 'it\\'s "q"''s, into records the command line wrote as it's "q"'s)."""
    return f"{name}'s"


# what a verdict advises, kept beside it as data (`TunedOn.kind`, `verdict_advice`): its
# owner means "go back to" in both (dr6 1: a neither verdict's owner had been read as the
# values its run started from)
KEEP_START = "keep_start"  # `against`: keep the values the run started from (its owner)
KEEP_NEITHER = "keep_neither"  # `neither`: nor those it started from; go back to its owner
KINDS = (KEEP_START, KEEP_NEITHER)


def kind_of(verdict: str, kind: str = "") -> str:
    """What `verdict` advises (`KINDS`), as recorded (`kind`), else as a verdict written
    before it was recorded opens; "" for an inherited one, a hand edit or none."""
    if kind in KINDS:
        return kind
    if verdict.startswith("keep neither"):
        return KEEP_NEITHER
    return KEEP_START if verdict.startswith(START) else ""


def inherited(start: TunedOn, name: str, unchanged: bool = True) -> str:
    """The verdict for --out of a run from file `name`, `start` being that file's record
    (`TunedOn`): the earlier run's grounds, said as its, one clause after another (no
    parenthesis inside another, dr9 7); `unchanged`: the run kept that file's values. A
    verdict already inherited is kept as it is. The values to go back to are named by the
    owner `start` records, not parsed from its text (dr3 1); none where it records none;
    those its run started from by its `start` (held_out_start), never by its owner (dr6 1)."""
    verdict = start.verdict
    if is_inherited(verdict):  # from a file a run from a flagged file wrote
        if unchanged:
            return verdict
        return (f"{LINEAGE}{owned(name)} values, whose verdict reads: {verdict}; tune compared "
                f"these only with {owned(name)} values, not with the model's defaults")
    why = start.why
    if unchanged and start.advises == KEEP_NEITHER:
        back = f" ({start.owner})" if start.owner else ""
        began = f" ({start.start})" if start.start else ""
        return (f"{INHERITED}{owned(name)} run advised going back to{back}, not these: it "
                f"advised keeping neither these nor those it started from{began}; {why}; a "
                f"run from {name} kept them unchanged")
    if unchanged:
        back = f" ({start.owner})" if start.owner else ""
        return (f"{INHERITED}{owned(name)} run started from{back}, not these; {owned(name)} "
                f"run advised against them: {why}; a run from {name} kept them unchanged")
    return (f"{LINEAGE}{owned(name)} values, which the run that tuned them advised against: "
            f"{why}; tune compared these only with {owned(name)} values, not with the model's "
            "defaults")


def neither(why: str, start: TunedOn, name: str) -> str:
    """The verdict of a run that lost held out from values `start` (`TunedOn`, of `name`)
    whose own run advised against them: "keep the starting values" would send the reader
    back to values advised against without a word (dr3 8), so it says to keep neither, and
    where to go: the values `start`'s run advised (`owner`), else those it started from.
    `why`: this run's grounds (`grounds`), said once, at the end: under k-fold an estimate
    for tuning this way, not a score of these values (dr6 4); no "this run", which a reader
    of the file has not run."""
    back = start.owner or f"the values {owned(name)} run started from"
    return (f"{NEITHER}these values nor {owned(name)}, which its run advised against: go back "
            f"to {back}{_NEITHER_END}{why}")


# a run's own verdict where its start was advised against too (`neither`): its advice, then
# its grounds after `_NEITHER_END`
NEITHER = "keep neither "
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
    # "keep neither: …" written before dr6 too; grounds have no such text
    if verdict.startswith("keep neither") and _NEITHER_END in verdict:
        return verdict.rpartition(_NEITHER_END)[2]
    return verdict


__all__ = ["INHERITED", "KEEP_NEITHER", "KEEP_START", "KINDS", "LINEAGE", "NEITHER", "START",
           "against", "grounds", "inherited", "is_inherited", "kind_of", "neither", "own_grounds",
           "owned", "whose_said"]
