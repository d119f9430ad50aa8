"""The forgetting curve's side of the hybrid model's scored pairs (`candidates`): the groups of
memories of one importance, each query's best of them by base at every λ and floor, and what
bounds the memories a query's pairs leave out (`CurveBound`, read each tick by `curve_bound`).

A group serves the queries with a chat (every memory of that importance: the curve applies to
all of a chat's memories) or those without (the OpenVault memories of that importance; the
other documents form one group of base 0). Within a group the base falls as the message
distance max(0, chat length − newest message id) grows, whatever λ and the floor are, so the
curve's order — distance 0 (memories at least as new as the chat) first by position, then
newest first — puts its best m first; the first m by position cover the ties of a flat curve
(λ 0, or a floor every memory reaches).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

F64 = NDArray[np.float64]
I64 = NDArray[np.int64]


@dataclass(frozen=True, eq=False)
class Curve:
    """The forgetting curve's inputs (`prepared`): importance, max_id float64 (N,),
    chat_length float64 (Q,), chat bool (Q,) (the curve applies to all of the query's
    memories), memory bool (N,) (it applies to the memory for every query)."""

    importance: F64
    max_id: F64
    chat_length: F64
    chat: NDArray[np.bool_]
    memory: NDArray[np.bool_]


@dataclass(frozen=True, eq=False)
class CurveBound:
    """What bounds, at every slider position, the total of a memory a query left out, group by
    group: the memories of one importance (all of them for a query with a chat, the OpenVault
    memories for one without), and for a query without a chat the memories the curve does not
    apply to (base 0: `imp` NaN).

    imp float64 (G,)     each group's importance (NaN: base 0)
    chat bool (G,)       the group serves queries with a chat (else those without)
    first int64 (Q, G)   the first position left out of the group (N: none left out, or the
                         group does not serve the query)
    dist float64 (Q, G)  a message distance no left-out memory of the group is below: its
                         base is at most importance · e^(−λ/importance² · dist), floored
    cos float64 (Q,)     the highest similarity left out (−∞: none)
    rank int64 (Q,)      the best similarity rank left out (N + 1: none)
    """

    imp: F64
    chat: NDArray[np.bool_]
    first: I64
    dist: F64
    cos: F64
    rank: I64



MAX_GROUPS = 32  # importance levels beyond which data with the curve keep every pair


@dataclass(frozen=True, eq=False)
class _Group:
    """Memories of one importance serving queries with (chat) or without a chat: positions
    ascending, and in curve order (newest message first, then position) with their newest
    message ids."""

    imp: float
    chat: bool
    pos: I64
    order: I64
    newest: F64


def curve_groups(curve: Curve) -> list[_Group]:
    out = []
    n = len(curve.importance)
    for chat, members in ((True, np.ones(n, bool)), (False, curve.memory)):
        for imp in np.unique(curve.importance[members]).tolist():
            pos = np.flatnonzero(members & (curve.importance == imp))
            order = pos[np.lexsort((pos, -curve.max_id[pos]))]
            out.append(_Group(float(imp), chat, pos, order, curve.max_id[order]))
    rest = np.flatnonzero(~curve.memory)  # queries without a chat: base 0
    if len(rest):
        out.append(_Group(float("nan"), False, rest, rest, np.zeros(len(rest))))
    return out


def keep_curve(keep: NDArray[np.bool_], lo: int, groups: Sequence[_Group], curve: Curve,
                m: int, dist: F64) -> None:
    """Mark in `keep` (the block of queries from `lo`), per group serving each query, its
    first m memories by position and its first m in curve order (distance 0 — the memories at
    least as new as the chat — by position, then newest first): the group's best m by base at
    every λ and floor, in position order among equal bases where that order is the curve's.
    `dist` gets the distance no memory left out of that order is below."""
    chat = curve.chat[lo:lo + len(keep)]
    for gi, g in enumerate(groups):
        rows = np.flatnonzero(chat == g.chat)
        if not len(rows) or not len(g.pos):
            continue
        keep[np.ix_(rows, g.pos[:m])] = True
        if math.isnan(g.imp) or len(g.pos) <= m:
            continue  # base 0 (position order), or the whole group is kept
        length = curve.chat_length[lo + rows]
        at_zero = np.searchsorted(-g.newest, -length, side="right")  # newest ≥ chat length
        few = at_zero <= m
        keep[np.ix_(rows[few], g.order[:m])] = True
        dist[lo + rows[few], gi] = np.maximum(0.0, length[few] - g.newest[m])
        for r, j in zip(rows[~few].tolist(), at_zero[~few].tolist(), strict=True):
            if j < len(g.pos):  # the m earliest of the distance-0 memories
                keep[r, np.partition(g.order[:j], m - 1)[:m]] = True
        dist[lo + rows[~few], gi] = 0.0


def left_out(keep: NDArray[np.bool_], block: F64, ranks: I64, lo: int,
              groups: Sequence[_Group], chat: NDArray[np.bool_], first: I64, cos: F64,
              rank: I64) -> None:
    """Per query of the block: each group's first position left out, and the highest
    similarity and best rank left out."""
    b, n = keep.shape
    for gi, g in enumerate(groups):
        rows = np.flatnonzero(chat[lo:lo + b] == g.chat)
        if len(rows) and len(g.pos):
            left = ~keep[np.ix_(rows, g.pos)]
            has = left.any(axis=1)
            first[lo + rows[has], gi] = g.pos[left[has].argmax(axis=1)]
    out = ~keep
    cos[lo:lo + b] = np.where(out, block, -np.inf).max(axis=1, initial=-np.inf)
    rank[lo:lo + b] = np.where(out & np.isfinite(block), ranks, n + 1).min(axis=1,
                                                                             initial=n + 1)
