"""BM25: scores equal bm25s's matching variant; k1 and b are live; explain adds up."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from tests.conftest import dense_totals, need_dataset
from workbench.core import engine
from workbench.core.data import Corpus, Dataset, Document, Query, QuerySet
from workbench.core.models.bm25 import BM25Model
from workbench.core.pipeline import Pipeline


def _dense(s: engine.Scores, n: int) -> np.ndarray:
    return dense_totals(s, n)


def _tiny() -> Dataset:
    docs = [
        Document("a", "", "apple apple banana"),
        Document("b", "", "banana cherry"),
        Document("c", "", "cherry cherry cherry date"),
    ]
    return Dataset("tiny", Corpus(docs), QuerySet([Query("q", "apple cherry cherry")]))


def test_lucene_scores_worked_by_hand() -> None:
    # N = 3, lengths 3, 2, 4 → avgdl 3; k1 = 1.2, b = 0.75, no stop words, no stemming.
    # apple: df 1 → idf = ln(1 + 2.5/1.5); cherry: df 2 → idf = ln(1 + 1.5/2.5).
    # "cherry" occurs twice in the query, so it counts twice.
    model = BM25Model()
    params = model.schema.resolve({"stop_words": "none", "stemmer": "none"})
    s = model.combine(model.prepare(_tiny(), params), params)
    idf_apple, idf_cherry = math.log(1 + 2.5 / 1.5), math.log(1 + 1.5 / 2.5)

    def tfc(tf: float, dl: float) -> float:
        return tf / (tf + 1.2 * (1 - 0.75 + 0.75 * dl / 3))

    want = [idf_apple * tfc(2, 3), 2 * idf_cherry * tfc(1, 2), 2 * idf_cherry * tfc(3, 4)]
    assert np.allclose(_dense(s, 3)[0], want, rtol=1e-12)


@pytest.mark.parametrize("variant", ["robertson", "atire"])
def test_other_variants_worked_by_hand(variant: str) -> None:
    model = BM25Model()
    params = model.schema.resolve({"stop_words": "none", "stemmer": "none", "variant": variant,
                                   "k1": 0.9, "b": 0.4})
    s = model.combine(model.prepare(_tiny(), params), params)
    norm = 0.9 * (1 - 0.4 + 0.4 * 4 / 3)  # document c
    # robertson: (N − df + .5)/(df + .5) = 1.5/2.5 < 1 → clamped to idf 0;
    # atire: ln(N/df) and a (k1 + 1) factor
    want = 0.0 if variant == "robertson" else 2 * math.log(3 / 2) * 3 * 1.9 / (3 + norm)
    assert _dense(s, 3)[0, 2] == pytest.approx(want, rel=1e-12)


def test_k1_and_b_are_live() -> None:
    model = BM25Model()
    prep_params = model.schema.resolve({"stop_words": "none", "stemmer": "none"})
    pipe = Pipeline(model, _tiny(), prep_params, use_cache=False)
    prepared = pipe.prepared
    pipe.update({"k1": 2.0, "b": 0.1})
    assert pipe.prepared is prepared  # no re-prepare for live parameters
    fresh = model.combine(model.prepare(_tiny(), pipe.params), pipe.params)
    assert np.allclose(pipe.run(()).scores.total, fresh.total)
    pipe.update({"stemmer": "snowball-english"})
    assert pipe.prepared is not prepared


def test_explain_terms_add_up_to_the_score() -> None:
    model = BM25Model()
    params = model.schema.resolve({"stop_words": "none", "stemmer": "none"})
    prep = model.prepare(_tiny(), params)
    s = model.combine(prep, params)
    info: dict[str, Any] = model.explain(prep, _tiny(), 0, 2, params)
    assert [t["term"] for t in info["matched_terms"]] == ["cherry"]
    assert info["matched_terms"][0]["query_count"] == 2
    assert sum(t["score"] for t in info["matched_terms"]) == pytest.approx(_dense(s, 3)[0, 2])


@pytest.fixture(scope="module")
def scifact() -> Dataset:
    from workbench.core.formats import read_beir

    return read_beir(need_dataset("scifact"), split="test")


@pytest.fixture(scope="module")
def scifact_tokens(scifact: Dataset) -> tuple[Any, list[list[str]], list[list[str]]]:
    """Built once for the three variants (the variant is a live parameter, so prepare is the
    same for each): the prepared index, and each document's and query's tokens from the
    model's own analyser."""
    model = BM25Model()
    params = model.schema.resolve({"k1": 1.2, "b": 0.75})
    assert model.schema["variant"].stage == "live"  # else prepare would differ per variant
    an = model.analyzer(params)
    docs = [an.tokens(t) for t in model.doc_texts(scifact, params)]
    return model.prepare(scifact, params), docs, [an.tokens(q.text) for q in scifact.queries]


@pytest.mark.datasets
@pytest.mark.parametrize("variant", ["lucene", "robertson", "atire"])
def test_scores_equal_bm25s_on_scifact(scifact: Dataset, variant: str,
                                       scifact_tokens: tuple[Any, list[list[str]],
                                                             list[list[str]]]) -> None:
    bm25s = pytest.importorskip("bm25s")
    model = BM25Model()
    params = model.schema.resolve({"variant": variant, "k1": 1.2, "b": 0.75})
    prepared, doc_tokens, query_tokens = scifact_tokens
    s = model.combine(prepared, params)
    mine = _dense(s, len(scifact.corpus))
    # same tokens into both, so the test is about the scoring, not the tokenizer
    ref = bm25s.BM25(method=variant, k1=1.2, b=0.75, dtype="float64")
    ref.index(doc_tokens, show_progress=False)
    vocab = ref.vocab_dict
    for qi, q in enumerate(scifact.queries):
        tokens = [t for t in query_tokens[qi] if t in vocab]
        if not tokens:
            assert not mine[qi].any()
            continue
        theirs = ref.get_scores(tokens)
        np.testing.assert_allclose(mine[qi], theirs, rtol=1e-5, atol=1e-9,
                                   err_msg=f"query {q.id}")
