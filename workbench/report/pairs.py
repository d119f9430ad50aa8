"""Every pair of a comparison's configurations, each set against the other on one metric
(`pair_metric`: the one tune tuned a side for, else the pair's headline), with a paired test
and Holm's adjustment over the pairs tested.

The metric table sets each configuration against the first only. With three or more, "is the
tuned hybrid better than dense?" is a question about two that are not the first; and among
n configurations there are n(n − 1)/2 pairs, so a p below 0.05 somewhere is likely by chance
alone. Holm's step-down adjustment (Holm 1979) controls the chance of calling any pair
different when none is (the family-wise error) and rejects at least what Bonferroni's does:
sort the m p-values, multiply the k-th smallest by m − k + 1, and carry the running maximum
up (an adjusted p never falls below a smaller one's).

Not counted in m, and not called different: a pair on which no query moved (p 1: it can
never be), a pair with training scores on a side (no test means anything there), and a
configuration that returns nothing on every query (a setup to fix, not a ranking to beat; the
report's notes say why). One rule with the metric table (`text.chance`, review rb 1): a
primary comparison (a tuned configuration against its own start on the metric it was tuned
for, held out) is tested alone at 0.05, whatever else is shown; a pair with the first is the
table's own test, adjusted over the table's exploratory p-values, so that one test reads one
way in both; every other pair is adjusted over those and the other pairs'.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from workbench.core.comparison import Comparison, higher_is_better
from workbench.core.metrics.significance import paired_test
from workbench.report.text import (
    _and,
    cases_passed,
    headline_metric,
    is_count,
    minus_text,
    nouns,
    p_text,
    pair_texts,
    shown_name,
    singular,
)
from workbench.report.text.chance import (
    _family,
    _family_moved,
    ceiling,
    ceiling_of,
    ceiling_words,
    holm_p,
    primary,
)
from workbench.report.text.headline import tuned_for

# below this many configurations the metric table already holds every pair; above the most,
# every pair is too many to read or to test (66 pairs at 12)
PAIRS_FROM, PAIRS_MOST = 3, 12
# the resamples a pair's randomisation test gets at least: enough that the smallest p it can
# give, times the pairs tested, stays far below 0.05 (10,000 had floored 528 pairs' Holm p
# at 0.053, whatever the data)
RESAMPLES = 10_000
# pairs named in the sentence, and single-test-only pairs listed, before "and N more"
NAMED_MOST = 5


@dataclass(frozen=True)
class Pair:
    """Configurations a and b (indices, a < b) on `metric`: b's mean − a's is `delta`;
    `better` / `worse` count the queries on which b did better / worse than a. p_value is
    the paired randomisation test's, None where the pair is not tested (`why_not`: training
    scores, a side that returns nothing); `adjusted` is Holm's over the pairs tested, None
    where the pair is not one (no query moved, or no test), p itself for a `primary`
    comparison (tested alone)."""

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
    why_not: str = ""
    primary: bool = False

    @property
    def moved(self) -> bool:
        return self.better + self.worse > 0

    @property
    def tested(self) -> bool:
        return self.adjusted is not None

    @property
    def beyond_chance(self) -> bool:
        return self.adjusted is not None and self.adjusted < 0.05


@dataclass(frozen=True)
class Pairs:
    """`pairs`' answer: the pairs, the configurations left out (returning nothing), the
    pairs with no metric in common (left out), and, over PAIRS_MOST configurations, their
    number (no pair tested)."""

    found: list[Pair]
    empty: list[int]
    no_metric: int = 0
    too_many: int = 0

    def __bool__(self) -> bool:
        return bool(self.found or self.too_many)

    @property
    def tested(self) -> list[Pair]:
        return [f for f in self.found if f.tested]


def pairs(comp: Comparison) -> Pairs:
    """Every pair of configurations (in their order: 0–1, 0–2, …, 1–2, …) on the pair's
    metric (`pair_metric`); empty with fewer than three configurations or without
    judgments. The means are the metric table's, over the queries it counts."""
    n = len(comp.configs)
    if n < PAIRS_FROM or not comp.rows:
        return Pairs([], [])
    if n > PAIRS_MOST:
        return Pairs([], [], too_many=n * (n - 1) // 2)
    rows = {r.metric: r for r in comp.rows}
    mask = comp.counted
    empty = [j for j in range(n) if not comp.lengths(j).any()]
    pending = []
    no_metric = 0
    for a in range(n):
        for b in range(a + 1, n):
            metric = pair_metric(comp, a, b)
            if not metric:
                no_metric += 1
                continue
            pending.append((a, b, metric))
    m = max(1, len(pending))
    resamples = max(RESAMPLES, math.ceil(20 * m / 0.05))
    found: list[tuple[int, int, str, float | None, int, int, str]] = []
    for a, b, metric in pending:
        test = paired_test(comp.results[a].per_query[metric][mask],
                           comp.results[b].per_query[metric][mask], n_resamples=resamples)
        better, worse = ((test.improved, test.worsened) if higher_is_better(metric)
                         else (test.worsened, test.improved))
        trained = (comp.configs[a].name in comp.training
                   or comp.configs[b].name in comp.training)
        why = ("training scores" if trained else
               "returns nothing" if a in empty or b in empty else "")
        table_p = rows[metric].p_values[b] if a == 0 else None
        # with the first, the metric table's own test of the pair: one test, one p (its
        # 10,000 resamples floor p at 1e-4: times the 66 pairs at most, still far below 0.05)
        tested = table_p if table_p is not None else test.p_value
        found.append((a, b, metric, None if why else tested, better, worse, why))
    # one rule (`text.chance`): a primary comparison is tested alone; a pair with the first
    # is the metric table's test, adjusted over the table's family; every other pair over
    # that family and the other pairs' p-values, as exploratory as the table's
    first = {k for k, (a, b, metric, *_rest) in enumerate(found) if primary(comp, a, b, metric)}
    others = [k for k, (a, *_rest) in enumerate(found) if a != 0 and k not in first]
    family = _family(comp)
    adjusted_others = holm([*family, *[found[k][3] if found[k][3] is not None
                                       and found[k][4] + found[k][5] else None
                                       for k in others]])[len(family):]
    by_other = dict(zip(others, adjusted_others, strict=True))
    out = []
    for k, (a, b, metric, p, better, worse, why) in enumerate(found):
        row = rows[metric]
        adj: float | None
        if p is None or not better + worse:
            adj = None
        elif k in first:
            adj = p
        elif a == 0:
            adj = holm_p(comp, p)
        else:
            adj = by_other[k]
        out.append(Pair(a, b, metric, row.means[a], row.means[b],
                        row.means[b] - row.means[a], better, worse, p, adj, why,
                        primary=k in first))
    return Pairs(out, empty, no_metric)


def pair_metric(comp: Comparison, a: int, b: int) -> str:
    """The metric a pair is set against each other on: the one tune tuned a side for, as its
    `[tuned]` record names it (`tuned_for`: rc 3, the pair tune tested had been judged on
    bundle_recall, the opposite way to tune's own verdict on ndcg@10), moved or not; else the
    headline the two both have (`headline_metric`); where no query moved on that between
    them, the first of the table's quality metrics both have that one moved on (codeledger
    settings that differ only in what fills a bundle leave its recall level and move its
    precision), as the per-query chart picks its metric. "" where they have no quality
    metric in common."""
    tuned = tuned_for(comp, a, b)
    if tuned:
        return tuned
    headline = headline_metric(comp, b, a)
    if not headline:
        return ""
    mask = comp.counted
    missing = np.full(len(comp.dataset.queries), np.nan)

    def moved(metric: str) -> bool:
        x = comp.results[a].per_query.get(metric, missing)[mask]
        y = comp.results[b].per_query.get(metric, missing)[mask]
        d = y - x
        return bool(np.any(np.isfinite(d) & (np.abs(d) > 1e-12)))

    if moved(headline):
        return headline
    for r in comp.rows:
        if (is_count(r.metric) or r.metric.startswith("judged@")
                or math.isnan(r.means[a]) or math.isnan(r.means[b])):
            continue
        if moved(r.metric):
            return r.metric
    return headline


def metric_rule(comp: Comparison, found: Pairs, label: Callable[[str], str] = str) -> str:
    """How the pairs' metrics were chosen, only the reasons that apply, in the order
    `pair_metric` tries them: "ndcg@10 where a side was tuned for it, else the first quality
    metric both have: r@10" (rc 3: "the metric both have" where both had several)."""
    why: dict[str, list[str]] = {}
    for f in found.found:
        reason = ("tuned" if tuned_for(comp, f.a, f.b) == f.metric
                  else "apart" if _tuned_apart(comp, f.a, f.b)
                  else "moved" if f.metric != headline_metric(comp, f.b, f.a)
                  else "bundle" if f.metric == "bundle_recall" else "first")
        metrics = why.setdefault(reason, [])
        if f.metric not in metrics:
            metrics.append(f.metric)
    one = singular(nouns(comp)[1])
    words = {"tuned": "{} where a side was tuned for it",
             "apart": "{} where the two were tuned for different metrics, neither tested by "
                      "tune against the other",
             "bundle": "{} where both select bundles",
             "first": "the first quality metric both have: {}",
             "moved": f"the first quality metric both have that a {one} moved on: {{}}"}
    said = [words[r].format(_and([label(m) for m in why[r]]))
            for r in ("tuned", "apart", "bundle", "first", "moved") if r in why]
    return ", else ".join(said)


def _tuned_apart(comp: Comparison, a: int, b: int) -> bool:
    """Whether a and b both carry `[tuned]` records, naming different metrics (dr6 1: such a
    pair is no run's own test, so it is judged on the metric any other pair would be, and
    the rule says so)."""
    named = [str(getattr(comp.tuned.get(comp.configs[j].name), "metric", "") or "")
             for j in (a, b)]
    return all(named) and named[0] != named[1]


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


def pair_table(comp: Comparison, found: Pairs, *, minus: bool = False,
               star: bool = False) -> tuple[list[str], list[list[str]]]:
    """One row per pair: the two, the metric, their means, b − a (with `star`, ★ where the
    pair differs beyond chance), p, Holm's p and the queries b did better / worse on; "—"
    where the pair is not tested (its reason in the p column's place: training scores, a
    side that returns nothing) and in Holm p where no query moved."""
    header = ["A", "B", "metric", "A's mean", "B's mean", "B − A", "p", "Holm p",
              "B better/worse"]
    # the data's own test, where it has one (decisions-eval's cases), beside the metric
    passed = cases_passed(comp)
    if passed is not None:
        header.append("cases passing A → B")
    rows = []
    for f in found.found:
        # to the decimals at which B − A is the difference of the two means shown
        mean_a, mean_b, delta = pair_texts(f.mean_a, f.mean_b, f.delta, minus=minus)
        delta += " ★" if star and f.beyond_chance else ""
        if f.why_not:
            tail = [f"— ({f.why_not})", "—", "—"]
        else:
            tail = [p_text(f.p_value), p_text(f.adjusted) if f.tested else "—",
                    f"{f.better}/{f.worse}"]
        rows.append([shown_name(comp, comp.configs[f.a].name),
                     shown_name(comp, comp.configs[f.b].name), f.metric,
                     mean_a, mean_b, delta, *tail])
        if passed is not None:
            total = len(passed[f.a])
            rows[-1].append(f"{sum(passed[f.a].values())}/{total} → "
                            f"{sum(passed[f.b].values())}/{total}")
    return header, rows


def _plus(x: float) -> str:
    return minus_text(x).replace("−", "-")


def pair_note(comp: Comparison, found: Pairs | None = None) -> str:
    """What the pair table's columns are, with the queries it counts and how each pair's
    metric was chosen (`found`: the pairs shown, found again where not given)."""
    counted = int(comp.counted.sum())
    queries = nouns(comp)[1]
    rule = metric_rule(comp, pairs(comp) if found is None else found)
    return (f"Each pair on one metric ({rule}), over the {counted:,} {queries} the metric "
            "table counts. B − A: B's mean minus A's; p: the paired randomisation test of "
            f"the two; {holm_rule(comp, found)}. —: not tested (no "
            f"{singular(queries)} moved, training scores, or a configuration that returns "
            "nothing)")


def holm_rule(comp: Comparison, found: Pairs | None = None) -> str:
    """What the pair table's Holm p is adjusted over, with each family's size, only the cases
    its rows have (rB 3: one column held p-values of two families, and compare named one):
    "Holm p: that p after Holm's adjustment (…), over one of two families: a pair with
    defaults, over the metric table's 15 p-values (the same Holm p the metric table gives
    it); any other pair, over those 15 and the 3 other pairs' p-values (18 in all)"."""
    found = pairs(comp) if found is None else found
    table = len(_family(comp))
    first = shown_name(comp, comp.configs[0].name)
    with_first = any(f.tested and not f.primary and f.a == 0 for f in found.found)
    others = sum(f.tested and not f.primary and f.a != 0 for f in found.found)
    own = "pair's" if others == 1 else "pairs'"
    alone = any(f.tested and f.primary for f in found.found)
    cases = []
    if with_first:
        cases.append(f"a pair with {first}, over the metric table's {table} p-value"
                     f"{'' if table == 1 else 's'} (the same Holm p the metric table gives it)")
    if others:
        cases.append(f"{'any other pair' if with_first else 'a pair'}, over "
                     + (f"those {table} and the {others} other {own} p-values "
                        f"({table + others} in all)" if table else f"the {others} {own} p-values"))
    if alone:
        cases.append("a comparison tune set out to test, its own p alone")
    rule = "Holm p: that p after Holm's adjustment (the k-th smallest of m times m − k + 1)"
    if not cases:
        return rule
    if len(cases) == 1:
        return f"{rule}: {cases[0]}"
    return (f"{rule}, over one of {'two' if len(cases) == 2 else 'three'} families: "
            + "; ".join(cases))


def pair_summary(comp: Comparison, found: Pairs, name: Callable[[str], str] = str,
                 label: Callable[[str], str] = str, rule: str = "under Metrics") -> str:
    """The pairs in a few sentences: those that differ beyond chance after Holm's adjustment,
    the better first (at most NAMED_MOST by name), those below 0.05 as a single test only,
    and what was not tested, or that none differs. `label`: a metric as the reader's table
    names it (the window's "nDCG@10"). `rule`: where the rule is said (compare and the
    window have no Metrics section: "above the pairs"), not said again here (dr6 3, 9)."""
    if found.too_many:
        n = len(comp.configs)
        return (f"Every pair: {n} configurations make {found.too_many:,} pairs, too many to "
                f"set each against each (at most {PAIRS_MOST} configurations); compare the "
                "few that matter on their own.")
    if not found.found:
        return ""
    queries = nouns(comp)[1]
    metrics = list(dict.fromkeys(f.metric for f in found.found))
    on = (f" on {label(metrics[0])}" if len(metrics) == 1
          else f", each on one metric ({metric_rule(comp, found, label)})")
    counted = (f" over the {int(comp.counted.sum()):,} {queries} counted"
               if comp.set_aside else "")
    tested = found.tested
    m = len(tested)
    left = _left_out(comp, found, name)
    if not m:
        idle = sum(not f.moved and not f.why_not for f in found.found)
        if idle == len(found.found):
            return f"Every pair{on}{counted}: no {singular(queries)} moved between any two."
        return f"Every pair{on}{counted}: no pair could be tested.{left}"
    beyond = [f for f in tested if f.beyond_chance]
    said = [_win_text(comp, f, name, len(metrics) > 1, label) for f in beyond[:NAMED_MOST]]
    if len(beyond) > NAMED_MOST:
        said.append(f"{len(beyond) - NAMED_MOST} more (★ in the table)")
    holm = f"by the rule {rule}"
    if m == 1:
        lead = (f"Every pair{on}{counted}: the one pair tested "
                + (f"differs beyond chance: {said[0]}." if beyond else
                   "does not differ beyond chance."))
    elif not beyond:
        lead = (f"Every pair{on}{counted}: none of the {m} pairs tested differs beyond chance "
                + holm + ".")
    else:
        share = ("both" if m == 2 and len(beyond) == 2 else f"all {m}" if len(beyond) == m
                 else f"{len(beyond)} of the {m}")
        lead = (f"Every pair{on}{counted}: {share} pairs tested "
                f"{'differs' if len(beyond) == 1 else 'differ'} beyond chance {holm}: "
                f"{'; '.join(said)}.")
    return lead + _single_only(comp, tested, m, name, found) + left


def _win_text(comp: Comparison, f: Pair, name: Callable[[str], str], mixed: bool,
              label: Callable[[str], str] = str) -> str:
    b_wins = f.delta > 0 if higher_is_better(f.metric) else f.delta < 0
    win, lose = (f.b, f.a) if b_wins else (f.a, f.b)
    metric = f"{label(f.metric)} " if mixed else ""
    test = (f"p {p_text(f.p_value)}, the primary comparison, tested alone" if f.primary
            else f"Holm p {p_text(f.adjusted)}")
    return (f"{name(comp.configs[win].name)} over {name(comp.configs[lose].name)} "
            f"({metric}{_shown_delta(f)}, {test})")


def pair_ceiling(comp: Comparison, found: Pairs, f: Pair) -> tuple[int, int, bool] | None:
    """Where too few queries moved under the p-values pair `f` is adjusted over for any of
    them to be beyond chance (`chance.ceiling_of`): a pair with the first, over the metric
    table's; any other, over those and the other pairs' (`pairs`); None for a primary
    comparison (tested alone) and where enough moved."""
    if f.primary or not f.tested:
        return None
    if f.a == 0:
        return ceiling(comp)
    others = [g.better + g.worse for g in found.found
              if g.a != 0 and not g.primary and g.p_value is not None and g.moved]
    return ceiling_of([k for _, k in _family_moved(comp)] + others)


def _single_only(comp: Comparison, tested: list[Pair], m: int,
                 name: Callable[[str], str], found: Pairs | None = None) -> str:
    """The exploratory pairs below 0.05 alone that are not called different after Holm's
    adjustment: weak evidence, said so, so that the two sections do not read as
    contradicting each other; where too few queries moved for any of the p-values adjusted
    together to be beyond chance (`pair_ceiling`), that instead (dr6 5: "weak evidence"
    where no evidence could be more)."""
    alone = [f for f in tested if (f.p_value or 1.0) < 0.05 and not f.beyond_chance]
    if not alone:
        return ""
    groups: dict[tuple[int, int, bool] | None, list[Pair]] = {}
    for f in alone:
        groups.setdefault(None if found is None else pair_ceiling(comp, found, f),
                          []).append(f)
    out = ""
    for few, group in groups.items():
        both = "; ".join(f"{name(comp.configs[f.a].name)} and {name(comp.configs[f.b].name)} "
                         f"(p {p_text(f.p_value)}, Holm p {p_text(f.adjusted)})"
                         for f in group[:NAMED_MOST])
        more = f" and {len(group) - NAMED_MOST} more" if len(group) > NAMED_MOST else ""
        # which p-values: the metric table's for a pair with the first, else those and the
        # other pairs' (dr1 1: unscoped, it had read as covering a pair marked ★)
        among = (None if few is None else f"the {few[1]} p-values in the metric table"
                 if all(f.a == 0 for f in group) else
                 f"the {few[1]} p-values these pairs are adjusted over")
        why = (f"{ceiling_words(comp, few, 'pair or side look', among)}" if few is not None else
               "exploratory and not below 0.05 after Holm's adjustment (weak evidence)")
        out += f" Below 0.05 alone, but {why}: {both}{more}."
    return out


def _left_out(comp: Comparison, found: Pairs, name: Callable[[str], str]) -> str:
    """What the pairs leave out: configurations that return nothing, pairs with training
    scores, pairs with no metric in common."""
    out = []
    if found.empty:
        names = _and([name(comp.configs[j].name) for j in found.empty])
        one = len(found.empty) == 1
        out.append(f"the pairs of {names}, which {'returns' if one else 'return'} nothing "
                   "on any query")
    idle = [f for f in found.found if not f.why_not and not f.moved]
    if idle:  # the same rankings (a configuration saved twice): nothing to test
        pairs_ = _and([f"{name(comp.configs[f.a].name)} and {name(comp.configs[f.b].name)}"
                       for f in idle[:NAMED_MOST]]
                      + ([f"{len(idle) - NAMED_MOST} more"] if len(idle) > NAMED_MOST else []))
        out.append(f"{pairs_}, on which no {singular(nouns(comp)[1])} moved")
    trained = sum(f.why_not == "training scores" for f in found.found)
    if trained:
        out.append(f"{trained} pair{'s' if trained > 1 else ''} against training scores")
    if found.no_metric:
        out.append(f"{found.no_metric} pair{'s' if found.no_metric > 1 else ''} with no "
                   "quality metric in common (left out of the table)")
    return f" Not tested: {'; '.join(out)}." if out else ""


def _shown_delta(f: Pair) -> str:
    """The pair's difference, unsigned, as the pair table shows B − A: the difference of the
    two means shown (review rb, 7: the sentence had given +0.0215, the rounded exact
    difference, under a table of +0.0216)."""
    _, _, delta = pair_texts(f.mean_a, f.mean_b, f.delta)
    return "+" + delta.lstrip("+−-")
