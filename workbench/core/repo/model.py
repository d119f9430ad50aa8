"""What the repository index holds: one `FileInfo` per kept file, and the `RepoIndex` of a
commit. Plain frozen records, picklable, cached by commit hash."""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["FileInfo", "RepoIndex"]


@dataclass(frozen=True)
class FileInfo:
    path: str  # relative to the repository root, `/`-separated
    language: str  # "python", "typescript", "go", … or "other"
    size: int  # bytes
    lines: int
    tokens: int  # estimated: ceil(lines · tokens per line of the language)
    symbols: tuple[str, ...]  # exported symbols, in order of appearance
    keywords: tuple[str, ...]  # content keywords, at most 100
    imports: tuple[str, ...]  # repository files this file imports
    dependents: tuple[str, ...]  # repository files importing this file
    is_test: bool
    tests: tuple[str, ...]  # for a source: its tests; for a test: the sources it tests
    commits: int  # commits touching it within the churn window (renames followed)
    days_since_last: float | None  # days from its last commit to `now`; None: no history
    churn: float  # min(1, commits/20 · exp(−days/30)), [0, 1]
    recency: float  # band of days since last touch: 1, 0.6, 0.3 or 0.1
    centrality: float  # (imports + dependents) / max over files, [0, 1]
    error_infrastructure: bool
    branch_changed: bool = False  # changed on the branch or uncommitted (HEAD only)
    # age in days of each commit touching it (of at most KEEP_COMMIT_FILES files), newest
    # first, and how many files each changed: `days_since_last`, `commits`, `churn` and
    # `recency` count those of at most the index's max_commit_files (REFERENCE §2's 50)
    commit_days: tuple[float, ...] = ()
    commit_files: tuple[int, ...] = ()
    # why it is binary though no NUL comes in its first 8 KiB (a `.gitattributes` line, a
    # PDF signature: `repo.binary`); "" when it is not
    binary_mark: str = ""


@dataclass(frozen=True)
class RepoIndex:
    root: str
    commit: str  # the full hash `rev` resolved to
    now: int  # seconds since the epoch every age is measured from
    churn_days: int
    files: tuple[FileInfo, ...]  # sorted by path
    skipped: tuple[tuple[str, str], ...] = ()  # (path, "binary" | "too large")
    # (hash, message, paths it changed that the index holds, files it changed) of the newest
    # 5,000 commits at or before `now` of at most max_commit_files files, with those of at most
    # KEEP_COMMIT_FILES among them, newest first (`history.past_commits`)
    history: tuple[tuple[str, str, tuple[str, ...], int], ...] = ()
    by_path: dict[str, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "by_path", {f.path: i for i, f in enumerate(self.files)})

    def __len__(self) -> int:
        return len(self.files)

    def __contains__(self, path: object) -> bool:
        return path in self.by_path

    def file(self, path: str) -> FileInfo:
        """The record of `path`; KeyError naming it when the index does not hold it."""
        try:
            return self.files[self.by_path[path]]
        except KeyError:
            raise KeyError(f"{path!r} is not in the index of {self.root}@{self.commit[:12]}")\
                from None

    @property
    def paths(self) -> tuple[str, ...]:
        return tuple(f.path for f in self.files)

    @property
    def changed(self) -> tuple[str, ...]:
        return tuple(f.path for f in self.files if f.branch_changed)
