"""`rank` chooses its score column's decimals as the window does (`score_decimals`), over
the model's scores, not the rows printed (rv 4): a decision-memory query whose one result
scores 1 had printed 1.0000 where the window shows 1, as decision-memory's other scores (54)."""

from __future__ import annotations

from pathlib import Path

import pytest

from workbench.cli import main

DECISIONS = Path(__file__).resolve().parents[1] / "sample_corpora" / "decisions"


def _rows(out: str) -> list[list[str]]:
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("----")) + 1
    end = next((i for i in range(start, len(lines)) if not lines[i][:4].strip().isdigit()),
               len(lines))  # the table, not the snippets under it
    return [line.split() for line in lines[start:end]]


def test_a_decision_memory_query_scoring_one_prints_it_whole(
        capsys: pytest.CaptureFixture[str]) -> None:
    # "hello" matches one word of qm-025 once in a manual search: lexical 1, nothing else
    assert main(["rank", str(DECISIONS), "-m", "decision-memory", "-q", "hello",
                 "-p", "mode=search"]) == 0
    rows = _rows(capsys.readouterr().out)
    assert [(r[1], r[-2], r[-1]) for r in rows] == [("qm-025", "1", "1")]


def test_a_decision_memory_query_scoring_more_still_prints_whole(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rank", str(DECISIONS), "-m", "decision-memory", "-q", "tera",
                 "-p", "mode=search"]) == 0
    rows = _rows(capsys.readouterr().out)
    assert [(r[1], r[-7]) for r in rows] == [("qm-004", "35"), ("qm-005", "19")]


TEA = Path(__file__).resolve().parents[1] / "sample_corpora" / "tea-beir"


def test_a_score_past_one_prints_to_the_windows_places(
        capsys: pytest.CaptureFixture[str]) -> None:
    # rv2 3: bm25's 2.3426 printed to 4 decimals where the window's ranked table shows
    # about four significant digits, 2.343; its one contribution (bm25) beside it alike
    assert main(["rank", str(TEA), "-m", "bm25", "--query-id", "q01", "--top", "3"]) == 0
    rows = _rows(capsys.readouterr().out)
    assert rows[0][1] == "d030"
    assert (rows[0][-3], rows[0][-1]) == ("2.343", "2.343")
    assert all(len(r[-1].partition(".")[2]) == 3 for r in rows)


def test_whole_scores_print_their_contributions_to_the_previews_places(
        capsys: pytest.CaptureFixture[str]) -> None:
    # rv53 dH 2: beside decision-memory's whole 65, lexical 52.157266 and rounding −0.157266
    # (rank --format json) had printed 52.1573 and -0.1573 where the window's preview writes
    # "lexical 52.16 … rounding −0.16" (two places beside a score of 10 to 99); the score
    # itself and the whole terms stay whole
    assert main(["rank", str(DECISIONS), "-m", "decision-memory", "--query-id", "turn-1",
                 "--top", "3"]) == 0
    rows = _rows(capsys.readouterr().out)
    assert [(r[1], r[-8], r[-7], r[-6], r[-1]) for r in rows] == [
        ("qm-011", "65", "52.16", "6", "-0.16"), ("qm-014", "41", "32.50", "6", "0.50")]


def test_fractional_scores_print_every_row_to_the_windows_places(
        capsys: pytest.CaptureFixture[str]) -> None:
    # bm25 2.342562, 2.309913, 2.302268 (rank --format json): four significant digits of the
    # largest, 3 places, for the score and its one term alike
    assert main(["rank", str(TEA), "-m", "bm25", "--query-id", "q01", "--top", "3"]) == 0
    rows = _rows(capsys.readouterr().out)
    # score and bm25, the two decimal cells of each row (rel, where given, is whole)
    assert [(r[1], *[c for c in r[2:] if "." in c]) for r in rows] == [
        ("d030", "2.343", "2.343"), ("d148", "2.310", "2.310"), ("d146", "2.302", "2.302")]
