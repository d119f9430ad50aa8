"""Memories with the forgetting curve no longer keep every pair (`hybrid.curve_bound`): every
ranking to a depth ≤ vector_candidates equals the all-pairs one at every slider position —
forgetting rate 0 (every memory of an importance ties), the importance-5 floor from 0 to above
5, the threshold at its lowest, alpha and W at their extremes, every normalisation — with the
queries the bound does not settle scored against every memory for that tick.

The data are made here (seeded): OpenVault memories with stored embeddings, importance 1–5,
message ids spread over a long chat, some memories without ids (an infinite distance) and some
documents that are not memories; queries with chats of many lengths and some without a chat;
copied memories so that exact ties in every part straddle the cut.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from workbench.core import engine
from workbench.core.data import Corpus, Dataset, Document, Query, QuerySet
from workbench.core.models import get_model
from workbench.core.models.hybrid import curve_bound
from workbench.core.models.hybrid.combine import Blend, LiveCache
from workbench.core.models.hybrid.prepared import HybridPrepared
from workbench.core.pipeline import Pipeline

M = 6
WORDS = [f"w{i}" for i in range(40)]


def memories(seed: int = 5, n: int = 260, n_queries: int = 40) -> Dataset:
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(6, 8))
    docs = []
    for i in range(n):
        vec = centres[i % 6] + 0.6 * rng.normal(size=8)
        meta: dict[str, object] = {"embedding": np.round(vec, 3).tolist()}
        if i % 17 != 3:  # an OpenVault memory (the rest: plain documents, no curve)
            meta["importance"] = int(rng.integers(1, 6))
            if i % 23 == 5:
                meta["message_ids"] = []  # Math.max() of nothing: an infinite distance
            else:
                meta["message_ids"] = sorted(rng.choice(4000, size=2, replace=False).tolist())
        if i % 29 == 7:
            del meta["embedding"]  # no vector: no vector bonus
        text = " ".join(rng.choice(WORDS, size=int(rng.integers(3, 9))))
        docs.append(Document(id=f"m{i:03d}", text=text, metadata=meta))
    docs += [Document(id=f"{d.id}-copy", text=d.text, metadata=dict(d.metadata))
             for d in docs[:12]]  # equal in everything but position
    queries = []
    for qi in range(n_queries):
        vec = centres[qi % 6] + 0.5 * rng.normal(size=8)
        context: dict[str, object] = {"embedding": np.round(vec, 3).tolist()}
        if qi % 5:  # a chat of this many messages (the rest: no chat)
            context["chat_length"] = int(rng.choice([0, 40, 900, 2500, 4000, 9000]))
        queries.append(Query(id=f"q{qi}", text=" ".join(rng.choice(WORDS, size=3)),
                             context=context))
    qrels = {q.id: {docs[int(j)].id: 1 for j in rng.choice(len(docs), 4, replace=False)}
             for q in queries}
    return Dataset("curve-memories", Corpus(docs), QuerySet(queries), qrels)


@pytest.fixture(scope="module")
def data() -> Dataset:
    return memories()


@pytest.fixture(scope="module")
def pipes(data: Dataset) -> tuple[Pipeline, Pipeline]:
    model = get_model("hybrid")
    common = {"embeddings": "stored", "min_token_length": 2}
    return (Pipeline(model, data, {**common, "vector_candidates": M}, use_cache=False),
            Pipeline(model, data, {**common, "vector_candidates": 0}, use_cache=False))


CURVES = [{}, {"base_lambda": 0.0}, {"base_lambda": 0.005}, {"base_lambda": 1.0},
          {"importance5_floor": 0.0}, {"importance5_floor": 2.5},
          {"importance5_floor": 10.0, "base_lambda": 0.2}]
BLENDS = [{}, {"alpha": 0.0}, {"alpha": 1.0}, {"combined_boost_weight": 0.0},
          {"no_vector_threshold": True}, {"vector_threshold": 0.95},
          {"alpha": 1.0, "no_vector_threshold": True}]
MODES = ["batch-max", "min-max", "z-score", "rrf"]


def _ranking(pipe: Pipeline, position: dict[str, object], depth: int) -> engine.Ranking:
    keep = {k: pipe.params[k] for k in ("vector_candidates", "embeddings", "min_token_length")}
    pipe.update({**pipe.model.schema.resolve(None), **keep, **position})
    return pipe.run((), depth=depth).ranking


def test_the_pairs_are_pruned_and_bounded(pipes: tuple[Pipeline, Pipeline],
                                          data: Dataset) -> None:
    pruned, every = (p.prepared for p in pipes)
    assert isinstance(pruned, HybridPrepared) and pruned.curve
    q, n = len(data.queries), len(data.corpus)
    assert every.pairs.every and every.pairs.n_pairs == q * n
    bound = pruned.pairs.bound
    assert bound is not None and pruned.rows is not None
    assert pruned.pairs.n_pairs < 0.6 * q * n
    # 5 importances for queries with a chat, 5 and the plain documents for the others
    assert sorted(np.unique(bound.imp[~np.isnan(bound.imp)]).tolist()) == [1, 2, 3, 4, 5]
    assert np.isnan(bound.imp).sum() == 1 and (bound.first < n).any()
    # the similarities computed again for one query are the prepared ones
    row = pruned.rows.rows(np.array([3]))[0]
    pr = pruned.pairs
    got = pr.sim[pr.ptr[3]:pr.ptr[4]]
    np.testing.assert_array_equal(row[pr.doc[pr.ptr[3]:pr.ptr[4]]], got)


@pytest.mark.parametrize("mode", MODES)
def test_rankings_to_depth_m_equal_all_pairs(pipes: tuple[Pipeline, Pipeline],
                                             mode: str) -> None:
    pruned, every = pipes
    for curve, blend in itertools.product(CURVES, BLENDS):
        position = {**curve, **blend, "normalization": mode}
        for depth in (1, 4, M):
            a, b = _ranking(pruned, position, depth), _ranking(every, position, depth)
            where = f"{position} depth {depth}"
            np.testing.assert_array_equal(a.docs, b.docs, err_msg=where)
            np.testing.assert_array_equal(a.scores, b.scores, err_msg=where)


def test_the_bound_settles_the_queries_at_the_defaults(data: Dataset) -> None:
    """With room (40 vector candidates, a ranking 10 deep) no query needs every memory at
    OpenVault's defaults; with the curve flat (λ 0), no threshold and alpha 1 one does, and
    is scored whole: the tick's pairs grow by that row, its ranking still the all-pairs one."""
    model = get_model("hybrid")
    common = {"embeddings": "stored", "min_token_length": 2}
    roomy = Pipeline(model, data, {**common, "vector_candidates": 40}, use_cache=False)
    every = Pipeline(model, data, {**common, "vector_candidates": 0}, use_cache=False)
    prep = roomy.prepared
    assert prep.pairs.n_pairs < prep.n_queries * prep.n_docs
    # every query settled: a tick hands on each query's 10 ranked pairs alone
    scores = model.combine_to_depth(prep, roomy.params, 10)
    assert (np.diff(scores.row_ptr) == 10).all()
    flat = {"base_lambda": 0.0, "no_vector_threshold": True, "alpha": 1.0}
    for pipe in (roomy, every):
        _ranking(pipe, flat, 10)
    blend = Blend(prep, roomy.params, LiveCache())
    whole, _ = curve_bound.unbounded(blend, _stored_scores(blend, model.signal_names), 10)
    assert 0 < len(whole) < prep.n_queries
    grown = model.combine_to_depth(prep, roomy.params, 10)
    rows = np.diff(prep.pairs.ptr)
    assert grown.n_pairs == prep.pairs.n_pairs + int((prep.n_docs - rows[whole]).sum())
    assert (np.diff(grown.row_ptr)[whole] == prep.n_docs).all()
    a, b = _ranking(roomy, flat, 10), _ranking(every, flat, 10)
    np.testing.assert_array_equal(a.docs, b.docs)
    np.testing.assert_array_equal(a.scores, b.scores)


