"""Printed metrics agree with trec_eval, ties included (issue 14, item 8).

trec_eval reads a run sorted by score descending and breaks ties by document id descending
(as strings: "9" before "10"). The workbench ranks ties in the model's order (corpus order for
the baselines); its metrics must nevertheless be those trec_eval computes on the run file the
same ranking is written as. The oracle is pytrec_eval, on a SciFact-sized synthetic corpus
(5,183 documents, 300 queries) built to hold many exact ties: documents share their text.
"""

from __future__ import annotations

import numpy as np
import pytest

from workbench.core import engine
from workbench.core.data import Corpus, Dataset, Document, Query, QuerySet
from workbench.core.formats.trec import format_trec_run, read_trec_run
from workbench.core.metrics import evaluate
from workbench.core.metrics.runs import name_ranks, trec_tie_order
from workbench.core.models import get_model
from workbench.core.pipeline import Pipeline

pytrec_eval = pytest.importorskip("pytrec_eval")

OURS_TO_TREC = {"ndcg@10": "ndcg_cut_10", "p@10": "P_10", "r@100": "recall_100",
                "map@100": "map_cut_100"}


def tied_dataset(n_docs: int = 5183, n_queries: int = 300, seed: int = 14) -> Dataset:
    rng = np.random.default_rng(seed)
    vocab = [f"w{i}" for i in range(60)]
    templates = [" ".join(rng.choice(vocab, size=int(rng.integers(3, 9)))) for _ in range(700)]
    # numeric ids in shuffled order, as SciFact's: corpus order is not id order
    ids = [str(i) for i in rng.permutation(np.arange(1, 4 * n_docs))[:n_docs]]
    docs = [Document(id=d, text=templates[int(rng.integers(len(templates)))]) for d in ids]
    queries = [Query(id=f"q{i}", text=" ".join(rng.choice(vocab, size=2, replace=False)))
               for i in range(n_queries)]
    by_text: dict[str, list[str]] = {}
    for d in docs:
        by_text.setdefault(d.text, []).append(d.id)
    qrels: dict[str, dict[str, int]] = {}
    for q in queries:
        words = set(q.text.split())
        # judge documents of a few texts holding a query word: twins get different grades,
        # so the order among exact ties changes the metrics
        texts = [t for t in by_text if words & set(t.split())]
        picked = rng.choice(len(texts), size=min(6, len(texts)), replace=False)
        qrels[q.id] = {doc: int(rng.integers(0, 3)) for j in picked
                       for doc in by_text[texts[int(j)]]}
    return Dataset("tied", Corpus(docs), QuerySet(queries), qrels)


def test_name_ranks_and_tie_order_by_hand() -> None:
    # "10" < "100" < "9" < "a" < "b" as strings
    assert name_ranks(["9", "10", "100", "b", "a"]).tolist() == [2, 0, 1, 4, 3]
    rank = name_ranks(["9", "10", "100", "b"])
    docs = np.array([[0, 1, 2, 3], [3, 1, -1, -1]], np.int32)
    scores = np.array([[2.0, 2.0, 2.0, 1.0], [1.0, 1.0, np.nan, np.nan]])
    # row 0: "9" > "100" > "10" as strings; row 1: "b" > "10", already in order
    assert trec_tie_order(docs, scores, rank).tolist() == [[0, 2, 1, 3], [3, 1, -1, -1]]


def test_printed_metrics_are_trec_evals_on_the_written_run(tmp_path) -> None:
    ds = tied_dataset()
    pipe = Pipeline(get_model("bm25"), ds)
    result = pipe.run(list(OURS_TO_TREC), depth=100)
    run_file = tmp_path / "run.txt"
    run_file.write_text(format_trec_run(engine.to_run(result.ranking, ds.corpus.ids,
                                                      ds.queries.ids)))
    assert ds.qrels is not None
    trec = pytrec_eval.RelevanceEvaluator(ds.qrels, set(OURS_TO_TREC.values())).evaluate(
        read_trec_run(run_file))
    assert pipe.judgments is not None
    corpus_order = evaluate(list(OURS_TO_TREC), result.ranking.docs, pipe.judgments)
    differs = 0
    for qi, qid in enumerate(ds.queries.ids):
        for ours, theirs in OURS_TO_TREC.items():
            want = trec[qid][theirs] if qid in trec else 0.0
            assert result.per_query[ours][qi] == pytest.approx(want, abs=1e-4), (qid, ours)
        differs += abs(corpus_order["ndcg@10"][qi] - trec.get(qid, {}).get("ndcg_cut_10", 0)) \
            > 1e-4
    assert differs >= 10  # the data does hold ties that corpus order ranks differently
    for ours, theirs in OURS_TO_TREC.items():
        mean = float(np.mean([trec.get(q, {}).get(theirs, 0.0) for q in ds.queries.ids]))
        assert result.means[ours] == pytest.approx(mean, abs=1e-4)


