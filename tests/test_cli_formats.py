"""One format per kind of figure across commands (review E, F6): results per query to two
decimals in eval and tune alike, a metric to four in eval and the demo, a p-value to three
decimals in sweep, tune and compare."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import SAMPLES
from workbench.cli import main
from workbench.textout import p_equals

VAULT = str(SAMPLES / "vault")


def test_results_per_query_read_the_same_in_eval_and_tune(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["eval", VAULT, "-m", "vault-search", "-p", "min_score=0.4", "--metrics",
                 "ndcg@10,results"]) == 0
    row = next(line.split() for line in capsys.readouterr().out.splitlines()
               if line.startswith("results "))
    assert re.fullmatch(r"\d+\.\d\d", row[1])
    assert main(["tune", VAULT, "-m", "vault-search", "--folds", "0", "--tune", "w_tf",
                 "--trials", "3", "-p", "min_score=0.4", "--constraint", "results>=0.5",
                 "--storage", str(tmp_path / "s.db")]) == 0
    start = next(line.split() for line in capsys.readouterr().out.splitlines()
                 if line.startswith("results >= 0.5"))
    assert start[3] == row[1]  # the starting values' mean: eval's figure, as eval prints it


def test_the_demo_prints_metrics_as_eval_does(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo"]) == 0
    out = capsys.readouterr().out.split("\ncode-repo:")[1]
    assert re.search(r"^ndcg@10\s+0\.\d{4}$", out, re.M)
    assert re.search(r"^p@10\s+0\.\d{4}$", out, re.M)  # p@10, as eval; not p@5
    assert "p@5" not in out


@pytest.mark.parametrize(("p", "text"), [(0.38214, "p = 0.382"), (1.0, "p = 1.000"),
                                         (0.0014, "p = 0.001"), (0.0004, "p < 0.001"),
                                         (float("nan"), "p = —")])
def test_a_p_value_is_said_to_three_decimals(p: float, text: str) -> None:
    assert p_equals(p) == text
