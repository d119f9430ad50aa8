"""Several named configurations of one model on one dataset, side by side: what `workbench
compare` prints and the report shows.

A configuration is a name and the model's parameter values (a params TOML file, the session's
sliders, a tuned result). Configurations sharing their prepare-stage values share one prepared
state; each is then one live combine, exactly what `eval` runs for those values.

- `compare_configurations`: every configuration's result; per metric, each one's mean, its
  difference from the first, the paired randomisation test against the first (p-value, queries
  improved and worsened), and the per-query differences.
- `explain_move`: one document of one query under the first configuration and another, rank
  and per-signal contributions on each side, their difference, and one sentence saying it.

One concept a submodule (configuration, result, run, move, explain, undo, cross, words); this
package re-exports what other modules and tests import. `undo`: which changed settings moved a
document, each undone alone and scored again live.
"""

from workbench.core.comparison.configuration import Configuration, configuration_file, differing
from workbench.core.comparison.cross import CrossMove, explain_pair
from workbench.core.comparison.explain import LIMIT_GATE, MIN_SCORE_GATE, explain_move
from workbench.core.comparison.move import MoveExplained
from workbench.core.comparison.result import Comparison, MetricRow, data_notes
from workbench.core.comparison.run import compare_configurations, higher_is_better
from workbench.core.comparison.words import _signed

__all__ = [
    "LIMIT_GATE",
    "MIN_SCORE_GATE",
    "Comparison",
    "Configuration",
    "CrossMove",
    "MetricRow",
    "MoveExplained",
    "_signed",
    "compare_configurations",
    "configuration_file",
    "data_notes",
    "differing",
    "explain_move",
    "explain_pair",
    "higher_is_better",
]
