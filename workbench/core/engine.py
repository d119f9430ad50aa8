"""Prepare once, combine live.

A model splits into two stages:

- `prepare(dataset, params, progress)` does everything the live parameters do not touch
  (tokenising, term statistics, candidate generation, raw signals) and returns a `Prepared`
  object of plain data (arrays, numbers, text, containers, the workbench's own classes). The
  engine caches it on disk (arrays and JSON, never pickle) under a fingerprint of the model, its
  prepare-stage parameters and the dataset.
- `combine(prepared, params)` applies the live parameters to the prepared arrays in a few
  vectorised numpy expressions over every (query, candidate) pair at once and returns `Scores`.

`rank` (in `ranking`) then takes the per-query top k with a stable tie order and applies min
score, offset and limit. Explain, charts, movers and metrics are all views of `Scores` and
`Ranking`.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import hashlib
import json
import os
import stat
import tempfile
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from workbench.core.data import Dataset
from workbench.core.params import Params, ParamSchema

# the ranking vocabulary, re-exported: models import it from here with Model
from workbench.core.ranking import (
    PartsFn,
    Ranking,
    Scores,
    Selection,
    contributions_at,
    rank,
    rows_from_query,
    select,
    table_parts,
    to_run,
    top_k,
    total_only,
    uniform_rows,
)

__all__ = [
    "NO_PROGRESS", "Cancelled", "Model", "NotRegularFileError", "PartsFn", "Progress",
    "Ranking", "Scores", "Selection", "Signal", "atomic_write_bytes", "atomic_write_many",
    "atomic_write_text", "cache_dir",
    "contributions_at", "prepare", "prepare_fingerprint", "rank", "resolve_params",
    "rows_from_query",
    "select", "table_parts", "to_run", "top_k", "total_only", "uniform_rows",
]

ProgressFn = Callable[[float, str], None]
StopFn = Callable[[], bool]


class Cancelled(Exception):
    """Raised inside long work when `should_stop()` returned True."""


@dataclass(frozen=True)
class Progress:
    """Plain callables a long core function reports to and polls (the CLI adapts them to a
    progress bar, the GUI to a worker signal)."""

    on_progress: ProgressFn | None = None
    should_stop: StopFn | None = None

    def __call__(self, fraction: float, message: str = "") -> None:
        if self.should_stop is not None and self.should_stop():
            raise Cancelled(message or "cancelled")
        if self.on_progress is not None:
            self.on_progress(min(1.0, max(0.0, fraction)), message)

    def span(self, lo: float, hi: float) -> Progress:
        """This progress seen by a sub-task that covers [lo, hi] of the whole."""
        outer = self.on_progress

        def report(fraction: float, message: str) -> None:
            if outer is not None:
                outer(lo + (hi - lo) * fraction, message)

        return Progress(on_progress=report if outer else None, should_stop=self.should_stop)


NO_PROGRESS = Progress()


@dataclass(frozen=True)
class Signal:
    """A named contribution to a model's total score."""

    name: str
    label: str
    help: str = ""


class Model(ABC):
    """A scoring model: its parameters and signals declared as data, two stages as code."""

    id: ClassVar[str]
    label: ClassVar[str]
    description: ClassVar[str] = ""
    # bump when prepare's output changes meaning, so old caches are not reused
    version: ClassVar[str] = "1"
    schema: ClassVar[ParamSchema]
    signals: ClassVar[tuple[Signal, ...]]
    gates: ClassVar[tuple[str, ...]] = ()
    # the few live parameters its users come for, in the order the panel shows them first
    headline: ClassVar[tuple[str, ...]] = ()
    # every document is a candidate of every query (dense similarity, OpenVault's batch)
    scores_all_pairs: ClassVar[bool] = False

    @abstractmethod
    def prepare(self, dataset: Dataset, params: Params, progress: Progress = NO_PROGRESS) -> Any:
        """Everything independent of the live parameters, as plain data that `state_codec`
        can store (anything else still works, but is prepared again every time)."""

    @abstractmethod
    def combine(self, prepared: Any, params: Params) -> Scores:
        """The live parameters applied to the prepared arrays, vectorised."""

    def explain(self, prepared: Any, dataset: Dataset, query: int, doc: int,
                params: Params) -> dict[str, Any]:
        """Details of one (query, document) pair beyond its signal contributions:
        matched terms, positions, snippets. Models override to add what they know."""
        return {}

    def selection_params(self, params: Params) -> Selection:
        """How many results the model returns and from where, read from its own parameters
        (min score, limit, offset). Models without such parameters rank everything."""
        return Selection(
            min_score=_float_or_none(params.get("min_score")),
            limit=_int_or_none(params.get("limit")),
            offset=int(params.get("offset", 0) or 0),
        )

    def extra_metrics(self, prepared: Any, params: Params, scores: Scores, ranking: Ranking,
                      judgments: Any) -> dict[str, Any]:
        """Per-query metrics the model itself defines beyond the ranking metrics (CodeLedger's
        bundle recall and precision), each float64 (Q,), NaN where a query is unjudged.
        `ranking` is the selected ranking; `judgments` a `metrics.Judgments`."""
        return {}

    @property
    def signal_names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.signals)


def _float_or_none(v: object) -> float | None:
    return float(v) if isinstance(v, int | float) and not isinstance(v, bool) else None


def _int_or_none(v: object) -> int | None:
    return int(v) if isinstance(v, int | float) and not isinstance(v, bool) and v > 0 else None


# -- prepare, cached -------------------------------------------------------------------------


