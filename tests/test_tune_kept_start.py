"""What `workbench tune` and the Tune tab say when the values kept are the starting values: the
folds' estimate is not blamed on "the tuned settings" (nothing tuned is written), and under
--pick best a best trial that is the start reads as the start kept, not as values tuned."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np

from tests.conftest import SAMPLES
from workbench.cli import main
from workbench.core.params import load_params_file

TEA = str(SAMPLES / "tea-beir")


def _kfold_kept_start(p_worse: bool, pick: str = "bound") -> Any:
    """A 2-fold result made by hand: the folds' kept trials lose on their held-out queries
    (by a clear margin, or within chance), while the study on every query kept the start."""
    from workbench.core.metrics.significance import paired_test
    from workbench.core.models import get_model
    from workbench.core.tuning import TuneSpec, kfold
    from workbench.core.tuning.runner import FoldResult, TuneResult
    from workbench.core.tuning.space import build_space

    n = 40
    validation = kfold(np.ones(n, bool), 2, seed=0)
    start = np.linspace(0.3, 0.9, n)
    # a clear loss on every query, or gains and losses that net a small loss
    tuned = start - 0.05 if p_worse else start + np.where(np.arange(n) % 2 == 0, 0.05, -0.06)
    folds = []
    for i, f in enumerate(validation.folds):
        held_t, held_d = np.full(n, np.nan), np.full(n, np.nan)
        held_t[f.test], held_d[f.test] = tuned[f.test], start[f.test]
        folds.append(FoldResult(f.name, "s", 10, {"k1": 2.0 + i}, (0.7,), (0.6,), held_t,
                                held_d, top=(3, 0.7), picked=3))
    final = FoldResult("all", "s", 10, {"k1": 1.2}, (0.6,), (0.6,), np.full(n, np.nan),
                       np.full(n, np.nan), kept_start=True, bound=0.0, top=(5, 0.62))
    space = build_space(get_model("bm25").schema, ["k1"])
    return TuneResult(TuneSpec(space, ("ndcg@10",), pick=pick), validation, {"k1": 1.2},
                      folds, final, paired_test(start, tuned))


def test_the_folds_estimate_is_not_blamed_on_tuned_settings_when_the_start_is_kept(
        capsys) -> None:
    from workbench.cli.tune_report import print_result
    from workbench.core.models import get_model

    for p_worse in (True, False):
        result = _kfold_kept_start(p_worse)
        assert (result.test.p_value < 0.05) is p_worse
        print_result(result, get_model("bm25"), ("ndcg@10",))
        out = capsys.readouterr().out
        assert "the tuned settings" not in out, out
        assert ("the values each fold tuned do worse than the starting values on queries they "
                "did not see" if p_worse else "the values each fold tuned score lower than the "
                "starting values on queries they did not see") in out
        assert "keeping the starting values, as the run did, is right" in out
        assert "keep the starting values, tune fewer" not in out  # advice for a change


def test_pick_best_whose_best_is_the_start_keeps_the_start_and_says_so(capsys,
                                                                      tmp_path: Path) -> None:
    # every trial at the start (k1's range is the start's one value): the best, trial 0, is
    # the start; it was reported as tuned ("tuned parameters written") with advice to keep
    # the starting values
    written = tmp_path / "best.toml"
    code = main(["tune", TEA, "-m", "bm25", "--tune", "k1", "--range", "k1=1.2:1.2",
                 "--trials", "3", "--folds", "2", "--pick", "best", "--storage",
                 str(tmp_path / "s.db"), "--out", str(written)])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "kept the starting values in 3 of 3 studies" in out
    assert "kept the starting values in 3 of 3 studies (fold 1 of 2, fold 2 of 2, all): " \
           "theirs is the highest training mean (--pick best)\n" in out
    assert ("on all the queries no trial scored better than the starting values, so the run "
            "kept the starting values: nothing changes") in out
    assert "tuned parameters written" not in out
    assert f"the starting values written to {written}" in out
    assert load_params_file(written) == {"k1": 1.2}
    assert "no trial scored better than the starting values" in written.read_text()


def test_pick_best_keeping_the_start_in_one_study_names_no_trial_number(capsys,
                                                                       tmp_path: Path) -> None:
    # dr9 10: "theirs is the highest training mean (--pick best) (ndcg@10 …, trial 0)", two
    # parentheses in a row, and "trial 0" where --out's kept_trial says "start"
    written = tmp_path / "best.toml"
    code = main(["tune", TEA, "-m", "bm25", "--tune", "k1", "--range", "k1=1.2:1.2",
                 "--trials", "3", "--folds", "0", "--pick", "best", "--storage",
                 str(tmp_path / "s.db"), "--out", str(written)])
    out, err = capsys.readouterr()
    assert code == 0, err
    line = next(ln for ln in out.splitlines() if ln.startswith("kept the starting values"))
    assert re.fullmatch(r"kept the starting values: theirs is the highest training mean, "
                        r"ndcg@10 \d\.\d{4} \(--pick best\)", line), line
    assert "trial 0" not in out
    assert 'kept_trial = "start"' in written.read_text()


def test_the_tune_tab_says_the_best_on_training_was_the_start() -> None:
    from workbench.gui.tune_results import verdict

    text = verdict(_kfold_kept_start(False, pick="best"), "ndcg@10")
    assert ("keep the starting values</b> — on all the queries no trial scored better than "
            "the starting values, so there is nothing to apply") in text
    # the start's, as the command line says, not a trial's number (dr3 10)
    # the headline says it was kept: not again, in bold (dr6 9)
    assert "the best on training, 0.6200, is the start's" in text
    assert text.count("kept the starting values") + text.count("keep the starting values") == 1
    assert "would likely not hold" not in text




def test_no_held_out_change_is_not_called_chance(capsys, tmp_path: Path) -> None:
    # every trial is the start (k1's range is its one value), so no held-out query changes:
    # it said "the difference may be chance" beside ▲0 ▼0
    written = tmp_path / "kept.toml"
    assert main(["tune", TEA, "-m", "bm25", "--tune", "k1", "--range", "k1=1.2:1.2",
                 "--trials", "3", "--folds", "2", "--storage", str(tmp_path / "s.db"),
                 "--out", str(written)]) == 0
    out = capsys.readouterr().out
    assert "▲0 ▼0 =25" in out
    assert "may be chance" not in out and "paired randomisation test" not in out
    assert "the 25 held-out queries score the same either way (▲0 ▼0): there is no " \
        "difference to test" in out


def test_pick_best_weighs_the_start_a_range_leaves_out(capsys, tmp_path: Path) -> None:
    # dI 1: k1's range 0–0.05 leaves the start (1.2) out, so no trial is the start; --pick
    # best kept trial 0 (0.5843) as "the highest training mean" while the start scored 0.6131
    written = tmp_path / "best.toml"
    code = main(["tune", TEA, "-m", "bm25", "--tune", "k1", "--range", "k1=0:0.05",
                 "--trials", "4", "--folds", "0", "--pick", "best", "--storage",
                 str(tmp_path / "s.db"), "--out", str(written)])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "kept trial" not in out
    line = next(ln for ln in out.splitlines() if ln.startswith("kept the starting values"))
    row = next(ln for ln in out.splitlines() if ln.startswith("ndcg@10 training"))
    default, tuned, delta = row.split()[-3:]
    assert (tuned, delta) == (default, "+0.0000"), row
    # the figure said is the start's (the defaults column), not the top trial's
    assert line == ("kept the starting values: theirs is the highest training mean, "
                    f"ndcg@10 {default} (--pick best)"), (line, row)
    assert load_params_file(written) == {"k1": 1.2}
    assert 'kept_trial = "start"' in written.read_text()


def test_the_surest_gain_says_the_start_out_of_range_is_what_pick_best_keeps(
        capsys, tmp_path: Path) -> None:
    # dI 1: "the highest training ndcg@10, 0.5839 (trial 0), is what --pick best keeps",
    # while --pick best keeps the start, which scores higher
    code = main(["tune", TEA, "-m", "bm25", "--tune", "k1", "--range", "k1=0:0.05",
                 "--trials", "4", "--folds", "0", "--storage", str(tmp_path / "s.db")])
    out, err = capsys.readouterr()
    assert code == 0, err
    row = next(ln for ln in out.splitlines() if ln.startswith("ndcg@10 training"))
    assert (f"the highest training ndcg@10, {row.split()[-3]}, is the start's, which --pick "
            "best keeps too") in " ".join(out.split()), out
    assert "is what --pick best keeps" not in out


def test_the_tune_tab_gives_the_start_s_figure_where_it_beats_every_trial() -> None:
    # dI 1: the start, left out of the range, scores above every trial: the figure said is
    # the start's (the kept values' training mean), not the top trial's lower one
    from dataclasses import replace

    from workbench.gui.tune_results import verdict

    result = _kfold_kept_start(False, pick="best")
    final = replace(result.final, train_best=(0.6131,), top=(0, 0.5843), top_start=True)
    text = verdict(replace(result, final=final), "ndcg@10")
    assert "the best on training, 0.6131, is the start's" in text
    assert "0.5843" not in text


def test_every_study_that_kept_the_start_is_counted_with_its_reason(capsys,
                                                                   tmp_path: Path) -> None:
    # dI 6: k1's range leaves the start out and ndcg@10 >= 0.6 holds only near it, so every
    # study keeps the starting values (▲0 ▼0: every held-out query scores as the start), but
    # "kept the starting values in 2 of 6 studies" counted only those with no sure gain
    code = main(["tune", TEA, "-m", "bm25", "--tune", "k1", "--range", "k1=0:0.05",
                 "--constraint", "ndcg@10>=0.6", "--metric", "r@100", "--trials", "8",
                 "--storage", str(tmp_path / "s.db")])
    out, err = capsys.readouterr()
    assert code == 0, err
    said = " ".join(out.split())
    assert "▲0 ▼0 =25" in said
    counts = re.findall(r"kept the starting values in (\d+)(?: more)? of (?:the )?6 studies "
                        r"\([^)]*\): ([^;(]*)", said)
    assert sum(int(n) for n, _ in counts) == 6, counts
    assert any(why.startswith("no trial met the constraints on their training queries")
               for _, why in counts), counts


def test_one_study_that_kept_the_start_for_the_constraints_says_so_under_the_table(
        capsys, tmp_path: Path) -> None:
    # dI 7: with --folds 0 the reason came only in the closing "written to" line
    code = main(["tune", TEA, "-m", "bm25", "--tune", "k1", "--range", "k1=0:0.05",
                 "--constraint", "ndcg@10>=0.6", "--metric", "r@100", "--trials", "8",
                 "--folds", "0", "--storage", str(tmp_path / "s.db")])
    out, err = capsys.readouterr()
    assert code == 0, err
    body = out.split("constraint (training mean)")[0]
    assert "kept the starting values: no trial met the constraints, and the starting values " \
        "do" in " ".join(body.split()), out


def test_the_tune_tab_says_which_values_were_put_back_to_the_start() -> None:
    # dI 5: the chart marks trial 3 kept, its draws on the slice chart, while the table shows
    # the start's values where the training score tied: nothing said why
    from dataclasses import replace

    from workbench.gui.tune_results import verdict

    result = _kfold_kept_start(False)
    final = replace(result.final, kept_start=False, picked=3, top=(3, 0.62),
                    put_back={"b": 0.9, "k1": 2.5})
    text = verdict(replace(result, final=final), "ndcg@10")
    assert "2 of trial 3's values put back to the start (b, k1): the training nDCG@10 is " \
        "the same with the start's as with the trial's draws (a tie goes to the start)" \
        in text, text
