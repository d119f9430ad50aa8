"""Each rule of REFERENCE.md §1, pinned with values worked out by hand, through the pure port
and (where it is a scoring rule) through the model with live parameters."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from workbench.core.data import Corpus, Dataset, Document, Query, QuerySet
from workbench.core.engine import rank, resolve_params
from workbench.core.models.decision_memory import (
    DecisionMemoryModel,
    compact_query,
    infer_tags,
    injection_query,
    parse_time,
    sanitize_prompt,
    score_decision,
    tokenize,
)
from workbench.core.models.decision_memory.queries import RECORD_KEYS
from workbench.core.models.decision_memory.text import (
    GENERIC_TERMS,
    INJECTION_STOP_WORDS,
    STOP_WORDS,
    is_operational_title,
)

NOW = "2026-03-01T00:00:00.000Z"
NOW_MS = parse_time(NOW)


def dec(title: str = "Memory recovery checkpoints", text: str = "", *, source: str = "manual",
        tags: tuple[str, ...] = ("decision",), created: str = "2026-01-01T00:00:00.000Z",
        **extra: Any) -> dict[str, Any]:
    return {"id": extra.pop("id", "d"), "createdAt": created, "cwd": "/repos/p",
            "project": "p", "source": source, "title": title, "text": text,
            "tags": list(tags), "important": False, "archived": False, "retrievalCount": 0,
            "injectionCount": 0, **extra}


def score(d: dict[str, Any], q: str, inj: bool, cwd: str | None = "/repos/p") -> tuple[int, Any]:
    s = score_decision(d, q, cwd, now_ms=NOW_MS, for_injection=inj)
    return s.score, s.gate


# -- text ----------------------------------------------------------------------------------

def test_word_lists() -> None:
    assert (len(STOP_WORDS), len(GENERIC_TERMS), len(INJECTION_STOP_WORDS)) == (32, 8, 44)


@pytest.mark.parametrize(("text", "tokens"), [
    ("Use url-fetch, v1.2.3 and foo::bar in src/tool/index.ts", [
        "url-fetch", "v1.2.3", "foo::bar", "src/tool/index.ts"]),
    ("café naïve", ["caf"]),  # ASCII runs only: "caf"; "na" and "ve" are too short
    ("...memory--- :ab: -x- go", ["memory"]),
    ("The THE the Memory memory", ["memory", "memory"]),  # stop words go, duplicates stay
    ("a_b_c __init__", ["a_b_c", "__init__"]),
])
def test_tokenize(text: str, tokens: list[str]) -> None:
    assert tokenize(text) == tokens


def test_operational_titles() -> None:
    assert is_operational_title("Ran tests") and is_operational_title("READ src/x.ts")
    assert is_operational_title("opened: the file")
    assert not is_operational_title("Ranked list") and not is_operational_title("Reader mode")
    assert not is_operational_title("I ran tests")


def test_infer_tags() -> None:
    assert infer_tags("Fix", "root cause was a regression", ["z", ""]) == ["bugfix", "z"]
    assert infer_tags("x", "We always use pnpm because it is fast", []) == [
        "decision", "preference"]
    assert infer_tags("x", "use pnpm\nbecause", []) == []  # `.` stops at a line break


def test_prompt_compaction() -> None:
    assert injection_query("hi there") == ("", "compact query under 3 characters")
    assert injection_query("  short ") == ("", "prompt under 8 characters")
    assert compact_query("fix the memory memory recovery again then plan") == "memory recovery"
    many = " ".join(f"tok{i:02d}" for i in range(40))
    assert compact_query(many).split() == [f"tok{i:02d}" for i in range(32)]
    assert compact_query(many, 0) == "tok00"  # max(1, n)
    assert sanitize_prompt("key <private>x</private> API_KEY=abc\u3000") == (
        "key [private omitted] API_KEY=[redacted]")


def test_parse_time() -> None:
    assert parse_time("2026-02-01T00:00:00.000Z") == 1769904000000
    assert parse_time("2026-02-01") == 1769904000000
    assert parse_time("2026-02-01T01:00:00+01:00") == 1769904000000
    assert parse_time("2026-02-01T00:00:00.0009Z") == 1769904000000
    assert math.isnan(parse_time("2026-02-30")) and math.isnan(parse_time("soon"))


# -- scoring (pure) --------------------------------------------------------------------------

def test_locations_partial_and_duplicate_tokens() -> None:
    d = dec("Memory", "recovery body", tags=("checkpoints",), created=NOW)
    # title 6 + tags 4 + body 3, manual search: +6 same cwd, +4 manual, +2 fresh
    assert score(d, "memory checkpoints recovery", False)[0] == 13 + 6 + 4 + 2
    # "mem" ⊂ "memory" and "recoveryx" ⊃ "recovery": partial 1 each; "memory" twice = 12
    assert score(d, "mem recoveryx memory memory", False)[0] == 1 + 1 + 12 + 12
    assert score(d, "unrelated words", False) == (0, "lexical_zero")
    assert score(d, "the and", False) == (0, "no_query_tokens")


def test_gates_in_code_order() -> None:
    base = dec("Memory recovery", "checkpoints", tags=("decision",))
    assert score({**base, "archived": True}, "memory recovery", False) == (0, "archived")
    assert score({**base, "supersededBy": "n"}, "memory recovery", True) == (0, "superseded")
    assert score(base, "memory", True) == (0, "single_token_evidence")
    generic = dec("Decision workflow", tags=("decision",))
    assert score(generic, "decision workflow", True) == (0, "no_meaningful_evidence")
    long_q = "memory recovery alpha beta gamma"  # 5 tokens, 2 meaningful < 3
    assert score(base, long_q, True) == (0, "long_prompt_evidence")
    assert score({**base, "source": "turn"}, "memory recovery", True) == (0, "source_turn")
    ran = dec("Ran memory recovery", source="extracted", tags=("decision",))
    assert score(ran, "memory recovery", True) == (0, "operational_title")
    assert score({**ran, "source": "manual"}, "memory recovery", True)[1] is None
    plain = dec("Memory recovery", source="extracted", tags=("notes",))
    assert score(plain, "memory recovery", True) == (0, "no_durable_tag")
    assert score({**plain, "tags": ["workflow"]}, "memory recovery", True)[1] is None


@pytest.mark.parametrize(("gate", "record"), [
    ("gate_superseded", {"supersededBy": "n"}),
    ("gate_source_turn", {"source": "turn"}),
    ("gate_operational_title", {"source": "extracted", "title": "Ran memory recovery"}),
    ("gate_no_durable_tag", {"source": "extracted", "tags": ["notes"]}),
])
def test_each_categorical_gate_can_be_switched_off(gate: str, record: dict[str, Any]) -> None:
    d = {**dec("Memory recovery", "checkpoints", id="gated"), **record}
    ds = dataset([d], [Query("inj", "memory recovery", {"cwd": "/repos/p", "now": NOW})])
    assert top(ds, {}) == [[]]  # gated: nothing injected
    (got,), = top(ds, {gate: False})
    assert got[0] == "gated" and got[1] >= 8  # title 6·0.75 per token, locality, bonuses
    other = next(g for g in ("gate_superseded", "gate_source_turn", "gate_operational_title",
                             "gate_no_durable_tag") if g != gate)
    assert top(ds, {other: False}) == [[]]  # only its own switch opens it


def test_long_prompt_damping() -> None:
    d = dec("a1a b2b c3c d4d e5e f6f g7g h8h i9i", created="2025-12-01T00:00:00.000Z")
    q = "a1a b2b c3c d4d e5e f6f g7g h8h i9i"  # 9 title hits: 54 → round(54·√(8/9)) = 51
    lexical = math.floor(54 * math.sqrt(8 / 9) + 0.5)
    assert lexical == 51
    # injection: 51 + same cwd 6 + manual 2, 90 days: no age bonus
    assert score(d, q, True)[0] == 51 + 6 + 2
    assert score(d, q, False)[0] == 54 + 6 + 4  # no damping in manual search


def test_bonuses() -> None:
    d = dec("Memory recovery", created="2025-08-01T00:00:00.000Z", important=True,
            kbPath="KB/x.md", retrievalCount=9, injectionCount=9, supersededBy="n")
    # 12 + 6 cwd + 8 important + 4 manual + 3 kb + 6 + 4 usage − 4 superseded − 2 old
    assert score(d, "memory recovery", False)[0] == 12 + 6 + 8 + 4 + 3 + 6 + 4 - 4 - 2
    d.pop("supersededBy")
    # injection: 12 + 6 + 4 + 2 + 3 − 2, usage ignored
    assert score(d, "memory recovery", True)[0] == 12 + 6 + 4 + 2 + 3 - 2
    assert score(d, "memory recovery", True, "/repos/p/sub")[0] == 12 + 4 + 4 + 2 + 3 - 2
    # /home/u/p is named p too: same scope (+4); stored project = the cwd's name only: +2
    assert score(d, "memory recovery", True, "/home/u/p")[0] == 12 + 4 + 4 + 2 + 3 - 2
    assert score({**d, "project": "x"}, "memory recovery", True, "/home/u/x")[0] == (
        12 + 2 + 4 + 2 + 3 - 2)
    assert score(d, "memory recovery", True, None)[0] == 12 + 4 + 2 + 3 - 2


# REFERENCE.md §1: "Age in fractional days from createdAt: < 1 → +2; < 14 → +1; > 180 → −2".
# Each boundary exactly (the comparison is strict on both sides) and one millisecond inside.
AGES = [  # (age before NOW, the age bonus)
    (timedelta(days=1) - timedelta(milliseconds=1), 2),
    (timedelta(days=1), 1),
    (timedelta(days=14) - timedelta(milliseconds=1), 1),
    (timedelta(days=14), 0),
    (timedelta(days=180), 0),
    (timedelta(days=180) + timedelta(milliseconds=1), -2),
]


def _created(age: timedelta) -> str:
    t = datetime(2026, 3, 1, tzinfo=UTC) - age  # NOW
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond // 1000:03d}Z"


@pytest.mark.parametrize(("age", "bonus"), AGES, ids=lambda v: str(v))
def test_age_bonus_boundaries(age: timedelta, bonus: int) -> None:
    d = dec("Memory recovery", id="d", created=_created(age))
    # the port: title 6 + 6 (no weight map: 1 each) + 6 same cwd + 4 manual
    assert score(d, "memory recovery", False)[0] == 12 + 6 + 4 + bonus
    # injection: + 2 manual instead of 4
    assert score(d, "memory recovery", True)[0] == 12 + 6 + 2 + bonus
    # the model: N = df = 1, weight 0.75: 12·0.75 = 9
    ds = dataset([d], [Query("q", "memory recovery", {"cwd": "/repos/p", "now": NOW})])
    assert top(ds, {"mode": "search"}) == [[("d", 9 + 6 + 4 + bonus)]]
    assert top(ds, {"mode": "injection"}) == [[("d", 9 + 6 + 2 + bonus)]]


# -- the model: live parameters ----------------------------------------------------------------

def dataset(records: list[dict[str, Any]], queries: list[Query]) -> Dataset:
    docs = [Document(r["id"], r["title"], r["text"], tuple(r["tags"]),
                     {k: r[k] for k in RECORD_KEYS if k in r}) for r in records]
    return Dataset("t", Corpus(docs), QuerySet(queries))


def top(ds: Dataset, overrides: dict[str, object]) -> list[list[tuple[str, int]]]:
    model = DecisionMemoryModel()
    params = resolve_params(model, overrides)
    scores = model.combine(model.prepare(ds, resolve_params(model)), params)
    r = rank(scores, 20, model.selection_params(params))
    return [[(ds.corpus[int(r.docs[q, j])].id, int(r.scores[q, j]))
             for j in range(int(r.count[q]))] for q in range(len(ds.queries))]


def test_ties_newer_first_and_limits() -> None:
    recs = [dec("Memory recovery", id=f"d{i}", created=f"2026-01-0{i + 1}T00:00:00.000Z")
            for i in range(5)]
    ds = dataset(recs, [Query("q", "memory recovery", {"cwd": "/repos/p", "now": NOW})])
    # one shared weight: N = 5, df = 5 → 0.75; 12·0.75 = 9, + 6 + 2 (injection) = 17
    assert top(ds, {"mode": "injection"}) == [[("d4", 17), ("d3", 17), ("d2", 17)]]
    assert top(ds, {"mode": "search"})[0] == [(f"d{i}", 19) for i in (4, 3, 2, 1, 0)]
    assert top(ds, {"mode": "injection", "inject_limit": 1}) == [[("d4", 17)]]
    assert top(ds, {"mode": "injection", "inject_min_score": 18}) == [[]]
    assert top(ds, {"mode": "injection", "w_title": 12}) == [
        [("d4", 26), ("d3", 26), ("d2", 26)]]
    assert top(ds, {"mode": "search", "token_weights": "none"})[0][0] == ("d4", 22)


def test_query_context_settings_and_project_only() -> None:
    here = dec("Memory recovery", id="here")
    there = {**dec("Memory recovery", id="there"), "cwd": "/repos/q", "project": "q"}
    ctx = {"cwd": "/repos/p", "now": NOW}
    ds = dataset([here, there], [
        Query("inj", "memory recovery", ctx),
        Query("srch", "memory recovery", {**ctx, "for_injection": False}),
        Query("own", "memory recovery", {**ctx, "project_only": False, "limit": 1,
                                         "min_score": 0})])
    # injection is project-only: "there" is out and N = 1 (weight 0.75 + ln 1 = 0.75)
    inj, srch, own = top(ds, {})
    assert inj == [("here", 9 + 6 + 2)]
    # search: both; N = 2, df = 2: weight 0.75; "there" gets no locality
    assert srch == [("here", 9 + 6 + 4), ("there", 9 + 4)]
    assert own == [("here", 17)]
    assert top(ds, {"global_inject": True})[0] == [("here", 17), ("there", 11)]
    assert top(ds, {"mode": "search"})[2] == srch  # forced mode ignores the context


def test_explain_names_every_part() -> None:
    d = dec("Memory recovery", "checkpoints here", tags=("decision", "mem"), id="d",
            kbPath="KB/a.md", created="2026-02-28T12:00:00.000Z")
    ds = dataset([d, dec("Other", "recovery", id="o")],
                 [Query("q", "memory checkpoints mem2 zzz", {"cwd": "/repos/p", "now": NOW})])
    model = DecisionMemoryModel()
    params = resolve_params(model)
    prep = model.prepare(ds, params)
    out = model.explain(prep, ds, 0, 0, params)
    w_memory = 0.75 + math.log(3 / 2)  # N = 2, df = 1
    assert [(t["token"], t["location"]) for t in out["token_matches"]] == [
        ("memory", "title"), ("checkpoints", "body"), ("mem2", "partial"), ("zzz", "none")]
    assert out["token_matches"][0]["points"] == pytest.approx(6 * w_memory)
    assert out["token_matches"][2]["weight"] == 1.0  # absent from the map
    assert (out["strong_matches"], out["meaningful_matches"]) == (2, 2)
    assert out["bonuses"]["kb"] == 3 and out["bonuses"]["age"] == 2
    assert out["bonuses"]["locality"] == 6 and out["locality"] == "same cwd"
    assert out["mode"] == "injection" and out["gate"] is None and out["score"] >= 8
    other = model.explain(prep, ds, 0, 1, params)  # shares no token: not a candidate
    assert other["matched"] is False and other["gate"] == "lexical_zero"
