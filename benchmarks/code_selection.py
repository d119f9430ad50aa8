"""`workbench bench --code REPO`: CodeLedger-style selection measured on a repository's own
history, against a plain BM25 ranking of file contents, before and after a quick weight tune.

Protocol (no leakage): the snapshot is picked so that `split` of the non-merge history comes
after it; the index is built at the snapshot and each later commit is a task (its subject →
the code files it changed that existed at the snapshot). The quick tune fits on the older half
of the tasks and is reported on the newer half (held out), next to the defaults on that same
half, so the tuned figure is not a figure on the data it was fitted to.

Figures per system: bundle recall and precision (what CodeLedger's users measure: the files
the change touched against the files selected), recall@10 and nDCG@10 of the ranking.
BM25 has no bundle of its own; it is given two: the same number of files as codeledger's
bundle of each task ("same size": a fair precision comparison), and codeledger's file and
token budget without the sufficiency stop ("same budget").
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from workbench.core.data import Dataset, QuerySet
from workbench.core.formats.code_repo import read_code_repo
from workbench.core.formats.code_tasks import write_tasks
from workbench.core.models import get_model
from workbench.core.models.codeledger.bundle import budget
from workbench.core.models.codeledger.explain import full_bundles
from workbench.core.pipeline import Pipeline
from workbench.core.repo import index_repository
from workbench.core.repo.tasks import mine_tasks, pick_snapshot
from workbench.textout import format_table

RANK_METRICS = ("r@10", "ndcg@10")
# (parameter, values tried) for the coordinate-ascent quick tune, two passes
TUNE_GRID: tuple[tuple[str, tuple[float, ...]], ...] = (
    ("w_keyword", (0.1, 0.3, 0.5, 0.7, 1.0)),
    ("w_centrality", (0.0, 0.05, 0.15, 0.3)),
    ("w_churn", (0.0, 0.05, 0.15, 0.3)),
    ("w_recent_touch", (0.0, 0.05, 0.1, 0.2)),
    ("w_test_relevance", (0.0, 0.05, 0.1, 0.2)),
    ("sufficiency", (0.3, 0.5, 0.7, 0.85)),
)


def run_code_bench(repo: str, split: float = 0.5, max_files: int = 20) -> int:
    root = Path(repo)
    snapshot = pick_snapshot(root, tasks_fraction=split)
    mined = mine_tasks(root, snapshot=snapshot, max_files=max_files)
    if len(mined.tasks) < 4:
        print(f"{root}: only {len(mined.tasks)} tasks after {snapshot[:10]}; need 4 or more")
        return 1
    t0 = time.perf_counter()
    index_repository(root, rev=snapshot, use_cache=False)
    index_s = time.perf_counter() - t0
    with tempfile.TemporaryDirectory() as tmp:
        tasks = Path(tmp) / "tasks.jsonl"
        write_tasks(tasks, mined.tasks)
        ds = read_code_repo(root, tasks=tasks)
    print(f"{root.resolve().name}: snapshot {snapshot[:10]}, {len(ds.corpus)} files indexed "
          f"in {index_s:.2f} s (no cache), {len(ds.queries)} tasks from the "
          f"{mined.commits} later commits (mean {np.mean([len(t.files) for t in mined.tasks]):.1f}"
          f" files each)")

    t0 = time.perf_counter()
    Pipeline(get_model("codeledger"), ds, {}, use_cache=False)
    prepare_s = time.perf_counter() - t0
    print(f"codeledger prepare (terms, five candidate stages, excerpts; no cache): "
          f"{prepare_s:.2f} s")
    older, newer = _halves(ds)
    rows = []
    default = _evaluate(ds, {})
    rows.append(["codeledger, defaults", "all", *default["row"]])
    bm25 = _bm25(ds, default["sizes"], {})
    rows.append(["bm25 (same size)", "all", *bm25["same_size"]])
    rows.append(["bm25 (same budget)", "all", *bm25["same_budget"]])
    tuned, log = _quick_tune(older)
    held_default = _evaluate(newer, {})
    held_tuned = _evaluate(newer, tuned)
    held_bm25 = _bm25(newer, held_default["sizes"], {})
    rows.append(["codeledger, defaults", "newer half", *held_default["row"]])
    rows.append(["codeledger, tuned on older", "newer half", *held_tuned["row"]])
    rows.append(["bm25 (same size)", "newer half", *held_bm25["same_size"]])
    print(format_table(["system", "tasks", "bundle R", "bundle P", "files", "R@10", "nDCG@10"],
                       rows))
    print("quick tune (coordinate ascent on the older half, objective bundle F1 + R@10): "
          + (", ".join(f"{k}={v:g}" for k, v in tuned.items()) or "defaults kept"))
    for line in log:
        print("  " + line)
    combine_ms = _combine_ms(ds)
    print(f"live combine + rank + metrics + bundles: {combine_ms:.2f} ms median over "
          f"{len(ds.queries)} tasks ({default['pairs']:,} task-file pairs)")
    return 0


def _halves(ds: Dataset) -> tuple[Dataset, Dataset]:
    ids = ds.queries.ids  # oldest first, as tasks-from-git writes them
    cut = len(ids) // 2
    return _subset(ds, ids[:cut]), _subset(ds, ids[cut:])


def _subset(ds: Dataset, ids: Sequence[str]) -> Dataset:
    qs: QuerySet = ds.queries.subset(ids)
    qrels = {q: ds.qrels[q] for q in ids} if ds.qrels else None
    return Dataset(ds.name, ds.corpus, qs, qrels, ds.source)


def _evaluate(ds: Dataset, params: dict[str, Any]) -> dict[str, Any]:
    pipe = Pipeline(get_model("codeledger"), ds, params)
    res = pipe.run(RANK_METRICS)
    m = res.means
    _, bund = full_bundles(pipe.prepared, pipe.params)
    return {"row": [f"{m['bundle_recall']:.3f}", f"{m['bundle_precision']:.3f}",
                    f"{m['bundle_files']:.1f}", f"{m['r@10']:.3f}", f"{m['ndcg@10']:.3f}"],
            "sizes": bund.size, "means": m, "pairs": res.scores.n_pairs}


def _bm25(ds: Dataset, sizes: np.ndarray, params: dict[str, Any]) -> dict[str, list[str]]:
    """BM25 over path + contents; its bundles cut at codeledger's sizes and at the budget."""
    pipe = Pipeline(get_model("bm25"), ds, params)
    res = pipe.run(RANK_METRICS, depth=max(50, int(sizes.max(initial=1))))
    tokens_budget, file_limit = budget(get_model("codeledger").schema.resolve({}))
    tokens = np.array([float(d.metadata.get("tokens", 0)) for d in ds.corpus])
    assert ds.qrels is not None
    same_r: list[float] = []
    same_p: list[float] = []
    bud_r: list[float] = []
    bud_p: list[float] = []
    bud_n: list[int] = []
    for qi, q in enumerate(ds.queries):
        ranked = [int(d) for d in res.ranking.docs[qi, : int(res.ranking.count[qi])]]
        needed = {ds.corpus.index[p] for p in ds.qrels[q.id] if p in ds.corpus.index}
        n_needed = len(ds.qrels[q.id])
        same = ranked[: int(sizes[qi])]
        spent, taken = 0.0, []
        for d in ranked[:file_limit]:
            if spent + tokens[d] > tokens_budget:
                break
            spent += tokens[d]
            taken.append(d)
        for bundle, r, p in ((same, same_r, same_p), (taken, bud_r, bud_p)):
            hits = len(needed.intersection(bundle))
            r.append(hits / n_needed)
            p.append(hits / len(bundle) if bundle else 0.0)
        bud_n.append(len(taken))
    m = res.means
    tail = [f"{m['r@10']:.3f}", f"{m['ndcg@10']:.3f}"]
    return {"same_size": [f"{np.mean(same_r):.3f}", f"{np.mean(same_p):.3f}",
                          f"{np.mean(sizes):.1f}", *tail],
            "same_budget": [f"{np.mean(bud_r):.3f}", f"{np.mean(bud_p):.3f}",
                            f"{np.mean(bud_n):.1f}", *tail]}


