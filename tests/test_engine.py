"""Engine: stable vectorised top-k, selection, contributions lookup, the prepare cache."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.core import engine
from workbench.core.data import Corpus, Dataset, Document, Query, QuerySet
from workbench.core.engine import Cancelled, Progress, Scores, Selection
from workbench.core.models import get_model


def _scores(total: np.ndarray, docs: np.ndarray | None = None,
            gate: np.ndarray | None = None) -> Scores:
    """Scores from (Q, C) tables; docs −1 marks a cell that is not a candidate."""
    q, c = total.shape
    docs = np.tile(np.arange(c, dtype=np.int32), (q, 1)) if docs is None else docs
    gate = np.zeros((q, c), np.int8) if gate is None else gate
    keep = docs >= 0
    row_ptr = np.zeros(q + 1, np.int64)
    np.cumsum(keep.sum(axis=1), out=row_ptr[1:])
    flat = total[keep].astype(np.float64)
    return Scores(
        row_ptr=row_ptr,
        docs=docs[keep].astype(np.int32),
        total=flat,
        gate=gate[keep].astype(np.int8),
        signals=("a", "b"),
        parts=engine.table_parts(np.stack([flat * 0.25, flat * 0.75])),
    )


def _naive(total: np.ndarray, docs: np.ndarray, gate: np.ndarray, k: int) -> list[list[int]]:
    """Per row: eligible cells sorted by descending total, ties by column (a stable sort)."""
    out = []
    for qi in range(total.shape[0]):
        cols = [c for c in range(total.shape[1]) if docs[qi, c] >= 0 and gate[qi, c] == 0]
        cols.sort(key=lambda c: -total[qi, c])
        out.append([int(docs[qi, c]) for c in cols[:k]])
    return out


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 6), st.integers(1, 900), st.integers(1, 120), st.integers(0, 2**31 - 1),
       st.sampled_from([1000, 7, 2]), st.booleans())
def test_top_k_equals_a_stable_sort(q: int, c: int, k: int, seed: int, levels: int,
                                    ragged: bool) -> None:
    rng = np.random.default_rng(seed)
    total = rng.integers(0, levels, (q, c)).astype(float)  # few levels → many ties
    docs = rng.permutation(c).astype(np.int32)[None, :].repeat(q, axis=0)
    if ragged:
        docs[rng.random((q, c)) < rng.random((q, 1))] = -1  # rows of very different lengths
    gate = (rng.random((q, c)) < 0.1).astype(np.int8)
    s = _scores(total, docs, gate)
    r = engine.top_k(s, k)
    want = _naive(total, docs, gate, k)
    for qi in range(q):
        n = int(r.count[qi])
        assert r.docs[qi, :n].tolist() == want[qi]
        assert np.all(r.docs[qi, n:] == -1) and np.all(np.isnan(r.scores[qi, n:]))
        assert np.array_equal(r.scores[qi, :n], s.total[r.pair[qi, :n]])
        assert np.array_equal(r.docs[qi, :n], s.docs[r.pair[qi, :n]])


def test_top_k_with_skewed_rows() -> None:
    # one query matching nearly everything, others a handful: the shape of phrase search
    rng = np.random.default_rng(1)
    total = rng.random((4, 3000))
    docs = np.tile(np.arange(3000, dtype=np.int32), (4, 1))
    for qi, n in enumerate([3000, 150, 40, 0]):
        docs[qi, n:] = -1
    s = _scores(total, docs)
    r = engine.top_k(s, 100)
    assert r.count.tolist() == [100, 100, 40, 0]
    want = _naive(total, docs, np.zeros_like(docs, np.int8), 100)
    assert r.docs.tolist() == [row + [-1] * (100 - len(row)) for row in want]


def test_select_min_score_offset_limit() -> None:
    total = np.array([[5.0, 9.0, 1.0, 7.0, 3.0]])
    r = engine.rank(_scores(total), 5, Selection(min_score=3.0, offset=1, limit=2))
    assert r.docs.tolist() == [[3, 0]]
    assert r.scores.tolist() == [[7.0, 5.0]]
    r = engine.rank(_scores(total), 5, Selection(min_score=8.0, offset=1))
    assert r.count.tolist() == [0]
    r = engine.rank(_scores(total), 2, Selection(offset=1))
    assert r.docs.tolist() == [[3, 0]]  # k counts after the offset


def test_contributions_follow_the_ranking() -> None:
    total = np.array([[1.0, 4.0, 2.0]])
    s = _scores(total)
    r = engine.top_k(s, 3)
    c = engine.contributions_at(s, r)
    assert c.shape == (2, 1, 3)
    assert r.pair.tolist() == [[1, 2, 0]]
    assert np.allclose(c.sum(axis=0), r.scores)
    assert np.allclose(c[0, 0], [1.0, 0.5, 0.25])


def test_progress_cancels() -> None:
    seen: list[float] = []
    p = Progress(on_progress=lambda f, m: seen.append(f), should_stop=lambda: len(seen) >= 2)
    p(0.1)
    p(0.5)
    with pytest.raises(Cancelled):
        p(0.9)
    assert seen == [0.1, 0.5]


def _tiny() -> Dataset:
    docs = [Document(id=f"d{i}", title=t, text=x) for i, (t, x) in enumerate([
        ("Cats", "cats purr and sleep"), ("Dogs", "dogs bark at cats"), ("Birds", "birds sing")])]
    return Dataset("tiny", Corpus(docs), QuerySet([Query("q1", "cats"), Query("q2", "birds")]))


def test_prepare_is_cached_and_a_corrupt_cache_is_rebuilt(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WORKBENCH_CACHE_DIR", str(tmp_path))
    model = get_model("bm25")
    params = model.schema.defaults()
    calls: list[int] = []
    real = model.prepare

    def counting(*a: Any, **kw: Any) -> Any:
        calls.append(1)
        return real(*a, **kw)

    monkeypatch.setattr(model, "prepare", counting)
    first = engine.prepare(model, _tiny(), params)
    again = engine.prepare(model, _tiny(), params)
    assert len(calls) == 1
    assert np.array_equal(first.cand, again.cand) and np.array_equal(first.row_ptr, again.row_ptr)
    files = [f for f in (tmp_path / "prepared").glob("bm25-*.state")
             if not f.name.startswith("bm25-corpus-")]  # the documents' index beside it
    assert len(files) == 1
    # a live parameter does not change the fingerprint; a prepare-stage one does
    assert engine.prepare_fingerprint(model, _tiny(), {**params, "k1": 2.0}) == \
        engine.prepare_fingerprint(model, _tiny(), params)
    assert engine.prepare_fingerprint(model, _tiny(), {**params, "stemmer": "none"}) != \
        engine.prepare_fingerprint(model, _tiny(), params)
    # truncate the file: it must be detected, not trusted, and rebuilt
    blob = files[0].read_bytes()
    files[0].write_bytes(blob[: len(blob) // 2])
    rebuilt = engine.prepare(model, _tiny(), params)
    assert len(calls) == 2 and np.array_equal(rebuilt.cand, first.cand)
    # flip one payload byte: same length, wrong checksum
    blob = files[0].read_bytes()
    files[0].write_bytes(blob[:-1] + bytes([blob[-1] ^ 0xFF]))
    engine.prepare(model, _tiny(), params)
    assert len(calls) == 3
    assert not list((tmp_path / "prepared").glob(".*.tmp"))  # no temporary left behind
