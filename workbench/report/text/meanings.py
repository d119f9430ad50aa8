"""The key a reader needs: each metric in words, and how to read Δ, p and ▲/▼
(one wording for compare, report, sweep, tune and the window)."""

from __future__ import annotations

from workbench.core.comparison import Comparison
from workbench.core.metrics.bundle import BUNDLE_METRICS
from workbench.report.text.caps import every_list_capped

_MEANING = {
    "ndcg": "how high the relevant documents sit in the top {k}, graded, as a share of the "
            "best order possible (0–1, higher is better)",
    "mrr": "1 / the rank of the first relevant document within the top {k} (1 = first, "
           "0.5 = second; 0 when none)",
    "p": "the relevant documents in the top {k}, divided by {k} always (trec_eval's P@{k}): "
         "its best possible value is below 1 where a query has fewer than {k} relevant "
         "documents",
    "r": "the share of each query's relevant documents found in the top {k}",
    "map": "precision averaged over the ranks of the relevant documents, to rank {k}",
    "judged": "the share of what it returned in the top {k} (of at most {k} results) that "
              "has a judgment at all: coverage, not quality; the other metrics count "
              "unjudged documents as not relevant, and a longer list of unjudged results "
              "lowers it",
}


def metric_meaning(metric: str) -> str:
    """A metric id's meaning in one line ("" where there is none): the report's key, and the
    window's metric cards' and columns' tooltips."""
    from workbench.core.metrics import parse_metric

    figure = BUNDLE_METRICS.get(metric)
    if figure is not None:
        return (f"{figure.help} (higher is better)" if figure.higher_is_better else
                f"{figure.help} (a cost: fewer is better only where recall holds; "
                "↓/↑: tasks with fewer / more)")
    try:
        base, k = parse_metric(metric)
    except ValueError:
        return ""
    return _MEANING.get(base, "").format(k=k if k is not None else "all")


def metric_meanings(comp: Comparison) -> list[str]:
    """One line per metric compared, in words, then how to read Δ, p and ▲/▼: the key a
    reader who does not know the abbreviations needs."""
    from workbench.core.metrics import metric_label

    out = []
    for r in comp.rows:
        meaning = metric_meaning(r.metric)
        if meaning:
            label = metric_label(r.metric)
            named = label if label == r.metric else f"{label} ({r.metric})"
            out.append(f"{named}: {meaning}")
    cap = every_list_capped(comp)
    out += [cap] if cap else []
    out.append(f"{DELTA_TEXT}; {P_TEXT}, the chance of a difference at least this large if "
               f"the two were equally good (below 0.05: unlikely to be chance); {MOVED_TEXT}")
    return out


# what Δ, p and ▲/▼ are, one rule for compare, report, sweep, tune and the window: Δ the
# difference of the means as they are shown, so that a row adds up (review rn 3, 9)
DELTA_TEXT = "Δ: each mean minus the first's, as shown"
P_TEXT = "p: paired randomisation test on the exact per-query differences"
MOVED_TEXT = "▲/▼: queries better / worse"
DELTA_LEGEND = f"{DELTA_TEXT}; {P_TEXT}; {MOVED_TEXT}"
