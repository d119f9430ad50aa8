"""What the bundle panel shows, computed without Qt: the rows of the selected task's bundle
(files, the cut, near misses, missed needed files, files the baseline had), the budget text
and the task type's description. `bundle.ContextBundle` draws it."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from workbench.core.engine import Ranking, Scores, top_k
from workbench.core.models.codeledger import STAGES, Bundles, CodeLedgerPrepared, budget, bundles
from workbench.core.models.codeledger.combine import task_types
from workbench.core.models.codeledger.params import MULTIPLIERS, SIGNAL_LABELS
from workbench.core.models.codeledger.text import TASK_TYPES
from workbench.core.params import Params

N_NEAR = 5
STAGE_SHORT = {"keyword": "kw", "hot_zone": "hot", "dependency": "dep", "fan_out": "fan",
               "test": "test", "content": "content", "named_path": "named",
               "co_change": "co-change", "similar_commits": "similar"}
# each stage in words and what brings a file in at it (`codeledger.candidates`), for the
# Stages heading's tooltip
STAGE_MEANING = {
    "keyword": ("keyword", "a task term in its path, exported symbols or content keywords"),
    "hot_zone": ("hot zone", "among the repository's most-churned files"),
    "dependency": ("dependency", "imports a keyword match, or is imported by one"),
    "fan_out": ("fan-out", "a hub several keyword matches import, or one of its dependents"),
    "test": ("test", "the test of a candidate, or the source a candidate test covers"),
    "content": ("content", "among the best files by BM25 over their content"),
    "named_path": ("named path", "the task names its path"),
    "co_change": ("co-change", "changed often together with the task's content matches"),
    "similar_commits": ("similar commits", "changed by past commits worded like the task"),
}
SEPARATOR = " · "


@dataclass(frozen=True)
class Row:
    """One table row: a file (`doc` ≥ 0) or a section line (`doc` -1, its text in `path`).

    kind: bundle | skipped (over the budget, inside the cut) | near | missed | left |
    section."""

    kind: str
    doc: int
    path: str
    rank: int | None = None
    score: float | None = None
    tokens: float | None = None
    stages: tuple[str, ...] = ()
    needed: bool = False
    mark: str = ""
    note: str = ""


@dataclass(frozen=True)
class BundleView:
    """What the panel shows for one task (tests assert on it)."""

    query: int
    docs: tuple[int, ...]  # the bundle, in rank order
    tokens: float
    stop: str
    confidence: str
    reasons: tuple[str, ...]
    budget: int
    max_files: int
    overshoot_limit: float
    candidates: int
    rows: tuple[Row, ...]
    baseline_docs: tuple[int, ...] | None


def stop_text(reason: str) -> str:
    return reason.replace("_", " ")


def wrap_at_separators(parts: list[str] | tuple[str, ...]) -> str:
    """`parts` joined by " · ", a wrapped label breaking only after a "·": each part's own
    spaces no-break ones (rn 7: "… 8,000 tokens (12" had wrapped from its "%)")."""
    return "\u00a0· ".join(p.replace(" ", "\u00a0") for p in parts)


def budget_text(v: BundleView) -> str:
    """"7 of at most 25 files · 5,820 / 8,000 tokens (73 %) · stopped: sufficiency" (gv 13:
    "7 files / 25" had not said what 25 was), wrapped only at its "·" (`wrap_at_separators`)."""
    pct = 100.0 * v.tokens / v.budget if v.budget else 0.0
    return wrap_at_separators((f"{len(v.docs)} of at most {v.max_files} files",
                               f"{v.tokens:,.0f} / {v.budget:,} tokens ({pct:.0f} %)",
                               f"stopped: {stop_text(v.stop)}"))


def rank_bundles(prep: CodeLedgerPrepared, params: Params,
                  scores: Scores) -> tuple[Ranking, Bundles]:
    """The full candidate ranking and its bundles (as `full_bundles`, keeping the ranking)."""
    ranking = top_k(scores, int(np.diff(prep.row_ptr).max(initial=0)))
    return ranking, bundles(prep, params, scores, ranking)


def _stages(prep: CodeLedgerPrepared, pair: int) -> tuple[str, ...]:
    return tuple(name for bit, name in STAGES if int(prep.stages[pair]) & bit)


def _excerpt(prep: CodeLedgerPrepared, pair: int, doc: int) -> str:
    kept = int(prep.excerpt_lines[pair])
    return f"{kept} of {int(prep.files.lines[doc])} lines" if kept else ""


def build_view(prep: CodeLedgerPrepared, params: Params, ranking: Ranking, bund: Bundles,
               q: int, needed: set[int], baseline_docs: tuple[int, ...] | None) -> BundleView:
    paths = prep.files.paths
    count, reach = int(ranking.count[q]), int(bund.reach[q])
    row_docs = [int(d) for d in ranking.docs[q, :count]]
    rank_of = {d: r for r, d in enumerate(row_docs)}
    docs = tuple(bund.files(q))
    inside = set(docs)
    skipped = set(bund.skipped_ranks(q))
    was = set(baseline_docs) if baseline_docs is not None else None
    rows: list[Row] = []
    for r in range(reach):
        d, pair = row_docs[r], int(ranking.pair[q, r])
        if r in skipped:  # read, did not fit the budget: left out, the next file tried
            rows.append(Row("skipped", d, paths[d], r + 1, float(ranking.scores[q, r]),
                            float(prep.cost[pair]), _stages(prep, pair), d in needed,
                            "−" if was is not None and d in was else "",
                            "skipped: over the budget"))
            continue
        mark = "+" if was is not None and d not in was else ""
        rows.append(Row("bundle", d, paths[d], r + 1, float(ranking.scores[q, r]),
                        float(prep.cost[pair]), _stages(prep, pair), d in needed, mark,
                        _excerpt(prep, pair, d)))
    rows.append(Row("section", -1, f"— cut: {stop_text(bund.stop[q])} —"))
    total = float(bund.tokens[q])
    for r in range(reach, min(count, reach + N_NEAR)):
        d, pair = row_docs[r], int(ranking.pair[q, r])
        total += float(prep.cost[pair])
        note = f"{total:,.0f} tokens if added"
        if _excerpt(prep, pair, d):
            note += f" · {_excerpt(prep, pair, d)}"
        rows.append(Row("near", d, paths[d], r + 1, float(ranking.scores[q, r]),
                        float(prep.cost[pair]), _stages(prep, pair), d in needed,
                        "−" if was is not None and d in was else "", note))
    shown = {row.doc for row in rows}
    missed = sorted((d for d in needed if d not in inside and d not in shown),
                    key=lambda d: (rank_of.get(d, 1 << 30), paths[d]))
    if missed:
        rows.append(Row("section", -1, "— needed, not in the bundle —"))
    for d in missed:
        at = rank_of.get(d)
        cand = prep.pair_of(q, d)
        if at is not None:
            pair = int(ranking.pair[q, at])
            rows.append(Row("missed", d, paths[d], at + 1, float(ranking.scores[q, at]),
                            float(prep.cost[pair]), _stages(prep, pair), True,
                            "−" if was is not None and d in was else "", f"rank {at + 1}"))
        elif cand is not None:  # a candidate the ranking left out: gated by the scope
            rows.append(Row("missed", d, paths[d], None, None, float(prep.cost[cand]),
                            _stages(prep, cand), True, "", "gated: outside the auto-scope"))
        else:
            rows.append(Row("missed", d, paths[d], None, None, None, (), True, "",
                            "not a candidate"))
    shown = {row.doc for row in rows}
    left = [d for d in (baseline_docs or ()) if d not in inside and d not in shown]
    if left:
        rows.append(Row("section", -1, "— left the bundle (in the baseline's) —"))
    for d in left:
        at = rank_of.get(d)
        rows.append(Row("left", d, paths[d], None if at is None else at + 1,
                        None if at is None else float(ranking.scores[q, at]), None, (),
                        d in needed, "−", "not ranked now" if at is None else f"rank {at + 1}"))
    tokens_b, limit = budget(params)
    return BundleView(
        query=q, docs=docs, tokens=float(bund.tokens[q]), stop=bund.stop[q],
        confidence=bund.confidence[q], reasons=bund.reasons[q], budget=tokens_b,
        max_files=limit, overshoot_limit=tokens_b * (1.0 + float(params["overshoot"])),
        candidates=count, rows=tuple(rows), baseline_docs=baseline_docs)


def type_text(prep: CodeLedgerPrepared, params: Params, q: int) -> tuple[str, str]:
    """The type line and its tooltip. The line: "bug fix (detected)" or "test update (forced;
    detected bug fix)", then the weights the type changes, in the sliders' words: "weights:
    test relevance ×2.5, centrality ×0.5" (rn 7: "error_infrastructure ×0"). The tooltip says
    what the line leaves out: that error infrastructure is not counted on a task not a bug
    fix (dA 3: on the line it took two of the narrow column's lines on 7 of 12 tasks)."""
    t = TASK_TYPES[int(task_types(prep, params)[q])]
    detected = TASK_TYPES[int(prep.task_type[q])]
    how = ("detected" if str(params["task_type"]) == "auto"
           else f"forced; detected {_words(detected)}")
    mults = [f"{SIGNAL_LABELS[s]} ×{float(params[f'mult_{tt}_{s}']):g}"
             for tt, s, _ in MULTIPLIERS
             if tt == t and float(params[f"mult_{tt}_{s}"]) != 1.0]
    parts = [f"{_words(t)} ({how})"]
    if mults:
        parts.append("weights: " + ", ".join(mults))
    tip = (f"{SIGNAL_LABELS['error_infrastructure']} not counted: this task is not a bug fix, "
           "and “Error infrastructure: bug fixes only” is on"
           if params["error_infra_bug_fix_only"] and t != "bug_fix" else "")
    return SEPARATOR.join(parts), tip


def _words(key: str) -> str:
    """A task type as words: "bug_fix" → "bug fix"."""
    return key.replace("_", " ")
