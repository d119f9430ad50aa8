"""pi-lodestone's `search()` keeps every candidate whose score ≥ minScore (REFERENCE.md §1): at
min score 0 that includes decisions scoring 0 — ones no query token meets and ones a gate
zeroed — after the positive ones, newer createdAt first, up to the limit. Values worked out by
hand from the specification; random corpora against the pure port (`rank_decisions`)."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from tests.test_decision_memory_model import WORDS, document, random_corpus
from tests.test_decision_memory_rules import NOW, dataset, dec
from workbench.core.data import Corpus, Dataset, Query, QuerySet
from workbench.core.engine import rank, resolve_params
from workbench.core.models.decision_memory import (
    Constants,
    DecisionMemoryModel,
    combine,
    rank_decisions,
)
from workbench.core.models.decision_memory.project import parse_time

HERE = {"cwd": "/repos/p", "now": NOW}


def corpus() -> list[dict[str, Any]]:
    return [
        # title "memory recovery": 6 + 6 (weights off: 1 each), same cwd +6; search: manual +4
        # → 22; injection: manual +2 → 20
        dec("Memory recovery", id="a"),
        dec("Deploy pipeline", id="b", created="2026-02-01T00:00:00.000Z"),  # no match: 0
        dec("Cache layout", id="c", created="2026-01-15T00:00:00.000Z"),  # no match: 0
        # "memory" in the title: 6, same cwd +6, 9 days old +1 → 13 in search; injection:
        # one strong match → gated (single-token evidence) → 0
        dec("Memory notes", id="g", source="turn", created="2026-02-20T00:00:00.000Z"),
        dec("Memory recovery", id="old", archived=True),  # archived: no candidate
        {**dec("Deploy", id="o", created="2026-01-10T00:00:00.000Z"), "cwd": "/repos/q",
         "project": "q"},  # another project: out when project-only
        dec("Git hooks", id="z", created="not a date"),  # unparsable createdAt: last
    ]


def run(overrides: dict[str, object], queries: list[Query] | None = None
        ) -> list[list[tuple[str, int]]]:
    ds = dataset(corpus(), queries or [Query("q", "memory recovery", HERE)])
    model = DecisionMemoryModel()
    params = resolve_params(model, {"token_weights": "none", **overrides})
    scores = model.combine(model.prepare(ds, params), params)
    r = rank(scores, 20, model.selection_params(params))
    return [[(ds.corpus[int(r.docs[q, j])].id, int(r.scores[q, j]))
             for j in range(int(r.count[q]))] for q in range(len(ds.queries))]


def test_search_at_min_score_zero_keeps_every_candidate() -> None:
    search = {"mode": "search", "search_limit": 10}
    assert run({**search, "search_min_score": 1}) == [[("a", 22), ("g", 13)]]
    everything = [("a", 22), ("g", 13), ("b", 0), ("c", 0), ("o", 0), ("z", 0)]
    assert run({**search, "search_min_score": 0}) == [everything]
    # the parameter stops at 0 (negative values act as 0); a query's own setting may be
    negative = Query("q", "memory recovery", {**HERE, "for_injection": False, "min_score": -5,
                                              "limit": 10})
    assert run({}, [negative]) == [everything]
    assert run({**search, "search_min_score": 0, "search_limit": 4}) == [everything[:4]]


def test_injection_at_min_score_zero_returns_gated_candidates_at_zero() -> None:
    # project-only: "o" is no candidate; "g" is gated but still returned, with 0
    inj = {"mode": "injection", "inject_min_score": 0}
    assert run(inj) == [[("a", 20), ("g", 0), ("b", 0)]]
    assert run({**inj, "inject_limit": 10}) == [
        [("a", 20), ("g", 0), ("b", 0), ("c", 0), ("z", 0)]]
    assert run({**inj, "inject_limit": 10, "global_inject": True})[0][-2:] == [
        ("o", 0), ("z", 0)]
    # a disabled cwd: no search at all, whatever the min score
    assert run({**inj, "disabled_projects": '["/repos/p"]'}) == [[]]


def test_the_query_context_decides_per_query() -> None:
    queries = [Query("own", "memory recovery", {**HERE, "for_injection": False,
                                                 "min_score": 0, "limit": 3}),
               Query("cands", "memory recovery", {**HERE, "for_injection": False,
                                                   "min_score": 0, "candidates": [1, 4, 6]}),
               Query("deflt", "memory recovery", {**HERE, "for_injection": False}),
               # a prompt too short to search: the hook searches nothing
               Query("short", "hi", {**HERE, "prompt": True, "min_score": 0})]
    own, cands, deflt, short = run({}, queries)
    assert own == [("a", 22), ("g", 13), ("b", 0)]
    assert cands == [("b", 0), ("z", 0)]  # its own candidates, the archived one dropped
    assert deflt == [("a", 22), ("g", 13)]
    assert short == []


def test_explain_and_the_memory_block_follow() -> None:
    ds = dataset(corpus(), [Query("q", "memory recovery", HERE)])
    model = DecisionMemoryModel()
    params = resolve_params(model, {"token_weights": "none", "mode": "injection",
                                    "inject_min_score": 0})
    prep = model.prepare(ds, params)
    pos = {d.id: i for i, d in enumerate(ds.corpus)}
    b = model.explain(prep, ds, 0, pos["b"], params)
    assert (b["returned"], b["matched"], b["score"], b["gate"]) == (
        True, False, 0, "lexical_zero")
    assert "min score" in b["kept"]
    g = model.explain(prep, ds, 0, pos["g"], params)
    assert (g["returned"], g["score"], g["gate"]) == (True, 0.0, "single_token_evidence")
    c = model.explain(prep, ds, 0, pos["c"], params)  # over the limit of 3
    assert not c["returned"] and "kept" not in c
    a = model.explain(prep, ds, 0, pos["a"], params)
    assert (a["returned"], a["score"]) == (True, 20) and "kept" not in a
    view = model.injections(prep, ds, params)[0]
    assert view.docs == (pos["a"], pos["g"], pos["b"]) and view.scores == (20, 0, 0)
    lines = view.block.splitlines()
    assert lines[0] == "## Pi memory (verify)" and len(lines) == 4
    assert [x.split("]")[0] for x in lines[1:]] == ["- [a", "- [g", "- [b"]


def test_contributions_add_up_to_the_returned_scores() -> None:
    ds = dataset(corpus(), [Query("q", "memory recovery", HERE)])
    model = DecisionMemoryModel()
    params = resolve_params(model, {"token_weights": "none", "mode": "injection",
                                    "inject_min_score": 0, "inject_limit": 10})
    scores = model.combine(model.prepare(ds, params), params)
    row = scores.row(0)
    kept = np.flatnonzero(scores.gate[row] == 0) + row.start
    parts = scores.contributions_of(kept)
    assert parts.sum(axis=0) == pytest.approx(scores.total[kept])
    assert sorted(scores.total[kept].tolist()) == [0, 0, 0, 0, 20]


def test_no_widening_above_zero() -> None:
    """With every min score above 0 the rows are the prepared pairs (nothing is added)."""
    ds = dataset(corpus(), [Query("q", "memory recovery", HERE)])
    model = DecisionMemoryModel()
    params = resolve_params(model, {"mode": "search"})
    prep = model.prepare(ds, params)
    live = model.live(prep, params)
    assert live.rows.src is None and live.rows.doc is prep.pair_doc


@pytest.mark.parametrize("histogram", [True, False])
@pytest.mark.parametrize("own", [False, True])
@pytest.mark.parametrize("mode", ["injection", "search"])
@pytest.mark.parametrize("seed", [4, 5])
def test_random_corpora_at_min_score_zero_match_the_pure_search(
        mode: str, own: bool, seed: int, histogram: bool,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Min score 0 from the parameters, or each query's own (0 or negative) and limit."""
    if not histogram:
        monkeypatch.setattr(combine, "HISTOGRAM_CELLS", 0)
    rng = random.Random(seed)
    recs = random_corpus(rng, 50)
    now = "2026-06-01T00:00:00Z"
    inj = mode == "injection"
    queries = []
    for i in range(20):
        ctx: dict[str, Any] = {"cwd": rng.choice(["/repos/a", "/repos/b/deep", "/tmp/x"]),
                               "now": now}
        if own:
            ctx.update(for_injection=inj, min_score=rng.choice([0, -3]),
                       limit=rng.choice([2, 30, 60]))
        queries.append(Query(f"q{i}", " ".join(rng.choices([*WORDS, "mem", "zzz"],
                                                           k=rng.randint(1, 11))), ctx))
    ds = Dataset("r", Corpus([document(r) for r in recs]), QuerySet(queries))
    model = DecisionMemoryModel()
    limit = rng.choice([30, 60])
    params = resolve_params(model, {"mode": "query" if own else mode, "inject_min_score": 0,
                                    "search_min_score": 0, "inject_limit": limit,
                                    "search_limit": limit})
    scores = model.combine(model.prepare(ds, params), params)
    ranking = rank(scores, 60, model.selection_params(params))
    c = Constants.from_params(params)
    zeros = 0
    for qi, q in enumerate(queries):
        want = rank_decisions(recs, q.text, q.context["cwd"], now_ms=parse_time(now),
                              for_injection=inj, project_only=inj,
                              min_score=q.context.get("min_score"),
                              limit=q.context.get("limit"), c=c)
        got = [(ds.corpus[int(ranking.docs[qi, j])].id, int(ranking.scores[qi, j]))
               for j in range(int(ranking.count[qi]))]
        assert got == want, q.text
        zeros += sum(s == 0 for _, s in want)
    assert zeros > 0  # the case under test occurs