def _stored_scores(blend: Blend, signals: tuple[str, ...]) -> engine.Scores:
    pr = blend.pairs
    return engine.Scores(row_ptr=pr.ptr, docs=pr.doc, total=blend.total(),
                         gate=np.zeros(pr.n_pairs, np.int8), signals=signals,
                         parts=blend.parts)


def test_explain_and_contributions_of_a_memory_left_out(pipes: tuple[Pipeline, Pipeline],
                                                        data: Dataset) -> None:
    """A memory the prepared pairs leave out still has its exact score: explain gives its
    breakdown, and the tick's scores know it (`Scores.elsewhere`)."""
    from workbench.core.compare import doc_contributions

    pruned, every = pipes
    for pipe in pipes:
        _ranking(pipe, {"base_lambda": 0.02}, M)
    pr = pruned.prepared.pairs
    q = 1
    row = set(pr.doc[pr.ptr[q]:pr.ptr[q + 1]].tolist())
    outside = [d for d in range(len(data.corpus)) if d not in row][:5]
    assert outside
    shallow = pruned.model.combine_to_depth(pruned.prepared, pruned.params, M)
    full = every.model.combine(every.prepared, every.params)
    for d in outside:
        got, want = doc_contributions(shallow, q, d), doc_contributions(full, q, d)
        assert got[0] == want[0]
        np.testing.assert_array_equal(got[1], want[1])
        said = pruned.model.explain(pruned.prepared, data, q, d, pruned.params)
        told = every.model.explain(every.prepared, data, q, d, every.params)
        assert said["total"] == told["total"] and said["distance"] == told["distance"]


