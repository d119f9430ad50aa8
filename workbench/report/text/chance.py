"""When a difference counts as beyond chance: one rule for every table's marks, In short,
Every pair, compare and the window (review rb, 1: the verdict on one pair had flipped with the
columns on screen).

The rule. The primary comparison is the one tune declared before it looked: a tuned
configuration against its own starting values on the metric it was tuned for, held out
(`primary`). It is tested alone at 0.05, as tune tests it, and its verdict never changes with
what else is shown. Every other p-value is exploratory: called beyond chance only where it is
below 0.05 after Holm's adjustment over the exploratory p-values the metric table shows (Holm
1979: the k-th smallest of m times m − k + 1, the running maximum carried up); below 0.05
alone but not after the adjustment, it is weak evidence (☆)."""

from __future__ import annotations

import math

from workbench.core.comparison import Comparison, MetricRow
from workbench.report.text.compared import trained_pair
from workbench.report.text.numbers import is_count, p_text

BEYOND, WEAK = "beyond", "weak"


def primary(comp: Comparison, a: int, b: int, metric: str) -> bool:
    """Whether configurations a and b on `metric` are a primary comparison, in either order:
    one carries tune's `[tuned]` record for `metric` with held-out figures, neither side has
    training scores here, and the other is its starting values (same model, at the model's
    defaults where tune started from them, or the configuration named as the start)."""
    return _started(comp, a, b, metric) or _started(comp, b, a, metric)


def _started(comp: Comparison, a: int, b: int, metric: str) -> bool:
    """`primary` with b the tuned configuration and a its start."""
    name = comp.configs[b].name
    t = comp.tuned.get(name)
    if (t is None or not getattr(t, "held_n", 0) or getattr(t, "metric", "") != metric
            or math.isnan(getattr(t, "p_value", math.nan)) or name in comp.training
            or comp.configs[a].name in comp.training or not comp.same_model(a, b)):
        return False
    start = getattr(t, "start", "")
    if start == f"{comp.configs[a].name}'s":
        return True
    if start not in ("", "the model's defaults"):
        return False
    model = comp.model_of(a)
    return dict(model.schema.resolve(comp.configs[a].params)) == dict(model.schema.resolve({}))


def primary_text(comp: Comparison) -> str:
    """The primary comparisons shown, in words ("best against defaults on ndcg@10"), "" for
    none."""
    n = len(comp.configs)
    said = [f"{comp.configs[b].name} against {comp.configs[a].name} on {r.metric}"
            for r in comp.rows for a in range(n) for b in range(n)
            if a != b and _started(comp, a, b, r.metric)]
    return "; ".join(said)


def _family(comp: Comparison) -> list[float]:
    """The exploratory p-values the metric table shows: of a difference on some query, not
    against training scores, not of a primary comparison."""
    return [float(r.p_values[i] or 0.0) for i in range(1, len(comp.configs))
            if not trained_pair(comp, i)
            for r in comp.rows
            if p_text(r.p_values[i]) != "" and r.improved[i] + r.worsened[i] > 0
            and not primary(comp, 0, i, r.metric)]


def holm_p(comp: Comparison, p: float) -> float:
    """p adjusted by Holm's step-down method over the exploratory family the table shows
    (`_family`), p taken as one of them."""
    family = sorted(_family(comp))
    m = max(1, len(family))
    k = sum(x < p for x in family)
    running = max([min(1.0, (m - j) * x) for j, x in enumerate(family[:k])] + [0.0])
    return max(running, min(1.0, (m - k) * p))


def evidence(comp: Comparison, row: MetricRow, i: int) -> str:
    """How the metric tables mark configuration i's difference on `row`, one rule for the
    Markdown's ★, the HTML's colour, the window's and In short's words: BEYOND where the
    pair is primary (`primary`) and p is below 0.05, or where Holm's adjusted p (`holm_p`) is
    below 0.05; WEAK where p is below 0.05 only; "" otherwise, and always for training scores,
    judged@ (coverage) and a bundle's files and tokens (a cost)."""
    p = row.p_values[i]
    if (p is None or not p < 0.05 or trained_pair(comp, i) or is_count(row.metric)
            or row.metric.startswith("judged@")):
        return ""
    if primary(comp, 0, i, row.metric):
        return BEYOND
    return WEAK if weak_p(comp, p) else BEYOND


