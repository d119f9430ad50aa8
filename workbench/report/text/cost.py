"""What each configuration costs (`report --cost`), as Markdown: the table `compare --cost`
prints, what its figures are (measured on this machine) and what a change between the
configurations costs (`core.cost.CostSection`)."""

from __future__ import annotations

from workbench.core.comparison import Comparison
from workbench.core.cost import COST_HEADER, cost_rows
from workbench.report.text.markup import _md_table, code_span, md, ticks_as_code

COST_HEADING = "Cost, measured on this machine"


def cost_markdown(comp: Comparison) -> list[str]:
    """The cost section's lines, from its heading; none where the cost was not asked for."""
    cost = comp.cost
    if cost is None:
        return []
    out = [f"## {COST_HEADING}", "", *_md_table(COST_HEADER, cost_rows(cost.costs)), "",
           *(f"- {_text(note)}" for note in cost.notes)]
    if cost.changes:
        out += ["", "What a change costs:", "", *(f"- {_text(line)}" for line in cost.changes)]
    return out


def _text(line: str) -> str:
    """A note as Markdown, its `backticked` commands as code (`md` had escaped the ticks,
    shown literally: dr5 8)."""
    return ticks_as_code(line, code_span, md)
