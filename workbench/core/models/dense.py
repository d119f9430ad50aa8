"""Dense retrieval baseline: cosine similarity of sentence embeddings.

prepare embeds every document (`title + " " + text`, the BEIR convention, or the text alone
with `fields`) and every query with the chosen model and prompts (through the on-disk embedding
cache), computes the cosine similarities block by block over queries and keeps, per query, the
`vector_candidates` documents of highest cosine, best first (ties in corpus order), as a CSR of
(document, similarity). combine only applies the live minimum similarity. A document outside a
query's candidates is never ranked for it; every ranking to depth ≤ vector_candidates, and so
every metric at such a cut-off, is exactly the one over all pairs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
from numpy.typing import NDArray

from workbench.core.data import Dataset
from workbench.core.embeddings import (
    DEFAULT_MODEL,
    PROMPT_PRESETS,
    embed_texts,
    kept_earlier,
    prompt_text,
)
from workbench.core.engine import (
    NO_PROGRESS,
    EmbeddingJob,
    Model,
    Progress,
    Scores,
    Selection,
    Signal,
    held_by_corpus,
)
from workbench.core.metrics import parse_metric
from workbench.core.params import Param, Params, ParamSchema
from workbench.core.ranking import total_only, uniform_rows

EMBEDDING_PARAMS = (
    Param("embedding_model", "Embedding model", DEFAULT_MODEL, kind="text", stage="prepare",
          help="A local sentence-transformers model: a folder, or a package that ships one."),
    Param("query_prompt", "Query prompt", "", kind="text", stage="prepare", canon=prompt_text,
          help="Text put before every query before it is embedded, or a preset's name, as "
               "`embed --prompt` reads it (" + ", ".join(PROMPT_PRESETS) + ")."),
    Param("document_prompt", "Document prompt", "", kind="text", stage="prepare",
          canon=prompt_text,
          help="Text put before every document before it is embedded, or a preset's name, "
               "as the query prompt."),
    Param("batch_size", "Batch size", 64, kind="int", low=1, high=4096, step=1,
          stage="prepare", help="Texts per encoder batch (speed only, not scores)."),
)

BLOCK_BYTES = 256 * 2**20
"""the most one block of queries' temporaries may take: ~32 bytes per (query, document) — the
float64 product, its float32 copy, the negated copy and int64 argpartition indices"""
BYTES_PER_PAIR = 32


def document_texts(dataset: Dataset, fields: str = "title+text") -> list[str]:
    if fields == "text":
        return [d.text for d in dataset.corpus]
    return [f"{d.title} {d.text}" if d.title else d.text for d in dataset.corpus]


@dataclass(frozen=True)
class DensePrepared:
    """Each query's candidates, best first (ties in corpus order), as a CSR of P pairs:

    row_ptr: int64 (Q + 1,)  candidates of query q are row_ptr[q]:row_ptr[q + 1]
    docs:    int32 (P,)      the document of each pair
    sims:    float32 (P,)    its cosine similarity with the query
    n_docs:  the corpus size N
    kept:    candidates per query, min(vector_candidates, N) (N when every pair is kept)
    """

    row_ptr: NDArray[np.int64]
    docs: NDArray[np.int32]
    sims: NDArray[np.float32]
    n_docs: int
    kept: int


def embedding_jobs(dataset: Dataset, params: Params) -> list[EmbeddingJob]:
    """The documents' indexed fields with the document prompt, the queries' text with the
    query prompt."""
    model, batch = str(params["embedding_model"]), int(params["batch_size"])
    return [EmbeddingJob("documents", document_texts(dataset, str(params["fields"])), model,
                         str(params["document_prompt"]), batch),
            EmbeddingJob("queries", [q.text for q in dataset.queries], model,
                         str(params["query_prompt"]), batch)]


def embed_dataset(dataset: Dataset, params: Params,
                  progress: Progress) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
    """(documents (N, d), queries (Q, d)) embedded with the model and prompts in `params`."""
    docs, queries = embedding_jobs(dataset, params)
    what = f"dense documents' vectors: {docs.model!r} {docs.prompt!r} {params['fields']!r}"
    return (held_by_corpus(dataset, what, lambda: embed_texts(
                docs.texts, model=docs.model, batch_size=docs.batch_size, prompt=docs.prompt,
                progress=progress.span(0, 0.95), what="documents")),
            embed_texts(queries.texts, model=queries.model, batch_size=queries.batch_size,
                        prompt=queries.prompt, progress=progress.span(0.95, 1), what="queries",
                        earlier=kept_earlier(docs.texts, model=docs.model, prompt=docs.prompt,
                                             what="documents")))


def embedding_dim(model: str, fallback: int = 384) -> int:
    """The vector size of a local sentence-transformers model, read from its pooling
    configuration without loading it; `fallback` where it cannot be read (an estimate then
    errs low: memory checks refuse only what certainly does not fit)."""
    from workbench.core.embeddings import EmbeddingError, model_dim, resolve_model_path

    try:
        read = model_dim(resolve_model_path(model))
    except (EmbeddingError, OSError, ValueError):
        read = None
    if read is not None:
        return read
    return fallback


def memory_needed(n_queries: int, n_docs: int, dim: int, vector_candidates: int) -> int:
    """Bytes `DenseModel.prepare` and a tick hold at their peak: the embeddings (float32) and
    the float64 copy of the documents the product reads, one block of the product, the kept
    pairs (document, similarity) and a tick's totals."""
    m = kept_per_query(vector_candidates, n_docs)
    return (n_docs * dim * 12 + n_queries * dim * 4
            + min(BLOCK_BYTES, n_queries * n_docs * BYTES_PER_PAIR) + n_queries * m * 17)


