"""pi-lodestone's files: decisions.jsonl, eval.jsonl and injections.jsonl, read from small real
files, detected by load_dataset, and the eval cases scored end to end with scores worked out by
hand from REFERENCE.md §1."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from workbench.core.data import FormatError
from workbench.core.engine import rank, resolve_params
from workbench.core.formats import (
    injection_queries,
    load_dataset,
    read_decisions,
    read_eval_cases,
    read_injections,
)
from workbench.core.models.decision_memory import DecisionMemoryModel, record_of


def rec(rid: str, title: str, text: str, *, created: str = "2026-05-20T00:00:00.000Z",
        cwd: str = "/repos/demo", source: str = "manual", tags: list[str] | None = None,
        **extra: Any) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": rid, "createdAt": created, "updatedAt": created, "cwd": cwd,
        "project": cwd.rstrip("/").split("/")[-1], "source": source, "title": title,
        "text": text, "tags": tags or [], "important": False, "archived": False,
        "retrievalCount": 0, "injectionCount": 0}
    out.update(extra)
    return out


def jsonl(path: Path, rows: list[dict[str, Any]], blank_after: int | None = None) -> Path:
    lines = [json.dumps(r) for r in rows]
    if blank_after is not None:
        lines.insert(blank_after, "   ")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


D1 = rec("d1", "url-fetch retry policy", "Retry url-fetch three times with backoff.",
         tags=["decision", "url-fetch"])
D2 = rec("d2", "Ran url-fetch tests", "retry policy checked", source="extracted",
         tags=["workflow"], created="2026-05-25T12:00:00.000Z")
D3 = rec("d3", "Deploy notes", "Always deploy with care.", tags=["workflow"])
D4 = rec("d2", "Backoff tuning", "retry with jitter", created="2025-10-01T00:00:00.000Z",
         important=True, retrievalCount=9, injectionCount=1)
D5 = rec("d5", "Retry policy backoff", "x", cwd="/repos/other/sub", tags=["decision"],
         created="2026-05-25T00:00:00.000Z")
CASES = [
    {"name": "injection: title hits beat an operational title", "query": "url-fetch retry policy",
     "cwd": "/repos/demo", "forInjection": True, "now": "2026-05-26T00:00:00.000Z", "topK": 2,
     "corpus": [D1, D2, D3], "expected_top_ids": ["d1"], "must_not_include": ["d2"]},
    {"name": "search: usage and pinning", "query": "backoff retry", "cwd": "/repos/other/x",
     "forInjection": False, "now": "2026-06-20T00:00:00.000Z", "corpus": [D1, D4],
     "expected_top_ids": ["d2", "d1"]},
    {"name": "project only", "query": "backoff retry policy", "cwd": "/repos/other",
     "now": "2026-05-26T00:00:00.000Z", "projectOnly": True, "topK": 3, "corpus": [D1, D5],
     "expected_top_ids": ["d5"], "must_not_include": ["d1"]},
]


# -- decisions.jsonl -----------------------------------------------------------------------

def test_decisions_file(tmp_path: Path) -> None:
    path = jsonl(tmp_path / "decisions.jsonl", [D1, D2, {**D3, "lastRetrievedAt": "x"}],
                 blank_after=1)
    corpus = read_decisions(path)
    assert corpus.ids == ["d1", "d2", "d3"]
    doc = corpus[0]
    assert (doc.title, doc.tags) == ("url-fetch retry policy", ("decision", "url-fetch"))
    assert doc.metadata["createdAt"] == "2026-05-20T00:00:00.000Z"
    assert doc.metadata["source"] == "manual" and doc.metadata["important"] is False
    assert record_of(corpus[1]) == D2  # the original record comes back whole
    assert corpus[2].metadata["lastRetrievedAt"] == "x"  # unknown keys are kept


def test_decisions_defaults_for_optional_fields(tmp_path: Path) -> None:
    path = jsonl(tmp_path / "d.jsonl", [{"id": "a", "createdAt": "2026-01-01", "source": "turn",
                                         "title": "t", "text": "x"}])
    meta = read_decisions(path)[0].metadata
    assert (meta["cwd"], meta["project"], meta["important"], meta["archived"]) == (
        "", "", False, False)
    assert (meta["retrievalCount"], meta["injectionCount"]) == (0, 0)


# -- eval.jsonl ----------------------------------------------------------------------------

def eval_file(tmp_path: Path) -> Path:
    return jsonl(tmp_path / "eval.jsonl", CASES)


def test_eval_cases_mapping(tmp_path: Path) -> None:
    ds = read_eval_cases(eval_file(tmp_path))
    # d1 is one document (verbatim in three cases); case 2's "d2" is another record: renamed
    assert ds.corpus.ids == ["d1", "d2", "d3", "d2@2", "d5"]
    assert ds.corpus[3].metadata["original_id"] == "d2"
    q = [dict(x.context) for x in ds.queries]
    assert [c["candidates"] for c in q] == [[0, 1, 2], [0, 3], [0, 4]]
    assert q[0]["for_injection"] is True and q[0]["limit"] == q[0]["top_k"] == 2
    assert "min_score" not in q[0]  # injection: the model's inject min score (8)
    assert q[1]["min_score"] == 8 and q[1]["limit"] == 5  # the harness's defaults
    assert q[1]["expected_top_ids"] == ["d2@2", "d1"]
    assert q[2]["project_only"] is True and q[2]["for_injection"] is True
    assert ds.qrels == {ds.queries[0].id: {"d2": 0, "d1": 1},
                        ds.queries[1].id: {"d2@2": 1, "d1": 1},
                        ds.queries[2].id: {"d1": 0, "d5": 1}}


def test_eval_cases_scored_by_hand(tmp_path: Path) -> None:
    ds = load_dataset(eval_file(tmp_path))
    model = DecisionMemoryModel()
    params = resolve_params(model)
    prep = model.prepare(ds, params)
    scores = model.combine(prep, params)
    ranking = rank(scores, 10, model.selection_params(params))
    got = [[(ds.corpus[int(ranking.docs[q, j])].id, int(ranking.scores[q, j]))
            for j in range(int(ranking.count[q]))] for q in range(3)]
    w = 0.75 + math.log(4 / 3)  # N = 3, df = 2 for each of the three tokens
    # d1: 3 title hits, same cwd +6, manual +2 (injection), 6 days old +1
    assert got[0] == [("d1", math.floor(18 * w + 6 + 2 + 1 + 0.5))] == [("d1", 28)]
    # d2@2: title 6·0.75 + body 3·0.75, important +8, manual +4, usage min(9,6) + min(1,4),
    # 262 days old −2 → 23.75 → 24; d1: retry in the title 4.5 + backoff in the body 2.25 +
    # manual 4 (search), 31 days old 0 → 10.75 → 11
    assert got[1] == [("d2@2", 24), ("d1", 11)]
    # project only: d1 is out (N = 1, weights 0.75); d5: 13.5 + same scope 4 + manual 2 +
    # 1 day old +1 = 20.5 → 21
    assert got[2] == [("d5", 21)]
    d2 = ds.corpus.index["d2"]
    out = model.explain(prep, ds, 0, d2, params)
    assert out["gate"] == "operational_title" and out["score"] == 0
    assert [t["location"] for t in out["token_matches"]] == ["title", "body", "body"]
    d1 = ds.corpus.index["d1"]
    assert model.explain(prep, ds, 2, d1, params)["gate"] == "not_in_project"
    for q in ds.queries:
        top = {ds.corpus[int(d)].id for d in ranking.docs[ds.queries.index[q.id]] if d >= 0}
        assert set(q.context["expected_top_ids"]) <= top
        assert not set(q.context["must_not_include"]) & top


def test_an_eval_case_breaks_score_ties_in_its_corpus_order(tmp_path: Path) -> None:
    # pi-lodestone's eval harness sorts by score alone (a stable sort: ties stay in the
    # case's corpus order); newer createdAt first is search()'s tie-break, not the harness's
    old = rec("old", "alpha beta", "body text", created="2026-01-01T00:00:00.000Z")
    new = rec("new", "alpha beta", "body text", created="2026-01-05T00:00:00.000Z")
    case = {"query": "alpha beta", "cwd": "/repos/demo", "now": "2026-03-01T00:00:00.000Z",
            "topK": 1}
    path = jsonl(tmp_path / "eval.jsonl", [
        {**case, "name": "older first", "corpus": [old, new], "expected_top_ids": ["old"]},
        {**case, "name": "newer first", "corpus": [new, old], "expected_top_ids": ["new"]}])
    ds = load_dataset(path)
    model = DecisionMemoryModel()
    params = resolve_params(model)
    prep = model.prepare(ds, params)
    ranking = rank(model.combine(prep, params), 10, model.selection_params(params))
    # each: title 2 tokens · 6 · 0.75 (N = 2, df = 2: ln 1 = 0) + same cwd 6 + manual 2,
    # 59 and 55 days old: no age bonus → 17, a tie; the limit (topK 1) keeps the first
    got = [[(ds.corpus[int(ranking.docs[q, j])].id, int(ranking.scores[q, j]))
            for j in range(int(ranking.count[q]))] for q in range(2)]
    assert got == [[("old", 17)], [("new", 17)]]


def test_an_eval_case_at_min_score_0_returns_each_decision_once_in_its_order(
        tmp_path: Path) -> None:
    # min score 0 widens the rows with the candidates no token meets; the widening assumed
    # newest-first rows and, on a case's own order, returned a decision twice
    old = rec("old", "alpha beta", "body text", created="2026-01-01T00:00:00.000Z")
    mid = rec("mid", "gamma delta", "other words", created="2026-01-03T00:00:00.000Z")
    new = rec("new", "alpha beta", "body text", created="2026-01-05T00:00:00.000Z")
    case = {"query": "alpha beta", "cwd": "/repos/demo", "now": "2026-03-01T00:00:00.000Z",
            "topK": 5, "minScore": 0, "forInjection": False, "expected_top_ids": ["old"]}
    ds = load_dataset(jsonl(tmp_path / "eval.jsonl", [
        {**case, "name": "older first", "corpus": [old, mid, new]},
        {**case, "name": "newer first", "corpus": [new, mid, old]}]))
    model = DecisionMemoryModel()
    params = resolve_params(model)
    ranking = rank(model.combine(model.prepare(ds, params), params), 10,
                   model.selection_params(params))
    got = [[(ds.corpus[int(ranking.docs[q, j])].id, int(ranking.scores[q, j]))
            for j in range(int(ranking.count[q]))] for q in range(2)]
    # old and new are the same decision but for its date (both over 14 days old: no age
    # bonus): they tie; mid meets no token and scores 0. The harness keeps every score ≥ 0,
    # sorted by score alone: ties, and the zeros, in the case's corpus order
    assert [d for d, _ in got[0]] == ["old", "new", "mid"]
    assert [d for d, _ in got[1]] == ["new", "old", "mid"]
    assert got[0][0][1] == got[0][1][1] > 0 and got[0][2][1] == 0


# -- injections.jsonl ----------------------------------------------------------------------

LOG = [
    {"ts": "2026-05-26T10:00:00.000Z", "cwd": "/repos/demo", "project": "demo",
     "promptPreview": "please fix the url-fetch retry policy", "promptCharCount": 37,
     "minScore": 8, "limit": 3, "globalInject": False,
     "results": [{"id": "d1", "title": "url-fetch retry policy", "kind": "manual",
                  "source": "manual", "score": 28, "snippetLength": 41}]},
    {"ts": "2026-05-26T11:00:00.000Z", "cwd": "/repos/demo", "project": "demo",
     "promptCharCount": 5, "minScore": 8, "limit": 3, "globalInject": False, "results": []},
]


def log_file(tmp_path: Path) -> Path:
    path = tmp_path / "injections.jsonl"
    lines = [json.dumps(LOG[0]), "{not json", "", json.dumps(LOG[1]),
             json.dumps({**LOG[1], "results": "none"})]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_injection_log(tmp_path: Path) -> None:
    log = read_injections(log_file(tmp_path))
    assert [r.line for r in log.records] == [1, 4]
    first, second = log.records
    assert first.results[0].id == "d1" and first.results[0].snippet_length == 41
    assert second.prompt_preview is None and second.results == ()  # no preview: still a record
    assert log.n_skipped == 2
    assert log.skipped[0][0] == 2 and "invalid JSON" in log.skipped[0][1]
    assert log.skipped[1] == (5, "field 'results': expected a list, found a string")
    # the last n non-blank lines, corrupt ones counted among them
    assert [r.line for r in read_injections(log_file(tmp_path), last=3).records] == [4]


def test_injection_prompts_as_queries(tmp_path: Path) -> None:
    qs = injection_queries(read_injections(log_file(tmp_path)))
    assert qs.ids == ["turn-1"]
    ctx = qs[0].context
    assert ctx["prompt"] is True and ctx["now"] == "2026-05-26T10:00:00.000Z"
    assert ctx["injected_ids"] == ["d1"]


# -- detection -----------------------------------------------------------------------------

def test_load_dataset_detects_pi_memory(tmp_path: Path) -> None:
    folder = tmp_path / "memory"
    folder.mkdir()
    jsonl(folder / "decisions.jsonl", [D1, D2, D3])
    log_file(folder)
    ds = load_dataset(folder)
    assert ds.corpus.ids == ["d1", "d2", "d3"] and ds.queries.ids == ["turn-1"]
    assert load_dataset(folder / "decisions.jsonl").corpus.ids == ["d1", "d2", "d3"]
    assert load_dataset(eval_file(tmp_path)).judged
    with pytest.raises(FormatError, match="injections log holds no decisions"):
        load_dataset(folder / "injections.jsonl")
    queries = jsonl(tmp_path / "q.jsonl", [{"id": "q", "text": "url-fetch retry",
                                            "cwd": "/repos/demo", "for_injection": False}])
    ds = load_dataset(folder / "decisions.jsonl", queries=queries)
    assert ds.queries[0].context == {"cwd": "/repos/demo", "for_injection": False}


def test_prompt_queries_are_compacted(tmp_path: Path) -> None:
    folder = tmp_path / "memory"
    folder.mkdir()
    jsonl(folder / "decisions.jsonl", [D1, D2, D3])
    log_file(folder)
    ds = load_dataset(folder)
    model = DecisionMemoryModel()
    params = resolve_params(model)
    prep = model.prepare(ds, params)
    # "please fix the url-fetch retry policy": fix and the stop word go
    assert prep.tokens[0] == ["please", "url-fetch", "retry", "policy"]
    out = model.explain(prep, ds, 0, ds.corpus.index["d1"], params)
    assert out["mode"] == "injection" and out["gate"] is None
