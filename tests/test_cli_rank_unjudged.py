"""`rank`/`explain --query-id` of a query in queries.jsonl that no judgment names: ranked (the
loading leaves it out of the judged set, yet ranking needs no judgments) (reviewer e, F2)."""

from __future__ import annotations

from pathlib import Path

import pytest

from workbench.cli import main


def _beir(tmp_path: Path) -> Path:
    """Two documents, two queries; qrels/test.tsv judges q1 only."""
    folder = tmp_path / "b"
    (folder / "qrels").mkdir(parents=True)
    (folder / "corpus.jsonl").write_text(
        '{"_id": "d1", "title": "", "text": "green tea leaves"}\n'
        '{"_id": "d2", "title": "", "text": "black coffee beans"}\n', encoding="utf-8")
    (folder / "queries.jsonl").write_text(
        '{"_id": "q1", "text": "tea"}\n{"_id": "q2", "text": "coffee beans"}\n',
        encoding="utf-8")
    (folder / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\nq1\td1\t1\n",
                                               encoding="utf-8")
    return folder


@pytest.mark.parametrize("command", ["rank", "explain"])
def test_an_unjudged_query_of_the_file_is_ranked(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str) -> None:
    assert main([command, str(_beir(tmp_path)), "-m", "bm25", "--query-id", "q2"]) == 0
    out, err = capsys.readouterr()
    assert "coffee beans" in out and "d2" in out  # q2's text, its one matching document
    assert "note: query 'q2' has no judgments in split test: ranked without them" in err


def test_an_id_in_no_file_is_still_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rank", str(_beir(tmp_path)), "-m", "bm25", "--query-id", "q9"]) == 2
    assert "no query with id 'q9'" in capsys.readouterr().err
