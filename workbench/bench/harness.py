"""`workbench bench`: the live path (combine + top-k + metrics over every query, after a live
parameter change) timed against a reference computed in the same run.

The reference is what the source systems do: score each candidate document one at a time in
Python, then sort. Where that takes minutes, it is timed on a sample of queries and scaled to the
whole query set (the table says so). Timings are medians of repeated runs; the ratio column is
reference time / workbench time.

A model that keeps each query's top `vector_candidates` documents by cosine (dense, hybrid) is
also timed keeping every pair (`vector_candidates` 0) on the same data, in a child process
(`isolated`) under a memory cap: the "all pairs" columns. On the synthetic sets their vectors
are made from real ones and written into the embedding cache (`synthetic_vectors`), not
embedded: the notes under the table say how.
"""

from __future__ import annotations

import gc
import math
import statistics
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from workbench.bench.datasets import embedding_forecast, load_bench_data, scifact_folder
from workbench.bench.isolated import run_isolated
from workbench.bench.references import REFERENCES
from workbench.bench.synthetic import synthetic_dataset, synthetic_memories
from workbench.bench.synthetic_decisions import synthetic_decisions
from workbench.bench.synthetic_vectors import SyntheticEmbeddings
from workbench.core.data import Dataset, Query, QuerySet
from workbench.core.embeddings import EmbeddingError
from workbench.core.engine import EmbeddingJob, Progress
from workbench.core.models import get_model, model_ids
from workbench.core.pipeline import DEFAULT_METRICS, Pipeline
from workbench.textout import format_table, progress_bar

TARGET_MS = {"scifact": 16.0, "synthetic-50000x1000": 100.0,
             "synthetic-decisions-50000x1000": 100.0, "synthetic-memories-50000x1000": 100.0}
# models whose inputs the generic synthetic lacks: their synthetic rows use a dataset of the
# same size shaped as their data (decision records and logged injection prompts)
SHAPED_SYNTHETIC: dict[str, Callable[[int, int], Dataset]] = {
    "decision-memory": lambda n_docs, n_queries: synthetic_decisions(n_docs, n_queries, seed=7),
}


@dataclass
class Row:
    model: str
    dataset: str
    pairs: int
    ms: float
    ref_ms: float | None
    ref_note: str
    target: float | None
    all_ms: float | None = None  # the same model keeping every pair, in a child process
    notes: list[str] = field(default_factory=list)


def median_ms(fn: Callable[[int], object], repeats: int,
              times_out: list[float] | None = None) -> float:
    """Median wall time of fn(i) over `repeats` calls, after one warm-up call; every call's
    time appended to `times_out` when given."""
    fn(-1)
    times = []
    gc.disable()
    try:
        for i in range(repeats):
            t0 = time.perf_counter()
            fn(i)
            times.append((time.perf_counter() - t0) * 1000)
    finally:
        gc.enable()
    if times_out is not None:
        times_out.extend(times)
    return statistics.median(times)


SPREAD = 1.5  # runs whose upper quartile is this many times the lower: said as unsteady


def spread_note(times: Sequence[float]) -> str:
    """A note where the runs were unsteady (a busy machine): their quartiles, which a median
    alone hides; "" where they agree."""
    if len(times) < 4:
        return ""
    q1, _, q3 = statistics.quantiles(times, n=4)
    if q3 <= SPREAD * q1:
        return ""
    return f"unsteady: runs {q1:.1f}–{q3:.1f} ms (quartiles)"


def load_note() -> str:
    """A line where the machine was busy while timing (load average above its cores)."""
    import os

    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):  # Windows
        return ""
    cores = os.cpu_count() or 1
    if load <= cores:
        return ""
    return (f"note: the load average was {load:.1f} on {cores} cores while timing: other work "
            "shared the machine, so these times (and the ratios) are less reliable; rerun on an "
            "idle machine")


def sample_models() -> list[tuple[Path, str]]:
    """(sample folder, the model its workbench.toml names)."""
    import tomllib

    samples = Path(__file__).resolve().parents[2] / "sample_corpora"
    out = []
    for toml in sorted(samples.glob("*/workbench.toml")):
        model = tomllib.loads(toml.read_text(encoding="utf-8")).get("model")
        if isinstance(model, str):
            out.append((toml.parent, model))
    return out