def kept_per_query(vector_candidates: int, n_docs: int) -> int:
    """Candidates per query: `vector_candidates`, where 0 or a value ≥ N keeps all N."""
    return n_docs if vector_candidates <= 0 else min(vector_candidates, n_docs)


def cut_metrics(names: Sequence[str], vector_candidates: int, n_docs: int) -> list[str]:
    """The metrics of `names` that read deeper than the `vector_candidates` documents a query
    keeps by cosine: name@k with k above it, or one with no cut-off (map, mrr: the whole
    ranking). None where every pair is kept (0, or a value ≥ N); a name that is no ranking
    metric (bundle_recall) is left out."""
    if vector_candidates <= 0 or vector_candidates >= n_docs:
        return []
    out = []
    for name in names:
        try:
            _, k = parse_metric(name)
        except ValueError:
            continue
        if (n_docs if k is None else k) > vector_candidates:
            out.append(name)
    return out


def cut_warning(model_id: str, vector_candidates: int, n_docs: int,
                names: Sequence[str] = ()) -> str:
    """One line where `vector_candidates` cuts rankings that a metric reads (an R@100 lowered
    with no word at vector_candidates=50: 0.8920 against 0.9250 on SciFact): the metrics of
    `names` it cuts, or without `names` those of eval's defaults, said as 'a metric that reads
    deeper'. '' where it cuts none."""
    from workbench.core.pipeline import DEFAULT_METRICS

    cut = cut_metrics(names or DEFAULT_METRICS, vector_candidates, n_docs)
    if not cut:
        return ""
    listed = ", ".join(cut)
    if not names:
        reads, verb = f"a metric that reads deeper ({listed} by default)", "is"
    else:
        one = len(cut) == 1
        reads, verb = f"{listed} read{'s' if one else ''} deeper and", "is" if one else "are"
    vc = f"vector_candidates={vector_candidates:,}"
    if model_id == "hybrid":
        return (f"{vc} scores, beyond the BM25 matches, only the {vector_candidates:,} "
                "memories of highest cosine (and the first by position) per query, where "
                f"OpenVault scores every memory: {reads} may not be OpenVault's figure (0 keeps "
                "every pair)")
    return (f"{vc} ranks only the {vector_candidates:,} documents of highest cosine per "
            f"query: {reads} {verb} not exact — what is cut counts as not found (0 keeps every "
            "pair)")


