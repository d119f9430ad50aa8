"""The hybrid model's parameters and signals, declared once as data.

Every constant OpenVault (c112699) hard-codes is a parameter whose default is that constant
(REFERENCE.md §3); the slider ranges of alpha, W and the threshold are the original UI's,
widened to every value its settings accept (W = 0 switches the boosts off). Each help says
where its range comes from.
Prepare-stage parameters change the tokens, the entities, the query texts or the embeddings;
everything else is applied live.
"""

from __future__ import annotations

from workbench.core.embeddings import DEFAULT_MODEL, PROMPT_PRESETS, prompt_text
from workbench.core.engine import Signal
from workbench.core.models.hybrid.chat import ChatConfig
from workbench.core.models.hybrid.query import QueryConfig
from workbench.core.params import Param, Params, ParamSchema, value_text

NORMALIZATIONS = ("batch-max", "min-max", "z-score", "rrf")
# OpenVault's default embedding prefix, on queries and documents alike (symmetric)
OPENVAULT_PROMPT = "task: sentence similarity | query: "
_PRESETS = ", ".join(PROMPT_PRESETS)  # the names a prompt may be given by

SIGNALS = (
    Signal("base", "Forgetting curve", "importance · e^(−λ·distance), importance 5 floored; "
           "0 for documents and queries without OpenVault metadata."),
    Signal("vector", "Vector bonus", "alpha · W · the normalised cosine similarity (only above "
           "the threshold)."),
    Signal("bm25", "BM25 bonus", "(1 − alpha) · W · the normalised BM25 score."),
)

_Q = QueryConfig()
# what only the encoder reads: with embeddings=stored the stored vectors are used as they are
ENCODER = ("!embeddings=stored",)
_C = ChatConfig()

