"""Graph expansion: a file next to a strongly matching one — it imports it, is imported by it,
or is its test or source — takes a share of that file's content relevance.

Neighbours at hop 1 are the files linked to f by an import (either way) or a test pairing; at
hop 2 the neighbours of those, less f and its hop-1 neighbours. Per task and file the
prepare stage keeps the best content relevance (bm25 ÷ the task's best) among the hop-1 and
among the hop-2 neighbours; the live signal is

    graph = max(share · best_hop1, share² · best_hop2)     (hops 2; with hops 1 only the first)

so one strong match lifts its neighbours without adding every file around it as a candidate
(the dependency and test stages do that, within their own caps).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import scipy.sparse as sp
from numpy.typing import NDArray

__all__ = ["Neighbours", "neighbours"]


class Neighbours:
    """The hop-1 and hop-2 neighbourhoods of N files, as CSR adjacency (no self loops)."""

    def __init__(self, hop1: sp.csr_matrix, hop2: sp.csr_matrix) -> None:
        self.hops = (hop1, hop2)

    def best(self, relevance: NDArray[np.float64], hop: int) -> NDArray[np.float64]:
        """float64 (N,): per file, the best `relevance` among its neighbours at `hop` (0 when
        it has none)."""
        a = self.hops[hop - 1]
        vals = relevance[a.indices]
        out = np.zeros(a.shape[0])
        has = np.diff(a.indptr) > 0
        if vals.size:
            out[has] = np.maximum.reduceat(vals, a.indptr[:-1][has])
        return out

    def source(self, relevance: NDArray[np.float64], f: int, hop: int) -> int:
        """The neighbour of f at `hop` with the best relevance (the first of equals), −1
        when it has none."""
        nb = self.of(f, hop)
        return int(nb[int(np.argmax(relevance[nb]))]) if len(nb) else -1

    def of(self, f: int, hop: int) -> NDArray[np.int32]:
        a = self.hops[hop - 1]
        out: NDArray[np.int32] = a.indices[a.indptr[f]:a.indptr[f + 1]]
        return out


def neighbours(links: Sequence[Sequence[Sequence[int]]], n: int) -> Neighbours:
    """`links`: per kind (imports, dependents, tests), per file the files it names."""
    rows = [f for kind in links for f, named in enumerate(kind) for _ in named]
    cols = [g for kind in links for named in kind for g in named]
    a = sp.csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(n, n))
    a = ((a + a.T) > 0).astype(np.int8).tocsr()
    a.setdiag(0)
    a.eliminate_zeros()
    two = ((a @ a) > 0).astype(np.int8).tocsr()
    two = (two - two.multiply(a)).tocsr()  # not already a hop-1 neighbour
    two.setdiag(0)
    two.eliminate_zeros()
    a.sort_indices()
    two.sort_indices()
    return Neighbours(a, two)
