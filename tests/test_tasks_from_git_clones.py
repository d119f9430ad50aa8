"""Indexing and mining real clones: a partial clone (`--filter=blob:none`) that lacks some
blobs, its remote gone or not; a shallow clone; a Git LFS pointer. Nothing is fetched, the
unreadable files are named in `skipped`, the others are indexed."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.test_repo_index import make_repo
from workbench.core.checks import load_warnings
from workbench.core.data import FormatError
from workbench.core.formats.code_repo import read_code_repo
from workbench.core.repo import index_repository
from workbench.core.repo.git import is_partial_clone, ls_tree
from workbench.core.repo.index import LFS_POINTER, LOST, MISSING
from workbench.core.repo.sample import git_env
from workbench.core.repo.tasks import mine_tasks

LFS_TEXT = ("version https://git-lfs.github.com/spec/v1\n"
            "oid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\n"
            "size 12345\n")


def clone(source: Path, dest: Path, *options: str) -> Path:
    env = git_env(dest.parent / f".{dest.name}-home")
    subprocess.run(["git", "-C", str(source), "config", "uploadpack.allowFilter", "true"],
                   check=True, env=env)
    subprocess.run(["git", "clone", "-q", *options, f"file://{source}", str(dest)],
                   check=True, env=env, capture_output=True)
    return dest


@pytest.fixture
def two_commits(tmp_path: Path) -> Path:
    """a.py the same in both commits; b.py changed by the second."""
    src = make_repo(tmp_path / "src", {"a.py": "def a():\n    return 1\n",
                                       "b.py": "def b():\n    return 1\n"}, message="one")
    return make_repo(src, {"b.py": "def b():\n    return 2\n"}, message="Change b",
                     when=1_700_000_100)


@pytest.mark.parametrize("remote_gone", [False, True])
def test_partial_clone_skips_the_blobs_it_lacks(two_commits: Path, tmp_path: Path,
                                                remote_gone: bool) -> None:
    # checked out at HEAD: the clone holds HEAD's blobs, not the first commit's b.py
    repo = clone(two_commits, tmp_path / "partial", "--filter=blob:none")
    if remote_gone:  # offline, or the remote moved: git would die fetching
        two_commits.rename(tmp_path / "gone")
    assert is_partial_clone(repo)
    index = index_repository(repo, rev="HEAD~1", use_cache=False)
    assert index.paths == ("a.py",)
    assert index.skipped == (("b.py", MISSING),)
    assert index.file("a.py").commits == 1  # history without blobs still counts commits
    at_head = index_repository(repo, use_cache=False)
    assert at_head.paths == ("a.py", "b.py") and at_head.skipped == ()
    if not remote_gone:  # still missing: indexing fetched nothing
        assert [e.missing for e in ls_tree(repo, "HEAD~1")] == [False, True]


def test_partial_clone_without_checkout_opens_as_a_dataset(two_commits: Path,
                                                           tmp_path: Path) -> None:
    repo = clone(two_commits, tmp_path / "bare-ish", "--filter=blob:none", "--no-checkout")
    two_commits.rename(tmp_path / "gone")
    index = index_repository(repo, use_cache=False)
    assert index.paths == ()
    assert index.skipped == (("a.py", MISSING), ("b.py", MISSING))
    # not the old "field rev" error, nor an empty dataset whose every bundle is empty: what
    # could not be read, and why
    with pytest.raises(FormatError, match=r"none of the 2 files of the snapshot \w+ could be "
                                          r"read \(missing: the clone lacks it"):
        read_code_repo(repo)


def test_missing_index_is_not_cached(two_commits: Path, tmp_path: Path) -> None:
    repo = clone(two_commits, tmp_path / "partial", "--filter=blob:none")
    first = index_repository(repo, rev="HEAD~1")
    assert first.skipped == (("b.py", MISSING),)
    subprocess.run(["git", "-C", str(repo), "checkout", "-q", first.commit], check=True,
                   capture_output=True)  # fetches b.py's old blob
    again = index_repository(repo, rev=first.commit)
    assert again.paths == ("a.py", "b.py") and again.skipped == ()


def test_partial_clone_mines_tasks(two_commits: Path, tmp_path: Path) -> None:
    repo = clone(two_commits, tmp_path / "partial", "--filter=blob:none", "--no-checkout")
    two_commits.rename(tmp_path / "gone")
    mined = mine_tasks(repo, snapshot="HEAD~1")
    assert [(t.task, t.files) for t in mined.tasks] == [("Change b", ("b.py",))]


def test_shallow_clone_indexes_what_it_holds(two_commits: Path, tmp_path: Path) -> None:
    repo = clone(two_commits, tmp_path / "shallow", "--depth", "1")
    index = index_repository(repo, use_cache=False)
    assert index.paths == ("a.py", "b.py") and index.skipped == ()
    assert index.file("b.py").commits == 1  # the history it has: one commit


def test_a_shallow_clone_is_its_own_index_and_is_said(two_commits: Path,
                                                         tmp_path: Path) -> None:
    # cached, at the same commit: the whole history's index is not the shallow clone's
    full = index_repository(two_commits)
    repo = clone(two_commits, tmp_path / "shallow", "--depth", "1")
    cut = index_repository(repo)
    assert full.commit == cut.commit
    assert full.file("b.py").commits == 2 and cut.file("b.py").commits == 1
    assert index_repository(two_commits).file("b.py").commits == 2  # and back again
    warnings = load_warnings(read_code_repo(repo))
    assert any("shallow clone (1 commit of history)" in w and "--unshallow" in w
               for w in warnings)
    assert not any("shallow" in w for w in load_warnings(read_code_repo(two_commits)))


def _loose_clone(source: Path, dest: Path, tmp_path: Path) -> Path:
    """A full clone whose objects are loose files, so that one can be removed."""
    repo = clone(source, dest, "--no-local")
    for pack in list((repo / ".git" / "objects" / "pack").glob("*.pack")):
        moved = tmp_path / pack.name
        pack.rename(moved)
        (repo / ".git" / "objects" / "pack" / pack.with_suffix(".idx").name).unlink()
        with moved.open("rb") as data:
            subprocess.run(["git", "-C", str(repo), "unpack-objects", "-q"], stdin=data,
                           check=True)
    return repo


def _lose(repo: Path, path: str) -> None:
    blob = subprocess.run(["git", "-C", str(repo), "rev-parse", f"HEAD:{path}"], check=True,
                          capture_output=True, text=True).stdout.strip()
    (repo / ".git" / "objects" / blob[:2] / blob[2:]).unlink()


def test_a_blob_lost_after_the_index_was_cached_is_named(
        two_commits: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WORKBENCH_CACHE_DIR", str(tmp_path / "cache"))
    repo = _loose_clone(two_commits, tmp_path / "later", tmp_path)
    assert len(read_code_repo(repo).corpus) == 2  # indexed whole, and cached
    _lose(repo, "b.py")
    ds = read_code_repo(repo)
    assert ds.corpus.ids == ["a.py"]  # not b.py with an empty text
    assert any("b.py" in w and "left out of the index" in w for w in load_warnings(ds))


def test_a_blob_lost_from_a_full_clone_is_skipped_and_named(
        two_commits: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # a cache of its own: another test's two_commits has the same commit, indexed whole
    monkeypatch.setenv("WORKBENCH_CACHE_DIR", str(tmp_path / "cache"))
    repo = _loose_clone(two_commits, tmp_path / "damaged", tmp_path)
    _lose(repo, "b.py")
    index = index_repository(repo, use_cache=False)
    assert index.paths == ("a.py",) and index.skipped == (("b.py", LOST),)
    assert any("b.py" in w and "left out of the index" in w
               for w in load_warnings(read_code_repo(repo)))


def test_lfs_pointer_is_skipped(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "r", {"model.py": "x = 1\n", "weights.bin": LFS_TEXT,
                                      ".gitattributes": "*.bin filter=lfs diff=lfs merge=lfs\n"})
    index = index_repository(repo, use_cache=False)
    assert index.paths == (".gitattributes", "model.py")
    assert index.skipped == (("weights.bin", LFS_POINTER),)


def test_partial_clone_offline_follows_exact_renames_and_says_so(tmp_path: Path) -> None:
    body = "".join(f"def f{i}():\n    return {i}\n" for i in range(20))
    src = make_repo(tmp_path / "src", {"a.py": body, "b.py": "b = 1\n"}, message="one")
    (src / "a.py").rename(src / "core.py")
    make_repo(src, {"core.py": body + "x = 1\n"}, message="Rename a to core and edit it",
              when=1_700_000_100)
    (src / "b.py").rename(src / "moved.py")
    make_repo(src, {}, message="Move b unchanged", when=1_700_000_200)
    full = mine_tasks(src, snapshot="HEAD~2")
    repo = clone(src, tmp_path / "partial", "--filter=blob:none", "--no-checkout")
    src.rename(tmp_path / "gone")
    mined = mine_tasks(repo, snapshot="HEAD~2")
    assert [(t.task, t.files) for t in mined.tasks] == [(t.task, t.files) for t in full.tasks] \
        == [("Rename a to core and edit it", ("a.py",)), ("Move b unchanged", ("b.py",))]
    assert full.notes == ()
    assert len(mined.notes) == 1 and "only renames without edits were followed" in mined.notes[0]


def test_tasks_from_a_shallow_clone_say_it(two_commits: Path, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    """eval, explain and rank said a shallow clone's history is short; tasks-from-git, whose
    tasks are few for that reason (20 commits gave 1 task), said nothing."""
    from workbench.cli import main

    repo = clone(two_commits, tmp_path / "shallow", "--depth", "1")
    main(["tasks-from-git", "--repo", str(repo), "-o", str(tmp_path / "t.jsonl")])
    assert "is a shallow clone (1 commit of history)" in capsys.readouterr().err
    main(["tasks-from-git", "--repo", str(two_commits), "-o", str(tmp_path / "u.jsonl")])
    assert "shallow clone" not in capsys.readouterr().err
