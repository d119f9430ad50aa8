"""The sample repository (sample_corpora/code-repo) built from its fast-import stream and
indexed: facts asserted are facts of the history written in history.fi."""

from __future__ import annotations

import subprocess
from collections import Counter
from pathlib import Path

import pytest

from workbench.core.engine import Cancelled, Progress
from workbench.core.repo import RepoIndex, build_sample_repo, index_repository

HEAD = "95ec20ac976a3ad25da6d45a8b9ae644f8b6cc40"
RENAME = "139b6d8"  # "Rename util module to alias"
BIG = "4329a5b"  # "Add SPDX license headers to all source files": 24 files


def rev_parse(repo: Path, rev: str) -> str:
    return subprocess.run(["git", "rev-parse", rev], cwd=repo, check=True, capture_output=True,
                          text=True).stdout.strip()


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_sample_repo(tmp_path_factory.mktemp("sample") / "shorty")


@pytest.fixture(scope="module")
def index(repo: Path) -> RepoIndex:
    return index_repository(repo, use_cache=False)


def test_build_is_deterministic(repo: Path, tmp_path: Path) -> None:
    again = build_sample_repo(tmp_path / "again")
    assert rev_parse(repo, "HEAD") == rev_parse(again, "HEAD") == HEAD
    with pytest.raises(FileExistsError):
        build_sample_repo(again)
    assert [p.name for p in tmp_path.iterdir()] == ["again"]  # no temporary folder left


def test_files_and_languages(index: RepoIndex) -> None:
    assert index.commit == HEAD
    assert index.now == 1780218000  # commit time of HEAD, 2026-05-31 09:00 UTC
    assert len(index) == 34
    assert Counter(f.language for f in index.files) == {
        "python": 10, "go": 10, "typescript": 7, "other": 3, "markdown": 2, "json": 1,
        "go-mod": 1}
    assert index.skipped == ()


def test_token_estimates(index: RepoIndex) -> None:
    # ceil(lines · tokens per line): Python 3.2, TypeScript 3.5, others 4.0
    assert (index.file("api/shorty/app.py").lines, index.file("api/shorty/app.py").tokens) \
        == (36, 116)
    assert (index.file("client/src/client.ts").lines,
            index.file("client/src/client.ts").tokens) == (29, 102)
    assert (index.file("cli/cmd/create.go").lines, index.file("cli/cmd/create.go").tokens) \
        == (28, 112)


def test_symbols_and_keywords(index: RepoIndex) -> None:
    alias = index.file("api/shorty/alias.py")
    assert alias.symbols == ("random_alias", "is_valid_alias")
    assert alias.keywords[:12] == ("spdx", "license", "identifier", "mit", "helpers", "for",
                                   "short", "aliases", "import", "secrets", "string", "alphabet")
    assert "isascii" in alias.keywords and len(alias.keywords) == len(set(alias.keywords))
    assert index.file("client/src/index.ts").symbols == (
        "ShortyClient", "ShortLink", "ShortyError", "withRetry", "RetryOptions", "RateLimitError")
    assert index.file("cli/internal/httpx/client.go").symbols == (
        "Client", "New", "CreateLink", "Resolve")


def test_python_imports_both_ways(index: RepoIndex) -> None:
    app = index.file("api/shorty/app.py")
    assert set(app.imports) == {"api/shorty/store.py", "api/shorty/alias.py",
                                "api/shorty/errors.py", "api/shorty/ratelimit.py"}
    assert index.file("api/shorty/store.py").dependents == (
        "api/shorty/app.py", "api/tests/test_store.py")


def test_typescript_imports_both_ways(index: RepoIndex) -> None:
    assert index.file("client/src/client.ts").imports == ("client/src/errors.ts",
                                                          "client/src/retry.ts")
    assert index.file("client/src/errors.ts").dependents == (
        "client/src/client.ts", "client/src/index.ts", "client/test/errors.test.ts")
    assert index.file("client/src/__tests__/client.test.ts").imports == ("client/src/client.ts",)