def evidence_key(comp: Comparison) -> str:
    """The key to the marks (`evidence`), said as the Markdown writes it."""
    weak = any(evidence(comp, r, i) == WEAK for r in comp.rows
               for i in range(1, len(comp.configs)))
    return ("★: a difference beyond chance by the paired test (the rule: see the note under "
            "the table)"
            + ("; ☆: p below 0.05 alone, but exploratory and not below 0.05 after Holm's "
               "adjustment: weak evidence" if weak else "")
            + ". judged@ (coverage) and a bundle's files and tokens (a cost) are never marked.")


def weak_p(comp: Comparison, p: float | None, *, always: bool = False) -> str:
    """Where an exploratory p (not a primary comparison's: the caller knows) is below 0.05
    but its Holm-adjusted p over the family shown is not: "exploratory, and not below 0.05
    after Holm's adjustment over the 14 p-values shown (Holm p 0.12)"; "" otherwise.
    `always`: the words whatever p is, without a Holm p."""
    n = tests_shown(comp)
    if always:
        return (f"exploratory, and not below 0.05 after Holm's adjustment over the {n} "
                "p-values shown")
    if p is None or p >= 0.05 or holm_p(comp, p) < 0.05:
        return ""
    return (f"exploratory, and not below 0.05 after Holm's adjustment over the {n} p-values "
            f"shown (Holm p {p_text(holm_p(comp, p))}): weak evidence")


def tests_shown(comp: Comparison) -> int:
    """How many exploratory p-values the metric table shows of a difference on some query
    (against training scores none; where no query moved, p is 1 and tests nothing; a primary
    comparison is tested alone)."""
    return len(_family(comp))


def many_tests_note(comp: Comparison, summary: str = "In short") -> str:
    """The rule the verdicts follow, said once where they are ("" where the table shows no
    primary comparison and fewer than two other p-values). `summary`: where the verdicts it
    names are (compare has no In short of its own: a report's)."""
    first = primary_text(comp)
    n = tests_shown(comp)
    # compare's "A report's In short (…)" inside the sentence
    summary = summary[0].lower() + summary[1:] if summary.startswith("A ") else summary
    if not first and n < 2:  # one p-value, no primary: nothing to adjust, no rule to say
        return ""
    lead = (f"How {summary} and the marks read a p: the primary comparison ({first}: a tuned "
            "configuration against its own starting values on the metric it was tuned for, "
            "held out, as tune declared it) is tested alone at 0.05, and its verdict does not "
            "change with what else is shown; " if first else
            f"How {summary} and the marks read a p: ")
    if not n:
        return lead.rstrip()
    idle = sum(p_text(r.p_values[i]) != "" and r.improved[i] + r.worsened[i] == 0
               for i in range(1, len(comp.configs)) if not trained_pair(comp, i)
               for r in comp.rows)
    more = (f" ({idle} more at 1.000, where no query moved, test nothing)" if idle > 1 else
            " (1 more at 1.000, where no query moved, tests nothing)" if idle else "")
    return (lead + ("every other p-value is exploratory: " if first else
                    "every p-value here is exploratory: ")
            + f"{n} of them are shown{more}; even if no configuration were better or worse, "
            f"at least one of these {n} would with a chance of {1 - 0.95 ** n:.0%} fall below "
            "0.05, so one is called beyond chance only where it is below 0.05 after Holm's "
            f"adjustment over the {n} (the k-th smallest times {n} − k + 1); one below 0.05 "
            "alone is weak evidence.")


# kept for callers that import it: the rule no longer waits for this many p-values
MANY_TESTS = 10
