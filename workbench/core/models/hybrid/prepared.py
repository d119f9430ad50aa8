"""The prepare stage of the hybrid model: everything that no live parameter touches.

- the query plans (tokens, entities, embedding texts; see `chat`),
- the BM25 term statistics and postings (see `index`),
- the scored pairs with their cosine similarities, computed block by block (see `vectors` and
  `candidates`),
- the forgetting curve's inputs per memory and query.

The forgetting curve applies to a pair when the query has a chat (a `chat_length` or
`messages` in its context) or the document is an OpenVault memory (`importance` or
`message_ids` in its metadata). Then, as the original: importance `|| 3`, message_ids
`|| [0]` (`[]` kept: −∞, an infinite distance), chat length 0 for a query without one. Plain
BEIR data has neither, and its base is 0: the blend of BM25 and vectors alone.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from workbench.core.data import Dataset
from workbench.core.engine import (
    MEMORY_LIMIT_ENV,
    EmbeddingJob,
    MemoryEstimateError,
    Model,
    Progress,
    available_memory,
    corpus_stage,
)
from workbench.core.models.dense import embedding_dim
from workbench.core.models.hybrid.candidates import Pairs, build_pairs, memory_needed
from workbench.core.models.hybrid.chat import QueryPlan, chat_length, plan_query
from workbench.core.models.hybrid.curve_groups import Curve
from workbench.core.models.hybrid.index import TermIndex, build_index, doc_postings
from workbench.core.models.hybrid.params import chat_config
from workbench.core.models.hybrid.scoring import importance_of, max_message_id
from workbench.core.models.hybrid.tokenizer import Tokenizer
from workbench.core.models.hybrid.vectors import (
    SimilarityRows,
    encoder_jobs,
    row_blocks,
    similarity_rows,
)
from workbench.core.params import Params
from workbench.core.sizes import bytes_text

F64 = NDArray[np.float64]
I64 = NDArray[np.int64]


@dataclass(frozen=True, eq=False)
class HybridPrepared:
    """pairs: the scored (query, memory) pairs and their similarities (see `candidates`).
    importance, max_id: float64 (N,) (the original's defaults applied). chat_length: float64
    (Q,). chat: bool (Q,) the queries with a chat; memory: bool (N,) the OpenVault memories:
    the forgetting curve applies to a pair where either holds. rows: where the curve applies
    and not every pair is kept (`pairs.bound`), the similarities of any query with every
    memory, for the queries a tick must score whole (`curve_bound`).
    `eq=False`: instances hash by identity, so live caches can key on them."""

    n_queries: int
    n_docs: int
    plans: list[QueryPlan]
    index: TermIndex
    pairs: Pairs
    importance: F64
    max_id: F64
    chat_length: F64
    chat: NDArray[np.bool_]
    memory: NDArray[np.bool_]
    rows: SimilarityRows | None = None

    @property
    def curve(self) -> bool:
        """Whether the forgetting curve applies anywhere."""
        return bool(self.chat.any() or self.memory.any())

    def distance(self, query: I64, doc: I64) -> F64:
        """float64 (n,): max(0, chat length − max(message_ids)) of each (query, doc) pair;
        ∞ for `[]`."""
        out: F64 = np.maximum(0.0, self.chat_length[query] - self.max_id[doc])
        return out


def document_texts(dataset: Dataset, fields: str) -> list[str]:
    if fields == "title+text":
        return [f"{d.title} {d.text}" if d.title else d.text for d in dataset.corpus]
    return [d.text for d in dataset.corpus]


def embedding_jobs(dataset: Dataset, params: Params) -> list[EmbeddingJob]:
    """What prepare embeds at these parameters: nothing with stored embeddings."""
    if str(params["embeddings"]) == "stored":
        return []
    tokenizer = Tokenizer(int(params["min_token_length"]))
    cfg = chat_config(params)
    plans = [plan_query(q, cfg, tokenizer) for q in dataset.queries]
    return encoder_jobs(document_texts(dataset, str(params["fields"])), plans, params)


def _has_curve(dataset: Dataset) -> tuple[NDArray[np.bool_], NDArray[np.bool_]]:
    """(chat (Q,), memory (N,)): the queries with a chat, the OpenVault memories."""
    chat = np.asarray([chat_length(q) is not None for q in dataset.queries], bool)
    memory = np.asarray([("importance" in d.metadata or "message_ids" in d.metadata)
                         for d in dataset.corpus], bool)
    return chat, memory


def _stored_dim(dataset: Dataset) -> int:
    """The longest `embedding` stored with a memory or a query (0: none)."""
    lengths = (len(v) for v in (*(d.metadata.get("embedding") for d in dataset.corpus),
                                *(q.context.get("embedding") for q in dataset.queries))
               if isinstance(v, list | tuple))
    return max(lengths, default=0)


def estimate(dataset: Dataset, params: Params, postings: int = 0) -> int:
    """Bytes preparing and ticking need (`candidates.memory_needed`)."""
    chat, memory = _has_curve(dataset)
    # stored vectors are copied into float64 matrices as the encoder's are (they counted 0:
    # 263 MB estimated where a 100k corpus of 384-d vectors took 2.9 GB)
    dim = (_stored_dim(dataset) if str(params["embeddings"]) == "stored"
           else embedding_dim(str(params["embedding_model"])))
    groups = 0
    if chat.any() or memory.any():  # the importance groups a query is served by, at most
        default = float(params["default_importance"])
        imp = {importance_of(d.metadata.get("importance"), default) for d in dataset.corpus}
        groups = len(imp) + (0 if chat.all() or memory.all() else 1)
    return memory_needed(len(dataset.queries), len(dataset.corpus), dim,
                         int(params["vector_candidates"]), curve_groups=groups,
                         postings=postings)


def prepare_hybrid(dataset: Dataset, params: Params, progress: Progress,
                   model: Model | None = None) -> HybridPrepared:
    """`model`: the documents' postings are cached by the corpus under its id
    (`engine.corpus_stage`); without it they are built every time."""
    tokenizer = Tokenizer(int(params["min_token_length"]))
    cfg = chat_config(params)
    progress(0.0, "building the queries")
    plans = [plan_query(q, cfg, tokenizer) for q in dataset.queries]
    texts = document_texts(dataset, str(params["fields"]))
    progress(0.05, "tokenising the corpus")
    postings = (doc_postings(texts, tokenizer) if model is None else
                corpus_stage(model, dataset, params, lambda: doc_postings(texts, tokenizer),
                             reads=("fields", "min_token_length")))
    index = build_index(texts, plans, tokenizer, postings)
    chat, memory = _has_curve(dataset)
    need = estimate(dataset, params, postings=len(index.post_doc))
    have = available_memory()
    if have is not None and need > have:  # now with the postings known
        raise MemoryEstimateError(
            f"hybrid on {dataset.name} ({len(plans):,} queries × {len(texts):,} documents, "
            f"{len(index.post_doc):,} BM25 matches) needs about {bytes_text(need)} of memory and "
            f"{bytes_text(have)} is available; not prepared. Use fewer queries or documents, or a "
            f"lower vector_candidates (${MEMORY_LIMIT_ENV} sets the limit)")
    # the bar's share by what costs: embedding a corpus takes minutes where tokenising it
    # took a second (0.3 had gone to tokenising, and the bar stood at 30 % beside "embedding
    # 0/5,183 documents"); with the vectors cached this span passes in a moment
    progress(0.1, "reading the stored vectors" if str(params["embeddings"]) == "stored"
             else "embedding")
    source = similarity_rows(dataset, texts, plans, params, progress.span(0.1, 0.9))
    default = float(params["default_importance"])
    importance = np.asarray([importance_of(d.metadata.get("importance"), default)
                             for d in dataset.corpus], np.float64)
    max_id = np.asarray([max_message_id(d.metadata.get("message_ids"))
                         for d in dataset.corpus], np.float64)
    chat_length = np.asarray([p.chat_length or 0 for p in plans], np.float64)
    curve = (Curve(importance, max_id, chat_length, chat, memory)
             if chat.any() or memory.any() else None)
    pairs = build_pairs(row_blocks(source, progress.span(0.9, 1.0)), index, len(plans),
                        int(params["vector_candidates"]), curve=curve)
    progress(1.0, "prepared")
    return HybridPrepared(
        n_queries=len(plans), n_docs=len(texts), plans=plans, index=index, pairs=pairs,
        importance=importance, max_id=max_id, chat_length=chat_length, chat=chat,
        memory=memory, rows=source if pairs.bound is not None else None)