LONGEST_WORD = " (longest query word)"  # the adapted set's name ends with it, said under the table


def longest_word_queries(dataset: Dataset) -> Dataset:
    """Each query cut to its longest word: a phrase-search model matches a whole query string
    per line, and SciFact's claims (whole sentences) would match nothing."""
    queries = QuerySet([Query(q.id, max(q.text.split(), key=len, default=q.text), q.context)
                        for q in dataset.queries], name=dataset.queries.name)
    return Dataset(f"{dataset.name}{LONGEST_WORD}", dataset.corpus, queries,
                   dataset.qrels, dataset.source)


# what the live path does not depend on, chosen so that the bench reuses cached embeddings:
# no prompt (the dense baseline's vectors), title + text as in every BEIR figure. Not the
# configuration eval scores and tune tunes (hybrid's defaults: text only, OpenVault's
# prompt): said before the table, with how to time that one (`bench -m hybrid --defaults`
# or -p/--params: rb 6)
BENCH_PARAMS: dict[str, dict[str, object]] = {
    "hybrid": {"query_prompt": "", "document_prompt": "", "fields": "title+text"},
}


def bench_settings(model_id: str, chosen: Mapping[str, Mapping[str, object]] | None = None
                   ) -> str:
    """The settings a bench times `model_id` at, where they are not its defaults
    (`chosen`: each model's values over its defaults; BENCH_PARAMS by default)."""
    given = BENCH_PARAMS if chosen is None else chosen
    return ", ".join(f"{k}={v!r}" if isinstance(v, str) and not v else f"{k}={v}"
                     for k, v in given.get(model_id, {}).items())


ALL_PAIRS_REPEATS = 5  # the all-pairs path is timed fewer times: seconds a run at 50 M pairs

# models that search for the query as one phrase get phrase-sized queries
QUERY_ADAPTERS: dict[str, Callable[[Dataset], Dataset]] = {"vault-search": longest_word_queries}


def _live_param(pipe: Pipeline) -> tuple[str, list[float]] | None:
    """A live float parameter to wiggle between runs, so no run reuses the last one's work."""
    for p in pipe.model.schema:
        if p.stage == "live" and p.kind == "float" and p.low is not None and p.high is not None:
            d = float(p.default)
            span = (p.high - p.low) / 20
            return p.name, [min(p.high, d + span), max(p.low, d - span)]
    return None


def time_live(pipe: Pipeline, repeats: int,
              metric_names: Sequence[str] = DEFAULT_METRICS,
              times_out: list[float] | None = None) -> float:
    """Median ms of the live path, a live parameter wiggled between runs and the previous
    ranking passed as the top-k hint, as the window does (same results). The parameters are
    as they were when it returns; every run's time appended to `times_out` when given."""
    wiggle = _live_param(pipe)
    last: list[Any] = []  # the previous tick's result: its ranking is the next one's hint
    before = dict(pipe.params)

    def live(i: int) -> object:
        if wiggle is not None:
            name, values = wiggle
            pipe.params[name] = values[i % 2]
        result = pipe.run(metric_names, hint=last[-1].ranking.pair if last else None)
        last[:] = [result]
        return result

    try:
        return median_ms(live, repeats, times_out)
    finally:
        pipe.params.clear()
        pipe.params.update(before)


def candidate_pairs(pipe: Pipeline) -> int:
    """The (query, document) pairs the model scores at all: its full combine's."""
    return pipe.model.combine(pipe.prepared, pipe.params).n_pairs


NO_REFERENCE = dict.fromkeys(("codeledger", "codeledger-document"),
                             "no reference: CodeLedger's own ranker is closed, and the model "
                             "follows its document, not its code")


