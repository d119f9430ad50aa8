"""Which files the index keeps: include/exclude globs and `.codeledgerignore`.

The glob language is a small subset of `.gitignore`'s: `#` comments and blank lines are skipped;
a trailing `/` matches directories only; a pattern with a `/` elsewhere is anchored at the
repository root, one without matches any path component; a pattern naming a directory covers
everything under it; `!pattern` re-includes; the last matching line wins. `*` and `?` follow
`fnmatch` (so `*` also crosses `/`, which makes `**` work as expected).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fnmatch import fnmatchcase

__all__ = ["IGNORE_FILE", "FileFilter", "glob_matches", "parse_ignore"]

IGNORE_FILE = ".codeledgerignore"


def glob_matches(pattern: str, path: str) -> bool:
    """Whether one (non-negated) pattern matches `path` or a folder containing it."""
    dir_only = pattern.endswith("/")
    pat = pattern.rstrip("/")
    anchored = "/" in pat
    pat = pat.lstrip("/")
    if not pat:
        return False
    parts = path.split("/")
    upto = len(parts) - 1 if dir_only else len(parts)
    for i in range(1, upto + 1):
        subject = "/".join(parts[:i]) if anchored else parts[i - 1]
        if fnmatchcase(subject, pat):
            return True
    return False


def parse_ignore(text: str) -> tuple[str, ...]:
    lines = (ln.strip() for ln in text.splitlines())
    return tuple(ln for ln in lines if ln and not ln.startswith("#"))


@dataclass(frozen=True)
class FileFilter:
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()  # the lines of .codeledgerignore

    def keeps(self, path: str) -> bool:
        if self.include and not any(glob_matches(p, path) for p in self.include):
            return False
        if any(glob_matches(p, path) for p in self.exclude):
            return False
        ignored = False
        for line in self.ignore:
            negate = line.startswith("!")
            if glob_matches(line[1:] if negate else line, path):
                ignored = not negate
        return not ignored

    def select(self, paths: Iterable[str]) -> list[str]:
        return [p for p in paths if self.keeps(p)]

    @classmethod
    def of(cls, include: Sequence[str], exclude: Sequence[str], ignore_text: str) -> FileFilter:
        return cls(tuple(include), tuple(exclude), parse_ignore(ignore_text))
