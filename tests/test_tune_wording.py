"""`workbench tune`'s plan, errors and notes: what it will do said before it does it, and each
refusal in one line naming the option given."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import SAMPLES
from workbench.cli import main

TEA = str(SAMPLES / "tea-beir")


def test_the_plan_says_how_many_studies_and_trials_will_run(capsys, tmp_path: Path) -> None:
    # "3 trials per study" after 4 were stored (none ran, the result came from the 4), and
    # never how many studies k-fold runs
    def plan(trials: str) -> str:
        code = main(["tune", TEA, "-m", "bm25", "--tune", "k1", "--folds", "3", "--pick",
                     "best", "--trials", trials, "--storage", str(tmp_path / "s.db")])
        out, err = capsys.readouterr()
        assert code == 0, err
        return next(line for line in out.splitlines() if line.startswith("objective: "))

    assert plan("4").endswith(", 4 trials per study × 4 studies (3 folds, then all queries) "
                              "= 16")
    assert plan("3").endswith(", 3 trials per study × 4 studies (3 folds, then all queries) "
                              "= 12; 16 stored already by an earlier run, every one used: "
                              "none will run new (--trials is a study's total: a larger one "
                              "runs the difference)")
    assert plan("5").endswith("= 20; 16 stored already by an earlier run, 4 will run new")
