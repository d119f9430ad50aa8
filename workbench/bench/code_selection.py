"""`workbench bench --code REPO`: codeledger measured on a repository's own history, against
BM25 over the source files, at the document's defaults, at the fitted defaults and tuned.

Protocol (no leakage): the snapshot is picked so that `split` of the non-merge history comes
after it; the index is built at the snapshot and each later commit the rules keep is a task
(`tasks-from-git`'s defaults: the whole message → the source and test files it changed that
existed at the snapshot). Every figure in the table is on the NEWER half of the tasks; the
tune fits on the older half only.

Systems: `codeledger-document` (CodeLedger's documented defaults), `codeledger` (defaults
fitted on development histories), `codeledger` with everything read from commits off
(`NO_HISTORY_PARAMS`: what the history carries here is its gap to the new defaults), BM25
over the source files (the content BM25 alone, docs and config files left out) with a bundle
per task of the same number of files as codeledger's, and again within the same tokens
(`_bm25_source`), plain bm25s over the source files as issue #11 measured it (identifiers
split, nothing stemmed; `_plain_bm25s`, when bm25s is installed), and `codeledger` tuned
on the older half (TPE, seeded; objective 0.5·R@10 + 0.25·nDCG@10 + 0.25·bundle recall).
Figures: R@10, nDCG@10, MRR@10, bundle recall and precision, files and tokens per bundle.
Times: the repository index, prepare (content index included) against the document's
prepare, and the live path.
"""

from __future__ import annotations

import re
import tempfile
import time
import zlib
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import optuna
from numpy.typing import NDArray

from workbench.bench.harness import time_live
from workbench.core import engine
from workbench.core.data import Dataset, Document, QuerySet
from workbench.core.formats.code_repo import read_code_repo
from workbench.core.formats.code_tasks import write_tasks
from workbench.core.metrics import evaluate, mean_over_judged
from workbench.core.models import get_model
from workbench.core.models.codeledger.content import build_content_index, task_tokens
from workbench.core.models.codeledger.excerpt import FileLines, excerpt_mask, excerpt_tokens
from workbench.core.models.codeledger.explain import full_bundles
from workbench.core.models.codeledger.prepared import SOURCE_LANGUAGES, CodeLedgerPrepared
from workbench.core.pipeline import Pipeline
from workbench.core.ranking import Scores, uniform_rows
from workbench.core.repo import index_repository
from workbench.core.repo.lang import language_of
from workbench.core.repo.tasks import mine_tasks, pick_snapshot
from workbench.core.tuning.pick import pick_trial
from workbench.textout import format_table

METRICS = ("r@10", "ndcg@10", "mrr@10")
COLUMNS = ("R@10", "nDCG@10", "MRR", "bundle R", "bundle P", "files", "tokens")
# the live parameters the quick tune moves (ranges from the schema)
TUNED = ("w_keyword", "w_content", "w_mention", "w_graph", "w_cochange", "w_centrality", "w_churn",
         "w_recent_touch", "w_test_relevance", "w_size_penalty", "w_non_code", "w_similar",
         "graph_share", "sufficiency")
TRIALS = 60
# the BM25 rows: a bundle of as many files as codeledger's, and one within the tokens it spent
SAME_FILES = "bm25 over source files, same files"
SAME_TOKENS = "bm25 over source files, same tokens"
# issue #11's own baseline: bm25s over the source files (`_plain_bm25s`), same tokens
PLAIN = "plain bm25s over source files, same tokens"
_PLAIN_IDENT = re.compile(r"[A-Za-z0-9_]+")
_PLAIN_PART = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")
# BM25's figures are means over this many random orders of its tied files (`_bm25_source`)
TIE_ORDERS = 20
# the new defaults with everything read from commits switched off: the similar-commits signal
# and stage, co-change, churn, recency and the hot zone (churn's candidates). Its gap to the
# new defaults is what the history carries on this repository
NO_HISTORY = "codeledger, commit history unused"
NO_HISTORY_PARAMS: dict[str, float | int] = {
    "w_similar": 0.0, "similar_max_candidates": 0, "w_cochange": 0.0,
    "cochange_max_candidates": 0, "w_churn": 0.0, "w_recent_touch": 0.0, "hot_zone_files": 0}