@pytest.mark.parametrize("mode", MODES)
def test_the_total_over_every_pair_is_the_pairwise_sum_bit_for_bit(
        pipes: tuple[Pipeline, Pipeline], mode: str) -> None:
    # `Blend.total()` adds base and the BM25 bonus over every pair and the vector bonus only
    # where v is not +0.0; `total(at)` adds base + alpha·W·v + (1 − alpha)·W·g pair by pair
    pipe = pipes[0]
    prep = pipe.prepared
    at = np.arange(prep.pairs.n_pairs, dtype=np.int64)
    for curve, blend in itertools.product(CURVES, BLENDS):
        params = pipe.model.schema.resolve({**curve, **blend, "normalization": mode})
        whole, pairwise = (Blend(prep, params, LiveCache()).total(x) for x in (None, at))
        np.testing.assert_array_equal(whole.view(np.int64), pairwise.view(np.int64),
                                      err_msg=f"{curve} {blend}")


def test_a_negative_importance_decayed_to_nothing_is_a_zero_base() -> None:
    ds = memories(seed=11, n=60, n_queries=6)
    docs = list(ds.corpus)
    docs[0] = Document(id=docs[0].id, text=docs[0].text,
                       metadata={**docs[0].metadata, "importance": -2, "message_ids": [0, 1]})
    ds = Dataset(ds.name, Corpus(docs), ds.queries, ds.qrels)
    pipe = Pipeline(get_model("hybrid"), ds, {"embeddings": "stored", "base_lambda": 1.0,
                                              "vector_candidates": 3}, use_cache=False)
    blend = Blend(pipe.prepared, pipe.params, LiveCache())
    base = blend.base()
    assert base is not None and not np.signbit(base[base == 0]).any()
    at = np.arange(pipe.prepared.pairs.n_pairs, dtype=np.int64)
    np.testing.assert_array_equal(blend.total().view(np.int64), blend.total(at).view(np.int64))


def test_a_ticks_scores_stay_as_they_were_after_the_next_tick(
        pipes: tuple[Pipeline, Pipeline]) -> None:
    # the totals of every pair may sit in a reused buffer within a tick; what a tick returns
    # must not: the window keeps the last result (and a baseline) while the next one runs
    pipe = pipes[0]
    pipe.update({**pipe.model.schema.resolve(None), "embeddings": "stored",
                 "min_token_length": 2, "vector_candidates": M,
                 "vector_threshold": 0.95})  # the bound settles every query: no whole query
    first = pipe.run(("ndcg@10",), depth=M)  # the live path: its ranked pairs only
    whole = pipe.model.combine(pipe.prepared, pipe.params)  # every pair, all returned
    kept = first.scores.total.copy(), first.ranking.scores.copy(), whole.total.copy()
    for alpha in (0.1, 0.9):
        pipe.update({"alpha": alpha})
        pipe.run(("ndcg@10",), depth=M)
        pipe.model.combine(pipe.prepared, pipe.params)
    np.testing.assert_array_equal(first.scores.total, kept[0])
    np.testing.assert_array_equal(first.ranking.scores, kept[1])
    np.testing.assert_array_equal(whole.total, kept[2])
