"""Similar past commits: the files that past commits worded like the task changed (not in
CodeLedger's document).

The repository index keeps the newest 5,000 commits at or before the snapshot that changed at
most `max_commit_files` files (REFERENCE §2's 50, a prepare parameter up to 1,000): each
one's message and the indexed files it changed (renames followed). Each message is a
document of a BM25 index whose tokens are read as task text is
(`content.task_tokens`: identifiers split and whole, code stop words out, Snowball stems,
issue numbers dropped), k1 1.2, b 0.75. For a task with BM25 score s_c against commit c,
its `similar_commits` best commits with s_c > 0 (equal scores: the newer first) vote for
the files they changed:

    votes(f)   = Σ over those commits c that changed f of  s_c / √(files c changed)
    similar(f) = votes(f) ÷ the task's largest vote        (1 for the best file)

The square root makes a commit of many files vouch less for each, not proportionally less.
Per (task, candidate) the prepare stage keeps the value and the commit that gave the most to
it (`explain` names it). A commit that is one of the loaded tasks' own commits is left out,
so a task set loaded at a later snapshot cannot look up its own answer. A corpus without
history (a plain folder, a snapshot with no commits) has no similar commits: every value 0.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.sparse as sp
from numpy.typing import NDArray

from workbench.core.formats.code_repo import HISTORY_KEY
from workbench.core.models.codeledger.content import (
    ContentIndex,
    build_content_index,
    task_tokens,
)

__all__ = ["PastCommits", "Votes", "past_commits"]

K1, B = 1.2, 0.75


@dataclass(frozen=True)
class Votes:
    """One task's votes: float64 (N,) similar(f) in [0, 1], and for each file the commit
    that gave it the most (−1: none)."""

    value: NDArray[np.float64]
    source: NDArray[np.int32]


@dataclass(frozen=True)
class PastCommits:
    """C past commits, newest first: hash, message, and a CSR (C × N) of the files each
    changed; the BM25 index over their messages."""

    shas: tuple[str, ...]
    messages: tuple[str, ...]
    changed: sp.csr_matrix
    index: ContentIndex

    def __len__(self) -> int:
        return len(self.shas)

    def subject(self, c: int) -> str:
        return self.messages[c].split("\n", 1)[0].strip()

    def votes(self, tasks: Sequence[str], k: int) -> list[Votes]:
        """Each task's votes from its `k` most similar commits."""
        n = self.changed.shape[1]
        if k <= 0 or not len(self):
            return [Votes(np.zeros(n), np.full(n, -1, np.int32)) for _ in tasks]
        sim = self.index.scores([task_tokens(t) for t in tasks])
        sizes = np.sqrt(np.diff(self.changed.indptr)).astype(np.float64)
        out = []
        for row in sim:
            # the k best, equal scores newest (lowest c) first
            best = np.lexsort((np.arange(len(row)), -row))[:k]
            best = best[row[best] > 0]
            value = np.zeros(n)
            source = np.full(n, -1, np.int32)
            given = np.zeros(n)
            for c in best.tolist():
                files = self.changed.indices[self.changed.indptr[c]:self.changed.indptr[c + 1]]
                share = float(row[c]) / float(sizes[c])
                value[files] += share
                more = share > given[files]
                source[files[more]] = c
                given[files[more]] = share
            top = float(value.max(initial=0.0))
            out.append(Votes(value / top if top > 0 else value, source))
        return out


def past_commits(settings: Mapping[str, Any], paths: Sequence[str],
                 leave_out: set[str], max_commit_files: int | None = None) -> PastCommits:
    """The dataset's past commits (`HISTORY_KEY`) over the corpus `paths`, without the commits
    in `leave_out`, those that changed no file of the corpus, and (given `max_commit_files`)
    those that changed more files than that, where the entry says how many."""
    at = {p: i for i, p in enumerate(paths)}
    shas: list[str] = []
    messages: list[str] = []
    rows: list[list[int]] = []
    for entry in settings.get(HISTORY_KEY) or ():
        sha, message, changed = str(entry[0]), str(entry[1]), entry[2]
        if max_commit_files is not None and len(entry) > 3 \
                and int(entry[3]) > max_commit_files:
            continue
        files = sorted({at[p] for p in changed if p in at})
        if files and sha not in leave_out:
            shas.append(sha)
            messages.append(message)
            rows.append(files)
    ptr = np.zeros(len(rows) + 1, np.int64)
    ptr[1:] = np.cumsum([len(r) for r in rows])
    cols = np.asarray([f for r in rows for f in r], np.int32)
    changed = sp.csr_matrix((np.ones(len(cols)), cols, ptr), shape=(len(rows), len(paths)))
    index = build_content_index([""] * len(rows), messages, k1=K1, b=B, path_weight=0.0)
    return PastCommits(tuple(shas), tuple(messages), changed, index)
