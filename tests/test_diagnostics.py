"""why-stats figures, worked by hand from REFERENCE.md §1's definitions."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workbench.core.diagnostics import (
    Turn,
    clamp_last,
    excerpt_length,
    injection_stats,
    percentile,
    turns_from_log,
    turns_from_ranking,
)
from workbench.core.formats.pi_memory_injections import read_injections


def _turn(*scores: float, limit: int = 3, min_score: float = 8, ts: str = "") -> Turn:
    return Turn(tuple((f"d{int(s)}", s, 100) for s in scores), min_score, limit, ts)


def test_figures_worked_by_hand() -> None:
    # the span runs over the dated turns (the second has no ts): ra 8
    t1, t3, t4 = "2026-11-01T10:00:00Z", "2026-11-02T10:00:00Z", "2026-11-03T10:00:00Z"
    turns = [_turn(20, 12, 9, ts=t1), _turn(), _turn(15, ts=t3), _turn(11, 10, ts=t4)]
    st = injection_stats(turns)
    assert st.turns == 4 and (st.first_ts, st.last_ts) == (t1, t4)
    # counts 3, 0, 1, 2 → mean 1.5; sorted 0 1 2 3: p50 = [floor(2)] = 2, p95 = [min(3, 3)] = 3
    assert (st.count_mean, st.count_p50, st.count_p95) == (1.5, 2, 3)
    assert st.hit_limit_pct == 25.0 and st.zero_pct == 25.0
    # top: 20, 0, 15, 11 → avg 11.5, min 0, max 20; tail: 9, 0, 15, 10 → avg 8.5
    assert (st.top_avg, st.top_min, st.top_max, st.tail_avg) == (11.5, 0, 20, 8.5)
    # snippets all 100: tokens = round(100 × 1.5 / 4) = round(37.5) = 38 (halves up)
    assert st.snippet_mean == 100 and st.tokens_per_turn == 38
    # tail avg − min score = 0.5 < 3: the threshold is doing real work
    assert st.threshold_doing_real_work
    # over the three turns with a result: top 20, 15, 11; tail 9, 15, 10 → 11.33 − 8 > 3
    assert st.answered == 3 and st.top_avg_answered == pytest.approx(46 / 3)
    assert st.tail_avg_answered == pytest.approx(34 / 3) and not st.threshold_decides
    assert st.most_injected[0] == ("d20", 1, 20.0) and len(st.most_injected) == 6


def test_empty_turns_do_not_make_the_threshold_look_busy() -> None:
    # min score 60: every injected result scores ≥ 60, yet the average with empty turns as 0
    # fell to 18 and pi-lodestone's verdict said "doing real work" for a gap of −42
    turns = [_turn(70, 65, min_score=60), _turn(min_score=60), _turn(min_score=60),
             _turn(75, min_score=60)]
    st = injection_stats(turns)
    assert st.tail_avg == (65 + 75) / 4 == 35 and st.threshold_doing_real_work
    assert st.tail_avg_answered == 70 and not st.threshold_decides
    near = injection_stats([_turn(70, 61, min_score=60), _turn(min_score=60)])
    assert near.tail_avg_answered == 61 and near.threshold_decides


def test_percentile_and_clamp() -> None:
    assert percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 95) == 10  # floor(9.5) = 9
    assert percentile([5], 50) == 5 and percentile([], 50) == 0
    assert (clamp_last(None), clamp_last(3), clamp_last(50_000), clamp_last(42)) == \
        (500, 10, 10_000, 42)


def test_no_turns() -> None:
    st = injection_stats([])
    assert st.turns == 0 and st.tokens_per_turn == 0 and not st.threshold_doing_real_work


def test_excerpt_length() -> None:
    assert excerpt_length("a  b\n c") == 5
    assert excerpt_length("x" * 500) == 181
    assert excerpt_length("x" * 500, limit=220) == 221


def test_from_a_real_log_without_previews(tmp_path: Path) -> None:
    # the default configuration writes no promptPreview: the original's /memory why crashed
    rows = [{"ts": f"2026-11-0{i}T10:00:00.000Z", "cwd": "/r", "project": "r",
             "promptCharCount": 40, "minScore": 8, "limit": 3, "globalInject": False,
             "results": [{"id": "a", "title": "A", "kind": "manual", "source": "manual",
                          "score": 10 + i, "snippetLength": 120}] * i} for i in range(1, 4)]
    log = tmp_path / "injections.jsonl"
    log.write_text("\n".join(json.dumps(r) for r in rows) + "\nnot json\n")
    parsed = read_injections(log)
    assert parsed.n_skipped == 1
    st = injection_stats(turns_from_log(parsed.records))
    assert st.turns == 3 and st.count_mean == 2.0 and st.hit_limit_pct == pytest.approx(100 / 3)
    assert st.most_injected == (("a", 6, pytest.approx((11 + 12 * 2 + 13 * 3) / 6)),)


def test_live_turns_from_a_ranking() -> None:
    turns = turns_from_ranking(["a", "b", "c"], ["short", "x" * 300, "mid text"],
                               docs=[[1, 0], [2, -1]], scores=[[12.0, 9.0], [8.0, 0.0]],
                               counts=[2, 1], min_score=8, limit=3)
    assert [t.results for t in turns] == [(("b", 12.0, 181), ("a", 9.0, 5)),
                                          (("c", 8.0, 8),)]


def _eval_cases(tmp_path: Path) -> Path:
    """Two eval cases on the same three decisions, each matching all three equally: one sets
    topK 1, the other topK 5 and minScore 2 (pi-lodestone's own eval format)."""
    def rec(rid: str, word: str) -> dict[str, object]:
        when = "2026-05-20T00:00:00.000Z"
        return {"id": rid, "createdAt": when, "updatedAt": when, "cwd": "/repos/demo",
                "project": "demo", "source": "manual", "title": f"retry backoff policy {word}",
                "text": f"Retry with backoff: {word}.", "tags": ["decision"],
                "important": False, "archived": False, "retrievalCount": 0,
                "injectionCount": 0}

    case = {"query": "retry backoff policy", "cwd": "/repos/demo",
            "now": "2026-06-01T00:00:00.000Z", "forInjection": True,
            "corpus": [rec("d1", "alpha"), rec("d2", "bravo"), rec("d3", "charlie")],
            "expected_top_ids": ["d1"]}
    path = tmp_path / "eval.jsonl"
    path.write_text(json.dumps({**case, "name": "one", "topK": 1}) + "\n"
                    + json.dumps({**case, "name": "five", "topK": 5, "minScore": 2}) + "\n")
    return path


def test_live_turns_take_each_eval_cases_own_limit(tmp_path: Path) -> None:
    # each case sets its own topK: the Inject limit slider (1 here) applies to neither, yet the
    # figures took it ("limit 1", both turns "hit the limit")
    from workbench.core.diagnostics import live_injection, turn_settings
    from workbench.core.engine import resolve_params
    from workbench.core.formats import load_dataset
    from workbench.core.models import get_model
    from workbench.core.pipeline import Pipeline

    ds = load_dataset(_eval_cases(tmp_path))
    model = get_model("decision-memory")
    params = resolve_params(model, {"inject_limit": 1, "inject_min_score": 8})
    pipe = Pipeline(model, ds, params, use_cache=False)
    result = pipe.run(())
    assert turn_settings(model, params, 2, pipe.prepared) == ([8.0, 2.0], [1, 5])
    live = live_injection(model, params, ds, result, pipe.prepared)
    # "one" injects 1 of its 3 matches (its limit), "five" all 3 (under its 5)
    assert [len(t.results) for t in live.turns] == [1, 3]
    st = injection_stats(live.turns)
    assert st.hit_limit_pct == 50.0 and st.limit_range == (1, 5) and st.limit == 5
    assert st.min_score_range == (2.0, 8.0)
    # each turn's last result less its own min score: (23 − 8 + 23 − 2) / 2
    assert st.tail_margin == 18.0 and st.tail_margin_answered == 18.0
    assert "inject_limit" in model.inert_params(pipe.prepared, params)
    # in mode "injection" the sliders apply to every query, its context's settings unread
    forced = resolve_params(model, {"inject_limit": 1, "mode": "injection"})
    assert turn_settings(model, forced, 2, pipe.prepared) == ([8.0, 8.0], [1, 1])
