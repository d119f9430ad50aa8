"""OpenVault's BM25 over the batch being scored (src/retrieval/math.js, REFERENCE.md §3),
ported function by function: the reference the vectorised model is checked against.

    idf(t)   = ln((N − df + 0.5)/(df + 0.5) + 1)         N = memories in the batch
    bm25     = Σ over query token occurrences  idf · tf·(k1 + 1) / (tf + k1·(1 − b + b·dl/avgdl))
    adjusted = every distinct query token t, count c: max(1, round(c · idf(t)/ln(N + 1)))
               copies (tokens unknown to the batch keep ratio 1)

Query occurrences each count (no query-side saturation): the repeats of the IDF-aware
adjustment are what weighs entities.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from workbench.core.models.hybrid.jstext import js_round

K1 = 1.2
B = 0.75


def calculate_idf(doc_tokens: Sequence[Sequence[str]]) -> tuple[dict[str, float], float]:
    """(idf per term, average document length) of a batch of tokenised memories; terms in
    first-seen order, as the original's Map."""
    n = len(doc_tokens)
    df: dict[str, int] = {}
    total = 0
    for tokens in doc_tokens:
        total += len(tokens)
        for term in dict.fromkeys(tokens):
            df[term] = df.get(term, 0) + 1
    avgdl = total / n if n > 0 else 0.0
    return {t: idf(n, f) for t, f in df.items()}, avgdl


def idf(n: int | float, df: int | float) -> float:
    """ln((N − df + 0.5)/(df + 0.5) + 1)."""
    return math.log((n - df + 0.5) / (df + 0.5) + 1)


def idf_ratio(token_idf: float | None, n: int) -> float:
    """idf / ln(N + 1): 1 for a token unknown to the batch (its idf taken as the maximum)."""
    max_idf = math.log(n + 1)
    return (max_idf if token_idf is None else token_idf) / max_idf


def adjusted_count(count: int | float, ratio: float) -> int:
    """max(1, Math.round(count · ratio))."""
    return max(1, js_round(count * ratio))


def adjust_query_tokens(query_tokens: Sequence[str], idf_map: Mapping[str, float],
                        total_docs: int) -> list[str]:
    """adjustQueryTokensByIDF: each distinct token (first-seen order) repeated its adjusted
    count. A batch of no memories leaves the tokens as they are (ln(1) = 0)."""
    if not query_tokens or math.log(total_docs + 1) <= 0:
        return list(query_tokens)
    counts: dict[str, int] = {}
    for t in query_tokens:
        counts[t] = counts.get(t, 0) + 1
    out: list[str] = []
    for token, count in counts.items():
        out.extend([token] * adjusted_count(count, idf_ratio(idf_map.get(token), total_docs)))
    return out


def bm25_score(query_tokens: Sequence[str], doc_tokens: Sequence[str],
               idf_map: Mapping[str, float], avgdl: float, k1: float = K1,
               b: float = B) -> float:
    """bm25Score: summed over query token occurrences, in query order."""
    doc_len = len(doc_tokens)
    if doc_len == 0 or not query_tokens or avgdl == 0:
        return 0.0
    tf: dict[str, int] = {}
    for t in doc_tokens:
        tf[t] = tf.get(t, 0) + 1
    score = 0.0
    for term in query_tokens:
        freq = tf.get(term, 0)
        if freq == 0:
            continue
        numerator = freq * (k1 + 1)
        denominator = freq + k1 * (1 - b + (b * doc_len) / avgdl)
        score += (idf_map.get(term) or 0.0) * (numerator / denominator)
    return score
