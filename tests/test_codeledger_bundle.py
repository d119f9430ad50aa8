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


def skip_cut(tokens: list[int], scores: list[float], **params: object
             ) -> tuple[int, float, str, list[int], int, list[int]]:
    """`cut`, and the ranks skipped, how deep the bundle read and the files it holds."""
    _, prep, base = widgets(tokens)
    b = bundles(prep, {**base, **params}, *by_hand(scores))  # type: ignore[arg-type]
    return (int(b.size[0]), float(b.tokens[0]), b.stop[0], b.skipped_ranks(0),
            int(b.reach[0]), b.files(0))


def test_skip_limit_skips_a_file_that_does_not_fit() -> None:
    tokens = [9000, 100, 8000, 5000, 200]
    high = [0.9, 0.8, 0.7, 0.6, 0.5]  # all ≥ 0.3: each may overshoot to 8800
    # the document's rule: the first file (9000 > 8800) stops an empty bundle
    assert skip_cut(tokens, high, sufficiency=1.0) == (0, 0.0, "token_budget", [], 0, [])
    # two skips: 9000 skipped, 100 taken, 8100 taken (overshoot), 13,100 skipped, 8,300
    # taken (overshoot), every candidate read
    assert skip_cut(tokens, high, sufficiency=1.0, skip_limit=2) == (
        3, 8300.0, "candidates_exhausted", [0, 3], 5, [1, 2, 4])
    # one skip: the second file that does not fit stops the bundle
    assert skip_cut(tokens, high, sufficiency=1.0, skip_limit=1) == (
        2, 8100.0, "token_budget", [0], 3, [1, 2])
    # a low score may not overshoot: 8100 > 8000 is skipped as well; 5100 and 5300 fit
    assert skip_cut(tokens, [0.9, 0.8, 0.2, 0.1, 0.1], sufficiency=1.0, skip_limit=5) == (
        3, 5300.0, "candidates_exhausted", [0, 2], 5, [1, 3, 4])


def test_skipping_and_the_other_rules() -> None:
    # max_files counts the files taken, not those skipped
    assert skip_cut([9000, 10, 10, 10], [0.5] * 4, sufficiency=1.0, max_files=2,
                    skip_limit=3) == (2, 20.0, "file_limit", [0], 3, [1, 2])
    # once the files taken are sufficient a file that does not fit stops the bundle (the
    # token rule comes before sufficiency): no skip
    assert skip_cut([10, 9000, 10], [0.9, 0.05, 0.05], skip_limit=3) == (
        1, 10.0, "token_budget", [], 1, [0])
    # not yet sufficient (0.5 < 0.85 · 0.7): skipped; then 0.6 ≥ 0.595 stops it before the
    # fourth
    assert skip_cut([10, 9000, 10, 10], [0.5, 0.1, 0.1, -0.2], skip_limit=3) == (
        2, 20.0, "sufficiency", [1], 3, [0, 2])
    # sufficiency needs a file taken: at sufficiency 0 the first file that fits is taken,
    # after the skips before it, and the next stops the bundle
    assert skip_cut([10, 10], [0.5, 0.3], sufficiency=0.0) == (
        1, 10.0, "sufficiency", [], 1, [0])
    assert skip_cut([9000, 9000, 10, 10], [0.5, 0.4, 0.3, 0.2], sufficiency=0.0,
                    skip_limit=2) == (1, 10.0, "sufficiency", [0, 1], 3, [2])
    # the bundle reads max_files + skip_limit + 1 deep
    _, prep, base = widgets([100] * 40)
    assert bundle_depth(prep, {**base, "max_files": 5, "skip_limit": 3}) == 9
    assert bundle_depth(prep, {**base, "max_files": 30, "skip_limit": 20}) == 40


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


