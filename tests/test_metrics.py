"""Metrics on handcrafted cases: every trec_eval corner the workbench must reproduce.

Checked against pytrec_eval (trec_eval 9) per query, against ir-measures for Judged@k, and by
hand for one nDCG.
"""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

from workbench.core.data import Qrels, Run
from workbench.core.metrics import (
    METRICS,
    Judgments,
    canonical_metric,
    evaluate,
    evaluate_means,
    mean_over_judged,
    metric_label,
    parse_metric,
    ranking_from_run,
)

DOC_IDS = ["a", "b", "c", "d", "e", "9", "10", "B", "x"]
DOC_INDEX = {d: i for i, d in enumerate(DOC_IDS)}
QUERY_IDS = ["q1", "q2", "q3", "q4", "q5", "q6", "q7"]

QRELS: Qrels = {
    # grades 0..3, an unjudged "e" and "x" in the run, "ghost" judged relevant but not in corpus
    "q1": {"a": 3, "b": 2, "c": 0, "d": 1, "ghost": 2},
    # every score tied: trec_eval orders x, a, B, 9, 10 (docno descending as strings)
    "q2": {"9": 1, "10": 1, "B": 0},
    "q3": {"a": 1},  # judged, empty result list
    "q4": {"b": 2},  # judged, missing from the run
    "q5": {"c": 0, "d": 0},  # judged, nothing relevant
    # q6: in the run, never judged
    "q7": {"ghost2": 1},  # its only relevant document is outside the corpus
    "q99": {"a": 1},  # not in the query set: ignored
}
RUN: Run = {
    "q1": {"e": 5.0, "b": 4.0, "a": 3.0, "c": 3.0, "x": 1.0, "d": 0.5},
    "q2": {"9": 1.0, "10": 1.0, "B": 1.0, "a": 1.0, "x": 1.0},
    "q3": {},
    "q5": {"c": 2.0, "d": 1.0, "e": 0.5},
    "q6": {"a": 1.0},
    "q7": {"a": 1.0},
    "q98": {"a": 1.0},  # not in the query set: ignored
}

TREC = {
    "ndcg@10": "ndcg_cut_10", "ndcg@3": "ndcg_cut_3", "ndcg": "ndcg",
    "p@3": "P_3", "p@10": "P_10",
    "r@2": "recall_2", "r@100": "recall_100",
    "map@2": "map_cut_2", "map@100": "map_cut_100", "map": "map",
    "mrr": "recip_rank",
}


@pytest.fixture
def judgments() -> Judgments:
    return Judgments.build(QRELS, QUERY_IDS, DOC_INDEX)


@pytest.fixture
def docs() -> np.ndarray:
    return ranking_from_run(RUN, QUERY_IDS, DOC_INDEX)


def _trec_order(results: dict[str, float]) -> list[str]:
    return [d for d, _ in sorted(results.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)]


# -- judgments ------------------------------------------------------------------------------


def test_judgments_count_documents_outside_the_corpus(judgments: Judgments) -> None:
    assert judgments.query_ids == tuple(QUERY_IDS)
    assert judgments.n_rel.tolist() == [4, 2, 1, 1, 0, 0, 1]
    assert judgments.n_judged.tolist() == [5, 3, 1, 1, 2, 0, 1]
    assert judgments.judged_mask.tolist() == [True] * 5 + [False, True]
    assert judgments.ideal.shape == (7, 4)
    assert judgments.ideal[0].tolist() == [3, 2, 2, 1]
    assert judgments.ideal[6].tolist() == [1, 0, 0, 0]
    assert judgments.keys.size == 11  # the judged pairs inside the corpus (no ghosts, no q99)


