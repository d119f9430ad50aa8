"""The documented variant: the document's formulas, its example table, the proximity bonus."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tests.conftest import padded
from workbench.core import engine
from workbench.core.data import Corpus, Dataset, Document, Query, QuerySet
from workbench.core.models.vault_search import (
    EXAMPLE_TABLE,
    DocumentedParams,
    VaultSearchModel,
    documented_score,
    example_scores,
    query_words,
)
from workbench.core.models.vault_search.documented import best_weights_for_table, word_score


def test_example_table_is_not_what_the_formulas_give() -> None:
    claimed = [row[-1] for row in EXAMPLE_TABLE]
    assert claimed == [0.82, 0.54, 0.31]
    # matches / words with (1 − avg position), weights 0.4 / 0.3 / 0.3, multipliers 10 / 20:
    # short 0.2 + 0.24 + 0.3, medium 0.04 + 0.15 + 0.06, long 0.01 + 0.06 + 0.015
    got = example_scores()
    assert got == pytest.approx([0.74, 0.25, 0.085], abs=1e-12)
    assert all(abs(g - c) > 0.07 for g, c in zip(got, claimed, strict=True))


def test_no_weights_reproduce_the_example_table() -> None:
    # density = 2 × tf in every row, so only two directions exist; the best fit still misses
    weights, residual = best_weights_for_table()
    # the same fit, worked here from vault-search-scoring.md: its table's rows (matches,
    # words, avg position, score) and the parts tf = min(10·m/w, 1), position = 1 − avg,
    # density = min(20·m/w, 1); the minimum-norm least-squares weights through the
    # pseudo-inverse
    table = [(5, 100, 0.2, 0.82), (5, 500, 0.5, 0.54), (5, 2000, 0.8, 0.31)]
    assert [(m, w, avg, c) for _, m, w, avg, c in EXAMPLE_TABLE] == table
    a = np.array([[min(10 * m / w, 1.0), 1 - avg, min(20 * m / w, 1.0)]
                  for m, w, avg, _ in table])
    b = np.array([c for *_, c in table])
    assert np.linalg.matrix_rank(a) == 2
    x = np.linalg.pinv(a) @ b
    expected = float(np.linalg.norm(a @ x - b))
    assert expected > 0.08  # well short of reproducing the table
    assert residual == pytest.approx(expected, abs=1e-9)
    np.testing.assert_allclose(weights, x, atol=1e-9)
    assert weights[0] < 0 or weights[2] < 0  # and even that needs a negative weight


def test_word_score_follows_the_document() -> None:
    assert word_score(5, 100, 0.2) == pytest.approx(0.74)
    assert word_score(50, 100, 0.0) == pytest.approx(1.0)  # both caps reached
    assert word_score(0, 100, 0.0) == 0.0


def test_single_word_document_score() -> None:
    text = "alpha beta gamma alpha"  # 4 words, 22 units, "alpha" at 0 and 17
    b = documented_score(text, "ALPHA")
    assert b is not None and b.words[0].count == 2 and b.words[0].offsets == (0, 17)
    tf = min(2 / 4 * 10, 1)
    pos = 1 - (17 / 2) / 22
    assert b.total == pytest.approx(0.4 * tf + 0.3 * pos + 0.3 * min(2 / 4 * 20, 1))
    assert b.proximity == 0.0


def test_multi_word_average_and_proximity() -> None:
    p = DocumentedParams()
    near = documented_score("alpha beta " + "x " * 20, "alpha beta", p)
    far = documented_score("alpha " + "x " * 3 + "beta " + "x " * 17, "alpha beta", p)
    assert near is not None and far is not None
    assert near.gap == 0 and near.proximity == pytest.approx(0.1)
    assert far.gap == 3 and far.proximity == pytest.approx(0.1 * math.exp(-3 / 5))
    one = documented_score("alpha " + "x " * 21, "alpha beta", p)
    assert one is not None and one.found == 1 and one.proximity == 0.0
    # the missing word scores 0 in the average of two
    alone = documented_score("alpha " + "x " * 21, "alpha", p)
    assert alone is not None and one.raw == pytest.approx(alone.raw / 2)


def test_proximity_uses_the_tightest_stretch() -> None:
    text = "alpha x x x x x beta x gamma alpha beta gamma"
    b = documented_score(text, "alpha beta gamma")
    assert b is not None and b.found == 3 and b.gap == 0


def test_query_words_are_distinct_after_case_folding() -> None:
    assert query_words("Foo  foo BAR\tbar baz") == ["Foo", "BAR", "baz"]
    assert query_words("   ") == []


def test_require_all_words_gates_partial_matches() -> None:
    ds = Dataset(
        name="v",
        corpus=Corpus([Document("a.md", text="alpha only"),
                       Document("b.md", text="alpha and beta")]),
        queries=QuerySet([Query("q", "alpha beta")]),
    )
    model = VaultSearchModel()
    params = engine.resolve_params(model, {"variant": "documented"})
    prepared = model.prepare(ds, params)
    s = padded(model.combine(prepared, params))
    assert list(s.docs[0]) == [0, 1] and (s.gate == 0).all()
    params = engine.resolve_params(model, {"variant": "documented", "require_all_words": True})
    scores = model.combine(prepared, params)
    s = padded(scores)
    assert s.gates[s.gate[0, 0] - 1] == "missing_word" and s.total[0, 0] == 0
    ranked = engine.rank(scores, 10, model.selection_params(params))
    assert ranked.docs[0, : ranked.count[0]].tolist() == [1]
    info = model.explain(prepared, ds, 0, 0, params)
    assert info["gate"] == "missing_word" and info["found"] == 1
    assert [w["word"] for w in info["words"]] == ["alpha"]


def test_documented_proximity_contribution_in_combine() -> None:
    ds = Dataset(
        name="v",
        corpus=Corpus([Document("a.md", text="alpha beta"),
                       Document("b.md", text="alpha x x x x beta")]),
        queries=QuerySet([Query("q", "alpha beta")]),
    )
    model = VaultSearchModel()
    params = engine.resolve_params(model, {"variant": "documented", "w_proximity": 0.2,
                                           "proximity_scale": 2.0})
    s = padded(model.combine(model.prepare(ds, params), params))
    prox = s.contributions[s.signals.index("proximity"), 0]
    np.testing.assert_allclose(prox, [0.2, 0.2 * math.exp(-4 / 2)])