def test_go_imports_both_ways(index: RepoIndex) -> None:
    # a package import is an edge to every non-test file of the package
    assert index.file("cli/main.go").imports == (
        "cli/cmd/create.go", "cli/cmd/flags.go", "cli/cmd/resolve.go", "cli/cmd/run.go")
    assert index.file("cli/internal/config/config.go").dependents == (
        "cli/cmd/create.go", "cli/cmd/resolve.go")


def test_centrality(index: RepoIndex) -> None:
    top = max(len(f.imports) + len(f.dependents) for f in index.files)
    assert top == 5  # app.py: four imports, one dependent
    assert index.file("api/shorty/app.py").centrality == 1.0
    assert index.file("cli/main.go").centrality == 0.8
    assert index.file("api/shorty/store.py").centrality == 0.4
    assert index.file("README.md").centrality == 0.0


@pytest.mark.parametrize(("test", "source"), [
    ("api/tests/test_store.py", "api/shorty/store.py"),  # fallback: the import named store
    ("api/tests/test_ratelimit.py", "api/shorty/ratelimit.py"),
    ("client/src/__tests__/client.test.ts", "client/src/client.ts"),  # parent of __tests__
    ("client/src/retry.spec.ts", "client/src/retry.ts"),  # same folder
    ("client/test/errors.test.ts", "client/src/errors.ts"),  # test/… → src/…
    ("cli/cmd/create_test.go", "cli/cmd/create.go"),
    ("cli/internal/config/config_test.go", "cli/internal/config/config.go"),
])
def test_test_pairing(index: RepoIndex, test: str, source: str) -> None:
    assert index.file(test).is_test and index.file(test).tests == (source,)
    assert not index.file(source).is_test and test in index.file(source).tests


def test_recency_bands_and_churn(index: RepoIndex) -> None:
    app = index.file("api/shorty/app.py")  # touched by HEAD itself
    assert (app.commits, app.days_since_last, app.recency) == (5, 0.0, 1.0)
    assert app.churn == pytest.approx(5 / 20)
    limiter = index.file("api/shorty/ratelimit.py")  # last touched 7.75 days before HEAD
    assert limiter.recency == 0.6 and limiter.days_since_last == 7.75
    assert index.file("api/shorty/store.py").recency == 0.3  # 35.7 days
    gitignore = index.file(".gitignore")  # only the first commit, 146 days before
    assert (gitignore.commits, gitignore.recency, gitignore.churn) == (0, 0.1, 0.0)


def test_rename_is_followed(repo: Path) -> None:
    follow = subprocess.run(["git", "log", "--follow", "--format=%h", "--",
                             "api/shorty/alias.py"], cwd=repo, check=True, capture_output=True,
                            text=True).stdout.split()
    assert len(follow) == 5  # including "Add random alias helper", made as util.py
    year = index_repository(repo, churn_days=365, use_cache=False)
    assert year.file("api/shorty/alias.py").commits == 5
    assert "api/shorty/util.py" not in year


def test_huge_commits_are_ignored(repo: Path, index: RepoIndex) -> None:
    init = "api/shorty/__init__.py"
    assert index.file(init).days_since_last == pytest.approx(73.625)  # the SPDX commit
    strict = index_repository(repo, max_commit_files=20, use_cache=False)  # 24 files: huge now
    assert strict.file(init).days_since_last == pytest.approx(144.958, abs=1e-3)
    assert strict.file(init).commits == 0
    assert strict.file("LICENSE").days_since_last is None  # only ever in the huge commit
    assert strict.file("LICENSE").recency == 0.3  # no history counts as 90 days


def test_error_infrastructure(index: RepoIndex) -> None:
    flagged = {f.path for f in index.files if f.error_infrastructure}
    assert flagged == {"api/shorty/errors.py", "client/src/errors.ts", "client/src/index.ts",
                       "client/test/errors.test.ts"}


