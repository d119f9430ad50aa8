"""`workbench bench`: the live path (combine + top-k + metrics over every query, after a live
parameter change) timed against a reference computed in the same run.

The reference is what the source systems do: score each candidate document one at a time in
Python, then sort. Where that takes minutes, it is timed on a sample of queries and scaled to the
whole query set (the table says so). Timings are medians of repeated runs; the ratio column is
reference time / workbench time.
"""

from __future__ import annotations

import gc
import math
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from workbench.bench.datasets import embedding_forecast, load_bench_data
from workbench.bench.references import REFERENCES
from workbench.bench.synthetic import synthetic_dataset
from workbench.bench.synthetic_decisions import synthetic_decisions
from workbench.core.data import Dataset, Query, QuerySet
from workbench.core.engine import Progress
from workbench.core.models import get_model, model_ids
from workbench.core.pipeline import DEFAULT_METRICS, Pipeline
from workbench.textout import format_table, progress_bar

TARGET_MS = {"scifact": 16.0, "synthetic-50000x1000": 100.0,
             "synthetic-decisions-50000x1000": 100.0}
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


def median_ms(fn: Callable[[int], object], repeats: int) -> float:
    """Median wall time of fn(i) over `repeats` calls, after one warm-up call."""
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
    return statistics.median(times)


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


def longest_word_queries(dataset: Dataset) -> Dataset:
    """Each query cut to its longest word: a phrase-search model matches a whole query string
    per line, and SciFact's claims (whole sentences) would match nothing."""
    queries = QuerySet([Query(q.id, max(q.text.split(), key=len, default=q.text), q.context)
                        for q in dataset.queries], name=dataset.queries.name)
    return Dataset(f"{dataset.name} (longest query word)", dataset.corpus, queries,
                   dataset.qrels, dataset.source)


# what the live path does not depend on, chosen so that the bench reuses cached embeddings:
# no prompt (the dense baseline's vectors), title + text as in every BEIR figure
BENCH_PARAMS: dict[str, dict[str, object]] = {
    "hybrid": {"query_prompt": "", "document_prompt": "", "fields": "title+text"},
}
ALL_PAIRS_LIMIT = 10_000_000  # an all-pairs model over more pairs is not benched

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


def _skipped(model_id: str, dataset: Dataset) -> bool:
    return (get_model(model_id).scores_all_pairs
            and len(dataset.corpus) * len(dataset.queries) > ALL_PAIRS_LIMIT)


def bench_one(model_id: str, dataset: Dataset, repeats: int) -> Row:
    model = get_model(model_id)
    pairs = len(dataset.corpus) * len(dataset.queries)
    if _skipped(model_id, dataset):
        return Row(model_id, dataset.name, pairs, float("nan"), None,
                   f"not run: scores all {pairs:,} pairs (every document for every query), "
                   "and would need an embedding of every synthetic document", None)
    with progress_bar(f"preparing {model_id} on {dataset.name}") as bar:
        pipe = Pipeline(model, dataset, BENCH_PARAMS.get(model_id),
                        progress=Progress(on_progress=bar))
    wiggle = _live_param(pipe)

    last: list[Any] = []  # the previous tick's result: its ranking is the next one's hint

    def live(i: int) -> object:
        if wiggle is not None:
            name, values = wiggle
            pipe.params[name] = values[i % 2]
        # as the window does: the previous ranking as a top-k cut-off hint (same results)
        result = pipe.run(DEFAULT_METRICS, hint=last[-1].ranking.pair if last else None)
        last[:] = [result]
        return result

    ms = median_ms(live, repeats)
    pairs = pipe.model.combine(pipe.prepared, pipe.params).n_pairs
    ref_ms: float | None = None
    note = "no reference"
    ref = REFERENCES.get(model_id)
    if ref is not None:
        ref_ms, note = ref(dataset, pipe.params)
    target = next((t for key, t in TARGET_MS.items() if dataset.name.startswith(key)), None)
    return Row(model_id, dataset.name, pairs, ms, ref_ms, note, target)


def run_benchmarks(*, data: str | None = None, repeats: int = 15, quick: bool = False,
                   models: list[str] | None = None) -> int:
    """DATA (or SciFact beside the checkout) and the synthetic 50,000 × 1,000 set; with no
    DATA also each bundled sample with the model it is made for. Quick: small synthetic sets."""
    ids = models or model_ids()
    plan: list[tuple[str, Dataset]] = []
    if quick:
        sets = [synthetic_dataset(2000, 50, seed=3), synthetic_dataset(5000, 100, seed=5)]
    else:
        real, what = load_bench_data(data)
        print(what)
        sets = ([real] if real is not None else []) + [synthetic_dataset(50000, 1000)]
        if data is None:  # each model also on the bundled samples made for it
            from workbench.core.formats import load_dataset

            plan += [(model_id, load_dataset(folder)) for folder, model_id in sample_models()
                     if model_id in ids]
    for ds in sets:
        for mid in ids:
            adapt = QUERY_ADAPTERS.get(mid)
            shaped = SHAPED_SYNTHETIC.get(mid)
            if shaped is not None and ds.source == "synthetic":
                plan.append((mid, shaped(len(ds.corpus), len(ds.queries))))
            elif adapt is not None and not ds.source.startswith("synthetic"):
                plan.append((mid, adapt(ds)))
            else:
                plan.append((mid, ds))
    forecast = embedding_forecast([
        job for mid, ds in plan if not _skipped(mid, ds)
        for job in get_model(mid).embedding_jobs(
            ds, get_model(mid).schema.resolve(BENCH_PARAMS.get(mid)))])
    if forecast:
        print(forecast, flush=True)
    rows = [bench_one(mid, ds, repeats) for mid, ds in plan]
    table = []
    for r in rows:
        ratio = f"{r.ref_ms / r.ms:,.0f}×" if r.ref_ms else "—"
        verdict = "" if r.target is None or math.isnan(r.ms) else (
            "ok" if r.ms <= r.target else "OVER")
        ms = "—" if math.isnan(r.ms) else f"{r.ms:.1f}"
        table.append([r.model, r.dataset, f"{r.pairs:,}", ms,
                      "—" if r.ref_ms is None else f"{r.ref_ms:,.0f}", ratio,
                      "" if r.target is None else f"{r.target:.0f}", verdict, r.ref_note])
    print(f"live path = combine + top-k + metrics ({', '.join(DEFAULT_METRICS)}) over every "
          f"query; median of {repeats} runs")
    print(format_table(["model", "dataset", "pairs", "ms", "reference ms", "speed-up",
                        "target ms", "", "reference"], table))
    return 0
