"""What the benchmarks run on: a dataset the user names (`bench DATA`), else the shared
SciFact copy beside the checkout (or under $WORKBENCH_DATASETS) — never a stand-in measured
against SciFact's target — and, before anything is timed, how long the embedding it needs will
take."""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from pathlib import Path

from workbench.core.data import Dataset
from workbench.core.engine import EmbeddingJob
from workbench.core.sizes import duration_text


def datasets_folder() -> Path:
    """$WORKBENCH_DATASETS, else the `shared/datasets` folder beside the checkout."""
    env = os.environ.get("WORKBENCH_DATASETS")
    if env:
        return Path(env)
    return Path(__file__).resolve().parents[3] / "shared" / "datasets"


def scifact_folder() -> Path:
    return datasets_folder() / "scifact"


def load_bench_data(data: str | None) -> tuple[Dataset | None, str]:
    """(the dataset, a line saying what it is or why there is none). DATA that cannot be read
    raises FormatError/OSError as every command's DATA does."""
    from workbench.core.formats import load_dataset, read_beir

    if data is not None:
        ds = load_dataset(data)
        return ds, f"{ds.name}: {len(ds.corpus):,} documents × {len(ds.queries):,} queries"
    folder = scifact_folder()
    if not (folder / "corpus.jsonl").exists():
        return None, (f"SciFact is not at {folder} (set WORKBENCH_DATASETS, or pass DATA to "
                      "time your own dataset): its rows and targets are left out, nothing "
                      "stands in for them")
    ds = read_beir(folder, split="test")
    return ds, f"scifact: {len(ds.corpus):,} documents × {len(ds.queries):,} queries"


def embedding_forecast(jobs: Sequence[EmbeddingJob], probe: int = 32) -> str | None:
    """A line saying how many texts the run must embed and about how long that takes, from
    `probe` of them encoded now (outside the cache); None when every text is cached."""
    from workbench.core.embeddings import count_cached, embed_texts, get_encoder

    missing = [len(j.texts) - count_cached(j.texts, model=j.model, prompt=j.prompt)
               for j in jobs]
    total = sum(missing)
    if not total:
        return None
    job = next(j for j, m in zip(jobs, missing, strict=True) if m)
    sample = job.texts[::max(1, len(job.texts) // probe)][:probe]
    get_encoder(job.model).encode(["warm-up"])  # the model's load is not its rate
    t0 = time.perf_counter()
    embed_texts(sample, model=job.model, prompt=job.prompt, batch_size=job.batch_size,
                use_cache=False)
    rate = len(sample) / max(time.perf_counter() - t0, 1e-9)
    cached = sum(len(j.texts) for j in jobs) - total
    prompt = f"prompt {job.prompt!r}" if job.prompt else "no prompt"
    held = "none is" if not cached else "1 is" if cached == 1 else f"{cached:,} are"
    return (f"embedding first: {total:,} texts not in the cache ({held}), about "
            f"{duration_text(total / rate)} at {rate:,.0f} texts/s (measured on {len(sample)} of "
            f"them; {job.model}, {prompt}); cached for the next run")


