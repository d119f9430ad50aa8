"""`workbench tune`'s options: each flag with its help, and the function it runs."""

from __future__ import annotations

import argparse
from typing import Any

from workbench.cli.common import add_data, add_model
from workbench.cli.tune.command import cmd_tune


def add_commands(sub: Any) -> None:
    from workbench.core.tuning import SAMPLERS

    p = sub.add_parser("tune", help="search many parameters at once; held-out scores; "
                       "write the best settings")
    add_data(p)
    add_model(p)
    p.add_argument("--tune", metavar="A,B,…", help="parameters to tune (default: every live "
                   "numeric, choice and on/off parameter that scores)")
    p.add_argument("--range", action="append", default=[], metavar="NAME=LOW:HIGH",
                   help="narrow a tuned parameter's range (repeatable)")
    # --metrics too: every other command spells it so (eval's --metric was accepted as an
    # abbreviation of --metrics, tune's --metrics refused)
    p.add_argument("--metric", "--metrics", dest="metric", metavar="M[,COST]",
                   help="objective(s): a metric such as "
                   "ndcg@10, or cases, bundle_recall, bundle_f1 …; a second, e.g. "
                   "bundle_tokens, gives a Pareto front (default: ndcg@10; cases for eval "
                   "cases; bundle_recall for codeledger)")
    p.add_argument("--constraint", action="append", default=[], metavar="NAME<=X|NAME>=X",
                   help="a bound on a mean over the training queries, e.g. "
                   "'injected_tokens<=120' or 'r@100>=0.9' (repeatable)")
    p.add_argument("--trials", type=int, default=None, help="trials per study, in all: a "
                   "continued study runs only what it lacks (default 100; a grid runs every "
                   "point)")
    p.add_argument("--timeout", type=float, help="seconds for the whole run (default: none; "
                   "--trials bounds it)")
    v = p.add_mutually_exclusive_group()
    v.add_argument("--folds", type=int, help="k-fold over queries (default 5; 0 = no "
                   "held-out score)")
    v.add_argument("--time-split", type=float, metavar="F", help="tasks in time order: the "
                   "oldest share F tunes, the rest is held out (default for repository tasks: "
                   "0.5)")
    v.add_argument("--train-split", metavar="SPLIT", help="tune on this split of the data, "
                   "e.g. BEIR's train … (needs --test-split)")
    p.add_argument("--test-split", metavar="SPLIT", help="… and score on this one, e.g. "
                   "test (the two go together; neither has a default)")
    p.add_argument("--sampler", default="tpe", choices=SAMPLERS,
                   help="how trials are drawn: optuna's TPE (default), random, CMA-ES, or every "
                   "point of a grid over the sliders' steps")
    p.add_argument("--pick", default=None, choices=("bound", "best"),
                   help="the trial kept (one objective): bound (default) = the surest gain over "
                   "the starting values on the training queries, the mean of its per-query "
                   "gains less about 2 standard errors (more for few queries: 2.1 for 30, 2.9 "
                   "for 5; the plan gives the number), among "
                   "the 20 best trials — the starting values when no trial's bound is above "
                   "0 (or a study tunes on one query); best = the highest training mean, "
                   "which often fits the training queries' quirks")
    p.add_argument("--seed", type=int, default=0, help="the seed of the sampler and of the "
                   "k-fold split: the same command and seed draw the same folds and trials "
                   "(default 0); another seed puts other queries in each fold too, so comparing "
                   "seeds varies both; a run stopped and continued draws on from where it "
                   "stopped, not the trials of one uninterrupted run")
    p.add_argument("--storage", metavar="FILE|URL", help="study storage: an SQLite file "
                   "(default: studies.db in the cache folder), a .log file (optuna's journal: "
                   "much faster per trial with many parameters) or postgresql://user@host/db")
    p.add_argument("--study", metavar="NAME", help="study name (default: derived from the "
                   "settings, so the same command continues the same study)")
    p.add_argument("--fresh", action="store_true", help="start the study anew")
    p.add_argument("--workers", type=int, default=1, help="processes on this machine sharing "
                   "the study; they pay only where a trial costs well over the storage's own "
                   "(~0.2 s a trial on PostgreSQL: slower than one process for BM25); sharing "
                   "processes may end a study a trial or two past --trials")
    p.add_argument("--worker-index", type=int, default=0, help=argparse.SUPPRESS)
    p.add_argument("--out", "-o", metavar="FILE.toml", help="write the tuned parameters (read back "
                   "by eval, gui, export with --params)")
    p.set_defaults(func=cmd_tune)
