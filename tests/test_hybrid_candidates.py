"""The hybrid model's scored pairs (`hybrid.candidates`) and the per-tick layout: every ranking
to a depth ≤ vector_candidates, its scores and its metrics equal the all-pairs ones, at every
slider position (alpha and W at their extremes, the threshold at its lowest, every
normalisation) and with exact ties; data with the forgetting curve are pruned too
(`test_hybrid_curve_bound`).

Real embeddings (the default model) of the tea-beir sample, with some documents copied so that
exact ties in cosine and in BM25 straddle the cut.
"""

from __future__ import annotations

import itertools
from dataclasses import replace

import numpy as np
import pytest

from tests.conftest import SAMPLES
from workbench.core import engine
from workbench.core.data import Corpus, Dataset
from workbench.core.formats import load_dataset
from workbench.core.models import get_model
from workbench.core.models.hybrid.prepared import HybridPrepared
from workbench.core.pipeline import Pipeline

M = 12
METRICS = ("ndcg@10", "mrr@10", "p@10", "r@12", "map@12", "judged@10")


@pytest.fixture(scope="module")
def tea() -> Dataset:
    """tea-beir with its first 8 documents copied again at the end: equal texts, so equal
    cosines and equal BM25 scores, in two places of the corpus."""
    data = load_dataset(SAMPLES / "tea-beir")
    docs = list(data.corpus)
    copies = [replace(d, id=f"{d.id}-copy") for d in docs[:8]]
    return replace(data, corpus=Corpus(docs + copies, name=data.corpus.name))


@pytest.fixture(scope="module")
def pipes(tea: Dataset) -> tuple[Pipeline, Pipeline]:
    model = get_model("hybrid")
    return (Pipeline(model, tea, {"vector_candidates": M}),
            Pipeline(model, tea, {"vector_candidates": 0}))


POSITIONS = [
    {},  # OpenVault's defaults
    {"alpha": 0.0}, {"alpha": 1.0}, {"combined_boost_weight": 0.0},
    {"alpha": 1.0, "no_vector_threshold": True},
    {"no_vector_threshold": True}, {"vector_threshold": 0.05}, {"vector_threshold": 0.95},
    {"alpha": 0.3, "k1": 0.0, "b": 1.0}, {"entity_boost_weight": 0.0, "k1": 3.0},
]
NORMALISATIONS = [{"normalization": m} for m in ("batch-max", "min-max", "z-score", "rrf")]


def _ranking(pipe: Pipeline, position: dict[str, object], depth: int) -> engine.Ranking:
    pipe.update({**pipe.model.schema.resolve(None), "vector_candidates":
                 pipe.params["vector_candidates"], **position})
    return pipe.run((), depth=depth).ranking


def _same(a: engine.Ranking, b: engine.Ranking, where: str) -> None:
    np.testing.assert_array_equal(a.count, b.count, err_msg=where)
    np.testing.assert_array_equal(a.docs, b.docs, err_msg=where)
    np.testing.assert_array_equal(a.scores, b.scores, err_msg=where)


def test_the_corpus_is_pruned(pipes: tuple[Pipeline, Pipeline], tea: Dataset) -> None:
    pruned, every = (p.prepared for p in pipes)
    assert isinstance(pruned, HybridPrepared)
    n, q = len(tea.corpus), len(tea.queries)
    assert every.pairs.every and every.pairs.n_pairs == q * n
    assert not pruned.pairs.every and pruned.pairs.kept == M
    assert pruned.pairs.n_pairs < every.pairs.n_pairs
    # each query's pairs are in memory order and hold all its BM25 matches
    for query in range(q):
        row = pruned.pairs.doc[pruned.pairs.ptr[query]:pruned.pairs.ptr[query + 1]]
        assert (np.diff(row) > 0).all()
        ix = pruned.index
        matched = ix.cand_flat[ix.cand_ptr[query]:ix.cand_ptr[query + 1]] - query * n
        assert np.isin(matched, row).all()
        assert (row[:M] == np.arange(M)).all()  # the first M memories, for the tail


@pytest.mark.parametrize("norm", NORMALISATIONS, ids=lambda p: str(p["normalization"]))
def test_rankings_to_depth_m_equal_all_pairs(pipes: tuple[Pipeline, Pipeline],
                                             norm: dict[str, object]) -> None:
    pruned, every = pipes
    for position, depth in itertools.product(POSITIONS, (M, 5, 1)):
        where = f"{norm} {position} depth {depth}"
        want = _ranking(every, {**position, **norm}, depth)
        _same(_ranking(pruned, {**position, **norm}, depth), want, where)
        # combine without a depth: exact to M
        scores = pruned.model.combine(pruned.prepared, pruned.params)
        _same(engine.rank(scores, depth), want, where + " (combine)")


def test_ties_straddle_the_cut(pipes: tuple[Pipeline, Pipeline]) -> None:
    """The copies tie with their originals; some of those ties fall across position M in the
    all-pairs ranking at some position, where corpus order decides."""
    _, every = pipes
    crossing = 0
    for position in POSITIONS:
        r = _ranking(every, position, M + 1)
        crossing += int((r.scores[:, M - 1] == r.scores[:, M]).sum())
    assert crossing > 0


