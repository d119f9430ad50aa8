"""CLI subcommands that measure a query set: `eval` (metrics, per-query files, TREC runs, fixture
cases, a model's own bundle figures) and `sweep` (metrics over one parameter's range, the best
value marked, ties said as ties, the points written as JSON or CSV with `--out`).

One concept a module: `parser` (the options), `metrics` (the defaults and what is accepted),
`judgments`, `evaluation` (eval's run), `summary` (what eval prints), `run_ids` (--run's ids),
`sweep` (sweep's run), `sweep_points` (the measuring), `sweep_best` and `sweep_output`,
`counted` (the queries the injection figures count).
"""

from workbench.cli.evaluate.evaluation import cmd_eval
from workbench.cli.evaluate.judgments import judgments_hint, judgments_line, no_judgments
from workbench.cli.evaluate.metrics import (
    CODE_METRICS,
    CODE_SWEEP_METRICS,
    EVAL_METRICS,
    SWEEP_METRICS,
    check_bundle_metrics,
    code_tasks,
    metrics_help,
)
from workbench.cli.evaluate.parser import add_commands
from workbench.cli.evaluate.run_ids import check_run_file_ids
from workbench.cli.evaluate.sweep import cmd_sweep
from workbench.cli.evaluate.sweep_best import _best, _best_line
from workbench.cli.evaluate.sweep_points import axis_key
from workbench.core.selection_figures import tokens_gloss

__all__ = [
    "CODE_METRICS",
    "CODE_SWEEP_METRICS",
    "EVAL_METRICS",
    "SWEEP_METRICS",
    "_best",
    "_best_line",
    "add_commands",
    "axis_key",
    "check_bundle_metrics",
    "check_run_file_ids",
    "cmd_eval",
    "cmd_sweep",
    "code_tasks",
    "judgments_hint",
    "judgments_line",
    "metrics_help",
    "no_judgments",
    "tokens_gloss",
]
