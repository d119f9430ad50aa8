"""The `decision-memory` model end to end: the golden dm_score cases through prepare + combine,
and random corpora against the pure port's search (`rank_decisions`), both modes, with the
engine's stable top-k."""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pytest

from tests.conftest import SHARED
from workbench.core.data import Corpus, Dataset, Document, Query, QuerySet
from workbench.core.engine import prepare, rank, resolve_params
from workbench.core.models import get_model
from workbench.core.models.decision_memory import (
    DEFAULTS,
    SCHEMA,
    Constants,
    DecisionMemoryModel,
    combine,
    rank_decisions,
)
from workbench.core.models.decision_memory.project import parse_time
from workbench.core.models.decision_memory.queries import RECORD_KEYS

GOLDEN = SHARED / "specs" / "examples" / "decision_memory.jsonl"


def document(rec: dict[str, Any], doc_id: str | None = None) -> Document:
    return Document(id=doc_id or rec["id"], title=rec["title"], text=rec["text"],
                    tags=tuple(rec["tags"]),
                    metadata={k: rec[k] for k in RECORD_KEYS if k in rec})


def golden_dataset(min_score: float = 0) -> tuple[Dataset, list[int]]:
    if not GOLDEN.exists():
        pytest.skip(f"{GOLDEN} absent")
    cases = [json.loads(x) for x in GOLDEN.read_text().splitlines() if x.strip()]
    cases = [c for c in cases if c["kind"] == "dm_score"]
    docs, queries, expected = [], [], []
    for i, case in enumerate(cases):
        inp = case["input"]
        assert inp["options"]["tokenWeights"] is None
        docs.append(document(inp["decision"], f"case{i}"))
        ctx: dict[str, Any] = {"now": inp["options"]["now"],
                               "for_injection": bool(inp["options"]["forInjection"]),
                               "candidates": [i], "min_score": min_score, "limit": 1}
        if inp["cwd"] is not None:
            ctx["cwd"] = inp["cwd"]
        queries.append(Query(f"q{i}", inp["query"], ctx))
        expected.append(case["expected"]["score"])
    return Dataset("golden", Corpus(docs), QuerySet(queries)), expected


def test_registered() -> None:
    assert isinstance(get_model("decision-memory"), DecisionMemoryModel)


def test_every_constant_is_a_parameter_with_the_original_default() -> None:
    for name, value in vars(DEFAULTS).items():
        if isinstance(value, tuple):  # a word list: comma-separated text, read at prepare
            assert SCHEMA[name].default == ", ".join(value), name
            assert SCHEMA[name].stage == "prepare"
            continue
        assert SCHEMA[name].default == value, name
        assert SCHEMA[name].stage == "live"
    assert Constants.from_params(SCHEMA.defaults()) == DEFAULTS
    assert SCHEMA["inject_min_score"].default == 8 and SCHEMA["inject_limit"].default == 3
    assert SCHEMA["mode"].choices == ("query", "injection", "search")


def test_golden_scores_end_to_end() -> None:
    ds, expected = golden_dataset()
    model = DecisionMemoryModel()
    params = resolve_params(model, {"token_weights": "none"})
    scores = model.combine(model.prepare(ds, params), params)
    for q, exp in enumerate(expected):
        row = scores.row(q)
        got = scores.total[row]
        assert len(got) <= 1
        assert (int(got[0]) if len(got) else 0) == exp, ds.queries[q].text
        if exp > 0:
            assert scores.gate[row][0] == 0
            parts = scores.contributions_of(np.arange(row.start, row.stop))
            assert parts.sum(axis=0)[0] == pytest.approx(exp)


def test_golden_gates_are_named() -> None:
    """Each zero of the golden cases is recorded with the gate of the original's code path
    (the no-overlap case has no pair at all: no decision token meets the query). Min score 1:
    at 0 the search returns them, with score 0."""
    ds, expected = golden_dataset(min_score=1)
    model = DecisionMemoryModel()
    params = resolve_params(model, {"token_weights": "none"})
    scores = model.combine(model.prepare(ds, params), params)
    gates = []
    for q in range(len(ds.queries)):
        row = scores.row(q)
        g = int(scores.gate[row][0]) if row.stop > row.start else -1
        gates.append(None if g == 0 else "no pair" if g < 0 else scores.gates[g - 1])
    assert [g for g, e in zip(gates, expected, strict=True) if e == 0] == [
        "no pair", "archived", "source_turn", "single_token_evidence",
        "no_meaningful_evidence", "superseded", "operational_title", "operational_title",
        "long_prompt_evidence"]
    assert all(g is None for g, e in zip(gates, expected, strict=True) if e > 0)


