"""OpenVault's cosineSimilarity (REFERENCE.md §3): dot / (|a|·|b|) per pair, each sum taken
dimension by dimension from 0 — so identical embeddings get identical similarities wherever
they sit, and an exact tie keeps the original's order (a stable sort: input order)."""

from __future__ import annotations

import math
import random

import numpy as np

from workbench.core.data import Corpus, Dataset, Document, Query, QuerySet
from workbench.core.engine import rank, resolve_params
from workbench.core.models import get_model
from workbench.core.models.hybrid.vectors import js_cosine


def spec_cosine(a: list[float], b: list[float]) -> float:
    """The formula as the original writes it, one pair at a time."""
    dot = na = nb = 0.0
    for x, y in zip(a, b, strict=True):
        dot += x * y
        na += x * x
        nb += y * y
    return dot / (math.sqrt(na) * math.sqrt(nb))


def test_every_pair_is_the_formula_bit_for_bit() -> None:
    rng = random.Random(5)
    queries = [[rng.uniform(-1, 1) for _ in range(384)] for _ in range(4)]
    docs = [[rng.uniform(-1, 1) for _ in range(384)] for _ in range(37)]
    got = js_cosine(queries, docs)
    for qi, q in enumerate(queries):
        for di, d in enumerate(docs):
            assert got[qi, di] == spec_cosine(q, d)


def test_small_worked_values() -> None:
    # (1, 2, 2)·(2, 1, 2) = 8, |a| = |b| = 3: 8/9; a zero vector has similarity 0
    assert js_cosine([[1, 2, 2]], [[2, 1, 2], [0, 0, 0]]).tolist() == [[8 / 9, 0.0]]
    # (0.1, 0.2, 0.3) with itself: 0.14 summed in order over √0.14·√0.14, not 1 exactly
    v = [0.1, 0.2, 0.3]
    dot = 0.1 * 0.1 + 0.2 * 0.2 + 0.3 * 0.3
    assert js_cosine([v], [v])[0, 0] == dot / (math.sqrt(dot) * math.sqrt(dot))


def test_identical_embeddings_tie_and_keep_input_order() -> None:
    rng = random.Random(11)
    same = [rng.uniform(-1, 1) for _ in range(384)]
    docs = [Document(f"m{i}", "", "plain words", (), {
        "importance": 3, "message_ids": [5],
        "embedding": same if i in (3, 29) else [rng.uniform(-1, 1) for _ in range(384)]})
        for i in range(40)]
    query = Query("q", "zzz", {"embedding": same, "chat_length": 5})
    ds = Dataset("t", Corpus(docs), QuerySet([query]))
    model = get_model("hybrid")
    params = resolve_params(model, {"embeddings": "stored"})
    scores = model.combine(model.prepare(ds, params), params)
    row = scores.row(0)
    total = dict(zip(scores.docs[row].tolist(), scores.total[row].tolist(), strict=True))
    assert total[3] == total[29]
    ranking = rank(scores, 2, model.selection_params(params))
    assert ranking.docs[0, :2].tolist() == [3, 29]
    sim = spec_cosine(same, same)
    # base 3 (distance 0) + α·W·(sim − 0.5)/(1 − 0.5), BM25 0 (no query token in any memory)
    assert total[3] == 3 + 0.7 * 15 * (sim - 0.5) / 0.5
    assert np.isfinite(sim)
