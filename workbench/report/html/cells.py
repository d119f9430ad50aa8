"""Small pieces every section writes: a table of escaped cells, a real minus, four
significant digits, and the colour of a difference."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from workbench.core.comparison import higher_is_better


def _table(header: Sequence[str], rows: Sequence[Sequence[str]], *, numeric_from: int = 1,
           css: str = "") -> str:
    """Plain text cells (escaped here); columns from `numeric_from` on right-aligned."""
    def cls(j: int) -> str:
        return ' class="num"' if j >= numeric_from else ""

    head = "".join(f"<th{cls(j)}>{escape(h)}</th>" for j, h in enumerate(header))
    body = "".join("<tr>" + "".join(f"<td{cls(j)}>{escape(c)}</td>" for j, c in enumerate(r))
                   + "</tr>" for r in rows)
    attr = f' class="{css}"' if css else ""
    return f"<table{attr}><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _sign_class(x: float, metric: str = "") -> str:
    """"up" (better, green) or "down" for a difference of `metric` (fewer files or tokens in a
    bundle is better)."""
    better = x if higher_is_better(metric) else -x
    return "up" if better > 0 else "down" if better < 0 else ""


def _minus(text: str) -> str:
    """A real minus sign, as the window and the movers' sentences print it."""
    return text.replace("-", "−")


def _g(x: float, *, sign: bool = False) -> str:
    """Four significant digits, no "-0" (a 0 contribution that is a negated 0), a real minus;
    `sign`: "+" on a positive value, "±0" for none."""
    x = float(x) + 0.0
    if abs(x) < 5e-5:  # 1.892e−21 read as a number to weigh: it is a 0 to 4 places
        x = 0.0
    text = f"{x:.4g}"
    if "e" in text:  # 123456 as 1.235e+05, 7.5e−05: written out
        text = f"{x:.0f}" if abs(x) >= 1 else f"{x:.6f}".rstrip("0")
    if text.strip("-") == "0":
        return "±0" if sign else "0"
    return _minus(f"+{text}" if sign and x > 0 else text)
