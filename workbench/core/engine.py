"""Prepare once, combine live.

A model splits into two stages:

- `prepare(dataset, params, progress)` does everything the live parameters do not touch
  (tokenising, term statistics, candidate generation, raw signals) and returns a `Prepared`
  object of plain data (arrays, numbers, text, containers, the workbench's own classes). The
  engine caches it on disk (`store.prepare_cache`: arrays and JSON, never pickle) under a
  fingerprint of the model, its prepare-stage parameters and the dataset.
- `combine(prepared, params)` applies the live parameters to the prepared arrays in a few
  vectorised numpy expressions over every (query, candidate) pair at once and returns `Scores`.

`rank` (in `ranking`) then takes the per-query top k with a stable tie order and applies min
score, offset and limit. Explain, charts, movers and metrics are all views of `Scores` and
`Ranking`.
"""

from __future__ import annotations

import os
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

from workbench.core.data import Dataset
from workbench.core.params import Params, ParamSchema

# the ranking vocabulary, re-exported: models import it from here with Model
from workbench.core.ranking import (
    PartsFn,
    Ranking,
    Scores,
    Selection,
    contributions_at,
    head,
    rank,
    rows_from_query,
    select,
    table_parts,
    to_run,
    top_k,
    total_only,
    uniform_rows,
)
from workbench.core.sizes import UNITS, byte_count, bytes_text
from workbench.core.store import prepare_cache