def test_lookup_grades(judgments: Judgments) -> None:
    ix = DOC_INDEX
    docs = np.full((7, 4), -1, np.int32)
    docs[0, :4] = [ix["a"], ix["e"], ix["c"], -1]
    docs[4, :2] = [ix["c"], ix["a"]]
    grades, judged = judgments.lookup(docs)
    assert grades[0].tolist() == [3, 0, 0, 0]
    assert judged[0].tolist() == [True, False, True, False]
    assert judged[4].tolist() == [True, False, False, False]
    with pytest.raises(ValueError, match=r"\(7, K\)"):
        judgments.lookup(docs[:3])



def test_lookup_from_the_table_equals_the_binary_search(monkeypatch) -> None:
    """Small judgment sets gather grades from a (query, document) table; above TABLE_CELLS
    pairs they search the sorted keys. Both give the same grades, negative ones included."""
    import workbench.core.metrics.judgments as jm

    rng = np.random.default_rng(3)
    n_q, n_docs = 40, 300
    names = [f"d{i}" for i in range(n_docs)]
    qrels = {f"q{q}": {names[int(d)]: int(rng.integers(-1, 4))
                       for d in rng.choice(n_docs, size=25, replace=False)} for q in range(n_q)}
    qrels["q0"]["ghost"] = 2  # judged, not in the corpus
    query_ids = [f"q{q}" for q in range(n_q)]
    doc_index = {n: i for i, n in enumerate(names)}
    docs = rng.integers(-1, n_docs, size=(n_q, 60)).astype(np.int32)
    docs[3, 10] = n_docs + 5  # outside the corpus: not judged
    table = Judgments.build(qrels, query_ids, doc_index)
    assert table._table is not None
    big = Judgments.build({"q0": {"d1": 40000}}, query_ids, doc_index)  # int16 cannot hold it
    assert big._table is None
    assert big.lookup(np.full((n_q, 1), 1, np.int32))[0][:2, 0].tolist() == [40000, 0]
    monkeypatch.setattr(jm, "TABLE_CELLS", 0)
    search = Judgments.build(qrels, query_ids, doc_index)
    assert search._table is None
    (g1, j1), (g2, j2) = table.lookup(docs), search.lookup(docs)
    assert g1.tolist() == g2.tolist() and j1.tolist() == j2.tolist()
    want = [[qrels[f"q{q}"].get(names[d], 0) if 0 <= d < n_docs else 0 for d in row]
            for q, row in enumerate(docs.tolist())]
    assert g1.tolist() == want
    assert j1.sum() > 100 and (g1 < 0).any()

# -- ranking from a run ---------------------------------------------------------------------


def test_trec_eval_tie_order(docs: np.ndarray) -> None:
    def names(row: int) -> list[str]:
        return [DOC_IDS[d] for d in docs[row] if d >= 0]

    assert names(0) == ["e", "b", "c", "a", "x", "d"]  # c before a: equal scores
    assert names(1) == ["x", "a", "B", "9", "10"]  # strings, not numbers: "9" > "10"
    assert names(1) == _trec_order(RUN["q2"])
    assert names(2) == [] and names(3) == []
    assert docs.shape == (7, 6) and docs.dtype == np.int32


def test_given_tie_order_keeps_insertion_order() -> None:
    docs = ranking_from_run(RUN, QUERY_IDS, DOC_INDEX, tie_break="given")
    assert [DOC_IDS[d] for d in docs[1] if d >= 0] == ["9", "10", "B", "a", "x"]
    assert [DOC_IDS[d] for d in docs[0] if d >= 0] == ["e", "b", "a", "c", "x", "d"]


def test_run_depth_unknown_documents_and_bad_scores() -> None:
    assert ranking_from_run(RUN, QUERY_IDS, DOC_INDEX, depth=2).shape == (7, 2)
    run: Run = {"q1": {"a": 2.0, "nowhere": 1.5, "b": 1.0}}
    with pytest.raises(ValueError, match="'nowhere', which is not in the corpus"):
        ranking_from_run(run, ["q1"], DOC_INDEX)
    skipped = ranking_from_run(run, ["q1"], DOC_INDEX, unknown="skip")
    assert skipped.tolist() == [[DOC_INDEX["a"], DOC_INDEX["b"]]]
    with pytest.raises(ValueError, match="NaN score"):
        ranking_from_run({"q1": {"a": float("nan")}}, ["q1"], DOC_INDEX)
    with pytest.raises(ValueError, match="tie_break"):
        ranking_from_run(run, ["q1"], DOC_INDEX, tie_break="score")  # type: ignore[arg-type]
    assert ranking_from_run({}, ["q1", "q2"], DOC_INDEX).shape == (2, 0)


