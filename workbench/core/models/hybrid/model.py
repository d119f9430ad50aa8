"""The `hybrid` model: OpenVault's memory scoring (REFERENCE.md §3, vadash/openvault c112699),
faithful at its default parameters, with normalisation choices beyond the original's.

    total = base + alpha·W·v + (1 − alpha)·W·g      (signals base, vector, bm25)

base is the forgetting curve (importance · e^(−λ·distance), importance 5 floored), v the
vector similarity above the threshold rescaled, g the raw BM25 over the batch divided by the
batch maximum (see `normalize` for the other choices). Each query's scored memories
(`candidates`) are in memory order, so equal totals keep memory order as the original's stable
sort; rankings to a depth ≤ `vector_candidates` are those over every pair.

Modules: `lexicon` (word lists), `jstext` (JavaScript string rules), `tokenizer`, `bm25`,
`scoring` (calculateScore, scoreMemories, the settings migration), `query` (entities, BM25
tokens, embedding query), `chat` (a workbench Query → those), `index`, `vectors`,
`candidates` and `prepared` (prepare), `normalize` and `combine` (live), `explain`, `params`.
"""

from __future__ import annotations

from typing import Any, ClassVar

from workbench.core.data import Dataset
from workbench.core.engine import NO_PROGRESS, EmbeddingJob, Model, Progress, Scores, Selection
from workbench.core.models.hybrid.combine import Blend, LiveCache, combine_hybrid, inert
from workbench.core.models.hybrid.explain import explain_pair
from workbench.core.models.hybrid.params import SCHEMA, SIGNALS, idle_settings
from workbench.core.models.hybrid.prepared import (
    HybridPrepared,
    embedding_jobs,
    estimate,
    prepare_hybrid,
)
from workbench.core.models.hybrid.vectors import stored_vector_notes
from workbench.core.params import Params


class HybridModel(Model):
    id = "hybrid"
    label = "Hybrid BM25 + vector (OpenVault)"
    description = ("OpenVault's memory scoring: forgetting curve plus an alpha blend of vector "
                   "similarity and batch-normalised BM25 within a boost budget W.")
    # 2: prepared state holds the scored pairs (`candidates`), no longer (Q, N) similarities
    version = "2"
    schema = SCHEMA
    signals = SIGNALS
    # signal → the prepare-stage values it is computed from (a mover's settings name them
    # where that signal moved and undoing them cannot be scored live)
    prepare_signals: ClassVar[dict[str, tuple[str, ...]]] = {
        "base": ("default_importance",),
        "vector": ("embeddings", "embedding_model", "query_prompt", "document_prompt",
                   "embedding_lines", "embedding_window", "embedding_entities",
                   "embedding_chars", "user_messages", "user_chars", "vector_candidates"),
        "bm25": ("fields", "min_token_length", "user_messages", "user_chars", "entity_lines",
                 "entity_window", "recency_decay", "top_entities", "active_character_boost",
                 "entity_max_share", "quote_min_chars", "quote_max_chars")}
    headline = ("alpha", "combined_boost_weight")

    def __init__(self) -> None:
        self._cache = LiveCache()

    def embedding_jobs(self, dataset: Dataset, params: Params) -> list[EmbeddingJob]:
        return embedding_jobs(dataset, params)

    def data_warnings(self, dataset: Dataset, params: Params) -> list[str]:
        from workbench.core.models.dense import cut_warning

        cut = ("" if dataset is None else
               cut_warning(self.id, int(params["vector_candidates"]), len(dataset.corpus)))
        return [*self._vector_warnings(dataset, params), *([cut] if cut else [])]

    def _vector_warnings(self, dataset: Dataset, params: Params) -> list[str]:
        if str(params["embeddings"]) != "stored":
            from workbench.core.embeddings import prompt_warnings

            return prompt_warnings(params)
        out = idle_settings(params)
        docs = sum(1 for d in dataset.corpus if d.metadata.get("embedding") is not None)
        queries = sum(1 for q in dataset.queries if q.context.get("embedding") is not None)
        if docs and queries:
            return out + stored_vector_notes(dataset)
        lacking = ("neither memory nor query" if not docs and not queries
                   else "no memory" if not docs else "no query")
        return [*out, f"embeddings=stored, but {lacking} of {dataset.name} has a stored "
                      "'embedding': no pair gets a vector similarity, so the scores are the "
                      "keyword part alone (embeddings=encoder embeds them)"]

    def memory_estimate(self, dataset: Dataset, params: Params) -> int | None:
        """A lower bound (the BM25 postings are not known before tokenising); prepare checks
        again with them once the corpus is tokenised."""
        return estimate(dataset, params)

    def prepare(self, dataset: Dataset, params: Params, progress: Progress = NO_PROGRESS) -> Any:
        return prepare_hybrid(dataset, params, progress, self)

    def combine(self, prepared: Any, params: Params) -> Scores:
        prep: HybridPrepared = prepared
        return combine_hybrid(prep, params, self._cache, self.signal_names)

    def combine_to_depth(self, prepared: Any, params: Params, depth: int) -> Scores:
        prep: HybridPrepared = prepared
        return combine_hybrid(prep, params, self._cache, self.signal_names, depth)

    def selection_params(self, params: Params) -> Selection:
        """OpenVault ranks every memory (then fills a token budget the workbench does not
        model): no min score, no limit."""
        return Selection()

    def inert_params(self, prepared: Any, params: Params) -> dict[str, str]:
        """What no score moves with on this data (`combine.inert`): on plain BEIR data the
        forgetting curve's λ and floor and the entity boost."""
        prep: HybridPrepared = prepared
        out = inert(prep)
        if float(params["combined_boost_weight"]) <= 0:
            # at 0 every score is 0: W is then the one parameter that moves anything
            out.pop("combined_boost_weight", None)
        return out

    def explain(self, prepared: Any, dataset: Dataset, query: int, doc: int,
                params: Params) -> dict[str, Any]:
        prep: HybridPrepared = prepared
        out: dict[str, Any] = {"doc": dataset.corpus[doc].id,
                               "query": dataset.queries[query].text}
        out.update(explain_pair(Blend(prep, params, self._cache), query, doc, params))
        return out
