"""Outputs onto the git repository a command reads (rv2 1): `tasks-from-git -o REPO/README.md`
and `eval REPO --per-query REPO/client/package.json` had replaced tracked files without a word.
A file git tracks is refused, and so is an untracked one not of the output's own kind; a new
file in the repository, or the output of an earlier run there, is written."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from workbench.cli import main
from workbench.core.repo import build_sample_repo


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return build_sample_repo(tmp_path / "shorty")


def _status(repo: Path) -> str:
    return subprocess.run(["git", "status", "--short"], cwd=repo, capture_output=True,
                          text=True, check=True).stdout


def _refused(argv: list[str], capsys: pytest.CaptureFixture[str], *words: str) -> str:
    code = main(argv)
    err = capsys.readouterr().err
    assert code == 2, err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    for word in words:
        assert word in err, err
    return err


@pytest.mark.parametrize("name", ["README.md", "api/shorty/app.py"])
def test_tasks_from_git_refuses_a_tracked_file_of_the_repository(
        repo: Path, name: str, capsys: pytest.CaptureFixture[str]) -> None:
    before = (repo / name).read_bytes()
    _refused(["tasks-from-git", "--repo", str(repo), "-o", str(repo / name)], capsys,
             f"--out {repo / name}: is a file in the git repository", "tracked by git",
             "give a path outside the repository, or a new file name")
    assert (repo / name).read_bytes() == before
    assert _status(repo) == ""


def test_tasks_from_git_refuses_a_tracked_file_through_a_link(
        repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    link = tmp_path / "tasks.jsonl"
    link.symlink_to(repo / "README.md")  # the write lands on the README
    before = (repo / "README.md").read_bytes()
    _refused(["tasks-from-git", "--repo", str(repo), "-o", str(link)], capsys, "tracked by git")
    assert (repo / "README.md").read_bytes() == before


def test_tasks_from_git_refuses_an_untracked_file_of_another_kind(
        repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    notes = repo / "notes.txt"  # untracked: git could not give it back
    notes.write_text("my notes\n")
    _refused(["tasks-from-git", "--repo", str(repo), "-o", str(notes)], capsys,
             "not a .jsonl file as --out writes; not tracked by git", "for good")
    assert notes.read_text() == "my notes\n"


def test_tasks_from_git_writes_a_new_tasks_file_in_the_repository_and_again(
        repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = repo / "tasks.jsonl"
    assert main(["tasks-from-git", "--repo", str(repo), "-o", str(out)]) == 0
    first = out.read_text()
    assert first.count("\n") > 3
    # an earlier run's file, untracked: written again
    assert main(["tasks-from-git", "--repo", str(repo), "-o", str(out)]) == 0
    assert out.read_text() == first
    assert _status(repo) == "?? tasks.jsonl\n"
    capsys.readouterr()


def test_eval_and_sweep_refuse_a_tracked_file_of_the_repository(
        repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tasks = tmp_path / "tasks.jsonl"
    assert main(["tasks-from-git", "--repo", str(repo), "-o", str(tasks)]) == 0
    capsys.readouterr()
    package = repo / "client" / "package.json"
    before = package.read_bytes()
    common = [str(repo), "--queries", str(tasks), "-m", "codeledger"]
    _refused(["eval", *common, "--per-query", str(package)], capsys,
             f"--per-query {package}: is a file in the git repository", "tracked by git")
    _refused(["sweep", *common, "-s", "w_keyword", "--values", "1,2",
              "--out", str(package)], capsys, f"--out {package}:", "tracked by git")
    notes = repo / "notes.txt"
    notes.write_text("my notes\n")
    _refused(["eval", *common, "--run", str(notes)], capsys,
             "not a .trec or .run file as --run writes")
    assert package.read_bytes() == before and notes.read_text() == "my notes\n"
    assert _status(repo) == "?? notes.txt\n"


def test_tune_refuses_a_file_git_tracks_in_the_repository(
        repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    staged = repo / "best.toml"  # added to the index, not committed: tracked all the same
    staged.write_text("[params]\n")
    subprocess.run(["git", "add", "best.toml"], cwd=repo, check=True)
    tasks = tmp_path / "tasks.jsonl"
    assert main(["tasks-from-git", "--repo", str(repo), "-o", str(tasks)]) == 0
    capsys.readouterr()
    _refused(["tune", str(repo), "--queries", str(tasks), "-m", "codeledger", "--trials", "1",
              "--out", str(staged)], capsys, f"--out {staged}:", "tracked by git")
    assert staged.read_text() == "[params]\n"


def test_a_report_in_the_repository_is_written_again_but_not_over_notes(
        repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tasks = tmp_path / "tasks.jsonl"
    assert main(["tasks-from-git", "--repo", str(repo), "-o", str(tasks)]) == 0
    argv = ["report", str(repo), "--queries", str(tasks), "-m", "codeledger", "--defaults",
            "-p", "w_keyword=0.3", "--movers", "0", "-o"]
    page = repo / "compare.html"
    assert main([*argv, str(page)]) == 0
    assert main([*argv, str(page)]) == 0  # its own earlier output: written again
    capsys.readouterr()
    notes = repo / "notes.txt"
    notes.write_text("my notes\n")
    _refused([*argv, str(notes)], capsys, "notes.txt")
    assert notes.read_text() == "my notes\n"


def test_codeledgers_own_files_are_never_replaced(
        repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # review dr1 (1): untracked as a rule, they had passed for an earlier run's output, and
    # eval --per-query .codeledger/config.json replaced the config the next eval read
    folder = repo / ".codeledger"
    folder.mkdir(exist_ok=True)
    config = folder / "config.json"
    config.write_text('{"repo": {"name": "shorty"}}\n')
    ledger = folder / "ledger.jsonl"
    ledger.write_text('{"event": "seen"}\n')
    tasks = tmp_path / "tasks.jsonl"
    assert main(["tasks-from-git", "--repo", str(repo), "-o", str(tasks)]) == 0
    capsys.readouterr()
    _refused(["eval", str(repo), "--queries", str(tasks), "-m", "codeledger", "--per-query",
              str(config)], capsys, "config.json")
    _refused(["tasks-from-git", "--repo", str(repo), "-o", str(ledger)], capsys,
             "CodeLedger's own .codeledger/ledger.jsonl")
    assert config.read_text() == '{"repo": {"name": "shorty"}}\n'
    assert ledger.read_text() == '{"event": "seen"}\n'


def test_a_committed_tasks_file_and_a_continued_params_file_are_made_again(
        repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # review dr1 (2): the README's .codeledger/tasks.jsonl, committed, and tune --params
    # best.toml --out best.toml, committed, had been refused for good
    own = repo / ".codeledger" / "tasks.jsonl"
    own.parent.mkdir(exist_ok=True)
    assert main(["tasks-from-git", "--repo", str(repo), "-o", str(own)]) == 0
    subprocess.run(["git", "add", "-f", ".codeledger/tasks.jsonl"], cwd=repo, check=True)
    capsys.readouterr()
    assert main(["tasks-from-git", "--repo", str(repo), "-o", str(own)]) == 0
    assert ("is tracked by git: a run that finishes replaces it, and `git diff` shows what "
            "changed") in capsys.readouterr().err
    best = repo / "best.toml"
    best.write_text("w_keyword = 1.0\n")
    subprocess.run(["git", "add", "best.toml"], cwd=repo, check=True)
    tasks = tmp_path / "tasks.jsonl"
    assert main(["tasks-from-git", "--repo", str(repo), "-o", str(tasks)]) == 0
    capsys.readouterr()
    common = ["tune", str(repo), "--queries", str(tasks), "-m", "codeledger", "--tune",
              "w_keyword", "--trials", "2", "--folds", "0", "--storage",
              str(tmp_path / "s.db")]
    assert main([*common, "--params", str(best), "--out", str(best)]) == 0
    assert "[tuned]" in best.read_text()
    # a tracked file not its own is still refused: a new best.toml over another
    other = repo / "other.toml"
    other.write_text("k = 1\n")
    subprocess.run(["git", "add", "other.toml"], cwd=repo, check=True)
    capsys.readouterr()
    _refused([*common, "--out", str(other)], capsys, "tracked by git")


def test_edits_git_does_not_hold_and_a_persons_file_are_not_replaced(
        repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # review dr2 (1, 3): a committed tasks file with a task added by hand lost it, and an
    # untracked .vscode/settings.json was taken for an earlier --per-query output
    own = repo / ".codeledger" / "tasks.jsonl"
    own.parent.mkdir(exist_ok=True)
    assert main(["tasks-from-git", "--repo", str(repo), "-o", str(own)]) == 0
    subprocess.run(["git", "add", "-f", ".codeledger/tasks.jsonl"], cwd=repo, check=True)
    with own.open("a") as fh:
        fh.write('{"id": "mine", "task": "a task of my own", "files": ["README.md"]}\n')
    edited = own.read_text()
    capsys.readouterr()
    _refused(["tasks-from-git", "--repo", str(repo), "-o", str(own)], capsys,
             "with changes git does not hold", "commit or stash them first")
    assert own.read_text() == edited
    settings = repo / ".vscode" / "settings.json"
    settings.parent.mkdir()
    settings.write_text('{"editor.tabSize": 4}\n')
    tasks = tmp_path / "tasks.jsonl"
    assert main(["tasks-from-git", "--repo", str(repo), "-o", str(tasks)]) == 0
    capsys.readouterr()
    argv = ["eval", str(repo), "--queries", str(tasks), "-m", "codeledger", "--per-query"]
    _refused([*argv, str(settings)], capsys, "not one this workbench wrote")
    assert settings.read_text() == '{"editor.tabSize": 4}\n'
    mine = repo / "per-query.json"  # its own output of a run before: written again
    assert main([*argv, str(mine)]) == 0
    assert main([*argv, str(mine)]) == 0


def test_a_markdown_report_in_the_repository_is_written_again(
        repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # review dr2 (2): the second run had been refused as "not a .html or .htm file"
    tasks = tmp_path / "tasks.jsonl"
    assert main(["tasks-from-git", "--repo", str(repo), "-o", str(tasks)]) == 0
    argv = ["report", str(repo), "--queries", str(tasks), "-m", "codeledger", "--defaults",
            "-p", "w_keyword=0.3", "--movers", "0", "-o", str(repo / "report.md")]
    assert main(argv) == 0
    assert main(argv) == 0
    notes = repo / "notes.md"
    notes.write_text("# My notes\n")
    capsys.readouterr()
    _refused([*argv[:-1], str(notes)], capsys, "not one this workbench wrote")
    assert notes.read_text() == "# My notes\n"


def test_a_vault_kept_in_git_still_names_its_notes(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # review dr2 (10): a vault in git is read as a vault, and a note given as an output is
    # a dataset file this command reads, as in a vault outside git
    import shutil

    from tests.conftest import SAMPLES

    vault = tmp_path / "vault"
    shutil.copytree(SAMPLES / "vault", vault)
    (vault / ".obsidian").mkdir(exist_ok=True)
    subprocess.run(["git", "init", "-q"], cwd=vault, check=True)
    note = next(vault.rglob("*.md"))
    before = note.read_bytes()
    _refused(["report", str(vault), "-m", "vault-search", "--defaults", "-p", "w_tf=2",
              "--movers", "0", "-o", str(note)], capsys, "is a dataset file this command reads")
    assert note.read_bytes() == before