# -- metrics against trec_eval --------------------------------------------------------------


def test_every_corner_matches_pytrec_eval(judgments: Judgments, docs: np.ndarray) -> None:
    pytrec_eval = pytest.importorskip("pytrec_eval")
    ours = evaluate(list(TREC), docs, judgments)
    qrels = {q: QRELS[q] for q in QUERY_IDS if q in QRELS}
    ref = pytrec_eval.RelevanceEvaluator(qrels, set(TREC.values())).evaluate(RUN)
    # pytrec_eval evaluates q3 ({} in the run) but leaves q4 (absent) out: align with -c
    assert "q3" in ref and "q4" not in ref and "q6" not in ref
    judged = [i for i, q in enumerate(QUERY_IDS) if q in qrels]
    for name, trec_name in TREC.items():
        expected = [ref.get(QUERY_IDS[i], {}).get(trec_name, 0.0) for i in judged]
        np.testing.assert_allclose(ours[name][judged], expected, rtol=0, atol=1e-12,
                                   err_msg=name)
        assert math.isnan(ours[name][QUERY_IDS.index("q6")])
        assert mean_over_judged(ours[name], judgments) == pytest.approx(
            float(np.mean(expected)), abs=1e-12)


def test_mrr_at_k_is_recip_rank_of_the_cut_run(judgments: Judgments, docs: np.ndarray) -> None:
    pytrec_eval = pytest.importorskip("pytrec_eval")
    qrels = {q: QRELS[q] for q in QUERY_IDS if q in QRELS}
    for k in (1, 2, 3, 4):
        cut = {q: {d: r[d] for d in _trec_order(r)[:k]} for q, r in RUN.items()}
        ref = pytrec_eval.RelevanceEvaluator(qrels, {"recip_rank"}).evaluate(cut)
        ours = evaluate([f"mrr@{k}"], docs, judgments)[f"mrr@{k}"]
        for i, q in enumerate(QUERY_IDS):
            if q in qrels:
                assert ours[i] == pytest.approx(ref.get(q, {}).get("recip_rank", 0.0), abs=1e-12)
    assert evaluate(["mrr@4"], docs, judgments)["mrr@4"][1] == 0.25  # "9" at rank 4


def test_ndcg_by_hand(judgments: Judgments, docs: np.ndarray) -> None:
    # q1 ranks e, b, c, a, x, d → grades 0, 2, 0, 3, 0, 1; linear gains, log2(rank + 1)
    dcg = 2 / math.log2(3) + 3 / math.log2(5) + 1 / math.log2(7)
    # ideal from every judged grade, "ghost" (outside the corpus) included: 3, 2, 2, 1
    idcg = 3 + 2 / math.log2(3) + 2 / math.log2(4) + 1 / math.log2(5)
    assert evaluate(["ndcg@10"], docs, judgments)["ndcg@10"][0] == pytest.approx(dcg / idcg)
    # cut at 3: DCG of e, b, c; ideal of 3, 2, 2
    ndcg3 = (2 / math.log2(3)) / (3 + 2 / math.log2(3) + 2 / math.log2(4))
    assert evaluate(["ndcg@3"], docs, judgments)["ndcg@3"][0] == pytest.approx(ndcg3)


