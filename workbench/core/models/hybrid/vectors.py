"""Prepare-stage cosine similarities of the hybrid model: float64 (Q, N), −∞ where the pair
has no similarity (the query or the memory has no embedding: no vector bonus, and the memory
is left out of the per-query vector statistics of the non-default normalisations).

- `encoder`: every document (its indexed fields) and every query's embedding text embedded
  with the chosen model and prompts through `embeddings.embed_texts` (cached on disk); a query
  whose embedding text is empty has no embedding, as the original embeds nothing then.
- `stored`: the `embedding` a memory keeps in its metadata and a query in its context.
  Following OpenVault's cosineSimilarity, vectors of different length — or a zero vector —
  have similarity 0 (present, not missing).

Cosine is computed as the original does, dot / (|a|·|b|), here as a dot product of rows
normalised in float64.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from workbench.core.data import Dataset
from workbench.core.engine import Progress
from workbench.core.models.hybrid.chat import QueryPlan
from workbench.core.params import Params

F64 = NDArray[np.float64]


def unit_rows(vectors: NDArray[np.floating] | Sequence[Sequence[float]]) -> F64:
    """Rows scaled to length 1 in float64; zero rows stay zero."""
    x = np.asarray(vectors, np.float64)
    if x.ndim != 2:
        x = x.reshape(len(x), -1)
    norms = np.sqrt(np.einsum("ij,ij->i", x, x))
    out: F64 = np.divide(x, norms[:, None], out=np.zeros_like(x), where=norms[:, None] > 0)
    return out


def encoder_similarities(doc_texts: Sequence[str], plans: Sequence[QueryPlan],
                         params: Params, progress: Progress) -> F64:
    from workbench.core.embeddings import embed_texts

    model, batch = str(params["embedding_model"]), int(params["batch_size"])
    sims = np.full((len(plans), len(doc_texts)), -np.inf)
    if not doc_texts:
        return sims
    docs = embed_texts(list(doc_texts), model=model, prompt=str(params["document_prompt"]),
                       batch_size=batch, progress=progress.span(0.0, 0.9))
    rows = [i for i, p in enumerate(plans) if p.embedding_text]
    if rows:
        queries = embed_texts([plans[i].embedding_text for i in rows], model=model,
                              prompt=str(params["query_prompt"]), batch_size=batch,
                              progress=progress.span(0.9, 1.0))
        sims[rows] = unit_rows(queries) @ unit_rows(docs).T
    return sims


def _vector(value: object) -> list[float] | None:
    if value is None or isinstance(value, str | bytes):
        return None
    try:
        return [float(x) for x in value]  # type: ignore[attr-defined]
    except (TypeError, ValueError):
        return None


def stored_similarities(dataset: Dataset) -> F64:
    docs = [_vector(d.metadata.get("embedding")) for d in dataset.corpus]
    queries = [_vector(q.context.get("embedding")) for q in dataset.queries]
    sims = np.full((len(queries), len(docs)), -np.inf)
    has_doc = np.asarray([v is not None for v in docs], bool)
    doc_dim = np.asarray([-1 if v is None else len(v) for v in docs], np.int64)
    for qi, qv in enumerate(queries):
        if qv is not None:
            sims[qi, has_doc] = 0.0  # a length mismatch has similarity 0
    for dim in sorted({len(v) for v in queries if v} & set(doc_dim[doc_dim > 0].tolist())):
        cols = np.flatnonzero(doc_dim == dim)
        rows = np.asarray([i for i, v in enumerate(queries) if v is not None and len(v) == dim],
                          np.int64)
        d = unit_rows([docs[int(c)] or [] for c in cols])
        q = unit_rows([queries[int(r)] or [] for r in rows])
        sims[np.ix_(rows, cols)] = q @ d.T
    return sims


def similarities(dataset: Dataset, doc_texts: Sequence[str], plans: Sequence[QueryPlan],
                 params: Params, progress: Progress) -> F64:
    """float64 (Q, N) cosine similarities, −∞ where there is none."""
    if str(params["embeddings"]) == "stored":
        return stored_similarities(dataset)
    return encoder_similarities(doc_texts, plans, params, progress)
