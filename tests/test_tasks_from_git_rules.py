"""tasks-from-git's rules: which commits make no task (each rule of the table with real-looking
subjects and authors, and subjects it must leave alone), the task text without trailers, the
kinds of files, and all of them together on a repository made here and through the CLI."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from tests.test_repo_tasks import Repo
from workbench.cli.code import add_commands
from workbench.core.repo.commit_rules import COMMIT_RULES, SKIP_REASONS, skip_reason, task_text
from workbench.core.repo.file_kinds import FILE_KINDS, OPTIONAL_KINDS, file_kind, parse_kinds
from workbench.core.repo.tasks import DROPPED, SKIPPED, mine_tasks

HUMAN = "Tess Ng <tess@example.org>"
SKIPS = [  # (reason, author, subject)
    ("bot", "dependabot[bot] <49699333+dependabot[bot]@users.noreply.github.com>",
     "Bump pytest from 7.4.0 to 8.0.0 (#3050)"),
    ("bot", "renovate[bot] <29139614+renovate[bot]@users.noreply.github.com>",
     "Update dependency typescript to v5.4.2"),
    ("bot", "github-actions <41898282+github-actions[bot]@users.noreply.github.com>",
     "Update contributors list"),
    ("bot", "pre-commit-ci[bot] <66853113+pre-commit-ci[bot]@users.noreply.github.com>",
     "[pre-commit.ci] auto fixes from pre-commit.com hooks"),
    ("bot", "Renovate Bot <bot@renovateapp.com>", "chore: pin actions/checkout action"),
    ("bot", "dependabot-preview[bot] <support@dependabot.com>",
     "Bump eslint from 6.8.0 to 7.0.0"),
    ("release", HUMAN, "Version 0.28.1 (#3445)"),
    ("release", HUMAN, "Version 1.2.3"),
    ("release", HUMAN, "Release 0.5"),
    ("release", HUMAN, "Release 0.9.1 due to build artifacts issue"),
    ("release", HUMAN, "v1.2.3"),
    ("release", HUMAN, "2.0.0-0"),
    ("release", HUMAN, "1.14.3"),
    ("release", HUMAN, "🔖 v3.1.0"),
    ("release", HUMAN, "Bump version"),
    ("release", HUMAN, "Bump version to 2.4.0"),
    ("release", HUMAN, "Bumped version number for 0.13 release"),
    ("release", HUMAN, "Version bump for 1.0 final"),
    ("release", HUMAN, "Update version to 3.2.1"),
    ("release", HUMAN, "chore(release): 1.4.0"),
    ("release", HUMAN, "chore: release v2.0.1"),
    ("release", HUMAN, "Prepare 0.5.0 release"),
    ("release", HUMAN, "Prepare for release"),
    ("deps", HUMAN, "Bump requests from 2.31.0 to 2.32.0"),
    ("deps", HUMAN, "Bump actions/checkout from 3 to 4 (#2861)"),
    ("deps", HUMAN, "bump mkdocs-material from 9.1.2 to 9.5.0 in /docs"),
    ("deps", HUMAN, "Upgrade urllib3 requirement from 1.26.0 to 2.0.0"),
    ("deps", HUMAN, "chore(deps): update dependency vitest to v1.6.0"),
    ("deps", HUMAN, "build(deps-dev): bump @types/node from 20.1.0 to 20.2.0"),
    ("deps", HUMAN, "Bump the pip group across 1 directory with 3 updates"),
    ("one_word", HUMAN, "wip"),
    ("one_word", HUMAN, "fix"),
    ("one_word", HUMAN, "typo"),
    ("one_word", HUMAN, "Tweaks"),
    ("one_word", HUMAN, "response.next()"),
]
KEPT = [  # subjects no rule may take
    "Fix timeout handling in the connection pool",
    "Release connections back to the pool on error",
    "Version the cache format so old entries are ignored",
    "Update version parsing for PEP 440 pre-releases",
    "Upgrade tests from unittest to pytest",
    "Add v2 API client",
    "Support Python 3.13",
    "Bump default timeout to 10 seconds",
    "Fix typo in error message",
    "Prepare the request before sending it",
]


@pytest.mark.parametrize(("reason", "author", "subject"), SKIPS)
def test_each_rule_takes_real_subjects(reason: str, author: str, subject: str) -> None:
    assert skip_reason(author=author, subject=subject, text=subject) == reason


@pytest.mark.parametrize("subject", KEPT)
def test_rules_leave_real_tasks_alone(subject: str) -> None:
    assert skip_reason(author=HUMAN, subject=subject, text=subject) is None


def test_every_rule_is_tested_and_summarised() -> None:
    reasons = [reason for reason, _, _ in COMMIT_RULES]
    assert set(reasons) == {r for r, _, _ in SKIPS} == set(SKIP_REASONS)
    assert all(r in SKIPPED for r in reasons)


def test_one_word_subject_with_a_body_is_a_task() -> None:
    text = task_text("Fix", "The pool leaked a connection when the read timed out.")
    assert skip_reason(author=HUMAN, subject="Fix", text=text) is None
    subject = task_text("Fix", "The pool leaked …", subject_only=True)
    assert skip_reason(author=HUMAN, subject="Fix", text=subject) == "one_word"


def test_task_text_is_the_message_without_trailers() -> None:
    body = ("The pool kept a closed connection.\n\n* Close it on timeout\n\n\n* Test it\n\n"
            "Signed-off-by: Tess Ng <tess@example.org>\n"
            "Co-authored-by: Bo Li <bo@example.org>\n"
            "(cherry picked from commit 0123abcd)\n")
    assert task_text("Fix pool leak (#12)", body) == (
        "Fix pool leak (#12)\n\nThe pool kept a closed connection.\n\n* Close it on timeout"
        "\n\n* Test it")
    assert task_text("Fix pool leak (#12)", body, subject_only=True) == "Fix pool leak (#12)"
    assert task_text("  Only a subject  ", "Reviewed-by: A <a@x>\n") == "Only a subject"


@pytest.mark.parametrize(("path", "kind"), [
    ("httpx/_client.py", "source"), ("tests/test_client.py", "source"),
    ("source/core/Ky.ts", "source"), ("scripts/release.sh", "source"),
    ("history.py", "source"), ("docs/conf.py", "source"),
    ("README.md", "docs"), ("docs/api.md", "docs"), ("docs/index.rst", "docs"),
    ("notes.txt", "docs"), ("README", "docs"),
    ("package.json", "config"), ("tsconfig.json", "config"), ("pyproject.toml", "config"),
    ("setup.cfg", "config"), ("tox.ini", "config"), ("mkdocs.yml", "config"),
    (".github/workflows/test.yml", "config"), (".github/ISSUE_TEMPLATE/bug.md", "config"),
    (".github/CODEOWNERS", "config"), (".gitignore", "config"), (".editorconfig", "config"),
    ("Dockerfile", "config"), ("Makefile", "config"), ("requirements-dev.txt", "config"),
    ("go.mod", "config"),
    ("package-lock.json", "lock"), ("yarn.lock", "lock"), ("pnpm-lock.yaml", "lock"),
    ("poetry.lock", "lock"), ("uv.lock", "lock"), ("Cargo.lock", "lock"), ("go.sum", "lock"),
    ("web/Gemfile.lock", "lock"),
    ("CHANGELOG.md", "changelog"), ("HISTORY.rst", "changelog"), ("NEWS", "changelog"),
    ("CHANGES.txt", "changelog"), ("changelog.d/1234.bugfix.md", "changelog"),
    (".changeset/brave-dogs.md", "changelog"),
    ("LICENSE", "other"), ("docs/img/logo.png", "other"), ("data/users.csv", "other"),
])
def test_file_kinds(path: str, kind: str) -> None:
    assert kind in FILE_KINDS
    assert file_kind(path) == kind


def test_parse_kinds() -> None:
    assert parse_kinds("lock,docs") == ("docs", "lock")
    assert parse_kinds("all") == OPTIONAL_KINDS
    assert parse_kinds("source, config") == ("config",)
    with pytest.raises(ValueError, match=r"unknown file kind 'tests': expected .*docs, config"):
        parse_kinds("docs,tests")
    with pytest.raises(ValueError, match="unknown file kind 'test'"):
        mine_tasks(".", snapshot="HEAD", include=["test"])


# -- together, on a repository made here --------------------------------------------------------

BOT = "dependabot[bot] <49699333+dependabot[bot]@users.noreply.github.com>"
SNAPSHOT_FILES = ("src/app.py", "tests/test_app.py", "README.md", "CHANGELOG.md",
                  "package-lock.json", "pyproject.toml", ".github/workflows/ci.yml", "LICENSE")


@pytest.fixture
def history(tmp_path: Path) -> tuple[Path, str]:
    r = Repo(tmp_path)
    for path in SNAPSHOT_FILES:
        r.write(path, f"{path} v0\n")
    snapshot = r.commit("Start the project")

    def change(message: str, *paths: str, author: str | None = None) -> None:
        for path in paths:
            r.write(path, f"{path} after {message[:20]}\n")
        r.day += 1
        r("add", "-A")
        r("commit", "-q", "-m", message, *(("--author", author) if author else ()))

    change("Fix timeout handling in the client\n\nThe pool kept closed connections.\n\n"
           "Signed-off-by: Tess <t@example.org>\nCo-authored-by: Bo <bo@example.org>",
           "src/app.py", "tests/test_app.py", "CHANGELOG.md", "package-lock.json")
    change("Bump requests from 2.31.0 to 2.32.0", "package-lock.json", "src/app.py",
           author=BOT)
    change("Version 1.2.3", "pyproject.toml", "src/app.py", "CHANGELOG.md")
    change("Bump black from 23.1.0 to 24.2.0", "pyproject.toml", "src/app.py")
    change("wip", "src/app.py")
    change("Document retries", "README.md")
    change("Test on Python 3.13", ".github/workflows/ci.yml", "pyproject.toml", "LICENSE")
    return r.work, snapshot


def test_rules_together(history: tuple[Path, str]) -> None:
    repo, snapshot = history
    mined = mine_tasks(repo, snapshot=snapshot)
    assert [(t.task, t.files) for t in mined.tasks] == [
        ("Fix timeout handling in the client\n\nThe pool kept closed connections.",
         ("src/app.py", "tests/test_app.py"))]
    assert mined.commits == 7
    assert mined.skipped == {"bot": 1, "release": 1, "deps": 1, "one_word": 1,
                             "too_few_files": 2}
    # the skipped commits' files are not counted; the docs and CI commits' are
    assert mined.dropped == {"changelog": 1, "lock": 1, "docs": 1, "config": 2, "other": 1}
    assert set(mined.dropped) <= set(DROPPED)
    every = mine_tasks(repo, snapshot=snapshot, include=OPTIONAL_KINDS, subject_only=True)
    assert [(t.task, t.files) for t in every.tasks] == [
        ("Fix timeout handling in the client",
         ("CHANGELOG.md", "package-lock.json", "src/app.py", "tests/test_app.py")),
        ("Document retries", ("README.md",)),
        ("Test on Python 3.13", (".github/workflows/ci.yml", "LICENSE", "pyproject.toml"))]
    assert every.dropped == {} and every.skipped == {"bot": 1, "release": 1, "deps": 1,
                                                     "one_word": 1}
    docs = mine_tasks(repo, snapshot=snapshot, include=["docs"])
    assert [t.files for t in docs.tasks][1:] == [("README.md",)]


def run(*argv: str) -> int:
    parser = argparse.ArgumentParser(prog="workbench")
    add_commands(parser.add_subparsers(dest="command"))
    args = parser.parse_args(argv)
    code: int = args.func(args)
    return code


def test_cli_summary_says_what_was_skipped_and_why(history: tuple[Path, str],
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    repo, snapshot = history
    assert run("tasks-from-git", "--repo", str(repo), "--snapshot", snapshot) == 0
    out, err = capsys.readouterr()
    assert [json.loads(line)["files"] for line in out.splitlines()] == [
        ["src/app.py", "tests/test_app.py"]]
    for line in ("task text: the whole commit message, trailers left out (--subject-only",
                 "task files: source and tests changed by the commit that existed at the "
                 "snapshot (--include KINDS or --all-files for more)",
                 "1 task(s), 6 commit(s) skipped:", "1  made by a bot (dependabot",
                 "1  releases and version bumps", "1  dependency bumps",
                 "1  one-word messages", "2  changed fewer than min-files",
                 "changed files left out, and why:", "2  config (YAML", ": --include config",
                 "1  lock (package-lock.json", ": --include lock"):
        assert line in err, line
    assert run("tasks-from-git", "--repo", str(repo), "--snapshot", snapshot,
               "--include", "docs,config", "--subject-only") == 0
    out, err = capsys.readouterr()
    assert [json.loads(line)["task"] for line in out.splitlines()] == [
        "Fix timeout handling in the client", "Document retries", "Test on Python 3.13"]
    assert "task text: the commit subject" in err
    assert "task files: source and tests and also docs, config changed" in err
    with pytest.raises(SystemExit):  # one choice of files: a usage error
        run("tasks-from-git", "--repo", str(repo), "--all-files", "--code-only")


def test_cli_code_only_and_all_files(history: tuple[Path, str],
                                     capsys: pytest.CaptureFixture[str]) -> None:
    repo, snapshot = history
    assert run("tasks-from-git", "--repo", str(repo), "--snapshot", snapshot,
               "--code-only") == 0
    assert len(capsys.readouterr().out.splitlines()) == 1
    assert run("tasks-from-git", "--repo", str(repo), "--snapshot", snapshot,
               "--all-files") == 0
    out, err = capsys.readouterr()
    assert len(out.splitlines()) == 3
    assert "--all-files for more" not in err and "changed files left out" not in err


def test_tasks_from_the_bundled_sample_come_from_its_own_history(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """sample_corpora/code-repo is a folder inside the workbench's repository: tasks-from-git
    said to pass --repo of the workbench, whose history it would have mined."""
    from tests.conftest import SAMPLES
    from workbench.cli import main

    out = tmp_path / "tasks.jsonl"
    assert main(["tasks-from-git", "--repo", str(SAMPLES / "code-repo"), "-o", str(out)]) == 0
    err = capsys.readouterr().err
    assert f"next: workbench eval {SAMPLES / 'code-repo'} --queries" in err
    assert main(["eval", str(SAMPLES / "code-repo"), "--queries", str(out), "-m",
                 "codeledger", "--metrics", "r@10"]) == 0
