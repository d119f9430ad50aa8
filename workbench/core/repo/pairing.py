"""Test ↔ source pairing (REFERENCE §2).

- Python `test_X.py` / `X_test.py` → `X.py`: in the same folder, with a `tests`/`test` folder
  removed from the path, or with it replaced by `src`.
- Go `X_test.go` → `X.go` in the same folder.
- JS/TS: strip `.test.` / `.spec.`; try the same folder, the parent of `__tests__`, and
  `test/…` / `tests/…` → `src/…`.
- Fallback, when no file has a name the rules allow: among the files the test imports (non-test
  files), the one named `X` (this pairs `api/tests/test_store.py`, which imports
  `shorty.store` absolutely, with `api/shorty/store.py`); failing that, as REFERENCE says,
  every non-test file it imports relatively (Python's `from . import x`, every JS/TS import:
  `test/api.test.ts` importing `../source/index.js` tests `source/index.ts`). An absolute
  Python import pairs only by name, however near the file. Only a file named as a test is
  paired: ky's `test/main.ts` is none (`looks_like_test` is the wider notion).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping

__all__ = ["TEST_FOLDERS", "is_test_path", "looks_like_test", "pair_tests", "source_candidates"]

_PY_TEST = re.compile(r"^(?:test_(.+)|(.+)_test)\.py$")
_GO_TEST = re.compile(r"^(.+)_test\.go$")
_JS_TEST = re.compile(r"^(.+)\.(?:test|spec)(\.[cm]?[jt]sx?)$")
_TEST_DIRS = ("tests", "test")


def is_test_path(path: str) -> bool:
    """A test by CodeLedger's naming conventions (REFERENCE §2): what it pairs and scores."""
    name = posixpath.basename(path)
    return bool(_PY_TEST.match(name) or _GO_TEST.match(name) or _JS_TEST.match(name))


# folders whose files are tests whatever their names (ky's test/main.ts)
TEST_FOLDERS = frozenset(("test", "tests", "__tests__", "spec", "specs"))


def looks_like_test(path: str) -> bool:
    """A test to a person picking files: named as CodeLedger's conventions name one, or under
    a test folder. `tasks-from-git --no-tests` drops these; CodeLedger's own pairing keeps to
    `is_test_path`."""
    return is_test_path(path) or any(part in TEST_FOLDERS for part in path.split("/")[:-1])


def _stem(path: str) -> tuple[str, tuple[str, ...]] | None:
    """(the source's base name, candidate extensions) for a test path, else None."""
    name = posixpath.basename(path)
    if m := _PY_TEST.match(name):
        return (m.group(1) or m.group(2)), (".py",)
    if m := _GO_TEST.match(name):
        return m.group(1), (".go",)
    if m := _JS_TEST.match(name):
        ext = m.group(2)
        exts = (ext, ".ts", ".tsx", ".js", ".jsx") if "t" in ext else (ext, ".js", ".jsx",
                                                                        ".ts", ".tsx")
        return m.group(1), tuple(dict.fromkeys(exts))
    return None


def source_candidates(test: str) -> list[str]:
    """The paths the naming rules allow for `test`'s source, best first."""
    found = _stem(test)
    if found is None:
        return []
    base, exts = found
    folder = posixpath.dirname(test)
    parts = folder.split("/") if folder else []
    folders = [folder]
    if not test.endswith(".go"):
        if parts and parts[-1] == "__tests__":
            folders.append("/".join(parts[:-1]))
        for i, part in enumerate(parts):
            if part in _TEST_DIRS:
                folders.append("/".join(parts[:i] + parts[i + 1:]))
                folders.append("/".join([*parts[:i], "src", *parts[i + 1:]]))
    out = []
    for f in folders:
        for ext in exts:
            out.append(posixpath.join(f, base + ext) if f else base + ext)
    return list(dict.fromkeys(out))


def pair_tests(paths: list[str], imports: Mapping[str, tuple[str, ...]],
               relative: Mapping[str, tuple[str, ...]]) -> dict[str, tuple[str, ...]]:
    """test path → the source paths it tests (only tests with at least one); `imports` and
    `relative` map each path to the files it imports, and to those it imports relatively."""
    present = set(paths)
    pairs: dict[str, tuple[str, ...]] = {}
    for test in paths:
        found = _stem(test)
        if found is None:
            continue
        named = [c for c in source_candidates(test) if c in present and c != test]
        if named:
            pairs[test] = (named[0],)
            continue
        base = found[0]
        deps = [d for d in imports.get(test, ()) if not is_test_path(d)]
        by_name = [d for d in deps
                   if posixpath.splitext(posixpath.basename(d))[0] == base
                   or d.endswith(f"/{base}/__init__.py") or d.endswith(f"/{base}/index.ts")]
        if by_name:
            pairs[test] = (by_name[0],)
        else:
            rel = [d for d in relative.get(test, ()) if not is_test_path(d)]
            if rel:
                pairs[test] = tuple(rel)
    return pairs
