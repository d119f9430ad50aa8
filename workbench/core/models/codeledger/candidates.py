"""The five candidate stages and auto-scope (prepare; codeledger-scoring.md, "Candidate
Generation"). Each candidate remembers a bitmask of the stages that brought it.

1. keyword (1): files holding a task term (plural key) in their path segments or exported
   symbols ("strong") or their content keywords ("content"). Each term weighs its IDF,
   ln(1 + N/df) with df = files holding it anywhere, so "fix" in half the files weighs ln 3
   while a rare "retry" weighs ln(1 + N). At most `keyword_max_candidates`, best strong IDF
   mass first, then content mass, then corpus order.
2. hot zone (2): the `hot_zone_files` most-churned files (churn at REFERENCE's defaults:
   commits in 90 days / 20 · exp(−days since last / 30); churn 0 never qualifies; ties in
   corpus order) — and as many again among the files under the task's scope, if it has one.
3. dependency (4): imports and dependents of the keyword matches, walked `dep_depth` hops; at
   most `dep_max_candidates` files it alone brings (0: no cap, the document's walk), those
   next to the most relevant files first (`graph`'s hop-1 relevance, then centrality).
4. fan-out (8): a file imported by ≥ `fanout_min` keyword matches is a hub: the hub and its
   first `fanout_max` dependents (corpus order) join (0: all, the document's full set).
5. test (16): the tests of every candidate of stages 1–4 and the sources of candidate tests
   (at most `tests_max_per_file` of each, those paired by name first; 0: all, the
   document's).
6. content (32; not in the document): the `content_max_candidates` best files by content
   BM25 (`content`).
7. named path (64; not in the document): the files whose path the task names (`mentions`).
8. co-change (128; not in the document): the `cochange_max_candidates` files that past commits
   changed most often together with the task's content matches (`cochange`).
9. similar commits (256; not in the document): the `similar_max_candidates` files with the
   most votes from the past commits worded most like the task (`similar`).

The dependency walk starts from the files of stages 1, 6 and 7.

Auto-scope: a compound identifier of the task (`api-gateway`, `stripe_billing`; `-` and `_`
interchangeable) equal to the name of exactly one directory scopes the task to it; failing
that, plain task words equal (plural-tolerant) to exactly one top-level directory name
(`client`) do. Two or more matches are ambiguous: no scope. The scope does not drop
candidates here; combine gates the ones outside it (`out_of_scope`), so `auto_scope` is live.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping

import numpy as np
from numpy.typing import NDArray

from workbench.core.models.codeledger.files import FileFacts
from workbench.core.models.codeledger.text import compounds, plural_key, words
from workbench.core.repo.pairing import source_candidates

__all__ = ["COCHANGE", "CONTENT", "DEP", "FANOUT", "HOT", "KEYWORD", "MENTION", "SIMILAR",
           "STAGES", "TEST",
           "Inverted", "default_churn", "find_scope", "generate", "in_scope"]

KEYWORD, HOT, DEP, FANOUT, TEST, CONTENT, MENTION, COCHANGE = 1, 2, 4, 8, 16, 32, 64, 128
SIMILAR = 256
STAGES: tuple[tuple[int, str], ...] = ((KEYWORD, "keyword"), (HOT, "hot_zone"),
                                       (DEP, "dependency"), (FANOUT, "fan_out"),
                                       (TEST, "test"), (CONTENT, "content"),
                                       (MENTION, "named_path"), (COCHANGE, "co_change"),
                                       (SIMILAR, "similar_commits"))


class Inverted:
    """Plural key → files holding it, for the strong fields and the content keywords."""

    def __init__(self, files: FileFacts) -> None:
        self.strong: dict[str, list[int]] = defaultdict(list)
        self.content: dict[str, list[int]] = defaultdict(list)
        for f, (s, c) in enumerate(zip(files.strong, files.content, strict=True)):
            for k in s:
                self.strong[k].append(f)
            for k in c:
                self.content[k].append(f)


def default_churn(files: FileFacts) -> NDArray[np.float64]:
    """float64 (N,): churn at REFERENCE's default constants (the hot zone's ranking)."""
    within = np.array([np.count_nonzero(files.ages[a:b] <= 90.0)
                       for a, b in zip(files.age_ptr[:-1], files.age_ptr[1:], strict=True)],
                      np.float64)
    days = np.nan_to_num(files.days_since_last, nan=90.0)
    out: NDArray[np.float64] = np.minimum(1.0, within / 20.0 * np.exp(-days / 30.0))
    return out


def in_scope(path: str, scope: str | None) -> bool:
    return scope is None or path.startswith(scope + "/")


def find_scope(task: str, files: FileFacts) -> str | None:
    dirs: dict[str, set[str]] = defaultdict(set)  # directory name → directory paths
    top: dict[str, set[str]] = defaultdict(set)  # plural key of a top-level name → names
    for p in files.paths:
        parts = p.split("/")[:-1]
        for i, name in enumerate(parts):
            dirs[name.lower().replace("_", "-")].add("/".join(parts[: i + 1]))
        if parts:
            top[plural_key(parts[0].lower())].add(parts[0])
    hits = {d for c in compounds(task) for d in dirs.get(c.replace("_", "-"), ())}
    if len(hits) == 1:
        return hits.pop()
    if hits:
        return None
    named = {name for w in words(task) for name in top.get(plural_key(w), ())}
    return named.pop() if len(named) == 1 else None


def keyword_masses(keys: Iterable[str], idf: Mapping[str, float], inv: Inverted,
                   ) -> tuple[dict[int, float], dict[int, float]]:
    """Per matching file: the strong IDF mass, and the content-only IDF mass (terms found in
    the content keywords but not in path or symbols)."""
    strong: dict[int, float] = defaultdict(float)
    content: dict[int, float] = defaultdict(float)
    for k in keys:
        hold = inv.strong.get(k, [])
        for f in hold:
            strong[f] += idf[k]
        held = set(hold)
        for f in inv.content.get(k, []):
            if f not in held:
                content[f] += idf[k]
    return strong, content


def generate(files: FileFacts, keyword_files: list[int], hot: NDArray[np.int64],
             scope_hot: NDArray[np.int64], depth: int, fanout_min: int,
             fanout_max: int, content_files: Iterable[int] = (),
             named_files: Iterable[int] = (), cochange_files: Iterable[int] = (),
             dep_max: int = 0, priority: NDArray[np.float64] | None = None,
             tests_max: int = 0, similar_files: Iterable[int] = ()) -> dict[int, int]:
    """Candidate file → stage bitmask, given the (capped) keyword matches, hot files, and the
    content, named-path, co-change and similar-commits stages' files. `dep_max` > 0 caps the
    files the dependency walk adds (that no other stage brought): the highest `priority`
    first, then the most central, then corpus order. `tests_max` > 0: at most that many tests (or
    sources) of each candidate join, those paired by name first."""
    mask: dict[int, int] = defaultdict(int)
    for f in keyword_files:
        mask[f] |= KEYWORD
    for f in (*hot.tolist(), *scope_hot.tolist()):
        mask[int(f)] |= HOT
    for stage, chosen in ((CONTENT, content_files), (MENTION, named_files),
                          (COCHANGE, cochange_files), (SIMILAR, similar_files)):
        for f in chosen:
            mask[int(f)] |= stage
    seen = {f for f, m in mask.items() if m & (KEYWORD | CONTENT | MENTION)}
    frontier = set(seen)
    room = dep_max if dep_max > 0 else None
    for _ in range(depth):
        nxt = {g for f in frontier for g in (*files.imports[f], *files.dependents[f])} - seen
        if room is not None:
            new = sorted((g for g in nxt if g not in mask),
                         key=lambda g: (-float(priority[g]), -float(files.centrality[g]), g)
                         ) if priority is not None else sorted(g for g in nxt if g not in mask)
            nxt = (nxt - set(new)) | set(new[:room])
            room -= min(room, len(new))
        for g in nxt:
            mask[g] |= DEP
        seen |= nxt
        frontier = nxt
    shared: dict[int, int] = defaultdict(int)
    for f in keyword_files:
        for d in set(files.imports[f]):
            shared[d] += 1
    for hub, n in sorted(shared.items()):
        if n >= fanout_min:
            dependents = sorted(files.dependents[hub])
            for g in (hub, *(dependents[:fanout_max] if fanout_max else dependents)):
                mask[g] |= FANOUT
    for f in list(mask):
        for t in _first_tests(files, f, tests_max):
            mask[t] |= TEST
    return dict(mask)


def _first_tests(files: FileFacts, f: int, n: int) -> tuple[int, ...]:
    """The tests (or sources) of f, at most n of them when n > 0: those paired by name
    (`test_x.py` ↔ `x.py`) before those paired through imports, then by path."""
    paired = files.tests[f]
    if n <= 0 or len(paired) <= n:
        return paired
    me = files.paths[f]

    def by_name(t: int) -> bool:
        other = files.paths[t]
        return me in source_candidates(other) or other in source_candidates(me)

    return tuple(sorted(paired, key=lambda t: (not by_name(t), files.paths[t]))[:n])


def hot_files(churn: NDArray[np.float64], n: int,
              allowed: NDArray[np.bool_] | None = None) -> NDArray[np.int64]:
    """The n files of highest churn (> 0), ties in corpus order, among `allowed`."""
    c = churn if allowed is None else np.where(allowed, churn, 0.0)
    order = np.argsort(-c, kind="stable")[:n]
    out: NDArray[np.int64] = order[c[order] > 0].astype(np.int64)
    return out


def informative_mass(keys: Iterable[str], idf: Mapping[str, float]) -> float:
    return math.fsum(idf[k] for k in keys)
