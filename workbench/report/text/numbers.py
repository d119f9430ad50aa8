"""How a figure is written: p-values, means and differences to decimals that agree
with each other, confidence intervals, and a selection figure's digits."""

from __future__ import annotations

import math
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from numpy.typing import ArrayLike

from workbench.core.metrics.bundle import BUNDLE_METRICS


def p_text(p: float | None) -> str:
    if p is None or math.isnan(p):
        return ""
    return "<0.001" if p < 0.001 else f"{p:.3f}"


LEVEL = 0.95


def difference_interval(diffs: ArrayLike, level: float = LEVEL) -> tuple[float, float] | None:
    """The confidence interval of the mean of paired per-query differences that the p
    column's randomisation test gives (`metrics.interval.randomization_interval`: the shifts
    it does not reject at 1 − level). A Student's t-interval had barely left out 0 beside p
    0.005 on heavy-tailed differences (rB 5). None with fewer than two finite values, or too
    few for the test to reject any shift."""
    from workbench.core.metrics.interval import randomization_interval

    return randomization_interval(diffs, level)


def interval_text(ci: tuple[float, float] | None, count: bool = False, *,
                  between: str = "{} to {}", digits: int | None = None) -> str:
    """"-0.0123 to +0.0456" (`between` puts the two ends; `digits`: its row's decimals,
    `row_digits`); "" without an interval."""
    return "" if ci is None else between.format(delta_text(ci[0], count, digits),
                                                delta_text(ci[1], count, digits))


def is_count(metric: str) -> bool:
    """Whether `metric` is a count per query (a bundle's files or tokens), not a fraction."""
    return metric in BUNDLE_METRICS and BUNDLE_METRICS[metric].count


def minus_text(x: float, count: bool = False, digits: int | None = None) -> str:
    """`delta_text` with a real minus, as the tables print it: for sentences (a regular
    expression over the finished sentence had also changed names such as "run -2")."""
    return delta_text(x, count, digits).replace("-", "−")


def mean_text(x: float, count: bool = False, digits: int | None = None) -> str:
    """A mean: 4 decimals, or a count (a bundle's files, tokens) to one, with thousands;
    `digits` decimals where given (`row_digits`)."""
    places = _digits(count) if digits is None else digits
    return "–" if math.isnan(x) else f"{x:,.{places}f}" if count else f"{x:.{places}f}"


def delta_text(x: float, count: bool = False, digits: int | None = None) -> str:
    """A signed difference to 4 decimals (a count to 1; `digits` where given); a difference
    that rounds to zero is +0.0000, never -0.0000."""
    if math.isnan(x):
        return ""
    places = _digits(count) if digits is None else digits
    shown = round(x, places) + 0.0  # + 0.0: −0.0 → 0.0
    return f"{shown:+,.{places}f}" if count else f"{shown:+.{places}f}"


def _digits(count: bool) -> int:
    return 1 if count else 4


MORE_DIGITS = 1  # the decimals `row_digits` may add


def row_digits(means: Sequence[float], deltas: Sequence[float] | None = None, *,
               count: bool = False, base: int | None = None) -> tuple[int, list[float]]:
    """The decimals a row's means and its differences against the first (`deltas[i]`, of
    `means[i]` − `means[0]`; computed where not given) are shown to, and the differences to
    show. Rounded apart, the figures can contradict each other (bundle_files 16.583 → 16.25
    read "16.6 | 16.2 | −0.3": 16.6 − 16.2 is 0.4), so: `base` decimals (`mean_text`'s), one
    more where a rounded difference is not the difference of the rounded means (16.58 |
    16.25 | −0.33); where even that disagrees (thirds never agree: 0.73367 − 0.40533 beside
    0.32833), the difference of the means as shown, at most one in its last place from the
    exact one. A row of three decimals or more gets none added (a metric's 0.64425 beside
    0.6802 read as two precisions in one column for a difference of one in the fourth
    decimal): its Δ is the difference of the means shown; nor does a count (`count`: a
    bundle's files or tokens, a selection figure), so that one figure reads alike in eval,
    compare, the reports and tune (rc 8: 5,508.4 in one, 5,508.37 in another): 16.6 | 16.2 |
    −0.4. NaN figures are left as they are."""
    places = _digits(count) if base is None else base
    # a count (a bundle's files or tokens, a selection figure) keeps its one format in every
    # table (rc 8: bundle_tokens 5,508.4 in eval, 5,508.37 in tune's and compare's tables)
    more = MORE_DIGITS if places < 3 and not count else 0
    shown = ([m - means[0] for m in means] if deltas is None else [float(d) for d in deltas])
    pairs = [i for i in range(1, len(means)) if i < len(shown)
             and not any(math.isnan(x) for x in (means[0], means[i], shown[i]))]
    for digits in range(places, places + more + 1):
        if all(_fixed(shown[i], digits) == _fixed(means[i], digits) - _fixed(means[0], digits)
               for i in pairs):
            return digits, shown
    digits = places + more
    for i in pairs:
        shown[i] = float(_fixed(means[i], digits) - _fixed(means[0], digits))
    return digits, shown


def _fixed(x: float, digits: int) -> Decimal:
    """`x` rounded to `digits` decimals as the text shows it (`f"{x:.4f}"`), exactly."""
    return Decimal(f"{x:.{digits}f}")


def pair_texts(a: float, b: float, delta: float | None = None, *, count: bool = False,
               minus: bool = True) -> tuple[str, str, str]:
    """Two means and the difference b − a as a sentence or a row shows them, to the decimals
    that keep them consistent (`row_digits`): ("0.7337", "0.4053", "−0.3284"); a count
    ("16.6", "16.2", "−0.4") to its own decimals."""
    digits, deltas = row_digits([a, b], None if delta is None else [0.0, delta], count=count)
    sign = minus_text if minus else delta_text
    return (mean_text(a, count, digits), mean_text(b, count, digits),
            sign(deltas[1], count, digits))


def figure_text(name: str, value: float, *, signed: bool = False,
                digits: int | None = None) -> str:
    """A selection figure's mean (or difference) as eval prints it: results to two decimals,
    the % of empty queries and the tokens to one (`digits` where given: `figure_digits`)."""
    if math.isnan(value):
        return "–"
    digits = figure_base(name) if digits is None else digits
    shown = round(value, digits) + 0.0  # + 0.0: −0.0 → 0.0
    # an ASCII minus, as the metric table writes its Δ
    return f"{shown:+,.{digits}f}" if signed else f"{shown:,.{digits}f}"


def figure_base(name: str) -> int:
    """The decimals a selection figure is shown to: results two, the rest one."""
    return 2 if name == "results" else 1


def figure_digits(row: Any) -> tuple[int, list[float]]:
    """`row_digits` of a selection figure's row (`FigureRow`): its means and each Δ."""
    return row_digits(row.means, row.deltas, count=True, base=figure_base(row.figure))
