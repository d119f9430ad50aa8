"""What each configuration costs (`report --cost`), under What was compared: the table
`compare --cost` prints, what its figures are (measured on this machine) and what a change
between the configurations costs (`core.cost.CostSection`)."""

from __future__ import annotations

from html import escape

from workbench.core.comparison import Comparison
from workbench.core.cost import COST_HEADER, cost_rows
from workbench.report.html.cells import _table
from workbench.report.text.cost import COST_HEADING
from workbench.report.text.markup import ticks_as_code


def _cost(comp: Comparison) -> str:
    """The cost's heading, table and notes; "" where the cost was not asked for."""
    cost = comp.cost
    if cost is None:
        return ""
    notes = "".join(f'<p class="note">{_html(n)}</p>' for n in cost.notes)
    changes = ("<h4>What a change costs</h4><ul>"
               + "".join(f"<li>{_html(c)}</li>" for c in cost.changes) + "</ul>"
               if cost.changes else "")
    return (f'<h3 id="cost">{escape(COST_HEADING)}</h3>'
            f'<div class="wide">{_table(COST_HEADER, cost_rows(cost.costs))}</div>'
            f"{notes}{changes}")


def _html(line: str) -> str:
    """A note as HTML, its `backticked` commands as code (shown with their ticks: dr5 8)."""
    return ticks_as_code(line, lambda c: f"<code>{escape(c)}</code>", escape)