WORDS = ["memory", "recovery", "checkpoint", "git", "deploy", "cache", "decision", "workflow",
         "url-fetch", "vault", "local", "llm", "snippets", "telemetry", "parser", "feed"]


def random_corpus(rng: random.Random, n: int) -> list[dict[str, Any]]:
    recs = []
    for i in range(n):
        day = rng.choice([1, 3, 10, 40, 200, 300])
        recs.append({
            "id": f"d{i}", "createdAt": f"2026-0{rng.randint(1, 5)}-{day % 28 + 1:02d}T00:00:00Z",
            "cwd": rng.choice(["/repos/a", "/repos/a/sub", "/repos/b", "/tmp/x"]),
            "project": rng.choice(["a", "b", "x"]),
            "source": rng.choice(["manual", "extracted", "turn"]),
            "title": rng.choice(["Ran ", "Read ", "", ""]) + " ".join(rng.sample(WORDS, 2)),
            "text": " ".join(rng.choices(WORDS, k=rng.randint(0, 8))),
            "tags": rng.sample(["decision", "workflow", "bugfix", "git", "mem"], rng.randint(0, 2)),
            "important": rng.random() < 0.3, "archived": rng.random() < 0.1,
            "retrievalCount": rng.randint(0, 9), "injectionCount": rng.randint(0, 9),
            **({"supersededBy": "x"} if rng.random() < 0.15 else {}),
            **({"kbPath": "KB/x.md"} if rng.random() < 0.2 else {}),
        })
    return recs


