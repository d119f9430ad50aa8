"""Prepare once, combine live.

A model splits into two stages:

- `prepare(dataset, params, progress)` does everything the live parameters do not touch
  (tokenising, term statistics, candidate generation, raw signals) and returns a picklable
  `Prepared` object. The engine caches it on disk under a fingerprint of the model, its
  prepare-stage parameters and the dataset.
- `combine(prepared, params)` applies the live parameters to the prepared arrays in a few
  vectorised numpy expressions over every (query, candidate) pair at once and returns `Scores`.

`rank` then takes the per-query top k with a stable tie order and applies min score, offset and
limit. Explain, charts, movers and metrics are all views of `Scores` and `Ranking`.
"""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import tempfile
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
from numpy.typing import NDArray

from workbench.core.data import Dataset
from workbench.core.params import Params, ParamSchema

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


NO_PROGRESS = Progress()


@dataclass(frozen=True)
class Signal:
    """A named contribution to a model's total score."""

    name: str
    label: str
    help: str = ""


PartsFn = Callable[[NDArray[np.intp], NDArray[np.intp]], NDArray[np.float64]]
"""(rows, cols) of n (query, candidate) cells → float64 (S, n): each signal's contribution."""


@dataclass(frozen=True)
class Scores:
    """What combine returns, for every query q and candidate column c.

    docs:    int32 (Q, C)    document position in the corpus; -1 marks padding
    total:   float64 (Q, C)  the final score (0 where a gate zeroed it)
    gate:    int8 (Q, C)     0 = not gated, else 1 + index into `gates`
    signals: the S signal names, in order
    parts:   each signal's contribution at the cells asked for; for ungated pairs they sum to
             the total, for gated pairs they show what the document would have scored
    gates:   gate names

    Contributions are computed on demand: a slider tick needs only the totals, and charts and
    explain need contributions for a few hundred ranked cells, not for all S·Q·C of them.
    Candidate columns are in the model's tie order: equal totals rank by column.
    """

    docs: NDArray[np.int32]
    total: NDArray[np.float64]
    gate: NDArray[np.int8]
    signals: tuple[str, ...]
    parts: PartsFn
    gates: tuple[str, ...] = ()

    @property
    def shape(self) -> tuple[int, int]:
        q, c = self.total.shape
        return int(q), int(c)

    def contributions_of(self, rows: NDArray[np.intp],
                         cols: NDArray[np.intp]) -> NDArray[np.float64]:
        """float64 (S, n): the signals' contributions at cells (rows[i], cols[i])."""
        return self.parts(np.asarray(rows, np.intp), np.asarray(cols, np.intp))

    @property
    def contributions(self) -> NDArray[np.float64]:
        """float64 (S, Q, C), every cell (for small data and tests; the live path never asks)."""
        q, c = self.shape
        rows, cols = np.divmod(np.arange(q * c, dtype=np.intp), max(c, 1))
        return self.contributions_of(rows, cols).reshape(len(self.signals), q, c)

    def eligible(self) -> NDArray[np.bool_]:
        """Pairs that may be ranked: a real candidate that no gate zeroed."""
        ok: NDArray[np.bool_] = (self.docs >= 0) & (self.gate == 0)
        return ok


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

    @abstractmethod
    def prepare(self, dataset: Dataset, params: Params, progress: Progress = NO_PROGRESS) -> Any:
        """Everything independent of the live parameters. Must be picklable."""

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
        {"model": model.id, "version": model.version, "params": prep,
         "dataset": dataset.fingerprint()},
        sort_keys=True, default=str,
    )
    return hashlib.sha256(key.encode()).hexdigest()[:32]


_MAGIC = b"WBPREP1\n"


def prepare(model: Model, dataset: Dataset, params: Params, progress: Progress = NO_PROGRESS,
            *, use_cache: bool = True) -> Any:
    """Run (or load from the disk cache) the model's prepare stage.

    The cache file is written to a temporary name and renamed, and carries a SHA-256 of its
    payload: a truncated or corrupt file is detected, removed and rebuilt, never trusted.
    """
    if not use_cache:
        return model.prepare(dataset, params, progress)
    fingerprint = prepare_fingerprint(model, dataset, params)
    path = cache_dir() / "prepared" / f"{model.id}-{fingerprint}.pkl"
    cached = _read_cache(path)
    if cached is not None:
        progress(1.0, "loaded from cache")
        return cached
    prepared = model.prepare(dataset, params, progress)
    _write_cache(path, prepared)
    return prepared


