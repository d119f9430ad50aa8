"""What the dashed box at the foot of a ranked list says: where the configuration's list for
the query ends and, where the window can tell, what ended it — a limit, a min score — so that
"not returned (8 ranked)" (read as "8 were not returned") and a bare "below top 10" over a
list a min score cut at 11 (review rv3, F12) say what they mean.

`list_end` reads it from the comparison; `slot_captions` words it, longest first (the
painter takes the first that fits its column); `slot_tip` says it whole. In a list after the
first the box also says which of the first list's top k this one lacks (`out_captions`): the
lines between adjacent lists cannot show it, and a ▼out tag in the first list had sat on a
flat grey line to the same rank in the next (review r48, dr1 6).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from workbench.core.comparison import LIMIT_GATE, MIN_SCORE_GATE, Comparison
from workbench.core.metrics.bundle import BUNDLE_METRICS
from workbench.core.params import min_score_param
from workbench.core.pipeline import metric_depth

LIMIT, FLOOR = "limit", "floor"


@dataclass(frozen=True)
class ListEnd:
    """`returned`: results the configuration returns for the query; `depth`: how deep the
    comparison ranks (a list that long may go on); `cause`: LIMIT, FLOOR or "" (the
    candidates ran out, or the window cannot tell); `setting`: "the limit of 5",
    "min_score 0.3", "its min score"."""

    returned: int
    depth: int
    cause: str = ""
    setting: str = ""


def list_end(comp: Comparison, j: int, query: int) -> ListEnd:
    """Where configuration j's list for `query` ends, and why where a limit or a min score
    ended it: its limit reached, or candidates it scored (not gated) left out under its min
    score; a model's own limit or min-score gate (decision-memory's) likewise."""
    result = comp.results[j]
    returned = int(result.ranking.count[query])
    # as deep as the comparison ranks (`compare_configurations`); the table is only as wide
    # as the longest list
    depth = metric_depth([m for m in comp.metrics if m not in BUNDLE_METRICS])
    model = comp.model_of(j)
    params = model.schema.resolve(comp.configs[j].params)
    selection = model.selection_params(params)
    scores = result.scores
    gates = scores.gate[scores.row(query)] if len(scores.gate) else np.zeros(0, np.int8)
    named = {scores.gates[g - 1] if 0 < g <= len(scores.gates) else "" for g in
             np.unique(gates).tolist()}
    if selection.limit is not None and returned >= selection.limit:
        return ListEnd(returned, depth, LIMIT, f"the limit of {selection.limit:,}")
    if LIMIT_GATE in named:  # each case's own top K
        return ListEnd(returned, depth, LIMIT, f"the limit of {returned:,}")
    if returned >= depth:
        return ListEnd(returned, depth)
    left_out = int(np.count_nonzero(gates == 0)) > returned
    if selection.min_score is not None and left_out:
        floor = min_score_param(model.schema)
        value = float(selection.min_score)
        name = floor.name if floor is not None and float(params[floor.name]) == value \
            else "the min score"
        return ListEnd(returned, depth, FLOOR, f"{name} {value:g}")
    if MIN_SCORE_GATE in named:  # the min score of each query's mode
        return ListEnd(returned, depth, FLOOR, "its min score")
    return ListEnd(returned, depth)


def slot_captions(k: int, end: ListEnd) -> list[str]:
    """The box's caption, longest first, the last the shortest: below the top k, where the
    list goes past it; else "not returned", saying how long the list is and what ended it."""
    n, setting = end.returned, end.setting
    if n >= k:
        if end.cause == LIMIT:
            return [f"below top {k} ({setting} ends this list)", f"below top {k}"]
        if end.cause == FLOOR:
            return [f"below top {k} ({setting} ends this list at {n:,})",
                    f"below top {k} (this list ends at {n:,})", f"below top {k}"]
        if n < end.depth:
            return [f"below top {k} (this list ends at {n:,})", f"below top {k}"]
        return [f"below top {k}"]
    if n == 0:
        return ([f"nothing returned (all under {setting})", "nothing returned"]
                if end.cause == FLOOR else ["nothing returned"])
    if end.cause == LIMIT:
        return [f"not returned (past {setting})", f"not returned (this list has {n:,})",
                "not returned"]
    if end.cause == FLOOR:
        return [f"not returned (under {setting}; this list has {n:,})",
                f"not returned (this list has {n:,})", "not returned"]
    return [f"not returned (this list has {n:,})", "not returned"]


def slot_tip(k: int, end: ListEnd, name: str) -> str:
    """The box's tooltip: how many results `name` returns for the query, what ended the list,
    and what a line ending in the box means."""
    n = end.returned
    said = f"{name} returns {n:,} result{'s' if n != 1 else ''} for this query"
    if end.cause == LIMIT:
        said += f": {end.setting} stops it there"
    elif end.cause == FLOOR:
        said += f": the others it scored are under {end.setting}"
    elif n >= end.depth:
        said += f" (or more: the comparison ranks {end.depth:,} deep)"
    return (said + ". A line that ends in this box: "
            + (f"a document below its top {k}, or one it did not return" if n >= k
               else "a document it did not return") + ".")


OUT = "▼"  # a box's mark of the first list's documents a later list lacks


def possessive(name: str) -> str:
    """"defaults'" / "flat's": a configuration's name owning something."""
    return name + ("'" if name.endswith("s") else "'s")