def test_metrics_to_depth_m_equal_all_pairs(pipes: tuple[Pipeline, Pipeline]) -> None:
    pruned, every = pipes
    for position in (POSITIONS[0], POSITIONS[4], {"normalization": "rrf"}):
        for pipe in pipes:
            pipe.update({**pipe.model.schema.resolve(None), "vector_candidates":
                         pipe.params["vector_candidates"], **position})
        a, b = pruned.run(METRICS), every.run(METRICS)
        for name in METRICS:
            np.testing.assert_array_equal(a.per_query[name], b.per_query[name], err_msg=name)


def test_a_tick_scores_few_pairs_where_the_layout_allows(pipes: tuple[Pipeline, Pipeline]
                                                         ) -> None:
    pruned, _ = pipes
    pairs = pruned.prepared.pairs
    params = pruned.model.schema.resolve({"vector_candidates": M})
    full = pruned.model.combine(pruned.prepared, params)
    shallow = pruned.model.combine_to_depth(pruned.prepared, params, 3)
    assert shallow.n_pairs < full.n_pairs <= pairs.n_pairs
    # a query where a memory beyond its vector candidates passes the threshold keeps all its
    # pairs (tea texts are alike: at the default threshold some queries have more than M)
    over = np.flatnonzero(pairs.cos_next > 0.5)
    assert 0 < len(over) < len(pairs.cos_next)
    for q in over:
        assert shallow.row_ptr[q + 1] - shallow.row_ptr[q] == pairs.ptr[q + 1] - pairs.ptr[q]
    # z-score's vector factor can be negative: every scored pair then
    z = pruned.model.schema.resolve({"vector_candidates": M, "normalization": "z-score"})
    assert pruned.model.combine_to_depth(pruned.prepared, z, 3).n_pairs == \
        pruned.prepared.pairs.n_pairs


def test_contributions_and_explain_follow_the_layout(pipes: tuple[Pipeline, Pipeline],
                                                     tea: Dataset) -> None:
    pruned, every = pipes
    for pipe in pipes:
        pipe.update({**pipe.model.schema.resolve(None), "vector_candidates":
                     pipe.params["vector_candidates"]})
    a, b = pruned.run((), depth=5), every.run((), depth=5)
    np.testing.assert_array_equal(engine.contributions_at(a.scores, a.ranking),
                                  engine.contributions_at(b.scores, b.ranking))
    model = pruned.model
    q = 0
    doc = int(a.ranking.docs[q, 0])
    one = model.explain(pruned.prepared, tea, q, doc, pruned.params)
    two = model.explain(every.prepared, tea, q, doc, every.params)
    assert one == two and one["total"] == a.ranking.scores[q, 0]
    # a memory that is not scored says so
    row = pruned.prepared.pairs.doc[pruned.prepared.pairs.ptr[q]:pruned.prepared.pairs.ptr[q + 1]]
    outside = sorted(set(range(len(tea.corpus))) - set(row.tolist()))
    assert outside, "the test corpus should leave some memory unscored"
    said = model.explain(pruned.prepared, tea, q, outside[0], pruned.params)
    assert "not scored" in said["candidate"] and "vector_candidates = 12" in said["candidate"]


def test_memories_with_a_forgetting_curve_are_pruned_and_bounded() -> None:
    """The story sample's memories (the curve applies): fewer pairs than every pair, what
    bounds the rest kept, and the ranking to depth 1 the all-pairs one (test_hybrid_curve_bound
    checks every slider position on made data)."""
    data = load_dataset(SAMPLES / "story")
    model = get_model("hybrid")
    # stored embeddings (this sample has none): the pairs, not the vectors, are under test
    pipe = Pipeline(model, data, {"vector_candidates": 1, "embeddings": "stored"})
    every = Pipeline(model, data, {"vector_candidates": 0, "embeddings": "stored"})
    prep = pipe.prepared
    assert prep.curve and not prep.pairs.every and prep.pairs.bound is not None
    assert prep.pairs.n_pairs < len(data.corpus) * len(data.queries)
    a, b = pipe.run((), depth=1).ranking, every.run((), depth=1).ranking
    np.testing.assert_array_equal(a.docs, b.docs)
    np.testing.assert_array_equal(a.scores, b.scores)


def test_a_document_the_tick_left_out_still_has_its_scores(pipes: tuple[Pipeline, Pipeline]
                                                           ) -> None:
    """The movers and the compare view look documents up in a tick's scores: one outside the
    tick's layout (scored, but not reaching depth 3) gets its real total and contributions."""
    from workbench.core.compare import doc_contributions, pair_of

    pruned, every = pipes
    for pipe in pipes:
        pipe.update({**pipe.model.schema.resolve(None), "vector_candidates":
                     pipe.params["vector_candidates"]})
    shallow = pruned.model.combine_to_depth(pruned.prepared, pruned.params, 3)
    full = every.model.combine(every.prepared, every.params)
    pairs = pruned.prepared.pairs
    checked = 0
    for q in range(len(pairs.ptr) - 1):
        for d in pairs.doc[pairs.ptr[q]:pairs.ptr[q + 1]].tolist():
            if pair_of(shallow, q, d) < 0:
                got, want = doc_contributions(shallow, q, d), doc_contributions(full, q, d)
                assert got[0] == want[0]
                np.testing.assert_array_equal(got[1], want[1])
                checked += 1
    assert checked > 0
