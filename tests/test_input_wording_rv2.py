"""Small wording items of bad input (rv2 16): a query file that is not there is said to be
missing, not of the wrong kind; an empty TREC qrels file is named by TREC's column, not BEIR's;
an inline table given for a parameter names its line."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import SAMPLES
from workbench.cli import main

TEA = str(SAMPLES / "tea-beir")


def _error(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(list(argv)) == 2
    out, err = capsys.readouterr()
    assert out == ""
    return err.strip()


def test_a_query_file_not_there_is_no_such_file(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    # it said "expected a .jsonl, .csv or .tsv file" of a name without a suffix
    gone = tmp_path / "queries"
    err = _error(capsys, "eval", TEA, "-m", "bm25", "--queries", str(gone))
    assert err.endswith(f"error: {gone}: no such file")
    gone.write_text("q1 tea\n")  # there, of no kind read: still said so
    err = _error(capsys, "eval", TEA, "-m", "bm25", "--queries", str(gone))
    assert err.endswith(f"{gone}: expected a .jsonl, .csv or .tsv file")


def test_an_empty_trec_qrels_file_names_trec_s_column(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    trec = tmp_path / "empty.qrels"
    trec.write_text("")
    err = _error(capsys, "eval", TEA, "-m", "bm25", "--qrels", str(trec))
    assert err.endswith(f"{trec}:1: field 'qid': empty file: expected at least one judgment")
    tsv = tmp_path / "empty.tsv"  # BEIR's: its own column
    tsv.write_text("")
    err = _error(capsys, "eval", TEA, "-m", "bm25", "--qrels", str(tsv))
    assert err.endswith(f"{tsv}:1: field 'query-id': empty file: expected at least one "
                        "judgment")


def test_an_inline_table_for_a_parameter_names_its_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    params = tmp_path / "inline.toml"
    params.write_text("# tuned by hand\n[params]\nb = 0.5\nk1 = {a = 1}\n")
    err = _error(capsys, "eval", TEA, "-m", "bm25", "--params", str(params))
    assert err.endswith(f"{params}:4: field 'k1': expected a value, found a table")