def test_a_metric_does_not_depend_on_which_others_are_asked_for() -> None:
    # ndcg@10 alone would rank 10 deep; ties straddling rank 10 then lose the documents that
    # trec_eval's order lifts from beyond it: every face ranks at least MIN_DEPTH deep
    pipe = Pipeline(get_model("bm25"), tied_dataset(n_docs=800, n_queries=60))
    alone = pipe.run(["ndcg@10"]).per_query["ndcg@10"]
    with_others = pipe.run(list(OURS_TO_TREC)).per_query["ndcg@10"]
    assert alone.tolist() == with_others.tolist()
    # ranked only 10 deep, a run of ties straddling rank 10 keeps the members trec_eval
    # reads first, as a deeper ranking does (it kept the model's first, and scored less)
    shallow = pipe.run(["ndcg@10"], depth=10)
    assert shallow.per_query["ndcg@10"].tolist() == alone.tolist()
    s = shallow.ranking.scores
    assert ((shallow.ranking.count == 10) & (s[:, 9] == pipe.run(["ndcg@10"], depth=11)
                                             .ranking.scores[:, 10])).any()  # it does straddle


def test_tie_order_on_the_columns_the_metrics_read_equals_it_on_all() -> None:
    """The live path puts only the first columns in trec_eval's order: to the deepest cut-off
    and on through the entries tied with the one there. Metrics are those of the whole
    ranking put in that order, on data where ties straddle rank 10 in most queries."""
    ds = tied_dataset(n_docs=800, n_queries=60)
    pipe = Pipeline(get_model("bm25"), ds)
    res = pipe.run(["ndcg@10", "p@10", "mrr@10"])
    assert pipe.judgments is not None and pipe.judgments.name_rank is not None
    full = trec_tie_order(res.ranking.docs, res.ranking.scores, pipe.judgments.name_rank)
    whole = evaluate(["ndcg@10", "p@10", "mrr@10"], full, pipe.judgments)
    for name, values in whole.items():
        assert res.per_query[name].tolist() == values.tolist()
    sc = res.ranking.scores
    straddle = (sc[:, 9] == sc[:, 10]).sum()
    assert straddle > 10  # most queries tie across the cut: the width is past 10


def _tie_order_by_whole_sort(docs: np.ndarray, scores: np.ndarray,
                             rank: np.ndarray) -> list[list[int]]:
    """Each row given to one stable sort by (score desc, name rank desc), padding last: the
    definition, row by row in Python."""
    out = []
    for d_row, s_row in zip(docs.tolist(), scores.tolist(), strict=True):
        entries = [(-(s if d >= 0 else -np.inf), -(int(rank[d]) if d >= 0 else -1), d)
                   for d, s in zip(d_row, s_row, strict=True)]
        nan = [e for e in entries if np.isnan(e[0])]  # lexsort puts NaN keys last
        out.append([e[2] for e in sorted([e for e in entries if not np.isnan(e[0])],
                                         key=lambda e: (e[0], e[1]))] + [e[2] for e in nan])
    return out


@pytest.mark.parametrize("seed", range(6))
def test_tie_order_reorders_tied_runs_as_a_whole_sort_would(seed: int) -> None:
    """Rows sorted by score reorder only their runs of equal scores; the result is the whole
    row's stable sort, on rows with many ties, shared name ranks, padding, -inf, ±0.0, NaN
    and rows not sorted by score at all."""
    rng = np.random.default_rng(seed)
    n_docs, n_rows, k = 400, 120, 30
    rank = rng.integers(0, 250, size=n_docs)  # shared ranks: ids equal as strings
    docs = np.stack([rng.permutation(n_docs)[:k] for _ in range(n_rows)]).astype(np.int32)
    levels = np.array([3.0, 2.0, 2.0, 1.0, 0.0, -0.0, -np.inf])
    scores = -np.sort(-rng.choice(levels, size=(n_rows, k)), axis=1)
    pad = rng.integers(0, k, size=n_rows)
    for r in range(0, n_rows, 3):  # padding at the end of some rows
        docs[r, pad[r]:] = -1
        scores[r, pad[r]:] = np.nan
    scores[5, 4] = np.nan  # NaN inside a sorted row
    scores[7] = rng.choice(levels[:-1], size=k)  # a row out of score order
    got = trec_tie_order(docs, scores, rank)
    assert got.tolist() == _tie_order_by_whole_sort(docs, scores, rank)
    assert got.tolist() != docs.tolist()  # there was something to reorder