def _objective(means: dict[str, float]) -> float:
    r, p = means["bundle_recall"], means["bundle_precision"]
    f1 = 2 * r * p / (r + p) if r + p else 0.0
    return f1 + means["r@10"]


def _quick_tune(ds: Dataset) -> tuple[dict[str, float], list[str]]:
    """Coordinate ascent over TUNE_GRID, two passes; prepare once, combine per trial."""
    pipe = Pipeline(get_model("codeledger"), ds, {})
    best: dict[str, float] = {}
    best_score = _objective(pipe.run(RANK_METRICS).means)
    log = [f"start (defaults): objective {best_score:.3f}"]
    for _ in range(2):
        for name, values in TUNE_GRID:
            for v in values:
                pipe.update({**best, name: v})
                score = _objective(pipe.run(RANK_METRICS).means)
                if score > best_score + 1e-9:
                    best_score, best = score, {**best, name: v}
            pipe.update(best)
    log.append(f"after two passes: objective {best_score:.3f}")
    defaults = get_model("codeledger").schema.resolve({})
    return {k: v for k, v in best.items() if defaults[k] != v}, log


def _combine_ms(ds: Dataset, repeats: int = 20) -> float:
    pipe = Pipeline(get_model("codeledger"), ds, {})
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        pipe.run(RANK_METRICS)
        times.append(time.perf_counter() - t0)
    return float(np.median(times) * 1000)
