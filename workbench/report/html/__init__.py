"""A comparison of configurations as ONE self-contained HTML file (`workbench report`): no
script, no network, no other file — inline CSS, inline SVG charts, the system's fonts — so it
can be mailed, attached to a ticket or printed.

Sections (each an element id, linked from the page's header):

- `compared`: dataset, model, workbench version, date, the configurations and their files;
  `parameters`: the parameters that differ, one column per configuration;
- `metrics`: per metric each configuration's mean, Δ against the first, the 95 % t-interval
  of the mean per-query difference (`difference_interval`), the paired randomisation p-value
  and queries improved/worsened;
- `per-query`: the first metric's per-query differences, sorted, as bars;
- `movers`: the documents that entered or left the top k and the biggest jumps, each with its
  explain diff (signals on both sides) and the text it matched, query terms marked;
- `distributions`: each configuration's top-k scores, relevant against judged non-relevant;
- `settings`: each configuration in the target system's own terms (`core.export`), or its
  params TOML for a workbench-only model.

Everything from the data or the user is escaped with `html.escape`.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from workbench.core.comparison import (
    Comparison,
)
from workbench.report.html.cells import _g
from workbench.report.html.charts import _distributions, _per_query
from workbench.report.html.compared import _agreement, _compared, _judged_fact, _returns
from workbench.report.html.metrics import METRIC_TABLE_CONFIGS, _metrics, _pairs
from workbench.report.html.movers import _movers
from workbench.report.html.settings import _settings
from workbench.report.html.snippets import code_snippet_html, snippet_html
from workbench.report.html.style import CSS
from workbench.report.pairs import pairs
from workbench.report.text import (
    MEASURE_TEXT,
    chart_metric,
    difference_interval,
    flags_as_code,
    has_judgments,
)


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
        _nav(measured, bool(comp.figures), bool(found)), _compared(comp, k),
        _metrics(comp) if measured else "", _pairs(comp, found), _returns(comp),
        _agreement(comp, k), _per_query(comp, metric) if measured else "",
        _movers(comp, k, top), _distributions(comp, k), _settings(comp),
        hint, "</main>", "</body>", "</html>"]
    return "\n".join(parts) + "\n"


def _joined(items: Sequence[str]) -> str:
    """"a", "a and b", "a, b and c"."""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def _nav(measured: bool, returns: bool = False, every_pair: bool = False) -> str:
    """The links to the report's sections; those of the metrics only where there are some."""
    links = [("compared", "compared"), ("parameters", "parameters"),
             *([("metrics", "metrics")] if measured else []),
             *([("pairs", "every pair")] if every_pair else []),
             *([("returns", "what each returns")] if returns else []),
             ("agreement", "agreement"),
             *([("per-query", "per query")] if measured else []), ("movers", "movers"),
             ("distributions", "scores"), ("settings", "settings to ship")]
    return ("<nav>" + "".join(f'<a href="#{a}">{t}</a>' for a, t in links)
            + "</nav></header>")

__all__ = [
    "CSS",
    "METRIC_TABLE_CONFIGS",
    "_g",
    "_judged_fact",
    "chart_metric",
    "code_snippet_html",
    "difference_interval",
    "html_report",
    "snippet_html",
]