SCHEMA = ParamSchema([
    # -- live: the blend --
    Param("alpha", "Vector vs keyword (alpha)", 0.7, low=0.0, high=1.0, step=0.05,
          help="Share of the boost W given to vector similarity: 1 = vector only, "
               "0 = keyword only (BM25). Range: the original's slider, 0–1."),
    Param("combined_boost_weight", "Retrieval boost strength (W)", 15.0, low=0.0, high=30.0,
          step=1.0, help="Total bonus budget: the vector and BM25 bonuses together reach at "
                         "most W (combinedBoostWeight) — under batch-max, min-max and rrf, "
                         "which keep each part within [0, 1]; z-score does not bound them. "
                         "Range: the original's slider is 1–30; 0 is a valid setting too (it "
                         "switches both bonuses off)."),
    Param("vector_threshold", "Vector similarity threshold", 0.5, low=0.0, high=1.0, step=0.05,
          needs=("!no_vector_threshold",), zero="= 0.5",
          help="Cosine similarity must exceed this for a vector bonus, rescaled as "
               "(sim − t)/(1 − t). 0 = OpenVault's default 0.5: the original treats 0 as unset "
               "(`threshold || 0.5`), so 0 and 0.5 score alike; for no threshold at all tick "
               "'No vector threshold'. Range: the original's slider, 0–1 step 0.05."),
    Param("no_vector_threshold", "No vector threshold (plain blend)", False, kind="bool",
          help="Ignore the threshold above: every positive cosine similarity earns "
               "alpha · W · sim (the threshold really 0, which OpenVault itself cannot be set "
               "to). Off = OpenVault's behaviour."),
    Param("normalization", "Normalisation", "batch-max", kind="choice", choices=NORMALIZATIONS,
          help="How the vector part v and the BM25 part g are scaled per query before the "
               "blend (sim: a cosine similarity, t: the threshold, raw: a BM25 score):\n"
               "batch-max (OpenVault's): v = (sim − t)/(1 − t), g = raw / the query's "
               "highest raw;\n"
               "min-max: v = (sim − lowest)/(highest − lowest) over the query's similarities, "
               "g the same over its memories' raw: the lowest gets 0, the highest 1 (no "
               "threshold rescale, though sim must still pass t);\n"
               "z-score: (value − mean)/standard deviation over the query's memories: "
               "negative below the mean, and not bounded by W;\n"
               "rrf: (k + 1)/(k + r) for the memory ranked r by similarity, or by BM25 among "
               "those that match (no match: 0); rank 1 gets 1."),
    Param("rrf_k", "RRF k", 60, kind="int", low=1, high=1000, step=1,
          needs=("normalization=rrf",),
          help="rrf only: a memory ranked r gets (k + 1)/(k + r)."),
    Param("entity_boost_weight", "Entity boost", _Q.entity_boost_weight, low=0.0, high=20.0,
          step=0.5, help="Entity tokens are repeated ceil(weight · boost) times in the BM25 "
                         "query (before the IDF-aware adjustment); 0 drops entities, as the "
                         "original's ceil(weight · 0) = 0 does. Default 5.0 (the setting's)."),
    Param("k1", "BM25 k1", 1.2, low=0.0, high=3.0, step=0.05,
          help="Term-frequency saturation of the BM25 bonus. The original hard-codes 1.2; "
               "range: the usual BM25 span."),
    Param("b", "BM25 b", 0.75, low=0.0, high=1.0, step=0.05,
          help="Length normalisation of the BM25 bonus: 0 none, 1 full (all b means; the "
               "original hard-codes 0.75)."),
    Param("base_lambda", "Forgetting rate (base λ)", 0.05, low=0.0, high=1.0, step=0.005,
          help="λ = base / importance²; base = importance · e^(−λ · message distance). "
               "The original's BASE_LAMBDA is 0.05; 0 = no forgetting, also for a memory "
               "with no message ids (infinitely far: base 0 at any λ above 0; JavaScript "
               "would make 0 · ∞ NaN, the workbench takes it as 0)."),
    Param("importance5_floor", "Importance-5 floor", 5.0, low=0.0, high=10.0, step=0.5,
          help="Importance-5 memories never score a base below this (the original's "
               "IMPORTANCE_5_FLOOR, 5; 0 = no floor)."),
    # -- prepare: text, query construction, embeddings --
    Param("fields", "Indexed fields", "text", kind="choice", choices=("text", "title+text"),
          stage="prepare", help="What is tokenised and embedded: the text (OpenVault: the "
                                "summary, all it reads) or the title and text. On a BEIR "
                                "collection the default leaves its titles out of both halves; "
                                "title+text reads them too."),
    Param("min_token_length", "Min token length", 3, kind="int", low=1, high=20, step=1,
          stage="prepare", help="Words and stems shorter than this (UTF-16 units) are dropped "
                                "(the original: length > 2)."),
    Param("default_importance", "Default importance", 3.0, low=1.0, high=5.0, step=0.5,
          stage="prepare", tunable=False,
          help="The importance of a memory that has none (missing, null or 0): the "
               "original's `importance || 3`."),
    Param("entity_lines", "Entity lines", _C.entity_lines, kind="int", low=0, high=100,
          step=1, stage="prepare",
          help="The last N non-blank lines of the chat read for entities, newest first (the "
               "original's parseRecentMessages(chat, 10)); 0: every line."),
    Param("entity_window", "Entity window", _Q.entity_window, kind="int", low=0, high=100,
          step=1, stage="prepare",
          help="At most this many of those lines scanned for entities (the original's "
               "second 10, in extractQueryContext)."),
    Param("recency_decay", "Entity recency decay", _Q.recency_decay, low=0.0, high=1.0,
          step=0.01, stage="prepare", help="Message i (0 = newest) weighs 1 − i · decay."),
    Param("top_entities", "Top entities", _Q.top_entities, kind="int", low=0, high=50, step=1,
          stage="prepare", help="Entities kept, heaviest first."),
    Param("active_character_boost", "Active character boost", _Q.active_character_boost,
          low=0.0, high=20.0, step=0.5, stage="prepare",
          help="Added to each active character's entity weight, even when absent."),
    Param("entity_max_share", "Entity max share", _Q.entity_max_share, low=0.0, high=1.0,
          step=0.05, stage="prepare",
          help="An entity found in more than this share of the scanned messages is dropped."),
    Param("quote_min_chars", "Quote min length", _Q.quote_min_chars, kind="int", low=1,
          high=1000, step=1, stage="prepare", help="Shortest quoted string taken as entity."),
    Param("quote_max_chars", "Quote max length", _Q.quote_max_chars, kind="int", low=1,
          high=1000, step=1, stage="prepare", help="Longest quoted string taken as entity."),
    Param("user_messages", "User messages", _C.user_messages, kind="int", low=1, high=50,
          step=1, stage="prepare",
          help="The last N user messages form the BM25 query and the text the embedding query "
               "is built from."),
    Param("user_chars", "User text length", _C.user_chars, kind="int", low=1, high=100_000,
          step=1, stage="prepare", help="Their joined text is cut to its last N characters."),
    Param("embedding_lines", "Embedding lines", _C.embedding_lines, kind="int", low=1,
          high=50, step=1, stage="prepare", needs=ENCODER,
          help="The last N non-blank lines of the user messages' text taken for the embedding "
               "query, newest first (the original's parseRecentMessages(userMessages, 3))."),
    Param("embedding_window", "Embedding window", _Q.embedding_window, kind="int", low=1,
          high=50, step=1, stage="prepare", needs=ENCODER,
          help="At most this many of those lines in the embedding query (5 > the 3 lines "
               "taken: no effect at the defaults, as in the original)."),
    Param("embedding_entities", "Embedding entities", _Q.embedding_entities, kind="int", low=0,
          high=50, step=1, stage="prepare", needs=ENCODER,
          help="Entity names appended to the embedding query."),
    Param("embedding_chars", "Embedding query length", _Q.embedding_chars, kind="int", low=1,
          high=100_000, step=1, stage="prepare", needs=ENCODER,
          help="The embedding query is cut to this many characters (the original model's "
               "optimal chunk size)."),
    Param("embeddings", "Embeddings", "encoder", kind="choice", choices=("encoder", "stored"),
          stage="prepare", help="encoder: embed documents and queries with the model below; "
                                "stored: the `embedding` stored with each memory and query "
                                "(none stored = no vector bonus)."),
    Param("embedding_model", "Embedding model", DEFAULT_MODEL, kind="text", stage="prepare",
          needs=ENCODER,
          help="A local sentence-transformers model: a folder, or a package that ships one."),
    Param("query_prompt", "Query prompt", OPENVAULT_PROMPT, kind="text", stage="prepare",
          needs=ENCODER, canon=prompt_text,
          help="Prefix of every embedded query (OpenVault: one prefix for both sides): text, "
               "or a preset's name, as `embed --prompt` reads it (" + _PRESETS + "). The "
               "default is OpenVault's, EmbeddingGemma-300M's instruction format; "
               "all-MiniLM-L6-v2, the default encoder here, was trained without one, and may "
               "embed better with none (set both prompts empty and compare)."),
    Param("document_prompt", "Document prompt", OPENVAULT_PROMPT, kind="text", stage="prepare",
          needs=ENCODER, canon=prompt_text,
          help="Prefix of every embedded document: text, or a preset's name, as the query "
               "prompt; changing it re-embeds the corpus."),
    Param("batch_size", "Batch size", 64, kind="int", low=1, high=4096, step=1,
          stage="prepare", needs=ENCODER,
          help="Texts per encoder batch (speed only, not scores)."),
    Param("vector_candidates", "Vector candidates", 1000, kind="int", low=0, high=100_000,
          step=100, stage="prepare", tunable=False,
          help="Memories per query scored beyond the BM25 matches: the ones of highest cosine "
               "and the first ones in corpus order (where nothing else scores, memories tie "
               "and rank in corpus order). Every ranking to a depth ≤ this value, and so every "
               "metric at such a cut-off, is exact at every slider position; deeper, memories "
               "with no BM25 term and a lower cosine are not ranked. With the forgetting "
               "curve (OpenVault memories or chats) also, per importance, this many first "
               "by position and by the curve's order; a query whose left-out memories the "
               "tick cannot bound below its ranking is scored against every memory that "
               "tick. 0, or a value ≥ the corpus size, scores every pair."),
]).with_slider_tops({
    # where the sliders end (a larger value is typed): the useful span, not the
    # whole range, whose default sat at its left end
    "user_chars": 10000, "embedding_chars": 5000, "batch_size": 512, "vector_candidates": 10000,
    "quote_min_chars": 50, "quote_max_chars": 200
})


