"""The token index behind prepare: every decision's title, tags and body token sets, inverted.

A query token matches a decision strongly when one of the decision's three sets holds it, and
partially when some decision token contains it or it contains a decision token. Both are
answered per vocabulary entry, not per decision: the vocabulary tokens that contain the query
token are found by one `str.find` scan of the joined vocabulary, those it contains by looking
up its substrings; the decisions holding any of them come from the inverted lists.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from workbench.core.models.decision_memory.text import MIN_TOKEN_LENGTH, tokenize

I64 = NDArray[np.int64]
LOCATIONS = ("title", "tags", "body", "any")
_SEP = "\x00"  # never inside a token (tokens are [a-z0-9_./:-])


@dataclass(frozen=True)
class Inverted:
    """CSR lists: the decisions (ascending) holding vocabulary entry v are
    docs[ptr[v]:ptr[v + 1]]."""

    ptr: I64
    docs: I64

    def of(self, v: int) -> I64:
        out: I64 = self.docs[self.ptr[v]:self.ptr[v + 1]]
        return out

    def of_many(self, vs: Sequence[int]) -> I64:
        """The decisions holding any of the entries `vs`, ascending, unique."""
        if not vs:
            return np.zeros(0, np.int64)
        out: I64 = np.unique(np.concatenate([self.of(v) for v in vs]))
        return out


@dataclass(frozen=True)
class TokenIndex:
    vocab: dict[str, int]
    words: list[str]
    title: Inverted
    tags: Inverted
    body: Inverted
    any: Inverted
    joined: str
    starts: I64
    min_length: int = MIN_TOKEN_LENGTH  # of every vocabulary token

    def exact(self, token: str) -> int:
        """The vocabulary entry of `token`, −1 when no decision holds it."""
        return self.vocab.get(token, -1)

    def partial(self, token: str) -> list[int]:
        """Vocabulary entries that contain `token` or that `token` contains (itself
        included when present)."""
        found: set[int] = set()
        find, pos = self.joined.find, 0
        while True:
            at = find(token, pos)
            if at < 0:
                break
            found.add(int(np.searchsorted(self.starts, at, side="right")) - 1)
            pos = at + 1
        n = len(token)
        for i in range(n):
            for j in range(i + self.min_length, n + 1):  # no vocabulary token is shorter
                v = self.vocab.get(token[i:j])
                if v is not None:
                    found.add(v)
        return sorted(found)


def decision_token_sets(title: str, tags: Sequence[str], text: str,
                        min_length: int = MIN_TOKEN_LENGTH
                        ) -> tuple[set[str], set[str], set[str]]:
    return (set(tokenize(title, min_length)),
            {t for tag in tags for t in tokenize(tag, min_length)},
            set(tokenize(text, min_length)))


def _invert(sets: list[set[int]], n_vocab: int) -> Inverted:
    counts = np.zeros(n_vocab, np.int64)
    flat_v: list[int] = []
    flat_d: list[int] = []
    for d, s in enumerate(sets):
        flat_v.extend(s)
        flat_d.extend([d] * len(s))
    v = np.asarray(flat_v, np.int64)
    dd = np.asarray(flat_d, np.int64)
    order = np.lexsort((dd, v))
    np.add.at(counts, v, 1)
    ptr = np.zeros(n_vocab + 1, np.int64)
    np.cumsum(counts, out=ptr[1:])
    return Inverted(ptr, dd[order])


def build_index(token_sets: Sequence[tuple[set[str], set[str], set[str]]],
                min_length: int = MIN_TOKEN_LENGTH) -> TokenIndex:
    """The index of the decisions' (title, tags, body) token sets."""
    vocab: dict[str, int] = {}
    per_loc: list[list[set[int]]] = [[], [], [], []]
    for sets in token_sets:
        ids = [{vocab.setdefault(t, len(vocab)) for t in s} for s in sets]
        for k in range(3):
            per_loc[k].append(ids[k])
        per_loc[3].append(ids[0] | ids[1] | ids[2])
    words = list(vocab)
    joined = _SEP.join(words)
    starts = np.cumsum([0] + [len(w) + 1 for w in words[:-1]], dtype=np.int64) if words \
        else np.zeros(0, np.int64)
    inv = [_invert(s, len(words)) for s in per_loc]
    return TokenIndex(vocab, words, inv[0], inv[1], inv[2], inv[3], joined, starts,
                      min_length)
