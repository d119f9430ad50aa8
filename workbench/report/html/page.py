"""The page itself: its head, its links to the sections, and the sections in order."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from workbench.core.comparison import Comparison
from workbench.report.html.charts import _distributions, _per_query
from workbench.report.html.compared import _agreement, _compared, _returns
from workbench.report.html.metrics import _metrics, _pairs
from workbench.report.html.movers import _movers
from workbench.report.html.settings import _settings
from workbench.report.html.style import CSS
from workbench.report.pairs import pairs
from workbench.report.text import MEASURE_TEXT, chart_metric, flags_as_code, has_judgments


def html_report(comp: Comparison, *, k: int = 10, top: int = 5) -> str:
    """The comparison as one self-contained HTML document (see the module docstring)."""
    first = comp.configs[0].name
    metric = chart_metric(comp)
    found = pairs(comp)
    # without judgments there are no metrics to show: no sections that say "None", no links
    # to them; what to give to measure is said last
    measured = bool(comp.rows) or has_judgments(comp)
    hint = (f'<p class="note">{escape(MEASURE_TEXT)} '
            f"{flags_as_code(comp.measure_hint, lambda c: f'<code>{escape(c)}</code>', escape)}."
            "</p>" if comp.measure_hint else "")
    parts = [
        "<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>Ranking comparison: {escape(_joined(comp.model_ids))} on "
        f"{escape(comp.dataset.name)}"
        "</title>", f"<style>{CSS}</style>", "</head>", "<body>", "<main>",
        "<header><h1>Ranking comparison</h1>",
        f"<p>{escape(_joined(comp.model_ids))} on {escape(comp.dataset.name)}: "
        f"{escape(', '.join(c.name for c in comp.configs))}; every difference against "
        f"{escape(first)}" + ("; every pair against each other under Every pair"
                              if found.found else "") + "</p>",
        _nav(measured, bool(comp.figures), bool(found), comp.cost is not None),
        _compared(comp, k),
        _metrics(comp) if measured else "", _pairs(comp, found), _returns(comp),
        _agreement(comp, k), _per_query(comp, metric) if measured else "",
        _movers(comp, k, top), _distributions(comp, k), _settings(comp),
        hint, "</main>", "</body>", "</html>"]
    return "\n".join(parts) + "\n"


def _joined(items: Sequence[str]) -> str:
    """"a", "a and b", "a, b and c"."""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def _nav(measured: bool, returns: bool = False, every_pair: bool = False,
         cost: bool = False) -> str:
    """The links to the report's sections; those of the metrics only where there are some,
    the cost's where it was asked for."""
    links = [("compared", "compared"), ("parameters", "parameters"),
             *([("cost", "cost")] if cost else []),
             *([("metrics", "metrics")] if measured else []),
             *([("pairs", "every pair")] if every_pair else []),
             *([("returns", "what each returns")] if returns else []),
             ("agreement", "agreement"),
             *([("per-query", "per query")] if measured else []), ("movers", "movers"),
             ("distributions", "scores"), ("settings", "settings to ship")]
    return ("<nav>" + "".join(f'<a href="#{a}">{t}</a>' for a, t in links)
            + "</nav></header>")
