"""The metrics eval and sweep measure by default and accept, and the bundle figures refused
of a model without bundles."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from workbench.cli.common import UsageError
from workbench.core.metrics import BUNDLE_METRICS, METRICS, parse_metric

EVAL_METRICS = "ndcg@10,mrr@10,p@10,r@100,map@100,judged@10"


# for code tasks (a git repository, or a model that selects bundles): a task's files are all
# judged (judged@10 is p@10), and R@10 is what code context is compared on (`bench --code`)
CODE_METRICS = "r@10,ndcg@10,mrr@10,p@10,r@100,map@100"


SWEEP_METRICS = "ndcg@10,mrr@10,r@100"


CODE_SWEEP_METRICS = "r@10,ndcg@10,mrr@10"


def code_tasks(args: argparse.Namespace, model: Any) -> bool:
    """Code tasks: DATA is a git repository (or a bundled sample's history stream), or the
    model selects bundles."""
    from workbench.core.formats.code_repo import is_code_repo, is_sample_stream_folder

    data = Path(args.data)
    return hasattr(model, "bundles") or is_code_repo(data) or is_sample_stream_folder(data)


def metrics_help(default: str) -> str:
    """The --metrics help of eval and sweep: every name accepted, from the registries."""
    whole = [n for n in METRICS if _accepted(n)]
    return (f"comma-separated: {', '.join(f'{n}@k' for n in METRICS)} ({', '.join(whole)} "
            f"also without @k: the first 1,000 results, as trec_eval reads a run of that "
            f"depth); trec_eval's and ir_measures' names too: ndcg_cut_10 (ndcg_cut.10), "
            f"P_10, recall_100, map_cut_100, recip_rank, AP@100, RR@10; for a model that "
            f"selects bundles "
            f"(e.g. codeledger): {', '.join(BUNDLE_METRICS)} (default: {default})")


def _accepted(spec: str) -> bool:
    try:
        parse_metric(spec)
    except ValueError:
        return False
    return True


def check_bundle_metrics(metrics: Sequence[str], model: Any) -> None:
    """One line when a bundle figure is asked of a model that selects no bundles."""
    asked = [m for m in metrics if m in BUNDLE_METRICS]
    if not asked or hasattr(model, "bundles"):
        return
    from workbench.core.models import get_model, model_ids

    having = [i for i in model_ids() if hasattr(get_model(i), "bundles")]
    raise UsageError(f"metric {asked[0]} needs a model that selects bundles "
                     f"({', '.join(having)}); model {model.id} has none")
