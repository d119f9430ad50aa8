"""What tune's plan and report say of stored studies and fronts (review b, findings 4 and 7):
a study stored with other settings is refused before the plan counts its trials as used; a
Pareto front cut for length says how many rows it leaves out and keeps both of its ends."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import SAMPLES
from workbench.cli import main

TEA = str(SAMPLES / "tea-beir")


def test_a_study_with_other_settings_is_refused_before_its_trials_are_counted(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    db = str(tmp_path / "same.db")
    assert main(["tune", TEA, "-m", "bm25", "--trials", "3", "--folds", "0", "--study", "mine",
                 "--storage", db]) == 0
    capsys.readouterr()
    assert main(["tune", TEA, "-m", "bm25", "--trials", "3", "--folds", "0", "--study", "mine",
                 "--metric", "mrr@10", "--storage", db]) == 2
    out, err = capsys.readouterr()
    assert "exists in this storage with other settings (objective (--metric) differs)" in err
    assert "stored already" not in out and "objective:" not in out


def test_a_long_front_keeps_both_ends_and_counts_what_it_leaves_out(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    import re

    assert main(["tune", str(SAMPLES / "vault"), "-m", "vault-search", "--trials", "40",
                 "--folds", "0", "--metric", "ndcg@10,results",
                 "--storage", str(tmp_path / "v.db")]) == 0
    out = capsys.readouterr().out
    head = re.search(r"Pareto front of all \((\d+) settings\)", out)
    assert head is not None
    table = out[head.end():].split("\nkept: ")[0].splitlines()[3:]  # past heading and rule
    more = [r for r in table if r.startswith("… ")]
    assert len(more) == 1, table
    shown = [r for r in table if not r.startswith("… ")]
    counted = len(shown) + int(more[0].split()[1]) + sum(
        int(m) for m in re.findall(r"\(\+(\d+) alike\)", "\n".join(shown)))
    assert counted == int(head.group(1))  # every setting of the front shown or counted
    results = [float(re.split(r"\s{2,}", r.strip())[2]) for r in shown]
    # the cheap end is kept: the last row returns the fewest results of the front
    assert results[-1] == min(results) and results[0] == max(results)
