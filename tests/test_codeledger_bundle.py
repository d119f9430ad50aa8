"""codeledger stop rule, budget presets, excerpts, confidence and bundle metrics, by hand."""

from __future__ import annotations

import numpy as np
import pytest

from tests.test_codeledger_fixtures import HIT_LINE, make_dataset, prepare
from workbench.core.data import Corpus, Dataset, Document, Query, QuerySet
from workbench.core.engine import Ranking, Scores, rank, total_only
from workbench.core.metrics import Judgments
from workbench.core.models.codeledger import CodeLedgerDocumentModel as CodeLedgerModel
from workbench.core.models.codeledger import budget, bundles, near_misses
from workbench.core.models.codeledger.bundle import bundle_depth
from workbench.core.pipeline import Pipeline


def widgets(tokens: list[int]) -> tuple[CodeLedgerModel, object, dict[str, object]]:
    """Files mod/f0.py … each a keyword match of the task "widget", costing `tokens`."""
    docs = [Document(f"mod/f{i}.py", f"mod/f{i}.py", "",
                     metadata={"keywords": ["widget"], "lines": 10, "tokens": t})
            for i, t in enumerate(tokens)]
    ds = Dataset("w", Corpus(docs), QuerySet([Query("q", "widget")]))
    model = CodeLedgerModel()
    params = model.schema.resolve({"hot_zone_files": 0})
    return model, model.prepare(ds, params), params


def by_hand(scores: list[float]) -> tuple[Scores, Ranking]:
    """Scores set by hand on the task's n candidates (its n files, in corpus order), and
    their ranking (`scores` is given best first)."""
    n = len(scores)
    total = np.array(scores, np.float64)
    return (Scores(row_ptr=np.array([0, n], np.int64), docs=np.arange(n, dtype=np.int32),
                   total=total, gate=np.zeros(n, np.int8), signals=("hand",),
                   parts=total_only(total)),
            Ranking(docs=np.arange(n, dtype=np.int32)[None, :], scores=total[None, :],
                    pair=np.arange(n, dtype=np.int64)[None, :], count=np.array([n])))


def cut(tokens: list[int], scores: list[float], **params: object) -> tuple[int, float, str]:
    _, prep, base = widgets(tokens)
    b = bundles(prep, {**base, **params}, *by_hand(scores))  # type: ignore[arg-type]
    return int(b.size[0]), float(b.tokens[0]), b.stop[0]


def test_file_limit() -> None:
    assert cut([100] * 5, [0.5] * 5, max_files=3, sufficiency=1.0) == (3, 300.0, "file_limit")


def test_token_budget_with_overshoot_taken_and_refused() -> None:
    tokens = [4000, 3000, 1500, 100]
    # 8500 ≤ 8000 · 1.1 and score 0.4 ≥ 0.3: the third file overshoots; the fourth would
    # still fit 8800 but 0.2 < 0.3
    assert cut(tokens, [0.9, 0.8, 0.4, 0.2], sufficiency=1.0) == (3, 8500.0, "token_budget")
    # the same third file with score 0.2 is refused: selection stops there
    assert cut(tokens, [0.9, 0.8, 0.2, 0.1], sufficiency=1.0) == (2, 7000.0, "token_budget")
    # beyond 8800 even a high-value file is refused
    assert cut([4000, 3000, 2000], [0.9, 0.8, 0.7], sufficiency=1.0) == (
        2, 7000.0, "token_budget")


def test_sufficiency_and_exhausted() -> None:
    # positive mass 1.0: taken 0.5, 0.8 (< 0.85), then 0.9 ≥ 0.85 stops before the 4th
    assert cut([10] * 5, [0.5, 0.3, 0.1, 0.1, -0.2]) == (3, 30.0, "sufficiency")
    assert cut([10] * 3, [0.5, 0.3, 0.2], sufficiency=1.0) == (3, 30.0,
                                                                 "candidates_exhausted")
    assert cut([10] * 2, [-0.1, -0.2]) == (2, 20.0, "candidates_exhausted")  # no mass


def test_budget_presets() -> None:
    model = CodeLedgerModel()
    p = model.schema.resolve({"max_files": 7, "token_budget": 1234})
    assert budget(p) == (1234, 7)
    assert budget({**p, "budget_preset": "tight"}) == (3000, 10)
    assert budget({**p, "budget_preset": "default"}) == (8000, 25)
    assert budget({**p, "budget_preset": "generous"}) == (15000, 40)
    assert cut([100] * 12, [0.5] * 12, budget_preset="tight", sufficiency=1.0) == (
        10, 1000.0, "file_limit")


def test_excerpt_of_a_long_file() -> None:
    model, ds, prep, params = prepare({"q": "widget"})
    big = ds.corpus.index["big/large.py"]
    pair = prep.pair_of(0, big)
    assert pair is not None
    # signatures (lines 1 and 501) + the hit at 301 ± 5 lines: 13 lines of 600 at 4 tokens
    assert int(prep.excerpt_lines[pair]) == 13 and float(prep.cost[pair]) == 52.0
    info = model.explain(prep, ds, 0, big, params)
    assert info["excerpt"]["ranges"] == [(1, 1), (HIT_LINE - 4, HIT_LINE + 6), (501, 501)]
    assert info["candidate"] and "keyword" in info["stages"]
    assert info["matched"]["path_or_symbol"] == [] and info["matched"]["content"] == ["widget"]
    _, _, whole, _ = prepare({"q": "widget"}, excerpt_threshold_lines=1000)
    assert float(whole.cost[whole.pair_of(0, big)]) == 2400.0
    assert int(whole.excerpt_lines[whole.pair_of(0, big)]) == 0


