"""The scoring document's own formulas: the "documented" variant.

`specs/vault-search-scoring.md` describes a score the shipped code never computed. Taken at its
word, for one query word w in a document:

    tf_w       = matchCount_w / totalWords
    tfScore_w  = min(tf_w · tf_multiplier, 1) · w_tf                    (tf_multiplier = 10)
    position_w = (1 − avgPosition_w) · w_position,  avgPosition_w = mean(match offsets) / length
    density_w  = min(tf_w · density_multiplier, 1) · w_density          (density_multiplier = 20)

Interpretation (the document names no matcher): a match is an occurrence of the word in the raw
file, case-insensitive exactly as the shipped regex (JS `/gi`, non-overlapping, every
occurrence, not one per line); offsets and length in UTF-16 units; totalWords = the
whitespace-split word count the shipped code uses; a word with no match scores 0 in all three.

Multi-word queries ("search for all words, score each word, average, bonus for matches near
each other"): the query splits on whitespace into k distinct words (distinct after
case-folding); the document's score is the mean of its k word scores plus

    proximity = w_proximity · (k_found / k) · exp(−gap / proximity_scale)   when k_found ≥ 2

where k_found is how many of the words occur, span is the smallest (last − first) word index
over stretches of the document's words holding at least one occurrence of each found word (a
match's word is the whitespace-split word its first unit falls in), and gap = max(0,
span − (k_found − 1)) counts the extra words in that stretch (0 when the words stand side by
side). Single-word queries get no bonus. The total is clamped to [0, 1], as the document's
"Range: 0.0 to 1.0" and the shipped code do.

The document's example table (0.82 / 0.54 / 0.31) does not follow from these formulas: they
give 0.74 / 0.25 / 0.085 (`EXAMPLE_TABLE`), and since density is 2 × tf in all three rows, no
choice of the three weights reproduces the table either.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import ArrayLike, NDArray

from workbench.core.models.vault_search.jsstring import (
    JS_WHITESPACE,
    canonicalize,
    find_all,
    split_words,
    to_units,
)


@dataclass(frozen=True)
class DocumentedParams:
    w_tf: float = 0.4
    w_position: float = 0.3
    w_density: float = 0.3
    tf_multiplier: float = 10.0
    density_multiplier: float = 20.0
    w_proximity: float = 0.1
    proximity_scale: float = 5.0


def tf_part(ratio: ArrayLike, multiplier: float = 10.0) -> NDArray[np.float64]:
    """min(tf · multiplier, 1), unweighted; ratio = matchCount / totalWords."""
    out: NDArray[np.float64] = np.minimum(np.asarray(ratio, np.float64) * multiplier, 1.0)
    return out


def position_part(avg_position: ArrayLike) -> NDArray[np.float64]:
    """1 − avgPosition, unweighted."""
    out: NDArray[np.float64] = 1.0 - np.asarray(avg_position, np.float64)
    return out


def density_part(ratio: ArrayLike, multiplier: float = 20.0) -> NDArray[np.float64]:
    """min(density · multiplier, 1), unweighted; density = matchCount / totalWords."""
    out: NDArray[np.float64] = np.minimum(np.asarray(ratio, np.float64) * multiplier, 1.0)
    return out


def proximity_part(found: ArrayLike, k: ArrayLike, gap: ArrayLike,
                   scale: float = 5.0) -> NDArray[np.float64]:
    """(k_found / k) · exp(−gap / scale) where k_found ≥ 2, else 0; unweighted."""
    f = np.asarray(found, np.float64)
    kk = np.maximum(np.asarray(k, np.float64), 1.0)
    out: NDArray[np.float64] = np.where(
        f >= 2, f / kk * np.exp(-np.asarray(gap, np.float64) / scale), 0.0)
    return out


def word_score(match_count: int, total_words: int, avg_position: float,
               p: DocumentedParams | None = None) -> float:
    """tfScore + positionScore + densityScore of one word, as the document writes them."""
    q = p or DocumentedParams()
    if match_count == 0 or total_words == 0:
        return 0.0
    tf = match_count / total_words
    return float(tf_part(tf, q.tf_multiplier) * q.w_tf + position_part(avg_position)
                 * q.w_position + density_part(tf, q.density_multiplier) * q.w_density)


# (file, matches, words, avg position, the score the document claims)
EXAMPLE_TABLE: tuple[tuple[str, int, int, float, float], ...] = (
    ("short.md", 5, 100, 0.2, 0.82),
    ("medium.md", 5, 500, 0.5, 0.54),
    ("long.md", 5, 2000, 0.8, 0.31),
)


def query_words(query: str) -> list[str]:
    """The query's whitespace-split words, first of each case-folded (canonical) form."""
    seen: set[str] = set()
    out: list[str] = []
    for w in split_words(query):
        c = canonicalize(to_units(w))
        if c not in seen:
            seen.add(c)
            out.append(w)
    return out