def _read_cache(path: Path) -> Any:
    try:
        blob = path.read_bytes()
    except OSError:
        return None
    head = len(_MAGIC) + 32
    if len(blob) < head or not blob.startswith(_MAGIC):
        path.unlink(missing_ok=True)
        return None
    digest, payload = blob[len(_MAGIC):head], blob[head:]
    if hashlib.sha256(payload).digest() != digest:
        path.unlink(missing_ok=True)
        return None
    try:
        return pickle.loads(payload)
    except Exception:  # an unreadable cache is rebuilt, whatever the reason
        path.unlink(missing_ok=True)
        return None


def _write_cache(path: Path, prepared: Any) -> None:
    payload = pickle.dumps(prepared, protocol=pickle.HIGHEST_PROTOCOL)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_bytes(path, _MAGIC + hashlib.sha256(payload).digest() + payload)
    except OSError:
        pass  # a cache that cannot be written only costs time


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write `data` to `path` so that readers see the old file or the new one, never half."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def atomic_write_text(path: Path, text: str) -> None:
    atomic_write_bytes(path, text.encode("utf-8"))


# -- ranking ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Selection:
    """Which results a system returns: total ≥ min_score, then skip `offset`, keep `limit`."""

    min_score: float | None = None
    limit: int | None = None
    offset: int = 0


@dataclass(frozen=True)
class Ranking:
    """Per-query ranked results, best first, padded with -1 / NaN.

    docs:   int32 (Q, K)   document positions
    scores: float64 (Q, K) totals
    column: int32 (Q, K)   the candidate column in `Scores` (to look up contributions, gates)
    count:  int64 (Q,)     how many entries of each row are real
    """

    docs: NDArray[np.int32]
    scores: NDArray[np.float64]
    column: NDArray[np.int32]
    count: NDArray[np.int64]


def top_k(scores: Scores, k: int) -> Ranking:
    """The k best eligible candidates of every query, ties broken by candidate column.

    Vectorised without a full partition of every row (which costs ~13 ns an element here): the
    row is cut into 2k blocks; the k-th largest block maximum t is a lower bound of the
    k-th largest value (k distinct elements reach it), so only entries ≥ t — typically ~1.4k
    per row — are compacted, in column order, and sorted stably.
    """
    q, c = scores.shape
    k = max(0, min(k, c))
    if q == 0 or k == 0:
        return _empty_ranking(q, k)
    values = np.where(scores.eligible(), scores.total, -np.inf)
    finite = values > -np.inf
    if c >= 4 * k:
        # strided blocks (block j = columns j, j + 2k, j + 4k, …) so that rows whose real
        # candidates fill only a prefix still spread them over every block
        nb = 2 * k
        full = c - c % nb
        block_max = values[:, :full].reshape(q, -1, nb).max(axis=1)
        if full < c:
            tail = values[:, full:]
            block_max[:, : tail.shape[1]] = np.maximum(block_max[:, : tail.shape[1]], tail)
        bound = -np.partition(-block_max, k - 1, axis=1)[:, k - 1]
        keep = (values >= bound[:, None]) & finite
    else:
        keep = finite
    counts = keep.sum(axis=1)
    m = int(counts.max(initial=0))
    rows, cols = np.nonzero(keep)  # row-major, so ascending column within a row
    first = np.zeros(q + 1, np.int64)
    np.cumsum(counts, out=first[1:])
    slot = np.arange(len(rows)) - first[rows]
    packed_col = np.zeros((q, m), np.int32)
    packed_val = np.full((q, m), -np.inf)
    packed_col[rows, slot] = cols
    packed_val[rows, slot] = values[rows, cols]
    # stable: among equal scores the lower column (the model's tie order) comes first
    order = np.argsort(-packed_val, axis=1, kind="stable")[:, :k]
    cols_k = np.take_along_axis(packed_col, order, axis=1)
    vals_k = np.take_along_axis(packed_val, order, axis=1)
    valid = np.isfinite(vals_k)
    docs = np.where(valid, np.take_along_axis(scores.docs, cols_k, axis=1), -1)
    return Ranking(
        docs=docs.astype(np.int32),
        scores=np.where(valid, vals_k, np.nan),
        column=np.where(valid, cols_k, -1).astype(np.int32),
        count=valid.sum(axis=1).astype(np.int64),
    )


