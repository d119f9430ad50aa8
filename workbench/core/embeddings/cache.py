"""The on-disk cache seen from the encoders: its store for a model and prompt, and how many
texts it holds already."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from workbench.core.embeddings.models import DEFAULT_MODEL, Encoder
from workbench.core.embeddings.registry import get_encoder
from workbench.core.embeddings.unkept import _say_dropped
from workbench.core.store.embeddings import EmbeddingStore, store_folder, text_key

_SINGULAR = {"texts": "text", "documents": "document", "queries": "query"}


def _counted(n: int, what: str) -> str:
    """'1 document', '64 documents'."""
    return f"{n:,} {_SINGULAR.get(what, what) if n == 1 else what}"


def kept_earlier(texts: Sequence[str], *, model: str, prompt: str,
                 what: str) -> Callable[[], str]:
    """For `embed_texts(earlier=...)`: how many of an earlier stage's `texts` the cache holds
    ('all 1,200 documents', '800 of the 1,200 documents', '' for none), counted only when
    called — on an interrupt, not on every preparation."""
    def say() -> str:
        cached, _ = cache_counts(texts, model=model, prompt=prompt)
        if not cached:
            return ""
        if cached == len(texts):
            return f"all {_counted(cached, what)}" if cached > 1 else _counted(cached, what)
        return f"{cached:,} of the {len(texts):,} {what}"

    return say


def open_store(encoder: Encoder, prompt: str) -> EmbeddingStore:
    return EmbeddingStore(store_folder(encoder.identity, prompt), encoder.dim,
                          {"encoder": encoder.identity, "prompt": prompt})


def count_cached(texts: Sequence[str], *, model: str = DEFAULT_MODEL, prompt: str = "") -> int:
    """How many of `texts` already have a cached embedding for this model and prompt."""
    return cache_counts(texts, model=model, prompt=prompt)[0]


def cache_counts(texts: Sequence[str], *, model: str = DEFAULT_MODEL, prompt: str = "",
                 notes: list[str] | None = None) -> tuple[int, int]:
    """(cached, to embed): how many of `texts` have a cached embedding for this model and
    prompt, and how many distinct others `embed_texts` would encode (a text given twice is
    encoded once: the rest repeat another)."""
    store = open_store(get_encoder(model), prompt)
    _say_dropped(store, notes)
    keys = [text_key(prompt + t) for t in texts]
    missing = store.missing(keys)
    return len(texts) - len(missing), len({keys[i] for i in missing})
