"""The options of `workbench eval` and `workbench sweep`, and the functions they run."""

from __future__ import annotations

from typing import Any

from workbench.cli.args import whole as whole_number
from workbench.cli.common import add_data, add_model
from workbench.cli.evaluate.evaluation import cmd_eval
from workbench.cli.evaluate.metrics import (
    CODE_METRICS,
    CODE_SWEEP_METRICS,
    EVAL_METRICS,
    SWEEP_METRICS,
    metrics_help,
)
from workbench.cli.evaluate.sweep import cmd_sweep


def add_commands(sub: Any) -> None:
    p = sub.add_parser("eval", help="metrics over a judged query set")
    add_data(p)
    add_model(p)
    p.add_argument("--metrics",
                   help=metrics_help(f"{EVAL_METRICS}, judged@10 left out where every "
                                     "judgment is of a relevant document (it is p@10 there)"
                                     f"; on a git repository or for a model "
                                     f"that selects bundles {CODE_METRICS}, and every bundle "
                                     "figure for such a model unless one is named")
                   + "; what the selection returns, as sweep and tune's --constraint count "
                   "it: results (per query), empty (%% of queries returning nothing), "
                   "injected_tokens (per query)")
    p.add_argument("--per-query", metavar="OUT.csv|OUT.json",
                   help="write per-query metrics: CSV or JSON, by the file's ending (- for CSV "
                        "on standard output); a query the mean of results, empty or "
                        "injected_tokens leaves out (a manual search beside injections) has "
                        "them blank, a column not_counted saying why")
    p.add_argument("--run", metavar="OUT.trec", help="write the ranking as a TREC run file: "
                   "each query's top --depth documents")
    p.add_argument("--depth", type=whole_number(1), metavar="N",
                   help="documents per query in the --run file (default: as deep as the "
                   "metrics read — 100, 1,000 with map or another metric without @k, as "
                   "trec_eval); the figures printed do not change")
    p.add_argument("--all-queries", action="store_true",
                   help="with --params from `tune --out`: count every judged query, also those "
                   "the values were tuned on. By default those are left out where others remain "
                   "(a train → test or time split: there the figures would be training "
                   "scores); a k-fold file was tuned on every query, so all count anyway, "
                   "said to be training scores, as on the split a train → test file was tuned "
                   "on (the few it left over are no held-out part)")
    p.add_argument("--cases", action="store_true",
                   help="list every fixture case (eval.jsonl), not only the failing ones")
    p.set_defaults(func=cmd_eval)

    p = sub.add_parser("sweep", help="a metric over a range of one parameter, others held")
    add_data(p)
    add_model(p)
    p.add_argument("--sweep", "-s", required=True, metavar="PARAM", help="parameter to vary")
    p.add_argument("--values", help="low:high:step, or a,b,c (default: its slider's range "
                   "in at most 41 values, every 1, 2, 5, 10, … steps; a count whose range is "
                   "over 50× its default, such as a token budget, up to 4× the value in use)")
    p.add_argument("--metrics",
                   help=metrics_help(f"{SWEEP_METRICS}; on a git repository or for a model "
                                     f"that selects bundles {CODE_SWEEP_METRICS}")
                   + "; cases: the share of fixture cases passing (eval.jsonl), first by "
                   "default where the data has them; the first picks the best value (the most; "
                   "the fewest files or tokens); what the selection returns, judgments or not: "
                   "results (per query), empty (%% of queries returning nothing), "
                   "injected_tokens (per query) — the default without judgments for a model "
                   "with a min score or limit, never a best")
    p.add_argument("--out", "-o", metavar="FILE.json|FILE.csv",
                   help="also write every value's metrics, the best marked (format by the "
                   "extension)")
    p.add_argument("--force", action="store_true",
                   help="sweep even more than 1,000 values (each one a full evaluation)")
    p.set_defaults(func=cmd_sweep)
