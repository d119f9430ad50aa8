"""The prepare stage of `vault-search`: raw quantities for every (query, matching document).

Pairs are kept flat, P of them in query-major, file order: combine evaluates the curves over
those P values only and scatters them into the dense (Q, C) `Scores`, so its cost follows the
number of matches rather than Q × the widest row. Candidates are the documents with a match,
in file (corpus) order, so that equal scores keep file order as the original's stable sort.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from workbench.core.data import Dataset
from workbench.core.engine import Progress
from workbench.core.models.vault_search.jsstring import js_lower
from workbench.core.models.vault_search.scan import (
    VaultText,
    build_vault_text,
    phrase_hits,
    word_hits,
)

F64 = NDArray[np.float64]
I64 = NDArray[np.int64]


@dataclass(frozen=True)
class ShippedArrays:
    """Per pair, float64 (P,): tf_ratio = occurrences (after toLowerCase) / words;
    first_ratio = (first matching line − 1) / lines; line_ratio = matching lines / lines.
    int64 (P,): term_count, first_line, matched_lines — the same as counts.
    Per matching line, int64 (M,): hit_pair (its pair), hit_line (1-indexed), hit_col (the
    first occurrence's 0-indexed UTF-16 column)."""

    tf_ratio: F64
    first_ratio: F64
    line_ratio: F64
    term_count: I64
    first_line: I64
    matched_lines: I64
    hit_pair: I64
    hit_line: I64
    hit_col: I64


@dataclass(frozen=True)
class DocumentedArrays:
    """words: each query's distinct words; n_qwords: int64 (Q,) how many.
    found, gap: int64 (P,) words present in the pair's document, extra words in the tightest
    stretch holding them. One entry per (pair, word that occurs): e_pair, e_word, e_count:
    int64 (E,) the pair, the word's index, its occurrences; e_ratio, e_avg: float64 (E,)
    occurrences / words, mean occurrence offset / document length."""

    words: list[list[str]]
    n_qwords: I64
    found: I64
    gap: I64
    e_pair: I64
    e_word: I64
    e_count: I64
    e_ratio: F64
    e_avg: F64


@dataclass(frozen=True)
class VaultSearchPrepared:
    """Pairs are (query, matching document), query-major and in file order within a query:
    row_ptr: int64 (Q+1,) pairs of query q are row_ptr[q]:row_ptr[q+1]; pair_query, pair_doc:
    int64 (P,). n_lines, n_words: int64 (N,) per document. One of shipped / documented."""

    variant: str
    row_ptr: I64
    pair_query: I64
    pair_doc: I64
    n_lines: I64
    n_words: I64
    shipped: ShippedArrays | None = None
    documented: DocumentedArrays | None = None

    def pair(self, query: int, doc: int) -> int | None:
        """The pair index of (query, document), None when the document has no match."""
        lo, hi = int(self.row_ptr[query]), int(self.row_ptr[query + 1])
        at = lo + int(np.searchsorted(self.pair_doc[lo:hi], doc))
        return at if at < hi and int(self.pair_doc[at]) == doc else None


def _cat(parts: Sequence[I64]) -> I64:
    return np.concatenate(parts).astype(np.int64) if parts else np.zeros(0, np.int64)


def _cat_f(parts: Sequence[F64]) -> F64:
    return np.concatenate(parts).astype(np.float64) if parts else np.zeros(0, np.float64)


def _layout(rows: list[I64]) -> tuple[I64, I64, I64, I64]:
    """Candidate rows → (row_ptr, pair_query, pair_doc, first pair per row)."""
    sizes = np.asarray([len(r) for r in rows], np.int64)
    pair_query = np.repeat(np.arange(len(rows), dtype=np.int64), sizes)
    starts = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
    return starts, pair_query, _cat(rows), starts[:-1]


def prepare_vault(dataset: Dataset, variant: str, progress: Progress) -> VaultSearchPrepared:
    texts = [d.text for d in dataset.corpus]
    progress(0.0, "joining the vault")
    vt = build_vault_text(texts)
    nq = len(dataset.queries)

    def tick(qi: int) -> None:
        progress(0.05 + 0.9 * qi / max(nq, 1), f"scanning query {qi + 1:,}/{nq:,}")

    if variant == "shipped":
        out = _prepare_shipped(vt, texts, dataset, tick)
    else:
        out = _prepare_documented(vt, dataset, tick)
    progress(1.0, "prepared")
    return out


def _prepare_shipped(vt: VaultText, texts: list[str], dataset: Dataset,
                     tick: Callable[[int], None]) -> VaultSearchPrepared:
    lowered = [js_lower(t) for t in texts]
    found = []
    for qi, query in enumerate(dataset.queries):
        tick(qi)
        found.append(phrase_hits(vt, lowered, query.text))
    row_ptr, pq, pd, row0 = _layout([h.docs for h in found])
    lines = vt.n_lines[pd].astype(np.float64)
    words = vt.n_words[pd]
    count = _cat([h.counts for h in found])
    first = _cat([h.first for h in found])
    matched = _cat([h.lines for h in found])
    shipped = ShippedArrays(
        tf_ratio=np.where(words > 0, count / np.maximum(words, 1), 0.0),
        first_ratio=(first - 1) / lines,
        line_ratio=matched / lines,
        term_count=count,
        first_line=first,
        matched_lines=matched,
        hit_pair=_cat([row0[qi] + np.searchsorted(h.docs, h.hit_doc)
                       for qi, h in enumerate(found)]),
        hit_line=_cat([h.hit_line for h in found]),
        hit_col=_cat([h.hit_col for h in found]),
    )
    return VaultSearchPrepared("shipped", row_ptr, pq, pd, vt.n_lines, vt.n_words,
                               shipped=shipped)


def _prepare_documented(vt: VaultText, dataset: Dataset,
                        tick: Callable[[int], None]) -> VaultSearchPrepared:
    found = []
    for qi, query in enumerate(dataset.queries):
        tick(qi)
        found.append(word_hits(vt, query.text))
    row_ptr, pq, pd, row0 = _layout([h.docs for h in found])
    e_pair = _cat([row0[qi] + h.e_col for qi, h in enumerate(found)])
    e_count = _cat([h.e_count for h in found])
    documented = DocumentedArrays(
        words=[h.words for h in found],
        n_qwords=np.asarray([len(h.words) for h in found], np.int64),
        found=_cat([h.found for h in found]),
        gap=_cat([h.gap for h in found]),
        e_pair=e_pair,
        e_word=_cat([h.e_word for h in found]),
        e_count=e_count,
        e_ratio=e_count / np.maximum(vt.n_words[pd[e_pair]], 1),
        e_avg=_cat_f([h.e_avg for h in found]),
    )
    return VaultSearchPrepared("documented", row_ptr, pq, pd, vt.n_lines, vt.n_words,
                               documented=documented)


def documented_arrays(prep: VaultSearchPrepared) -> DocumentedArrays:
    if prep.documented is None:
        raise ValueError(f"prepared arrays of variant {prep.variant!r} hold no documented data")
    return prep.documented