def run_code_bench(repo: str, split: float = 0.5, max_files: int = 20,
                   trials: int = TRIALS, every: int = 10) -> int:
    """The table on one snapshot, then (`every` > 0) the same systems with each newer task
    scored at a snapshot at most `every` commits before it (`_rolling`)."""
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
    older, newer = _halves(ds)
    print(f"{root.resolve().name}: task fraction {split:g}, snapshot {snapshot[:10]}, "
          f"{len(ds.corpus)} files indexed "
          f"in {index_s:.2f} s (no cache), {len(ds.queries)} tasks from the "
          f"{mined.commits} later commits (mean {np.mean([len(t.files) for t in mined.tasks]):.1f}"
          f" files each): tuned on the older {len(older.queries)}, every figure below on the "
          f"newer {len(newer.queries)}")
    prep_doc = _prepare_s(ds, "codeledger-document")
    prep_new = _prepare_s(ds, "codeledger")
    print(f"prepare, {len(ds.queries)} tasks (no cache): document {prep_doc:.2f} s, with the "
          f"content index {prep_new:.2f} s ({prep_new / prep_doc:.1f}×); index + prepare "
          f"{(index_s + prep_new) / (index_s + prep_doc):.1f}× the document's")
    document = _measure(Pipeline(get_model("codeledger-document"), newer, {}))
    fitted_pipe = Pipeline(get_model("codeledger"), newer, {})
    fitted = _measure(fitted_pipe)
    bm25, bm25_tokens = _bm25_source(newer, fitted_pipe)
    plain_raw = _plain_bm25s(newer)
    plain = None if plain_raw is None else _bm25_rows(newer, fitted_pipe, plain_raw)[1]
    tuned_params, start, best = _tune(older, trials)
    tuned = _measure(Pipeline(get_model("codeledger"), newer, tuned_params))
    no_history = _measure(Pipeline(get_model("codeledger"), newer, NO_HISTORY_PARAMS))
    rows = [["codeledger-document (old defaults)", *_cells(document)],
            ["codeledger (new defaults)", *_cells(fitted)],
            [NO_HISTORY, *_cells(no_history)],
            [SAME_FILES, *_cells(bm25)],
            [SAME_TOKENS, *_cells(bm25_tokens)],
            *([[PLAIN, *_cells(plain)]] if plain else []),
            ["codeledger, tuned on the older half", *_cells(tuned)]]
    print(format_table(["system (newer half)", *COLUMNS], rows))
    if plain is None:
        print(f"{PLAIN}: left out (bm25s is not installed; it comes with the dev extra)")
    print(_history_line(fitted, no_history, bm25, plain))
    print(f"tune: {trials} TPE trials on the older half, objective 0.5·R@10 + 0.25·nDCG@10 + "
          f"0.25·bundle R, the surest gain kept (`tune`'s pick): {start:.3f} at the defaults "
          f"→ {best:.3f}; "
          + (", ".join(f"{k}={v:.3g}" for k, v in tuned_params.items()) or "defaults kept"))
    ms, pairs = _live_ms(fitted_pipe)
    print(f"live combine + rank + metrics + bundles: {ms:.2f} ms median over "
          f"{len(newer.queries)} tasks ({pairs:,} task-file pairs)")
    if every > 0:
        _rolling(root, newer, every, max_files, tuned_params)
    return 0


