"""Explain one (task, file) pair — stages, matched terms, raw signals, task type and
multipliers, in-bundle or why not, the excerpt — and list a task's near misses."""

from __future__ import annotations

from typing import Any

import numpy as np

from workbench.core.data import Dataset
from workbench.core.engine import Ranking, Scores, top_k
from workbench.core.models.codeledger.bundle import Bundles, bundle_depth, bundles
from workbench.core.models.codeledger.candidates import STAGES
from workbench.core.models.codeledger.combine import (
    coefficients,
    combine_codeledger,
    signal_table,
    task_types,
)
from workbench.core.models.codeledger.content import code_tokens, issue_refs, task_tokens
from workbench.core.models.codeledger.excerpt import FileLines, excerpt_mask, excerpt_ranges
from workbench.core.models.codeledger.mentions import cited_lines
from workbench.core.models.codeledger.params import SIGNAL_NAMES
from workbench.core.models.codeledger.prepared import CodeLedgerPrepared
from workbench.core.models.codeledger.text import TASK_TYPES
from workbench.core.params import Params

__all__ = ["explain_pair", "full_bundles", "near_misses"]


def full_bundles(prep: CodeLedgerPrepared, params: Params, scores: Scores | None = None,
                 ranking: Ranking | None = None) -> tuple[Scores, Bundles]:
    """Scores and bundles (`ranking`: a ranking of `scores` with no selection; one to
    `bundle_depth` is made where it is missing or shallower)."""
    scores = scores if scores is not None else combine_codeledger(prep, params)
    if ranking is None:
        ranking = top_k(scores, bundle_depth(prep, params))
    return scores, bundles(prep, params, scores, ranking)


def explain_pair(prep: CodeLedgerPrepared, dataset: Dataset, query: int, doc: int,
                 params: Params) -> dict[str, Any]:
    files = prep.files
    terms = prep.terms[query]
    t = int(task_types(prep, params)[query])
    coef = coefficients(params)[t]
    plain = coefficients({**params, "task_type": "unknown"})[TASK_TYPES.index("unknown")]
    # the task type's multiplier of each signal: its coefficient over the unknown type's
    # (1 where the weight is 0 and nothing can be told)
    mult = np.divide(coef, plain, out=np.ones_like(coef), where=plain != 0)
    out: dict[str, Any] = {
        "doc": files.paths[doc], "query": dataset.queries[query].text,
        "task_type": TASK_TYPES[t], "detected_task_type": TASK_TYPES[int(prep.task_type[query])],
        "coefficients": {s: float(c) for s, c in zip(SIGNAL_NAMES, coef, strict=True)},
        "multipliers": {s: float(m) for s, m in zip(SIGNAL_NAMES, mult, strict=True)},
        "scope": prep.scopes[query],
        "matched": {
            "path_or_symbol": sorted(terms[k] for k in terms if k in files.strong[doc]),
            "content": sorted(terms[k] for k in terms
                              if k in files.content[doc] and k not in files.strong[doc]),
        },
    }
    pair = prep.pair_of(query, doc)
    if pair is None:
        mark = files.binary_mark[doc] if files.binary_mark else ""
        why = (f"not a candidate: left out as binary ({mark}; skip_marked_binary)"
               if mark and params["skip_marked_binary"] else
               "not a candidate (no stage brought it)")
        return {**out, "candidate": False, "stages": [], "in_bundle": False, "why": why}
    table = signal_table(prep, params)[:, pair]
    scores = combine_codeledger(prep, params)
    rank_row = top_k(scores, int(np.diff(prep.row_ptr).max(initial=0)))
    _, bund = full_bundles(prep, params, scores, rank_row)
    row = rank_row.docs[query, : int(rank_row.count[query])].tolist()
    size = int(bund.size[query])
    in_bundle = doc in bund.files(query)
    gate = int(scores.gate[pair])
    if gate:
        why = "gated: outside the auto-scope " + str(prep.scopes[query])
    elif in_bundle:
        why = f"in the bundle at rank {row.index(doc) + 1} ({size} files)"
    elif row.index(doc) in bund.skipped_ranks(query):
        why = (f"skipped at rank {row.index(doc) + 1}: its {float(prep.cost[pair]):,.0f} "
               f"tokens did not fit the budget, and the next file was tried (skip_limit)")
    else:
        why = (f"below the cut at rank {row.index(doc) + 1}: the bundle stopped after "
               f"{size} files ({bund.stop[query]})")
    out.update(content_details(prep, dataset, query, doc, pair))
    out.update({
        "candidate": True,
        "stages": [name for bit, name in STAGES if int(prep.stages[pair]) & bit],
        "signals": {s: float(v) for s, v in zip(SIGNAL_NAMES, table, strict=True)},
        "contributions": {s: float(v) for s, v in zip(
            SIGNAL_NAMES, scores.contributions_of(np.array([pair]))[:, 0], strict=True)},
        "score": float(scores.total[pair]), "gate": "out_of_scope" if gate else None,
        "in_bundle": in_bundle, "why": why, "stop_reason": bund.stop[query],
        "tokens": float(prep.cost[pair]), "confidence": bund.confidence[query],
    })
    if prep.excerpt_lines[pair]:
        informative = [k for k, df in zip(terms, prep.term_df[query], strict=True) if df]
        cited = (cited_lines(dataset.queries[query].text, files.paths).get(doc, ())
                 if params["excerpt_cited_lines"] else ())
        mask = excerpt_mask(FileLines(dataset.corpus[doc].text), informative,
                            prep.excerpt_window, cited)
        out["excerpt"] = {"lines": int(prep.excerpt_lines[pair]),
                          "of_lines": int(files.lines[doc]), "ranges": excerpt_ranges(mask)}
    return out


