"""Static gate profiles: what scoreDecision's gates read of a (query, decision) pair that no
live parameter changes, and the gates decided once per distinct profile.

A profile packs, in one int64: flag bits << 48 | strong << 32 | meaningful << 16 | the query's
token count. The bits: archived, outside the query cwd's project, superseded, no query token
matches (lexical 0 whatever the weights), source turn, operational title of a non-manual
decision, no durable tag on a non-manual decision. Counts are clipped at 0xFFFF, which is
exact: every threshold they are compared with is at most 100 (params.SCHEMA).

The pairs of a corpus share few distinct profiles (hundreds to thousands against millions of
pairs): the live stage evaluates the gates in code order per profile and query class
(injection or search, project-only or not) and spreads the verdicts over the pairs with one
`np.take`.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from workbench.core.models.decision_memory.constants import Constants
from workbench.core.models.decision_memory.facts import (
    ARCHIVED,
    DURABLE,
    MANUAL,
    OPERATIONAL,
    SUPERSEDED,
    TURN,
)

I64 = NDArray[np.int64]
B = NDArray[np.bool_]
P_ARCHIVED, P_OUT_OF_PROJECT, P_SUPERSEDED, P_NO_MATCH, P_TURN, P_OPERATIONAL, P_NOT_DURABLE = (
    1 << i for i in range(7))
_CLIP = 0xFFFF


def pack(bits: I64, strong: I64, meaningful: I64, n_tokens: I64) -> I64:
    out: I64 = ((bits << 48) | (np.minimum(strong, _CLIP) << 32)
                | (np.minimum(meaningful, _CLIP) << 16) | np.minimum(n_tokens, _CLIP))
    return out


def pair_profiles(flags: NDArray[np.uint16], in_project: B, has_match: B, strong: I64,
                  meaningful: I64, n_tokens: I64) -> tuple[NDArray[np.intp], I64]:
    """Per pair (P,): flags (DocFacts.flags of its decision), in the query cwd's project,
    some query token matches, strong and meaningful counts, the query's token count.
    Returns each pair's profile index (intp: `np.take` converts narrower indices to intp
    first, which costs more than the gather) and the distinct packed profiles, ascending."""
    f = flags.astype(np.int64)
    non_manual = (f & MANUAL) == 0
    bits = (((f & ARCHIVED) != 0) * P_ARCHIVED + (~in_project) * P_OUT_OF_PROJECT
            + ((f & SUPERSEDED) != 0) * P_SUPERSEDED + (~has_match) * P_NO_MATCH
            + ((f & TURN) != 0) * P_TURN
            + (non_manual & ((f & OPERATIONAL) != 0)) * P_OPERATIONAL
            + (non_manual & ((f & DURABLE) == 0)) * P_NOT_DURABLE).astype(np.int64)
    profiles, inverse = np.unique(pack(bits, strong, meaningful, n_tokens),
                                  return_inverse=True)
    return inverse.reshape(-1).astype(np.intp), profiles.astype(np.int64)


def group_pairs(profile: NDArray[np.intp], n_profiles: int) -> tuple[NDArray[np.intp], I64]:
    """The pairs grouped by profile, ascending within each, and the groups' CSR offsets."""
    order: NDArray[np.intp] = np.argsort(profile, kind="stable").astype(np.intp)
    ptr = np.zeros(n_profiles + 1, np.int64)
    np.cumsum(np.bincount(profile, minlength=n_profiles), out=ptr[1:])
    return order, ptr


def profile_gates(profiles: I64, injection: bool, project_only: bool, c: Constants
                  ) -> NDArray[np.int8]:
    """int8 (U,): the first of scoreDecision's gates and the candidate filters (params.GATES
    up to no_durable_tag) that holds for each profile, 0 when none, for a query of this
    class. lexical_zero here is "no query token matches"; a match worth 0 points (a weight
    or location base of 0) is the caller's to gate."""
    bits = profiles >> 48
    strong, meaningful = (profiles >> 32) & _CLIP, (profiles >> 16) & _CLIP
    n_tokens = profiles & _CLIP

    def bit(b: int) -> B:
        out: B = (bits & b) != 0
        return out

    no = np.zeros(len(profiles), np.bool_)
    inj = no | injection
    conditions = (
        bit(P_ARCHIVED),
        bit(P_OUT_OF_PROJECT) & project_only,
        inj & bit(P_SUPERSEDED) & c.gate_superseded,
        n_tokens == 0,
        bit(P_NO_MATCH),
        inj & (strong < c.min_strong),
        inj & (meaningful < c.min_meaningful),
        inj & (n_tokens >= c.long_query_tokens) & (meaningful < c.long_query_meaningful),
        inj & bit(P_TURN) & c.gate_source_turn,
        inj & bit(P_OPERATIONAL) & c.gate_operational_title,
        inj & bit(P_NOT_DURABLE) & c.gate_no_durable_tag,
    )
    gate = np.zeros(len(profiles), np.int8)
    for code in range(len(conditions), 0, -1):  # the first gate in order wins
        gate[conditions[code - 1]] = code
    return gate
