"""tasks-from-git's fraction is `--task-fraction`, counted from the new end, the old
`--history-fraction` still read with a note (rv2 5); `--skipped FILE` lists each commit that
made no task, with its reason (rv2 9: the summary counted 18 "only docs/config/new files"
commits on ky, and nothing said which)."""

from __future__ import annotations

import argparse
import json
import subprocess
from collections import Counter
from pathlib import Path

import pytest

from tests.conftest import SAMPLES
from workbench.cli.code import add_commands
from workbench.core.repo import build_sample_repo

SHIPPED = SAMPLES / "code-repo" / "tasks.jsonl"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="workbench")
    add_commands(parser.add_subparsers(dest="command"))
    return parser


def run(*argv: str) -> int:
    args = _parser().parse_args(argv)
    code: int = args.func(args)
    return code


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_sample_repo(tmp_path_factory.mktemp("cli-code-skipped") / "shorty")


def _git(repo: Path, *argv: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *argv], check=True, capture_output=True,
                          text=True).stdout


def test_task_fraction_and_its_old_name(sample: Path, tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    new, old = tmp_path / "new.jsonl", tmp_path / "old.jsonl"
    assert run("tasks-from-git", "--repo", str(sample), "--task-fraction", "0.4",
               "--all-files", "--out", str(new)) == 0
    assert "--history-fraction" not in capsys.readouterr().err
    assert new.read_text("utf-8") == SHIPPED.read_text("utf-8")
    assert run("tasks-from-git", "--repo", str(sample), "--history-fraction", "0.4",
               "--all-files", "--out", str(old)) == 0
    assert old.read_text("utf-8") == SHIPPED.read_text("utf-8")
    assert ("note: --history-fraction is now --task-fraction (the newest share of the commits "
            "that become tasks); the old name still works") in capsys.readouterr().err
    text = " ".join(_parser()._subparsers._group_actions[0].choices[  # type: ignore[union-attr]
        "tasks-from-git"].format_help().split())
    assert "--task-fraction FRACTION the newest share of the commits that become tasks" in text
    assert "0.3 = the newest 30% of commits are tasks" in text
    assert "--history-fraction" not in text  # hidden: one name in the help
    with pytest.raises(SystemExit):  # still one of --snapshot and the fraction
        run("tasks-from-git", "--repo", str(sample), "--history-fraction", "0.3",
            "--snapshot", "HEAD")
    assert "argument --snapshot: not allowed with argument --history-fraction" in (
        capsys.readouterr().err)


def test_skipped_lists_each_commit_that_made_no_task(sample: Path, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    out, skipped = tmp_path / "tasks.jsonl", tmp_path / "skipped.tsv"
    assert run("tasks-from-git", "--repo", str(sample), "--task-fraction", "0.4",
               "--all-files", "--out", str(out), "--skipped", str(skipped)) == 0
    err = capsys.readouterr().err
    assert "12 task(s), 4 commit(s) skipped" in err
    assert f"which ones: written to {skipped}" in err
    lines = skipped.read_text("utf-8").splitlines()
    assert lines[0] == "commit\treason\tsubject"
    rows = [line.split("\t") for line in lines[1:]]
    assert Counter(r[1] for r in rows) == {"too_few_files": 3, "too_many_files": 1}
    tasks = {json.loads(line)["commit"] for line in out.read_text("utf-8").splitlines()}
    snapshot = json.loads(out.read_text("utf-8").splitlines()[0])["snapshot"]
    after = _git(sample, "rev-list", "--reverse", f"{snapshot}..HEAD").split()
    # every commit after the snapshot is a task or a row, never both; rows oldest first
    assert [r[0] for r in rows] == [c for c in after if c not in tasks]
    for sha, _, subject in rows:
        assert subject == _git(sample, "log", "-1", "--format=%s", sha).strip()


def test_without_skipped_the_summary_says_how_to_list_them(
        sample: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run("tasks-from-git", "--repo", str(sample), "--task-fraction", "0.4") == 0
    assert "which ones: --skipped FILE lists each, with its reason" in capsys.readouterr().err
