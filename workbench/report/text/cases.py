"""A fixture's own cases (pi-lodestone's eval): which pass under each configuration,
which the harness counts as success where the metric table cannot show it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from workbench.core.comparison import Comparison, MetricRow, higher_is_better
from workbench.core.metrics.significance import paired_test
from workbench.report.text.compared import nouns, shown_name, singular
from workbench.report.text.numbers import p_text

if TYPE_CHECKING:
    from workbench.core.cases import CaseResult


def case_results(comp: Comparison) -> list[dict[str, CaseResult]] | None:
    """Per configuration, each counted fixture case's result (`core.cases.check_cases`);
    None without cases."""
    from workbench.core.cases import check_cases, has_cases

    if not has_cases(comp.dataset):
        return None
    counted = {q.id for q, c in zip(comp.dataset.queries, comp.counted, strict=True) if c}
    return [{c.query: c for c in check_cases(comp.dataset, res.ranking).cases
             if c.query in counted} for res in comp.results]


def cases_passed(comp: Comparison) -> list[dict[str, bool]] | None:
    """Per configuration, whether each counted fixture case passes; None without cases."""
    results = case_results(comp)
    if results is None:
        return None
    return [{q: c.passed for q, c in r.items()} for r in results]


def case_change(comp: Comparison, i: int) -> str:
    """Configuration i against the first by the fixture's own test (each case passes where its
    expected decisions are in its top K and none it must not include is): "cases passing
    20/30 → 14/30, 6 now passing and 12 now failing (12 of them return a decision the case
    must not include; p 0.238): fewer pass, but it may be chance"; "" without cases. It is
    what `tune` optimises on such data by default, so In short leads with it (review rv3,
    F2: an ndcg@10 "better, beyond chance" came first while 20/30 fell to 14/30)."""
    results = case_results(comp)
    if results is None or not results[0]:
        return ""
    a, b = results[0], results[i]
    n = len(a)
    before, after = sum(c.passed for c in a.values()), sum(c.passed for c in b.values())
    now = [q for q in a if b[q].passed and not a[q].passed]
    lost = [q for q in a if a[q].passed and not b[q].passed]
    said = f"cases passing {before}/{n} → {after}/{n}"
    if not now and not lost:
        return said + ": the same cases pass"
    docs, _ = nouns(comp)
    banned = sum(1 for q in lost if b[q].forbidden)
    missing = sum(1 for q in lost if b[q].missing)
    why = []
    if banned:
        why.append((f"all {banned} return" if banned == len(lost) else
                    f"{banned} of them return{'s' if banned == 1 else ''}")
                   + f" a {singular(docs)} the case must not include" if len(lost) > 1
                   else f"it returns a {singular(docs)} the case must not include")
    if missing:
        why.append(f"{missing} miss{'es' if missing == 1 else ''} an expected one"
                   if len(lost) > 1 else "it misses an expected one")
    test = paired_test([float(a[q].passed) for q in a], [float(b[q].passed) for q in a])
    changed = len(now) + len(lost)
    direction = ("more pass" if after > before else "fewer pass" if after < before
                 else "as many pass, other cases")
    verdict = (f"too few cases changed ({changed}) to tell from chance" if changed <= 5
               else "beyond chance" if test.p_value < 0.05 else "but it may be chance")
    return (f"{said}, {len(now)} now passing and {len(lost)} now failing ("
            + "; ".join([*(", ".join(why),) * bool(why), f"p {p_text(test.p_value)}"])
            + f"): {direction}{',' if not verdict.startswith('too') else ';'} {verdict}")


def case_lines(comp: Comparison) -> list[str]:
    """For fixture cases (pi-lodestone's eval.jsonl): each configuration's cases passing
    ("20/30 pass"), then, against the first, the cases each one now passes and now fails —
    the harness's own measure of success, which the metric table cannot show. Only the
    counted cases (not those a configuration was tuned on). Empty without cases."""

    passed = cases_passed(comp)
    if passed is None:
        return []
    n = len(passed[0])
    first = comp.configs[0].name
    out = ["cases passing: " + ", ".join(f"{shown_name(comp, c.name)} {sum(p.values())}/{n}"
                                         for c, p in zip(comp.configs, passed, strict=True))]
    for c, p in zip(comp.configs[1:], passed[1:], strict=True):
        now = [q for q in p if p[q] and not passed[0][q]]
        lost = [q for q in p if not p[q] and passed[0][q]]
        if now or lost:
            out.append(f"{c.name} against {first}: "
                       + "; ".join(t for t in (
                           f"now passes {', '.join(now)}" if now else "",
                           f"now fails {', '.join(lost)}" if lost else "") if t))
        else:
            out.append(f"{c.name} against {first}: the same cases pass")
    return out


def _disagree(comp: Comparison, i: int, metric: str, row: MetricRow) -> str:
    """Where the cases and `metric` go opposite ways: why they can (a case also fails on a
    result it must not include, which a metric counts as no more than not relevant)."""
    passed = cases_passed(comp)
    if passed is None:
        return ""
    before, after = sum(passed[0].values()), sum(passed[i].values())
    gain = row.deltas[i] > 0 if higher_is_better(metric) else row.deltas[i] < 0
    loss = row.deltas[i] < 0 if higher_is_better(metric) else row.deltas[i] > 0
    if not ((gain and after < before) or (loss and after > before)):
        return ""
    docs, _ = nouns(comp)
    return (f" The two disagree: {metric} counts the expected {docs} a list holds and "
            f"does not count a {singular(docs)} a case must not include, which fails the "
            "case; the cases are the data's own test.")
