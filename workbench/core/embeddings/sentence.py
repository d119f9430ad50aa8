"""The sentence-transformers encoder: a model loaded from disk only, on first use, its
texts encoded longest first in chunks so that progress and cancel come between them."""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from workbench.core.embeddings.devices import pick_device
from workbench.core.embeddings.models import (
    DEFAULT_MODEL,
    EmbeddingError,
    _weights_hash,
    model_dim,
    resolve_model_path,
)
from workbench.core.engine import NO_PROGRESS, Progress


class SentenceTransformerEncoder:
    """A sentence-transformers model loaded from disk (HF_HUB_OFFLINE), on first use."""

    def __init__(self, name: str = DEFAULT_MODEL, *, device: str = "auto") -> None:
        self.name = name
        self.path = resolve_model_path(name)
        self.device = device
        self._model: Any = None
        self._identity: str | None = None
        self._lock = threading.Lock()

    @property
    def loaded(self) -> bool:
        """Whether the model is in memory (its first load takes seconds: torch, weights)."""
        return self._model is not None

    @property
    def identity(self) -> str:
        if self._identity is None:
            self._identity = f"{Path(self.name).name}-{_weights_hash(self.path)}"
        return self._identity

    @property
    def dim(self) -> int:
        read = model_dim(self.path)
        return read if read is not None else int(self.model().get_sentence_embedding_dimension())

    def model(self, device: str | None = None) -> Any:
        """The loaded model; loaded on `device` (resolved) when given and not loaded yet, else
        on the encoder's own device."""
        with self._lock:
            if self._model is None:
                os.environ.setdefault("HF_HUB_OFFLINE", "1")
                os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
                os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
                os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
                from sentence_transformers import SentenceTransformer
                from transformers.utils import logging as hf_logging

                hf_logging.disable_progress_bar()  # type: ignore[no-untyped-call]

                if device is None:
                    device = pick_device() if self.device == "auto" else self.device
                try:
                    self._model = SentenceTransformer(str(self.path), device=device)
                except Exception as exc:  # a damaged or foreign folder: one line, no trace
                    raise EmbeddingError(_unloadable(self.path, exc)) from None
            return self._model

    def encode(self, texts: Sequence[str], *, batch_size: int = 64,
               progress: Progress = NO_PROGRESS) -> NDArray[np.float32]:
        """Texts sorted longest first (as sentence-transformers sorts inside one call, so
        batches hold texts of similar length), encoded in chunks so that progress is reported
        and cancel is honoured between chunks, then put back in order."""
        model = self.model()

        def run(part: list[str]) -> NDArray[np.float32]:
            return np.asarray(model.encode(part, batch_size=batch_size, normalize_embeddings=True,
                                           convert_to_numpy=True, show_progress_bar=False))

        # a batch a call: progress (and cancel) every batch_size texts, not every eight
        return _longest_first(texts, self.dim, batch_size, progress, run)


def _unloadable(folder: Path, exc: Exception) -> str:
    """Why sentence-transformers could not load `folder`, in one line: its config.json named
    where that is what is wrong (cut off, no model_type), else the loader's own reason."""
    text = str(exc).strip()
    detail = f"{type(exc).__name__}: {text.splitlines()[0]}" if text else type(exc).__name__
    config = folder / "config.json"
    why = ""
    if isinstance(exc, (KeyError, ValueError, OSError)) and config.is_file():
        try:
            data = json.loads(config.read_text(encoding="utf-8"))
            if not isinstance(data, dict) or "model_type" not in data:
                why = "field 'model_type': missing"
        except (OSError, ValueError) as bad:
            why = f"not valid JSON ({bad})"
    if why:
        return f"{config}: {why} — not a sentence-transformers model folder this can load"
    return f"{folder}: the model did not load ({detail})"


def _longest_first(texts: Sequence[str], dim: int, chunk: int, progress: Progress,
                   run: Callable[[list[str]], NDArray[np.float32]]) -> NDArray[np.float32]:
    """float32 (n, dim): `run` over `texts` longest first, `chunk` texts a call, with progress
    (and so cancel) between calls, the rows put back in the order of `texts`."""
    n = len(texts)
    out = np.empty((n, dim), np.float32)
    order = sorted(range(n), key=lambda i: -len(texts[i]))
    for start in range(0, n, chunk):
        progress(start / max(n, 1), f"embedding {start:,}/{n:,} texts")
        idx = order[start:start + chunk]
        out[idx] = run([texts[i] for i in idx])
    progress(1.0, f"embedded {n:,} texts")
    return out
