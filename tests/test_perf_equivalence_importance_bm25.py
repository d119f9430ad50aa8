"""The fast live paths of `bm25` and `importance` equal, bit for bit, the straightforward
computation they replaced: BM25 postings summed with one bincount, and importance gathered and
gated pair by pair."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from numpy.typing import NDArray

from tests.conftest import SAMPLES
from workbench.core.data import Corpus, Dataset, Document, Query, QuerySet
from workbench.core.engine import prepare, resolve_params
from workbench.core.formats import load_dataset
from workbench.core.models.bm25 import BM25Model, BM25Prepared
from workbench.core.models.importance import GATES, ImportanceModel, importance_table
from workbench.core.models.importance.prepared import ImportancePrepared
from workbench.core.params import Params

WORDS = [f"w{i}" for i in range(40)]
TIERS = ["ultra-short", "short", "medium", "long", "bogus"]
DAYS = ["2026-01-01", "2026-02-10", "2026-02-27", "2026-03-01"]


def random_dataset(seed: int) -> Dataset:
    """Zipf-ish words (repeats, so tf > 1), varied lengths, random memory metadata and three
    distinct pinned clocks (U > 1), one query matching nothing."""
    rng = np.random.default_rng(seed)
    p = 1.0 / np.arange(1, len(WORDS) + 1)
    p /= p.sum()
    docs = []
    for i in range(300):
        words = rng.choice(WORDS, size=int(rng.integers(1, 60)), p=p)
        meta: dict[str, Any] = {"tier": TIERS[int(rng.integers(len(TIERS)))],
                                "mentions": int(rng.integers(0, 6)),
                                "dismissals": int(rng.integers(0, 4)),
                                "outcome": str(rng.choice(["success", "failure", "", "x"]))}
        if rng.random() < 0.9:
            meta["last_accessed"] = f"{DAYS[int(rng.integers(3))]}T00:00:00Z"
        if rng.random() < 0.1:
            meta["superseded_by"] = "d0"
        bang = "!!" if rng.random() < 0.2 else ""
        docs.append(Document(f"d{i}", "", " ".join(words) + bang, metadata=meta))
    queries = [Query(f"q{j}", " ".join(rng.choice(WORDS, size=int(rng.integers(1, 12)))),
                     {"now": f"{DAYS[1 + j % 3]}T12:00:00Z"}) for j in range(40)]
    queries.append(Query("none", "zzz"))
    return Dataset(f"random-{seed}", Corpus(docs), QuerySet(queries))


def bincount_scores(prep: BM25Prepared, params: Params) -> NDArray[np.float64]:
    out: NDArray[np.float64] = np.bincount(
        prep.post_pair, weights=BM25Model().term_scores(prep, params), minlength=len(prep.cand))
    return out


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("live", [{}, {"k1": 0.0}, {"k1": 2.7, "b": 0.0}, {"b": 1.0},
                                  {"variant": "robertson"}, {"variant": "atire", "k1": 0.4}])
def test_bm25_pair_scores_equal_bincount(seed: int, live: dict[str, object]) -> None:
    model = BM25Model()
    params = model.schema.resolve({"stop_words": "none", "stemmer": "none", **live})
    prep: BM25Prepared = model.prepare(random_dataset(seed), params)
    assert prep.tail_pair.size > 0  # pairs with several postings exercised
    want = bincount_scores(prep, params)
    got = model.combine(prep, params).total
    np.testing.assert_array_equal(got.view(np.int64), want.view(np.int64))


def test_bm25_no_postings() -> None:
    model = BM25Model()
    ds = Dataset("none", Corpus([Document("a", "", "apple")]), QuerySet([Query("q", "pear")]))
    params = model.schema.resolve({})
    s = model.combine(model.prepare(ds, params), params)
    assert s.n_pairs == 0 and s.total.dtype == np.float64


def straightforward(prep: ImportancePrepared, params: Params
                    ) -> tuple[NDArray[np.float64], NDArray[np.int8]]:
    """The pair-by-pair combine: gather importance, inputs and gates for every pair."""
    stats = prep.bm25
    pair_query = np.repeat(np.arange(len(stats.row_ptr) - 1), np.diff(stats.row_ptr))
    clock, docs = prep.query_clock[pair_query], stats.cand
    imp = importance_table(prep, params)
    value = imp.final[clock, docs]
    checks = {
        "superseded": prep.superseded[docs] & bool(params["superseded_archive"]),
        "archived": (value < float(params["archive_threshold"]))
        & bool(params["exclude_archived"]),
        "pre-filter": ~((value > float(params["prefilter_current"]))
                        | (prep.inactive[clock, docs] < float(params["prefilter_days"]))
                        | (imp.stored[docs] > float(params["prefilter_importance"])))
        & bool(params["prefilter"]),
    }
    gate = np.zeros(len(docs), np.int8)
    for name in reversed(GATES):
        gate[checks[name]] = GATES.index(name) + 1
    if params["relevance"] == "coverage":
        matched = np.bincount(stats.post_pair, minlength=len(docs)).astype(np.float64)
        rel = matched / np.maximum(prep.query_n_terms[pair_query], 1.0)
    else:
        bp = BM25Model.schema.resolve({"k1": params["k1"], "b": params["b"]})
        rel = bincount_scores(stats, bp)
        if params["relevance"] == "bm25-max":  # the best of the memories searched (ungated)
            best = np.zeros(len(stats.row_ptr) - 1)
            np.maximum.at(best, pair_query[gate == 0], rel[gate == 0])
            rel = rel / np.where(best > 0, best, 1.0)[pair_query]
    return np.where(gate == 0, rel * value, 0.0), gate


CASES: list[dict[str, object]] = [
    {},
    {"relevance": "bm25", "k1": 0.6, "b": 0.3},
    {"relevance": "coverage", "superseded_archive": True},
    {"exclude_archived": False, "prefilter_days": 5.0, "archive_threshold": 0.35},
    {"prefilter": False, "whole_days": False, "stale_short": 0.05, "dismiss_cap_count": 1},
]


@pytest.mark.parametrize("live", CASES)
@pytest.mark.parametrize("data", ["random", "memories"])
def test_importance_combine_equals_pair_by_pair(data: str, live: dict[str, object]) -> None:
    ds = random_dataset(2) if data == "random" else load_dataset(SAMPLES / "memories")
    m = ImportanceModel()
    params = resolve_params(m, {**live, "limit": 0})
    prep: ImportancePrepared = prepare(m, ds, params, use_cache=False)
    if data == "random":
        assert len(prep.clocks) > 1
    scores = m.combine(prep, params)
    total, gate = straightforward(prep, params)
    np.testing.assert_array_equal(scores.gate, gate)
    np.testing.assert_array_equal(scores.total.view(np.int64), total.view(np.int64))
    ok = scores.gate == 0
    np.testing.assert_allclose(scores.contributions.sum(axis=0)[ok], scores.total[ok],
                               atol=1e-12)