def bench_target(dataset: Dataset, targeted: bool) -> float | None:
    """The row's target in ms: only on the sets the targets were set for (`targeted`: the
    bench's own synthetic sets, and SciFact where the bench found it), never by a name alone:
    a user's DATA in a folder named `scifact-large` had been held to SciFact's 16 ms."""
    if not targeted:
        return None
    return next((t for key, t in TARGET_MS.items() if dataset.name.startswith(key)), None)


def is_bench_scifact(data: str | None) -> bool:
    """Whether the real set timed is the SciFact the bench finds itself: no DATA, or DATA
    that is that very folder (compared by path, not by its name)."""
    if data is None:
        return True
    try:
        return Path(data).resolve() == scifact_folder().resolve()
    except OSError:
        return False


def bench_one(model_id: str, dataset: Dataset, repeats: int,
              spec: dict[str, Any] | None = None,
              vectors: SyntheticEmbeddings | None = None, targeted: bool = False,
              overrides: Mapping[str, object] | None = None) -> Row:
    """One row. `spec`: how a child process rebuilds `dataset` (`isolated`), for the
    all-pairs run; `vectors`: the synthetic sets' vectors, seeded before prepare;
    `targeted`: whether this set is one the targets are for (`bench_target`); `overrides`:
    the values timed over the model's defaults (None: BENCH_PARAMS')."""
    model = get_model(model_id)
    pairs = len(dataset.corpus) * len(dataset.queries)
    target = bench_target(dataset, targeted)
    notes: list[str] = []
    if overrides is None:
        overrides = BENCH_PARAMS.get(model_id, {})
    params = model.schema.resolve(overrides)
    jobs = synthetic_jobs(model_id, dataset, overrides) if vectors is not None else []
    if vectors is not None and jobs:
        try:
            vectors.prepare_for(jobs, dataset)
        except (EmbeddingError, OSError, ValueError) as exc:
            return Row(model_id, dataset.name, pairs, float("nan"), None,
                       f"not run: no vectors for the synthetic documents ({exc})", None)
        notes.append("vectors made, not embedded (below)")
    with progress_bar(f"preparing {model_id} on {dataset.name}") as bar:
        pipe = Pipeline(model, dataset, overrides, progress=Progress(on_progress=bar))
    times: list[float] = []
    ms = time_live(pipe, repeats, times_out=times)
    unsteady = spread_note(times)
    if unsteady:
        notes.append(unsteady)
    pairs = candidate_pairs(pipe)
    all_ms = _all_pairs(model_id, dataset, params, spec, repeats, notes, overrides)
    ref_ms: float | None = None
    note = NO_REFERENCE.get(model_id, "no reference")
    ref = REFERENCES.get(model_id)
    if ref is not None:
        ref_ms, note = ref(dataset, pipe.params)
    return Row(model_id, dataset.name, pairs, ms, ref_ms, note, target, all_ms, notes)


def synthetic_jobs(model_id: str, dataset: Dataset,
                   overrides: Mapping[str, object] | None = None) -> list[EmbeddingJob]:
    """What the model embeds on a synthetic set, at the bench's parameters (`overrides`;
    None: BENCH_PARAMS'): those texts get made vectors (`synthetic_vectors`), not an hour of
    encoding. Empty on any other set."""
    if dataset.source != "synthetic":
        return []
    model = get_model(model_id)
    given = BENCH_PARAMS.get(model_id) if overrides is None else overrides
    return model.embedding_jobs(dataset, model.schema.resolve(given))


def _all_pairs(model_id: str, dataset: Dataset, params: dict[str, Any],
               spec: dict[str, Any] | None, repeats: int, notes: list[str],
               overrides: Mapping[str, object]) -> float | None:
    """The live path's median with every pair kept, timed in a child under a memory cap;
    None (and why in `notes`) where that is this row's own path or cannot be run."""
    if "vector_candidates" not in get_model(model_id).schema:
        return None
    kept = int(params["vector_candidates"])
    if kept <= 0 or kept >= len(dataset.corpus):
        notes.append("every pair (vector_candidates ≥ corpus)")
        return None
    if spec is None:
        notes.append("all pairs not timed (no way to rebuild this dataset in a child)")
        return None
    print(f"all pairs: {model_id} on {dataset.name}, in a child process", file=sys.stderr,
          flush=True)
    done = run_isolated(spec, model_id, {**overrides, "vector_candidates": 0},
                        repeats=min(repeats, ALL_PAIRS_REPEATS))
    if done.error:
        notes.append(f"all pairs not timed: {done.error}")
        return None
    notes.append(f"all pairs: {done.pairs:,} pairs, prepare {done.prepare_s:.1f} s, peak RSS "
                 f"{done.rss_live_mb:,.0f} MB, median of {min(repeats, ALL_PAIRS_REPEATS)}")
    return done.live_ms


