"""The compare view's widgets: each shows a `core.comparison.Comparison` handed to a setter,
runs alone and knows nothing of the session (the window that hosts them wires them up).

- `RankLines`: one query's ranked lists side by side, lines joining each document's places.
- `QueryDeltaChart`: the per-query metric difference across the query set, sorted.
- `MetricTable`: each metric's means, Δ, p-value and ▲/▼ against the first configuration.
- `ExplainDiff`: one document's per-signal contributions on both sides and their difference.
"""

from workbench.gui.compare.delta_chart import QueryDeltaChart
from workbench.gui.compare.explain_diff import ExplainDiff
from workbench.gui.compare.metric_table import MetricTable
from workbench.gui.compare.rank_lines import RankLines

__all__ = ["ExplainDiff", "MetricTable", "QueryDeltaChart", "RankLines"]
