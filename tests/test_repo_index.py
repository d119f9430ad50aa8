"""The repository index on small repositories made in the test: skipping, ignore rules,
import resolution corners, branch changes, scale."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from workbench.core.repo import GitError, index_repository
from workbench.core.repo.sample import git_env


def make_repo(root: Path, files: dict[str, bytes | str], *, message: str = "init",
              when: int = 1_700_000_000) -> Path:
    """Write `files` into `root` and commit them with fixed identities and dates."""
    root.mkdir(parents=True, exist_ok=True)
    home = root.parent / f".{root.name}-home"
    home.mkdir(exist_ok=True)
    env = git_env(home) | {
        "GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@x", "GIT_COMMITTER_NAME": "T",
        "GIT_COMMITTER_EMAIL": "t@x", "GIT_AUTHOR_DATE": f"@{when} +0000",
        "GIT_COMMITTER_DATE": f"@{when} +0000"}
    if not (root / ".git").exists():
        subprocess.run(["git", "-c", "init.defaultBranch=main", "init", "-q"], cwd=root,
                       env=env, check=True)
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, str):
            path.write_text(content, encoding="utf-8")
        else:
            path.write_bytes(content)
    subprocess.run(["git", "add", "-A"], cwd=root, env=env, check=True)
    subprocess.run(["git", "commit", "-q", "-m", message], cwd=root, env=env, check=True)
    return root


def test_binaries_and_huge_files_are_skipped(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "r", {
        "a.py": "x = 1\n",
        "logo.png": b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR",
        "late_nul.txt": b"a" * 9000 + b"\0",  # NUL after the first 8 KiB: text
        "big.txt": b"line\n" * (2 * 1024 * 1024 + 1),  # 10 MB + 5 bytes
    })
    index = index_repository(repo, use_cache=False)
    assert index.paths == ("a.py", "late_nul.txt")
    assert index.skipped == (("big.txt", "too large"), ("logo.png", "binary"))


def test_ignore_file_and_globs(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "r", {
        ".codeledgerignore": "# generated\nbuild/\n*.min.js\ndocs/**\n!docs/keep.md\n",
        "src/app.ts": "export const a = 1;\n",
        "src/vendor.min.js": "x\n",
        "build/out.js": "x\n",
        "docs/guide.md": "# g\n",
        "docs/keep.md": "# k\n",
        "tools/gen.py": "print()\n",
    })
    index = index_repository(repo, use_cache=False)
    assert index.paths == (".codeledgerignore", "docs/keep.md", "src/app.ts", "tools/gen.py")
    only_src = index_repository(repo, include=["src/*"], use_cache=False)
    assert only_src.paths == ("src/app.ts",)
    no_py = index_repository(repo, exclude=["*.py", ".codeledgerignore"], use_cache=False)
    assert no_py.paths == ("docs/keep.md", "src/app.ts")


def test_python_relative_and_package_imports(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "r", {
        "pkg/__init__.py": "from .core import run\n",
        "pkg/core.py": "from . import util\nfrom ..top import thing  # outside: no edge\n",
        "pkg/util.py": "import os\nimport json\n",
        "pkg/json.py": "",  # inside the package: not the standard library's json
        "pkg/sub/__init__.py": "",
        "pkg/sub/deep.py": "from ..core import run\nfrom pkg import util\nimport pkg.sub\n",
        "main.py": "import pkg\nfrom pkg.sub import (\n    deep,  # the module\n)\n",
    })
    index = index_repository(repo, use_cache=False)
    assert index.file("pkg/__init__.py").imports == ("pkg/core.py",)
    assert index.file("pkg/core.py").imports == ("pkg/util.py",)
    assert index.file("pkg/sub/deep.py").imports == (
        "pkg/core.py", "pkg/util.py", "pkg/sub/__init__.py")
    assert index.file("main.py").imports == ("pkg/__init__.py", "pkg/sub/deep.py")
    assert index.file("pkg/util.py").dependents == ("pkg/core.py", "pkg/sub/deep.py")
    assert index.file("pkg/util.py").imports == ()
    assert index.file("pkg/json.py").dependents == ()


def test_javascript_resolution(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "r", {
        "web/lib/index.ts": "export * from './math.js';\n",
        "web/lib/math.ts": "export function add(a: number, b: number) { return a + b; }\n",
        "web/app.js": "const lib = require('./lib');\nimport('./later');\nimport 'react';\n",
        "web/later.jsx": "export default 1;\n",
        "web/lib/math.test.ts": "import { add } from './math';\n",
    })
    index = index_repository(repo, use_cache=False)
    assert index.file("web/lib/index.ts").imports == ("web/lib/math.ts",)
    assert index.file("web/app.js").imports == ("web/lib/index.ts", "web/later.jsx")
    assert index.file("web/lib/math.ts").tests == ("web/lib/math.test.ts",)
    assert index.file("web/lib/math.ts").symbols == ("add",)


def test_go_module_in_a_subfolder(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "r", {
        "svc/go.mod": "module example.com/svc\n\ngo 1.22\n",
        "svc/main.go": 'package main\n\nimport "example.com/svc/store"\n\nfunc main() {}\n',
        "svc/store/store.go": "package store\n\ntype Store struct{}\n\nfunc helper() {}\n",
        "svc/store/store_test.go": 'package store\n\nimport "testing"\n',
    })
    index = index_repository(repo, use_cache=False)
    assert index.file("svc/main.go").imports == ("svc/store/store.go",)
    assert index.file("svc/store/store.go").symbols == ("Store",)
    assert index.file("svc/store/store_test.go").tests == ("svc/store/store.go",)


def test_branch_and_uncommitted_changes(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "r", {"a.py": "a = 1\n", "b.py": "b = 1\n", "c.py": "c = 1\n"})
    subprocess.run(["git", "checkout", "-q", "-b", "feature"], cwd=repo, check=True)
    make_repo(repo, {"b.py": "b = 2\n"}, message="change b", when=1_700_000_100)
    (repo / "c.py").write_text("c = 2\n", encoding="utf-8")  # uncommitted
    index = index_repository(repo)
    assert index.changed == ("b.py", "c.py")
    at_main = index_repository(repo, rev="main")  # not HEAD: no working-tree view
    assert at_main.changed == ()


def test_errors_name_the_problem(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "r", {"a.py": "a = 1\n"})
    with pytest.raises(GitError, match="unknown revision 'no-such-branch'"):
        index_repository(repo, rev="no-such-branch")
    with pytest.raises(GitError, match="missing: no such folder"):
        index_repository(tmp_path / "missing")
    (tmp_path / "file.py").write_text("x = 1\n")
    with pytest.raises(GitError, match=r"file\.py: not a folder"):
        index_repository(tmp_path / "file.py")
    (tmp_path / "plain").mkdir()
    with pytest.raises(GitError, match="not a git repository"):
        index_repository(tmp_path / "plain")
    subprocess.run(["git", "init", "-q", str(tmp_path / "plain")], check=True)
    with pytest.raises(GitError, match="plain: a git repository with no commits yet"):
        index_repository(tmp_path / "plain")
    with pytest.raises(ValueError, match="churn_days"):
        index_repository(repo, churn_days=0)


def test_a_few_thousand_files_are_indexed_and_cached(tmp_path: Path) -> None:
    # correctness at this size; the speed is `workbench bench --code-scale`'s to measure
    files: dict[str, bytes | str] = {}
    for d in range(30):
        for i in range(100):
            files[f"pkg{d}/mod{i}.py"] = (
                f'"""Module {i} of package {d}."""\n\nfrom pkg{d} import mod{(i + 1) % 100}\n\n'
                f"def handle_request_{i}(value: int) -> int:\n    return value + {i}\n" * 3)
    repo = make_repo(tmp_path / "r", files)
    index = index_repository(repo, use_cache=False)
    assert len(index) == 3000
    assert index.file("pkg3/mod7.py").imports == ("pkg3/mod8.py",)
    assert index.file("pkg29/mod99.py").imports == ("pkg29/mod0.py",)
    assert index_repository(repo) == index  # written to the cache …
    assert index_repository(repo) == index  # … and read back


def test_a_file_name_that_is_not_utf8_is_skipped_and_named(tmp_path: Path) -> None:
    # git keeps a Latin-1 name as bytes; held as surrogates it reached the dataset
    # fingerprint and ended in a UnicodeEncodeError. Skipped, named with \x escapes.
    import os

    from workbench.core.formats.code_repo import read_code_repo
    from workbench.core.repo.tasks import mine_tasks

    latin = os.fsdecode(b"src/caf\xe9.py")
    repo = make_repo(tmp_path / "r", {"src/alpha.py": "def alpha():\n    return 1\n",
                                      latin: "x = 1\n"})
    index = index_repository(repo, use_cache=False)
    assert index.paths == ("src/alpha.py",)
    assert [(p, why.split(" (")[0]) for p, why in index.skipped] == [
        ("src/caf\\xe9.py", "its name is not UTF-8")]
    read_code_repo(repo).fingerprint()  # no surrogate left to encode
    make_repo(repo, {latin: "x = 2\n", "src/alpha.py": "def alpha():\n    return 2\n"},
              message="fix alpha and the cafe module", when=1_700_100_000)
    mined = mine_tasks(repo, snapshot="HEAD~1")
    assert [t.files for t in mined.tasks] == [("src/alpha.py",)]
    assert mined.dropped == {"not_utf8": 1}