def run_benchmarks(*, data: str | None = None, repeats: int = 15, quick: bool = False,
                   models: list[str] | None = None,
                   params: Mapping[str, Mapping[str, object]] | None = None) -> int:
    """DATA alone; without it SciFact beside the checkout, the synthetic 50,000 × 1,000 set
    and each bundled sample with the model it is made for. Quick: small synthetic sets.
    `params`: each model's values over its defaults, as the user named them (`{}`: every
    model at its defaults); None: BENCH_PARAMS, said as not the evaluated configuration."""
    ids = models or model_ids()
    chosen = BENCH_PARAMS if params is None else params
    plan: list[tuple[str, Dataset]] = []
    specs: dict[str, dict[str, Any]] = {}  # how a child process rebuilds each dataset
    if quick:
        sizes = [(2000, 50, 3), (5000, 100, 5)]
        sets = []
    else:
        real, what = load_bench_data(data)
        print(what)
        # DATA alone: the synthetic set took a minute more and filled the cache unasked
        sizes = [(50000, 1000, 7)] if data is None else []
        sets = [real] if real is not None else []
        if real is not None:
            specs[real.name] = {"data": data}
        if data is None:  # each model also on the bundled samples made for it
            from workbench.core.formats import load_dataset

            for folder, model_id in sample_models():
                if model_id in ids:
                    sample = load_dataset(folder)
                    specs.setdefault(sample.name, {"data": str(folder)})
                    plan.append((model_id, sample))
    for n_docs, n_queries, seed in sizes:
        made = synthetic_dataset(n_docs, n_queries, seed=seed)
        specs[made.name] = {"synthetic": [len(made.corpus), len(made.queries), seed]}
        sets.append(made)
    targeted: set[int] = set()  # the plan's rows on a set the targets are for
    for ds in sets:
        first = len(plan)
        for mid in ids:
            adapt = QUERY_ADAPTERS.get(mid)
            shaped = SHAPED_SYNTHETIC.get(mid)
            if shaped is not None and ds.source == "synthetic":
                plan.append((mid, shaped(len(ds.corpus), len(ds.queries))))
            elif adapt is not None and not ds.source.startswith("synthetic"):
                plan.append((mid, adapt(ds)))
            else:
                plan.append((mid, ds))
            if mid == "hybrid" and ds.source == "synthetic":  # also as memories, curve on
                seed = int(specs[ds.name]["synthetic"][2])
                made = synthetic_memories(len(ds.corpus), len(ds.queries), seed=seed)
                specs[made.name] = {"synthetic_memories": [len(made.corpus),
                                                           len(made.queries), seed]}
                plan.append((mid, made))
        if ds.source.startswith("synthetic") or is_bench_scifact(data):
            targeted.update(range(first, len(plan)))
    forecast = embedding_forecast([  # the synthetic sets' vectors are made, not embedded
        job for mid, ds in plan if not synthetic_jobs(mid, ds, chosen.get(mid, {}))
        for job in get_model(mid).embedding_jobs(
            ds, get_model(mid).schema.resolve(chosen.get(mid)))])
    if forecast:
        print(forecast, flush=True)
    vectors = SyntheticEmbeddings()
    rows = [bench_one(mid, ds, repeats, specs.get(ds.name), vectors, i in targeted,
                      chosen.get(mid, {}))
            for i, (mid, ds) in enumerate(plan)]
    for line in settings_lines(list(dict.fromkeys(m for m, _ in plan)), params):
        print(line)
    print(f"slider ms = recompute after a slider move: combine + top-k + metrics "
          f"({', '.join(DEFAULT_METRICS)}) over every query at once, from prepared arrays that "
          f"already hold each query's candidates; median of {repeats} runs. Not what serving "
          "a query costs: no query is tokenised, looked up or embedded here (`workbench "
          f"{cost_command(list(dict.fromkeys(m for m, _ in plan)))}` measures that, with the "
          "build)")
    print(format_table(["model", "dataset", "pairs", "slider ms", "all pairs ms", "vs all pairs",
                        "reference ms", "speed-up", "target ms", "verdict", "notes"],
                       [_cells(r) for r in rows]))
    for name, note in vectors.notes.items():
        print(f"{name}: {note}")
    busy = load_note()
    if busy:
        print(busy)
    for mid, ds in plan:  # the queries were changed for this row: said, eval does not
        if ds.name.endswith(LONGEST_WORD):
            print(f"note: {mid} on {ds.name}: each query is cut to its longest word, since "
                  f"{mid} matches the whole query as one phrase within a line (as obsidian-mcp "
                  "does) and whole questions match nothing; `eval` runs the queries as written")
    # one line and the exit status say it, as --gui's and --tune's do (a script can act)
    judged = [r for r in rows if r.target is not None and not math.isnan(r.ms)]
    over = [r for r in judged if r.ms > (r.target or 0)]
    if judged:
        print(f"targets: {len(judged) - len(over)} of {len(judged)} met"
              + (" — OVER: " + ", ".join(f"{r.model} on {r.dataset} {r.ms:.1f} ms > "
                                         f"{r.target:.0f}" for r in over) if over else ""))
    return 1 if over else 0