def out_captions(k: int, first: str, ids: list[str], ends: list[str]) -> list[str]:
    """A later list's box, longest first, where it lacks `ids` of the first list's (`first`)
    top k: where the list ends (`ends`, `slot_captions`' words) and the ids, then the ids
    alone, as many whole as fit ("▼ 2 of defaults' top 10 out: d100, d032"; "…" for the
    rest), then the count alone; [] where it lacks none. A list that ends above k keeps
    saying so before any id ("not returned · ▼ 7 of defaults' top 10 out"): its lines go
    to documents it did not return, not below its top k."""
    n = len(ids)
    if not n:
        return []
    head = f"{OUT} {n} of {possessive(first)} top {k} out"
    some = [f"{head}: {', '.join(ids[:m])}, …" for m in range(n - 1, 0, -1)]
    out = [f"{end} · {head}: {', '.join(ids)}" for end in dict.fromkeys(ends[:1] + ends[-1:])]
    out.append(f"{head}: {', '.join(ids)}")
    if not ends[-1].startswith("below top"):
        out += [f"{ends[-1]} · {text}" for text in [*some, head]]
    return [*out, *some, head, f"{OUT} {n} of the first's top {k} out", f"{OUT} {n} out"]


def out_tip(k: int, first: str, lacking: list[tuple[str, str]]) -> str:
    """What the ▼ in a later list's box says, whole: each of the first list's top k this list
    lacks, by where it is here — (id, `RankLines._place`'s words) each — a line for those
    below its top k, each with its rank, and one for each reason others are not returned,
    said once ("not returned (past the limit of 5): a, b, c" where each id had carried its
    own "(not returned (past the limit of 5))": dr3 10)."""
    if not lacking:
        return ""
    n = len(lacking)
    ranked = [f"{i} (rank {place[1:].split(',')[0]})" for i, place in lacking
              if place.startswith("#")]
    why: dict[str, list[str]] = {}
    for i, place in lacking:
        if not place.startswith("#"):
            why.setdefault(place, []).append(i)
    groups = ([f"below its top {k}: " + ", ".join(ranked)] if ranked else []) + [
        f"{place}: " + ", ".join(ids) for place, ids in why.items()]
    return "\n".join([f"{OUT} {n} of the top {k} of {first}, the first list, "
                      f"{'is' if n == 1 else 'are'} not in this list's top {k}:", *groups])
