"""BM25 baseline with k1 and b as LIVE parameters.

bm25s bakes k1 and b into its index, which is right for a search engine and wrong for a tuning
bench. Here prepare keeps only term statistics — for every query, the postings (document, term
frequency) of each of its terms, the document lengths and the document frequencies — and combine
evaluates the BM25 formula over all those postings in one vectorised pass:

    score(q, d) = Σ_t∈q  qtf(t) · idf(t) · tfc(tf(t, d), |d|)

Variants (the formulas of Kamphuis et al., ECIR 2020, as bm25s implements them):
- lucene:    idf = ln(1 + (N − df + 0.5)/(df + 0.5))
             tfc = tf / (tf + k1·(1 − b + b·|d|/avgdl))
- robertson: idf = ln(max(1, (N − df + 0.5)/(df + 0.5))); tfc as lucene
- atire:     idf = ln(N/df);  tfc = tf·(k1 + 1) / (tf + k1·(1 − b + b·|d|/avgdl))
Query terms count once per occurrence in the query (as bm25s and Lucene's BooleanQuery do).

A tick (`pair_scores`) evaluates tfc once per distinct (document, tf) — tens of thousands, not a
million postings — then one gather and multiply per posting, and sums postings into pairs rank by
rank (every pair's first posting, then its second, …): the same additions in the same order as
`np.bincount(post_pair, weights=term_scores)`, so the totals are bit-identical to it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
from numpy.typing import NDArray

from workbench.core.data import Dataset
from workbench.core.engine import (
    NO_PROGRESS,
    Model,
    Progress,
    Scores,
    Selection,
    Signal,
    corpus_stage,
    total_only,
)
from workbench.core.params import Param, Params, ParamSchema
from workbench.core.text import STEMMERS, STOP_WORD_LISTS, Analyzer

VARIANTS = ("lucene", "robertson", "atire")


@dataclass(frozen=True)
class BM25Index:
    """The documents' side of BM25, whatever the queries (cached by the corpus alone):

    terms:   the vocabulary, term id → term
    start:   int64 (V+1,)  postings of term t are [start[t], start[t+1])
    df:      float64 (V,)  document frequency of each term
    p_doc:   int32 (P,)    the document of each posting, ascending within a term
    p_tf:    float64 (P,)  its term frequency
    doc_len: float64 (N,)  tokens per document
    """

    terms: list[str]
    start: NDArray[np.int64]
    df: NDArray[np.float64]
    p_doc: NDArray[np.int32]
    p_tf: NDArray[np.float64]
    doc_len: NDArray[np.float64]


@dataclass(frozen=True)
class BM25Prepared:
    """Term statistics for every query of a dataset.

    doc_len:     float64 (N,)  tokens per document
    row_ptr:     int64 (Q+1,)  candidates of query q are cand[row_ptr[q]:row_ptr[q+1]]
    cand:        int32 (P,)    candidate documents (any query term), ascending within a query
    qterm_query: int32 (T,)    the query of each distinct (query, term)
    qterm_df:    float64 (T,)  document frequency of the term
    qterm_qtf:   float64 (T,)  occurrences of the term in the query
    post_qterm:  int32 (P,)    the (query, term) of each posting
    post_doc:    int32 (P,)    the document of each posting
    post_tf:     float64 (P,)  term frequency in that document
    post_dlr:    float64 (P,)  that document's length / avgdl (saves a random gather per tick)
    post_pair:   int64 (P,)    the (query, candidate) pair of each posting (index into cand)

    The live layout (`pair_scores`), D distinct (document, tf) among the postings, the postings
    reordered by their rank within their pair, then by pair — so the first len(cand) are every
    pair's first posting, in pair order:
    dt_tf:       float64 (D,)  tf of each distinct (document, tf)
    dt_dlr:      float64 (D,)  that document's length / avgdl
    live_dt:     intp (P,)     each reordered posting's (document, tf), index into dt_*
    live_qterm:  intp (P,)     each reordered posting's (query, term)
    tail_pair:   intp (P − len(cand),)  the pair of each reordered posting after the first rank
    tail_ptr:    int64 (R,)    rank r + 1 of the tail is tail_pair[tail_ptr[r]:tail_ptr[r + 1]]
    """

    n_docs: int
    doc_len: NDArray[np.float64]
    avgdl: float
    row_ptr: NDArray[np.int64]
    cand: NDArray[np.int32]
    qterm_query: NDArray[np.int32]
    qterm_term: list[str]
    qterm_df: NDArray[np.float64]
    qterm_qtf: NDArray[np.float64]
    post_qterm: NDArray[np.int32]
    post_doc: NDArray[np.int32]
    post_tf: NDArray[np.float64]
    post_dlr: NDArray[np.float64]
    post_pair: NDArray[np.int64]
    query_tokens: list[list[str]]
    dt_tf: NDArray[np.float64]
    dt_dlr: NDArray[np.float64]
    live_dt: NDArray[np.intp]
    live_qterm: NDArray[np.intp]
    tail_pair: NDArray[np.intp]
    tail_ptr: NDArray[np.int64]


def live_layout(post_pair: NDArray[np.int64], post_doc: NDArray[np.int32],
                post_tf: NDArray[np.float64], post_dlr: NDArray[np.float64],
                post_qterm: NDArray[np.int32], n_pairs: int) -> dict[str, Any]:
    """The `BM25Prepared` live-layout fields (see there). Every pair has a posting (candidates
    are the documents holding a query term), so rank 0 is exactly the pairs, in order."""
    n_post = len(post_pair)
    by_pair = np.argsort(post_pair, kind="stable")  # original posting order within a pair
    counts = np.bincount(post_pair, minlength=n_pairs)
    rank = np.arange(n_post) - np.repeat(np.cumsum(counts) - counts, counts)
    pair_sorted = post_pair[by_pair]
    perm = by_pair[np.lexsort((pair_sorted, rank))]  # by rank, then pair
    ranks = np.sort(rank)
    tail_ptr = np.searchsorted(ranks, np.arange(1, int(ranks[-1]) + 2 if n_post else 1)) - n_pairs
    key = post_doc.astype(np.int64) * (int(post_tf.max(initial=0.0)) + 1) + post_tf.astype(np.int64)
    _, first, dt = np.unique(key, return_index=True, return_inverse=True)
    return {
        "dt_tf": post_tf[first].astype(np.float64),
        "dt_dlr": post_dlr[first].astype(np.float64),
        "live_dt": dt.reshape(-1)[perm].astype(np.intp),
        "live_qterm": post_qterm[perm].astype(np.intp),
        "tail_pair": post_pair[perm[n_pairs:]].astype(np.intp),
        "tail_ptr": np.asarray(tail_ptr, np.int64),
    }


def idf(variant: str, df: NDArray[np.float64], n: int) -> NDArray[np.float64]:
    if variant == "lucene":
        out: NDArray[np.float64] = np.log1p((n - df + 0.5) / (df + 0.5))
    elif variant == "robertson":
        out = np.log(np.maximum(1.0, (n - df + 0.5) / (df + 0.5)))
    elif variant == "atire":
        out = np.log(n / np.maximum(df, 1.0))
    else:
        raise ValueError(f"unknown BM25 variant {variant!r}; valid: {', '.join(VARIANTS)}")
    return out


class BM25Model(Model):
    id = "bm25"
    label = "BM25"
    description = "Okapi BM25 baseline (Lucene, Robertson or ATIRE variant) over title and text."
    version = "2"
    schema = ParamSchema([
        Param("k1", "k1", 1.2, low=0.0, high=3.0, step=0.05,
              help="Term-frequency saturation: 0 ignores repeats, higher values reward them."),
        Param("b", "b", 0.75, low=0.0, high=1.0, step=0.05,
              help="Length normalisation: 0 none, 1 full."),
        Param("variant", "Variant", "lucene", kind="choice", choices=VARIANTS,
              help="IDF and saturation formula (Kamphuis et al. 2020)."),
        Param("fields", "Fields", "title+text", kind="choice", choices=("title+text", "text"),
              stage="prepare", help="Which document fields are indexed, as one field."),
        Param("stop_words", "Stop words", "lucene", kind="choice",
              choices=tuple(STOP_WORD_LISTS), stage="prepare",
              help="English stop words removed before indexing."),
        Param("stemmer", "Stemmer", "snowball-english", kind="choice", choices=STEMMERS,
              stage="prepare", help="Snowball (Porter 2) English stemming of every token."),
    ])
    signals = (Signal("bm25", "BM25", "Sum over query terms of idf × saturated tf."),)
    # signal → the prepare-stage values it is computed from (a mover's settings name them
    # where that signal moved and undoing them cannot be scored live)
    prepare_signals: ClassVar[dict[str, tuple[str, ...]]] = {
        "bm25": ("fields", "stop_words", "stemmer")}
    headline = ("k1", "b")

    def analyzer(self, params: Params) -> Analyzer:
        return Analyzer(stop_words=str(params["stop_words"]), stemmer=str(params["stemmer"]))

    def doc_texts(self, dataset: Dataset, params: Params) -> list[str]:
        if params["fields"] == "text":
            return [d.text for d in dataset.corpus]
        return [f"{d.title} {d.text}" if d.title else d.text for d in dataset.corpus]

    def prepare(self, dataset: Dataset, params: Params, progress: Progress = NO_PROGRESS) -> Any:
        an = self.analyzer(params)
        index = corpus_stage(self, dataset, params,
                             lambda: self._index(dataset, params, an, progress),
                             progress.span(0.0, 0.8))
        vocab = {t: i for i, t in enumerate(index.terms)}
        progress(0.85, "collecting postings per query")
        return self._query_postings(dataset, an, vocab, index.start, index.df, index.p_doc,
                                    index.p_tf, index.doc_len, progress)

    def _index(self, dataset: Dataset, params: Params, an: Analyzer,
               progress: Progress) -> BM25Index:
        texts = self.doc_texts(dataset, params)
        n = len(texts)
        vocab: dict[str, int] = {}
        doc_of: list[int] = []
        term_of: list[int] = []
        doc_len = np.zeros(n, np.float64)
        for i, text in enumerate(texts):
            toks = an.tokens(text)
            doc_len[i] = len(toks)
            for t in toks:
                term_of.append(vocab.setdefault(t, len(vocab)))
            doc_of.extend([i] * len(toks))
            if i % 512 == 0:
                progress(0.8 * i / max(n, 1), f"tokenising {i:,}/{n:,} documents")
        v = max(len(vocab), 1)
        keys, tf = np.unique(np.asarray(doc_of, np.int64) * v + np.asarray(term_of, np.int64),
                             return_counts=True)
        p_doc, p_term = (keys // v).astype(np.int32), (keys % v).astype(np.int64)
        by_term = np.argsort(p_term, kind="stable")  # postings grouped by term, docs ascending
        p_doc, p_term, p_tf = p_doc[by_term], p_term[by_term], tf[by_term].astype(np.float64)
        start = np.searchsorted(p_term, np.arange(v + 1))
        df = np.diff(start).astype(np.float64)
        return BM25Index(terms=list(vocab), start=start, df=df, p_doc=p_doc, p_tf=p_tf,
                         doc_len=doc_len)

    def _query_postings(self, dataset: Dataset, an: Analyzer, vocab: dict[str, int],
                        start: NDArray[np.int64], df: NDArray[np.float64],
                        p_doc: NDArray[np.int32], p_tf: NDArray[np.float64],
                        doc_len: NDArray[np.float64], progress: Progress) -> BM25Prepared:
        n = len(doc_len)
        q_tokens = [an.tokens(q.text) for q in dataset.queries]
        rows: list[NDArray[np.int32]] = []
        qt_query: list[int] = []
        qt_term: list[str] = []
        qt_df: list[float] = []
        qt_qtf: list[float] = []
        post: list[tuple[int, NDArray[np.int32], NDArray[np.float64]]] = []  # (qterm, docs, tfs)
        for qi, toks in enumerate(q_tokens):
            docs_q: list[NDArray[np.int32]] = []
            for term, count in Counter(toks).items():
                tid = vocab.get(term)
                if tid is None:
                    continue  # a term no document holds scores nothing
                lo, hi = int(start[tid]), int(start[tid + 1])
                post.append((len(qt_term), p_doc[lo:hi], p_tf[lo:hi]))
                docs_q.append(p_doc[lo:hi])
                qt_query.append(qi)
                qt_term.append(term)
                qt_df.append(float(df[tid]))
                qt_qtf.append(float(count))
            rows.append(np.unique(np.concatenate(docs_q)) if docs_q else np.zeros(0, np.int32))
        row_ptr = np.zeros(len(rows) + 1, np.int64)
        np.cumsum([len(r) for r in rows], out=row_ptr[1:])
        cand = (np.concatenate(rows) if rows else np.zeros(0)).astype(np.int32)
        sizes = [len(d) for _, d, _ in post]
        post_qterm = np.repeat(np.arange(len(post), dtype=np.int32), sizes)
        post_doc = np.concatenate([d for _, d, _ in post]) if post else np.zeros(0, np.int32)
        post_tf = np.concatenate([t for _, _, t in post]) if post else np.zeros(0)
        qt_query_arr = np.asarray(qt_query, np.int32)
        post_query = qt_query_arr[post_qterm] if post else np.zeros(0, np.int32)
        # column of each posting within its query's candidate row: group postings by query once
        post_col = np.zeros(len(post_doc), np.int64)
        order = np.argsort(post_query, kind="stable")
        bounds = np.searchsorted(post_query[order], np.arange(len(rows) + 1))
        for qi, r in enumerate(rows):
            idx = order[bounds[qi]: bounds[qi + 1]]
            post_col[idx] = np.searchsorted(r, post_doc[idx])
        progress(1.0, "prepared")
        avgdl = float(doc_len.mean()) if n else 0.0
        post_dlr = doc_len[post_doc] / (avgdl if avgdl > 0 else 1.0)
        post_pair = row_ptr[post_query] + post_col
        post_doc = post_doc.astype(np.int32)
        post_tf = post_tf.astype(np.float64)
        return BM25Prepared(
            n_docs=n,
            doc_len=doc_len,
            avgdl=avgdl,
            row_ptr=row_ptr,
            cand=cand,
            qterm_query=qt_query_arr,
            qterm_term=qt_term,
            qterm_df=np.asarray(qt_df, np.float64),
            qterm_qtf=np.asarray(qt_qtf, np.float64),
            post_qterm=post_qterm,
            post_doc=post_doc,
            post_tf=post_tf,
            post_dlr=post_dlr,
            post_pair=post_pair,
            query_tokens=q_tokens,
            **live_layout(post_pair, post_doc, post_tf, post_dlr, post_qterm, len(cand)),
        )

    def term_scores(self, prep: BM25Prepared, params: Params) -> NDArray[np.float64]:
        """float64 (P,): each posting's share of its (query, document) score."""
        k1, b, variant = float(params["k1"]), float(params["b"]), str(params["variant"])
        weight = prep.qterm_qtf * idf(variant, prep.qterm_df, prep.n_docs)
        # tf / (tf + k1·(1 − b + b·|d|/avgdl)), in place over the postings
        out: NDArray[np.float64] = prep.post_dlr * (k1 * b)
        out += k1 * (1.0 - b)
        out += prep.post_tf
        np.divide(prep.post_tf, out, out=out)
        if variant == "atire":
            out *= k1 + 1.0
        out *= weight[prep.post_qterm]
        return out

    def pair_scores(self, prep: BM25Prepared, params: Params) -> NDArray[np.float64]:
        """float64 (len(cand),): each pair's score, bit-identical to
        np.bincount(post_pair, weights=term_scores(prep, params)) (the same operations in the
        same order, on the live layout: tfc per distinct (document, tf), pairs summed rank by
        rank)."""
        k1, b, variant = float(params["k1"]), float(params["b"]), str(params["variant"])
        weight = prep.qterm_qtf * idf(variant, prep.qterm_df, prep.n_docs)
        tab: NDArray[np.float64] = prep.dt_dlr * (k1 * b)  # as term_scores, per (doc, tf)
        tab += k1 * (1.0 - b)
        tab += prep.dt_tf
        np.divide(prep.dt_tf, tab, out=tab)
        if variant == "atire":
            tab *= k1 + 1.0
        n = len(prep.cand)
        # every pair's first posting: bincount's 0 + s is s
        total: NDArray[np.float64] = np.take(tab, prep.live_dt[:n])
        total *= np.take(weight, prep.live_qterm[:n])
        if len(prep.tail_pair):
            rest = np.take(tab, prep.live_dt[n:])
            rest *= np.take(weight, prep.live_qterm[n:])
            ptr = prep.tail_ptr
            for r in range(len(ptr) - 1):  # ranks (≤ terms per query), never pairs
                lo, hi = int(ptr[r]), int(ptr[r + 1])
                at = prep.tail_pair[lo:hi]  # distinct pairs within a rank
                total[at] += rest[lo:hi]
        return total

    def combine(self, prepared: Any, params: Params) -> Scores:
        prep: BM25Prepared = prepared
        total = self.pair_scores(prep, params)
        return Scores(
            row_ptr=prep.row_ptr,
            docs=prep.cand,
            total=total,
            gate=np.zeros(len(total), np.int8),
            signals=self.signal_names,
            parts=total_only(total),
        )

    def selection_params(self, params: Params) -> Selection:
        return Selection()

    def explain(self, prepared: Any, dataset: Dataset, query: int, doc: int,
                params: Params) -> dict[str, Any]:
        prep: BM25Prepared = prepared
        scores = self.term_scores(prep, params)
        mine = np.flatnonzero((prep.qterm_query[prep.post_qterm] == query)
                              & (prep.post_doc == doc))
        w_idf = idf(str(params["variant"]), prep.qterm_df, prep.n_docs)
        terms: list[dict[str, Any]] = []
        for p in mine:
            t = int(prep.post_qterm[p])
            terms.append({
                "term": prep.qterm_term[t], "query_count": int(prep.qterm_qtf[t]),
                "df": int(prep.qterm_df[t]), "idf": float(w_idf[t]),
                "tf": int(prep.post_tf[p]), "score": float(scores[p]),
            })
        terms.sort(key=lambda r: -float(r["score"]))
        return {
            "query_tokens": prep.query_tokens[query],
            "doc_length": int(prep.doc_len[doc]),
            "avg_doc_length": prep.avgdl,
            "matched_terms": terms,
        }