def top_columns(sims: NDArray[np.floating[Any]], m: int) -> NDArray[np.int64]:
    """int64 (B, m): the columns of each row's m largest values of `sims` (B, N), best first,
    ties by column — the order a stable sort of the whole row gives. NaN counts as lowest.

    An argpartition finds each row's m-th largest value; where more entries than m reach it
    (exact ties at the cut) only the first of the tied ones by column are kept, as a stable
    sort would. Then only the m kept entries are sorted.
    """
    b, n = sims.shape
    if m >= n:
        cols: NDArray[np.int64] = np.argsort(-sims, axis=1, kind="stable")
        return cols
    if m <= 0 or b == 0:
        return np.zeros((b, 0), np.int64)
    idx = np.argpartition(-sims, m - 1, axis=1)[:, :m].astype(np.int64)
    bound = np.take_along_axis(sims, idx, axis=1).min(axis=1)
    with np.errstate(invalid="ignore"):
        crowded = np.flatnonzero((sims >= bound[:, None]).sum(axis=1) > m)
    if len(crowded):
        sub, at = sims[crowded], bound[crowded, None]
        above = sub > at
        tied = sub == at
        need = m - above.sum(axis=1)
        tied &= np.cumsum(tied, axis=1) <= need[:, None]
        idx[crowded] = np.nonzero(above | tied)[1].reshape(len(crowded), m)
    values = np.take_along_axis(sims, idx, axis=1)
    # primary key: the value, descending (NaN last); then the column
    order = np.lexsort((idx, np.isnan(values), -values), axis=1)
    out: NDArray[np.int64] = np.take_along_axis(idx, order, axis=1)
    return out