def _rolling(root: Path, newer: Dataset, every: int, max_files: int,
             tuned: dict[str, float]) -> None:
    """The newer tasks in runs of `every` consecutive commits, each run's tasks mined again
    against the parent of its first commit and scored on an index built there: a task's
    churn, recency and co-change are at most `every` commits old, as when a person asks
    while working (the table above indexes once, half the history before its last task).
    Means over all tasks, each run weighted by its tasks."""
    from workbench.core.repo import GitError
    from workbench.core.repo.tasks import commit_of

    commits = [str(q.context.get("commit", "")) for q in newer.queries]
    systems = {"codeledger-document (old defaults)": ("codeledger-document", {}),
               "codeledger (new defaults)": ("codeledger", {}),
               NO_HISTORY: ("codeledger", NO_HISTORY_PARAMS),
               "codeledger, tuned on the older half": ("codeledger", tuned)}
    sums: dict[str, dict[str, float]] = {}
    scored = runs = 0
    t0 = time.perf_counter()
    for lo in range(0, len(commits), every):
        run = [c for c in commits[lo:lo + every] if c]
        try:
            parent = commit_of(root, f"{run[0]}^") if run else ""
            mined = mine_tasks(root, snapshot=parent, until=run[-1], max_files=max_files)
        except (GitError, ValueError):  # a root commit, or a run across unmerged branches
            continue
        kept = [t for t in mined.tasks if t.commit in set(run)]
        if not kept:
            continue
        with tempfile.TemporaryDirectory() as tmp:
            tasks = Path(tmp) / "tasks.jsonl"
            write_tasks(tasks, kept)
            ds = read_code_repo(root, tasks=tasks)
        figures = {}
        for label, (model, params) in systems.items():
            pipe = Pipeline(get_model(model), ds, params)
            figures[label] = _measure(pipe)
            if label == "codeledger (new defaults)":
                figures[SAME_FILES], figures[SAME_TOKENS] = _bm25_source(ds, pipe)
                plain_raw = _plain_bm25s(ds)
                if plain_raw is not None:
                    figures[PLAIN] = _bm25_rows(ds, pipe, plain_raw)[1]
        for label, m in figures.items():
            row = sums.setdefault(label, dict.fromkeys(m, 0.0))
            for k, v in m.items():
                row[k] += v * len(kept)
        scored += len(kept)
        runs += 1
    if not scored:
        print(f"snapshots every {every} commits: no run could be mined")
        return
    order = ["codeledger-document (old defaults)", "codeledger (new defaults)", NO_HISTORY,
             SAME_FILES, SAME_TOKENS, PLAIN, "codeledger, tuned on the older half"]
    order = [label for label in order if label in sums]
    means = {label: {k: v / scored for k, v in sums[label].items()} for label in order}
    rows = [[label, *_cells(means[label])] for label in order]
    snapshots = f"{runs} snapshot{'s' if runs != 1 else ''}"
    print(f"\neach newer task at a snapshot at most {every} commits before it ({snapshots}, "
          f"{scored} of {len(commits)} tasks, {time.perf_counter() - t0:.0f} s):")
    print(format_table(["system (newer half)", *COLUMNS], rows))
    print(_history_line(means["codeledger (new defaults)"], means[NO_HISTORY],
                        means[SAME_FILES], means.get(PLAIN)))


def _history_line(fitted: dict[str, float], no_history: dict[str, float],
                  bm25: dict[str, float], plain: dict[str, float] | None = None) -> str:
    """What the commit history adds (new defaults against history unused), and how far the new
    defaults are above BM25 (and plain bm25s, when measured), in R@10 and nDCG@10."""
    def gap(other: dict[str, float]) -> str:
        # rounded first, so that 1 − 1.0000000001 prints as +0.000, not -0.000
        r, nd = (round(fitted[m] - other[m], 3) + 0.0 for m in ("r@10", "ndcg@10"))
        return f"R@10 {r:+.3f}, nDCG@10 {nd:+.3f}"

    return (f"commit history adds {gap(no_history)} (new defaults − history unused); "
            f"new defaults − BM25: {gap(bm25)}"
            + (f"; − plain bm25s: {gap(plain)}" if plain else ""))


def _halves(ds: Dataset) -> tuple[Dataset, Dataset]:
    ids = ds.queries.ids  # oldest first, as tasks-from-git writes them
    cut = len(ids) // 2
    return _subset(ds, ids[:cut]), _subset(ds, ids[cut:])


def _subset(ds: Dataset, ids: Sequence[str]) -> Dataset:
    qs: QuerySet = ds.queries.subset(ids)
    qrels = {q: ds.qrels[q] for q in ids} if ds.qrels else None
    return Dataset(ds.name, ds.corpus, qs, qrels, ds.source, ds.settings)


def _prepare_s(ds: Dataset, model_id: str, repeats: int = 2) -> float:
    """Seconds to prepare without the cache, the best of `repeats` (the first run also fills
    the tokenizers' memo tables)."""
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        Pipeline(get_model(model_id), ds, {}, use_cache=False)
        times.append(time.perf_counter() - t0)
    return min(times)


def _measure(pipe: Pipeline) -> dict[str, float]:
    m = pipe.run(METRICS).means
    return {k: float(m[k]) for k in (*METRICS, "bundle_recall", "bundle_precision",
                                     "bundle_files", "bundle_tokens")}


def _cells(m: dict[str, float]) -> list[str]:
    return [*(f"{m[k]:.3f}" for k in (*METRICS, "bundle_recall", "bundle_precision")),
            f"{m['bundle_files']:.1f}", f"{m['bundle_tokens']:,.0f}"]


def _objective(m: dict[str, float]) -> float:
    return 0.5 * m["r@10"] + 0.25 * m["ndcg@10"] + 0.25 * m["bundle_recall"]


