"""Co-change: files that past commits changed together with a strongly matching file.

The repository index keeps, per file, the age of every commit that touched it (commits of more
than `max_commit_files` files left out). A commit is known here by its time, so two files with
an equal age were changed by one commit. For files f ≠ g, with n_g the commits touching g and
c(f, g) those touching both,

    p(f | g) = c(f, g) / (n_g + 1)

is how often a change to g also changed f (the + 1 keeps a file changed once from vouching
fully for its partner). Per task and file the prepare stage keeps the best

    cochange(f) = max over g of relevance(g) · p(f | g)

over the files g with content relevance (bm25 ÷ the task's best), and which g that was. Only
history before the indexed commit is read, so tasks mined from later commits cannot leak into
it. A corpus without commit history has no co-change (every value 0).
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from numpy.typing import NDArray

from workbench.core.models.codeledger.files import FileFacts

__all__ = ["CoChange", "cochange"]


class CoChange:
    """p(f | g) of N files as CSR (row f, column g), no diagonal."""

    def __init__(self, p: sp.csr_matrix) -> None:
        self.p = p

    def best(self, relevance: NDArray[np.float64]) -> tuple[NDArray[np.float64],
                                                              NDArray[np.int32]]:
        """float64 (N,) the best relevance(g) · p(f | g) per file f, and int32 (N,) that g
        (−1 where it is 0)."""
        a = self.p
        n = a.shape[0]
        vals = a.data * relevance[a.indices]
        out = np.zeros(n)
        src = np.full(n, -1, np.int32)
        has = np.diff(a.indptr) > 0
        if vals.size:
            starts = a.indptr[:-1][has]
            out[has] = np.maximum.reduceat(vals, starts)
            rows = np.repeat(np.arange(n), np.diff(a.indptr))
            hit = vals >= out[rows]
            hit &= vals > 0
            # the first column (smallest g) reaching the row's best
            first = np.full(n, np.iinfo(np.int64).max)
            np.minimum.at(first, rows[hit], np.flatnonzero(hit))
            ok = first < np.iinfo(np.int64).max
            src[ok] = a.indices[first[ok]]
        return out, src


def cochange(files: FileFacts) -> CoChange:
    n = files.n
    owner = np.repeat(np.arange(n), np.diff(files.age_ptr))
    if owner.size == 0:
        return CoChange(sp.csr_matrix((n, n)))
    _, commit = np.unique(files.ages, return_inverse=True)
    # one entry per (file, commit): a file's ages are distinct commits
    inc = sp.csr_matrix((np.ones(owner.size), (owner, commit.ravel())),
                        shape=(n, int(commit.max()) + 1))
    inc.data[:] = 1.0
    both = (inc @ inc.T).tocsr()
    touched = np.asarray(inc.sum(axis=1)).ravel()
    both.setdiag(0)
    both.eliminate_zeros()
    cols = both.indices
    p = sp.csr_matrix((both.data / (touched[cols] + 1.0), cols, both.indptr), shape=(n, n))
    p.sort_indices()
    return CoChange(p)