def test_older_commit_sees_the_old_tree(repo: Path) -> None:
    before = index_repository(repo, rev=f"{RENAME}~1", use_cache=False)
    assert "api/shorty/util.py" in before and "api/shorty/alias.py" not in before
    assert "api/shorty/ratelimit.py" not in before
    assert before.now == int(subprocess.run(
        ["git", "show", "-s", "--format=%ct", f"{RENAME}~1"], cwd=repo, check=True,
        capture_output=True, text=True).stdout)
    assert before.file("api/shorty/app.py").imports == ("api/shorty/store.py",
                                                        "api/shorty/util.py")
    assert not any(f.branch_changed for f in before.files)


def test_injected_now_moves_every_age(repo: Path, index: RepoIndex) -> None:
    later = index_repository(repo, now=index.now + 100 * 86400, use_cache=False)
    assert later.file("api/shorty/app.py").days_since_last == 100.0
    assert later.file("api/shorty/app.py").recency == 0.1
    assert all(f.commits == 0 for f in later.files)  # nothing in the last 90 days


def test_cache_and_progress(repo: Path) -> None:
    seen: list[tuple[float, str]] = []
    first = index_repository(repo, progress=Progress(lambda f, m: seen.append((f, m))))
    assert seen[-1][0] == 1.0 and [f for f, _ in seen] == sorted(f for f, _ in seen)
    seen.clear()
    second = index_repository(repo, progress=Progress(lambda f, m: seen.append((f, m))))
    assert "loaded from cache" in [m for _, m in seen]
    assert second == first


def test_cancel(repo: Path) -> None:
    calls = []

    def stop() -> bool:
        calls.append(1)
        return len(calls) > 3

    with pytest.raises(Cancelled):
        index_repository(repo, progress=Progress(should_stop=stop), use_cache=False)


def test_a_sample_repository_git_cannot_build_is_one_error(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A full disk (or a git that refuses) while the sample's history is imported: one line
    naming the stream and git's own reason, not a CalledProcessError traceback."""
    from tests.conftest import SAMPLES
    from workbench.cli import main
    from workbench.core.formats import code_repo

    def refuse(dest: Path, stream: Path) -> Path:
        raise subprocess.CalledProcessError(
            128, ["git", "-c", "init.defaultBranch=main", "-c", "core.autocrlf=false", "init",
                  "-q"], stderr=b"fatal: could not create work tree dir: No space left\n")

    monkeypatch.setenv("WORKBENCH_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(code_repo, "build_sample_repo", refuse)
    assert main(["eval", str(SAMPLES / "code-repo"), "-m", "codeledger"]) != 0
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert "could not build the sample repository" in err
    assert "git init: fatal: could not create work tree dir: No space left" in err
    assert f"{SAMPLES / 'code-repo' / 'history.fi'}: could not build" in err


@pytest.mark.parametrize("damage", ["packs", "git"])
def test_a_damaged_cached_sample_repository_is_built_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, damage: str) -> None:
    """Its packs gone (or its .git): every later run failed with an error about `rev` naming
    a cache path; now the repository is built again and the sample loads as before."""
    import shutil

    from tests.conftest import SAMPLES
    from workbench.core.formats import load_dataset

    monkeypatch.setenv("WORKBENCH_CACHE_DIR", str(tmp_path / "cache"))
    first = load_dataset(SAMPLES / "code-repo")
    (repo,) = (tmp_path / "cache" / "sample-repos").iterdir()
    if damage == "packs":
        shutil.rmtree(repo / ".git" / "objects" / "pack")
    else:
        shutil.rmtree(repo / ".git")
    again = load_dataset(SAMPLES / "code-repo")
    assert again.corpus.ids == first.corpus.ids and again.queries.ids == first.queries.ids
    assert [p.name for p in (tmp_path / "cache" / "sample-repos").iterdir()] == [repo.name]
