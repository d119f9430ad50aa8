"""The dataset fingerprint (what keys cached preparation): stored vectors hashed as their
float64 bytes, so a changed element still changes it while records without one hash as they
always have (their cached states stay valid)."""

from __future__ import annotations

import hashlib
import json

from workbench.core.data import Corpus, Dataset, Document, Query, QuerySet


def _ds(vectors: list[list[float] | None], query_vector: list[float] | None = None) -> Dataset:
    docs = [Document(f"d{i}", f"text {i}", metadata={} if v is None else {"embedding": v})
            for i, v in enumerate(vectors)]
    ctx = {} if query_vector is None else {"embedding": query_vector}
    return Dataset("x", Corpus(docs), QuerySet([Query("q", "text", ctx)]))


def test_a_changed_vector_element_changes_the_fingerprint() -> None:
    base = _ds([[0.1, 0.2, 0.3], [0.4, 0.5, 0.6]], [1.0, 0.0, 0.0])
    assert base.fingerprint() == _ds([[0.1, 0.2, 0.3], [0.4, 0.5, 0.6]],
                                     [1.0, 0.0, 0.0]).fingerprint()
    assert base.fingerprint() != _ds([[0.1, 0.2, 0.3], [0.4, 0.5, 0.6000001]],
                                     [1.0, 0.0, 0.0]).fingerprint()
    assert base.fingerprint() != _ds([[0.1, 0.2, 0.3], [0.4, 0.5, 0.6]],
                                     [0.0, 1.0, 0.0]).fingerprint()
    assert base.fingerprint() != _ds([[0.1, 0.2, 0.3], [0.4, 0.5]],
                                     [1.0, 0.0, 0.0]).fingerprint()


def test_records_without_a_vector_hash_as_before() -> None:
    ds = _ds([None, None])
    h = hashlib.sha256()  # the JSON form every earlier cached state was keyed by
    for d in ds.corpus:
        h.update(json.dumps((d.id, d.title, d.text, d.tags, dict(d.metadata)), sort_keys=True,
                            default=str, ensure_ascii=False).encode() + b"\x1e")
    h.update(b"\x00queries\x00")
    for q in ds.queries:
        h.update(json.dumps((q.id, q.text, dict(q.context)), sort_keys=True, default=str,
                            ensure_ascii=False).encode() + b"\x1e")
    assert ds.fingerprint() == h.hexdigest()
    # a non-numeric "embedding" is no vector: hashed as JSON too
    text = Dataset("x", Corpus([Document("d", "t", metadata={"embedding": ["a", "b"]})]),
                   QuerySet([]))
    assert text.fingerprint() != Dataset("x", Corpus([Document("d", "t", metadata={
        "embedding": ["a", "c"]})]), QuerySet([])).fingerprint()


def test_a_vector_read_as_an_array_hashes_as_the_same_list() -> None:
    """OpenVault's readers keep a stored embedding as float64, not a list of Python floats
    (4× the memory): cached states keyed by the list's fingerprint stay valid."""
    from dataclasses import replace

    import numpy as np

    as_list = _ds([[0.1, 0.2, 0.3], [0.4, 0.5, 0.6]], [1.0, 0.0, 0.0])
    docs = [replace(d, metadata={"embedding": np.asarray(d.metadata["embedding"])})
            for d in as_list.corpus]
    as_array = Dataset("x", Corpus(docs), QuerySet([Query("q", "text", {
        "embedding": np.asarray([1.0, 0.0, 0.0])})]))
    assert as_array.fingerprint() == as_list.fingerprint()
    assert as_array.corpus_fingerprint() == as_list.corpus_fingerprint()
