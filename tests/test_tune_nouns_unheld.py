"""tune in the data's own noun where it holds nothing out (repository tasks) and where it folds
an eval fixture's cases, as the rest of tune and the Tune tab say them."""

from __future__ import annotations

from tests.conftest import SAMPLES
from workbench.cli import main


def test_a_run_that_holds_nothing_out_says_tasks(capsys, tmp_path):
    out_file = tmp_path / "n.toml"
    # a trial's values (the start out of range, --pick best): a start kept unchanged is tuned
    # on no query (rv 6), and this test is of values tuned on every task; under nDCG@10, as
    # every trial ties the start's training bundle recall (1.0), and a tie keeps the start
    # (dI 1)
    assert main(["tune", str(SAMPLES / "code-repo"), "-m", "codeledger", "--folds", "0",
                 "--tune", "w_keyword", "--range", "w_keyword=2:5", "--pick", "best",
                 "--metric", "ndcg@10",
                 "--trials", "3", "--storage", str(tmp_path / "s.db"),
                 "--out", str(out_file)]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "validation: tuned on all 12 tasks, none held out" in out
    assert ("eval, compare and report on code-repo count every task and say their figures are "
            "training scores; no figure estimates how they do on new tasks (no task was held "
            "out)") in out
    assert "quer" not in out.replace("per-query", "")
    assert 'validation = "tuned on all 12 tasks, none held out"' in out_file.read_text()


def test_k_fold_over_cases_says_cases(capsys, tmp_path):
    """The Tune tab's footer (the validation) read '3-fold over 30 queries' under cases."""
    assert main(["tune", str(SAMPLES / "decisions-eval"), "-m", "decision-memory", "--folds",
                 "3", "--tune", "bonus_cwd", "--trials", "2", "--storage",
                 str(tmp_path / "s.db")]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "validation: 3-fold over 30 cases (seed 0)" in out
    assert "× 4 studies (3 folds, then all cases)" in out