def test_judged_matches_ir_measures(judgments: Judgments, docs: np.ndarray) -> None:
    ir_measures = pytest.importorskip("ir_measures")
    qrels = {q: QRELS[q] for q in QUERY_IDS if q in QRELS}
    # ir-measures breaks ties by docno ascending and divides by 0 on an empty row
    tie_free = {q: {d: float(-i) for i, d in enumerate(_trec_order(r))}
                for q, r in RUN.items() if r}
    for k in (1, 3, 10):
        measure = ir_measures.Judged @ k
        ref = {m.query_id: m.value for m in ir_measures.iter_calc([measure], qrels, tie_free)}
        ours = evaluate([f"judged@{k}"], docs, judgments)[f"judged@{k}"]
        for i, q in enumerate(QUERY_IDS):
            if q in qrels:
                assert ours[i] == pytest.approx(ref.get(q, 0.0), abs=1e-12), (k, q)
    j10 = evaluate(["judged@10"], docs, judgments)["judged@10"]
    assert j10[0] == pytest.approx(4 / 6)  # b, c, a, d of 6 retrieved: / min(k, retrieved)
    assert j10[2] == 0.0  # no results


def test_cutoffs_wider_and_narrower_than_the_ranking(judgments: Judgments,
                                                     docs: np.ndarray) -> None:
    narrow = docs[:, :2]
    p10 = evaluate(["p@10"], narrow, judgments)["p@10"]
    assert p10[0] == pytest.approx(0.1)  # b in the top 2, divided by 10 all the same
    wide = np.concatenate([docs, np.full((7, 50), -1, np.int32)], axis=1)
    for name in ("ndcg@10", "map", "r@100", "judged@10", "mrr"):
        np.testing.assert_array_equal(evaluate([name], wide, judgments)[name],
                                      evaluate([name], docs, judgments)[name])


def test_evaluate_means_and_empty_inputs(judgments: Judgments, docs: np.ndarray) -> None:
    means = evaluate_means(["p@10", "r@100"], docs, judgments)
    per_query = evaluate(["p@10"], docs, judgments)["p@10"]
    assert means["p@10"] == pytest.approx(np.nanmean(per_query))
    assert set(means) == {"p@10", "r@100"}
    empty = Judgments.build({}, [], {})
    values = evaluate(["ndcg@10", "judged@5"], np.zeros((0, 0), np.int32), empty)
    assert values["ndcg@10"].shape == (0,)
    assert math.isnan(mean_over_judged(values["ndcg@10"], empty))
    unjudged = Judgments.build({}, ["q1"], DOC_INDEX)
    assert np.isnan(evaluate(["map"], docs[:1], unjudged)["map"]).all()
    with pytest.raises(ValueError, match=r"\(7, K\)"):
        evaluate(["map"], docs[:2], judgments)
    with pytest.raises(ValueError, match="duplicates"):
        Judgments.build(QRELS, ["q1", "q1"], DOC_INDEX)


# -- registry -------------------------------------------------------------------------------


def test_registry_and_parse() -> None:
    assert list(METRICS) == ["ndcg", "mrr", "p", "r", "map", "judged"]
    assert parse_metric("ndcg@10") == ("ndcg", 10)
    assert parse_metric(" nDCG@10 ") == ("ndcg", 10)
    assert parse_metric("map") == ("map", None)
    with pytest.raises(ValueError, match="valid: ndcg, mrr, p, r, map, judged"):
        parse_metric("bpref@10")
    with pytest.raises(ValueError, match="not an integer"):
        parse_metric("ndcg@ten")
    with pytest.raises(ValueError, match="≥ 1"):
        parse_metric("p@0")
    with pytest.raises(ValueError, match="needs a cutoff"):
        parse_metric("p")
    with pytest.raises(ValueError, match="needs a cutoff"):
        METRICS["judged"](np.zeros((0, 0), np.int32), Judgments.build({}, [], {}), None)


def test_every_metric_accepts_a_ranking_where_nothing_was_retrieved() -> None:
    # a phrase-matching model on long queries can return nothing for every query: width 0
    from workbench.core.metrics import METRICS, Judgments

    j = Judgments.build({"q1": {"a": 1}, "q2": {"b": 0}}, ["q1", "q2"], {"a": 0, "b": 1})
    empty = np.zeros((2, 0), np.int32)
    for name in METRICS:
        values = METRICS[name](empty, j, 10)
        assert values.tolist() == [0.0, 0.0], name


