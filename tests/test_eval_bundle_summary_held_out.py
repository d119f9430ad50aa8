"""eval with a tuned file on code tasks (review b, finding 9): the metrics count the tasks the
values were not tuned on, and so does the closing bundle summary (it had counted every task,
the training ones too)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.conftest import SAMPLES
from workbench.cli import main
from workbench.core.formats import load_dataset

FOLDER = SAMPLES / "code-repo"


def test_the_bundle_summary_counts_the_tasks_the_metrics_count(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    ids = [json.loads(line)["id"] for line in
           (FOLDER / "tasks.jsonl").read_text().splitlines() if line.strip()]
    assert len(ids) == 12
    name = load_dataset(FOLDER).name
    tuned = tmp_path / "tuned.toml"
    trained = ", ".join(f'"{q}"' for q in ids[:8])  # 8 tuned on: 4 left to count
    tuned.write_text(f'[params]\nsufficiency = 0.1\n\n[tuned]\ndataset = "{name}"\n'
                     f'validation = "time split"\nmetric = "bundle_f1"\n'
                     f"trained_on = [{trained}]\n")
    assert main(["eval", str(FOLDER), "-m", "codeledger", "--params", str(tuned)]) == 0
    out = capsys.readouterr().out
    assert "per task (mean over 4)" in out
    line = next(x for x in out.splitlines() if x.startswith("bundles"))
    assert line.startswith("bundles over the 4 tasks the metrics count (budget")
    stopped = line.split("stopped by ")[1].split(";")[0]
    assert sum(int(n) for n in re.findall(r"×(\d+)", stopped)) == 4


def test_one_task_counted_is_said_as_one(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """dr5 7: "bundles over the 1 tasks the metrics count"."""
    ids = [json.loads(line)["id"] for line in
           (FOLDER / "tasks.jsonl").read_text().splitlines() if line.strip()]
    tuned = tmp_path / "tuned.toml"
    trained = ", ".join(f'"{q}"' for q in ids[:11])  # 11 tuned on: 1 left to count
    tuned.write_text(f'[params]\nsufficiency = 0.1\n\n[tuned]\n'
                     f'dataset = "{load_dataset(FOLDER).name}"\nvalidation = "time split"\n'
                     f'metric = "bundle_f1"\ntrained_on = [{trained}]\n')
    assert main(["eval", str(FOLDER), "-m", "codeledger", "--params", str(tuned)]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("bundles"))
    assert line.startswith("bundles over the 1 task the metrics count (budget")


def test_the_header_says_the_tasks_tuned_on_were_left_out(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    ids = [json.loads(line)["id"] for line in
           (FOLDER / "tasks.jsonl").read_text().splitlines() if line.strip()]
    tuned = tmp_path / "tuned.toml"
    tuned.write_text(f'[params]\n\n[tuned]\ndataset = "{load_dataset(FOLDER).name}"\n'
                     f'validation = "time split"\ntrained_on = ["{ids[0]}", "{ids[1]}"]\n')
    assert main(["eval", str(FOLDER), "-m", "codeledger", "--params", str(tuned)]) == 0
    head = capsys.readouterr().out.splitlines()[0]
    assert "10 judged tasks (2 the values were tuned on, left out: --all-queries counts " \
        "them)" in head
