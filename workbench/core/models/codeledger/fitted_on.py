"""The development histories the `codeledger` defaults were fitted on (docs/codeledger.md),
each by its head commit, and whether a repository is one of them: a task from its history up
to that commit may be one the defaults were fitted on, no unseen test of them (rv2 4: on ky,
23 of 103 tasks were in the fit, and nothing said so)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from workbench.core.repo.git import GitError, git


@dataclass(frozen=True)
class FittedHistory:
    name: str  # as docs/codeledger.md names it
    head: str  # the full hash of the last commit the fit read
    where: str  # where the history is found


FITTED_ON: tuple[FittedHistory, ...] = (
    FittedHistory("scoring workbench", "511beb28fb273cf3ad6acc5f46e7ba04aba148bc",
                  "this workbench's own repository, as its last refit (skip_limit, 2026-11-27) "
                  "read it"),
    FittedHistory("code-repo sample", "95ec20ac976a3ad25da6d45a8b9ae644f8b6cc40",
                  "sample_corpora/code-repo"),
    FittedHistory("httpx", "ae1b9f66238f75ced3ced5e4485408435de10768",
                  "../shared/repos/httpx.bundle"),
    FittedHistory("ky", "3419113b48e034fdcf8fa6bd3be3da7b3d0d758f",
                  "../shared/repos/ky.bundle"),
)


def fitted_on_lines(histories: Sequence[FittedHistory]) -> list[str]:
    """A line a history: "ky up to 3419113b48 (../shared/repos/ky.bundle)"."""
    return [f"{h.name} up to {h.head[:10]} ({h.where})" for h in histories]


def fitted_history(repo: str | Path,
                   histories: Sequence[FittedHistory] = FITTED_ON) -> FittedHistory | None:
    """The fitted history `repo` holds (its head commit is in `repo`), or None: not a git
    repository, or none of them."""
    path = Path(repo)
    if not (path / ".git").exists():
        return None
    for h in histories:
        try:
            git(path, "cat-file", "-e", f"{h.head}^{{commit}}")
        except GitError:
            continue
        return h
    return None


def fitted_note(source: str, model_id: str, histories: Sequence[FittedHistory]) -> str:
    """The note `rank` and `explain` give where the dataset's `source` ("REPO@COMMIT") is one
    of `histories`, those the model's defaults were fitted on; "" otherwise."""
    if not histories or "@" not in source:
        return ""
    h = fitted_history(source.rpartition("@")[0], histories)
    if h is None:
        return ""
    return (f"note: {model_id}'s defaults were fitted on this repository's history up to "
            f"{h.head[:10]} ({h.name}: the older half of the tasks mined from it), so a task "
            "from a commit up to there may be one they were fitted on, not an unseen test")
