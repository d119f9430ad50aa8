"""TREC qrels and run files; the run writer orders ties as trec_eval does."""

from __future__ import annotations

from pathlib import Path

import pytest

from workbench.core.data import FormatError, Run
from workbench.core.formats import read_trec_qrels, read_trec_run, trec_order, write_trec_run


def assert_names(err: FormatError, path: Path, line: int, field: str) -> None:
    msg = str(err)
    assert f"{path}:{line}:" in msg and f"field '{field}'" in msg
    assert (err.line, err.field) == (line, field)


def test_read_trec_qrels(tmp_path: Path) -> None:
    path = tmp_path / "qrels.txt"
    path.write_text("301 0 FBIS3-1 2\n\n301  0\tFBIS3-2 0\r\n302 0 LA-9 -1\n", encoding="utf-8")
    assert read_trec_qrels(path) == {"301": {"FBIS3-1": 2, "FBIS3-2": 0}, "302": {"LA-9": -1}}


@pytest.mark.parametrize(("line2", "field", "fragment"), [
    ("301 0 D2", "columns", "expected 4 whitespace-separated columns"),
    ("301 0 D2 1 x", "columns", "found 5"),
    ("301 0 D2 yes", "rel", "integer grade"),
    ("301 0 D2 99999999999999999999999", "rel", "integer grade (within"),  # overflowed later
    ("301 0 D2 1_0", "rel", "integer grade"),  # Python reads 10; trec_eval does not
    ("999 0 D2 1", "qid", "unknown query id '999'"),
    ("301 0 D1 0", "docno", "duplicate judgment"),
])
def test_trec_qrels_errors(tmp_path: Path, line2: str, field: str, fragment: str) -> None:
    path = tmp_path / "qrels.txt"
    path.write_text(f"301 0 D1 1\n{line2}\n", encoding="utf-8")
    with pytest.raises(FormatError) as info:
        read_trec_qrels(path, query_ids={"301"})
    assert_names(info.value, path, 2, field)
    assert fragment in str(info.value)


@pytest.mark.parametrize(("line2", "field", "fragment"), [
    ("q1 Q0 d2 2 0.5", "columns", "expected 6"),
    ("q1 Q0 d2 two 0.5 t", "rank", "integer rank"),
    ("q1 Q0 d2 2 high t", "score", "expected a number"),
    ("q1 Q0 d2 2 nan t", "score", "expected a number"),
    ("q1 Q0 d1 2 0.5 t", "docno", "duplicate document"),
])
def test_trec_run_errors(tmp_path: Path, line2: str, field: str, fragment: str) -> None:
    path = tmp_path / "run.txt"
    path.write_text(f"q1 Q0 d1 1 0.9 t\n{line2}\n", encoding="utf-8")
    with pytest.raises(FormatError) as info:
        read_trec_run(path)
    assert_names(info.value, path, 2, field)
    assert fragment in str(info.value)


def test_empty_run_file(tmp_path: Path) -> None:
    path = tmp_path / "run.txt"
    path.write_text("", encoding="utf-8")
    with pytest.raises(FormatError, match="empty file") as info:
        read_trec_run(path)
    assert_names(info.value, path, 1, "qid")


RUN: Run = {
    "q2": {"b": 1.0, "a": 1.0, "c": 3.25, "B": 1.0, "d": -0.1},
    "q1": {"x": 0.1 + 0.2, "y": 1e-300, "z": 12345.678901234567},
}


def test_write_orders_and_round_trips(tmp_path: Path) -> None:
    path = tmp_path / "run.txt"
    write_trec_run(path, RUN, tag="bm25")
    lines = path.read_text(encoding="utf-8").splitlines()
    q2 = [line.split() for line in lines if line.startswith("q2 ")]
    # score descending; ties by docno descending in byte order, as trec_eval sorts them
    assert [cols[2] for cols in q2] == ["c", "b", "a", "B", "d"]
    assert [cols[3] for cols in q2] == ["1", "2", "3", "4", "5"]
    assert all(cols[1] == "Q0" and cols[5] == "bm25" for cols in q2)
    assert read_trec_run(path) == RUN  # floats survive exactly
    assert not list(tmp_path.glob(".*.tmp"))  # the atomic write left no temporary behind


def test_tie_order_matches_trec_eval(tmp_path: Path) -> None:
    """trec_eval ignores the rank column; its own tie order must give the same reciprocal rank
    as the order we write, for every placement of the one relevant document."""
    pytrec_eval = pytest.importorskip("pytrec_eval")
    scores = {"d1": 0.5, "d3": 0.5, "d2": 0.5, "d10": 0.5, "e": 0.9}
    order = [doc for doc, _ in trec_order(scores)]
    assert order == ["e", "d3", "d2", "d10", "d1"]
    for relevant in scores:
        evaluator = pytrec_eval.RelevanceEvaluator({"q": {relevant: 1}}, {"recip_rank"})
        rr = evaluator.evaluate({"q": scores})["q"]["recip_rank"]
        assert rr == pytest.approx(1 / (order.index(relevant) + 1))


def test_write_rejects_unwritable(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="whitespace"):
        write_trec_run(tmp_path / "run.txt", {"q 1": {"d": 1.0}})
    with pytest.raises(ValueError, match="tag"):
        write_trec_run(tmp_path / "run.txt", {"q": {"d": 1.0}}, tag="my tag")
    assert not (tmp_path / "run.txt").exists()


@pytest.mark.parametrize("header", ["qid iter docno rel", "query-id Q0 corpus-id score"])
def test_a_trec_qrels_header_is_said_to_be_one(tmp_path: Path, header: str) -> None:
    # rn 8: it had said "field 'rel': expected an integer grade, found 'rel'"
    path = tmp_path / "qrels.trec"
    path.write_text(f"{header}\n301 0 D1 1\n", encoding="utf-8")
    with pytest.raises(FormatError) as info:
        read_trec_qrels(path)
    assert_names(info.value, path, 1, "header")
    # dr4 11: the position once, by FILE:LINE, not again as "line 1" in the words
    # dr7 8: and the header once, by the field, not again as "a header" in the words
    assert str(info.value) == (f"{path}:1: field 'header': column names "
                               f"({', '.join(header.split())}), not a judgment: TREC qrels name "
                               "no columns; delete the line")


def test_a_bad_grade_on_line_1_is_not_called_a_header(tmp_path: Path) -> None:
    path = tmp_path / "qrels.trec"
    path.write_text("301 0 D1 1.5\n", encoding="utf-8")
    with pytest.raises(FormatError) as info:
        read_trec_qrels(path)
    assert_names(info.value, path, 1, "rel")


def test_a_run_given_as_judgments_is_said_to_be_a_run(tmp_path: Path) -> None:
    # rn 5: it had said only "found 6 columns"
    from workbench.core.formats import read_qrels
    path = tmp_path / "out.trec"
    path.write_text("q1 Q0 d1 1 12.5 bm25\nq1 Q0 d2 2 11.0 bm25\n", encoding="utf-8")
    with pytest.raises(FormatError) as info:
        read_qrels(path)
    assert_names(info.value, path, 1, "columns")
    assert "this is a TREC run (qid Q0 docno rank score tag), not judgments" in str(info.value)
    assert "trec_eval or ir_measures" in str(info.value)
