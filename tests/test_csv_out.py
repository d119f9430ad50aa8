"""CSV exports: a cell a spreadsheet would run as a formula is written as text."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from workbench.cli import main
from workbench.core.csv_out import csv_text, safe_cell


def test_formula_cells_get_an_apostrophe_and_numbers_do_not() -> None:
    assert safe_cell('=HYPERLINK("http://x")') == '\'=HYPERLINK("http://x")'
    assert [safe_cell(v) for v in ("+1+2", "-A1", "@SUM(A1)", "\t=1")] == \
        ["'+1+2", "'-A1", "'@SUM(A1)", "'\t=1"]
    assert [safe_cell(v) for v in ("-0.5", "-3", 7, -2.5, "plain", "")] == \
        ["-0.5", "-3", 7, -2.5, "plain", ""]
    rows = list(csv.reader(io.StringIO(csv_text(["id", "title"], [["d1", "=1+1, x"]]))))
    assert rows == [["id", "title"], ["d1", "'=1+1, x"]]


def test_per_query_csv_of_a_query_id_that_is_a_formula(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "beir"
    (folder / "qrels").mkdir(parents=True)
    (folder / "corpus.jsonl").write_text(json.dumps({"_id": "d1", "text": "green tea"}) + "\n")
    (folder / "queries.jsonl").write_text(json.dumps({"_id": "=1+1", "text": "tea"}) + "\n")
    (folder / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\n=1+1\td1\t1\n")
    assert main(["eval", str(folder), "-m", "bm25", "--per-query", "-"]) == 0
    out = capsys.readouterr().out
    assert "\n'=1+1," in out


def test_per_query_csv_on_standard_output_is_only_the_csv(
        capsys: pytest.CaptureFixture[str]) -> None:
    from tests.conftest import SAMPLES

    assert main(["eval", str(SAMPLES / "tea-beir"), "-m", "bm25", "--metrics", "ndcg@10,r@100",
                 "--per-query", "-"]) == 0
    captured = capsys.readouterr()
    rows = list(csv.reader(io.StringIO(captured.out)))
    assert rows[0] == ["query_id", "ndcg@10", "r@100"]
    assert len(rows) == 26 and all(len(r) == 3 for r in rows)  # 25 queries, nothing else
    assert "25 judged queries" in captured.err and "ndcg@10" in captured.err  # the summary
