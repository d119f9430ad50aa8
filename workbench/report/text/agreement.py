"""How alike two configurations' rankings are: the measure a comparison without
judgments has, as a table and as a sentence."""

from __future__ import annotations

import numpy as np

from workbench.core.comparison import Comparison
from workbench.report.text.compared import has_judgments, nouns, shown_name, singular
from workbench.report.text.lengths import _lengths_text


def agreement_table(comp: Comparison, k: int = 10) -> tuple[list[str], list[list[str]]]:
    """How alike each configuration's top k is to the first's, over the queries the metrics
    count (every query without judgments): a column per configuration after the first."""
    docs, queries = nouns(comp)
    found = [comp.agreement(i, k) for i in range(1, len(comp.configs))]
    header = [f"top {k} against {comp.configs[0].name}",
              *(shown_name(comp, c.name) for c in comp.configs[1:])]
    rows = [[f"{docs} shared (mean)", *(_share(a.mean_overlap) for a in found)],
            [f"{queries}: same order", *(f"{a.same_order:,} of {a.queries:,}" for a in found)],
            [f"{queries}: same first", *(f"{a.same_first:,} of {a.queries:,}" for a in found)]]
    if any(a.empty for a in found):  # no agreement to speak of where neither ranks anything
        rows.append([f"{queries}: neither ranks any", *(f"{a.empty:,}" for a in found)])
    if any(a.one_empty for a in found):  # over the shorter list: that one is empty
        rows.append([f"{queries}: only one ranks any", *(f"{a.one_empty:,}" for a in found)])
    if any(comp.stops_only(i) for i in range(1, len(comp.configs))):
        rows.append(["compared over", *(
            "the shorter list (the order is the same; one stops sooner)" if comp.stops_only(i)
            else f"the top {k}" for i in range(1, len(comp.configs)))])
    return header, rows


AGREEMENT_NOTE = ("{docs} shared: the share of a query's top {k} that the two lists have "
                  "in common (of the longer list, or where they are compared over the "
                  "shorter list, of that), averaged over the {queries}; same order: the same "
                  "{docs} in the same order; same first: the same one at rank 1; {queries} "
                  "for which neither ranks anything are counted apart, and so, where the "
                  "lists are compared over the shorter one, are those for which only one "
                  "does (its empty list leaves nothing to compare). They need no judgment "
                  "and say how much changes, not whether it is better.")


def _share(x: float) -> str:
    return "–" if np.isnan(x) else f"{x:.0%}"


def agreement_summary(comp: Comparison, i: int, k: int = 10) -> str:
    """Configuration i against the first in a sentence or two, by how alike its top k is.
    Where the two rank alike and one only stops sooner, that is what is said, with how
    many lists are shorter and how many empty (the agreement over the shorter lists is then
    100% by construction); where nothing is judged, said once at the end. (Three brackets
    in a row had said it, after "shares 100%", and the lists cut short went unsaid.)"""
    a = comp.agreement(i, k)
    docs, queries = nouns(comp)
    name, first = comp.configs[i].name, comp.configs[0].name
    judged = ("" if has_judgments(comp) else
              " No judgments: whether better or worse is not measured.")
    neither = (f"neither ranks anything for {a.empty:,} "
               f"{queries if a.empty != 1 else singular(queries)}" if a.empty else "")
    lengths = _lengths_text(comp, i, k) if comp.stops_only(i) or comp.cut_short(i) else ""
    # the queries neither ranks anything for are counted there, where one list is empty on
    # every query the other's is shorter (said twice in the general case, dr2 7)
    said = any(t in lengths for t in ("nothing on the other", "already empty", "(nor does "))
    if comp.stops_only(i):
        return (f"{name} against {first}: the same order wherever both rank anything, and "
                f"only the lengths differ: {lengths}"
                + (f"; {neither}" if neither and not said else "") + "." + judged)
    return (f"{name} against {first}: its top {k} shares {_share(a.mean_overlap)} of the "
            f"{docs} on average; {a.same_order:,} of {a.queries:,} {queries} keep the same "
            f"order, {a.same_first:,} the same first {singular(docs)}"
            + (f"; {neither}, set aside" if neither and not said else "") + "."
            + (f" The lengths differ too: {lengths}." if comp.cut_short(i) else "") + judged)
