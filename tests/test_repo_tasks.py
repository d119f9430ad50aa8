"""Tasks from git history: the no-leakage rules on the sample repository and on a tiny
throwaway repository with a merge, a rename followed by an edit, a delete and a re-add."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.conftest import SAMPLES
from workbench.core.engine import Cancelled, Progress
from workbench.core.formats.code_tasks import read_tasks, tasks_jsonl
from workbench.core.repo import GitError, build_sample_repo
from workbench.core.repo.file_kinds import OPTIONAL_KINDS
from workbench.core.repo.git import git, ls_tree
from workbench.core.repo.sample import git_env
from workbench.core.repo.tasks import mine_tasks, pick_snapshot, tasks_from_git

SHIPPED = SAMPLES / "code-repo" / "tasks.jsonl"
SAMPLE_SNAPSHOT = "072f535af975c4d661b27f6c2d2e1ff4aa0c7d93"  # "Handle redirects without …"
SAMPLE_SPLIT = 0.4  # the last 16 of 40 commits


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_sample_repo(tmp_path_factory.mktemp("tasks") / "shorty")


def by_subject(repo: Path, snapshot: str, until: str = "HEAD", *, max_files: int = 20,
               include_tests: bool = True) -> dict[str, tuple[str, ...]]:
    return {t.task: t.files for t in tasks_from_git(repo, snapshot=snapshot, until=until,
                                                    max_files=max_files,
                                                    include_tests=include_tests)}


def test_shipped_task_set_regenerates_exactly(sample: Path) -> None:
    # the shipped set keeps every file kind (its docs task included); its messages are subjects
    snapshot = pick_snapshot(sample, tasks_fraction=SAMPLE_SPLIT)
    assert snapshot == SAMPLE_SNAPSHOT
    assert tasks_jsonl(tasks_from_git(sample, snapshot=snapshot, include=OPTIONAL_KINDS)) == \
        SHIPPED.read_text("utf-8")


def test_sample_tasks_never_leak(sample: Path) -> None:
    at_snapshot = {e.path for e in ls_tree(sample, SAMPLE_SNAPSHOT)}
    tasks = read_tasks(SHIPPED)
    assert len(tasks) == 12
    for t in tasks:
        assert t.snapshot == SAMPLE_SNAPSHOT and t.id == "c" + (t.commit or "")[:10]
        assert set(t.files) <= at_snapshot  # every needed file is in the snapshot's index
        # the task's commit is not in the snapshot's history
        with pytest.raises(GitError):
            git(sample, "merge-base", "--is-ancestor", t.commit or "", SAMPLE_SNAPSHOT)
    dates = [t.date or "" for t in tasks]
    assert dates == sorted(dates)  # oldest first


def test_sample_rules(sample: Path) -> None:
    mined = mine_tasks(sample, snapshot=SAMPLE_SNAPSHOT)
    files = {t.task: t.files for t in mined.tasks}
    assert mined.commits == 16
    # 24 files: above max_files 20
    assert "Add SPDX license headers to all source files" not in files
    # ratelimit.py is new: dropped from its own commit, which keeps app.py
    assert files["Add rate limiting to create endpoint"] == ("api/shorty/app.py",)
    assert files["Add --json output flag to CLI"] == ("cli/cmd/create.go",)
    # only new files: no task ("Test rate limiter window", "Test the --json flag"); a file
    # added after the snapshot stays unpredictable when a later commit edits it
    assert "Test rate limiter window" not in files
    assert "Make rate limit configurable from environment" not in files
    # docs only: no task unless docs are asked for
    assert "Document rate limits and expiry" not in files
    with_docs = {t.task: t.files for t in tasks_from_git(sample, snapshot=SAMPLE_SNAPSHOT,
                                                         include=["docs"])}
    assert with_docs["Document rate limits and expiry"] == ("README.md", "docs/API.md")
    assert mined.skipped == {"too_many_files": 1, "too_few_files": 4}
    # added: ratelimit.py, 2 test files and 2 edits of them, LICENSE (in the 24-file commit)
    assert mined.dropped == {"added": 6, "docs": 2}
    # with a larger max the big commit is a task (LICENSE is not code: 23 files)
    big = by_subject(sample, SAMPLE_SNAPSHOT, max_files=30)
    assert len(big["Add SPDX license headers to all source files"]) == 23


def test_rename_counts_under_the_snapshot_name(sample: Path) -> None:
    # util.py was renamed to alias.py in 139b6d8; the next commit edits alias.py
    files = by_subject(sample, "7158994", until="911c15a")
    assert files == {"Rename util module to alias": ("api/shorty/util.py", "api/shorty/app.py"),
                     "Validate custom aliases": ("api/shorty/util.py",)}


def test_tests_left_out_on_request(sample: Path) -> None:
    with_tests = by_subject(sample, SAMPLE_SNAPSHOT)
    without = by_subject(sample, SAMPLE_SNAPSHOT, include_tests=False)
    assert with_tests["Fix stats crash when store is empty"] == ("api/shorty/app.py",
                                                                 "api/tests/test_app.py")
    assert without["Fix stats crash when store is empty"] == ("api/shorty/app.py",)
    assert "Update client tests for resolveLink" not in without
    mined = mine_tasks(sample, snapshot=SAMPLE_SNAPSHOT, include_tests=False)
    # without its 8 test files the license commit is small enough: 15 files, a task
    assert len(without["Add SPDX license headers to all source files"]) == 15
    assert mined.skipped == {"too_few_files": 5}
    assert mined.dropped == {"added": 6, "test": 4 + 8, "docs": 2}


def test_pick_snapshot_is_a_time_split(sample: Path) -> None:
    # 40 commits: 0.3 → the last 12 come after the snapshot
    snap = pick_snapshot(sample, tasks_fraction=0.3)
    assert git(sample, "rev-list", "--count", f"{snap}..HEAD").decode().strip() == "12"
    assert pick_snapshot(sample, until="HEAD~10", tasks_fraction=0.5) == \
        git(sample, "rev-parse", "HEAD~25").decode().strip()
    with pytest.raises(ValueError, match="between 0 and 1"):
        pick_snapshot(sample, tasks_fraction=1.0)


def test_errors_name_the_repository(sample: Path, tmp_path: Path) -> None:
    with pytest.raises(GitError, match="not a git repository"):
        mine_tasks(tmp_path, snapshot="HEAD")
    with pytest.raises(GitError, match="unknown revision 'nope'"):
        mine_tasks(sample, snapshot="nope")
    with pytest.raises(GitError, match="not an ancestor"):
        mine_tasks(sample, snapshot="HEAD", until="HEAD~2")
    with pytest.raises(ValueError, match="min_files"):
        mine_tasks(sample, snapshot="HEAD~2", min_files=3, max_files=2)
    assert tasks_from_git(sample, snapshot="HEAD") == []


def test_progress_can_cancel(sample: Path) -> None:
    seen: list[str] = []
    mine_tasks(sample, snapshot=SAMPLE_SNAPSHOT,
               progress=Progress(on_progress=lambda f, m: seen.append(m)))
    assert seen[-1] == "11 tasks"
    with pytest.raises(Cancelled):
        mine_tasks(sample, snapshot=SAMPLE_SNAPSHOT, progress=Progress(should_stop=lambda: True))


# -- a throwaway repository -------------------------------------------------------------------


class Repo:
    def __init__(self, root: Path) -> None:
        self.root = root
        (root / "home").mkdir(parents=True)
        self.work = root / "repo"
        self.work.mkdir()
        self.env = git_env(root / "home")
        self.day = 0
        self("-c", "init.defaultBranch=main", "init", "-q")

    def __call__(self, *args: str) -> str:
        env = dict(self.env, GIT_AUTHOR_DATE=f"2026-01-{self.day + 1:02d}T10:00:00+00:00",
                   GIT_COMMITTER_DATE=f"2026-01-{self.day + 1:02d}T10:00:00+00:00")
        done = subprocess.run(["git", "-c", "user.name=Tess", "-c", "user.email=t@example.org",
                               *args], cwd=self.work, env=env, check=True,
                              capture_output=True, text=True)
        return done.stdout.strip()

    def write(self, path: str, text: str) -> None:
        (self.work / path).parent.mkdir(parents=True, exist_ok=True)
        (self.work / path).write_text(text)

    def commit(self, message: str) -> str:
        self.day += 1
        self("add", "-A")
        self("commit", "-q", "-m", message)
        return self("rev-parse", "HEAD")


def body(name: str) -> str:
    return "".join(f"def {name}_{i}():\n    return {i}\n" for i in range(12))


@pytest.fixture
def tiny(tmp_path: Path) -> tuple[Path, str]:
    r = Repo(tmp_path)
    for name in ("a", "b", "c"):
        r.write(f"{name}.py", body(name))
    r.write("test_a.py", "import a\n")
    r.write("notes.txt", "notes\n")
    root = r.commit("Initial")
    r("checkout", "-q", "-b", "side")
    r.write("b.py", body("b") + "x = 1\n")
    r.commit("Side: tweak b")
    r("checkout", "-q", "main")
    r("mv", "a.py", "core.py")
    r.commit("Rename a to core")
    r.write("core.py", body("a") + "y = 2\n")
    r.write("new.py", "z = 3\n")
    r.write("notes.txt", "more notes\n")
    r.commit("Edit core\n\nWhy: core needed y.")
    r("rm", "-q", "c.py")
    r.commit("Remove c")
    r.day += 1
    r("merge", "-q", "--no-ff", "-m", "Merge side", "side")
    r.write("c.py", "back = True\n")
    r.commit("Bring c back")
    return r.work, root


def test_merges_renames_deletes_and_readds(tiny: tuple[Path, str]) -> None:
    repo, root = tiny
    mined = mine_tasks(repo, snapshot=root)
    assert [(t.task, t.files) for t in mined.tasks] == [
        ("Side: tweak b", ("b.py",)),
        ("Rename a to core", ("a.py",)),  # the snapshot knows core.py as a.py
        ("Edit core\n\nWhy: core needed y.", ("a.py",)),  # new.py is new, notes.txt docs
        ("Remove c", ("c.py",)),  # deleted, but it existed at the snapshot
    ]
    # the merge, and c.py brought back (a new file, whatever its name)
    assert mined.commits == 6
    assert mined.skipped == {"merge": 1, "too_few_files": 1}
    assert mined.dropped == {"added": 2, "docs": 1}  # new.py and c.py again; notes.txt
    t = mined.tasks[0]
    assert t.author == "Tess" and t.date == "2026-01-03T10:00:00+00:00"
    assert t.snapshot == root and t.commit is not None and t.id == "c" + t.commit[:10]


def test_subject_only_on_request(tiny: tuple[Path, str]) -> None:
    repo, root = tiny
    texts = [t.task for t in tasks_from_git(repo, snapshot=root)]
    assert texts[2] == "Edit core\n\nWhy: core needed y."
    assert [t.task for t in tasks_from_git(repo, snapshot=root, subject_only=True)][2] == \
        "Edit core"


def test_pick_snapshot_follows_the_first_parent_line(tiny: tuple[Path, str]) -> None:
    repo, root = tiny
    # 6 non-merge commits; 0.5 → 3 after the snapshot. On main's first-parent line, after
    # "Rename a to core" come Edit core, Remove c, Side: tweak b (via the merge), Bring c back
    # (4); after "Edit core": 3.
    snap = pick_snapshot(repo, tasks_fraction=0.5)
    assert git(repo, "show", "-s", "--format=%s", snap).decode().strip() == "Edit core"
    assert pick_snapshot(repo, tasks_fraction=0.01) == \
        git(repo, "rev-parse", "HEAD~1").decode().strip()
    assert pick_snapshot(repo, tasks_fraction=0.99) == root


def test_no_tests_drops_files_under_a_test_folder_too() -> None:
    # ky's tests are test/main.ts, test/hooks.ts: not named as tests, so --no-tests kept them
    # in 28 of its 103 tasks; CodeLedger's own pairing keeps to the naming conventions
    from workbench.core.repo.file_kinds import SOURCE
    from workbench.core.repo.pairing import is_test_path, looks_like_test
    from workbench.core.repo.tasks import _drop_reason

    kinds = frozenset({SOURCE})
    for path in ("test/main.ts", "packages/x/__tests__/a.js", "spec/models/user_spec.rb",
                 "api/tests/conftest.py", "src/app.test.ts"):
        assert looks_like_test(path) and _drop_reason(path, kinds, False) == "test", path
        assert _drop_reason(path, kinds, True) is None, path
    for path in ("source/index.ts", "src/testing_utils.py", "tests.py", "contest/a.py"):
        assert not looks_like_test(path) and _drop_reason(path, kinds, False) is None, path
    assert not is_test_path("test/main.ts")


def test_a_file_the_index_leaves_out_is_no_task_file(tmp_path: Path) -> None:
    # a binary with a source's name stayed a task's file: eval then warned that relevant
    # judgments name documents not in the corpus, and recall stopped short of 1
    r = Repo(tmp_path)
    r.write("a.py", body("a"))
    r.write("b.py", body("b"))
    (r.work / "blob.py").write_bytes(b"\x00\x01binary" * 10)
    root = r.commit("Initial")
    r.write("a.py", body("a") + "x = 1\n")
    (r.work / "blob.py").write_bytes(b"\x00\x02binary" * 10)
    r.commit("Touch a and the blob")
    (r.work / "blob.py").write_bytes(b"\x00\x03binary" * 10)
    r.commit("Touch only the blob")
    mined = mine_tasks(r.work, snapshot=root)
    assert [(t.task, t.files) for t in mined.tasks] == [("Touch a and the blob", ("a.py",))]
    assert mined.dropped == {"not_indexed": 2}
    assert mined.skipped == {"too_few_files": 1}


def test_a_submodule_change_is_said_as_one(tmp_path: Path) -> None:
    # a changed gitlink was counted as a file "added after the snapshot"
    r = Repo(tmp_path)
    r.write("a.py", body("a"))
    first = r.commit("Initial")
    r("update-index", "--add", "--cacheinfo", f"160000,{first},vendor/sub")
    r("commit", "-q", "-m", "Add the vendor submodule")
    root = r("rev-parse", "HEAD")
    r.write("a.py", body("a") + "x = 1\n")
    r("add", "a.py")
    r("update-index", "--cacheinfo", f"160000,{root},vendor/sub")
    r("commit", "-q", "-m", "Bump vendor and fix a")
    mined = mine_tasks(r.work, snapshot=root)
    assert [(t.task, t.files) for t in mined.tasks] == [("Bump vendor and fix a", ("a.py",))]
    assert mined.dropped == {"submodule": 1}
