"""bench's dense row is timed against a vector store's brute-force search (DESIGN asks for a
reference on every row): the search must return what the dense model ranks, or the ratio
compares two different answers."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from workbench.bench.references import REFERENCES, dense_per_query, vector_search
from workbench.core.embeddings import embed_texts
from workbench.core.formats import load_dataset
from workbench.core.models import get_model
from workbench.core.models.dense import document_texts
from workbench.core.pipeline import Pipeline

TEA = Path(__file__).resolve().parent.parent / "sample_corpora" / "tea-beir"


def test_the_reference_search_ranks_what_the_dense_model_ranks() -> None:
    ds = load_dataset(TEA)
    pipe = Pipeline(get_model("dense"), ds, {"min_similarity": 0.2})
    ranking = pipe.run(("ndcg@10",), depth=100).ranking
    docs = embed_texts(document_texts(ds), model=str(pipe.params["embedding_model"]))
    queries = embed_texts([q.text for q in ds.queries], model=str(pipe.params["embedding_model"]))
    for qi in range(len(ds.queries)):
        found = vector_search(np.asarray(docs, np.float32), queries[qi], 0.2)
        model_docs = ranking.docs[qi, :ranking.count[qi]]
        assert found.tolist() == model_docs.tolist(), ds.queries[qi].id
    assert sum(int(c) for c in ranking.count) > 0  # the floor leaves something to compare


def test_the_dense_row_has_a_reference() -> None:
    assert REFERENCES["dense"] is dense_per_query
    ds = load_dataset(TEA)
    params = get_model("dense").schema.resolve({})
    ms, note = dense_per_query(ds, params)
    assert ms is not None and ms > 0
    assert note == (f"brute-force vector search per query (numpy, one BLAS thread), "
                    f"all {len(ds.queries)} queries")
