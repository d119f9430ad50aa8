"""A selection cut-off (a min score, a limit) drops the end of each ranking, so a ranking
metric can only stay or fall with it: `tune`'s default search on one leaves the cut-offs out,
keeps them for objectives a cut can help, and its "tune only what it can set" advice says so
when the target can set nothing else (reviewer A, F5: vault-search searched Min score over
[0, 2], 28 of 240 trials scored 0, and the advice was `--tune min_score`)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.conftest import SAMPLES
from workbench.cli import main
from workbench.core.formats import load_dataset
from workbench.core.models import get_model
from workbench.core.tuning import Evaluator
from workbench.core.tuning.space import cut_offs

RANKING = ["ndcg@10", "mrr@10", "p@10", "r@10", "map@100"]


@pytest.mark.parametrize(("sample", "model", "cut", "loosest", "tighter"), [
    ("vault", "vault-search", "min_score", 0.0, [0.1, 0.3, 0.5, 0.8, 1.2]),
    ("decisions-eval", "decision-memory", "inject_min_score", 0.0, [2.0, 8.0, 20.0]),
    ("vault", "vault-search", "limit", 0, [1, 3, 5]),
    ("memories", "importance", "limit", 0, [1, 3, 5]),
])
def test_a_cut_raises_a_ranking_metric_of_no_query_but_by_splitting_a_tie(
        sample: str, model: str, cut: str, loosest: float, tighter: list[float]) -> None:
    """What `cut_offs` rests on, per query and on each model that has a cut-off: a tighter
    value scores at most what the loosest does, but where a limit splits documents of equal
    score, which the metrics order as trec_eval does (by id), not as the model cut them
    (importance's q13 at limit 3: m40 kept, m48 of the same score dropped)."""
    ev = Evaluator(get_model(model), load_dataset(SAMPLES / sample), {}, RANKING)
    top = ev.run({cut: loosest})
    for value in tighter:
        got = ev.run({cut: value})
        for name in RANKING:
            was, now = top.per_query[name], got.per_query[name]
            for q in np.flatnonzero(now > was + 1e-12):
                assert "limit" in cut, (name, value, q)
                n = int(value)
                scores = top.ranking.scores[q]
                assert scores[n - 1] == scores[n], (name, value, q)  # a tie split


def test_cut_offs_only_for_ranking_objectives() -> None:
    names = ["w_tf", "min_score", "limit", "inject_min_score", "search_limit"]
    assert set(cut_offs(names, ["ndcg@10"])) == {"min_score", "limit", "inject_min_score",
                                                  "search_limit"}
    assert set(cut_offs(names, ["mrr@10", "r@100", "map@100", "p@5"])) == set(cut_offs(
        names, ["ndcg@10"]))
    assert "can only lower nDCG@10" in cut_offs(names, ["ndcg@10"])["min_score"]
    # a cut can pass a case (a forbidden id dropped), shrink a bundle, cost fewer tokens, and
    # raise judged@k (judged / retrieved): kept
    for kept in (["cases"], ["results"], ["injected_tokens"], ["bundle_precision"],
                 ["bundle_f1"], ["judged@10"], ["ndcg@10", "injected_tokens"]):
        assert cut_offs(names, kept) == {}, kept
    assert cut_offs(names, []) == {}


def _tune(capsys: pytest.CaptureFixture[str], tmp_path: Path, sample: str, model: str,
          *extra: str) -> str:
    assert main(["tune", str(SAMPLES / sample), "-m", model, "--trials", "1", "--folds", "0",
                 "--storage", str(tmp_path / "s.db"), *extra]) == 0
    return capsys.readouterr().out


def _plan(out: str) -> str:
    return next(line for line in out.splitlines() if line.startswith("tuning "))


def test_the_default_vault_search_leaves_min_score_out_and_says_nothing_settable_gains(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = _tune(capsys, tmp_path, "vault", "vault-search")
    assert "min_score" not in _plan(out) and "w_tf" in _plan(out)
    assert ("left out, a cut-off: min_score (a cut drops the end of each ranking, which can "
            "only lower nDCG@10, so the loosest value scores best)") in out
    assert "--tune min_score" not in out
    assert ("What it can set is a cut-off, min_score (a cut drops the end of each ranking, "
            "which can only lower nDCG@10, so the loosest value scores best): no setting of "
            "obsidian-mcp can raise the score, and a gain tuned here ships only as a change to "
            "its code") in out


def test_named_or_with_a_cost_the_cut_off_is_searched(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = _tune(capsys, tmp_path, "vault", "vault-search", "--constraint",
                "injected_tokens<=500")
    assert "min_score [0, 2]" in _plan(out) and "left out, a cut-off" not in out
    assert "To tune only what it can set: --tune min_score" in out
    out = _tune(capsys, tmp_path, "vault", "vault-search", "--tune", "w_tf,min_score",
                "--fresh")
    assert "min_score [0, 2]" in _plan(out)
    assert ("note: a cut-off searched because named: min_score (a cut drops the end of each "
            "ranking") in out
    assert "--tune min_score" not in out  # still nothing settable that gains


def test_decision_memory_keeps_its_inject_min_score_for_cases_only(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = _tune(capsys, tmp_path, "decisions-eval", "decision-memory")
    assert "inject_min_score [0, 1000]" in _plan(out)
    assert "To tune only what it can set: --tune inject_min_score" in out
    out = _tune(capsys, tmp_path, "decisions-eval", "decision-memory", "--metric", "ndcg@10",
                "--fresh")
    assert "inject_min_score" not in _plan(out)
    assert "left out, a cut-off: inject_min_score" in out


def test_a_default_search_of_cut_offs_alone_is_refused_with_why(
        capsys: pytest.CaptureFixture[str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    from workbench.core import tuning

    monkeypatch.setattr(tuning, "model_names", lambda model: ["min_score"])
    code = main(["tune", str(SAMPLES / "vault"), "-m", "vault-search", "--trials", "1",
                 "--folds", "0", "--storage", str(tmp_path / "s.db")])
    assert code != 0
    err = capsys.readouterr().err
    assert ("nothing to tune: vault-search's default search on vault leaves every parameter "
            "out (min_score: a cut drops the end of each ranking") in err
