"""The dense model's top-M vector candidates: to depth M the ranking, its scores and its
metrics are exactly the all-pairs ones, at any min similarity and with exact ties; the prepared
state is Q·M-sized and the same for any block size.

Run as a script for combine + rank times, pruned against all pairs (a benchmark, not a test):
    .venv/bin/python -m tests.test_dense_candidates [DATA]
"""

from __future__ import annotations

import sys
import time
from dataclasses import fields
from pathlib import Path

import numpy as np
import pytest
from numpy.typing import NDArray

from tests.conftest import SAMPLES
from workbench.core import engine
from workbench.core.data import Dataset
from workbench.core.formats import load_dataset
from workbench.core.models import get_model
from workbench.core.models.dense import DensePrepared, candidates, embed_dataset, top_columns
from workbench.core.params import ParamError
from workbench.core.pipeline import Pipeline
from workbench.core.store import codec

M = 20
METRICS = ("ndcg@10", "ndcg@20", "mrr@20", "p@10", "r@20", "map@20", "judged@10")


@pytest.fixture(scope="module")
def tea() -> Dataset:
    return load_dataset(SAMPLES / "tea-beir")


@pytest.fixture(scope="module")
def vectors(tea: Dataset) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
    """(documents (N, d), queries (Q, d)) of tea-beir from the real default model."""
    model = get_model("dense")
    return embed_dataset(tea, model.schema.resolve(None), engine.NO_PROGRESS)


def _ranked(prep: DensePrepared, depth: int, min_similarity: float = -1.0) -> engine.Ranking:
    model = get_model("dense")
    params = model.schema.resolve({"min_similarity": min_similarity})
    return engine.rank(model.combine(prep, params), depth, model.selection_params(params))


def _assert_same(a: engine.Ranking, b: engine.Ranking) -> None:
    np.testing.assert_array_equal(a.count, b.count)
    np.testing.assert_array_equal(a.docs, b.docs)
    np.testing.assert_array_equal(a.scores, b.scores)  # NaN padding compares equal here


def test_pruned_ranking_equals_all_pairs_at_every_min_similarity(tea: Dataset) -> None:
    model = get_model("dense")
    pruned = Pipeline(model, tea, {"vector_candidates": M})
    every = Pipeline(model, tea, {"vector_candidates": 0})
    above_n = Pipeline(model, tea, {"vector_candidates": 100_000})
    assert pruned.prepared.kept == M
    assert every.prepared.kept == above_n.prepared.kept == len(tea.corpus)
    np.testing.assert_array_equal(every.prepared.docs, above_n.prepared.docs)
    highest = float(every.prepared.sims.max())
    for floor in (-1.0, 0.0, 0.3, highest, 1.0):
        for pipe in (pruned, every, above_n):
            pipe.update({"min_similarity": floor})
        got = pruned.run((), depth=M).ranking
        _assert_same(got, every.run((), depth=M).ranking)
        _assert_same(got, above_n.run((), depth=M).ranking)
        if floor == highest:
            assert got.count.sum() >= 1  # the best pair itself stays
    # deeper than M the pruned ranking simply ends: never a document beyond the candidates
    assert (pruned.run((), depth=50).ranking.count <= M).all()


def test_metrics_to_depth_m_equal_all_pairs(tea: Dataset) -> None:
    model = get_model("dense")
    pruned = Pipeline(model, tea, {"vector_candidates": M}).run(METRICS, depth=M)
    every = Pipeline(model, tea, {"vector_candidates": 0}).run(METRICS, depth=M)
    assert set(pruned.per_query) == set(METRICS)
    for name in METRICS:
        np.testing.assert_allclose(pruned.per_query[name], every.per_query[name],
                                   rtol=0, atol=1e-12, err_msg=name)
        assert pruned.means[name] == pytest.approx(every.means[name], abs=1e-12)


def test_exact_ties_at_the_cut_keep_corpus_order(
        vectors: tuple[NDArray[np.float32], NDArray[np.float32]]) -> None:
    docs, queries = vectors
    n = len(docs)
    # each query's M-th document (all pairs) copied to the front and the back of the corpus:
    # three exactly equal cosines straddle the cut at M, and equal cosines elsewhere too
    base = candidates(queries, docs, 0)
    at_cut = base.docs.reshape(len(queries), n)[:, M - 1]
    dup = np.unique(at_cut)[:5]
    tied_docs = np.concatenate([docs[dup], docs, docs[dup]])
    every = candidates(queries, tied_docs, 0)
    sims = every.sims.reshape(len(queries), -1)
    assert (sims[:, M - 1] == sims[:, M]).any()  # ties across the cut exist
    for m in (M - 1, M, M + 1, 2):
        pruned = candidates(queries, tied_docs, m)
        for floor in (-1.0, 0.0, 0.3, float(sims.max())):
            _assert_same(_ranked(pruned, m, floor), _ranked(every, m, floor))
        # ties in corpus order: among equal cosines, ascending document position
        d = pruned.docs.reshape(len(queries), m)
        s = pruned.sims.reshape(len(queries), m)
        same = s[:, 1:] == s[:, :-1]
        assert (d[:, 1:][same] > d[:, :-1][same]).all()


