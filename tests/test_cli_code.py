"""tasks-from-git in-process, through a parser built with workbench.cli.code.add_commands."""

from __future__ import annotations

import argparse
import json
import subprocess
from pathlib import Path

import pytest

from tests.conftest import SAMPLES
from workbench.cli.code import add_commands
from workbench.core.repo import build_sample_repo

SHIPPED = SAMPLES / "code-repo" / "tasks.jsonl"


def run(*argv: str) -> int:
    parser = argparse.ArgumentParser(prog="workbench")
    add_commands(parser.add_subparsers(dest="command"))
    args = parser.parse_args(argv)
    code: int = args.func(args)
    return code


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_sample_repo(tmp_path_factory.mktemp("cli-code") / "shorty")


def test_writes_the_shipped_sample(sample: Path, tmp_path: Path,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "tasks.jsonl"
    # the shipped set keeps every kind of file (its docs task included)
    assert run("tasks-from-git", "--repo", str(sample), "--task-fraction", "0.4",
               "--all-files", "--out", str(out)) == 0
    assert out.read_text("utf-8") == SHIPPED.read_text("utf-8")
    captured = capsys.readouterr()
    assert captured.out == ""
    err = captured.err
    assert "snapshot 072f535af9 (2026-03-12)" in err and "16 commit(s) after it" in err
    assert "12 task(s), 4 commit(s) skipped" in err
    assert "3  changed fewer than min-files" in err and "1  changed more than max-files" in err
    assert "files per task: mean 1.4 (min 1, max 2)" in err
    assert "6  added after the snapshot" in err
    assert f"next: workbench eval {sample} --queries {out} -m codeledger" in err


def test_stdout_snapshot_and_options(sample: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run("tasks-from-git", "--repo", str(sample), "--snapshot", "HEAD~4",
               "--no-tests", "--max-files", "1") == 0
    captured = capsys.readouterr()
    rows = [json.loads(line) for line in captured.out.splitlines()]
    # test_app.py left out; "Surface rate limit errors in client" changed 2 files
    assert [(r["task"], r["files"]) for r in rows] == [
        ("Make rate limit configurable from environment", ["api/shorty/ratelimit.py"]),
        ("Fix stats crash when store is empty", ["api/shorty/app.py"]),
        ("Purge expired links before resolving", ["api/shorty/app.py"])]
    assert "3 task(s), 1 commit(s) skipped" in captured.err
    assert "1  changed more than max-files" in captured.err
    assert "save them with --out tasks.jsonl" in captured.err


def test_default_task_fraction_and_no_tasks(sample: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    assert run("tasks-from-git", "--repo", str(sample)) == 0  # 0.3: 12 commits
    assert "the 12 commit(s) after it" in capsys.readouterr().err
    assert run("tasks-from-git", "--repo", str(sample), "--snapshot", "HEAD") == 1
    captured = capsys.readouterr()
    assert captured.out == "" and "no tasks: try an earlier --snapshot" in captured.err


@pytest.mark.parametrize(("argv", "message"), [
    (("--repo", "{tmp}/absent"), "absent: no such folder"),
    (("--repo", "{tmp}/file.txt"), "file.txt: not a folder"),
    (("--repo", "{tmp}/empty"), "empty: a git repository with no commits yet"),
    (("--repo", "{tmp}"), "not a git repository"),
    (("--repo", "{sample}", "--snapshot", "v9.9"), "unknown revision 'v9.9'"),
    (("--repo", "{sample}", "--until", "nope"), "unknown revision 'nope'"),
    (("--repo", "{sample}", "--snapshot", "HEAD", "--until", "HEAD~1"), "not an ancestor"),
    (("--repo", "{sample}/api"), "inside the git repository"),
])
def test_errors_are_one_line(sample: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                             argv: tuple[str, ...], message: str) -> None:
    (tmp_path / "file.txt").write_text("not a repository\n")
    subprocess.run(["git", "init", "-q", str(tmp_path / "empty")], check=True)
    argv = tuple(a.format(tmp=tmp_path, sample=sample) for a in argv)
    assert run("tasks-from-git", *argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("workbench tasks-from-git: error: ")
    assert message in captured.err and captured.err.count("\n") == 1


@pytest.mark.parametrize("argv", [
    ("--task-fraction", "1.5"), ("--task-fraction", "x"), ("--max-files", "0"),
    ("--task-fraction", "0.3", "--snapshot", "HEAD"), ("--split", "0.3"), ("--with-body",),
    ("--include", "docs,tests"), ("--all-files", "--include", "docs"),
])
def test_bad_flags_are_usage_errors(sample: Path, argv: tuple[str, ...],
                                    capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        run("tasks-from-git", "--repo", str(sample), *argv)
    assert info.value.code == 2
    assert "Traceback" not in capsys.readouterr().err


def test_no_tasks_writes_no_file_and_fails(sample: Path, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    """A snapshot at HEAD leaves nothing after it: no empty file for a later `eval` to trip
    on, and exit 1 with the hint; an --out folder that does not exist is said before any
    mining, in the words the other commands use."""
    out = tmp_path / "t.jsonl"
    assert run("tasks-from-git", "--repo", str(sample), "--snapshot", "HEAD",
               "--out", str(out)) == 1
    assert not out.exists()
    assert "no tasks: try an earlier --snapshot" in capsys.readouterr().err
    missing = tmp_path / "nowhere" / "t.jsonl"
    assert run("tasks-from-git", "--repo", str(sample), "--out", str(missing)) == 2
    err = capsys.readouterr().err
    assert f"--out {missing}: folder {missing.parent} does not exist" in err
    assert "Errno" not in err


def test_file_limits_are_said_in_the_options_names(sample: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert run("tasks-from-git", "--repo", str(sample), "--min-files", "30") == 2
    assert ("--min-files 30 is above --max-files 20 (the default): raise --max-files too"
            in capsys.readouterr().err)


def test_a_full_disk_is_said_as_every_command_says_it(
        sample: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """It printed the raw "[Errno 28] No space left on device: '…'"."""
    import errno
    import os

    out = tmp_path / "t.jsonl"
    out.write_text("old\n")

    def no_space(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", no_space)
    assert run("tasks-from-git", "--repo", str(sample), "--task-fraction", "0.4",
               "--out", str(out)) == 2
    err = capsys.readouterr().err
    assert err == (f"workbench tasks-from-git: error: --out {out}: cannot write (No space left "
                   "on device); nothing was written\n")
    assert out.read_text() == "old\n" and os.listdir(tmp_path) == ["t.jsonl"]
