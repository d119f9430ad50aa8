"""What the embedding cache did that a model's preparation cannot say itself (a cache
not written, a damaged file left unread), passed to whoever listens, once per folder."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from workbench.core.store.embeddings import EmbeddingStore

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
