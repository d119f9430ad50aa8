"""A comparison of configurations as ONE self-contained HTML file (`workbench report`): no
script, no network, no other file — inline CSS, inline SVG charts, the system's fonts — so it
can be mailed, attached to a ticket or printed.

Sections (each an element id, linked from the page's header):

- `compared`: dataset, model, workbench version, date, the configurations and their files;
  `parameters`: the parameters that differ, one column per configuration;
- `metrics`: per metric each configuration's mean, Δ against the first, the 95 % interval of
  the mean per-query difference that the p-value's randomisation test gives
  (`difference_interval`), the paired randomisation p-value
  and queries improved/worsened;
- `per-query`: the first metric's per-query differences, sorted, as bars;
- `movers`: the documents that entered or left the top k and the biggest jumps, each with its
  explain diff (signals on both sides) and the text it matched, query terms marked;
- `distributions`: each configuration's top-k scores, relevant against judged non-relevant;
- `settings`: each configuration in the target system's own terms (`core.export`), or its
  params TOML for a workbench-only model.

Everything from the data or the user is escaped with `html.escape`.

One concept a module; the package re-exports `html_report` and the names imported
from the single module it was.
"""

from workbench.report.html.cells import _g
from workbench.report.html.compared import _judged_fact
from workbench.report.html.metrics import METRIC_TABLE_CONFIGS
from workbench.report.html.page import html_report
from workbench.report.html.snippets import code_snippet_html, snippet_html
from workbench.report.html.style import CSS
from workbench.report.text import chart_metric, difference_interval

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
