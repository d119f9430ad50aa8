"""What a configuration costs, measured on this machine: the one-off build and a query served.

The build is the model's prepare stage run whole (`engine.prepare(use_cache=False)`: no
prepared state or documents' index read back), timed. Vectors still come from the embedding
cache where it holds them: the documents embedded and those read from the cache are counted
first, and where every document's vector came from the cache the embedding, the build's main
cost, did not happen in this run: the build time is then said to be not measured, and the
prepare that was timed is given apart as the rest of the build. The vectors' store is
n × dim × 4 bytes (float32); a model with a documents' index (`engine.corpus_stage`: BM25's
postings) has its arrays and terms counted.

A query served is two figures. Scoring: the query's own prepare (its tokens, the postings
looked up, its cosine against every document vector) and its ranking to the top 10, one query
at a time over a sample, on a state prepared once and held in memory as a server holds it
(`engine.holding_corpus`: the documents' index, the corpus' fingerprint, the documents' vectors
and the embedding store); the query's vector is read from the cache there. Embedding the query
is timed apart with the real encoder, one query a call (batch size 1, as a server embeds each
request), after one call that warms it up (and loads the model when it is not loaded yet: only
then a cold start), with the device named. A served query costs the two together. What this
workbench still does each call whatever the query (the same call with no query) is given apart.

The documents' embedding, the build's main cost, is timed where it happens: in the build, or
earlier in the same process (`embeddings.EMBEDDED`, compare embedding before it measures);
"not measured this run" only where every vector came from the cache.

None of this is the live path `bench` times (a slider moved: every query re-scored from
prepared arrays that already hold each query's candidates).
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, fields, is_dataclass, replace
from typing import Any

import numpy as np

from workbench.core.data import Dataset, Query, QuerySet
from workbench.core.engine import EmbeddingJob, Model, holding_corpus, prepare
from workbench.core.params import Params
from workbench.core.pipeline import run_live
from workbench.core.sizes import bytes_text

SERVE_SAMPLE = 40
"""queries timed one at a time (evenly spread over the query set; all of a smaller one)"""

EMBED_SAMPLE = 40
"""queries embedded one at a time with the real encoder, after one call that warms it up"""

READ_REPEATS = 5  # the same call with no query (the workbench's own part): median of this many
SERVE_DEPTH = 10  # a query is ranked to its top 10, as a search page shows


@dataclass(frozen=True)
class Embedding:
    """The documents' embedding timed: `texts` encoded in `seconds` on `device`; `earlier`:
    done earlier in this process (compare's own run), not in the timed build; `loaded`: the
    model's load is in the time (its first use in this process)."""

    texts: int
    seconds: float
    device: str
    earlier: bool = False
    loaded: bool = False

    @property
    def per_second(self) -> float:
        return self.texts / self.seconds if self.seconds > 0 else float("inf")


@dataclass(frozen=True)
class Build:
    """The one-off build of a configuration on a dataset.

    documents: the corpus size. embedded / from_cache: document texts embedded in this run
    and read from the embedding cache (None: the model embeds nothing). dim, vector_bytes:
    the vectors' size and their store, n × dim × 4 bytes. index_bytes: the documents' index
    (None: none, or not measured). seconds: the build timed in this run; None where it was
    not measured (every vector from the cache, or not asked for). rest_seconds: the prepare
    that was timed where every vector came from the cache (the build less the embedding).
    embedding: the documents' embedding timed, in the build or earlier in this process (None:
    none done in this process). peak_rss: this process's peak resident memory when the build
    ended, in bytes (everything it held until then; None where the system does not say).
    """

    documents: int
    embedded: int | None = None
    from_cache: int = 0
    encoder: str = ""
    dim: int | None = None
    vector_bytes: int | None = None
    index_bytes: int | None = None
    seconds: float | None = None
    rest_seconds: float | None = None
    embedding: Embedding | None = None
    peak_rss: int | None = None

    @property
    def embeds(self) -> bool:
        return self.embedded is not None

    @property
    def all_cached(self) -> bool:
        """Every document's vector came from the cache: the embedding was not done here."""
        return self.embeds and self.embedded == 0 and self.documents > 0


@dataclass(frozen=True)
class QueryEmbedding:
    """One query embedded with the real encoder (batch size 1), in ms over `sample` calls;
    `first_s`: the warm-up call; `cold`: the model was not loaded before it (so it loaded the
    model: a cold start), False where it was, None where the encoder does not say."""

    sample: int
    p50_ms: float
    p95_ms: float
    first_s: float
    device: str
    cold: bool | None = None
    # the configuration this measurement was taken for, where another shares it (the same
    # encoder and prompt embed a query alike: measured once, dr5 6); "" where its own
    same_as: str = ""


@dataclass(frozen=True)
class Serving:
    """Scoring one query on the state held in memory (its own prepare and top 10), in ms over
    `sample` queries; `overhead_ms`: the same call with no query (what this workbench does
    each call whatever the query); `embedding`: the query's embedding, timed apart (None: the
    model embeds no query)."""

    sample: int
    p50_ms: float
    p95_ms: float
    overhead_ms: float
    embedding: QueryEmbedding | None = None

    @property
    def served_p50_ms(self) -> float:
        """A served query at the median: scoring and, where the model embeds, the embedding."""
        return self.p50_ms + (self.embedding.p50_ms if self.embedding is not None else 0.0)


@dataclass(frozen=True)
class Cost:
    """A configuration's cost: `name` as the comparison calls it, the model's id."""

    name: str
    model: str
    build: Build
    serving: Serving | None = None


def machine() -> str:
    """This machine as the figures were measured on it: CPU cores and the load then."""
    from workbench.core.embeddings import cpu_cores

    line = f"{cpu_cores()} CPU cores"
    with contextlib.suppress(AttributeError, OSError):  # no load average on Windows
        line += f", load average {os.getloadavg()[0]:.1f} while measuring"
    return line


def _documents_job(model: Model, dataset: Dataset, params: Params) -> EmbeddingJob | None:
    return next((j for j in model.embedding_jobs(dataset, params) if j.label == "documents"),
                None)


def stored(model: Model, dataset: Dataset, params: Params) -> Build:
    """The figures that cost no timing: the documents and, for a model that embeds them,
    how many the embedding cache holds now (the rest a build embeds), the vectors' size and
    their store (n × dim × 4 bytes, float32)."""
    from workbench.core.embeddings import cache_counts, get_encoder

    n = len(dataset.corpus)
    job = _documents_job(model, dataset, params)
    if job is None:
        return Build(documents=n)
    cached, to_embed = cache_counts(job.texts, model=job.model, prompt=job.prompt)
    dim = int(get_encoder(job.model).dim)
    return Build(documents=n, embedded=to_embed, from_cache=cached, encoder=job.model,
                 dim=dim, vector_bytes=n * dim * 4)


def measure_build(model: Model, dataset: Dataset, params: Params) -> Build:
    """The build run whole and timed (`engine.prepare` without its cache), with what it
    embedded and read from the cache counted first (`stored`), the documents' embedding timed
    (in it, or earlier in this process) and the process's peak memory after it."""
    from workbench.core.embeddings.embed import EMBEDDED

    before = stored(model, dataset, params)
    job = _documents_job(model, dataset, params)
    key = None if job is None else (job.model, job.prompt, "documents")
    was = None if key is None else EMBEDDED.get(key)
    t0 = time.perf_counter()
    prepare(model, dataset, params, use_cache=False)
    took = time.perf_counter() - t0
    now = None if key is None else EMBEDDED.get(key)
    embedding = None
    if now is not None and (was is None or now.texts > was.texts):
        embedding = Embedding(now.texts - (was.texts if was else 0),
                              now.seconds - (was.seconds if was else 0.0), now.device,
                              loaded=now.loaded and not (was is not None and was.loaded))
    elif now is not None and before.all_cached:
        embedding = Embedding(now.texts, now.seconds, now.device, earlier=True,
                              loaded=now.loaded)
    extra = {"index_bytes": _index_bytes(model, dataset, params), "embedding": embedding,
             "peak_rss": peak_rss()}
    if before.all_cached:
        return Build(**{**_as_dict(before), **extra, "rest_seconds": took})
    return Build(**{**_as_dict(before), **extra, "seconds": took})


def peak_rss() -> int | None:
    """This process's peak resident memory so far, in bytes (None where not known)."""
    try:
        import resource
    except ImportError:  # Windows
        return None
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return int(peak) if sys.platform == "darwin" else int(peak) * 1024  # macOS: bytes


def _as_dict(build: Build) -> dict[str, Any]:
    return {f.name: getattr(build, f.name) for f in fields(build)}


def _with_queries(dataset: Dataset, queries: Sequence[Query]) -> Dataset:
    return Dataset(dataset.name, dataset.corpus, QuerySet(list(queries),
                                                          name=dataset.queries.name),
                   dataset.qrels, dataset.source)


def _index_bytes(model: Model, dataset: Dataset, params: Params) -> int | None:
    """The documents' index the model holds (`engine.corpus_stage`), in bytes: its arrays
    and its terms; None for a model with none."""
    with holding_corpus() as held:
        model.prepare(_with_queries(dataset, []), params)
    if not held:
        return None
    return sum(_nbytes(v) for v in held.values())


def _nbytes(value: object) -> int:
    """Bytes of the arrays and text in `value`, through dataclasses, lists, tuples and dicts
    (containers' own overhead left out)."""
    if isinstance(value, np.ndarray):
        return int(value.nbytes)
    if isinstance(value, str):
        return len(value.encode())
    if is_dataclass(value) and not isinstance(value, type):
        return sum(_nbytes(getattr(value, f.name)) for f in fields(value))
    if isinstance(value, dict):
        return sum(_nbytes(k) + _nbytes(v) for k, v in value.items())
    if isinstance(value, list | tuple):
        return sum(_nbytes(v) for v in value)
    return 0


def sample(items: Sequence[Any], most: int) -> list[Any]:
    """Up to `most` of `items`, evenly spread (all of them when there are no more)."""
    if len(items) <= most:
        return list(items)
    step = len(items) / most
    return [items[int(i * step)] for i in range(most)]


def _percentiles(ms: Sequence[float]) -> tuple[float, float]:
    return float(np.percentile(ms, 50)), float(np.percentile(ms, 95))


def measure_serving(model: Model, dataset: Dataset, params: Params, *,
                    queries: int = SERVE_SAMPLE, embedded: int = EMBED_SAMPLE,
                    shared: dict[str, tuple[str, QueryEmbedding]] | None = None,
                    name: str = "") -> Serving:
    """Scoring a query on the state held in memory, one at a time over a sample of `queries`,
    and (for a model that embeds queries) a query embedded with the real encoder over
    `embedded` of them. The documents' side is prepared once first, outside the timing.
    `shared`: the query embeddings measured so far, by encoder and prompt, each with the
    configuration it was measured for (`name` is this one's): one with the same encoder and
    prompt is taken, not measured again (two timings of one encoder had read 6× apart)."""
    return measure_servings(model, dataset, [(name, params)], queries=queries,
                            embedded=embedded, shared=shared)[0]


def measure_servings(model: Model, dataset: Dataset, group: Sequence[tuple[str, Params]], *,
                     queries: int = SERVE_SAMPLE, embedded: int = EMBED_SAMPLE,
                     shared: dict[str, tuple[str, QueryEmbedding]] | None = None
                     ) -> list[Serving]:
    """`measure_serving` for configurations of `model` that prepare alike (their values
    differ in live ones only), each query timed under each in turn: the machine's load then
    falls on all of them alike, and a difference between them is their scoring (timed one
    after the other, best had read 1.7× hybrid for a change of live values; dr5 6)."""
    chosen = sample(list(dataset.queries), queries)
    none = _with_queries(dataset, [])
    overhead: list[list[float]] = [[] for _ in group]
    times: list[list[float]] = [[] for _ in group]
    with holding_corpus():
        for _, params in group:
            model.prepare(none, params)  # the documents' side, held from here on
            if chosen:  # and what the first query opens (the embedding store of its vector)
                model.prepare(_with_queries(dataset, chosen[:1]), params)
        for _ in range(READ_REPEATS):
            for k, (_, params) in enumerate(group):
                t0 = time.perf_counter()
                model.prepare(none, params)
                overhead[k].append((time.perf_counter() - t0) * 1000)
        for q in chosen:
            one = _with_queries(dataset, [q])
            for k, (_, params) in enumerate(group):
                t0 = time.perf_counter()
                prepared = model.prepare(one, params)
                run_live(model, prepared, params, None, (), SERVE_DEPTH)
                times[k].append((time.perf_counter() - t0) * 1000)
    out = []
    for k, (name, params) in enumerate(group):
        p50, p95 = _percentiles(times[k])
        out.append(Serving(sample=len(times[k]), p50_ms=p50, p95_ms=p95,
                           overhead_ms=float(np.median(overhead[k])),
                           embedding=_query_embedding(model, dataset, params, embedded,
                                                      shared, name)))
    return out


def _query_embedding(model: Model, dataset: Dataset, params: Params, most: int,
                     shared: dict[str, tuple[str, QueryEmbedding]] | None = None,
                     name: str = "") -> QueryEmbedding | None:
    job = next((j for j in model.embedding_jobs(dataset, params) if j.label == "queries"),
               None)
    if job is None or not job.texts:
        return None
    key = f"{job.model}\x00{job.prompt}"
    if shared is not None and key in shared:
        first, found = shared[key]
        return replace(found, same_as=first)
    measured = _time_query_embedding(job, most)
    if shared is not None:
        shared[key] = (name, measured)
    return measured


def _time_query_embedding(job: Any, most: int) -> QueryEmbedding:
    from workbench.core.embeddings import get_encoder
    from workbench.core.embeddings.embed import device_of

    texts = [job.prompt + t for t in sample(job.texts, most)]
    enc = get_encoder(job.model)
    loaded = getattr(enc, "loaded", None)
    t0 = time.perf_counter()
    enc.encode(texts[:1], batch_size=1)  # warm-up: loads the model where it is not loaded
    first = time.perf_counter() - t0
    times = []
    for text in texts:
        t0 = time.perf_counter()
        enc.encode([text], batch_size=1)
        times.append((time.perf_counter() - t0) * 1000)
    p50, p95 = _percentiles(times)
    return QueryEmbedding(sample=len(times), p50_ms=p50, p95_ms=p95, first_s=first,
                          device=device_of(enc),
                          cold=None if not isinstance(loaded, bool) else not loaded)


def measure(name: str, model: Model, dataset: Dataset, params: Params) -> Cost:
    """The build and a query served, both timed: seconds to minutes (opt-in: `--cost`)."""
    build = measure_build(model, dataset, params)
    serving = measure_serving(model, dataset, params) if len(dataset.queries) else None
    return Cost(name, model.id, build, serving)


# -- as text ---------------------------------------------------------------------------------

COST_HEADER = ["configuration", "build", "documents embedded", "peak memory", "vectors",
               "documents' index", "scoring a query: p50 / p95", "query embedding: p50 / p95",
               "served query, p50"]


def _seconds(s: float) -> str:
    if s < 0.1:  # "0.0 s" read as free (dr4 7b)
        return "under 1 ms" if s < 0.001 else f"{s * 1000:.0f} ms"
    return f"{s:.1f} s" if s < 90 else f"{s / 60:.1f} min"


def _embedding_text(e: Embedding) -> str:
    rate = e.per_second
    return (f"{e.texts:,} in {_seconds(e.seconds)} on {e.device} "
            f"({'—' if rate == float('inf') else f'{rate:,.1f}'} texts/s)")


def build_cell(b: Build) -> str:
    if b.seconds is not None:
        return _seconds(b.seconds)
    if b.all_cached and b.embedding is not None and b.embedding.earlier:
        rest = "" if b.rest_seconds is None else f"{_seconds(b.rest_seconds)} + "
        return f"{rest}{_seconds(b.embedding.seconds)} embedding, earlier in this run"
    if b.all_cached:
        return "not measured this run"
    return "—"


def _embedded_cell(b: Build) -> str:
    if not b.embeds:
        return "none (embeds nothing)"
    here = f"{b.embedded:,} of {b.documents:,} ({b.from_cache:,} from the cache)"
    if b.embedding is None:
        return here
    if b.embedding.earlier:
        return f"{here}; earlier in this run: {_embedding_text(b.embedding)}"
    return f"{here}: {_embedding_text(b.embedding)}"


def cost_rows(costs: Sequence[Cost]) -> list[list[str]]:
    """One row a configuration under `COST_HEADER`."""
    rows = []
    for c in costs:
        b, s = c.build, c.serving
        vectors = ("—" if b.vector_bytes is None else
                   f"{b.documents:,} × {b.dim} × 4 B = {bytes_text(b.vector_bytes)}")
        index = "—" if b.index_bytes is None else bytes_text(b.index_bytes)
        peak = "—" if b.peak_rss is None else bytes_text(b.peak_rss)
        query = "—" if s is None else f"{s.p50_ms:.1f} / {s.p95_ms:.1f} ms (of {s.sample})"
        emb = s.embedding if s is not None else None
        embed = ("none" if s is not None and emb is None else "—" if emb is None else
                 f"{emb.p50_ms:.1f} / {emb.p95_ms:.1f} ms (of {emb.sample}) on {emb.device}"
                 + (f" (same as {emb.same_as})" if emb.same_as else ""))
        served = "—" if s is None else f"{s.served_p50_ms:.1f} ms"
        rows.append([c.name, build_cell(b), _embedded_cell(b), peak, vectors, index, query,
                     embed, served])
    return rows


def cost_notes(costs: Sequence[Cost]) -> list[str]:
    """What each figure is, and where it was measured; one sentence a line."""
    out = [f"Measured on this machine ({machine()}): another machine's figures differ; "
           "read them against each other, not as what production will see."]
    vectors = any(c.build.embeds for c in costs)
    unmeasured = [c.name for c in costs if c.build.all_cached and c.build.embedding is None]
    if unmeasured:
        rest = "; ".join(f"{c.name} {_seconds(c.build.rest_seconds)}" for c in costs
                         if c.name in unmeasured and c.build.rest_seconds is not None)
        out.append(f"Build not measured this run for {', '.join(unmeasured)}: every "
                   "document's vector came from the embedding cache, and embedding them is "
                   "most of the build (to time it, embed them again into an empty cache: "
                   f"WORKBENCH_CACHE_DIR=EMPTY_FOLDER); the rest of the build took {rest}.")
    out.append("Build: the prepare stage run whole, without its cache"
               + (", embedding the documents the embedding cache lacks (the documents "
                  "embedded: how many, the time their encoding took, the device; where this "
                  "run embedded them before measuring, that earlier time, said so). Vectors: "
                  "the store, documents × dimensions × 4 bytes (float32)" if vectors else "")
               + ". Documents' index: its arrays and terms. Peak memory: this process's "
               "peak resident memory when the build ended (everything it held until then, the "
               "data and earlier configurations included), not the build's alone.")
    servings = [c for c in costs if c.serving is not None]
    if servings:
        overhead = "; ".join(f"{c.name} {c.serving.overhead_ms:.1f} ms" for c in servings
                             if c.serving is not None)
        out.append("Scoring a query: its own prepare (its tokens, the postings looked up"
                   + (", its cosine against every document vector" if vectors else "")
                   + f") and its ranking to the top {SERVE_DEPTH}, one query at a time, on "
                   "the documents' side prepared once and held in memory as a server holds "
                   "it (the documents' index"
                   + (", vectors and embedding store; the query's vector read from the "
                      "cache, its embedding is the next column" if vectors else "")
                   + "); p95 of the sample named. Of it, this workbench's own part, the same "
                   f"call with no query: {overhead}.")
    embedded = [c.serving.embedding for c in costs
                if c.serving is not None and c.serving.embedding is not None]
    if embedded:
        out.append("Query embedding: the real encoder, one query a call (batch size 1, as a "
                   "server embeds each request), after a warm-up call. Served query: scoring "
                   "and query embedding at their medians together, what a query of a model "
                   "that embeds costs.")
        cold = [e.first_s for e in embedded if e.cold]
        if cold:
            out.append(f"Cold start (model load): the warm-up call took {_seconds(max(cold))}, "
                       "loading the embedding model on its first use in this process.")
        elif any(e.cold is False for e in embedded):
            out.append("No cold start measured: the embedding model was already loaded in "
                       "this process (by the run's own embedding) before the warm-up call.")
    return out


def change_notes(configs: Sequence[tuple[str, Model, Params]], dataset: Dataset) -> list[str]:
    """What changing from the first configuration of a model to each other one costs, by the
    parameters that differ: one that changes the documents' vectors (fields, the document
    prompt, the embedding model: what the model's documents embedding job holds) re-embeds
    every document; another prepare-stage one rebuilds the prepared state; a live one
    (alpha) costs nothing to change."""
    out = []
    firsts: dict[str, tuple[str, Params]] = {}
    n = len(dataset.corpus)
    for name, model, params in configs:
        first_name, base = firsts.setdefault(model.id, (name, params))
        if first_name == name:
            continue
        differ = [p for p in model.schema if params[p.name] != base[p.name]]
        if not differ:
            continue
        was = _vectors_key(model, dataset, base)
        keys = {p.name: _vectors_key(model, dataset, {**base, p.name: params[p.name]})
                for p in differ if p.stage == "prepare"}
        reembed = [n for n, k in keys.items() if was is not None and k is not None and k != was]
        # a change to vectors read from the data (hybrid's embeddings=stored) embeds nothing
        unembedded = [n for n, k in keys.items() if was is not None and k is None]
        rebuild = [n for n in keys if n not in reembed and n not in unembedded]
        live = [p.name for p in differ if p.stage != "prepare"]
        parts = []
        if reembed:
            parts.append(f"{', '.join(reembed)} change{'s' if len(reembed) == 1 else ''} the "
                         f"documents' vectors: every document ({n:,}) is embedded again, the "
                         "build's main cost")
        if unembedded:
            parts.append(f"{', '.join(unembedded)}: the documents' vectors are those stored "
                         "with the data, nothing embedded; the prepared state is built again")
        if rebuild:
            parts.append(f"{', '.join(rebuild)}: the prepared state is built again"
                         + (", the vectors kept" if was is not None and not reembed else ""))
        if live:
            parts.append(f"{', '.join(live)}: live, nothing to build (free to change)")
        out.append(f"From {first_name} to {name}: " + "; ".join(parts) + ".")
    return out


def _vectors_key(model: Model, dataset: Dataset,
                 params: Params) -> tuple[str, str, tuple[str, ...]] | None:
    """What the documents' vectors depend on: the encoder, the prompt and the texts of the
    model's documents embedding job (None: it embeds no document)."""
    job = _documents_job(model, dataset, model.schema.resolve(params))
    return None if job is None else (job.model, job.prompt, tuple(job.texts))


def measured(configs: Sequence[tuple[str, Model, Params]], dataset: Dataset,
             say: Callable[[str], None] | None = None) -> Iterator[Cost]:
    """Each configuration measured in turn; `say(name)` before each (a progress line). A
    configuration whose prepare-stage values equal an earlier one's of the same model (only
    live values differ: the same build) takes that one's build, not timed again."""
    builds: dict[str, Build] = {}
    shared: dict[str, tuple[str, QueryEmbedding]] = {}
    servings: dict[str, Serving] = {}

    def key(model: Model, params: Params) -> str:
        return f"{model.id}:{sorted(model.schema.prepare_values(params).items())!r}"

    for name, model, params in configs:
        if say is not None:
            say(name)
        build = builds.get(key(model, params))
        if build is None:
            build = builds[key(model, params)] = measure_build(model, dataset, params)
        if name not in servings and len(dataset.queries):
            # the configurations that prepare alike: their queries timed in turn
            group = [(n, p) for n, m, p in configs
                     if m.id == model.id and key(m, p) == key(model, params)]
            servings.update(zip((n for n, _ in group),
                                measure_servings(model, dataset, group, shared=shared),
                                strict=True))
        yield Cost(name, model.id, build, servings.get(name))


def interleaved(configs: Sequence[tuple[str, Model, Params]]) -> list[list[str]]:
    """The configurations whose queries `measured` times in turn (of one model, preparing
    alike), two or more a group."""
    groups: dict[str, list[str]] = {}
    for name, model, params in configs:
        k = f"{model.id}:{sorted(model.schema.prepare_values(params).items())!r}"
        groups.setdefault(k, []).append(name)
    return [g for g in groups.values() if len(g) > 1]


@dataclass(frozen=True)
class CostSection:
    """What a report shows of the cost: each configuration's (`costs`), what its figures
    are (`notes`) and what a change between configurations costs (`changes`)."""

    costs: list[Cost]
    notes: list[str]
    changes: list[str]


def cost_section(configs: Sequence[tuple[str, Model, Params]], dataset: Dataset,
                 say: Callable[[str], None] | None = None) -> CostSection:
    """Each configuration measured (`measured`), with the notes and what a change costs."""
    costs = list(measured(configs, dataset, say))
    together = [f"{', '.join(g[:-1])} and {g[-1]} differ in live values only (one build): "
                "their queries were timed in turn, query by query, so that the machine's "
                "load falls on each alike" for g in interleaved(configs)]
    return CostSection(costs, cost_notes(costs) + together, change_notes(configs, dataset))
