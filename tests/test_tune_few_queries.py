"""The surest-gain pick on tiny training sets (review b, finding 2): a study that tunes on one
query keeps the starting values (one gain has no spread, so no bound), the plan says so before
the run, and no report says "or more at 2 standard errors" of a bound taken otherwise."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.conftest import SAMPLES
from workbench.cli import main


def _judged(tmp_path: Path, ids: tuple[str, ...]) -> Path:
    """tea-beir with only `ids` judged."""
    folder = tmp_path / "few"
    shutil.copytree(SAMPLES / "tea-beir", folder)
    qrels = folder / "qrels" / "test.tsv"
    lines = qrels.read_text().splitlines()
    qrels.write_text("\n".join([lines[0], *(r for r in lines[1:]
                                            if r.split("\t")[0] in ids)]) + "\n")
    return folder


def test_one_training_query_keeps_the_start_and_says_why(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    data = _judged(tmp_path, ("q01", "q02"))
    assert main(["tune", str(data), "-m", "bm25", "--trials", "12", "--folds", "2",
                 "--storage", str(tmp_path / "s.db")]) == 0
    out = capsys.readouterr().out
    # 2 folds over 2 queries: each fold tunes on one
    assert "note: each fold tunes on a single query" in out
    assert ("kept the starting values in 2 of 3 studies (fold 1 of 2, fold 2 of 2): each "
            "tunes on a single query") in out
    assert "fold 1 of 2: kept trial" not in out and "fold 2 of 2: kept trial" not in out
    assert "or more at 2 standard errors" not in out


def test_the_plan_says_the_standard_errors_it_takes_once_with_their_number(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Review E, F12 and review dr3, 9: the multiplier is named (Student's t at the normal's
    2σ level, df = n − 1: 4.54 for 3 queries, 2.65 for 6 — a t table), once per place, with
    no "Student's t" jargon; a note on every fold says "each fold", and "only when"."""
    data = _judged(tmp_path, ("q01", "q02", "q03", "q04", "q05", "q06"))
    assert main(["tune", str(data), "-m", "bm25", "--trials", "6", "--folds", "2",
                 "--storage", str(tmp_path / "s.db")]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert ("less 4.5 standard errors for 3 training queries, down to 2.6 for 6)") in out
    assert ("note: each fold tunes on 3 queries: a gain counts as sure there only when its "
            "mean is 4.5 standard errors above 0") in out
    assert "Student's t" not in out and "more for few queries" not in out