def idle_settings(params: Params) -> list[str]:
    """The prepare-stage values set away from their defaults that these values leave idle (an
    embedding model under stored embeddings), said as one line ([] when none is)."""
    idle: dict[str, list[str]] = {}
    for name, value in SCHEMA.changed(params).items():
        why = SCHEMA.idle_because(name, params)
        if why and SCHEMA[name].stage == "prepare":
            idle.setdefault(why, []).append(f"{name}={value_text(value)}")
    return [f"{', '.join(names)}: no effect while {why}"
            + (" (the stored vectors are used as they are)" if why == "Embeddings is stored"
               else "") for why, names in idle.items()]


def chat_config(params: Params) -> ChatConfig:
    """The query-construction settings in `params`."""
    q = QueryConfig(
        entity_window=int(params["entity_window"]),
        recency_decay=float(params["recency_decay"]),
        top_entities=int(params["top_entities"]),
        active_character_boost=float(params["active_character_boost"]),
        entity_max_share=float(params["entity_max_share"]),
        quote_min_chars=int(params["quote_min_chars"]),
        quote_max_chars=int(params["quote_max_chars"]),
        entity_boost_weight=float(params["entity_boost_weight"]),
        embedding_window=int(params["embedding_window"]),
        embedding_entities=int(params["embedding_entities"]),
        embedding_chars=int(params["embedding_chars"]),
    )
    return ChatConfig(query=q, user_messages=int(params["user_messages"]),
                      user_chars=int(params["user_chars"]),
                      embedding_lines=int(params["embedding_lines"]),
                      entity_lines=int(params["entity_lines"]))
