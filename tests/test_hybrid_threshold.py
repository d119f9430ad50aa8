"""OpenVault's vector threshold: 0 scores as 0.5 (`threshold || 0.5`), as the slider now says,
and a separate "no threshold" switch gives a plain blend (issue 14, item 9).

Hand-worked from REFERENCE.md §3: vectorBonus = α·W·(sim − t)/(1 − t) when sim > t, with
α 0.7, W 15 (α·W = 10.5); every memory here has importance 3 at distance 0 (base 3) and no
query token (BM25 bonus 0). Query embedding (3, 4) against (1, 0): sim 3/5 = 0.6; against
(0, 1): 4/5 = 0.8; against (−1, 0): −0.6.
"""

from __future__ import annotations

import pytest

from workbench.core.data import Corpus, Dataset, Document, Query, QuerySet
from workbench.core.engine import resolve_params
from workbench.core.models import get_model

EMBEDDINGS = ([1.0, 0.0], [0.0, 1.0], [-1.0, 0.0])


def totals(overrides: dict[str, object]) -> list[float]:
    docs = [Document(f"m{i}", "", "plain words", (),
                     {"importance": 3, "message_ids": [5], "embedding": e})
            for i, e in enumerate(EMBEDDINGS)]
    query = Query("q", "zzz", {"embedding": [3.0, 4.0], "chat_length": 5})
    ds = Dataset("t", Corpus(docs), QuerySet([query]))
    model = get_model("hybrid")
    params = resolve_params(model, {"embeddings": "stored", **overrides})
    scores = model.combine(model.prepare(ds, params), params)
    row = scores.row(0)
    by_doc = dict(zip(scores.docs[row].tolist(), scores.total[row].tolist(), strict=True))
    return [by_doc[i] for i in range(len(EMBEDDINGS))]


def test_threshold_zero_scores_as_openvaults_default() -> None:
    # t = 0.5: 10.5·0.1/0.5 = 2.1 and 10.5·0.3/0.5 = 6.3
    want = [5.1, 9.3, 3.0]
    assert totals({}) == pytest.approx(want, rel=1e-12)
    assert totals({"vector_threshold": 0.0}) == pytest.approx(want, rel=1e-12)


def test_no_threshold_is_a_plain_blend() -> None:
    # t = 0 for real: 10.5·0.6 = 6.3 and 10.5·0.8 = 8.4; a negative similarity earns nothing
    want = [9.3, 11.4, 3.0]
    assert totals({"no_vector_threshold": True}) == pytest.approx(want, rel=1e-12)
    # the switch wins over whatever the slider says
    assert totals({"no_vector_threshold": True, "vector_threshold": 0.7}) == \
        pytest.approx(want, rel=1e-12)
    # t = 0.3 (slider): 10.5·0.3/0.7 = 4.5 and 10.5·0.5/0.7 = 7.5
    assert totals({"vector_threshold": 0.3}) == pytest.approx([7.5, 10.5, 3.0], rel=1e-12)


def test_the_threshold_says_what_zero_means() -> None:
    schema = get_model("hybrid").schema
    t = schema["vector_threshold"]
    assert "0 = OpenVault's default 0.5" in t.help and "No vector threshold" in t.help
    off = schema["no_vector_threshold"]
    assert off.kind == "bool" and off.default is False and off.stage == "live"
