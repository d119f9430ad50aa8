"""`workbench bench --tune`: optimiser trials per second against the live path, same run.

A trial is meant to cost about one slider tick (combine + top-k + metrics). This times both
on the same prepared state: ticks as the window runs them (median of repeated ticks; one that
moves alpha, and one that moves all six tuned parameters at once, as a trial does), and whole
trials of a TPE study over six hybrid parameters with 5-fold validation on the default
storage (an SQLite file, in-memory working copy) — sampler, storage writes and all. It also
times the same trials on storage shared with other workers (the file used directly), which is
what `--workers` and PostgreSQL pay per trial.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

import numpy as np

from workbench.bench.datasets import embedding_forecast, load_bench_data
from workbench.bench.harness import median_ms
from workbench.core.engine import Progress
from workbench.core.models import get_model
from workbench.core.pipeline import Pipeline
from workbench.core.tuning import Evaluator, TuneSpec, build_space, kfold, storage_url, tune
from workbench.textout import format_table, progress_bar

TARGET_TRIALS_PER_S = 30.0
TUNED = ["alpha", "combined_boost_weight", "vector_threshold", "normalization", "k1", "b"]
# SciFact as the README's hybrid figures use it: titles embedded, no prompt
SCIFACT_PARAMS = {"query_prompt": "", "document_prompt": "", "fields": "title+text"}


def run_tune_bench(data: str | None = None, trials: int = 60, repeats: int = 15) -> int:
    """On DATA, else SciFact; exit status 1 when there is neither (nothing measured)."""
    dataset, what = load_bench_data(data)
    print(what)
    if dataset is None:
        return 1
    model = get_model("hybrid")
    forecast = embedding_forecast(model.embedding_jobs(dataset,
                                                       model.schema.resolve(SCIFACT_PARAMS)))
    if forecast:
        print(forecast, flush=True)
    with progress_bar(f"preparing hybrid on {dataset.name}") as bar:
        pipe = Pipeline(model, dataset, SCIFACT_PARAMS, progress=Progress(on_progress=bar))
    evaluator = Evaluator(model, dataset, pipe.params, ["ndcg@10"], prepared=pipe.prepared)
    alphas = [0.3 + 0.4 * (i % 7) / 6 for i in range(repeats + 1)]
    tick_ms = median_ms(lambda i: evaluator.evaluate({"alpha": alphas[i]}), repeats)
    space = build_space(model.schema, TUNED)
    # a tick that moves all six at once, as a trial does (k1 and b re-score BM25, a new
    # normalisation re-scales both sides): the fair reference for a trial
    rng = np.random.default_rng(0)
    moves = [{d.name: d.snap(rng.uniform(d.low, d.high)) if d.kind == "float"
              else d.values()[int(rng.integers(len(d.values())))] for d in space.dimensions}
             for _ in range(repeats + 1)]
    full_ms = median_ms(lambda i: evaluator.evaluate(moves[i]), repeats)
    validation = kfold(evaluator.counted(), 5, seed=0)
    rows: list[list[str | int]] = []
    rates: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        for label, name, shared in (
                ("SQLite file, in-memory copy (default)", "a.db", False),
                ("journal file, in-memory copy (--storage x.log)", "b.log", False),
                ("SQLite used directly (--workers)", "c.db", True)):
            url = storage_url(str(Path(tmp) / name), Path(tmp) / "x.db")
            spec = TuneSpec(space, ("ndcg@10",), trials=trials, storage=url, shared=shared)
            per_trial: list[float] = []
            last = [time.perf_counter()]

            def lap(_report: object, laps: list[float] = per_trial,
                    mark: list[float] = last) -> None:
                now = time.perf_counter()
                laps.append((now - mark[0]) * 1000)
                mark[0] = now

            t0 = time.perf_counter()
            with progress_bar(f"tuning, {label}") as bar:
                tune(evaluator, validation, spec, on_trial=lap,
                     progress=Progress(on_progress=bar), score=False)
            wall = time.perf_counter() - t0
            n = len(per_trial)
            ms = statistics.median(per_trial[1:]) if n > 1 else float("nan")
            rates.append(1000 / ms)
            rows.append([label, n, f"{wall:.1f}", f"{ms:.1f}", f"{1000 / ms:.1f}",
                         f"{ms / full_ms:.2f}", f"{ms / tick_ms:.2f}"])
    print(f"\n{dataset.name}, hybrid: {len(dataset.queries)} queries × {len(dataset.corpus):,} "
          f"documents; live tick (combine + top-k + ndcg@10), median: alpha moved "
          f"{tick_ms:.1f} ms, all six tuned parameters moved {full_ms:.1f} ms")
    print(format_table(["storage", "trials", "wall s", "ms/trial (median)", "trials/s",
                        "× six-parameter tick", "× alpha tick"], rows))
    ok = bool(rates) and rates[0] >= TARGET_TRIALS_PER_S
    print(f"target ≥ {TARGET_TRIALS_PER_S:g} trials/s on the default storage: "
          f"{'met' if ok else 'NOT met'}")
    return 0 if ok else 1  # as the other modes: a miss is the exit status too