def _tune(ds: Dataset, trials: int) -> tuple[dict[str, float], float, float]:
    """TPE over `TUNED` on `ds`, starting at the defaults, the trial kept as `tune` keeps it
    (the surest gain, `pick`): the values that moved ({} when the defaults are kept), the
    objective at the defaults and at the kept trial."""
    pipe = Pipeline(get_model("codeledger"), ds, {})
    schema = pipe.model.schema
    defaults = schema.defaults()
    per_task: dict[int, NDArray[np.float64]] = {}

    def objective(trial: optuna.Trial) -> float:
        pipe.update({**defaults, **{n: trial.suggest_float(n, float(schema[n].low or 0.0),
                                                            float(schema[n].high or 1.0))
                                    for n in TUNED}})
        q = pipe.run(METRICS).per_query
        per_task[trial.number] = (0.5 * q["r@10"] + 0.25 * q["ndcg@10"]
                                  + 0.25 * q["bundle_recall"])
        return float(np.nanmean(per_task[trial.number]))

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study = optuna.create_study(direction="maximize",
                                sampler=optuna.samplers.TPESampler(seed=1))
    study.enqueue_trial({n: defaults[n] for n in TUNED})
    study.optimize(objective, n_trials=trials)
    start = float(study.trials[0].value or 0.0)
    ranked = sorted(study.trials, key=lambda t: (-(t.value or 0.0), t.number))
    kept = pick_trial(ranked, "bound", lambda t: per_task[t.number], per_task[0], 1.0,
                      True).trial
    if kept is None:
        return {}, start, start
    return ({n: float(v) for n, v in kept.params.items() if v != defaults[n]}, start,
            float(kept.value or 0.0))


def _bm25_source(ds: Dataset, fitted: Pipeline) -> tuple[dict[str, float], dict[str, float]]:
    """The content BM25 alone over the source files (the model's tokenizer and path field at
    its defaults), with two bundles per task: the same number of files as `fitted`'s bundle,
    and the same tokens — BM25's files in rank order, each costing what codeledger charges
    (excerpt tokens for a long file, `_cost`), a file that does not fit skipped, within the
    tokens `fitted`'s bundle spent. Skipping rather than stopping favours BM25.

    Files of equal BM25 — above all the many a vague task ("Minor tweaks") matches not at all
    — are in no meaningful order, and the corpus order (by path) is a prior of its own (on ky
    `source/` sorts before `test/` and its first files are its most changed). So each figure
    is the mean over `TIE_ORDERS` seeded random orders of the tied files, each drawn from the
    paths alone (so the figures do not depend on where a file is in the corpus)."""
    p = fitted.params
    docs = list(ds.corpus)
    ix = build_content_index([d.id for d in docs], [d.text for d in docs],
                             k1=float(p["content_k1"]), b=float(p["content_b"]),
                             path_weight=float(p["path_weight"]))
    return _bm25_rows(ds, fitted, ix.scores([task_tokens(q.text) for q in ds.queries]))


def _plain_bm25s(ds: Dataset) -> NDArray[np.float64] | None:
    """float64 (Q, N): plain BM25 as issue #11 measured it — bm25s at its defaults (Lucene's
    variant, k1 1.5, b 0.75) over each file's content, identifiers split (`_plain_tokens`: no
    stemming, no stop words, no path field), the task's whole message as the query. None when
    bm25s is not installed (it is a dev dependency)."""
    try:
        import bm25s
    except ImportError:
        return None
    docs = list(ds.corpus)
    index = bm25s.BM25()
    # a file with no identifier gets one token no task has, so bm25s keeps every row
    index.index([_plain_tokens(d.text) or ["\0"] for d in docs], show_progress=False)
    return np.stack([np.asarray(index.get_scores(_plain_tokens(q.text)), np.float64)
                     for q in ds.queries]).reshape(len(ds.queries), len(docs))


def _plain_tokens(text: str) -> list[str]:
    """Identifiers split on `_`, camelCase and digits, lowercased; nothing dropped or stemmed."""
    return [part.lower() for ident in _PLAIN_IDENT.findall(text) for piece in ident.split("_")
            for part in _PLAIN_PART.findall(piece)]


