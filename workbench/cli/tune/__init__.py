"""`workbench tune`: search many parameters at once, report held-out scores, write the settings.

    workbench tune DATA -m MODEL [--tune a,b] [--range a=lo:hi] [--metric M[,COST]]
        [--constraint "NAME<=X"] [--trials N | --timeout S] [--folds K | --time-split F |
        --train-split train --test-split test] [--sampler tpe|cmaes|random|grid] [--seed S]
        [--storage FILE|URL] [--study NAME] [--fresh] [--workers N] [--out best.toml]

One concept a module: `parser` (the options), `command` (the run), `checks` and `splits` (the
options and data checked first), `objectives`, `start` (a --params file tune wrote), `notes`,
`workers`, `progress` and `out` (the file --out writes); the printing is in `tune_report`.
"""

from workbench.cli.tune.command import cmd_tune
from workbench.cli.tune.parser import add_commands
from workbench.cli.tune.progress import _reporter

__all__ = ["_reporter", "add_commands", "cmd_tune"]