def test_a_shallow_run_file_is_scored_by_trec_eval_as_a_deep_one(tmp_path) -> None:
    # `eval --run x --depth 5`: where tied documents straddled rank 5, the file held the
    # model's first of them; trec_eval, reading a deeper run, puts the highest ids there
    ds = tied_dataset(n_docs=900, n_queries=80, seed=3)
    pipe = Pipeline(get_model("bm25"), ds)
    assert ds.qrels is not None
    measures = {"ndcg_cut_5", "P_5"}

    def trec_of(depth: int) -> dict[str, dict[str, float]]:
        ranking = pipe.run(["ndcg@5"], depth=depth).ranking
        run = tmp_path / f"run{depth}.txt"
        run.write_text(format_trec_run(engine.to_run(ranking, ds.corpus.ids, ds.queries.ids)))
        return pytrec_eval.RelevanceEvaluator(ds.qrels, measures).evaluate(read_trec_run(run))

    shallow, deep = trec_of(5), trec_of(1000)
    assert shallow == deep
    five = pipe.run(["ndcg@5"], depth=5)
    for qi, q in enumerate(ds.queries.ids):
        assert five.per_query["ndcg@5"][qi] == pytest.approx(deep.get(q, {}).get(
            "ndcg_cut_5", 0.0), abs=1e-4)


def test_a_metric_without_a_cut_off_reads_the_first_thousand_whatever_else_is_asked() -> None:
    # r and map read 2,000 results when r@2000 was asked beside them, 1,000 otherwise
    n = 1500
    docs = [Document(id=f"d{i:04d}", text="tea " + "filler " * i) for i in range(n)]
    ds = Dataset("long", Corpus(docs), QuerySet([Query(id="q", text="tea")]),
                 {"q": {"d0005": 1, "d1200": 1}})
    pipe = Pipeline(get_model("bm25"), ds)
    alone = pipe.run(["r", "map"]).means
    beside = pipe.run(["r", "map", "r@2000"]).means
    assert alone == {"r": 0.5, "map": pytest.approx(0.5 / 6)}  # d1200 is at rank 1,201
    assert {m: beside[m] for m in ("r", "map")} == alone and beside["r@2000"] == 1.0


def test_a_tie_run_of_thousands_is_cut_by_one_pass_over_its_row() -> None:
    # 3,000 documents of one text: a query that matches them all ties at every rank; the cut
    # at 100 keeps the 100 highest ids (as trec_eval reads a deeper run), read from the row
    # once (widening the ranking step by step until the run ended cost 20 times a tick)
    docs = [Document(id=f"{i:05d}", text="green tea") for i in range(3000)]
    ds = Dataset("same", Corpus(docs), QuerySet([Query(id="q", text="tea")]),
                 {"q": {"02999": 1, "00000": 1}})
    result = Pipeline(get_model("bm25"), ds).run(["r@100"])
    kept = sorted(ds.corpus[int(d)].id for d in result.ranking.docs[0][:100])
    assert kept == [f"{i:05d}" for i in range(2900, 3000)]
    assert result.means["r@100"] == 0.5


def test_a_models_own_limit_keeps_its_order_at_a_tie() -> None:
    # vault-search returns its first `limit` results: a tie at rank 100 inside a limit of
    # 102 chose among every tied note, ranking one the system never returns (r@100 1.0)
    docs = [Document(id=f"n{i:03d}", title=f"n{i:03d}", text="apple pie") for i in range(300)]
    ds = Dataset("notes", Corpus(docs), QuerySet([Query(id="q", text="apple")]),
                 {"q": {"n299": 1}})
    result = Pipeline(get_model("vault-search"), ds, {"limit": 102}).run(["r@100"])
    assert result.means["r@100"] == 0.0
    assert int(result.ranking.count[0]) == 100
