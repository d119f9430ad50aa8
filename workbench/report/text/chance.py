"""When a difference counts as beyond chance: one rule for every table's marks and
In short, with the caution where many p-values are shown."""

from __future__ import annotations

from workbench.core.comparison import Comparison, MetricRow
from workbench.report.text.compared import trained_pair
from workbench.report.text.numbers import is_count, p_text

BEYOND, WEAK = "beyond", "weak"


def evidence(comp: Comparison, row: MetricRow, i: int) -> str:
    """How the metric tables mark configuration i's difference on `row`, one rule for the
    Markdown's ★, the HTML's colour and the window's (review rv3, F3 and F4: In short called
    a p of 0.016 among 13 "weak evidence" while the table starred it "beyond chance", and the
    Markdown starred judged@10, which the HTML never coloured): BEYOND where p is below 0.05
    and, among many p-values shown, below 0.05 / their number (`weak_p`); WEAK where p is
    below 0.05 only; "" otherwise, and always for training scores, judged@ (coverage) and a
    bundle's files and tokens (a cost)."""
    p = row.p_values[i]
    if (p is None or not p < 0.05 or trained_pair(comp, i) or is_count(row.metric)
            or row.metric.startswith("judged@")
            or comp.configs[0].name in comp.training or comp.configs[i].name in comp.training):
        return ""
    return WEAK if weak_p(comp, p) else BEYOND


def evidence_key(comp: Comparison) -> str:
    """The key to the marks (`evidence`), said as the Markdown writes it."""
    weak = any(evidence(comp, r, i) == WEAK for r in comp.rows
               for i in range(1, len(comp.configs)))
    return ("★: p below 0.05, a difference beyond chance by the paired test"
            + (f"; ☆: p below 0.05 but {weak_p(comp, 0.0, always=True)}: not counted as beyond "
               f"chance, which needs p below 0.05 / {tests_shown(comp)}" if weak else "")
            + ". judged@ (coverage) and a bundle's files and tokens (a cost) are never marked.")


def weak_p(comp: Comparison, p: float | None, *, always: bool = False) -> str:
    """Where the metric table shows many p-values (`many_tests_note`) and p is below 0.05
    but not below 0.05 / their number (Bonferroni's bound): "weak evidence among the 15
    p-values shown (see the caution under Metrics)"; "" otherwise. In short had called
    such a p "beyond chance" while the caution under the table called it weak evidence.
    `always`: the words whatever p is (many tests assumed)."""
    n = tests_shown(comp)
    if not always and (n < MANY_TESTS or p is None or p >= 0.05 or p < 0.05 / n):
        return ""
    return f"weak evidence among the {n} p-values shown (see the caution under Metrics)"


def tests_shown(comp: Comparison) -> int:
    """How many p-values the metric table shows of a difference on some query (against
    training scores none; where no query moved, p is 1 and tests nothing)."""
    return sum(p_text(r.p_values[i]) != "" and r.improved[i] + r.worsened[i] > 0
               for i in range(1, len(comp.configs)) if not trained_pair(comp, i)
               for r in comp.rows)


def many_tests_note(comp: Comparison, summary: str = "In short") -> str:
    """A caution where the table shows many p-values ("" for fewer than 10): with no real
    difference anywhere, about one in 20 still falls below 0.05. `summary`: where the
    verdict it names is (compare has no In short of its own: a report's)."""
    n = tests_shown(comp)
    if n < MANY_TESTS:
        return ""
    # "about 0.5 of them would fall below 0.05" was half a p-value: the chance of one instead
    chance = 1 - 0.95 ** n
    # the table's p of 1.000 where no query moved test nothing: counted apart, so that "15
    # p-values" under a table of 18 does not read as a miscount (review rv3, F13)
    idle = sum(p_text(r.p_values[i]) != "" and r.improved[i] + r.worsened[i] == 0
               for i in range(1, len(comp.configs)) if not trained_pair(comp, i)
               for r in comp.rows)
    more = (f" ({idle} more at 1.000, where no query moved, test nothing)" if idle > 1 else
            " (1 more at 1.000, where no query moved, tests nothing)" if idle else "")
    return (f"{n} p-values of differences are shown{more}, none adjusted for the others: even if "
            "no configuration were better or worse, each would fall below 0.05 one time in "
            f"20 by chance, so at least one of these {n} would with a chance of "
            f"{chance:.0%}: one p a little under 0.05 among them is weak evidence. {summary} "
            f"calls a difference beyond chance only where p is below 0.05 / {n} = "
            f"{0.05 / n:.2g} (Bonferroni's bound).")


# from this many p-values shown, one under 0.05 is weak evidence (`many_tests_note`)
MANY_TESTS = 10
