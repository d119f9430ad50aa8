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