def _bm25_rows(ds: Dataset, fitted: Pipeline, raw: NDArray[np.float64]
               ) -> tuple[dict[str, float], dict[str, float]]:
    """`_bm25_source`'s figures for BM25 scores `raw` (Q, N) of every task and file."""
    docs = list(ds.corpus)
    source = np.array([language_of(d.id) in SOURCE_LANGUAGES for d in docs])
    judgments = fitted.judgments
    assert judgments is not None and ds.qrels is not None
    _, bund = full_bundles(fitted.prepared, fitted.params)
    cost = _Costs(fitted.prepared, docs)
    n_q, n = raw.shape
    sums: list[dict[str, float]] = [{}, {}]
    for seed in range(TIE_ORDERS):
        # the files in a random order that depends on their paths only, not on where they
        # are in the corpus: the ranking's stable tie order follows it
        order = np.argsort(_path_keys(docs, seed), kind="stable").astype(np.int32)
        total = raw[:, order].ravel()
        scores = Scores(row_ptr=uniform_rows(n_q, n), docs=np.tile(order, n_q), total=total,
                        gate=np.tile(~source[order], n_q).astype(np.int8), signals=("bm25",),
                        parts=_parts_of(total))
        ranking = engine.rank(scores, n)
        per = evaluate(METRICS, ranking.docs, judgments)
        out = {m: float(mean_over_judged(v, judgments)) for m, v in per.items()}
        by_files: list[list[int]] = []
        by_tokens: list[list[int]] = []
        for qi in range(n_q):
            ranked = [int(d) for d in ranking.docs[qi, : int(ranking.count[qi])]]
            by_files.append(ranked[: int(bund.size[qi])])
            left = float(bund.tokens[qi])
            take = []
            for f in ranked:
                c = cost(qi, f)
                if c <= left:
                    take.append(f)
                    left -= c
            by_tokens.append(take)
        for acc, bundles in zip(sums, (by_files, by_tokens), strict=True):
            for k, v in {**out, **_bundle_figures(ds, bundles, cost)}.items():
                acc[k] = acc.get(k, 0.0) + v / TIE_ORDERS
    return sums[0], sums[1]


def _path_keys(docs: Sequence[Document], seed: int) -> NDArray[np.uint32]:
    return np.array([zlib.crc32(f"{seed}:{d.id}".encode()) for d in docs], np.uint32)


def _parts_of(total: NDArray[np.float64]) -> Callable[[NDArray[np.intp]], NDArray[np.float64]]:
    def parts(pairs: NDArray[np.intp]) -> NDArray[np.float64]:
        out: NDArray[np.float64] = total[pairs][None, :]
        return out

    return parts


class _Costs:
    """The tokens codeledger charges a bundle for file f on task q: the pair's cost when f is
    a candidate, else the same rule (the excerpt of a file over the threshold, on the task's
    informative terms)."""

    def __init__(self, prep: CodeLedgerPrepared, docs: Sequence[Document]) -> None:
        self.prep = prep
        self.docs = docs
        self.lines: dict[int, FileLines] = {}

    def __call__(self, q: int, f: int) -> float:
        prep = self.prep
        at = prep.pair_of(q, f)
        if at is not None:
            return float(prep.cost[at])
        n_lines, tokens = int(prep.files.lines[f]), float(prep.files.tokens[f])
        if n_lines <= prep.excerpt_threshold:
            return tokens
        lines = self.lines.get(f)
        if lines is None:
            lines = self.lines[f] = FileLines(self.docs[f].text)
        keys = [k for k, df in zip(prep.terms[q], prep.term_df[q], strict=True) if df > 0]
        return excerpt_tokens(int(excerpt_mask(lines, keys, prep.excerpt_window).sum()),
                              tokens, n_lines)


def _bundle_figures(ds: Dataset, bundles: Sequence[Sequence[int]],
                    cost: _Costs) -> dict[str, float]:
    """Bundle recall, precision, files and tokens, means over the tasks."""
    assert ds.qrels is not None
    rec: list[float] = []
    prec: list[float] = []
    spent: list[float] = []
    for qi, (q, take) in enumerate(zip(ds.queries, bundles, strict=True)):
        needed = {ds.corpus.index[x] for x in ds.qrels[q.id] if x in ds.corpus.index}
        hits = len(needed.intersection(take))
        rec.append(hits / max(1, len(ds.qrels[q.id])))
        prec.append(hits / len(take) if take else 0.0)
        spent.append(sum(cost(qi, f) for f in take))
    return {"bundle_recall": float(np.mean(rec)), "bundle_precision": float(np.mean(prec)),
            "bundle_files": float(np.mean([len(t) for t in bundles])),
            "bundle_tokens": float(np.mean(spent))}


def _live_ms(pipe: Pipeline, repeats: int = 100) -> tuple[float, int]:
    """Median ms of the live path as `workbench bench` times it (`time_live`: a weight
    wiggled between ticks, the last ranking as the top-k hint), and the pairs a tick scores."""
    ms = time_live(pipe, repeats, METRICS)
    return ms, int(pipe.run(METRICS).scores.n_pairs)
