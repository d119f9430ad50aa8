"""What tune and eval say of a run from a file an earlier run wrote on code-repo's tasks: the
set-aside clause only where the start's tasks were on the held-out side, in a note with no
parenthesis inside another (dr9 8); the start's own trial called the start (dr9 10)."""

from __future__ import annotations

import tomllib
from pathlib import Path

from tests.conftest import SAMPLES
from workbench.cli import main

REPO = str(SAMPLES / "code-repo")
WEIGHTS = ("w_keyword,w_centrality,w_churn,w_recent_touch,w_test_relevance,w_size_penalty,"
           "sufficiency")


def _nested(text: str) -> bool:
    """Whether `text` has a parenthesis inside another."""
    depth = 0
    for c in text:
        depth += (c == "(") - (c == ")")
        if depth > 1:
            return True
    return False


def _notes(out: str) -> list[str]:
    """The `note:` lines of `out`, each joined across its wrapped lines."""
    joined = " ".join(out.split("\n  "))
    return [line for line in joined.splitlines() if line.startswith("note:")]


def _tuned_on_older(capsys, tmp_path: Path) -> Path:
    """cl2.toml: a time split's --pick best run over the weights, tuned on the 6 older tasks."""
    path = tmp_path / "cl2.toml"
    assert main(["tune", REPO, "-m", "codeledger", "--time-split", "0.5", "--pick", "best",
                 "--metric", "ndcg@10", "--tune", WEIGHTS, "--trials", "30", "--seed", "1",
                 "--storage", str(tmp_path / "s.db"), "--out", str(path)]) == 0
    capsys.readouterr()
    return path


def _from(capsys, tmp_path: Path, start: Path, out: Path) -> str:
    """A short time-split run from `start` (the same split: its tasks on the training side)."""
    code = main(["tune", REPO, "-m", "codeledger", "--time-split", "0.5", "--metric", "ndcg@10",
                 "--tune", WEIGHTS, "--trials", "5", "--seed", "1", "--params", str(start),
                 "--storage", str(tmp_path / "s2.db"), "--out", str(out)])
    said = capsys.readouterr().out
    assert code == 0
    return said


def test_nothing_set_aside_is_not_said_and_eval_nests_no_parenthesis(capsys, tmp_path):
    """dr9 8: 'the 6 tasks the starting values were tuned on are kept off the held-out side, so
    6 are held out' where those 6 were the training side's already; and eval wrapped that
    validation, parentheses and all, in a parenthesis of its own."""
    start = _tuned_on_older(capsys, tmp_path)
    kept = tmp_path / "keep.toml"
    out = " ".join(_from(capsys, tmp_path, start, kept).split())
    assert "validation: time split (by date): 6 older tasks tune, 6 newer held out kept:" in out
    assert "kept off the held-out side" not in out
    validation = tomllib.loads(kept.read_text(encoding="utf-8"))["tuned"]["validation"]
    assert validation == "time split (by date): 6 older tasks tune, 6 newer held out"
    for params in (start, kept):
        assert main(["eval", REPO, "-m", "codeledger", "--params", str(params),
                     "--metrics", "ndcg@10"]) == 0
        notes = _notes(capsys.readouterr().out)
        assert ("note: evaluated on the 6 of 12 judged tasks no configuration was tuned on; on "
                "the others the tuned figures would be training scores (--all-queries counts "
                "all)") in notes
        how = ("time split (by date): 6 older tasks tune, 6 newer held out" if params == start
               else "its values were tuned by cl2.toml's run, on 6 tasks; its own run, time "
               "split (by date): 6 older tasks tune, 6 newer held out, only kept them")  # dJ 4
        assert f"note: '{params.name}' was tuned on 6 of these 12 — {how}" in notes
        assert not any(_nested(n) for n in notes), notes


def test_the_starts_own_trial_is_called_the_start(capsys, tmp_path):
    """dr9 10: 'the highest training ndcg@10, 0.7544 (trial 0), is what --pick best keeps',
    where --out's kept_trial says "start": one name, the start, and no parenthesis."""
    start = _tuned_on_older(capsys, tmp_path)
    kept = tmp_path / "keep.toml"
    out = " ".join(_from(capsys, tmp_path, start, kept).split())
    assert tomllib.loads(kept.read_text(encoding="utf-8"))["tuned"]["kept_trial"] == "start"
    assert ("for 6 training tasks); the highest training ndcg@10, 0.7544, is the start's, which "
            "--pick best keeps too") in out
    assert "trial 0" not in out


def test_one_query_set_aside_is_said_as_one(capsys, tmp_path):
    """'the 1 queries the starting values were tuned on are kept off the held-out side'."""
    start = tmp_path / "one.toml"
    start.write_text('[params]\nk1 = 2.5\n\n[tuned]\ndataset = "tea-beir"\nmetric = "ndcg@10"\n'
                     'model = "bm25"\ntrained_on = ["q01"]\n', encoding="utf-8")
    assert main(["tune", str(SAMPLES / "tea-beir"), "-m", "bm25", "--tune", "b", "--trials", "2",
                 "--folds", "3", "--params", str(start), "--storage", str(tmp_path / "s.db")]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert ("validation: 3-fold over 25 queries (seed 0); the 1 query the starting values were "
            "tuned on is kept off the held-out side, so 24 are held out") in out


def test_the_set_aside_count_is_of_those_moved_off_the_held_out_side():
    """dr3 5: of 6 held out, '7 kept off … so 5 are held out' counted the 6 on the training
    side already; 1 was moved."""
    import numpy as np

    from workbench.core.tuning.validation import holdout, set_aside

    train = np.array([True] * 6 + [False] * 6)
    v = holdout(train, ~train, "6 older tasks tune, 6 newer held out")
    prior = train.copy()
    prior[6] = True  # the start was tuned on the 6 older tasks and one newer one
    said = set_aside(v, prior, "tasks").describe
    assert said == ("6 older tasks tune, 6 newer held out; the 1 task the starting values were "
                    "tuned on is kept off the held-out side, so 5 are held out")


def test_the_starts_cases_are_counted_as_passing(capsys, tmp_path):
    """dr3 10: 'the highest training cases, 0.6667, is the start's' (a metric as a noun, a
    share where everything else counts 20/30)."""
    assert main(["tune", str(SAMPLES / "decisions-eval"), "-m", "decision-memory", "--folds",
                 "0", "--trials", "10", "--storage", str(tmp_path / "s.db")]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert ("the most training cases passing, 20/30, are the start's, which --pick best keeps "
            "too") in out
    assert "the highest training cases" not in out


def test_k_folds_held_out_line_says_the_datas_noun():
    """dr3 7: '(3-fold: each query scored by …)' beside '6 tasks'."""
    import math

    from workbench.core.tuned_on import TunedOn

    note = TunedOn("code-repo", "3-fold over 12 tasks (seed 0)", ("t1",), "ndcg@10", 0.6, 0.5,
                   math.nan, 12)
    assert "(3-fold: each task scored by the values its own fold tuned" in note.held_out_text()
    assert "each query" not in note.held_out_text()
