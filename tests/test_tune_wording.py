"""`workbench tune`'s plan, errors and notes: what it will do said before it does it, and each
refusal in one line naming the option given."""

from __future__ import annotations

from pathlib import Path

import pytest

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


def _tune(capsys, tmp_path: Path, *extra: str, data: str = TEA) -> tuple[int, str, str]:
    code = main(["tune", data, "-m", "bm25", "--storage", str(tmp_path / "s.db"), *extra])
    out, err = capsys.readouterr()
    return code, out, err


def _refused(capsys, tmp_path: Path, *extra: str, data: str = TEA) -> str:
    """The one line a refused run prints; no study made."""
    code, out, err = _tune(capsys, tmp_path, *extra, data=data)
    assert code == 2 and out == "", out
    assert len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "s.db").exists()
    return err.strip()


def test_folds_1_is_refused_naming_0_too(capsys, tmp_path: Path) -> None:
    # the help offers "0 = no held-out score"; the error said only "at least 2"
    err = _refused(capsys, tmp_path, "--folds", "1")
    assert "--folds must be at least 2 (or 0: tune with no held-out score), got 1" in err


def test_too_few_queries_for_the_default_folds_says_what_to_ask(capsys, tmp_path: Path) -> None:
    # "5 folds need at least 5 judged queries; there are 3": 5 was never asked for
    import shutil

    for n in (3, 1):
        data = tmp_path / f"tiny{n}"
        shutil.copytree(SAMPLES / "tea-beir", data)
        keep = {f"q{i:02d}" for i in range(1, n + 1)}
        qrels = data / "qrels" / "test.tsv"
        rows = qrels.read_text().splitlines()
        qrels.write_text("\n".join([rows[0], *(r for r in rows[1:]
                                                if r.split("\t")[0] in keep)]) + "\n")
        err = _refused(capsys, tmp_path, "--trials", "1", data=str(data))
        if n == 3:
            assert ("k-fold, the default, takes 5 folds, and there are 3 judged queries: give "
                    "--folds 3 for 3 folds, or --folds 0 to tune with no held-out score") in err
        else:
            assert ("k-fold, the default, takes 5 folds, and there is 1 judged query: give "
                    "--folds 0 to tune with no held-out score") in err


def test_split_beside_train_and_test_splits_is_refused(capsys, tmp_path: Path) -> None:
    # --split train was read by neither and dropped without a word
    from tests.test_tune_starts import two_splits

    data = str(two_splits(tmp_path / "sp"))
    for split in (["--split", "train"], ["--split=test"]):
        err = _refused(capsys, tmp_path, *split, "--train-split", "train", "--test-split",
                       "test", data=data)
        assert "and --train-split/--test-split: the two splits tuned on and held out are named " \
               "by --train-split and --test-split; leave out --split" in err


def test_qrels_beside_train_and_test_splits_names_the_options_given(capsys,
                                                                    tmp_path: Path) -> None:
    # the error named "--split train", which was never typed
    from tests.test_tune_starts import two_splits

    data = two_splits(tmp_path / "sp")
    err = _refused(capsys, tmp_path, "--qrels", str(data / "qrels" / "test.tsv"),
                   "--train-split", "train", "--test-split", "test", data=str(data))
    assert "--train-split train and --qrels: the judgments come from --qrels" in err
    assert "--split " not in err


def test_a_range_outside_the_parameter_names_the_range(capsys, tmp_path: Path) -> None:
    err = _refused(capsys, tmp_path, "--tune", "k1", "--range", "k1=5:9")
    assert "--range k1=5:9: parameter k1 must be a number in [0, 3], got 5.0" in err


def test_a_range_of_one_value_is_said_to_fix_it(capsys, tmp_path: Path) -> None:
    code, out, err = _tune(capsys, tmp_path, "--tune", "k1,b", "--range", "k1=1.5:1.5",
                           "--trials", "2", "--folds", "0")
    assert code == 0, err
    assert ("note: --range leaves k1 one value, 1.5: every trial takes it, so it is fixed, not "
            "tuned (-p k1=1.5 fixes it without a search dimension)") in out
    assert "--range leaves b" not in out


def test_a_metric_named_twice_is_refused(capsys, tmp_path: Path) -> None:
    # accepted as a two-objective Pareto run of one metric
    err = _refused(capsys, tmp_path, "--metric", "ndcg@10,NDCG@10")
    assert "--metric names ndcg@10 twice: give each objective once" in err


@pytest.mark.parametrize(("metric", "named"), [
    ("map,map@1000", "map"), ("r,R@1000", "r"), ("mrr@1000,RR", "mrr@1000")])
def test_a_bare_metric_and_its_cut_at_1000_are_named_twice(
        capsys, tmp_path: Path, metric: str, named: str) -> None:
    # map reads the first 1,000 results, the very figure of map@1000: a Pareto study of one
    # figure against itself had run (dr7 3)
    err = _refused(capsys, tmp_path, "--metric", metric)
    assert f"--metric names {named} twice: give each objective once" in err


def test_fresh_kept_by_the_storage_is_not_said_deleted(monkeypatch) -> None:
    # a server that refused the delete (a foreign key: another process writing) was said to
    # have had the study deleted
    import optuna
    import pytest

    from workbench.core.tuning import runner
    from workbench.core.tuning.lock import Busy

    monkeypatch.setattr(optuna, "delete_study", lambda **_: None)  # returns, deletes nothing
    monkeypatch.setattr(optuna, "get_all_study_names", lambda storage: ["s/all"])
    with pytest.raises(Busy) as caught:
        runner._delete(object(), ["s/all"])
    said = str(caught.value)
    assert "deleted it" not in said
    assert "study 's/all' is still stored: --fresh asked to delete it, and the storage kept " \
           "it (another process is tuning it)" in said


def test_a_default_search_left_with_nothing_is_refused_not_widened(
        capsys, tmp_path: Path, monkeypatch) -> None:
    # every default parameter idle on the data left an empty list, which build_space took
    # for "the default set": the run searched what the plan had just listed as left out
    import pytest

    from workbench.core.models import get_model
    from workbench.core.params import ParamError
    from workbench.core.tuning import space

    with pytest.raises(ParamError, match="no parameter to tune"):
        space.build_space(get_model("codeledger").schema, [])
    monkeypatch.setattr(space, "idle_names", lambda schema, names, params: {
        n: "no effect while a test says so" for n in names})
    err = _refused(capsys, tmp_path, "--trials", "1")
    assert ("nothing to tune: no score on tea-beir moves with any parameter bm25's default "
            "search takes (k1, b, variant: no effect while a test says so); --tune names "
            "parameters to search anyway") in err
