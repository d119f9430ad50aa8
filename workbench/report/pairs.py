"""Every pair of a comparison's configurations, each set against the other on the metric both
have (`text.headline_metric` of the pair), with a paired test and Holm's adjustment over the
pairs tested.

The metric table sets each configuration against the first only. With three or more, "is the
tuned hybrid better than dense?" is a question about two that are not the first; and among
n configurations there are n(n − 1)/2 pairs, so a p below 0.05 somewhere is likely by chance
alone. Holm's step-down adjustment (Holm 1979) controls the chance of calling any pair
different when none is (the family-wise error) and rejects at least what Bonferroni's does:
sort the m p-values, multiply the k-th smallest by m − k + 1, and carry the running maximum
up (an adjusted p never falls below a smaller one's). A pair on which no query moved has p 1
and can never be called different, so it is not counted in m (as the metric table's caution
does not count it either).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from workbench.core.comparison import Comparison, higher_is_better
from workbench.core.metrics.significance import paired_test
from workbench.report.text import (
    headline_metric,
    mean_text,
    minus_text,
    nouns,
    p_text,
    singular,
)

# below this many configurations the metric table already holds every pair
PAIRS_FROM = 3


@dataclass(frozen=True)
class Pair:
    """Configurations a and b (indices, a < b) on `metric`: b's mean − a's is `delta`;
    `better` / `worse` count the queries on which b did better / worse than a. p_value is
    the paired randomisation test's, None where either side has training scores (no test
    means anything there); `adjusted` is Holm's over the pairs tested, None where p is."""

    a: int
    b: int
    metric: str
    mean_a: float
    mean_b: float
    delta: float
    better: int
    worse: int
    p_value: float | None
    adjusted: float | None

    @property
    def moved(self) -> bool:
        return self.better + self.worse > 0

    @property
    def beyond_chance(self) -> bool:
        return self.adjusted is not None and self.adjusted < 0.05


def pairs(comp: Comparison) -> list[Pair]:
    """Every pair of configurations (in their order: 0–1, 0–2, …, 1–2, …) on the headline
    metric the two both have; [] with fewer than three configurations, without judgments, or
    for a pair with no metric in common (left out). The means are the metric table's, over
    the queries it counts."""
    n = len(comp.configs)
    if n < PAIRS_FROM or not comp.rows:
        return []
    rows = {r.metric: r for r in comp.rows}
    mask = comp.counted
    found: list[tuple[int, int, str, float | None, int, int]] = []
    for a in range(n):
        for b in range(a + 1, n):
            metric = headline_metric(comp, b, a)
            if not metric:
                continue
            trained = (comp.configs[a].name in comp.training
                       or comp.configs[b].name in comp.training)
            test = paired_test(comp.results[a].per_query[metric][mask],
                               comp.results[b].per_query[metric][mask])
            up = higher_is_better(metric)
            better, worse = (test.improved, test.worsened) if up else (test.worsened,
                                                                      test.improved)
            found.append((a, b, metric, None if trained else test.p_value, better, worse))
    adjusted = holm([p if p is not None and better + worse else None
                     for _, _, _, p, better, worse in found])
    out = []
    for (a, b, metric, p, better, worse), adj in zip(found, adjusted, strict=True):
        row = rows[metric]
        if p is not None and adj is None:  # no query moved: p 1, never different
            adj = 1.0
        out.append(Pair(a, b, metric, row.means[a], row.means[b],
                        row.means[b] - row.means[a], better, worse, p, adj))
    return out


def holm(p_values: list[float | None]) -> list[float | None]:
    """Holm's step-down adjusted p-values of those given (None: not a test, left as None and
    not counted): the k-th smallest of m times m − k + 1, the running maximum carried up,
    at most 1."""
    tested = sorted((p, i) for i, p in enumerate(p_values) if p is not None)
    m = len(tested)
    out: list[float | None] = [None] * len(p_values)
    running = 0.0
    for k, (p, i) in enumerate(tested):
        running = max(running, min(1.0, (m - k) * p))
        out[i] = running
    return out


