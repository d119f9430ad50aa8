"""Reference implementations for the benchmark: the same scores, computed the way the source
systems compute them — one document at a time in Python — and, for BM25, by bm25s (which must
re-index to change k1 or b).

Each reference returns (milliseconds for the whole query set, a note). Setup that the workbench
also does once (tokenising) is not timed; only the per-change work is.
"""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from workbench.core.data import Dataset
from workbench.core.params import Params

Reference = Callable[[Dataset, Params], tuple[float | None, str]]


def _sample(n_queries: int, budget: int) -> list[int]:
    step = max(1, n_queries // budget)
    return list(range(0, n_queries, step))[:budget]


def _timed(timed: int, total: int) -> str:
    """How much of the query set a reference timed: all of it, or a sample scaled up."""
    return f"all {total:,} queries" if timed >= total else f"{timed} queries scaled to {total:,}"


def _per_query_ms(n_queries: int, run: Callable[[int], object], least: int = 5,
                  most: int = 20, seconds: float = 20.0) -> tuple[float, int]:
    """(mean ms a query, queries timed) of a slow reference: queries spread over the set,
    at least `least` of them, then more until `seconds` have passed or `most` are done — two
    queries scaled to 300 had given references three times apart from run to run."""
    picked = _sample(n_queries, most)
    spent: list[float] = []
    start = time.perf_counter()
    for qi in picked:
        t0 = time.perf_counter()
        run(qi)
        spent.append((time.perf_counter() - t0) * 1000)
        if len(spent) >= least and time.perf_counter() - start >= seconds:
            break
    return sum(spent) / len(spent), len(spent)


def bm25_per_document(dataset: Dataset, params: Params) -> tuple[float | None, str]:
    from workbench.core.models.bm25 import BM25Model

    model = BM25Model()
    an = model.analyzer(params)
    docs = [Counter(an.tokens(t)) for t in model.doc_texts(dataset, params)]
    lengths = [sum(c.values()) for c in docs]
    avgdl = sum(lengths) / max(len(lengths), 1)
    df: Counter[str] = Counter()
    for c in docs:
        df.update(c.keys())
    n = len(docs)
    k1, b = float(params["k1"]), float(params["b"])
    queries = [an.tokens(q.text) for q in dataset.queries]
    picked = _sample(len(queries), 20 if n < 20000 else 4)

    t0 = time.perf_counter()
    for qi in picked:
        terms = queries[qi]
        idf = {t: math.log(1 + (n - df[t] + 0.5) / (df[t] + 0.5)) for t in terms}
        scored = []
        for d, counts in enumerate(docs):
            s = 0.0
            norm = k1 * (1 - b + b * lengths[d] / avgdl)
            for t in terms:
                tf = counts.get(t, 0)
                if tf:
                    s += idf[t] * tf / (tf + norm)
            if s > 0:
                scored.append((s, d))
        scored.sort(reverse=True)
        del scored[100:]
    ms = (time.perf_counter() - t0) * 1000 * len(queries) / len(picked)
    note = f"per-document Python, {_timed(len(picked), len(queries))}"
    bm25s_ms = _bm25s_reindex(dataset, params)
    if bm25s_ms is not None:
        note += f"; bm25s re-index + retrieve: {bm25s_ms:,.0f} ms"
    return ms, note


def _bm25s_reindex(dataset: Dataset, params: Params) -> float | None:
    """bm25s bakes k1 and b into its index: a slider move means index + retrieve again."""
    try:
        import bm25s
    except ImportError:
        return None
    from workbench.core.models.bm25 import BM25Model

    model = BM25Model()
    an = model.analyzer(params)
    corpus = [an.tokens(t) for t in model.doc_texts(dataset, params)]
    queries = [an.tokens(q.text) for q in dataset.queries]
    vocab = {t for doc in corpus for t in doc}
    queries = [[t for t in q if t in vocab] or [next(iter(vocab))] for q in queries]
    t0 = time.perf_counter()
    index = bm25s.BM25(method="lucene", k1=float(params["k1"]), b=float(params["b"]))
    index.index(corpus, show_progress=False)
    index.retrieve(queries, k=min(100, len(corpus)), show_progress=False, n_threads=1)
    return (time.perf_counter() - t0) * 1000


def vault_search_per_document(dataset: Dataset, params: Params) -> tuple[float | None, str]:
    """obsidian-mcp's loop: for each file, extract the matching lines, then score the file."""
    from workbench.core.models.vault_search import resolve_weights, shipped_score

    if params.get("variant") != "shipped":
        return None, "reference only for the shipped variant"
    weights = resolve_weights({"termFrequency": float(params["w_tf"]),
                               "position": float(params["w_position"]),
                               "density": float(params["w_density"])})
    texts = [d.text for d in dataset.corpus]
    picked = _sample(len(dataset.queries), 10 if len(texts) < 20000 else 2)
    t0 = time.perf_counter()
    for qi in picked:
        query = dataset.queries[qi].text
        scored = [(s, d) for d, text in enumerate(texts)
                  if (s := shipped_score(text, query, weights)) > 0]
        scored.sort(key=lambda x: -x[0])
    ms = (time.perf_counter() - t0) * 1000 * len(dataset.queries) / len(picked)
    return ms, f"per-document Python, {_timed(len(picked), len(dataset.queries))}"


def hybrid_per_memory(dataset: Dataset, params: Params) -> tuple[float | None, str]:
    """OpenVault's scoreMemories for each query: tokenise the batch, BM25 over it, then
    calculateScore memory by memory (embeddings, which OpenVault stores, are not timed)."""
    from workbench.core.embeddings import embed_texts
    from workbench.core.models.hybrid import score_memories
    from workbench.core.models.hybrid.prepared import document_texts

    texts = document_texts(dataset, str(params["fields"]))
    vectors = embed_texts(texts, model=str(params["embedding_model"]),
                          prompt=str(params["document_prompt"]))
    queries = embed_texts([q.text for q in dataset.queries], model=str(params["embedding_model"]),
                          prompt=str(params["query_prompt"]))
    memories = [{"summary": t, "embedding": v.tolist()} for t, v in zip(texts, vectors,
                                                                         strict=True)]
    settings = {"alpha": params["alpha"], "combinedBoostWeight": params["combined_boost_weight"],
                "vectorSimilarityThreshold": params["vector_threshold"]}
    each, timed = _per_query_ms(len(dataset.queries), lambda qi: score_memories(
        memories, queries[qi].tolist(), 0, None, settings, dataset.queries[qi].text))
    ms = each * len(dataset.queries)
    return ms, f"OpenVault's scoreMemories, {_timed(timed, len(dataset.queries))}"


def vector_search(docs: Any, query: Any, floor: float, depth: int = 100) -> Any:
    """The documents (rows of `docs`, L2-normalised) whose cosine with `query` is at least
    `floor`, best first (ties by row), at most `depth` of them."""
    import numpy as np

    sims = docs @ query
    hits = np.flatnonzero(sims >= floor)
    return hits[np.argsort(-sims[hits], kind="stable")][:depth]


def dense_per_query(dataset: Dataset, params: Params) -> tuple[float | None, str]:
    """A vector store's brute-force search for each query, as a changed min similarity makes
    it answer again: the query's cosine with every document vector (numpy, float32), the
    documents at or above the minimum, sorted, top 100 (the vectors, which a store keeps,
    are not timed)."""
    import numpy as np

    from workbench.core.embeddings import embed_texts
    from workbench.core.models.dense import document_texts

    model = str(params["embedding_model"])
    docs = embed_texts(document_texts(dataset, str(params["fields"])), model=model,
                       prompt=str(params["document_prompt"]))
    queries = embed_texts([q.text for q in dataset.queries], model=model,
                          prompt=str(params["query_prompt"]))
    docs = np.ascontiguousarray(docs, np.float32)
    floor = float(params["min_similarity"])
    with _one_blas_thread() as limited:
        each, timed = _per_query_ms(len(dataset.queries),
                                    lambda qi: vector_search(docs, queries[qi], floor),
                                    most=50, seconds=5.0)
    return (each * len(dataset.queries),
            f"brute-force vector search per query (numpy{', one BLAS thread' if limited else ''}"
            f"), {_timed(timed, len(dataset.queries))}")


@contextmanager
def _one_blas_thread() -> Iterator[bool]:
    """One BLAS thread for a query's matrix-vector product, as a store answering one query
    a core runs it: on two loaded cores OpenBLAS's threads contended, 5.5 s for SciFact's
    300 queries against 0.11 s with one (so the reference was 25 times too slow). Yields
    whether the limit holds (threadpoolctl comes with the embedding extra)."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        yield False
        return
    with threadpool_limits(limits=1, user_api="blas"):
        yield True


def importance_scores(dataset: Dataset, params: Params) -> Callable[[int], list[tuple[float, int]]]:
    """The importance model's scores worked out memory by memory, the document's way: per query,
    BM25 over each memory in Python, the document's rules for each memory's importance at the
    query's clock (`rules.importance`), the gates, and relevance over the best searched memory
    (relevance = bm25-max, the default). Returns query → [(total, memory)] of its candidates,
    in corpus order. Tokenising and the phrases each memory fires are found once here, not
    timed."""
    from workbench.core.models.bm25 import BM25Model
    from workbench.core.models.decision_memory.project import parse_time
    from workbench.core.models.importance.params import rules_from
    from workbench.core.models.importance.prepared import _int, default_clock, last_access_ms
    from workbench.core.models.importance.rules import (
        DAY_S,
        OUTCOMES,
        TIERS,
        Memory,
        categories_fired,
        importance,
        outcome_index,
        tier_index,
    )

    bm25 = BM25Model()
    an = bm25.analyzer(bm25.schema.resolve({k: params[k]
                                            for k in ("fields", "stop_words", "stemmer")}))
    texts = bm25.doc_texts(dataset, bm25.schema.resolve({"fields": params["fields"]}))
    docs = [Counter(an.tokens(t)) for t in texts]
    lengths = [sum(c.values()) for c in docs]
    avgdl = sum(lengths) / max(len(lengths), 1)
    df: Counter[str] = Counter()
    for c in docs:
        df.update(c.keys())
    n = len(docs)
    k1, b = float(params["k1"]), float(params["b"])
    rules = rules_from(params)
    fields = ("mentions", "access_count") if params["mentions_from_access"] else ("mentions",)
    metas = [d.metadata for d in dataset.corpus]
    access = [last_access_ms(d) for d in dataset.corpus]
    fallback = default_clock(dataset, params)
    queries = [an.tokens(q.text) for q in dataset.queries]

    def memory(d: int, clock: float) -> Memory:
        m = metas[d]
        tier, outcome = tier_index(m.get("tier")), outcome_index(m.get("outcome"))
        days = (clock - access[d]) / (DAY_S * 1000.0)
        return Memory(text=dataset.corpus[d].text,
                      tier=TIERS[tier] if tier >= 0 else str(params["default_tier"]),
                      outcome=OUTCOMES[outcome] if outcome >= 0 else "",
                      mentions=_int(m, *fields, default=1),
                      days_inactive=(float(params["undated_days"]) if math.isnan(days)
                                     else days),
                      dismissals=_int(m, "dismissals", default=0),
                      superseded=bool(m.get("superseded_by") or m.get("superseded") is True),
                      contradicts=bool(m.get("contradicts")))

    # the phrases each memory fires read only its text: found once, as a store would at write
    fired = [categories_fired(memory(d, fallback), rules) for d in range(n)]

    def scores(qi: int) -> list[tuple[float, int]]:
        clock = parse_time(dataset.queries[qi].context.get("now"))
        clock = fallback if math.isnan(clock) else clock
        terms = queries[qi]
        idf = {t: math.log(1 + (n - df[t] + 0.5) / (df[t] + 0.5)) for t in terms}
        rows: list[tuple[float, int, float]] = []  # (bm25, memory, importance or -1 if gated)
        for d, counts in enumerate(docs):
            if not any(t in counts for t in terms):
                continue
            norm = k1 * (1 - b + b * lengths[d] / avgdl)
            rel = sum(idf[t] * counts[t] / (counts[t] + norm) for t in terms if t in counts)
            mem = memory(d, clock)
            got = importance(mem, rules, fired[d])
            stored = min(1.0, max(0.0, got.base + sum(got.boosts.values()) + got.outcome
                                  + got.repetition))
            gated = ((mem.superseded and bool(params["superseded_archive"]))
                     or (bool(params["exclude_archived"])
                         and got.final < float(params["archive_threshold"]))
                     or (bool(params["prefilter"])
                         and not (got.final > float(params["prefilter_current"])
                                  or mem.days_inactive < float(params["prefilter_days"])
                                  or stored > float(params["prefilter_importance"]))))
            rows.append((rel, d, -1.0 if gated else got.final))
        best = max((rel for rel, _, imp in rows if imp >= 0), default=0.0)
        best = best if best > 0 else 1.0
        return [(rel / best * imp if imp >= 0 else 0.0, d) for rel, d, imp in rows]

    return scores


def importance_per_memory(dataset: Dataset, params: Params) -> tuple[float | None, str]:
    """The importance model memory by memory (`importance_scores`), then sorted."""
    if params["relevance"] != "bm25-max":
        return None, "reference only for relevance = bm25-max"
    scores = importance_scores(dataset, params)
    each, timed = _per_query_ms(len(dataset.queries),
                                lambda qi: sorted(scores(qi), key=lambda x: -x[0])[:100])
    return (each * len(dataset.queries),
            f"the document's rules memory by memory, {_timed(timed, len(dataset.queries))}")


def decision_memory_per_decision(dataset: Dataset, params: Params) -> tuple[float | None, str]:
    """pi-lodestone's search for each query: token weights over the candidates, then
    scoreDecision decision by decision (injection mode, the eval harness's way)."""
    from workbench.core.models.decision_memory.project import parse_time
    from workbench.core.models.decision_memory.scoring import rank_decisions

    if not all("createdAt" in d.metadata for d in dataset.corpus):
        return None, "reference needs pi-memory decisions (createdAt, source, …)"
    records = [{"id": d.id, "title": d.title, "text": d.text, "tags": list(d.tags),
                **d.metadata} for d in dataset.corpus]
    picked = _sample(len(dataset.queries), 20)
    t0 = time.perf_counter()
    for qi in picked:
        q = dataset.queries[qi]
        pool = q.context.get("candidates")
        decisions = [records[i] for i in pool] if pool is not None else records
        now = q.context.get("now") or params.get("now") or "2026-11-20T12:00:00.000Z"
        rank_decisions(decisions, q.text, q.context.get("cwd"), now_ms=parse_time(str(now)),
                       for_injection=bool(q.context.get("for_injection", True)))
    ms = (time.perf_counter() - t0) * 1000 * len(dataset.queries) / len(picked)
    return ms, f"pi-lodestone's search, {_timed(len(picked), len(dataset.queries))}"


REFERENCES: dict[str, Reference] = {
    "decision-memory": decision_memory_per_decision,
    "dense": dense_per_query,
    "hybrid": hybrid_per_memory,
    "importance": importance_per_memory,
    "bm25": bm25_per_document,
    "vault-search": vault_search_per_document,
}