# rn 7: trec_eval's and ir_measures' names of the measures the workbench computes, mapped as
# ir_measures' pytrec_eval provider maps its own (AP@k is map_cut_k; RR has no cut-off unless
# one is given)
OTHER_NAMES = {
    "ndcg_cut_10": "ndcg@10", "P_10": "p@10", "recall_100": "r@100", "map_cut_100": "map@100",
    "recip_rank": "mrr", "nDCG@10": "ndcg@10", "AP@100": "map@100", "AP": "map",
    "RR@10": "mrr@10", "RR": "mrr", "R@10": "r@10", "recall@10": "r@10", "Recall@10": "r@10",
    "Precision@5": "p@5", "P@5": "p@5",
}
LABELS = {"ndcg_cut_10": "nDCG@10", "P_10": "P@10", "recip_rank": "MRR", "map_cut_100":
          "MAP@100", "AP@100": "MAP@100", "RR@10": "MRR@10", "recall@10": "R@10"}


def test_other_tools_names_are_the_workbenchs() -> None:
    for name, ours in OTHER_NAMES.items():
        assert canonical_metric(name) == ours, name
    for name, label in LABELS.items():
        assert metric_label(name) == label, name
    assert metric_label("bundle_f1") == "bundle F1"  # a name of its own, kept


def test_trec_eval_names_score_as_trec_eval(judgments: Judgments, docs: np.ndarray) -> None:
    pytrec_eval = pytest.importorskip("pytrec_eval")
    names = [n for n in TREC.values() if n not in ("ndcg", "map")]  # the names that differ
    ours = evaluate(names, docs, judgments)
    qrels = {q: QRELS[q] for q in QUERY_IDS if q in QRELS}
    ref = pytrec_eval.RelevanceEvaluator(qrels, set(names)).evaluate(RUN)
    judged = [i for i, q in enumerate(QUERY_IDS) if q in qrels]
    for name in names:
        expected = [ref.get(QUERY_IDS[i], {}).get(name, 0.0) for i in judged]
        np.testing.assert_allclose(ours[name][judged], expected, atol=1e-12, err_msg=name)


def test_ir_measures_names_score_as_ir_measures(judgments: Judgments, docs: np.ndarray) -> None:
    ir_measures = pytest.importorskip("ir_measures")
    qrels = {q: QRELS[q] for q in QUERY_IDS if q in QRELS}
    tie_free = {q: {d: float(-i) for i, d in enumerate(_trec_order(r))}
                for q, r in RUN.items() if r}
    names = ["AP@100", "AP", "RR@2", "RR", "R@2", "nDCG@3", "P@3"]
    ours = evaluate(names, docs, judgments)
    for name in names:
        measure = ir_measures.parse_measure(name)
        ref = {m.query_id: m.value for m in ir_measures.iter_calc([measure], qrels, tie_free)}
        for i, q in enumerate(QUERY_IDS):
            if q in qrels:
                assert ours[name][i] == pytest.approx(ref.get(q, 0.0), abs=1e-12), (name, q)


@pytest.mark.parametrize(("typed", "said"), [
    ("ndgc@10", "unknown metric 'ndgc@10' (did you mean ndcg@10?); valid: ndcg, mrr"),
    ("Mapp@100", "unknown metric 'Mapp@100' (did you mean map@100?)"),
    ("recal@10", "unknown metric 'recal@10' (did you mean r@10?)"),
    ("bundle_recal", "unknown metric 'bundle_recal' (did you mean bundle_recall?)"),
])
def test_a_misspelt_metric_names_the_nearest(typed: str, said: str) -> None:
    with pytest.raises(ValueError) as info:
        parse_metric(typed)
    assert said in str(info.value)