def test_top_columns_is_a_stable_sort_cut_to_m() -> None:
    rng = np.random.default_rng(3)
    sims = rng.integers(0, 4, (40, 30)).astype(np.float32)  # ties everywhere
    sims[5, 7] = np.nan
    stable = np.argsort(-np.nan_to_num(sims, nan=-np.inf), axis=1, kind="stable")
    for m in range(1, 31):
        np.testing.assert_array_equal(top_columns(sims, m), stable[:, :m], err_msg=str(m))


def test_block_size_does_not_change_the_candidates(
        vectors: tuple[NDArray[np.float32], NDArray[np.float32]]) -> None:
    docs, queries = vectors
    for m in (M, 0):
        one = candidates(queries, docs, m, block=1)
        for other in (candidates(queries, docs, m, block=len(queries)),
                      candidates(queries, docs, m, block=7), candidates(queries, docs, m)):
            for f in ("row_ptr", "docs", "sims"):
                np.testing.assert_array_equal(getattr(one, f), getattr(other, f))
    # the cosine itself, within float32 rounding
    full = candidates(queries, docs, 0)
    want = queries.astype(np.float64) @ docs.T.astype(np.float64)
    got = np.take_along_axis(want, full.docs.reshape(len(queries), -1).astype(np.int64), 1)
    np.testing.assert_allclose(full.sims.reshape(len(queries), -1), got, atol=1e-7)


def test_prepared_state_is_q_by_m(tea: Dataset) -> None:
    q, n = len(tea.queries), len(tea.corpus)
    prep = Pipeline(get_model("dense"), tea, {"vector_candidates": M}).prepared
    assert prep.row_ptr.shape == (q + 1,) and prep.row_ptr.dtype == np.int64
    assert prep.docs.shape == (q * M,) and prep.docs.dtype == np.int32
    assert prep.sims.shape == (q * M,) and prep.sims.dtype == np.float32
    assert prep.docs.nbytes + prep.sims.nbytes == q * M * 8
    np.testing.assert_array_equal(prep.row_ptr, np.arange(q + 1) * M)
    # every pair when asked: Q·N
    assert Pipeline(get_model("dense"), tea, {"vector_candidates": 0}).prepared.sims.size == q * n


def test_prepared_state_round_trips_the_cache(tea: Dataset) -> None:
    model = get_model("dense")
    params = model.schema.resolve({"vector_candidates": M})
    prep = engine.prepare(model, tea, params)
    back = codec.loads(codec.dumps(prep))
    assert isinstance(back, DensePrepared)
    for f in fields(DensePrepared):
        a, b = getattr(prep, f.name), getattr(back, f.name)
        if isinstance(a, np.ndarray):
            assert a.dtype == b.dtype
            np.testing.assert_array_equal(a, b)
        else:
            assert a == b
    # a second prepare reads the cache; another M is another state
    again = engine.prepare(model, tea, params)
    np.testing.assert_array_equal(again.docs, prep.docs)
    other = model.schema.resolve({"vector_candidates": M + 1})
    assert engine.prepare_fingerprint(model, tea, other) != \
        engine.prepare_fingerprint(model, tea, params)
    assert model.version != "1"  # an all-pairs state of version 1 is never read as pruned


def test_explain_names_documents_outside_the_candidates(tea: Dataset) -> None:
    model = get_model("dense")
    pipe = Pipeline(model, tea, {"vector_candidates": M})
    row = pipe.prepared.docs[:M]
    outside = next(d for d in range(len(tea.corpus)) if d not in set(row.tolist()))
    note = model.explain(pipe.prepared, tea, 0, outside, pipe.params)
    assert note == {"candidate": f"outside the top {M} vector candidates of this query "
                                 f"(vector_candidates = {M})"}
    assert model.explain(pipe.prepared, tea, 0, int(row[-1]), pipe.params) == {}
    every = Pipeline(model, tea, {"vector_candidates": 0})
    assert model.explain(every.prepared, tea, 0, outside, every.params) == {}


def test_vector_candidates_is_validated() -> None:
    schema = get_model("dense").schema
    assert schema.resolve(None)["vector_candidates"] == 1000
    assert schema["vector_candidates"].stage == "prepare"
    with pytest.raises(ParamError, match="vector_candidates"):
        schema.resolve({"vector_candidates": -1})


def _bench(data: Path, repeats: int = 15) -> None:
    """Median combine + rank (depth 100, the window's) times, pruned at several M against
    all pairs."""
    ds = load_dataset(data)
    model = get_model("dense")
    print(f"{ds.name}: {len(ds.corpus):,} documents × {len(ds.queries):,} queries")
    for m in (0, 1000, 100, M):
        pipe = Pipeline(model, ds, {"vector_candidates": m})
        times = []
        for i in range(repeats):
            pipe.params["min_similarity"] = (-1.0, 0.05)[i % 2]
            t = time.perf_counter()
            pipe.run((), depth=100)
            times.append(time.perf_counter() - t)
        label = f"M = {m}" + (" (all pairs)" if pipe.prepared.kept == len(ds.corpus) else "")
        print(f"  {label:>20}: {np.median(times) * 1e3:8.2f} ms  "
              f"({pipe.prepared.sims.size:,} pairs)")


if __name__ == "__main__":
    _bench(Path(sys.argv[1]) if len(sys.argv) > 1 else SAMPLES / "tea-beir")
