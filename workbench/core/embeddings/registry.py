"""The encoders by name, one per process: the one registry every caller shares (tests
register named fakes in it)."""

from __future__ import annotations

import threading

from workbench.core.embeddings.models import DEFAULT_MODEL, Encoder
from workbench.core.embeddings.sentence import SentenceTransformerEncoder

_ENCODERS: dict[str, Encoder] = {}


_ENCODERS_LOCK = threading.Lock()


def register_encoder(name: str, encoder: Encoder) -> None:
    """Make `encoder` available under `name` (tests register named fakes this way)."""
    with _ENCODERS_LOCK:
        _ENCODERS[name] = encoder


def get_encoder(name: str = DEFAULT_MODEL) -> Encoder:
    """The encoder for `name`, created once per process."""
    with _ENCODERS_LOCK:
        enc = _ENCODERS.get(name)
        if enc is None:
            enc = SentenceTransformerEncoder(name)
            _ENCODERS[name] = enc
        return enc