def cost_command(ids: Sequence[str]) -> str:
    """A compare command that measures the cost of these models at their defaults: compare
    takes two configurations at least (dr4 2: `-m MODEL --defaults --cost` was refused), so
    one model is put beside BM25 (or dense, beside BM25 alone)."""
    models = list(ids)
    if len(models) == 1:
        models = ["bm25", *models] if models[0] != "bm25" else ["bm25", "dense"]
    return f"compare DATA -m {','.join(models)} --cost"


def settings_lines(ids: Sequence[str],
                   params: Mapping[str, Mapping[str, object]] | None) -> list[str]:
    """What each model is timed at, where it is not its defaults: the user's values
    (`params`), or BENCH_PARAMS' (None), which are not what eval scores: said as such, with
    how to time that."""
    out = []
    for mid in ids:
        if params is not None:
            if params.get(mid):
                out.append(f"note: {mid} is timed at its defaults with "
                           f"{bench_settings(mid, params)}, as you named them")
            else:  # --defaults: said, so that a saved output shows what it timed (dr4 8)
                out.append(f"note: {mid} is timed at its defaults (the configuration eval "
                           "scores)")
            continue
        if BENCH_PARAMS.get(mid):
            out.append(f"NOTE: {mid} is timed at {bench_settings(mid)} (the texts `workbench "
                       "embed DATA -m dense` embeds, so one cache serves both), NOT at its "
                       f"defaults, which eval scores and tune tunes; to time those: bench DATA "
                       f"-m {mid} --defaults, or -p/--params for a tuned configuration (the "
                       "documents are embedded that way first where the cache lacks them)")
    return out


def _cells(r: Row) -> list[str]:
    verdict = "" if r.target is None or math.isnan(r.ms) else (
        "ok" if r.ms <= r.target else "OVER")
    return [r.model, r.dataset, f"{r.pairs:,}", "—" if math.isnan(r.ms) else f"{r.ms:.1f}",
            "—" if r.all_ms is None else f"{r.all_ms:,.1f}",
            f"{r.all_ms / r.ms:,.1f}×" if r.all_ms else "—",
            "—" if r.ref_ms is None else f"{r.ref_ms:,.0f}",
            f"{r.ref_ms / r.ms:,.0f}×" if r.ref_ms else "—",
            "" if r.target is None else f"{r.target:.0f}", verdict,
            "; ".join([*r.notes, r.ref_note])]
