"""The hybrid model's normalisations (see `hybrid.normalize`) and stored embeddings, on data
small enough to work every value out by hand: the comments show the arithmetic."""

from __future__ import annotations

import math

import numpy as np
import pytest
from numpy.typing import NDArray

from workbench.core.data import Corpus, Dataset, Document, Query, QuerySet
from workbench.core.models import get_model
from workbench.core.pipeline import Pipeline


def test_stored_embeddings() -> None:
    docs = [Document(id="a", text="x", metadata={"embedding": [1.0, 0.0]}),
            Document(id="b", text="y", metadata={"embedding": [0.6, 0.8]}),
            Document(id="c", text="z", metadata={"embedding": [1.0, 0.0, 0.0]}),  # other dim
            Document(id="d", text="w")]                                          # none
    queries = [Query("q", "x", {"embedding": [1.0, 0.0]}), Query("r", "x")]      # r: none
    ds = Dataset("stored", Corpus(docs), QuerySet(queries))
    pipe = Pipeline(get_model("hybrid"), ds, {"embeddings": "stored"})
    contrib = pipe.model.combine(pipe.prepared, pipe.params).contributions
    # query q: a → sim 1: 0.7·15·(1 − 0.5)/0.5 = 10.5; b → 0.6: 10.5·0.1/0.5 = 2.1; c, d → 0
    assert contrib[1, :4] == pytest.approx([10.5, 2.1, 0.0, 0.0], rel=1e-12)
    assert (contrib[1, 4:] == 0).all()  # query r has no embedding
    assert pipe.model.explain(pipe.prepared, ds, 0, 3, pipe.params)["has_embeddings"] is False


def tiny_dataset() -> Dataset:
    docs = [Document(id="a", text="dragon", metadata={"embedding": [1.0, 0.0]}),
            Document(id="b", text="dragon dragon", metadata={"embedding": [0.6, 0.8]}),
            Document(id="c", text="castle", metadata={"embedding": [0.0, 1.0]})]
    return Dataset("tiny", Corpus(docs),
                   QuerySet([Query("q", "dragon", {"embedding": [1.0, 0.0]})]))


# BM25 over the 3 documents: df(dragon) = 2 of 3, idf = ln(1.6); avgdl = 4/3;
# a: tf 1, dl 1: 2.2/(1 + 1.2·(0.25 + 0.75·0.75)) = 2.2/1.975
# b: tf 2, dl 2: 4.4/(2 + 1.2·(0.25 + 0.75·1.5)) = 4.4/3.65;  c: 0
RAW = np.array([2.2 / 1.975, 4.4 / 3.65, 0.0]) * math.log(1.6)
SIMS = np.array([1.0, 0.6, 0.0])  # cosine with the query [1, 0]


def _z(x: NDArray[np.float64]) -> NDArray[np.float64]:
    out: NDArray[np.float64] = (x - x.mean()) / x.std()
    return out


# (mode, vector factor v, BM25 factor g); threshold 0.05, so c's similarity 0 is gated
NORMALISED = [
    ("batch-max", (SIMS - 0.05) / 0.95 * (SIMS > 0.05), RAW / RAW.max()),
    ("min-max", SIMS * (SIMS > 0.05), RAW / RAW.max()),       # lo = 0 (c), hi = 1 / raw b
    ("z-score", _z(SIMS) * (SIMS > 0.05), _z(RAW)),           # population σ
    ("rrf", np.array([1.0, 61 / 62, 0.0]), np.array([61 / 62, 1.0, 0.0])),  # (k+1)/(k+rank)
]


@pytest.mark.parametrize(("mode", "v", "g"), NORMALISED, ids=[m for m, _, _ in NORMALISED])
def test_normalisations(mode: str, v: NDArray[np.float64], g: NDArray[np.float64]) -> None:
    pipe = Pipeline(get_model("hybrid"), tiny_dataset(),
                    {"embeddings": "stored", "normalization": mode, "alpha": 0.5,
                     "combined_boost_weight": 10.0, "vector_threshold": 0.05})
    contrib = pipe.model.combine(pipe.prepared, pipe.params).contributions
    # alpha·W = 5 for the vector part, (1 − alpha)·W = 5 for BM25; no forgetting curve
    assert contrib[0] == pytest.approx([0.0, 0.0, 0.0])
    assert contrib[1] == pytest.approx(5 * v, rel=1e-12, abs=1e-12)
    assert contrib[2] == pytest.approx(5 * g, rel=1e-12, abs=1e-12)