def _by_loop(prep: object, params: dict[str, object], scores: Scores
             ) -> list[tuple[list[int], list[int], str]]:
    """Every task's bundle by a plain loop over its ranked candidates: (files taken, ranks
    skipped, stop reason)."""
    b, limit = budget(params)  # type: ignore[arg-type]
    room = b * (1 + float(params["overshoot"]))  # type: ignore[arg-type]
    out = []
    for q in range(len(scores.row_ptr) - 1):
        lo, hi = int(scores.row_ptr[q]), int(scores.row_ptr[q + 1])
        pairs = [p for p in range(lo, hi) if scores.gate[p] == 0]
        pairs.sort(key=lambda p: (-scores.total[p], int(scores.docs[p])))
        mass = sum(max(float(scores.total[p]), 0.0) for p in pairs)
        taken: list[int] = []
        skipped: list[int] = []
        spent = held = 0.0
        stop = "candidates_exhausted"
        for r, p in enumerate(pairs):
            c, s = float(prep.cost[p]), float(scores.total[p])  # type: ignore[attr-defined]
            sufficient = bool(taken) and mass > 0 and held >= float(
                params["sufficiency"]) * mass - 1e-12  # type: ignore[arg-type]
            if len(taken) >= limit:
                stop = "file_limit"
                break
            if not (spent + c <= b or (spent + c <= room and s >= float(
                    params["overshoot_min_score"]))):  # type: ignore[arg-type]
                if len(skipped) < int(params["skip_limit"]) and not sufficient:  # type: ignore
                    skipped.append(r)
                    continue
                stop = "token_budget"
                break
            if sufficient:
                stop = "sufficiency"
                break
            taken.append(int(scores.docs[p]))
            spent += c
            held += max(s, 0.0)
        out.append((taken, skipped, stop))
    return out


@pytest.mark.parametrize("skip", [0, 1, 5])
def test_bundles_equal_a_plain_loop_on_the_sample(skip: int) -> None:
    """The vectorised rule against a loop per task, on every task of the sample repository,
    at budgets from one that skips most files to the default, two file limits, with and
    without sufficiency."""
    from tests.conftest import SAMPLES
    from workbench.core.formats import load_dataset
    from workbench.core.models.codeledger import CodeLedgerModel as Fitted
    from workbench.core.models.codeledger.explain import full_bundles

    pipe = Pipeline(Fitted(), load_dataset(SAMPLES / "code-repo"), {})
    skipped_any = 0
    for tokens in (100, 300, 1000, 8000):
        for files in (3, 25):
            for suff in (0.6, 1.0):
                params = {**pipe.params, "budget_preset": "custom", "token_budget": tokens,
                          "max_files": files, "sufficiency": suff, "skip_limit": skip}
                scores, bund = full_bundles(pipe.prepared, params)
                for q, (taken, skipped, stop) in enumerate(
                        _by_loop(pipe.prepared, params, scores)):
                    got = bund.files(q)
                    # at each rank the file taken there, else -1
                    assert [int(d) for d in bund.docs[q] if d >= 0] == got
                    assert int(bund.size[q]) == len(got)
                    assert (got, bund.skipped_ranks(q), bund.stop[q]) == (
                        taken, skipped, stop), (tokens, files, suff, q)
                    # every rank read was taken or skipped
                    assert int(bund.reach[q]) == len(taken) + len(skipped)
                    skipped_any += bool(skipped)
    assert (skipped_any > 0) == (skip > 0)



def test_tokens_per_line_rates_follow_through_to_the_cost() -> None:
    from tests.test_codeledger_fixtures import make_dataset
    from workbench.core.models.codeledger import CodeLedgerModel

    files = {  # as the repository index writes them: the estimate at REFERENCE §2's rates
        "src/retry.py": dict(language="python", lines=100, tokens=320, keywords=["retry"]),
        "docs/retry.md": dict(language="markdown", lines=10, tokens=40, keywords=["retry"]),
        "src/stated.py": dict(language="python", lines=10, tokens=77, keywords=["retry"]),
    }
    model = CodeLedgerModel()
    ds = make_dataset({"q": "retry"}, files=files)

    def costs(**overrides: object) -> dict[str, float]:
        prep = model.prepare(ds, model.schema.resolve(overrides))
        row = slice(int(prep.row_ptr[0]), int(prep.row_ptr[1]))
        return {prep.files.paths[int(d)]: float(c)
                for d, c in zip(prep.docs[row], prep.cost[row], strict=True)}

    assert costs() == {"src/retry.py": 320, "docs/retry.md": 40, "src/stated.py": 77}
    assert costs(tokens_per_line_python=6.4, tokens_per_line_other=2.0) == {
        "src/retry.py": 640,  # 100 lines · 6.4
        "docs/retry.md": 20,  # Markdown is "other": 10 · 2.0
        "src/stated.py": 77}  # a count the corpus states (not 10 · 3.2 = 32) is kept
