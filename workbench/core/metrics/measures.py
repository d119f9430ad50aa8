"""The metric registry: one small vectorised function per measure, keyed by base name.

Every function maps a ranking docs int32 (Q, K) (corpus positions, best first, padded with -1)
and `Judgments` over the same Q queries to float64 (Q,), one value per query, computed as
trec_eval 9 computes it (relevance level 1: relevant means grade > 0). Queries without any
judgment get NaN: trec_eval leaves them out of every average, and so does `mean_over_judged`.
A judged query with no results scores 0 (trec_eval -c).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

import numpy as np
from numpy.typing import NDArray

from workbench.core.metrics.judgments import Judgments

Docs = NDArray[np.int32]
PerQuery = NDArray[np.float64]
MetricFn = Callable[[Docs, Judgments, int | None], PerQuery]
_T = TypeVar("_T", bound=np.generic)


def _cut(a: NDArray[_T], k: int | None) -> NDArray[_T]:
    """The first k columns (all when k is None)."""
    return a if k is None else a[:, :k]


def _undefined_where_unjudged(values: PerQuery, judgments: Judgments) -> PerQuery:
    return np.where(judgments.judged_mask, values, np.nan)


def _ratio(num: NDArray[np.floating] | NDArray[np.integer],
           den: NDArray[np.floating] | NDArray[np.integer]) -> PerQuery:
    """num / den, 0 where den is 0."""
    out = np.zeros(np.shape(num), dtype=np.float64)
    np.divide(num, den, out=out, where=np.asarray(den) > 0)
    return out


def _discount(n: int) -> NDArray[np.float64]:
    """1 / log2(rank + 1) for ranks 1..n (trec_eval 9 m_ndcg_cut.c)."""
    return 1.0 / np.log2(np.arange(2, n + 2, dtype=np.float64))


@dataclass(frozen=True)
class _Looked:
    """A ranking's judgments, looked up once: grades int64 (Q, K) (0 where unjudged), judged
    and retrieved bool (Q, K). Each metric reads its first k columns."""

    grades: NDArray[np.int64]
    judged: NDArray[np.bool_]
    retrieved: NDArray[np.bool_]

    def cut(self, k: int | None) -> _Looked:
        if k is None or k >= self.grades.shape[1]:
            return self
        return _Looked(self.grades[:, :k], self.judged[:, :k], self.retrieved[:, :k])


def _look(docs: Docs, judgments: Judgments, k: int | None) -> _Looked:
    top = _cut(docs, k)
    grades, is_judged = judgments.lookup(top)
    return _Looked(grades, is_judged, top >= 0)


def _ndcg(at: _Looked, judgments: Judgments, k: int | None) -> PerQuery:
    grades = at.grades
    dcg = (np.maximum(grades, 0) * _discount(grades.shape[1])).sum(axis=1)
    ideal = _cut(judgments.ideal, k)
    idcg = (ideal * _discount(ideal.shape[1])).sum(axis=1)
    return _undefined_where_unjudged(_ratio(dcg, idcg), judgments)


def _mrr(at: _Looked, judgments: Judgments, k: int | None) -> PerQuery:
    rel = at.grades > 0
    if rel.shape[1] == 0:  # no query retrieved anything
        return _undefined_where_unjudged(np.zeros(rel.shape[0]), judgments)
    first = np.argmax(rel, axis=1)
    values = np.where(rel.any(axis=1), 1.0 / (first + 1.0), 0.0)
    return _undefined_where_unjudged(values, judgments)


def _precision(at: _Looked, judgments: Judgments, k: int | None) -> PerQuery:
    k = _need_cutoff("p", k)
    return _undefined_where_unjudged((at.grades > 0).sum(axis=1) / float(k), judgments)


def _recall(at: _Looked, judgments: Judgments, k: int | None) -> PerQuery:
    values = _ratio((at.grades > 0).sum(axis=1), judgments.n_rel)
    return _undefined_where_unjudged(values, judgments)


def _average_precision(at: _Looked, judgments: Judgments, k: int | None) -> PerQuery:
    rel = at.grades > 0
    ranks = np.arange(1, rel.shape[1] + 1, dtype=np.float64)
    prec = np.cumsum(rel, axis=1) / ranks
    values = _ratio((prec * rel).sum(axis=1), judgments.n_rel)
    return _undefined_where_unjudged(values, judgments)


def _judged(at: _Looked, judgments: Judgments, k: int | None) -> PerQuery:
    _need_cutoff("judged", k)
    values = _ratio(at.judged.sum(axis=1), at.retrieved.sum(axis=1))
    return _undefined_where_unjudged(values, judgments)


def ndcg(docs: Docs, judgments: Judgments, k: int | None) -> PerQuery:
    """trec_eval ndcg_cut_k (ndcg when k is None): DCG = Σ grade / log2(rank + 1) over the top k,
    gain = the grade itself (linear, not 2^g − 1); ideal DCG from every judged grade of the
    query, in the corpus or not, cut at k."""
    return _ndcg(_look(docs, judgments, k), judgments, k)


def mrr(docs: Docs, judgments: Judgments, k: int | None) -> PerQuery:
    """Reciprocal rank of the first relevant document within the top k (trec_eval recip_rank
    on a run cut at k), 0 if none."""
    return _mrr(_look(docs, judgments, k), judgments, k)


def precision(docs: Docs, judgments: Judgments, k: int | None) -> PerQuery:
    """trec_eval P_k: relevant in the top k / k, even when fewer than k were retrieved."""
    return _precision(_look(docs, judgments, _need_cutoff("p", k)), judgments, k)


def recall(docs: Docs, judgments: Judgments, k: int | None) -> PerQuery:
    """trec_eval recall_k (set_recall when k is None): relevant in the top k / all judged
    relevant (documents outside the corpus included), 0 for a query with none."""
    return _recall(_look(docs, judgments, k), judgments, k)


def average_precision(docs: Docs, judgments: Judgments, k: int | None) -> PerQuery:
    """trec_eval map_cut_k (map when k is None): Σ over relevant ranks r ≤ k of
    precision@r, divided by all judged relevant (not by those retrieved)."""
    return _average_precision(_look(docs, judgments, k), judgments, k)


def judged(docs: Docs, judgments: Judgments, k: int | None) -> PerQuery:
    """ir-measures Judged@k: judged documents (any grade) in the top k / min(k, retrieved);
    0 for a query with no results."""
    return _judged(_look(docs, judgments, _need_cutoff("judged", k)), judgments, k)


def _need_cutoff(name: str, k: int | None) -> int:
    if k is None:
        raise ValueError(f"metric '{name}' needs a cutoff, as in '{name}@10'")
    return k


METRICS: dict[str, MetricFn] = {
    "ndcg": ndcg,
    "mrr": mrr,
    "p": precision,
    "r": recall,
    "map": average_precision,
    "judged": judged,
}
"""Metric functions by base name; "name@k" applies cutoff k (see `parse_metric`)."""

_ON_LOOKED: dict[str, Callable[[_Looked, Judgments, int | None], PerQuery]] = {
    "ndcg": _ndcg, "mrr": _mrr, "p": _precision, "r": _recall, "map": _average_precision,
    "judged": _judged}


# other tools' names for the same measures, each as trec_eval 9 and ir_measures 0.4 compute
# them (relevance level 1): trec_eval's `ndcg_cut_10`, `P_10`, `recall_100`, `map_cut_100`,
# `recip_rank` (no cut-off); ir_measures' AP@k (pytrec_eval's map_cut_k), RR (recip_rank, no
# cut-off unless given: RR@10), Recall@k and Precision@k (its R@k and P@k)
_CUT_ALIASES = {"ndcg_cut_": "ndcg", "p_": "p", "recall_": "r", "map_cut_": "map"}
_NAME_ALIASES = {"recip_rank": "mrr", "ap": "map", "rr": "mrr", "recall": "r",
                 "precision": "p"}


# trec_eval and ir_measures measures the workbench does not compute, said so by name
_NOT_COMPUTED = {"rprec": "R-precision", "bpref": "bpref", "infap": "inferred AP",
                 "success": "Success", "set_f": "set F", "err": "ERR", "gm_map": "GM-MAP",
                 "num_rel": "num_rel", "num_ret": "num_ret", "num_rel_ret": "num_rel_ret",
                 "iprec_at_recall": "interpolated precision", "r-prec": "R-precision",
                 "set_p": "set precision", "set_recall": "set recall", "set_map": "set MAP"}


def _unaliased(spec: str) -> str:
    """`spec` (lower case, stripped) in the workbench's spelling: 'ndcg_cut_10' → 'ndcg@10',
    trec_eval's -m spelling 'ndcg_cut.10' and 'p.5' too, 'ap@100' → 'map@100', 'recip_rank' →
    'mrr'; anything else as it is."""
    name, sep, cut = spec.partition("@")
    head, dot, tail = name.rpartition(".")
    if not sep and dot and tail.isdigit():  # trec_eval -m ndcg_cut.10: measure.cut-off
        name = f"{head}_{tail}"
    for prefix, base in _CUT_ALIASES.items():
        if not sep and name.startswith(prefix) and name[len(prefix):].isdigit():
            return f"{base}@{name[len(prefix):]}"
    if not sep and dot and tail.isdigit():
        return spec  # 'ndcg.10' is no trec_eval name: as typed, for the hint
    return _NAME_ALIASES.get(name, name) + sep + cut


def metric_base(spec: str) -> str:
    """The workbench's base name of metric `spec`, its aliases read ('P_0' → 'p', 'precision'
    → 'p', 'AP@100' → 'map'), whether or not its cut-off is valid; anything else lower-cased."""
    return _unaliased(spec.strip().lower()).partition("@")[0]


def canonical_metric(spec: str) -> str:
    """The workbench's own name of metric `spec`: 'nDCG@10' → 'ndcg@10', 'ndcg_cut_10' →
    'ndcg@10', 'AP@100' → 'map@100', 'RR' → 'mrr'. Raises ValueError as `parse_metric` does."""
    name, k = parse_metric(spec)
    return name if k is None else f"{name}@{k}"


def parse_metric(spec: str) -> tuple[str, int | None]:
    """'ndcg@10' → ('ndcg', 10); 'map' → ('map', None). Case-insensitive; trec_eval's and
    ir_measures' names of the same measures too ('ndcg_cut_10', 'AP@100', 'recip_rank').

    Raises ValueError for an unknown name (the nearest valid name first, then the valid
    ones), a bad or non-positive cutoff, or a metric that needs a cutoff and has none.
    """
    name, sep, cut = _unaliased(spec.strip().lower()).partition("@")
    if name not in METRICS:
        raise ValueError(f"unknown metric {spec.strip()!r}{_did_you_mean(name, sep + cut)}; "
                         f"valid: {', '.join(METRICS)} (as name@k)")
    if not sep:
        if name in ("p", "judged"):
            raise ValueError(f"metric {spec!r} needs a cutoff, as in '{name}@10'")
        return name, None
    try:
        k = int(cut)
    except ValueError:
        raise ValueError(f"metric {spec!r}: cutoff {cut!r} is not an integer") from None
    if k < 1:
        raise ValueError(f"metric {spec!r}: cutoff must be ≥ 1, got {k}")
    return name, k


def _did_you_mean(name: str, cut: str) -> str:
    """' (did you mean ndcg@10?)' for 'ndgc' and '@10': the closest metric name (a bundle
    figure's too, which eval, compare and tune take beside), its cut-off kept, a trailing
    number read as the cut-off ('ndcg_10' → ndcg@10, not ndcg, which reads 1,000 results);
    what trec_eval or ir_measures compute and the workbench does not (Rprec, bpref, Success)
    said so; '' where none is close."""
    import difflib

    from workbench.core.metrics.bundle import BUNDLE_METRICS

    family = next((base for prefix, base in _CUT_ALIASES.items()
                   if name in (prefix, prefix.rstrip("_"))), None) if not cut else None
    if family:  # trec_eval's ndcg_cut, map_cut, P_, recall_: families at cut-offs (dr7 6:
        # 'did you mean ndcg?' read 1,000 results; 'p?' was then refused for want of one)
        return f" (a cut-off is needed: did you mean {family}@10, or another {family}@k?)"
    if name == "num_q":  # trec_eval's count of queries: no column, but said (dr8 6)
        return " (num_q: the query count is in the first line of every eval, not a metric column)"
    beta = re.fullmatch(r"bundle_f(\d[\d.]*|beta)", name)
    if beta and beta[1] != "1":  # F2 weighs recall: bundle_f1 is another figure (dr8 7)
        figure = "F-beta" if beta[1] == "beta" else f"F{beta[1]}"
        return f" (bundle {figure}: not computed; bundle F1, precision and recall are)"
    stem = re.fullmatch(r"(.*?[a-z])[_.]?(\d+)", name) if not cut else None
    if stem:  # ndcg_10, recall10, judged_10: the cut-off kept (bare ndcg reads 1,000 results)
        name, cut = stem[1], f"@{int(stem[2])}"
    unsupported = _NOT_COMPUTED.get(name)
    if unsupported:
        return f" ({unsupported}: not computed by the workbench)"
    if _NAME_ALIASES.get(name, name) in METRICS:
        return f" (did you mean {_with_cut(_NAME_ALIASES.get(name, name), cut)}?)"
    near = difflib.get_close_matches(name, [*METRICS, *_NAME_ALIASES, *BUNDLE_METRICS], n=1)
    if not near or near[0] == name:
        return ""
    if near[0] in BUNDLE_METRICS:
        return f" (did you mean {near[0]}?)"
    return f" (did you mean {_with_cut(_NAME_ALIASES.get(near[0], near[0]), cut)}?)"


def _with_cut(base: str, cut: str) -> str:
    """A suggested name with its cut-off: '@10' for one that is refused without (p, judged),
    never a name the same check then refuses (dr7 6: P_ → 'p?', then 'needs a cutoff')."""
    return f"{base}{cut}" if cut or base not in ("p", "judged") else f"{base}@10"


_LABELS = {"ndcg": "nDCG", "mrr": "MRR", "p": "P", "r": "R", "map": "MAP"}
# figures of what a selection returns (core.selection_figures), read with their unit
_NAMED = {"results": "results per query", "empty": "% of queries returning nothing",
          "injected_tokens": "tokens injected per query"}


def metric_label(name: str) -> str:
    """How a person reads a metric id: ndcg@10 → nDCG@10, mrr@10 → MRR@10, p@10 → P@10,
    r@100 → R@100, map@100 → MAP@100, bundle_recall → bundle recall, bundle_f1 → bundle F1;
    anything else as it is; trec_eval's and ir_measures' names in the workbench's spelling
    (ndcg_cut_10 → nDCG@10, AP@100 → MAP@100, recip_rank → MRR).
    The id stays what is typed (`--metrics`) and what the code keys on."""
    if name in _NAMED:
        return _NAMED[name]
    if _unaliased(name.lower()) != name.lower():  # another tool's name: ndcg_cut_10 → nDCG@10
        name = _unaliased(name.lower())
    if "@" not in name and "_" in name:
        return " ".join("F1" if w == "f1" else w for w in name.split("_"))
    head, _, cut = name.partition("@")
    pretty = _LABELS.get(head.lower(), head)
    return f"{pretty}@{cut}" if cut else pretty


def evaluate(metric_names: Sequence[str], docs: Docs, judgments: Judgments) -> dict[str, PerQuery]:
    """Per-query values float64 (Q,) of each metric, keyed by the name as given.
    NaN for queries without judgments."""
    docs = np.asarray(docs)
    if docs.ndim != 2 or docs.shape[0] != judgments.n_queries:
        raise ValueError(f"docs must be ({judgments.n_queries}, K), got {docs.shape}")
    parsed = [(spec, *parse_metric(spec)) for spec in metric_names]
    for _, name, k in parsed:
        if name in ("p", "judged"):
            _need_cutoff(name, k)
    cuts = [k for _, _, k in parsed]
    widest = None if not cuts or None in cuts else max(c for c in cuts if c is not None)
    looked = _look(docs, judgments, widest)  # one lookup, each metric reads its columns
    return {spec: _ON_LOOKED[name](looked.cut(k), judgments, k) for spec, name, k in parsed}


def mean_over_judged(values: PerQuery, judgments: Judgments) -> float:
    """The trec_eval average: the mean over queries with at least one judgment (NaN if none)."""
    mask = judgments.judged_mask
    if not mask.any():
        return float("nan")
    return float(np.mean(values[mask]))


def evaluate_means(metric_names: Sequence[str], docs: Docs,
                   judgments: Judgments) -> dict[str, float]:
    """`evaluate`, then `mean_over_judged` of each metric."""
    return {name: mean_over_judged(v, judgments)
            for name, v in evaluate(metric_names, docs, judgments).items()}