__all__ = [
    "NO_PROGRESS", "Cancelled", "Model", "PartsFn", "Progress",
    "Ranking", "Scores", "Selection", "Signal",
    "contributions_at", "corpus_stage", "head", "held", "held_by_corpus", "holding_corpus",
    "prepare",
    "prepare_fingerprint", "rank",
    "resolve_params",
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


@dataclass(frozen=True)
class EmbeddingJob:
    """Texts a model's prepare embeds with these parameters: which side (documents, queries),
    the texts as the encoder sees them before the prompt, the encoder and the prompt."""

    label: str
    texts: list[str]
    model: str
    prompt: str
    batch_size: int = 64


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
    # gate → a label of about 9 characters for a narrow column ("1 token"), the code and the
    # reason in its tooltip; a gate without one shows its code's words
    gate_labels: ClassVar[dict[str, str]] = {}
    # the few live parameters its users come for, in the order the panel shows them first
    headline: ClassVar[tuple[str, ...]] = ()
    # where not empty: what a search takes when none are named (of `default_names`), with the
    # evidence in the model's docstring; the rest are searched when named
    tuned_by_default: ClassVar[tuple[str, ...]] = ()
    # gate → the parameters that decide it: a move a gate explains names only those
    gate_params: ClassVar[dict[str, tuple[str, ...]]] = {}
    # signal → the prepare-stage parameters it is computed from: a move between two
    # configurations names those where that signal moved and undoing the parameter alone
    # cannot be scored live (`core.comparison.undo`; live ones are measured instead)
    prepare_signals: ClassVar[dict[str, tuple[str, ...]]] = {}
    # how to read the contribution bars where they are not plain additive terms (a product
    # split into terms), said under the Contributions chart; "" where they are
    contribution_note: ClassVar[str] = ""

    @abstractmethod
    def prepare(self, dataset: Dataset, params: Params, progress: Progress = NO_PROGRESS) -> Any:
        """Everything independent of the live parameters, as plain data that `store.codec`
        can store (anything else still works, but is prepared again every time)."""

    @abstractmethod
    def combine(self, prepared: Any, params: Params) -> Scores:
        """The live parameters applied to the prepared arrays, vectorised."""

    def combine_to_depth(self, prepared: Any, params: Params, depth: int) -> Scores:
        """`combine` for a ranking that reads only the first `depth` results of each query:
        a model may leave out pairs that cannot reach that depth (every ranking to `depth` is
        the same). The live path calls this; by default it is `combine`."""
        return self.combine(prepared, params)

    def live_depth(self, prepared: Any, params: Params, depth: int) -> int:
        """The depth the live path ranks to when its metrics read `depth`. A model whose
        extra metrics read a deeper ranking (CodeLedger's bundles read max_files + 1) ranks
        once to that depth; the metrics and the result see its first `depth` entries, which
        are the ranking to `depth`. By default `depth`."""
        return depth

    def inert_params(self, prepared: Any, params: Params) -> dict[str, str]:
        """Parameters that cannot change any score on this prepared data whatever the other
        live values (a weight whose signal is 0 everywhere), or that only scale every score
        alike (no ranking, gate or metric moves), each with why: an optimiser leaves them out
        unless named. By default none."""
        return {}

    def idle_signals(self, prepared: Any, params: Params) -> frozenset[str]:
        """Signals 0 for every pair at these parameters whatever the data (a term the
        prepared variant lacks, a clamp its weights cannot reach): the legend, the tables
        and the breakdowns leave them out, their sums unchanged. By default none."""
        return frozenset()

    def data_warnings(self, dataset: Dataset, params: Params) -> list[str]:
        """What a reader must know about these values on this data before trusting scores
        (a setting that reads something the data lacks), one line each. By default none."""
        return []

    def memory_estimate(self, dataset: Dataset, params: Params) -> int | None:
        """Bytes that preparing on `dataset` and then the live path hold at their peak, for
        models whose needs grow with queries × documents (None: small, not estimated).
        `prepare` refuses, naming this figure, where it exceeds the memory available."""
        return None

    def not_a_candidate(self, prepared: Any, dataset: Dataset, query: int, doc: int | None,
                        params: Params) -> str:
        """Why `doc` is no candidate of `query` where the model knows a reason beyond "no
        query term in it" (a decision created after the logged turn it is replayed for; a
        query its tokenizer keeps nothing of); with `doc` None, why the query has no
        candidate at all. "" otherwise, by default."""
        return ""

    def explain(self, prepared: Any, dataset: Dataset, query: int, doc: int,
                params: Params) -> dict[str, Any]:
        """Details of one (query, document) pair beyond its signal contributions:
        matched terms, positions, snippets. Models override to add what they know."""
        return {}

    def embedding_jobs(self, dataset: Dataset, params: Params) -> list[EmbeddingJob]:
        """What prepare embeds at these parameters, so that `workbench embed` fills exactly
        the cache entries prepare reads. None for a model that embeds nothing."""
        return []

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
        `ranking` is the selected ranking to `live_depth`; `judgments` a
        `metrics.Judgments`."""
        return {}

    @property
    def signal_names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.signals)


def _float_or_none(v: object) -> float | None:
    return float(v) if isinstance(v, int | float) and not isinstance(v, bool) else None


def _int_or_none(v: object) -> int | None:
    return int(v) if isinstance(v, int | float) and not isinstance(v, bool) and v > 0 else None


# -- prepare, cached -------------------------------------------------------------------------


def prepare_fingerprint(model: Model, dataset: Dataset, params: Params) -> str:
    return prepare_cache.prepare_key(model.id, model.version,
                                     model.schema.prepare_values(params), dataset.fingerprint())


class MemoryEstimateError(ValueError):
    """Preparing would need more memory than is available; str() is one readable line."""


MEMORY_LIMIT_ENV = "WORKBENCH_MEMORY_LIMIT"
"""bytes (or with a K, M, G or T suffix: 4G = 4 GiB, 4GB = 4 × 1000³ bytes; `sizes.byte_count`)
that preparing may use, instead of what the system says is available"""


def available_memory() -> int | None:
    """Bytes that may be used: $WORKBENCH_MEMORY_LIMIT, else the kernel's MemAvailable (Linux),
    else the free physical pages; None where none is known."""
    limit = os.environ.get(MEMORY_LIMIT_ENV, "").strip()
    if limit:
        value = byte_count(limit)
        if value is None:
            raise MemoryEstimateError(f"${MEMORY_LIMIT_ENV}={limit!r}: not a size (bytes, "
                                      f"or {UNITS})")
        return value
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    try:
        return int(os.sysconf("SC_AVPHYS_PAGES")) * int(os.sysconf("SC_PAGE_SIZE"))
    except (ValueError, OSError, AttributeError):
        return None


def check_memory(model: Model, dataset: Dataset, params: Params) -> None:
    """Raise MemoryEstimateError where the model's estimate exceeds the available memory."""
    need = model.memory_estimate(dataset, params)
    if need is None:
        return
    have = available_memory()
    if have is not None and need > have:
        raise MemoryEstimateError(
            f"{model.id} on {dataset.name} ({len(dataset.queries):,} queries × "
            f"{len(dataset.corpus):,} documents) needs about {bytes_text(need)} of memory and "
            f"{bytes_text(have)} is available; not prepared. Use fewer queries or documents"
            + (", or a lower vector_candidates" if "vector_candidates" in model.schema else "")
            + f" (${MEMORY_LIMIT_ENV} sets the limit)")


def prepare(model: Model, dataset: Dataset, params: Params, progress: Progress = NO_PROGRESS,
            *, use_cache: bool = True) -> Any:
    """Run (or load from the disk cache) the model's prepare stage.

    The cache (`store.prepare_cache`) is written to a temporary name and renamed, and carries a
    SHA-256 of its payload: a truncated or corrupt file is detected, removed and rebuilt, never
    trusted. The payload is arrays and JSON (`store.codec`), never pickle: a file dropped into
    a shared cache folder cannot run code. Before a model prepares, its memory estimate is
    checked against what is available (`check_memory`).
    """
    if not use_cache:
        check_memory(model, dataset, params)
        token = _CORPUS_CACHE.set(False)
        try:
            return model.prepare(dataset, params, progress)
        finally:
            _CORPUS_CACHE.reset(token)
    if len(dataset.corpus) >= HASHING_SAID:  # ~1 s a 50,000 documents, said, not silent
        progress(0.0, f"checking the cache: hashing {len(dataset.corpus):,} documents")
    fingerprint = prepare_fingerprint(model, dataset, params)
    cached = prepare_cache.load_prepared(model.id, fingerprint)
    if cached is not None:
        progress(1.0, "loaded from cache")
        return cached
    check_memory(model, dataset, params)
    prepared = model.prepare(dataset, params, progress)
    prepare_cache.save_prepared(model.id, fingerprint, prepared)
    return prepared


HASHING_SAID = 50_000
"""corpora this large say that they are being hashed before a prepare (200,000 documents
took 3.7 s with nothing on the screen)"""

T = TypeVar("T")

_CORPUS_CACHE: ContextVar[bool] = ContextVar("workbench_corpus_cache", default=True)


def corpus_stage(model: Model, dataset: Dataset, params: Params, build: Callable[[], T],
                 progress: Progress = NO_PROGRESS, *,
                 reads: tuple[str, ...] | None = None) -> T:
    """The part of `model`'s prepare stage that reads only the corpus, from the disk cache
    when the same documents were prepared with the same prepare values (`build` makes it on a
    miss). The whole stage's cache is keyed by the queries too, so without this a new query —
    `rank -q`, another queries file — tokenised every document again (50k documents: 13 s of
    a 16 s `rank`). `build` must return plain data (`store.codec`). Not read or written
    inside `prepare(use_cache=False)`: what is timed there is the whole stage. `reads`: the
    parameters the stage reads, where fewer than all of the prepare stage's (hybrid's
    postings read two of its ~25: each other one kept another identical copy)."""
    if not _CORPUS_CACHE.get():
        return build()
    name = f"{model.id}-corpus"
    values = model.schema.prepare_values(params)
    if reads is not None:
        values = {k: values[k] for k in reads}
    key = prepare_cache.prepare_key(name, model.version, values,
                                    held_by_corpus(dataset, "fingerprint",
                                                   dataset.corpus_fingerprint))
    held = _CORPUS_HELD.get()
    if held is not None and f"{name}:{key}" in held:
        return held[f"{name}:{key}"]  # type: ignore[no-any-return]
    cached = prepare_cache.load_prepared(name, key)
    if cached is not None:
        progress(1.0, "documents' index loaded from cache")
    else:
        cached = build()
        prepare_cache.save_prepared(name, key, cached)
    if held is not None:
        held[f"{name}:{key}"] = cached
    return cached  # type: ignore[no-any-return]


_CORPUS_HELD: ContextVar[dict[str, Any] | None] = ContextVar("workbench_corpus_held",
                                                              default=None)


@contextmanager
def holding_corpus() -> Iterator[dict[str, Any]]:
    """Inside the block each corpus stage (`corpus_stage`: a model's documents' index) is
    kept in memory once loaded or built and served from there, as a search server holds its
    index: a query timed inside (`core.cost`) is not charged a read of the index from disk.
    Yields what is held, by stage name and key."""
    held: dict[str, Any] = {}
    token = _CORPUS_HELD.set(held)
    memo = _CORPUS_MEMO.set({})
    try:
        yield held
    finally:
        _CORPUS_MEMO.reset(memo)
        _CORPUS_HELD.reset(token)


_CORPUS_MEMO: ContextVar[dict[str, Any] | None] = ContextVar("workbench_corpus_memo",
                                                             default=None)


def held(what: str, build: Callable[[], T]) -> T:
    """Inside `holding_corpus`, `build()` once per `what`, then held, as a server holds what
    it opened at start (the corpus' fingerprint, the documents' vectors, the embedding
    store): each query timed there is not charged hashing every document again or re-opening
    the store (dr4 1: that was almost all of a query's figure). `what` must name everything
    the value depends on. Outside the block, `build()` every time."""
    memo = _CORPUS_MEMO.get()
    if memo is None:
        return build()
    if what not in memo:
        memo[what] = build()
    return memo[what]  # type: ignore[no-any-return]


def held_by_corpus(dataset: Dataset, what: str, build: Callable[[], T]) -> T:
    """`held`, for a value of this dataset's corpus (and of what `what` names)."""
    # the corpus outlives the block (each query's dataset shares it): its id is not reused
    return held(f"{what} of corpus {id(dataset.corpus)}", build)


def resolve_params(model: Model, overrides: Mapping[str, object] | None = None) -> Params:
    """The model's defaults updated by `overrides`, validated."""
    return model.schema.resolve(overrides)
