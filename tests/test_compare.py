"""compare: rank changes, movers and metric deltas, checked against plain Python loops over two
real BM25 rankings of the tea sample (k1 = 1.2 against k1 = 0.3, b = 0.2)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.conftest import SAMPLES
from workbench.core.compare import (
    improved_worsened,
    metric_deltas,
    movers,
    rank_changes,
)
from workbench.core.formats import load_dataset
from workbench.core.models import get_model
from workbench.core.pipeline import Pipeline, Result
from workbench.core.ranking import Scores, rank

METRICS = ("ndcg@10", "mrr@10", "r@100")
K = 10


@pytest.fixture(scope="module")
def pair() -> tuple[Result, Result, Pipeline]:
    dataset = load_dataset(SAMPLES / "tea-beir")
    pipe = Pipeline(get_model("bm25"), dataset, use_cache=False)
    baseline = pipe.run(METRICS, depth=100)
    pipe.update({"k1": 0.3, "b": 0.2})
    current = pipe.run(METRICS, depth=100)
    return current, baseline, pipe


def _rows(result: Result) -> list[list[int]]:
    r = result.ranking
    return [[int(d) for d in r.docs[q, : int(r.count[q])]] for q in range(len(r.count))]


def test_the_two_settings_really_differ(pair: tuple[Result, Result, Pipeline]) -> None:
    current, baseline, _ = pair
    assert _rows(current) != _rows(baseline)


def test_rank_changes_match_a_loop(pair: tuple[Result, Result, Pipeline]) -> None:
    current, baseline, _ = pair
    seen_new = seen_up = seen_down = 0
    for q, (now, before) in enumerate(zip(_rows(current), _rows(baseline), strict=True)):
        now_k, before_k = now[:K], before[:K]
        ch = rank_changes(current, baseline, q, K)
        assert ch.docs.tolist() == now_k
        for i, d in enumerate(now_k):
            old = before_k.index(d) + 1 if d in before_k else 0
            assert ch.rank[i] == i + 1
            assert ch.baseline_rank[i] == old
            assert ch.entered[i] == (old == 0)
            assert ch.delta[i] == (old - (i + 1) if old else 0)
            seen_new += old == 0
            seen_up += old > i + 1
            seen_down += 0 < old < i + 1
        gone = [(d, j + 1) for j, d in enumerate(before_k) if d not in now_k]
        assert list(zip(ch.left_docs.tolist(), ch.left_baseline_rank.tolist(),
                        strict=True)) == gone
        assert len(ch.labels()) == len(now_k)
    assert seen_new and seen_up and seen_down  # the sample exercises every case


def test_rank_changes_against_itself_are_all_still(pair: tuple[Result, Result, Pipeline]) -> None:
    current, _, _ = pair
    ch = rank_changes(current, current, 0, K)
    assert (ch.delta == 0).all() and not ch.entered.any() and len(ch.left_docs) == 0
    assert set(ch.labels()) == {"─"}


def _loop_movers(current: Result, baseline: Result, k: int) -> list[tuple[int, int, int, bool,
                                                                          bool]]:
    """(query, doc, jump, entered, left) of every mover, by dictionaries and loops."""
    out = []
    # an unranked document counts past the end of the longer ranking, on either side
    cur_depth = base_depth = max(current.ranking.docs.shape[1],
                                 baseline.ranking.docs.shape[1]) + 1
    for q, (now, before) in enumerate(zip(_rows(current), _rows(baseline), strict=True)):
        now_rank = {d: i + 1 for i, d in enumerate(now)}
        before_rank = {d: i + 1 for i, d in enumerate(before)}
        for d in set(now[:k]) | set(before[:k]):
            a, b = now_rank.get(d, cur_depth), before_rank.get(d, base_depth)
            entered, left = a <= k < b, b <= k < a
            if a != b or entered or left:
                out.append((q, d, b - a, entered, left))
    return out


def test_movers_are_every_change_largest_first(pair: tuple[Result, Result, Pipeline]) -> None:
    current, baseline, _ = pair
    expected = _loop_movers(current, baseline, K)
    got = movers(current, baseline, K, top=10_000)
    assert sorted((m.query, m.doc, m.jump, m.entered, m.left) for m in got) == sorted(expected)
    jumps = [abs(m.jump) for m in got]
    assert jumps == sorted(jumps, reverse=True)
    top = movers(current, baseline, K, top=5)
    assert [(m.query, m.doc) for m in top] == [(m.query, m.doc) for m in got[:5]]
    assert any(m.entered for m in got) and any(m.left for m in got)


def test_mover_ranks_and_signal_deltas(pair: tuple[Result, Result, Pipeline]) -> None:
    current, baseline, _ = pair
    cur_rows, base_rows = _rows(current), _rows(baseline)
    for m in movers(current, baseline, K, top=40):
        now, before = cur_rows[m.query], base_rows[m.query]
        assert m.rank == (now.index(m.doc) + 1 if m.doc in now else None)
        assert m.baseline_rank == (before.index(m.doc) + 1 if m.doc in before else None)
        # each side's contribution, found by scanning that side's candidate list
        for res, total, parts in ((current, m.total, m.contributions),
                                  (baseline, m.baseline_total, m.baseline_contributions)):
            s = res.scores
            row = s.row(m.query)
            hits = [p for p in range(row.start, row.stop) if s.docs[p] == m.doc]
            want_total = float(s.total[hits[0]]) if hits else 0.0
            assert total == pytest.approx(want_total)
            assert parts.sum() == pytest.approx(want_total)
        assert m.same_signals and m.signal_deltas is not None
        assert m.signal_deltas["bm25"] == pytest.approx(m.total_delta)
        # a document that moved up gained score relative to its neighbours; at least the
        # score it has now is the one the ranking shows
        if m.rank is not None:
            assert current.ranking.scores[m.query, m.rank - 1] == pytest.approx(m.total)


def test_movers_across_models_report_each_sides_signals(
        pair: tuple[Result, Result, Pipeline]) -> None:
    _, baseline, pipe = pair
    # the same totals dressed as a two-signal model: "a" the old total, "b" half of it
    s = baseline.scores
    split = Scores(s.row_ptr, s.docs, s.total * 1.5, s.gate, ("a", "b"),
                   lambda p: np.stack([s.total[p], 0.5 * s.total[p]]), s.gates)
    other = Result(split, rank(split, 100))
    assert movers(other, baseline, K, top=10_000) == []  # scaling leaves the order alone
    current = pipe.run(METRICS, depth=100)
    mixed = movers(other, current, K, top=3)
    assert mixed and all(m.signals == ("a", "b") and m.baseline_signals == ("bm25",)
                         for m in mixed)
    for m in mixed:
        assert m.contributions.shape == (2,) and m.baseline_contributions.shape == (1,)
        assert m.total_delta == pytest.approx(m.total - m.baseline_total)


def test_metric_deltas_per_query(pair: tuple[Result, Result, Pipeline]) -> None:
    current, baseline, _ = pair
    deltas = metric_deltas(current, baseline)
    assert set(deltas) == set(METRICS)
    for name, d in deltas.items():
        for q in range(len(d)):
            assert d[q] == pytest.approx(current.per_query[name][q] - baseline.per_query[name][q])
    up, down = improved_worsened(deltas["ndcg@10"])
    loop_up = sum(1 for v in deltas["ndcg@10"] if v > 1e-12)
    loop_down = sum(1 for v in deltas["ndcg@10"] if v < -1e-12)
    assert (up, down) == (loop_up, loop_down)


def test_a_document_the_baseline_did_not_score_is_named_so(
        pair: tuple[Result, Result, Pipeline]) -> None:
    """A mover the other side never scored (not a candidate, no `elsewhere`) carries that
    flag: its zero total there is no score, and the movers list and report say so."""
    from workbench.core.compare import is_scored
    from workbench.core.comparison import MoveExplained
    from workbench.core.ranking import rows_from_query

    current, _, _ = pair
    s = current.scores
    dropped = {(q, int(d)) for q in range(s.n_queries) for d in current.ranking.docs[q, :2]
               if d >= 0}
    q_of = s.pair_query()
    keep = np.array([(int(q_of[p]), int(s.docs[p])) not in dropped for p in range(s.n_pairs)])
    idx = np.flatnonzero(keep)
    total = s.total[idx]
    fewer = Scores(rows_from_query(q_of[idx], s.n_queries), s.docs[idx], total, s.gate[idx],
                   s.signals, lambda p: total[p][None, :], s.gates)
    baseline = Result(fewer, rank(fewer, 100))
    moved = movers(current, baseline, K, top=10_000)
    unscored = [m for m in moved if not m.baseline_candidate]
    assert {(m.query, m.doc) for m in unscored} == dropped
    assert all(m.candidate and m.baseline_rank is None and m.baseline_total == 0.0
               for m in unscored)
    assert all(m.baseline_candidate for m in moved if (m.query, m.doc) not in dropped)
    q, d = next(iter(dropped))
    assert is_scored(s, q, d) and not is_scored(fewer, q, d)
    move = MoveExplained(q, d, None, 1, 0.0, 2.0, ("bm25",), np.zeros(1), np.full(1, 2.0), {},
                         scored_a=False)
    assert move.sentence().startswith(
        "entered at 1: not a candidate under the first configuration (not scored); bm25 +2")
