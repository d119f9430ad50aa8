"""Where configurations return lists of different lengths: the notes under Metrics
and the words for how the lengths differ, query by query."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from workbench.core.comparison import Comparison
from workbench.core.metrics.bundle import BUNDLE_METRICS
from workbench.report.text.compared import _and, nouns, singular


def _cut_metrics(comp: Comparison, most: int) -> list[str]:
    """The ranking metrics whose cut-off lies past `most` results (a metric without one, such
    as map, reads the whole list)."""
    from workbench.core.metrics.measures import parse_metric

    out = []
    for r in comp.rows:
        if r.metric in BUNDLE_METRICS or r.metric.startswith("judged@"):
            continue
        try:
            _, cut = parse_metric(r.metric)
        except ValueError:
            continue
        if cut is None or cut > most:
            out.append(r.metric)
    return out


def _by_depth(comp: Comparison, j: int, metrics: list[str]) -> str:
    """For length_notes, how many of configuration j's shorter lists fall short of each
    metric's depth: "1 is shorter than 10 (ndcg@10 and p@10), 7 shorter than 100 (r@100)";
    "" where every one of them is short of every depth. A list of 35 results is no cut to
    ndcg@10 (rc 4: the @10 metrics had been named for 7 lists of which 6 were longer than
    10; rc 6: bm25's r@10 had been blamed on its longest list, 40 against 43)."""
    own, fewer = comp.lengths(j), _fewer(comp, j)
    groups: dict[int | None, list[str]] = {}
    for m in metrics:
        groups.setdefault(_cutoff(m), []).append(m)
    counts = {cut: int((fewer & (own < cut)).sum()) if cut is not None else int(fewer.sum())
              for cut in groups}
    # every shorter list is short of every depth: "those lists" say it already
    if set(counts.values()) == {int(fewer.sum())}:
        return ""
    parts: list[str] = []
    for cut in sorted(groups, key=lambda c: (c is None, c or 0)):
        n = counts[cut]
        verb = ("is " if n == 1 else "are ") if not parts else ""
        where = f"shorter than {cut:,}" if cut is not None else "shorter than the other's"
        parts.append(f"{n:,} {verb}{where} ({_and(groups[cut])})")
    return ", ".join(parts)


def length_notes(comp: Comparison) -> list[str]:
    """A sentence for each configuration that returns fewer results a query than another
    and fewer than a metric's cut-off: its figures at that cut-off count only what it
    returned. Without it a limit of 5 against one of 100 read as "better, beyond chance"
    at ndcg@10 though both ranked every query alike."""
    if not comp.rows:
        return []
    most = [int(comp.lengths(j).max(initial=0)) for j in range(len(comp.configs))]
    longest = max(most)
    out = []
    for j, config in enumerate(comp.configs):
        if not most[j]:  # it returns nothing at all: said once, by the data's notes
            continue
        limit = comp.model_of(j).selection_params(
            comp.model_of(j).schema.resolve(config.params)).limit
        if most[j] >= longest or limit != most[j]:
            # not its limit: how long its longest list is tells nothing of a metric at 10
            # (rc 6: "at most 40 …, codeledger up to 43" had been blamed for bm25's r@10,
            # where 16 of its lists were shorter than 10); how many of its lists fall short
            # of each depth does
            note = _fewer_note(comp, j)
            out += [note] if note else []
            continue
        # the metrics its shortest cut list falls short of: a min score may cut some
        # queries below 10 where its longest list reaches past 10 (nDCG@10 was not named)
        metrics = _cut_metrics(comp, _shortest_cut(comp, j))
        if not metrics:
            continue
        why = f" (its limit is {limit})"
        depths = _by_depth(comp, j, metrics)
        longer = [(c.name, m) for c, m in zip(comp.configs, most, strict=True) if m > most[j]]
        # each with its own longest list where they differ ("bm25 and importance up to 22"
        # had given importance, which returns 5, bm25's length)
        others = (f"{_and([c for c, _ in longer])} up to {longest:,}"
                  if len({m for _, m in longer}) == 1 else
                  _and([f"{c} up to {m:,}" for c, m in longer]))
        out.append(f"{config.name} returns at most {most[j]:,} result"
                   f"{'s' if most[j] != 1 else ''} a query{why}, {others}"
                   + (f"; of its lists shorter than another's, {depths}: each metric of "
                      f"{config.name} counts only what it returned where its list is "
                      "shorter than its depth" if depths else
                      f": the {_and(metrics)} of {config.name} count only what it "
                      "returned")
                   + ", so a difference there is partly how many results are "
                   "returned, not how well they are ordered" + _judged_share(comp)
                   # a limit: the depth every configuration reaches, to compare them at
                   + (f"; --metrics ndcg@{limit},p@{limit} sets them side by side at the "
                      "depth it reaches" if limit else ""))
    return out


def _judged_share(comp: Comparison) -> str:
    """For length_notes: judged@k is a share of what a list returned (min(k, returned)), so a
    longer list of unjudged results reads lower though nothing it had before left (review
    rv3, F3: judged@10 "worse, p 0.002" for limit 5 → 10)."""
    judged = [r.metric for r in comp.rows if r.metric.startswith("judged@")]
    if not judged:
        return ""
    return (f"; {_and(judged)} {'is a share' if len(judged) == 1 else 'are shares'} of what "
            "each returned, so unjudged results in the longer lists lower "
            f"{'it' if len(judged) == 1 else 'them'}")


def _fewer(comp: Comparison, j: int) -> NDArray[np.bool_]:
    """bool per counted query: configuration j returns fewer results there than another."""
    own = comp.lengths(j)
    fewer = np.zeros(len(own), bool)
    for c in range(len(comp.configs)):
        if c != j:
            fewer |= own < comp.lengths(c)
    return fewer


def _shortest_cut(comp: Comparison, j: int) -> int:
    """The shortest of configuration j's lists where another returns more."""
    fewer = _fewer(comp, j)
    return int(comp.lengths(j)[fewer].min()) if fewer.any() else 0


def _on_queries(comp: Comparison, n: int) -> str:
    """"7 of the 25 queries", in the data's own words."""
    _, queries = nouns(comp)
    total = int(comp.counted.sum())
    noun = queries if total != 1 else singular(queries)
    if n == total and total > 1:  # "21 of the 21 queries" (dr2 7)
        return f"every one of the {total:,} {noun}"
    return f"{n:,} of the {total:,} {noun}"


def _fewer_note(comp: Comparison, j: int) -> str:
    """length_notes' sentence for configuration j where it returns fewer results than
    another on some queries and no limit of its own explains it (a min score, or a model
    that finds fewer candidates): "" where it never does, or no metric reaches past it."""
    own = comp.lengths(j)
    others = [c for c in range(len(comp.configs)) if c != j]
    fewer = _fewer(comp, j)
    if not fewer.any():
        return ""
    metrics = _cut_metrics(comp, int(own[fewer].min()))
    if not metrics:
        return ""
    name = comp.configs[j].name
    longer = [comp.configs[c].name for c in others if (comp.lengths(c) > own).any()]
    depths = _by_depth(comp, j, metrics)
    # its longest list is not said: as long as another's or not, it tells nothing of a
    # metric's depth (rc 6: "though its longest list is as long (43)" beside bm25's 40)
    return (f"{name} returns fewer results than {_and(longer)} on "
            f"{_on_queries(comp, int(fewer.sum()))}"
            + (f"; of those lists, {depths}: each metric of {name} counts only what it "
               "returned where its list is shorter than its depth" if depths else
               f": the {_and(metrics)} of {name} count only what it returned there")
            + ", so a difference there is partly how many results are returned, not how "
            "well they are ordered")


def _lengths_text(comp: Comparison, i: int, cutoff: int | None = None) -> str:
    """How the lengths of configuration i's lists and the first's differ, query by query:
    which returns fewer results on how many queries (and on how many nothing), and the
    longest list of each where those differ and the shorter is below `cutoff`, the
    headline's depth (11 results against 16 is no difference to a metric at 10)."""
    first, name = comp.configs[0].name, comp.configs[i].name
    la, lb = comp.lengths(0), comp.lengths(i)
    fewer_first, fewer_i = int((la < lb).sum()), int((lb < la).sum())
    if fewer_first and fewer_i:
        return (f"{first} returns fewer results on {_on_queries(comp, fewer_first)}, "
                f"{name} on {fewer_i:,}")
    shorter, longer, fewer = ((first, name, fewer_first) if fewer_first
                              else (name, first, fewer_i))
    a, b = int(la.max(initial=0)), int(lb.max(initial=0))
    short, long_ = (la, lb) if fewer_first else (lb, la)
    emptied = int(((short == 0) & (long_ > 0)).sum())
    # the queries both return nothing on: the total empty is said, not only those it emptied
    # ("nothing on 6 of them" had read as 6 empty where 10 of 25 were, 4 already)
    both = int(((short == 0) & (long_ == 0)).sum())
    most = ("" if a == b or (cutoff is not None and min(a, b) >= cutoff) else
            f" (at most {min(a, b):,} results a query, {longer} up to {max(a, b):,})")
    if emptied == fewer:  # "fewer results on 1 … and nothing on 1 of them"
        if both:
            return (f"{shorter} returns nothing on {_on_queries(comp, fewer + both)}: "
                    f"{longer} returns some on {fewer:,} of them, nothing on the other "
                    f"{both:,}")
        return f"{shorter} returns nothing on {_on_queries(comp, fewer)}, {longer} some"
    total = int(comp.counted.sum())
    none = ("" if not emptied and not both else
            f" and nothing on {emptied:,} of them" if not both else
            f" and nothing on {both:,} of the {total:,} (nor does {longer})"
            if not emptied else
            f" and nothing on {emptied + both:,} of the {total:,} ({emptied:,} newly, "
            f"{both:,} already empty under {longer})")
    return f"{shorter} returns fewer results on {_on_queries(comp, fewer)}{most}{none}"


def _cutoff(metric: str) -> int | None:
    from workbench.core.metrics.measures import parse_metric

    try:
        return parse_metric(metric)[1]
    except ValueError:
        return None