def select(ranking: Ranking, selection: Selection) -> Ranking:
    """Apply min score, then offset and limit, to each row of a ranking (vectorised)."""
    docs, sc, col = ranking.docs, ranking.scores, ranking.column
    keep = docs >= 0
    if selection.min_score is not None:
        with np.errstate(invalid="ignore"):
            keep &= sc >= selection.min_score
    # rows stay sorted, so kept entries form a prefix; offset/limit slice that prefix
    n = keep.sum(axis=1)
    start = np.minimum(n, selection.offset)
    stop = n if selection.limit is None else np.minimum(n, start + selection.limit)
    width = int((stop - start).max(initial=0))
    idx = start[:, None] + np.arange(width)[None, :]
    inside = idx < stop[:, None]
    idx = np.minimum(idx, max(docs.shape[1] - 1, 0))
    if docs.shape[1] == 0:
        return _empty_ranking(docs.shape[0], 0)
    return Ranking(
        docs=np.where(inside, np.take_along_axis(docs, idx, axis=1), -1).astype(np.int32),
        scores=np.where(inside, np.take_along_axis(sc, idx, axis=1), np.nan),
        column=np.where(inside, np.take_along_axis(col, idx, axis=1), -1).astype(np.int32),
        count=(stop - start).astype(np.int64),
    )


def rank(scores: Scores, k: int, selection: Selection | None = None) -> Ranking:
    """Top k (plus the offset) of every query, then the selection."""
    sel = selection or Selection()
    depth = k + sel.offset
    if sel.limit is not None:
        depth = min(depth, sel.limit + sel.offset)
    return select(top_k(scores, depth), sel)


def _empty_ranking(q: int, k: int) -> Ranking:
    return Ranking(
        docs=np.full((q, k), -1, np.int32),
        scores=np.full((q, k), np.nan),
        column=np.full((q, k), -1, np.int32),
        count=np.zeros(q, np.int64),
    )


def contributions_at(scores: Scores, ranking: Ranking) -> NDArray[np.float64]:
    """float64 (S, Q, K): each signal's contribution for the ranked entries (NaN at padding)."""
    q, k = ranking.column.shape
    out = np.full((len(scores.signals), q, k), np.nan)
    rows, slots = np.nonzero(ranking.column >= 0)
    if len(rows):
        out[:, rows, slots] = scores.contributions_of(
            rows, ranking.column[rows, slots].astype(np.intp))
    return out


def dense_parts(contributions: NDArray[np.float64]) -> PartsFn:
    """A PartsFn over a model's own float64 (S, Q, C) table."""
    def parts(rows: NDArray[np.intp], cols: NDArray[np.intp]) -> NDArray[np.float64]:
        out: NDArray[np.float64] = contributions[:, rows, cols]
        return out
    return parts


def total_only(total: NDArray[np.float64]) -> PartsFn:
    """The PartsFn of a single-signal model: its one signal is the total."""
    def parts(rows: NDArray[np.intp], cols: NDArray[np.intp]) -> NDArray[np.float64]:
        out: NDArray[np.float64] = total[rows, cols][None, :]
        return out
    return parts


def to_run(ranking: Ranking, doc_ids: list[str],
           query_ids: list[str]) -> dict[str, dict[str, float]]:
    """A ranking as a TREC-style run (query id → document id → score)."""
    run: dict[str, dict[str, float]] = {}
    for qi, qid in enumerate(query_ids):
        row: dict[str, float] = {}
        for j in range(int(ranking.count[qi])):
            row[doc_ids[int(ranking.docs[qi, j])]] = float(ranking.scores[qi, j])
        run[qid] = row
    return run


def resolve_params(model: Model, overrides: Mapping[str, object] | None = None) -> Params:
    return model.schema.resolve(overrides)