def test_confidence_levels() -> None:
    model, _, prep, params = prepare({"a": "retry policy", "b": "fix the bug",
                                       "c": "resolve aliases"})
    b = model.bundles(prep, params, model.combine(prep, params),
                      rank(model.combine(prep, params), 100))
    assert b.confidence == ("HIGH", "LOW", "MEDIUM")
    assert "no dependency chain" in b.reasons[2] and "0 informative task terms" in b.reasons[1]


def test_bundle_metrics_by_hand() -> None:
    ds = make_dataset({"q1": "retry policy", "q2": "resolve aliases"},
                      {"q1": {"svc/retry.py": 1, "svc/util.py": 1, "gone.py": 1}})
    model = CodeLedgerModel()
    pipe = Pipeline(model, ds, {"max_files": 1}, use_cache=False)
    res = pipe.run(("ndcg@10",))
    assert pipe.dataset.corpus[int(res.ranking.docs[0, 0])].id == "svc/retry.py"
    assert res.per_query["bundle_recall"][0] == pytest.approx(1 / 3)
    assert res.per_query["bundle_precision"][0] == 1.0
    assert np.isnan(res.per_query["bundle_recall"][1])
    assert np.isnan(res.per_query["bundle_precision"][1])
    assert list(res.per_query["bundle_files"]) == [1.0, 1.0]
    assert res.per_query["bundle_tokens"][0] == 320.0
    assert res.means["bundle_recall"] == pytest.approx(1 / 3)
    # the ranking is not cut at the bundle
    assert int(res.ranking.count[0]) > 1


def test_empty_bundle_precision_is_zero() -> None:
    ds = make_dataset({"q": "the and of"}, {"q": {"svc/retry.py": 1}})
    model = CodeLedgerModel()
    pipe = Pipeline(model, ds, {"hot_zone_files": 0}, use_cache=False)
    res = pipe.run(("ndcg@10",))
    assert res.per_query["bundle_precision"][0] == 0.0
    assert res.per_query["bundle_recall"][0] == 0.0
    j = Judgments.build(ds.qrels or {}, ds.queries.ids, ds.corpus.index)
    assert j.n_rel[0] == 1


def test_explain_outside_and_near_misses() -> None:
    model, ds, prep, params = prepare({"q": "retry policy"}, max_files=2)
    util = ds.corpus.index["svc/util.py"]
    info = model.explain(prep, ds, 0, util, params)
    assert info["stages"] == ["dependency"] and not info["in_bundle"]
    assert "file_limit" in info["why"]
    other = model.explain(prep, ds, 0, ds.corpus.index["docs/notes.md"], params)
    assert other["candidate"] is False and "not a candidate" in other["why"]
    misses = near_misses(prep, params, 0, n=2)
    assert [m["rank"] for m in misses] == [3, 4]
    assert all(m["stop_reason"] == "file_limit" for m in misses)


def test_live_path_ranks_once_and_reads_the_same() -> None:
    """The live path ranks once, to `bundle_depth` (`live_depth`): the result's ranking is
    the ranking to the metric depth, and the bundle metrics equal those of bundles cut from
    the full candidate ranking made apart — with auto-scope gating some pairs and without,
    and with a file limit that makes the bundle depth shorter than the candidate lists."""
    from workbench.core.models.codeledger import CodeLedgerModel as Fitted
    from workbench.core.models.codeledger.explain import full_bundles
    from workbench.core.ranking import top_k

    tasks = {"a": "Retry backoff is wrong in the api-gateway route", "b": "fix the store helper",
             "c": "widget count in big/large.py", "d": "nothing matches zzz"}
    qrels = {"a": {"svc/retry.py": 1}, "b": {"svc/store.py": 1, "svc/util.py": 1},
             "c": {"big/large.py": 1}, "d": {"misc/other.py": 1}}
    ds = make_dataset(tasks, qrels)
    shallow = widest = 0
    for scope, extra in ((False, {}), (True, {}),
                         (False, {"budget_preset": "custom", "max_files": 2}),
                         (True, {"budget_preset": "custom", "max_files": 3, "sufficiency": 0.6}),
                         (False, {"budget_preset": "custom", "max_files": 4,
                                  "token_budget": 150})):
        pipe = Pipeline(Fitted(), ds, {"auto_scope": scope, **extra}, use_cache=False)
        res = pipe.run(("r@10", "ndcg@10"), depth=3)
        alone = rank(res.scores, 3)
        for field in ("docs", "pair", "count"):
            np.testing.assert_array_equal(getattr(res.ranking, field), getattr(alone, field))
        np.testing.assert_array_equal(res.ranking.scores, alone.scores)
        longest = int(np.diff(pipe.prepared.row_ptr).max())
        every = top_k(res.scores, longest)
        _, apart = full_bundles(pipe.prepared, pipe.params, res.scores, every)
        np.testing.assert_array_equal(res.per_query["bundle_files"], apart.size)
        np.testing.assert_array_equal(res.per_query["bundle_tokens"], apart.tokens)
        # a ranking shallower than the bundle depth is ranked again, not cut short
        short = top_k(res.scores, 1)
        _, again = full_bundles(pipe.prepared, pipe.params, res.scores, short)
        np.testing.assert_array_equal(again.size, apart.size)
        assert again.stop == apart.stop
        assert longest > 1
        widest = max(widest, int(apart.size.max()))
        shallow += bundle_depth(pipe.prepared, pipe.params) < longest
    assert widest > 1  # so a 1-deep cut would differ
    assert shallow >= 2  # the bundle depth was below the longest list, and still agreed
