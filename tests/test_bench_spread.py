"""bench says when its runs were unsteady or the machine busy: two runs minutes apart had
given live paths of 14.7 and 1.8 ms and references three times apart, each printed as a
result with nothing to doubt it by."""

from __future__ import annotations

import os

import pytest

from workbench.bench.harness import load_note, spread_note
from workbench.bench.references import _per_query_ms


def test_runs_far_apart_are_said_with_their_quartiles() -> None:
    assert spread_note([2.0, 2.1, 2.0, 2.2, 2.1, 2.0]) == ""
    # quartiles of 1, 2, 2, 9, 14, 15 (exclusive method): 1.75 and 14.25
    assert spread_note([1.0, 2.0, 2.0, 9.0, 14.0, 15.0]) == (
        "unsteady: runs 1.8–14.2 ms (quartiles)")
    assert spread_note([1.0, 9.0]) == ""  # too few runs to say


def test_a_load_above_the_cores_is_said(monkeypatch: pytest.MonkeyPatch) -> None:
    cores = os.cpu_count() or 1
    monkeypatch.setattr(os, "getloadavg", lambda: (cores + 3.0, 0.0, 0.0))
    assert f"the load average was {cores + 3.0:.1f} on {cores} cores" in load_note()
    monkeypatch.setattr(os, "getloadavg", lambda: (cores / 2, 0.0, 0.0))
    assert load_note() == ""


def test_a_slow_reference_times_at_least_five_queries() -> None:
    ran: list[int] = []
    each, timed = _per_query_ms(300, ran.append, least=5, most=20, seconds=0.0)
    assert timed == 5 and ran == [0, 15, 30, 45, 60]  # spread over the set
    assert each >= 0.0


def test_the_embedding_bench_says_which_target_it_missed() -> None:
    from workbench.bench.embedding_bench import embedding_verdict

    best = {"direct": 10.0, "ours": 10.4, "direct pool": 6.0, "ours pool": 9.0}
    # ours 4 % slower: within 5 %; the pool 50 % slower; the cache back in 0.2 s
    assert embedding_verdict(best, 0.2) == ["ours pool +50.0 % against direct pool"]
    assert embedding_verdict({"direct": 10.0, "ours": 10.0}, 1.5) == ["cache reopen 1.50 s"]
