"""With three or more configurations, which is best and whether Every pair's adjusted
test agrees with In short's single one."""

from __future__ import annotations

import math

from workbench.core.comparison import Comparison, MetricRow, higher_is_better
from workbench.report.text.chance import ceiling_words, weak_p
from workbench.report.text.compared import _and, nouns
from workbench.report.text.numbers import mean_text, p_text, pair_texts


def _not_among_pairs(comp: Comparison, i: int, metric: str, verdict: str) -> str:
    """Where In short calls configuration i different from the first beyond chance and Every
    pair, adjusting for every pair, does not (review dr1, 4: the two had given one test
    opposite verdicts in one report): that, with the adjusted p; "" otherwise."""
    if not verdict.endswith("beyond chance"):
        return ""
    from workbench.report.pairs import pairs

    found = pairs(comp)
    pair = next((f for f in found.found if (f.a, f.b) == (0, i) and f.metric == metric
                 and f.adjusted is not None), None)
    if pair is None or pair.adjusted is None or pair.beyond_chance:
        return ""
    return (f" as a single test, but not after Holm's adjustment for the "
            f"{len(found.tested)} pairs (Holm p {p_text(pair.adjusted)}, Every pair)")


def best_line(comp: Comparison, metric: str, row: MetricRow) -> str:
    """With three or more configurations, the one that scores best on `metric` against the
    runner-up where neither is the first (each line above sets one against the first only,
    so "dense or the tuned hybrid?" had needed a second run): their difference, and the
    paired test between the two, over the queries counted. "" with fewer, where the first
    is one of the two, or where any figure is a training score (no test to give)."""
    from workbench.core.metrics.significance import paired_test

    n = len(comp.configs)
    if n < 3 or comp.training or any(math.isnan(x) for x in row.means):
        return ""
    up = higher_is_better(metric)
    order = sorted(range(n), key=lambda j: -row.means[j] if up else row.means[j])
    best, second = order[0], order[1]
    if 0 in (best, second):  # the line above sets these two against each other already
        return ""
    a, b = comp.configs[best].name, comp.configs[second].name
    if abs(row.means[best] - row.means[second]) <= 1e-12:
        tied = [comp.configs[j].name for j in order
                if abs(row.means[j] - row.means[best]) <= 1e-12]  # every one, not two of three
        return f"Best on {metric}: {_and(tied)}, tied ({mean_text(row.means[best])})."
    mask = comp.counted
    test = paired_test(comp.results[second].per_query[metric][mask],
                       comp.results[best].per_query[metric][mask])
    better, worse = (test.improved, test.worsened) if up else (test.worsened, test.improved)
    p = test.p_value
    changed = better + worse
    weak = weak_p(comp, p)  # by the rule the table's p-values are read with
    from workbench.report.pairs import pairs

    # the two were picked after their means were seen: the verdict is Every pair's, adjusted
    # for every pair (it had called a p of 0.029 beyond chance there while Every pair, a
    # section below, called no pair different)
    found = pairs(comp)
    pair = next((f for f in found.found if {f.a, f.b} == {best, second}
                 and f.metric == metric and f.tested), None)
    if pair is not None and pair.adjusted is not None:
        from workbench.report.pairs import pair_ceiling

        p = pair.p_value if pair.p_value is not None else p  # one test, one p
        # too few queries moved for any p adjusted with it to be beyond chance: said, not
        # "weak evidence" (dr6 5)
        ceil = pair_ceiling(comp, found, pair)
        few = ceiling_words(comp, ceil, "pair or side look", None if ceil is None else
                            f"the {ceil[1]} p-values in the metric table" if pair.a == 0 else
                            f"the {ceil[1]} p-values Every pair adjusts it over")
        verdict = ("a difference beyond chance: the primary comparison, tested alone"
                   if pair.primary and pair.beyond_chance else
                   "a difference beyond chance after Holm's adjustment (Holm p "
                   f"{p_text(pair.adjusted)}, Every pair)" if pair.beyond_chance else
                   f"p below 0.05 alone, but {few} (Holm p {p_text(pair.adjusted)}, Every "
                   "pair)" if p < 0.05 and few else
                   "p below 0.05 alone, but exploratory and not below 0.05 after Holm's "
                   f"adjustment (Holm p {p_text(pair.adjusted)}, Every pair): weak evidence"
                   if p < 0.05 else
                   f"too few {nouns(comp)[1]} differ ({changed}) for any test to tell them "
                   "apart" if changed <= 5 else
                   "no clear difference between the two: it may be chance")
    else:
        verdict = ("a difference beyond chance" if p < 0.05 and not weak else
                   f"p below 0.05, but {weak}" if p < 0.05 else
                   f"too few {nouns(comp)[1]} differ ({changed}) for any test to tell them "
                   "apart" if changed <= 5 else
                   "no clear difference between the two: it may be chance")
    low, high, by = pair_texts(row.means[second], row.means[best])
    return (f"Best on {metric}: {a} ({high}), ahead of the runner-up {b} ({low}) by "
            f"{by.lstrip('+')}, "
            f"{better} {nouns(comp)[1]} better and {worse} worse (p {p_text(p)}): {verdict}.")