def candidates(queries: NDArray[np.float32], docs: NDArray[np.float32], vector_candidates: int,
               *, block: int | None = None,
               progress: Progress = NO_PROGRESS) -> DensePrepared:
    """Each query's `kept_per_query` documents of highest cosine (queries (Q, d) and docs
    (N, d) L2-normalised float32), `block` queries at a time (by default as many as keep the
    block's temporaries under `BLOCK_BYTES`: ~64 MB of float64 product).

    The product is taken in float64 and rounded to float32: OpenBLAS's sgemm rounds a pair's
    dot product differently with the number of rows it is given (measured here: every row of
    a 1-query block differs in the last bits from the same row of a 300-query product), so a
    float32 product would make a query's cosines depend on the block and on the other
    queries. The float64 products differ only around 1e-16, so once rounded to float32 they
    agree for any block unless one lands on a float32 rounding boundary (odds of order 1e-8 a
    pair), and they are the cosine of the float32 vectors to float32 precision.
    """
    q, n = len(queries), len(docs)
    m = kept_per_query(vector_candidates, n)
    if block is None:
        block = max(1, BLOCK_BYTES // (BYTES_PER_PAIR * max(n, 1)))
    out_docs = np.empty((q, m), np.int32)
    out_sims = np.empty((q, m), np.float32)
    doc_t = np.ascontiguousarray(docs.T, np.float64)
    for start in range(0, q, block):
        progress(start / max(q, 1), f"similarities {start:,}/{q:,} queries")
        stop = min(q, start + block)
        sims = (queries[start:stop].astype(np.float64) @ doc_t).astype(np.float32)
        cols = top_columns(sims, m)
        out_docs[start:stop] = cols
        out_sims[start:stop] = np.take_along_axis(sims, cols, axis=1)
    progress(1.0, "similarities")
    return DensePrepared(row_ptr=uniform_rows(q, m), docs=out_docs.reshape(-1),
                         sims=out_sims.reshape(-1), n_docs=n, kept=m)


class DenseModel(Model):
    id = "dense"
    label = "Dense (cosine)"
    description = "Cosine similarity of sentence embeddings (all-MiniLM-L6-v2 by default)."
    # 2: prepared state is each query's top `vector_candidates` as a CSR, no longer (Q, N)
    version = "2"
    schema = ParamSchema([
        *EMBEDDING_PARAMS,
        Param("fields", "Embedded fields", "title+text", kind="choice",
              choices=("title+text", "text"), stage="prepare",
              help="What of each document is embedded: title and text joined by a space (the "
                   "BEIR convention), or the text alone."),
        Param("vector_candidates", "Vector candidates", 1000, kind="int", low=0, high=100_000,
              step=100, stage="prepare", tunable=False,
              help="Documents per query kept by cosine; the rest are never ranked. Rankings "
                   "and metrics to a depth ≤ this value are exact. 0, or a value ≥ the corpus "
                   "size, keeps every pair."),
        Param("min_similarity", "Min similarity", -1.0, low=-1.0, high=1.0, step=0.05,
              help="Results below this cosine similarity are dropped (-1 keeps all)."),
    ]).with_slider_tops({
        # where the sliders end (a larger value is typed): the useful span, not the
        # whole range, whose default sat at its left end
        "batch_size": 512, "vector_candidates": 10000
    })
    signals = (Signal("cosine", "Cosine", "Cosine similarity of query and document vectors."),)
    # signal → the prepare-stage values it is computed from (a mover's settings name them
    # where that signal moved and undoing them cannot be scored live)
    prepare_signals: ClassVar[dict[str, tuple[str, ...]]] = {
        "cosine": ("embedding_model", "query_prompt", "document_prompt", "fields",
                   "vector_candidates")}
    headline = ("min_similarity",)

    def embedding_jobs(self, dataset: Dataset, params: Params) -> list[EmbeddingJob]:
        return embedding_jobs(dataset, params)

    def data_warnings(self, dataset: Dataset, params: Params) -> list[str]:
        from workbench.core.embeddings import prompt_warnings

        cut = ("" if dataset is None else
               cut_warning(self.id, int(params["vector_candidates"]), len(dataset.corpus)))
        return [*prompt_warnings(params), *([cut] if cut else [])]

    def memory_estimate(self, dataset: Dataset, params: Params) -> int | None:
        return memory_needed(len(dataset.queries), len(dataset.corpus),
                             embedding_dim(str(params["embedding_model"])),
                             int(params["vector_candidates"]))

    def prepare(self, dataset: Dataset, params: Params, progress: Progress = NO_PROGRESS) -> Any:
        docs, queries = embed_dataset(dataset, params, progress.span(0, 0.95))
        return candidates(queries, docs, int(params["vector_candidates"]),
                          progress=progress.span(0.95, 1))

    def combine(self, prepared: Any, params: Params) -> Scores:
        prep: DensePrepared = prepared
        total = prep.sims.astype(np.float64)
        return Scores(row_ptr=prep.row_ptr, docs=prep.docs, total=total,
                      gate=np.zeros(len(total), np.int8), signals=self.signal_names,
                      parts=total_only(total))

    def selection_params(self, params: Params) -> Selection:
        floor = float(params["min_similarity"])
        return Selection(min_score=floor if floor > -1.0 else None)

    def explain(self, prepared: Any, dataset: Dataset, query: int, doc: int,
                params: Params) -> dict[str, Any]:
        """Nothing beyond the cosine for a candidate; for any other document, why it has no
        score."""
        prep: DensePrepared = prepared
        row = prep.docs[int(prep.row_ptr[query]):int(prep.row_ptr[query + 1])]
        if prep.kept >= prep.n_docs or (row == doc).any():
            return {}
        return {"candidate": f"outside the top {prep.kept:,} vector candidates of this query "
                             f"(vector_candidates = {prep.kept:,})"}
