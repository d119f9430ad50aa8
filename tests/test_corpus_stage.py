"""BM25's documents' side is cached by the corpus alone: a new query (`rank -q`, another
queries file on the same corpus) tokenises no document again, and what it prepares equals a
preparation with no cache at all. A changed document or prepare value builds it again."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from conftest import SAMPLES

from workbench.core import engine
from workbench.core.data import Corpus, Dataset, Document, Query, QuerySet
from workbench.core.formats import load_dataset
from workbench.core.models import get_model
from workbench.core.models.bm25 import BM25Model


def _with_queries(ds: Dataset, *texts: str) -> Dataset:
    return Dataset(ds.name, ds.corpus, QuerySet([Query(f"q{i}", t) for i, t in
                                                 enumerate(texts)]), source=ds.source)


@pytest.fixture
def built(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[int]:
    """How many times BM25 indexed the documents, in a cache folder of this test's own."""
    monkeypatch.setenv("WORKBENCH_CACHE_DIR", str(tmp_path / "cache"))
    count: list[int] = []
    real = BM25Model._index

    def counting(self: BM25Model, *args: object) -> object:
        count.append(1)
        return real(self, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(BM25Model, "_index", counting)
    return count


def _ranked(ds: Dataset, prepared: object, params: dict[str, object]) -> tuple[object, ...]:
    model = get_model("bm25")
    result = engine.rank(model.combine(prepared, model.schema.resolve(params)), 10)
    return (result.docs.tolist(), result.scores.tolist(), result.count.tolist())


def test_a_new_query_reuses_the_documents_index(built: list[int]) -> None:
    model = get_model("bm25")
    ds = load_dataset(SAMPLES / "tea-beir")
    params = model.schema.resolve({})
    engine.prepare(model, _with_queries(ds, "green tea"), params)
    assert len(built) == 1
    other = _with_queries(ds, "oolong oxidation", "brewing temperature for tea")
    cached = engine.prepare(model, other, params)
    assert len(built) == 1, "the documents were indexed again for a new query"
    fresh = engine.prepare(model, other, params, use_cache=False)
    assert len(built) == 2  # no cache at all: indexed, neither read nor written
    assert _ranked(other, cached, {}) == _ranked(other, fresh, {})
    assert _ranked(other, cached, {"k1": 0.4, "b": 0.2}) == \
        _ranked(other, fresh, {"k1": 0.4, "b": 0.2})
    assert np.count_nonzero(cached.post_tf) > 0


def test_a_changed_document_or_prepare_value_indexes_again(built: list[int]) -> None:
    model = get_model("bm25")
    docs = [Document("d1", "Cats", "cats purr"), Document("d2", "Dogs", "dogs bark at cats")]
    queries = QuerySet([Query("q", "cats")])
    params = model.schema.resolve({})
    engine.prepare(model, Dataset("a", Corpus(docs), queries), params)
    changed = [docs[0], Document("d2", "Dogs", "dogs bark at birds")]
    prepared = engine.prepare(model, Dataset("a", Corpus(changed), queries), params)
    assert len(built) == 2
    assert prepared.cand.tolist() == [0]  # d2 no longer holds "cats"
    engine.prepare(model, Dataset("a", Corpus(docs), queries),
                   model.schema.resolve({"stemmer": "none"}))
    assert len(built) == 3


def test_a_corrupt_documents_index_is_built_again(built: list[int], tmp_path: Path) -> None:
    model = get_model("bm25")
    ds = load_dataset(SAMPLES / "tea-beir")
    params = model.schema.resolve({})
    first = engine.prepare(model, _with_queries(ds, "green tea"), params)
    (index,) = (tmp_path / "cache" / "prepared").glob("bm25-corpus-*.state")
    blob = index.read_bytes()
    index.write_bytes(blob[: len(blob) // 2])
    again = engine.prepare(model, _with_queries(ds, "green", "tea"), params)
    assert len(built) == 2  # detected and rebuilt, never trusted
    assert again.n_docs == first.n_docs and index.stat().st_size == len(blob)