def cache_dir() -> Path:
    """Where prepared arrays are cached: $WORKBENCH_CACHE_DIR, else the user cache folder."""
    env = os.environ.get("WORKBENCH_CACHE_DIR")
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_cache_dir("scoring-workbench"))


def prepare_fingerprint(model: Model, dataset: Dataset, params: Params) -> str:
    prep = model.schema.prepare_values(params)
    key = json.dumps(
        {"model": model.id, "version": model.version, "code": code_fingerprint(),
         "params": prep, "dataset": dataset.fingerprint()},
        sort_keys=True, default=str,
    )
    return hashlib.sha256(key.encode()).hexdigest()[:32]


@functools.cache
def code_fingerprint() -> str:
    """A hash of the core's source, so a cache written by other code (an older checkout, a
    changed tokenizer) is never read back into this code. Embeddings have their own cache,
    keyed by model and text, so this costs a re-prepare of seconds, not a re-embed."""
    core = Path(__file__).resolve().parent
    h = hashlib.sha256()
    for f in sorted(core.rglob("*.py")):
        h.update(str(f.relative_to(core)).encode())
        h.update(f.read_bytes())
    return h.hexdigest()[:16]


_MAGIC = b"WBPREP2\n"
CACHE_SUFFIX = ".state"


def prepare(model: Model, dataset: Dataset, params: Params, progress: Progress = NO_PROGRESS,
            *, use_cache: bool = True) -> Any:
    """Run (or load from the disk cache) the model's prepare stage.

    The cache file is written to a temporary name and renamed, and carries a SHA-256 of its
    payload: a truncated or corrupt file is detected, removed and rebuilt, never trusted. The
    payload is arrays and JSON (`state_codec`), never pickle: a file dropped into a shared
    cache folder cannot run code.
    """
    if not use_cache:
        return model.prepare(dataset, params, progress)
    fingerprint = prepare_fingerprint(model, dataset, params)
    path = cache_dir() / "prepared" / f"{model.id}-{fingerprint}{CACHE_SUFFIX}"
    cached = _read_cache(path)
    if cached is not None:
        progress(1.0, "loaded from cache")
        return cached
    prepared = model.prepare(dataset, params, progress)
    _write_cache(path, prepared)
    return prepared


def _read_cache(path: Path) -> Any:
    from workbench.core import state_codec

    try:
        blob = path.read_bytes()
    except OSError:
        return None
    head = len(_MAGIC) + 32
    if len(blob) < head or not blob.startswith(_MAGIC):
        _discard(path)
        return None
    digest, payload = blob[len(_MAGIC):head], blob[head:]
    if hashlib.sha256(payload).digest() != digest:
        _discard(path)
        return None
    try:
        return state_codec.loads(payload)
    except Exception:  # an unreadable cache is rebuilt, whatever the reason
        _discard(path)
        return None


def _write_cache(path: Path, prepared: Any) -> None:
    from workbench.core import state_codec

    try:
        payload = state_codec.dumps(prepared)
    except state_codec.UnsupportedState:
        return  # state the codec cannot hold is prepared again next time
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_bytes(path, _MAGIC + hashlib.sha256(payload).digest() + payload)
    except OSError:
        pass  # a cache that cannot be written only costs time


def _discard(path: Path) -> None:
    with contextlib.suppress(OSError):  # a read-only cache: left in place, and ignored
        path.unlink(missing_ok=True)


def _current_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


_UMASK = _current_umask()


class NotRegularFileError(OSError):
    """An output path that exists and is not a regular file (a folder, a device, a pipe):
    never replaced by a write."""


def write_target(path: Path) -> Path:
    """Where a write to `path` lands: a symlink's target (the link stays a link), refused when
    that exists and is not a regular file (`/dev/full` is not replaced by a CSV)."""
    target = Path(os.path.realpath(path)) if path.is_symlink() else path
    try:
        mode = target.stat().st_mode
    except FileNotFoundError:
        return target
    if not stat.S_ISREG(mode):
        kind = "a folder" if stat.S_ISDIR(mode) else "not a regular file"
        raise NotRegularFileError(errno.EEXIST, f"exists and is {kind}", str(path))
    return target


def atomic_write_many(items: Sequence[tuple[Path, bytes]]) -> None:
    """Write every (path, data) so that readers see the old files or the new ones: each is
    written to a temporary file beside its target first, and only when all of them are written
    are they renamed into place. A failure before that leaves every target as it was. OSError
    carries the failing path in `filename`."""
    targets = [write_target(path) for path, _ in items]
    temps: list[str] = []
    try:
        for target, (path, data) in zip(targets, items, strict=True):
            try:
                fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.",
                                           suffix=".tmp")
            except OSError as exc:
                exc.filename = str(path)
                raise
            temps.append(tmp)
            try:
                os.fchmod(fd, 0o666 & ~_UMASK)  # mkstemp makes 0600; give the usual mode
                with os.fdopen(fd, "wb") as fh:
                    fh.write(data)
                    fh.flush()
                    os.fsync(fh.fileno())
            except OSError as exc:
                exc.filename = str(path)
                raise
        for tmp, target in zip(temps, targets, strict=True):
            os.replace(tmp, target)
    except BaseException:
        for tmp in temps:
            Path(tmp).unlink(missing_ok=True)
        raise


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write `data` to `path` so that readers see the old file or the new one, never half
    (through a symlink to its target; NotRegularFileError for a folder or a device)."""
    atomic_write_many([(path, data)])


def atomic_write_text(path: Path, text: str) -> None:
    atomic_write_bytes(path, text.encode("utf-8"))


def resolve_params(model: Model, overrides: Mapping[str, object] | None = None) -> Params:
    """The model's defaults updated by `overrides`, validated."""
    return model.schema.resolve(overrides)
