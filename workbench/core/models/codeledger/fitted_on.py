"""The development histories the `codeledger` defaults were fitted on (docs/codeledger.md),
and how many of a task set's tasks come from them: a figure at the defaults over those tasks may be
partly a training score (rv2 4: on ky, 23 of 103 tasks were in the fit, and nothing said so).

Each history is bounded by a commit: the head the fit read where that is recorded (the shared
bundles' one head, the sample's build), else the latest head the record fits (this
repository: the fit's head was not recorded; dr2 2). A task counts where its commit is that
commit or an ancestor of it; the fit trained on the older half of those tasks only."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from workbench.core.repo.git import GitError, git


@dataclass(frozen=True)
class FittedHistory:
    name: str  # as docs/codeledger.md names it
    bound: str  # the full hash of the newest commit the fit can have read
    where: str  # where the history is found
    # how far the history went, where the head is not recorded ("" where `bound` is the head)
    unrecorded: str = ""

    def reach(self) -> str:
        """"ky up to 3419113b48", or the unrecorded history's own words."""
        if self.unrecorded:
            return f"{self.name} {self.unrecorded}"
        return f"{self.name} up to {self.bound[:10]}"


FITTED_ON: tuple[FittedHistory, ...] = (
    # Weights fitted at 04de955 and refitted at fc80575 (2026-11-24), the similar-commits grid
    # at 139e9bd, all with the README's row "this repository (319, 23)": 319 files, 23
    # held-out tasks. Under fc80575's mining rules only heads 89cc6bbff1, 3ef7d9fa5c and
    # 72aca785b1 (2026-11-24 00:44-01:09) give both. skip_limit (511beb2) was fitted on httpx
    # and ky only ("this repository's unchanged").
    FittedHistory("scoring workbench", "72aca785b19e7af6acece49b7a95dbba8bd869b0",
                  "this workbench's own repository",
                  "as of 2026-11-24 about 01:00 (the exact head was not recorded; "
                  "72aca785b1 at the latest)"),
    FittedHistory("code-repo sample", "95ec20ac976a3ad25da6d45a8b9ae644f8b6cc40",
                  "sample_corpora/code-repo"),
    FittedHistory("httpx", "ae1b9f66238f75ced3ced5e4485408435de10768",
                  "../shared/repos/httpx.bundle"),
    FittedHistory("ky", "3419113b48e034fdcf8fa6bd3be3da7b3d0d758f",
                  "../shared/repos/ky.bundle"),
)


def fitted_on_lines(histories: Sequence[FittedHistory]) -> list[str]:
    """A line a history: "ky up to 3419113b48 (../shared/repos/ky.bundle)"."""
    return [f"{h.reach()} ({h.where})" for h in histories]


def fitted_history(repo: str | Path,
                   histories: Sequence[FittedHistory] = FITTED_ON) -> FittedHistory | None:
    """The fitted history `repo` holds (its bound commit is in `repo`), or None: not a git
    repository, or none of them."""
    path = Path(repo)
    if not (path / ".git").exists():
        return None
    for h in histories:
        try:
            git(path, "cat-file", "-e", f"{h.bound}^{{commit}}")
        except GitError:
            continue
        return h
    return None


def tasks_in_fit(repo: str | Path, commits: Sequence[str],
                 histories: Sequence[FittedHistory]) -> tuple[FittedHistory, int] | None:
    """The fitted history `repo` holds and how many of `commits` (tasks' commits, full or
    abbreviated) are its bound or an ancestor of it; None where the repository holds none.
    One `rev-list` over the bound, not one git call a task."""
    h = fitted_history(repo, histories)
    if h is None:
        return None
    try:
        ancestors = set(git(Path(repo), "rev-list", h.bound).decode().split())
    except GitError:
        return None
    full = [c for c in commits if len(c) == 40]
    short = [c for c in commits if len(c) != 40]
    n = sum(c in ancestors for c in full)
    if short:
        n += sum(any(a.startswith(c) for a in ancestors) for c in short)
    return h, n


def fitted_note(source: str, model_id: str, commits: Sequence[str],
                histories: Sequence[FittedHistory], of: str = "") -> str:
    """The note `rank`, `explain` and `eval` give where the dataset's `source`
    ("REPO@COMMIT") is one of `histories` and some of its tasks' `commits` (one a task, ""
    where a task names none: a typed one) lie in it; "" otherwise. `of`: what the tasks
    counted are, where not the whole set ("compared": "12 of the 51 tasks compared"; dr8 5:
    compare had counted all 103 beside a table of the 51 held out)."""
    known = [c for c in commits if c]
    if not histories or "@" not in source or not known:
        return ""
    found = tasks_in_fit(source.rpartition("@")[0], known, histories)
    if found is None or found[1] == 0:
        return ""
    h, n = found
    # which of them trained the defaults is not known exactly: the fit's task split was made
    # at a head and under mining rules not all recorded, so the note says what may be a
    # training score, never that these are (dr6 2: a held-out evaluation of the newer half
    # had been told its figures are "partly training scores")
    fit = (f"the history {model_id}'s defaults were fitted on ({h.reach()}); the fit trained "
           "on the older half of the tasks mined from it and held out the newer half")
    if len(commits) == 1:  # rank and explain: one task
        return (f"note: this task is from {fit}, so it may be one they were fitted on, not an "
                "unseen test")
    whole = f"the {len(commits):,} tasks {of}" if of else f"{len(commits):,} tasks"
    return (f"note: {n:,} of {whole} are from {fit}: any of these that fall in "
            "that older half score at the defaults as training tasks, not unseen ones "
            "(docs/codeledger.md)")
