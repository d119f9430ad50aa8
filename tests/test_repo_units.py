"""The small pure pieces of the repository index: words, globs, log parsing, bands, pairing."""

from __future__ import annotations

import math

import pytest

from workbench.core.repo.history import Commit, churn, file_history, parse_log, recency
from workbench.core.repo.ignore import FileFilter, glob_matches
from workbench.core.repo.imports import ImportResolver
from workbench.core.repo.lang import (
    exported_symbols,
    keywords,
    language_of,
    split_identifier,
    token_estimate,
)
from workbench.core.repo.pairing import is_test_path, pair_tests, source_candidates


@pytest.mark.parametrize(("ident", "words"), [
    ("getUserById", ["get", "user", "by", "id"]),
    ("HTTPServer", ["http", "server"]),
    ("rate_limit-window", ["rate", "limit", "window"]),
    ("parseV2Config", ["parse", "v", "2", "config"]),
])
def test_split_identifier(ident: str, words: list[str]) -> None:
    assert split_identifier(ident) == words


def test_keywords_head_plus_definitions_capped() -> None:
    lines = ["# getUserById helper"] + ["x = 1"] * 60 + ["def late_handler():", "zzz_unseen = 2"]
    words = keywords(lines, "python")
    assert words == ("get", "user", "helper", "def", "late", "handler")  # no stop words
    three = [chr(97 + i // 26) + chr(97 + i % 26) + "x" for i in range(300)]
    assert keywords(three, "python") == tuple(three[:50])  # only the first 50 lines
    assert keywords([" ".join(three)], "python") == tuple(three[:100])  # at most 100


def test_languages_and_tokens() -> None:
    assert [language_of(p) for p in ("a/b.py", "x.tsx", "m.go", "R.java", "Makefile")] == [
        "python", "typescript", "go", "java", "other"]
    assert token_estimate(10, "python") == 32
    assert token_estimate(3, "typescript") == math.ceil(10.5)
    assert token_estimate(2, "java") == 9
    assert token_estimate(5, "rust") == 20


def test_exported_symbols_per_language() -> None:
    assert exported_symbols(["def run():", "def _private():", "class Box:", "    def m():"],
                            "python") == ("run", "Box")
    assert exported_symbols(["export default class App {}", "const x = 1;",
                             "export { a, b as c };"], "typescript") == ("App", "a", "c")
    assert exported_symbols(["func (s *S) Get() {}", "func helper() {}", "type T struct{}"],
                            "go") == ("Get", "T")


@pytest.mark.parametrize(("pattern", "path", "hit"), [
    ("build/", "build/x.js", True),
    ("build/", "build", False),  # a file named build is no directory
    ("*.min.js", "web/a.min.js", True),
    ("docs/*.md", "docs/a.md", True),
    ("docs/*.md", "sub/docs/a.md", False),  # anchored
    ("node_modules", "web/node_modules/x/y.js", True),
    ("/vendor", "vendor/a.go", True),
])
def test_glob_matches(pattern: str, path: str, hit: bool) -> None:
    assert glob_matches(pattern, path) is hit


def test_ignore_negation_last_line_wins() -> None:
    f = FileFilter.of((), (), "*.log\n!keep.log\n")
    assert not f.keeps("a.log") and f.keeps("keep.log") and f.keeps("a.py")


def test_parse_log_renames_and_binary() -> None:
    raw = (b"\x1eaaa\x1f200\x00\n1\t1\t\x00old/x.py\x00new/x.py\x00-\t-\tlogo.png\x00"
           b"\x1ebbb\x1f100\x00\n3\t0\told/x.py\x00")
    log = parse_log(raw)
    assert log == [Commit("aaa", 200, (("old/x.py", "new/x.py"), ("logo.png", "logo.png"))),
                   Commit("bbb", 100, (("old/x.py", "old/x.py"),))]
    hist = file_history(log, ["new/x.py", "logo.png"], now=200 + 86400, churn_days=90)
    assert hist["new/x.py"].commits == 2 and hist["new/x.py"].days_since_last == 1.0


def test_recency_bands_and_churn_formula() -> None:
    assert [recency(d) for d in (0, 7, 7.01, 30, 30.5, 90, 90.1, None)] == [
        1.0, 1.0, 0.6, 0.6, 0.3, 0.3, 0.1, 0.3]
    assert churn(10, 30.0) == pytest.approx(0.5 * math.exp(-1))
    assert churn(100, 0.0) == 1.0
    assert churn(3, None) == pytest.approx(3 / 20 * math.exp(-3))


def test_pairing_candidates() -> None:
    assert source_candidates("pkg/tests/test_core.py") == [
        "pkg/tests/core.py", "pkg/core.py", "pkg/src/core.py"]
    assert source_candidates("web/__tests__/a.spec.tsx")[:2] == ["web/__tests__/a.tsx",
                                                                "web/__tests__/a.ts"]
    assert "web/a.tsx" in source_candidates("web/__tests__/a.spec.tsx")
    assert source_candidates("x/y_test.go") == ["x/y.go"]
    assert is_test_path("a/b_test.py") and not is_test_path("a/testing.py")


def test_pairing_falls_back_to_the_tests_relative_imports() -> None:
    """REFERENCE §2: a test no name rule pairs is paired with the non-test files it imports
    relatively; an absolute import pairs only by name (a shared helper such as
    `tests/conftest.py`, imported absolutely by every test, tests nothing)."""
    files = {
        "pkg/__init__.py": "",
        "pkg/core/__init__.py": "",
        "pkg/core/engine.py": "def run(): pass",
        "pkg/util.py": "def helper(): pass",
        "pkg/tests/__init__.py": "",
        "pkg/tests/test_misc.py": "from ..core import engine\nimport pkg.util\n",
        "pkg/tests/test_util.py": "from pkg import util\n",
        "tests/conftest.py": "X = 1",
        "tests/test_other.py": "from tests.conftest import X\nimport pkg.util\n",
        "src/client.ts": "export const c = 1",
        "test/helpers.ts": "export const h = 1",
        "test/api.test.ts": "import {c} from '../src/client.js'\nimport {h} from './helpers.js'\n",
    }
    paths = sorted(files)
    resolver = ImportResolver(paths, {})
    lang = {".py": "python", ".ts": "typescript"}
    split = {p: resolver.resolve_relative(p, files[p], lang[p[p.rindex("."):]]) for p in paths}
    assert split["pkg/tests/test_misc.py"] == (("pkg/core/engine.py", "pkg/util.py"),
                                               ("pkg/core/engine.py",))
    assert split["test/api.test.ts"][0] == split["test/api.test.ts"][1] == (
        "src/client.ts", "test/helpers.ts")
    pairs = pair_tests(paths, {p: v[0] for p, v in split.items()},
                       {p: v[1] for p, v in split.items()})
    assert pairs == {
        "pkg/tests/test_misc.py": ("pkg/core/engine.py",),  # not the absolute pkg.util
        "pkg/tests/test_util.py": ("pkg/util.py",),  # the name rule (`tests/` removed)
        "test/api.test.ts": ("src/client.ts", "test/helpers.ts"),
    }  # tests/test_other.py imports conftest and pkg.util absolutely: no pair
