"""Scanning a whole vault for every query at once: the work behind `prepare`.

All documents are joined by `\\n` into one canonicalised unit string (see `jsstring`), so one
`str.find` loop per query walks the whole corpus at C speed, and numpy maps each hit back to
its document, line, column and word through sorted offset arrays. A query never matches across
the joining `\\n`: a phrase holding `\\n` matches no line, and query words hold no whitespace.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from workbench.core.models.vault_search.documented import min_window_span, query_words
from workbench.core.models.vault_search.jsstring import (
    canon_table,
    canonicalize,
    find_all,
    js_lower,
    to_units,
    units_array,
    whitespace_table,
)

I64 = NDArray[np.int64]


@dataclass(frozen=True)
class VaultText:
    """The corpus as one unit string. Offsets are UTF-16 units into `canon`.

    canon:          the documents joined by `\\n`, each unit JS-canonicalised
    doc_start:      int64 (N+1,) where each document starts; [N] = len(canon) + 1
    line_start:     int64 (L,)   where each line of the joined text starts
    doc_first_line: int64 (N+1,) the first line of each document; [N] = L
    word_start:     int64 (W,)   where each whitespace-separated word starts
    doc_first_word: int64 (N+1,) the first word of each document; [N] = W
    """

    canon: str
    doc_start: I64
    line_start: I64
    doc_first_line: I64
    word_start: I64
    doc_first_word: I64

    @property
    def n_lines(self) -> I64:
        """int64 (N,): `content.split('\\n').length` per document."""
        out: I64 = np.diff(self.doc_first_line)
        return out

    @property
    def n_words(self) -> I64:
        """int64 (N,): whitespace-split words per document (JavaScript's `\\s`)."""
        out: I64 = np.diff(self.doc_first_word)
        return out

    @property
    def doc_len(self) -> I64:
        """int64 (N,): document lengths in UTF-16 units."""
        out: I64 = np.diff(self.doc_start) - 1
        return out


def build_vault_text(texts: Sequence[str]) -> VaultText:
    units = [to_units(t) for t in texts]
    joined = "\n".join(units)
    arr = units_array(joined)
    if joined.isascii():
        canon = joined.upper()
    else:
        canon = canon_table()[arr].astype("<u4").tobytes().decode("utf-32-le", "surrogatepass")
    lengths = np.fromiter((len(u) + 1 for u in units), np.int64, len(units))
    doc_start = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
    line_start = np.concatenate([[0], np.flatnonzero(arr == 10) + 1]).astype(np.int64)
    ws = whitespace_table()[arr]
    prev_ws = np.concatenate([[True], ws[:-1]])
    word_start = np.flatnonzero(~ws & prev_ws).astype(np.int64)
    n = len(units)
    return VaultText(
        canon=canon,
        doc_start=doc_start,
        line_start=line_start,
        doc_first_line=np.append(np.searchsorted(line_start, doc_start[:n]),
                                 len(line_start)).astype(np.int64),
        word_start=word_start,
        doc_first_word=np.append(np.searchsorted(word_start, doc_start[:n]),
                                 len(word_start)).astype(np.int64),
    )


@dataclass(frozen=True)
class PhraseHits:
    """Where a query matches as the shipped code matches: the first occurrence per line.

    docs:   int64 (C,) matching documents, ascending (file order)
    first:  int64 (C,) earliest matching line (1-indexed)
    lines:  int64 (C,) number of matching lines
    counts: int64 (C,) tf occurrences (after toLowerCase) in the document
    hit_doc, hit_line, hit_col: int64 (M,) every matching line: document, line (1-indexed),
            column (0-indexed UTF-16 units), in file order
    """

    docs: I64
    first: I64
    lines: I64
    counts: I64
    hit_doc: I64
    hit_line: I64
    hit_col: I64


def phrase_hits(vt: VaultText, lowered: Sequence[str], query: str) -> PhraseHits:
    """`lowered`: every document after `js_lower`, for the tf count."""
    cq = canonicalize(to_units(query))
    pos = (np.asarray(find_all(vt.canon, cq, per_line=True), np.int64)
           if cq and "\n" not in cq else np.zeros(0, np.int64))
    gline = np.searchsorted(vt.line_start, pos, side="right") - 1
    doc = np.searchsorted(vt.doc_first_line, gline, side="right") - 1
    line = gline - vt.doc_first_line[doc] + 1
    col = pos - vt.line_start[gline]
    docs, first_idx, n = np.unique(doc, return_index=True, return_counts=True)
    lq = js_lower(query)
    counts = np.fromiter((lowered[d].count(lq) for d in docs), np.int64, len(docs))
    return PhraseHits(docs.astype(np.int64), line[first_idx].astype(np.int64),
                      n.astype(np.int64), counts, doc.astype(np.int64),
                      line.astype(np.int64), col.astype(np.int64))


@dataclass(frozen=True)
class WordHits:
    """Documented-variant matches of one query.

    docs:    int64 (C,) documents holding at least one query word, ascending
    found:   int64 (C,) how many distinct query words each holds
    gap:     int64 (C,) extra words in the tightest stretch holding every found word
    e_col:   int64 (E,) per (document, word) entry: the document's index into `docs`
    e_word:  int64 (E,) the word's index in `words`
    e_count: int64 (E,) its occurrences in the document
    e_avg:   float64 (E,) mean occurrence offset / document length
    """

    words: list[str]
    docs: I64
    found: I64
    gap: I64
    e_col: I64
    e_word: I64
    e_count: I64
    e_avg: NDArray[np.float64]


def word_hits(vt: VaultText, query: str) -> WordHits:
    """Every occurrence of each distinct query word (non-overlapping, JS `/gi` matching)."""
    words = query_words(query)
    per: list[tuple[I64, I64, I64]] = []  # (doc, offset in doc, global word index)
    for w in words:
        pos = np.asarray(find_all(vt.canon, canonicalize(to_units(w))), np.int64)
        doc = np.searchsorted(vt.doc_start, pos, side="right") - 1
        per.append((doc, pos - vt.doc_start[doc],
                    np.searchsorted(vt.word_start, pos, side="right") - 1))
    all_docs = np.concatenate([d for d, _, _ in per]) if per else np.zeros(0, np.int64)
    docs = np.unique(all_docs).astype(np.int64)
    doc_len = vt.doc_len
    cols, wids, counts, avgs = [], [], [], []
    for wid, (doc, off, _) in enumerate(per):
        d, inv, n = np.unique(doc, return_inverse=True, return_counts=True)
        sums = np.bincount(inv, weights=off.astype(np.float64), minlength=len(d))
        cols.append(np.searchsorted(docs, d))
        wids.append(np.full(len(d), wid, np.int64))
        counts.append(n)
        avgs.append(sums / n / doc_len[d])
    e_col = np.concatenate(cols).astype(np.int64) if cols else np.zeros(0, np.int64)
    found = np.bincount(e_col, minlength=len(docs)).astype(np.int64)
    gap = np.zeros(len(docs), np.int64)
    multi = np.flatnonzero(found >= 2)
    if len(multi):
        occ_doc = all_docs
        occ_word = np.concatenate([t for _, _, t in per])
        occ_id = np.concatenate([np.full(len(d), i, np.int64) for i, (d, _, _) in enumerate(per)])
        order = np.lexsort((occ_word, occ_doc))
        occ_doc, occ_word, occ_id = occ_doc[order], occ_word[order], occ_id[order]
        los = np.searchsorted(occ_doc, docs[multi])
        his = np.searchsorted(occ_doc, docs[multi], side="right")
        for c, lo, hi in zip(multi, los, his, strict=True):
            seq = list(zip(occ_word[lo:hi].tolist(), occ_id[lo:hi].tolist(), strict=True))
            gap[c] = max(0, min_window_span(seq) - (int(found[c]) - 1))
    return WordHits(
        words=words, docs=docs, found=found, gap=gap, e_col=e_col,
        e_word=np.concatenate(wids).astype(np.int64) if wids else np.zeros(0, np.int64),
        e_count=np.concatenate(counts).astype(np.int64) if counts else np.zeros(0, np.int64),
        e_avg=np.concatenate(avgs).astype(np.float64) if avgs else np.zeros(0),
    )
