"""Where two configurations rank alike and only stop at different lengths: whether the
shorter lists leave out relevant documents, and what that costs in recall."""

from __future__ import annotations

import numpy as np

from workbench.core.comparison import Comparison, MetricRow
from workbench.report.text.compared import nouns, singular, trained_pair
from workbench.report.text.lengths import _cutoff, _lengths_text, _on_queries
from workbench.report.text.numbers import p_text, pair_texts


def _shorter_lists(comp: Comparison, i: int, metric: str) -> str:
    """A sentence where configuration i and the first stop their lists at different lengths
    but also rank differently, and `metric` reads past the shorter list on some query where
    the lengths differ: its difference mixes the two ("" otherwise: a metric at 10 reads only
    the top 10, so a list of 66 against 100 is none of its difference; review rb, 3)."""
    if not comp.cut_short(i) or comp.same_order(i) or not _reads_past(comp, i, metric):
        return ""
    cut = _cutoff(metric)
    if cut is None:
        return f" Part of the difference is length: {_lengths_text(comp, i)} (see the note " \
            "under Metrics)."
    # only the lists shorter than the metric's depth count (rc 6: "bm25 on 50" of 51 tasks
    # had been said of r@10, where 11 of bm25's lists were shorter than 10)
    a, b = comp.lengths(0), comp.lengths(i)
    names = comp.configs[0].name, comp.configs[i].name
    short = [(names[0], names[1], int(((a < b) & (a < cut)).sum())),
             (names[1], names[0], int(((b < a) & (b < cut)).sum()))]
    short = [s for s in short if s[2]]
    if len(short) == 1:
        (who, other, n), = short
        said = (f"{who} returns fewer than {cut:,} results, and fewer than {other}, on "
                f"{_on_queries(comp, n)}")
    else:
        said = (f"each returns fewer than {cut:,} results, and fewer than the other, on some "
                f"{nouns(comp)[1]}: {names[0]} on {_on_queries(comp, short[0][2])}, "
                f"{names[1]} on {short[1][2]:,}")
    return f" Part of the difference is length: {said} (see the note under Metrics)."


def _reads_past(comp: Comparison, i: int, metric: str) -> bool:
    """Whether `metric` (its cut-off; none: the whole list) reads past the shorter of
    configuration i's and the first's lists on some counted query where their lengths
    differ."""
    cut = _cutoff(metric)
    a, b = comp.lengths(0), comp.lengths(i)
    differ = a != b  # both over the counted queries already
    shorter = np.minimum(a, b)[differ]
    return bool(shorter.size) and (cut is None or bool(np.any(shorter < cut)))


def relevant_left_out(comp: Comparison, i: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """Where configuration i and the first rank alike and stop at different lengths: the
    judged relevant documents the longer list of a query holds past the shorter's end, as
    ((documents, queries) configuration i leaves out and the first returns, (documents,
    queries) the first leaves out and i returns). A min score that drops them is a loss of
    recall, not only a shorter list."""
    qrels = comp.dataset.qrels or {}
    ids, qids = comp.dataset.corpus.ids, comp.dataset.queries.ids
    a, b = comp.results[0].ranking, comp.results[i].ranking
    lost = [[0, 0], [0, 0]]
    for q in np.flatnonzero(comp.counted):
        judged = qrels.get(qids[q]) or {}
        na, nb = int(a.count[q]), int(b.count[q])
        if na == nb or not judged:
            continue
        side, longer, start, stop = (0, a, nb, na) if na > nb else (1, b, na, nb)
        n = sum(judged.get(ids[int(d)], 0) > 0 for d in longer.docs[q, start:stop])
        if n:
            lost[side][0] += n
            lost[side][1] += 1
    return (lost[0][0], lost[0][1]), (lost[1][0], lost[1][1])


def _recall_metric(comp: Comparison, headline: str) -> MetricRow | None:
    """The metric row that counts relevant documents found deepest (r@100 before r@10), to
    show what a cut costs; None without one, or where it is the headline itself."""
    from workbench.core.metrics.measures import parse_metric

    best: tuple[int, MetricRow] | None = None
    for r in comp.rows:
        try:
            kind, cut = parse_metric(r.metric)
        except ValueError:
            continue
        if kind != "r" or r.metric == headline:
            continue
        depth = cut if cut is not None else 1 << 30
        if best is None or depth > best[0]:
            best = depth, r
    return None if best is None else best[1]


def _cut_verdict(comp: Comparison, i: int, metric: str) -> str | None:
    """In short's verdict where configuration i and the first rank every query alike, differ
    only in how many results they return, and neither leaves out a judged relevant document
    the other returns (None otherwise): more results then find nothing more, and the
    difference is a choice of length (and of cost: more to read or inject), not a better
    ranking. Where relevant documents are left out, `_cut_cost` says what that costs."""
    if not comp.cut_short(i) or not comp.same_order(i) or any(
            n for n, _ in relevant_left_out(comp, i)):
        return None
    return (f"the same order on every query, and only the lengths differ: "
            f"{_lengths_text(comp, i, _cutoff(metric))}; so the difference is how many "
            "results are returned, not a better ranking — more results also mean more to "
            "read or inject")


def _cut_cost(comp: Comparison, i: int, metric: str) -> tuple[str, str]:
    """A sentence where configuration i and the first rank alike, stop at different lengths,
    and the shorter lists leave out judged relevant documents the longer ones return: how
    many, and the recall that costs ("" otherwise). A min score of 0.3 that lost 45% of
    the relevant notes (r@100 −0.33, p < 0.001) had read "the difference is how many
    results are returned, not a better ranking", and its Δs went uncoloured. With it, the
    recall metric it names ("" for none), which the sentence on other metrics leaves out."""
    if not comp.cut_short(i) or not comp.same_order(i):
        return "", ""
    (by_i, q_i), (by_first, q_first) = relevant_left_out(comp, i)
    if not by_i and not by_first:
        return "", ""
    first, name = comp.configs[0].name, comp.configs[i].name
    docs, queries = nouns(comp)

    def left(who: str, other: str, n: int, q: int) -> str:
        return (f"{who} leaves out {n:,} judged relevant {docs if n != 1 else singular(docs)} "
                f"that {other} returns, on {q:,} {queries if q != 1 else singular(queries)}")

    lost = ", while ".join([t for t in (left(name, first, by_i, q_i) if by_i else "",
                             left(first, name, by_first, q_first) if by_first else "") if t])
    la, lb = comp.lengths(0), comp.lengths(i)
    if not ((la < lb).any() and (lb < la).any()):  # one side is shorter: the sentence's subject
        lost = lost.removeprefix(f"{name if by_i else first} ")
    recall = _recall_metric(comp, metric)
    cost = ""
    if recall is not None:
        p = recall.p_values[i]
        a, b, delta = pair_texts(recall.means[0], recall.means[i], recall.deltas[i])
        cost = (f" ({recall.metric} {a} → {b}, {delta}"
                + ("" if p is None or trained_pair(comp, i) else f", p {p_text(p)}") + ")")
    what = ("the loss comes from the cut, not from a change of order" if not by_first else
            "the gain comes from the longer lists, not from a better order, and more results "
            "also mean more to read or inject" if not by_i
            else "the difference comes from where each stops, not from a change of order")
    return (f" The two rank in the same order where both return results, but "
            f"{_lengths_text(comp, i, _cutoff(metric))}, and so {lost}{cost}: {what}.",
            recall.metric if recall is not None else "")