def test_an_unknown_measure_with_no_near_name_lists_the_valid_ones() -> None:
    with pytest.raises(ValueError) as info:
        parse_metric("zzyzx")
    assert "did you mean" not in str(info.value)
    assert "unknown metric 'zzyzx'; valid: ndcg, mrr, p, r, map, judged" in str(info.value)


@pytest.mark.parametrize(("typed", "meant"), [
    ("ndcg_10", "ndcg@10"), ("map_10", "map@10"), ("mrr_10", "mrr@10"), ("recall10", "r@10"),
    ("recip_rank_10", "mrr@10"), ("judged_10", "judged@10"), ("ndcg.10", "ndcg@10"),
    ("NDCG_05", "ndcg@5"),
])
def test_a_trailing_number_is_suggested_as_the_cut_off(typed: str, meant: str) -> None:
    """dr4 2: 'ndcg_10' had been answered 'did you mean ndcg?', which reads 1,000 results,
    and 'judged_10' 'did you mean judged?', which is refused for want of a cut-off."""
    with pytest.raises(ValueError) as info:
        parse_metric(typed)
    assert f"unknown metric {typed!r} (did you mean {meant}?); valid:" in str(info.value)


@pytest.mark.parametrize(("typed", "ours"), [
    ("ndcg_cut.10", "ndcg@10"), ("P.5", "p@5"), ("recall.100", "r@100"),
    ("map_cut.100", "map@100")])
def test_trec_eval_command_line_spelling_is_read(typed: str, ours: str) -> None:
    """dr4 6: trec_eval's own -m spelling, measure.cut-off, had been refused with no hint."""
    assert canonical_metric(typed) == ours


@pytest.mark.parametrize(("typed", "what"), [
    ("Rprec", "R-precision"), ("bpref", "bpref"), ("infAP", "inferred AP"),
    ("success_10", "Success"), ("Success@10", "Success")])
def test_measures_the_workbench_does_not_compute_are_said_so(typed: str, what: str) -> None:
    """dr4 6: Rprec, bpref and Success had had the plain list, as if misspelt."""
    with pytest.raises(ValueError) as info:
        parse_metric(typed)
    assert (f"unknown metric {typed!r} ({what}: not computed by the workbench); valid: "
            "ndcg, mrr, p, r, map, judged") in str(info.value)


@pytest.mark.parametrize(("typed", "said"), [
    ("ndcg_cut", "(a cut-off is needed: did you mean ndcg@10, or another ndcg@k?)"),
    ("map_cut", "(a cut-off is needed: did you mean map@10, or another map@k?)"),
    ("P_", "(a cut-off is needed: did you mean p@10, or another p@k?)"),
    ("recall_", "(a cut-off is needed: did you mean r@10, or another r@k?)"),
    ("prec", "(did you mean p@10?)"),
    ("set_P", "(set precision: not computed by the workbench)"),
    # said where the count is, not 'not computed' (dr8 6)
    ("num_q", "(num_q: the query count is in the first line of every eval, not a metric "
     "column)"),
    # F2 is another figure than F1: not offered as a spelling of it (dr8 7)
    ("bundle_f2", "(bundle F2: not computed; bundle F1, precision and recall are)"),
    ("bundle_F0.5", "(bundle F0.5: not computed; bundle F1, precision and recall are)"),
])
def test_a_suggestion_keeps_a_cut_off_and_is_never_refused(typed: str, said: str) -> None:
    """dr7 6: trec_eval's ndcg_cut and map_cut had been answered with bare ndcg and map,
    which read 1,000 results; P_ with 'p', itself refused for want of a cut-off; set_P and
    num_q with nothing."""
    with pytest.raises(ValueError) as info:
        parse_metric(typed)
    assert f"unknown metric {typed!r} {said}; valid:" in str(info.value)
    suggested = re.search(r"did you mean ([\w@]+)", str(info.value))
    if suggested:
        parse_metric(suggested[1])  # what is suggested is read
