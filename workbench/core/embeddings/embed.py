"""`embed_texts`: texts to vectors through the cache, only what is new encoded, a step at
a time sized to its pace, every finished step kept however the run ends."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from workbench.core.embeddings.cache import _counted, open_store
from workbench.core.embeddings.models import DEFAULT_MODEL, EmbeddingError
from workbench.core.embeddings.pace import _Pace, _whole_set
from workbench.core.embeddings.registry import get_encoder
from workbench.core.embeddings.unkept import _say_dropped, _say_unkept, _write_refused
from workbench.core.embeddings.workers import Workers
from workbench.core.engine import NO_PROGRESS, Progress, held
from workbench.core.store.embeddings import text_key

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


@dataclass(frozen=True)
class Embedded:
    """Texts this process encoded (read from the cache not counted): how many, the seconds
    their encoding took (the model's load included where it was its first use: `loaded`),
    and the device."""

    texts: int
    seconds: float
    device: str
    loaded: bool = False


EMBEDDED: dict[tuple[str, str, str], Embedded] = {}
"""what `embed_texts` encoded in this process, by (model as named, prompt, what): the cost
figures show the documents' embedding a command did before it measured (dr4 3)"""


def device_of(enc: object) -> str:
    """Where `enc` ran: a loaded sentence-transformers model's device; another encoder's
    `device` attribute, else its name and that its device is not known."""
    if getattr(enc, "loaded", False) and callable(getattr(enc, "model", None)):
        return str(enc.model().device)  # type: ignore[attr-defined]
    device = getattr(enc, "device", None)
    if isinstance(device, str) and device and device != "auto":
        return device
    return f"not known ({getattr(enc, 'name', 'this encoder')} says none)"


def _record(key: tuple[str, str, str], texts: int, seconds: float, device: str,
            loaded: bool) -> None:
    was = EMBEDDED.get(key)
    if was is not None:
        texts, seconds, loaded = was.texts + texts, was.seconds + seconds, was.loaded or loaded
    EMBEDDED[key] = Embedded(texts, seconds, device, loaded)


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
    # held by a server's lifetime (`engine.holding_corpus`), else opened each call
    store = held(f"embedding store {enc.identity!r} {prompt!r}", lambda: open_store(enc, prompt))
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
    encoding = 0.0
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
            encoding += took
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
    if new:
        _record((model, prompt, what), len(new), encoding, device_of(enc), loading)
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