def content_details(prep: CodeLedgerPrepared, dataset: Dataset, query: int, doc: int,
                    pair: int) -> dict[str, Any]:
    """The content BM25 with the task tokens the file holds, the path the task names it by,
    the neighbours the graph signal takes relevance from, the file the co-change signal
    takes it from and the past commit that voted most for it (similar signal)."""
    files = prep.files
    task = task_tokens(dataset.queries[query].text)
    held = set(code_tokens(dataset.corpus[doc].text)) | set(code_tokens(
        files.paths[doc].replace("/", " ").replace(".", " ")))
    best = float(prep.bm25_best[query])
    rel = float(prep.relevance[pair])
    graph = {}
    for hop, (value, src) in enumerate(((prep.graph1, prep.from1), (prep.graph2, prep.from2)),
                                       start=1):
        s = int(src[pair])
        if s >= 0:
            graph[f"hop{hop}"] = {"from": files.paths[s], "relevance": float(value[pair])}
    partner = int(prep.cochange_from[pair])
    together = ({"with": files.paths[partner], "value": float(prep.cochange[pair])}
                if partner >= 0 else None)
    commit = int(prep.similar_from[pair])
    similar = ({"commit": prep.commits[commit], "value": float(prep.similar[pair])}
               if commit >= 0 else None)
    return {"content": {"bm25": rel * best, "task_best_bm25": best, "relevance": rel,
                        "tokens_held": sorted(set(task) & held)},
            "named_as": prep.named_as[query].get(doc), "graph_neighbours": graph,
            "changed_with": together, "similar_commit": similar,
            "issue_refs": issue_refs(dataset.queries[query].text)}


def near_misses(prep: CodeLedgerPrepared, params: Params, query: int,
                n: int = 5) -> list[dict[str, Any]]:
    """The best `n` ranked candidates outside the task's bundle — those it skipped for the
    budget, then those below its cut — with why each missed. `tokens_if_added`: the
    bundle's tokens with this file added (and, below the cut, the ones before it there)."""
    scores = combine_codeledger(prep, params)
    ranking = top_k(scores, int(np.diff(prep.row_ptr).max(initial=0)))
    _, bund = full_bundles(prep, params, scores, ranking)
    reach, count = int(bund.reach[query]), int(ranking.count[query])
    spent = float(bund.tokens[query])
    ranks = [*bund.skipped_ranks(query), *range(reach, count)][:n]
    cost_sum = spent
    out = []
    for r in ranks:
        pair = int(ranking.pair[query, r])
        cost = float(prep.cost[pair])
        skipped = r < reach
        if not skipped:
            cost_sum += cost
        out.append({"doc": prep.files.paths[int(ranking.docs[query, r])], "rank": r + 1,
                    "score": float(ranking.scores[query, r]), "tokens": cost,
                    "tokens_if_added": spent + cost if skipped else cost_sum,
                    "stop_reason": "skipped: over the budget" if skipped
                    else bund.stop[query]})
    return out
