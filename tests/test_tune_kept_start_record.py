"""A run that keeps its starting values unchanged fitted them on no query (rv 6): `--out` had
written `trained_on` = every query, so eval with the file called all its figures training
scores while eval with the same values and no file said nothing, and a later tune from the
file found no held-out query. The start's own record (a tuned file) is kept; values a
constraint moved (`start_moved`, chosen on the training queries) still count as tuned on."""

from __future__ import annotations

import tomllib
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from tests.conftest import SAMPLES
from workbench.cli import main
from workbench.core.tuned_on import TunedOn, of_result

TEA = str(SAMPLES / "tea-beir")
KEPT = ["-m", "bm25", "--tune", "k1", "--range", "k1=1.2:1.2", "--trials", "3", "--folds", "2"]


def _tune(tmp_path: Path, capsys: pytest.CaptureFixture[str], out: Path,
          *more: str) -> tuple[dict, str]:
    code = main(["tune", TEA, *KEPT, "--storage", str(tmp_path / "s.db"), "--fresh",
                 "--out", str(out), *more])
    said, err = capsys.readouterr()
    assert code == 0, err
    return tomllib.loads(out.read_text()), " ".join(said.split())


def test_kept_start_is_written_as_tuned_on_no_query(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "best.toml"
    data, said = _tune(tmp_path, capsys, out)
    assert ("# the values below are the starting values: no trial's gain was sure; this run "
            "fitted them on no query, so [tuned] names none as tuned on") in out.read_text()
    assert "tuned on no query (this run fitted nothing)" in said
    assert "count every query as held out" in said
    # eval with the file says what eval with the same values and no file says: nothing of
    # training scores
    assert main(["eval", TEA, "-m", "bm25", "--params", str(out)]) == 0
    eval_out = " ".join("".join(capsys.readouterr()).split())
    assert "ndcg@10" in eval_out
    assert "tuned on" not in eval_out and "training scores" not in eval_out, eval_out
    assert data["tuned"]["trained_on"] == []
    # a later tune from the file holds queries out
    _, again = _tune(tmp_path, capsys, tmp_path / "again.toml", "--params", str(out))
    assert "no held-out" not in again
    assert "2-fold over 25 queries" in again


def test_a_tuned_start_kept_keeps_its_own_record(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    start = tmp_path / "start.toml"
    start.write_text('[params]\nk1 = 1.2\n\n[tuned]\ndataset = "tea-beir"\n'
                     'validation = "tuned on split train, held out split test"\n'
                     'metric = "ndcg@10"\nheld_out_default = nan\nheld_out_tuned = nan\n'
                     'held_out_p = nan\nheld_out_queries = 0\n'
                     'trained_on = ["q01", "q02", "q03"]\n', encoding="utf-8")
    out = tmp_path / "kept.toml"
    data, said = _tune(tmp_path, capsys, out, "--params", str(start))
    assert data["tuned"]["trained_on"] == ["q01", "q02", "q03"]
    assert "[tuned] names the 3 queries start.toml was tuned on, and no other" in \
        out.read_text()
    assert "with the 3 queries they were tuned on" in said


def _result(kept: bool, moved: dict[str, float]) -> SimpleNamespace:
    from workbench.core.tuning import kfold

    validation = kfold(np.ones(4, bool), 2, seed=0)
    final = SimpleNamespace(kept_start=kept, start_moved=moved)
    spec = SimpleNamespace(objectives=("ndcg@10",))
    return SimpleNamespace(validation=validation, final=final, test=None, spec=spec)


def test_the_record_counts_a_constraints_move_as_tuned_on() -> None:
    # one record for `tune --out` and the Tune tab's saved configuration (`of_result`)
    dataset = SimpleNamespace(name="d", queries=SimpleNamespace(ids=["a", "b", "c", "d"]),
                              corpus=SimpleNamespace(content_key=lambda: "k"))
    every = ("a", "b", "c", "d")
    assert of_result(_result(True, {}), dataset).trained_on == ()
    # sufficiency → 0.85 to meet a constraint: chosen on the training queries
    assert of_result(_result(True, {"sufficiency": 0.85}), dataset).trained_on == every
    assert of_result(_result(False, {}), dataset).trained_on == every
    start = TunedOn("d", "2-fold over 4 queries (seed 0)", ("b",))
    assert of_result(_result(True, {}), dataset, start=start).trained_on == ("b",)
    assert set(of_result(_result(False, {}), dataset, start=start).trained_on) == set(every)
    other = TunedOn("e", "2-fold over 4 queries (seed 0)", ("x",))
    assert of_result(_result(True, {}), dataset, start=other).trained_on == ()
