"""Chart panels over the tuning session, each a QWidget `Panel(session, parent=None)` that
subscribes to the session itself and exports as PNG/SVG (`export(path)`):

- `ContributionChart`: per-signal contributions of the top k; two documents side by side
- `ScoreDistribution`: candidate scores, judged relevant vs others, the min-score line
- `MetricCurve`: a metric against the parameter last changed, swept in the background
- `MoversList`: what moved against the pinned baseline, across all queries
- `InjectionDiagnostics`: pi-lodestone's why-stats for the current parameters (decision-memory)
- `EvalCases`: pass / fail of pi-lodestone eval cases, against the baseline
- `ContextBundle`: the selected task's CodeLedger bundle, its cut and near misses (codeledger)

Each runs alone: `python -m workbench.gui.charts.<module> [DATA]`. The panels are imported on
first use, so that running one module with -m does not import it twice.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .bundle import ContextBundle
    from .cases import EvalCases
    from .contributions import ContributionChart
    from .diagnostics import InjectionDiagnostics
    from .distribution import ScoreDistribution
    from .metric_curve import MetricCurve
    from .movers import MoversList

_WHERE = {
    "ContributionChart": "contributions",
    "ScoreDistribution": "distribution",
    "MetricCurve": "metric_curve",
    "MoversList": "movers",
    "InjectionDiagnostics": "diagnostics",
    "EvalCases": "cases",
    "ContextBundle": "bundle",
}

__all__ = ["ContextBundle", "ContributionChart", "EvalCases", "InjectionDiagnostics",
           "MetricCurve", "MoversList", "ScoreDistribution"]


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        return getattr(importlib.import_module(f"{__name__}.{_WHERE[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
