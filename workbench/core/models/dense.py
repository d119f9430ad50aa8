"""Dense retrieval baseline: cosine similarity of sentence embeddings.

prepare embeds every document (`title + " " + text`, the BEIR convention, or the text alone
with `fields`) and every query with
the chosen model and prompts (through the on-disk embedding cache) and keeps the (Q, N)
similarity table; combine only applies the live minimum similarity. Every document is a
candidate of every query, in corpus order (ties keep corpus order).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from workbench.core.data import Dataset
from workbench.core.embeddings import DEFAULT_MODEL, embed_texts
from workbench.core.engine import (
    NO_PROGRESS,
    EmbeddingJob,
    Model,
    Progress,
    Scores,
    Selection,
    Signal,
)
from workbench.core.params import Param, Params, ParamSchema
from workbench.core.ranking import total_only, uniform_rows

EMBEDDING_PARAMS = (
    Param("embedding_model", "Embedding model", DEFAULT_MODEL, kind="text", stage="prepare",
          help="A local sentence-transformers model: a folder, or a package that ships one."),
    Param("query_prompt", "Query prompt", "", kind="text", stage="prepare",
          help="Text put before every query before it is embedded."),
    Param("document_prompt", "Document prompt", "", kind="text", stage="prepare",
          help="Text put before every document before it is embedded."),
    Param("batch_size", "Batch size", 64, kind="int", low=1, high=4096, step=1,
          stage="prepare", help="Texts per encoder batch (speed only, not scores)."),
)


def document_texts(dataset: Dataset, fields: str = "title+text") -> list[str]:
    if fields == "text":
        return [d.text for d in dataset.corpus]
    return [f"{d.title} {d.text}" if d.title else d.text for d in dataset.corpus]


@dataclass(frozen=True)
class DensePrepared:
    """sims: float32 (Q, N) cosine similarity of every query with every document;
    docs: int32 (Q·N,) the document of each pair (every document, for every query)."""

    sims: NDArray[np.float32]
    docs: NDArray[np.int32]


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
    return (embed_texts(docs.texts, model=docs.model, batch_size=docs.batch_size,
                        prompt=docs.prompt, progress=progress.span(0, 0.95)),
            embed_texts(queries.texts, model=queries.model, batch_size=queries.batch_size,
                        prompt=queries.prompt, progress=progress.span(0.95, 1)))


class DenseModel(Model):
    id = "dense"
    label = "Dense (cosine)"
    description = "Cosine similarity of sentence embeddings (all-MiniLM-L6-v2 by default)."
    schema = ParamSchema([
        *EMBEDDING_PARAMS,
        Param("fields", "Embedded fields", "title+text", kind="choice",
              choices=("title+text", "text"), stage="prepare",
              help="What of each document is embedded: title and text joined by a space (the "
                   "BEIR convention), or the text alone."),
        Param("min_similarity", "Min similarity", -1.0, low=-1.0, high=1.0, step=0.05,
              help="Results below this cosine similarity are dropped (-1 keeps all)."),
    ])
    signals = (Signal("cosine", "Cosine", "Cosine similarity of query and document vectors."),)
    scores_all_pairs = True
    headline = ("min_similarity",)

    def embedding_jobs(self, dataset: Dataset, params: Params) -> list[EmbeddingJob]:
        return embedding_jobs(dataset, params)

    def prepare(self, dataset: Dataset, params: Params, progress: Progress = NO_PROGRESS) -> Any:
        docs, queries = embed_dataset(dataset, params, progress)
        sims = queries @ docs.T
        q, n = sims.shape
        return DensePrepared(sims=sims, docs=np.tile(np.arange(n, dtype=np.int32), q))

    def combine(self, prepared: Any, params: Params) -> Scores:
        prep: DensePrepared = prepared
        q, n = prep.sims.shape
        total = prep.sims.reshape(-1).astype(np.float64)
        return Scores(row_ptr=uniform_rows(q, n), docs=prep.docs,
                      total=total, gate=np.zeros(q * n, np.int8), signals=self.signal_names,
                      parts=total_only(total))

    def selection_params(self, params: Params) -> Selection:
        floor = float(params["min_similarity"])
        return Selection(min_score=floor if floor > -1.0 else None)