def min_window_span(occurrences: Sequence[tuple[int, int]]) -> int:
    """Smallest (last − first) word index over windows of `occurrences` — (word index,
    query word id), sorted by word index — holding every query word id present."""
    need = len({w for _, w in occurrences})
    counts: dict[int, int] = {}
    have, left, best = 0, 0, -1
    for t, w in occurrences:
        counts[w] = counts.get(w, 0) + 1
        have += counts[w] == 1
        while have == need:
            span = t - occurrences[left][0]
            best = span if best < 0 else min(best, span)
            lw = occurrences[left][1]
            counts[lw] -= 1
            have -= counts[lw] == 0
            left += 1
    return max(best, 0)


@dataclass(frozen=True)
class WordMatch:
    word: str
    count: int
    avg_position: float  # mean offset / length, in [0, 1)
    offsets: tuple[int, ...] = field(repr=False)


@dataclass(frozen=True)
class DocumentedBreakdown:
    """One document's documented-variant score, computed directly (the reference the
    vectorised combine is tested against)."""

    words: tuple[WordMatch, ...]
    total_words: int
    found: int
    gap: int
    tf: float
    position: float
    density: float
    proximity: float
    raw: float
    total: float


def documented_score(content: str, query: str,
                     p: DocumentedParams | None = None) -> DocumentedBreakdown | None:
    """Score one document under the documented variant; None when no query word occurs."""
    q = p or DocumentedParams()
    words = query_words(query)
    units = to_units(content)
    canon = canonicalize(units)
    starts = [i for i, ch in enumerate(units)
              if ch not in JS_WHITESPACE and (i == 0 or units[i - 1] in JS_WHITESPACE)]
    n_words = len(starts)
    matches: list[WordMatch] = []
    occ: list[tuple[int, int]] = []
    for wid, w in enumerate(words):
        offs = find_all(canon, canonicalize(to_units(w)))
        avg = (sum(offs) / len(offs)) / len(units) if offs else 0.0
        matches.append(WordMatch(w, len(offs), avg, tuple(offs)))
        occ += [(bisect.bisect_right(starts, o) - 1, wid) for o in offs]
    found = sum(1 for m in matches if m.count)
    if not words or found == 0:
        return None
    k = len(words)
    tf = sum(float(tf_part(m.count / n_words, q.tf_multiplier)) for m in matches if m.count)
    pos = sum(float(position_part(m.avg_position)) for m in matches if m.count)
    den = sum(float(density_part(m.count / n_words, q.density_multiplier))
              for m in matches if m.count)
    gap = max(0, min_window_span(sorted(occ)) - (found - 1)) if found >= 2 else 0
    prox = q.w_proximity * float(proximity_part(found, k, gap, q.proximity_scale))
    tf, pos, den = q.w_tf * tf / k, q.w_position * pos / k, q.w_density * den / k
    raw = tf + pos + den + prox
    return DocumentedBreakdown(tuple(matches), n_words, found, gap, tf, pos, den, prox, raw,
                               min(1.0, max(0.0, raw)))


def example_scores(p: DocumentedParams | None = None) -> list[float]:
    """What the document's formulas give for its own example table."""
    return [word_score(m, w, a, p) for _, m, w, a, _ in EXAMPLE_TABLE]


def best_weights_for_table() -> tuple[NDArray[np.float64], float]:
    """Least-squares weights (w_tf, w_position, w_density) for the claimed table scores, and
    the residual norm left: it is not 0, so no weights reproduce the table."""
    a = np.array([[float(tf_part(m / w)), float(position_part(avg)),
                   float(density_part(m / w))] for _, m, w, avg, _ in EXAMPLE_TABLE])
    b = np.array([claimed for *_, claimed in EXAMPLE_TABLE])
    x, *_ = np.linalg.lstsq(a, b, rcond=None)
    return x, float(math.sqrt(float(np.sum((a @ x - b) ** 2))))
