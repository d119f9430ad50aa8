"""Prepare-stage term statistics of the hybrid model: the batch's document frequencies and, for
every query, its distinct terms with their postings.

BM25 runs over the whole corpus as one batch (every memory is a candidate of every query), so
N, df, idf and avgdl are the corpus's. What depends on live parameters is kept apart from the
statistics: a query term's count is its count in the user messages plus, per entity holding
it, ceil(weight · entity boost) × its occurrences in the entity's tokens — recomputed on every
tick, then adjusted by the IDF ratio (see `bm25`), then weighted by idf. k1 and b apply to the
postings at combine time, as in `models/bm25.py`.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from workbench.core.models.hybrid.bm25 import idf as bm25_idf
from workbench.core.models.hybrid.bm25 import idf_ratio
from workbench.core.models.hybrid.chat import QueryPlan
from workbench.core.models.hybrid.tokenizer import Tokenizer

F64 = NDArray[np.float64]
I64 = NDArray[np.int64]


@dataclass(frozen=True, eq=False)
class TermIndex:
    """Query terms (T), entities (E), entity–term links (L), postings (P), candidates (C).

    qt_query int64 (T,)  qt_term list   qt_df, qt_idf, qt_ratio, qt_msg float64 (T,)
        idf 0 and ratio 1 for a term no document holds; qt_msg = count in the user messages
    ent_query int64 (E,)  ent_name list  ent_weight float64 (E,) (`weight || 1` applied)
    link_qterm, link_ent int64 (L,)  link_mult float64 (L,): occurrences of the term in the
        entity's tokens
    post_qterm, post_doc, post_cand int64 (P,)  post_tf, post_dlr float64 (P,) (dl / avgdl);
        grouped by candidate, each candidate's terms in query order
    cand_flat int64 (C,) q·N + d, ascending; cand_post int64 (C,) its first posting;
        cand_query int64 (C,); cand_ptr int64 (Q + 1,) each query's first candidate
    """

    n_docs: int
    avgdl: float
    doc_len: F64
    qt_query: I64
    qt_term: list[str]
    qt_df: F64
    qt_idf: F64
    qt_ratio: F64
    qt_msg: F64
    ent_query: I64
    ent_name: list[str]
    ent_weight: F64
    link_qterm: I64
    link_ent: I64
    link_mult: F64
    post_qterm: I64
    post_doc: I64
    post_cand: I64
    post_tf: F64
    post_dlr: F64
    cand_flat: I64
    cand_post: I64
    cand_query: I64
    cand_ptr: I64


def _i64(values: Sequence[int]) -> I64:
    return np.asarray(values, np.int64)


def _cat(parts: Sequence[NDArray[np.generic]], dtype: type[np.generic]) -> NDArray[Any]:
    return np.concatenate(parts).astype(dtype) if parts else np.zeros(0, dtype)


@dataclass(frozen=True, eq=False)
class DocPostings:
    """The documents' side, whatever the queries (cached by the corpus alone): `terms` (term
    id → term), start int64 (V+1,) (term t's postings are [start[t], start[t+1])), p_doc
    int64 (P,) ascending within a term, p_tf float64 (P,), doc_len float64 (N,)."""

    terms: list[str]
    start: I64
    p_doc: I64
    p_tf: F64
    doc_len: F64


def doc_postings(doc_texts: Sequence[str], tokenizer: Tokenizer) -> DocPostings:
    n = len(doc_texts)
    vocab: dict[str, int] = {}
    doc_of: list[int] = []
    term_of: list[int] = []
    doc_len = np.zeros(n, np.float64)
    for i, text in enumerate(doc_texts):
        toks = tokenizer.tokens(text)
        doc_len[i] = len(toks)
        term_of.extend(vocab.setdefault(t, len(vocab)) for t in toks)
        doc_of.extend([i] * len(toks))
    v = max(len(vocab), 1)
    keys, tf = np.unique(np.asarray(doc_of, np.int64) * v + np.asarray(term_of, np.int64),
                         return_counts=True)
    p_doc, p_term = keys // v, keys % v
    order = np.argsort(p_term, kind="stable")  # grouped by term, documents ascending
    p_doc, p_term, p_tf = p_doc[order], p_term[order], tf[order].astype(np.float64)
    start = np.searchsorted(p_term, np.arange(v + 1))
    return DocPostings(terms=list(vocab), start=start.astype(np.int64),
                       p_doc=p_doc.astype(np.int64), p_tf=p_tf, doc_len=doc_len)


def build_index(doc_texts: Sequence[str], plans: Sequence[QueryPlan],
                tokenizer: Tokenizer, postings: DocPostings | None = None) -> TermIndex:
    """`postings`: the documents' side when it is at hand (else built from `doc_texts`)."""
    docs = postings if postings is not None else doc_postings(doc_texts, tokenizer)
    vocab = {t: i for i, t in enumerate(docs.terms)}
    start, p_doc, p_tf, doc_len = docs.start, docs.p_doc, docs.p_tf, docs.doc_len
    n = len(doc_len)
    avgdl = float(doc_len.mean()) if n else 0.0

    qt_query: list[int] = []
    qt_term: list[str] = []
    qt_df: list[float] = []
    qt_msg: list[float] = []
    ent_query: list[int] = []
    ent_name: list[str] = []
    ent_weight: list[float] = []
    links: list[tuple[int, int, float]] = []
    post: list[tuple[int, int, int]] = []  # (query, qterm, term id)
    for qi, plan in enumerate(plans):
        local: dict[str, int] = {}

        def term_index(term: str, qi: int = qi, local: dict[str, int] = local) -> int:
            at = local.get(term)
            if at is None:
                at = local[term] = len(qt_term)
                tid = vocab.get(term)
                qt_query.append(qi)
                qt_term.append(term)
                qt_msg.append(0.0)
                qt_df.append(0.0 if tid is None else float(start[tid + 1] - start[tid]))
                if tid is not None:
                    post.append((qi, at, tid))
            return at

        for term, count in Counter(plan.message_tokens).items():
            qt_msg[term_index(term)] = float(count)
        for name, stems in zip(plan.entities.entities, plan.entity_tokens, strict=True):
            weight = plan.entities.weights.get(name) or 0.0
            ent_query.append(qi)
            ent_name.append(name)
            ent_weight.append(1.0 if not weight or math.isnan(weight) else weight)
            for term, mult in Counter(stems).items():
                links.append((term_index(term), len(ent_name) - 1, float(mult)))

    df = np.asarray(qt_df, np.float64)
    known = df > 0
    idf = np.asarray([bm25_idf(n, d) if d > 0 else 0.0 for d in qt_df], np.float64)
    ratio = np.asarray([idf_ratio(i if k else None, n) if n > 0 else 1.0
                        for i, k in zip(idf, known, strict=True)], np.float64)
    sizes = [int(start[t + 1] - start[t]) for _, _, t in post]
    post_doc: I64 = _cat([p_doc[start[t]: start[t + 1]] for _, _, t in post], np.int64)
    post_tf: F64 = _cat([p_tf[start[t]: start[t + 1]] for _, _, t in post], np.float64)
    post_qterm = np.repeat(_i64([a for _, a, _ in post]), sizes)
    post_query = np.repeat(_i64([q for q, _, _ in post]), sizes)
    cand_flat, post_cand = np.unique(post_query * max(n, 1) + post_doc, return_inverse=True)
    post_cand = post_cand.astype(np.int64).reshape(-1)
    # postings grouped by candidate, terms in query order within: each raw BM25 sums in order
    order = np.lexsort((post_qterm, post_cand))
    post_qterm, post_doc, post_tf, post_cand = (
        post_qterm[order], post_doc[order], post_tf[order], post_cand[order])
    cand_query = cand_flat // max(n, 1)
    return TermIndex(
        n_docs=n, avgdl=avgdl, doc_len=doc_len,
        qt_query=_i64(qt_query), qt_term=qt_term, qt_df=df, qt_idf=idf, qt_ratio=ratio,
        qt_msg=np.asarray(qt_msg, np.float64),
        ent_query=_i64(ent_query), ent_name=ent_name,
        ent_weight=np.asarray(ent_weight, np.float64),
        link_qterm=_i64([t for t, _, _ in links]), link_ent=_i64([e for _, e, _ in links]),
        link_mult=np.asarray([m for _, _, m in links], np.float64),
        post_qterm=post_qterm, post_doc=post_doc, post_cand=post_cand, post_tf=post_tf,
        post_dlr=doc_len[post_doc] / (avgdl if avgdl > 0 else 1.0),
        cand_post=np.searchsorted(post_cand, np.arange(len(cand_flat))).astype(np.int64),
        cand_flat=cand_flat.astype(np.int64), cand_query=cand_query.astype(np.int64),
        cand_ptr=np.searchsorted(cand_query, np.arange(len(plans) + 1)).astype(np.int64),
    )