@pytest.mark.parametrize("histogram", [True, False])
@pytest.mark.parametrize("mode", ["injection", "search"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_corpora_match_the_pure_search(mode: str, seed: int, histogram: bool,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    if not histogram:  # the limit by sorting, as for a huge score range
        monkeypatch.setattr(combine, "HISTOGRAM_CELLS", 0)
    rng = random.Random(seed)
    recs = random_corpus(rng, 60)
    now = "2026-06-01T00:00:00Z"
    queries = [Query(f"q{i}", " ".join(rng.choices([*WORDS, "mem", "checkpoints"],
                                                   k=rng.randint(1, 11))),
                     {"cwd": rng.choice(["/repos/a", "/repos/b/deep", "/tmp/x"]), "now": now})
               for i in range(25)]
    ds = Dataset("r", Corpus([document(r) for r in recs]), QuerySet(queries))
    model = DecisionMemoryModel()
    overrides: dict[str, object] = {"mode": mode}
    if seed == 3:  # off-default constants follow through both paths
        overrides.update(inject_min_score=5, w_body=2.5, idf_cap=1.0, search_limit=7,
                         global_inject=True, gate_source_turn=False, gate_superseded=False)
    if seed == 2:
        overrides.update(gate_operational_title=False, gate_no_durable_tag=False)
    if seed == 1 and mode == "injection":  # the word lists follow through both paths too
        overrides.update(operational_words="read, listed", durable_tags="git, mem",
                         generic_terms="memory, cache, decision")
    params = resolve_params(model, overrides)
    scores = model.combine(model.prepare(ds, params), params)
    ranking = rank(scores, 50, model.selection_params(params))
    c = Constants.from_params(params)
    for qi, q in enumerate(queries):
        inj = mode == "injection"
        want = rank_decisions(recs, q.text, q.context["cwd"], now_ms=parse_time(now),
                              for_injection=inj, project_only=inj and seed != 3, c=c)
        got = [(ds.corpus[int(ranking.docs[qi, j])].id, int(ranking.scores[qi, j]))
               for j in range(int(ranking.count[qi]))]
        assert got == want, q.text


def test_decisions_without_queries_combine_to_nothing() -> None:
    """A decisions file opened alone (no injections log): no queries, an empty result."""
    from tests.conftest import SAMPLES
    from workbench.core.formats import load_dataset
    from workbench.core.models import get_model
    from workbench.core.pipeline import Pipeline

    ds = load_dataset(SAMPLES / "decisions" / "decisions.jsonl")
    assert len(ds.queries) == 0
    result = Pipeline(get_model("decision-memory"), ds).run()
    assert result.scores.n_queries == 0 and result.scores.n_pairs == 0


def test_the_token_length_is_a_parameter() -> None:
    """The original's tokens have 3+ characters: "db" is no token, so a query of it finds
    nothing; at min_token_length 2 it finds the decision that names it."""
    rec = {"id": "d1", "title": "db schema in postgres", "text": "keep one db", "tags": [],
           "createdAt": "2026-01-01T00:00:00Z"}
    ds = Dataset("t", Corpus([document(rec)]),
                 QuerySet([Query("q", "db", {"now": "2026-01-02T00:00:00Z"})]))
    model = DecisionMemoryModel()
    found = []
    for length in (3, 2):
        params = resolve_params(model, {"mode": "search", "min_token_length": length})
        scores = model.combine(model.prepare(ds, params), params)
        found.append(int((scores.gate == 0).sum()) if scores.n_pairs else 0)
    assert found == [0, 1]
    assert SCHEMA["min_token_length"].default == 3


@pytest.mark.parametrize("sample", ["decisions", "decisions-eval"])
def test_what_inert_params_names_changes_no_score(sample: str) -> None:
    from tests.conftest import SAMPLES
    from workbench.core.formats import load_dataset

    model = DecisionMemoryModel()
    ds = load_dataset(SAMPLES / sample)
    params = resolve_params(model, {})
    prep = model.prepare(ds, params)
    inert = model.inert_params(prep, params)
    assert inert  # both samples have some
    base = rank(model.combine(prep, params), 50, model.selection_params(params))
    for name in inert:
        p = SCHEMA[name]
        value = (not params[name]) if p.kind == "bool" else p.high
        moved = resolve_params(model, {name: value})
        got = rank(model.combine(prep, moved), 50, model.selection_params(moved))
        assert np.array_equal(got.docs, base.docs), name
        assert np.array_equal(got.scores, base.scores, equal_nan=True), name
    live = resolve_params(model, {"w_title": 50})  # while a live weight does move them
    moved = rank(model.combine(prep, live), 50, model.selection_params(live))
    assert not np.array_equal(moved.scores, base.scores, equal_nan=True)


def _gates(params: dict[str, object], title: str, tags: list[str], query: str,
           ctx: dict[str, object] | None = None) -> tuple[str | None, str]:
    """The gate that zeroes one decision for one injection query (None: it passes), and the
    text the query searched."""
    rec = {"id": "d1", "title": title, "text": "the deploy cache is warmed nightly",
           "tags": tags, "source": "extracted", "createdAt": "2026-05-01T00:00:00Z"}
    ds = Dataset("w", Corpus([document(rec)]), QuerySet([Query(
        "q", query, {"now": "2026-06-01T00:00:00Z", "for_injection": True, **(ctx or {})})]))
    model = DecisionMemoryModel()
    p = resolve_params(model, params)
    prep = model.prepare(ds, p)
    scores = model.combine(prep, p)
    row = scores.row(0)
    g = int(scores.gate[row][0]) if row.stop > row.start else -1
    return (None if g == 0 else "no pair" if g < 0 else scores.gates[g - 1]), prep.specs[0].text


def test_word_lists_are_prepare_parameters() -> None:
    """The operational words, durable tags, generic terms and injection stop words are the
    original's by default and the user's when set (each gate checked on one decision)."""
    title, query = "Fetched deploy cache", "deploy cache warmed"
    assert _gates({}, title, ["ops"], query)[0] == "operational_title"  # "fetched" is one
    assert _gates({"operational_words": "read, ran"}, title, ["ops"], query)[0] == \
        "no_durable_tag"
    assert _gates({"operational_words": "read", "durable_tags": "Ops, ops"}, title, ["ops"],
                  query)[0] is None
    assert _gates({"operational_words": "read", "durable_tags": "Ops"}, title, ["ops"],
                  query)[0] == "no_durable_tag"  # tags compare as written
    # every strong match generic: no meaningful evidence
    assert _gates({"operational_words": "", "generic_terms": "deploy, cache, warmed"}, title,
                  ["decision"], query)[0] == "no_meaningful_evidence"
    assert _gates({"operational_words": ""}, title, ["decision"], query)[0] is None
    # the injection hook's stop words: "fix" and "check" are two of the original's 44
    prompt = {"prompt": True}
    assert _gates({}, title, ["decision"], "fix and check the deploy cache", prompt)[1] == \
        "deploy cache"
    assert _gates({"injection_stop_words": "deploy"}, title, ["decision"],
                  "fix and check the deploy cache", prompt)[1] == "fix check cache"


def test_locality_bonuses_no_candidate_gets_are_inert() -> None:
    """Every candidate shares the query's cwd: the scope and project-name bonuses, which the
    chain only reaches past the cwd, move no score (the review had moved one 0 → 50 for
    nothing); a search-only snippet length is inert where every query injects."""
    recs = [{"id": f"d{i}", "title": "deploy cache", "text": "warm it", "tags": ["decision"],
             "cwd": "/r/a", "project": "a", "source": "manual",
             "createdAt": "2026-05-01T00:00:00Z"} for i in range(2)]
    ds = Dataset("l", Corpus([document(r) for r in recs]), QuerySet([Query(
        "q", "deploy cache", {"cwd": "/r/a", "now": "2026-06-01T00:00:00Z",
                              "for_injection": True})]))
    model = DecisionMemoryModel()
    p = resolve_params(model)
    inert = model.inert_params(model.prepare(ds, p), p)
    assert "bonus_cwd" not in inert
    assert set(inert) >= {"bonus_scope", "bonus_project_name", "search_snippet_chars"}
    moved = resolve_params(model, {"bonus_scope": 50.0, "bonus_project_name": 50.0})
    before = model.combine(model.prepare(ds, p), p).total.tolist()
    assert model.combine(model.prepare(ds, moved), moved).total.tolist() == before


def test_gate_reason_names_the_word_lists_in_use() -> None:
    rec = {"id": "d1", "title": "Fetched deploy cache", "text": "the deploy cache is warm",
           "tags": ["ops"], "source": "extracted", "createdAt": "2026-05-01T00:00:00Z"}
    ds = Dataset("w", Corpus([document(rec)]), QuerySet([Query(
        "q", "deploy cache warm", {"now": "2026-06-01T00:00:00Z", "for_injection": True})]))
    model = DecisionMemoryModel()
    for over, gate, words in (
            ({"operational_words": "fetched, pulled"}, "operational_title", "(fetched, pulled)"),
            ({"operational_words": "", "durable_tags": "keep"}, "no_durable_tag", "(keep)")):
        p = resolve_params(model, over)
        got = model.explain(model.prepare(ds, p), ds, 0, 0, p)
        assert got["gate"] == gate and got["reason"].endswith(words), got["reason"]


def test_word_lists_key_the_prepared_cache_whatever_their_gate() -> None:
    """A run with the operational gate off and its own words was cached under the default
    words' key (the list was idle by its gate, so keyed as the default, yet prepare read it):
    the next run at defaults then injected a decision the original gates."""
    from tests.conftest import SAMPLES
    from workbench.core.formats import load_dataset

    ds = load_dataset(SAMPLES / "decisions")
    model = DecisionMemoryModel()
    defaults = resolve_params(model)
    fresh = model.combine(model.prepare(ds, defaults), defaults)
    odd = resolve_params(model, {"gate_operational_title": False, "operational_words": "zzz",
                                 "gate_no_durable_tag": False, "durable_tags": "zzz"})
    prepare(model, ds, odd)  # through the disk cache
    again = prepare(model, ds, defaults)
    assert model.combine(again, defaults).total.tolist() == fresh.total.tolist()


@pytest.mark.parametrize(("mode", "other"), [("search", "inject_min_score"),
                                             ("injection", "search_min_score")])
def test_a_forced_mode_marks_the_other_modes_settings_inert(mode: str, other: str) -> None:
    """mode=search makes every query a manual search, so the injection settings change no
    score, and the other way round (dr5 11: only a query file of one mode had said so)."""
    from tests.conftest import SAMPLES
    from workbench.core.formats import load_dataset

    model = DecisionMemoryModel()
    ds = load_dataset(SAMPLES / "decisions")
    params = resolve_params(model, {"mode": mode})
    prep = model.prepare(ds, params)
    inert = model.inert_params(prep, params)
    assert other in inert
    # the reason is the setting's, not the data's: the sample holds both kinds of query (dr7
    # 6: "no query injects: every one is a manual search" had been said of it)
    assert inert[other] == {"search": "Mode = search makes every query a search",
                            "injection": "Mode = injection makes every query inject"}[mode]
    assert f"{mode.replace('injection', 'inject')}_min_score" not in inert  # its own reads
    base = rank(model.combine(prep, params), 50, model.selection_params(params))
    moved = resolve_params(model, {"mode": mode, other: SCHEMA[other].high})
    got = rank(model.combine(prep, moved), 50, model.selection_params(moved))
    assert np.array_equal(got.scores, base.scores, equal_nan=True)
