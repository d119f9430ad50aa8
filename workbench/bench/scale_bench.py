"""`workbench bench --scale [N]`: the models that embed (dense, hybrid) prepared on N synthetic
documents (200,000 by default) × 1,000 queries, each in a child process of its own
(`isolated`): prepare time and peak resident memory against the 2 GB target, and the live
path's median.

The vectors are made from real ones and written into the embedding cache first, in this
process (`synthetic_vectors`), so prepare reads them as it reads any cached embedding. The
child's peak (`ru_maxrss`) holds the synthetic dataset itself (its size is the first column),
prepare's arrays, the embedding cache's memory-mapped vectors it read, and then the live path.
"""

from __future__ import annotations

import gc
import math

from workbench.bench.harness import BENCH_PARAMS, synthetic_jobs
from workbench.bench.isolated import run_isolated
from workbench.bench.synthetic import synthetic_dataset
from workbench.bench.synthetic_vectors import SyntheticEmbeddings
from workbench.core.embeddings import EmbeddingError
from workbench.core.models import model_ids
from workbench.textout import format_table

SCALE_DOCS = 200_000
SCALE_QUERIES = 1_000
TARGET_MB = 2048  # "200,000 documents prepared within 2 GB peak RSS" (issue 13)
SEED = 7


def run_scale_bench(n_docs: int = SCALE_DOCS, *, n_queries: int = SCALE_QUERIES,
                    models: list[str] | None = None, repeats: int = 15) -> int:
    """One row per model; exit status 1 when a model could not be run at all."""
    print(f"making {n_docs:,} synthetic documents × {n_queries:,} queries and their vectors "
          "(at 200,000, a few minutes before the first model starts)", flush=True)
    ds = synthetic_dataset(n_docs, n_queries, seed=SEED)
    jobs = {mid: synthetic_jobs(mid, ds) for mid in models or model_ids()}
    ids = models or [mid for mid, j in jobs.items() if j]
    vectors = SyntheticEmbeddings()
    failed: dict[str, str] = {}
    for mid in ids:
        if jobs[mid]:
            try:
                vectors.prepare_for(jobs[mid], ds)
            except (EmbeddingError, OSError, ValueError) as exc:
                failed[mid] = f"no vectors for the synthetic documents ({exc})"
    seeded = {mid for mid in ids if jobs[mid] and mid not in failed}
    vectors.made.clear()
    name, size = ds.name, f"{len(ds.corpus) * len(ds.queries):,}"
    del ds, jobs
    gc.collect()  # the child builds its own copy: this one need not sit beside it
    table = []
    for mid in ids:
        if mid in failed:
            table.append([mid, name, size, "—", "—", "—", "—", "", "—", "—", failed[mid]])
            continue
        print(f"preparing {mid} on {name} in a child process", flush=True)
        done = run_isolated({"synthetic": [n_docs, n_queries, SEED]}, mid,
                            dict(BENCH_PARAMS.get(mid, {})), repeats=repeats)
        if done.error:
            failed[mid] = done.error
            table.append([mid, name, size, "—", "—", "—", "—", "", "—", "—", done.error])
            continue
        verdict = "ok" if done.rss_prepared_mb <= TARGET_MB else "OVER"
        table.append([mid, name, f"{done.pairs:,}", f"{done.prepare_s:.1f}",
                      f"{done.rss_dataset_mb:,.0f}", f"{done.rss_prepared_mb:,.0f}",
                      f"{TARGET_MB:,}", verdict, _ms(done.live_ms), f"{done.rss_live_mb:,.0f}",
                      "vectors made, not embedded (below)" if mid in seeded else ""])
    print(f"prepare in a child process per model (the prepare cache unused); peak RSS in MB: "
          f"once the dataset is built, once prepared (against the target), after {repeats} "
          f"live run{'' if repeats == 1 else 's'} (median ms)")
    print(format_table(["model", "dataset", "pairs", "prepare s", "dataset MB", "prepared MB",
                        "target MB", "", "live ms", "live MB", "notes"], table))
    for set_name, note in vectors.notes.items():
        print(f"{set_name}: {note}")
    return 1 if len(failed) == len(ids) else 0


def _ms(value: float) -> str:
    return "—" if math.isnan(value) else f"{value:.1f}"
