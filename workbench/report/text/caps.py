"""Where a limit or min score cuts the lists short of a metric's cut-off, so that the
figure there counts only what was returned."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from workbench.core.comparison import Comparison
from workbench.core.metrics.bundle import BUNDLE_METRICS
from workbench.report.text.compared import _and

# gates that are a selection applied by the model itself, per query (decision-memory's each
# query's own min score and limit): what they leave out was found, then cut
SELECTION_GATES = frozenset({"below_min_score", "over_limit"})


def cut_counts(scores: Any, ranking: Any, mask: NDArray[np.bool_]) -> NDArray[np.int64]:
    """The list lengths of the queries of `mask` where a limit or min score (the selection,
    or a model's own per-query one, `SELECTION_GATES`) left out a candidate: the lists that
    stop short of what the model found."""
    kept = np.ones(len(scores.docs), bool)
    if scores.gate is not None:
        cuts = [i + 1 for i, g in enumerate(scores.gates) if g in SELECTION_GATES]
        kept = (scores.gate == 0) | np.isin(scores.gate, cuts)
    query = np.repeat(np.arange(len(scores.row_ptr) - 1), np.diff(scores.row_ptr))
    found = np.bincount(query[kept], minlength=len(scores.row_ptr) - 1)
    count = np.asarray(ranking.count, np.int64)
    out: NDArray[np.int64] = count[mask & (found > count)]
    return out


def lists_cut(scores: Any, ranking: Any, mask: NDArray[np.bool_]) -> bool:
    """Whether a limit or min score left out a candidate on some query of `mask`."""
    return bool(len(cut_counts(scores, ranking, mask)))


def cap_note(lead: str, longest: int, metrics: Sequence[str], *,
             cut: bool | NDArray[np.int64], of: int = 0,
             every: NDArray[np.int64] | None = None,
             label: Callable[[str], str] = lambda m: m) -> str:
    """`lead` ("importance returns at most 5 results a query (its limit is 5)") and what that
    does to `metrics`: P@10 can be at most 0.5 (a cut-off past `longest`); where the
    selection `cut` the lists (True: every cut list is `longest` long; else the lengths of
    the cut lists, `cut_counts`, over `of` queries), a metric whose cut-off lies past a cut
    list counts only what was returned ("" where no metric reaches past one); the queries
    short of it are counted over `every` list where given (a list the cut left whole is short
    of the cut-off all the same), else over the cut ones. The P@10 gloss
    ("capped where a query has fewer than 10 relevant documents") had read as the only cap;
    a min score leaving 12 of 26 queries empty had read as "count only those 18"."""
    from workbench.core.metrics.measures import parse_metric

    counts = (np.full(1 if cut else 0, longest, np.int64) if isinstance(cut, bool)
              else np.asarray(cut, np.int64))
    bounded, counted, cuts = [], [], []
    for m in metrics:
        if m in BUNDLE_METRICS or m.startswith("judged@"):  # judged@k reads what was returned
            continue
        try:
            base, k = parse_metric(m)
        except ValueError:
            continue
        if k is None:
            continue
        if base == "p" and k > longest:
            bounded.append(f"{label(m)} is at most {longest / k:.3g}")
        elif (counts < k).any():
            counted.append(label(m))
            cuts.append(k)
    if not bounded and not counted:
        return ""
    said = ""
    if counted and (counts == longest).all():
        # "count only that one" for one ("only those 1": rv2 dr2 8)
        those = "that one" if longest == 1 else f"those {longest:,}"
        said = f"{_and(counted)} count{'s' if len(counted) == 1 else ''} only {those}"
    elif counted:
        k0 = min(cuts)
        lists = counts if every is None else np.asarray(every, np.int64)
        short, empty = int((lists < k0).sum()), int((lists == 0).sum())
        said = (f"{_and(counted)} count{'s' if len(counted) == 1 else ''} only what it "
                f"returned: fewer than {k0} results on {short:,}"
                + (f" of the {of:,}" if of else "") + " queries"
                + (f", none on {empty:,}" if empty else ""))
    parts = [*bounded, *([said] if said else [])]
    return f"{lead}: {'; '.join(parts)}"


def every_list_capped(comp: Comparison) -> str:
    """A line for "How to read it" where no configuration returns as many results a query as
    a metric's cut-off (importance's limit of 5 under P@10): the figures there are bounded by
    how many results there are, for every configuration alike ("" otherwise)."""
    if not comp.rows or not comp.configs:
        return ""
    from workbench.core.metrics import metric_label

    most = [int(comp.lengths(j).max(initial=0)) for j in range(len(comp.configs))]
    longest = max(most)
    if not longest:
        return ""
    # cut where a configuration returning the longest lists was cut there (a shorter one's
    # limit is length_notes' matter)
    cut = np.concatenate([cut_counts(comp.results[j].scores, comp.results[j].ranking,
                                     comp.counted)
                          for j, m in enumerate(most) if m == longest]).astype(np.int64)
    limits = {comp.model_of(j).selection_params(comp.model_of(j).schema.resolve(c.params)).limit
              for j, c in enumerate(comp.configs)}
    why = f" (the limit is {longest})" if limits == {longest} else ""
    lead = (f"{comp.configs[0].name} returns at most" if len(comp.configs) == 1
            else "no configuration returns more than")
    return cap_note(f"{lead} {longest:,} result{'s' if longest != 1 else ''} a query{why}",
                    longest, [r.metric for r in comp.rows], cut=cut,
                    of=int(comp.counted.sum()),
                    # per query, the longest list any configuration returns: short of the
                    # cut-off there, every configuration is (decisions-eval's cases of at
                    # most 3 had read "fewer than 10 on 6 queries": the cut ones only)
                    every=np.max([comp.lengths(j) for j in range(len(comp.configs))], axis=0),
                    label=metric_label)