def pair_table(comp: Comparison, found: list[Pair], *, minus: bool = False,
               star: bool = False) -> tuple[list[str], list[list[str]]]:
    """One row per pair: the two, the metric, their means, b − a (with `star`, ★ where the
    pair differs beyond chance), p, Holm's p and the queries b did better / worse on ("—"
    for no test: training scores)."""
    sign = minus_text if minus else _plus
    header = ["A", "B", "metric", "A's mean", "B's mean", "B − A", "p", "Holm p",
              "B better/worse"]
    rows = []
    for f in found:
        tested = f.p_value is not None
        rows.append([comp.configs[f.a].name, comp.configs[f.b].name, f.metric,
                     mean_text(f.mean_a), mean_text(f.mean_b),
                     sign(f.delta) + (" ★" if star and f.beyond_chance else ""),
                     p_text(f.p_value) if tested else "—",
                     p_text(f.adjusted) if tested else "—",
                     f"{f.better}/{f.worse}" if tested else "—"])
    return header, rows


def _plus(x: float) -> str:
    return minus_text(x).replace("−", "-")


def pair_summary(comp: Comparison, found: list[Pair],
                 name: Callable[[str], str] = str) -> str:
    """The pairs in a sentence: those that differ beyond chance after Holm's adjustment,
    the better first, or that none does."""
    tested = [f for f in found if f.p_value is not None and f.moved]
    if not found:
        return ""
    m = len(tested)
    metrics = sorted({f.metric for f in found})
    on = f" on {metrics[0]}" if len(metrics) == 1 else ", each on the metric both have"
    untested = len(found) - len(tested)
    left = ""
    if untested:
        idle = sum(f.p_value is not None and not f.moved for f in found)
        trained = untested - idle
        why = [*([f"{idle} with no {singular(nouns(comp)[1])} moved"] if idle else []),
               *([f"{trained} against training scores"] if trained else [])]
        left = f" ({' and '.join(why)} not tested)"
    if not m:
        return f"Every pair{on}: none tested{left}."
    family = (f"after Holm's adjustment for the {m} pairs tested{left}" if m > 1
              else f"(1 pair tested{left})")
    beyond = [f for f in tested if f.beyond_chance]
    # a p below 0.05 the metric table or In short shows for a pair with the first, which
    # the adjustment does not keep: said, so that the two do not read as contradicting
    alone = [f for f in tested if (f.p_value or 1.0) < 0.05 and not f.beyond_chance]
    but = ""
    if alone:
        both = "; ".join(f"{name(comp.configs[f.a].name)} and {name(comp.configs[f.b].name)} "
                         f"(p {p_text(f.p_value)}, Holm p {p_text(f.adjusted)})" for f in alone)
        but = (f" Below 0.05 as a single test but not among the {m} pairs: {both} (the "
               "metric table's p-values are single tests, each against the first).")
    if not beyond:
        return f"Every pair{on}: no pair differs beyond chance {family}.{but}"
    said = []
    for f in beyond:
        b_wins = f.delta > 0 if higher_is_better(f.metric) else f.delta < 0
        win, lose = (f.b, f.a) if b_wins else (f.a, f.b)
        metric = f"{f.metric} " if len(metrics) > 1 else ""
        said.append(f"{name(comp.configs[win].name)} over {name(comp.configs[lose].name)} "
                    f"({metric}{minus_text(abs(f.delta))}, "
                    f"Holm p {p_text(f.adjusted)})")
    rest = len(tested) - len(beyond)
    tail = (f"; the other {rest} do not" if rest > 1 else "; the other does not" if rest
            else "")
    return f"Every pair{on}, beyond chance {family}: {'; '.join(said)}{tail}.{but}"
