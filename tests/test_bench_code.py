"""`workbench bench --code`: runs end to end on the sample repository; its codeledger rows are
what `eval` computes for the same (newer) tasks with each model's defaults."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from workbench.bench.code_selection import _halves, run_code_bench
from workbench.core.formats.code_repo import read_code_repo
from workbench.core.formats.code_tasks import write_tasks
from workbench.core.models import get_model
from workbench.core.pipeline import Pipeline
from workbench.core.repo import build_sample_repo
from workbench.core.repo.tasks import mine_tasks, pick_snapshot


def test_code_bench_on_the_sample(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo = build_sample_repo(tmp_path / "shorty")
    assert run_code_bench(str(repo), split=0.4, trials=5) == 0
    out, _, rolling = capsys.readouterr().out.partition(
        "each newer task at a snapshot at most 10 commits")
    # tasks-from-git --history-fraction 0.4: code-only tasks (the docs-only commit is none)
    assert "snapshot 072f535af9" in out and "11 tasks from the 16 later commits" in out
    assert "shorty: task fraction 0.4, snapshot" in out  # the fraction used (dr4 10)
    rows = {m.group(1).strip(): m.group(2).split()
            for m in re.finditer(r"^(codeledger.*?|bm25.*?|plain.*?)\s{2,}([0-9].*)$", out,
                                 flags=re.M)}
    assert set(rows) == {"codeledger-document (old defaults)", "codeledger (new defaults)",
                         "bm25 over source files, same files",
                         "bm25 over source files, same tokens",
                         "plain bm25s over source files, same tokens",
                         "codeledger, commit history unused",
                         "codeledger, tuned on the older half"}
    # BM25's bundles have codeledger's sizes: as many files, or at most as many tokens
    ours = rows["codeledger (new defaults)"]
    assert rows["bm25 over source files, same files"][5] == ours[5]
    tokens = float(rows["bm25 over source files, same tokens"][6].replace(",", ""))
    assert 0 < tokens <= float(ours[6].replace(",", ""))
    plain = rows["plain bm25s over source files, same tokens"]
    assert 0 < float(plain[6].replace(",", "")) <= float(ours[6].replace(",", ""))
    # the rows are eval's figures on the newer half
    snapshot = pick_snapshot(repo, tasks_fraction=0.4)
    tasks = tmp_path / "tasks.jsonl"
    write_tasks(tasks, mine_tasks(repo, snapshot=snapshot).tasks)
    _, newer = _halves(read_code_repo(repo, tasks=tasks))
    for model, row in (("codeledger-document", "codeledger-document (old defaults)"),
                       ("codeledger", "codeledger (new defaults)")):
        m = Pipeline(get_model(model), newer, {}).run(("r@10", "ndcg@10")).means
        assert rows[row][:2] == [f"{m['r@10']:.3f}", f"{m['ndcg@10']:.3f}"]
    # history unused: eval at the new defaults with every commit-read signal and stage off;
    # the line under the table gives the new defaults' gaps to it and to BM25
    from workbench.bench.code_selection import NO_HISTORY_PARAMS
    m = Pipeline(get_model("codeledger"), newer, NO_HISTORY_PARAMS).run(("r@10", "ndcg@10")).means
    unused = rows["codeledger, commit history unused"]
    assert unused[:2] == [f"{m['r@10']:.3f}", f"{m['ndcg@10']:.3f}"]
    gaps = re.search(r"commit history adds R@10 ([+-][0-9.]+), nDCG@10 ([+-][0-9.]+) .*"
                     r"BM25: R@10 ([+-][0-9.]+), nDCG@10 ([+-][0-9.]+); "
                     r"− plain bm25s: R@10 ([+-][0-9.]+), nDCG@10 ([+-][0-9.]+)", out)
    assert gaps is not None
    bm25 = rows["bm25 over source files, same files"]
    want = [float(ours[i]) - float(unused[i]) for i in (0, 1)] + [
        float(ours[i]) - float(bm25[i]) for i in (0, 1)] + [
        float(ours[i]) - float(plain[i]) for i in (0, 1)]
    assert [float(g) for g in gaps.groups()] == pytest.approx(want, abs=1.5e-3)
    assert float(gaps.group(2)) != 0  # the sample's history orders its files
    assert "live combine" in out and "content index" in out
    # then every newer task at a snapshot at most 10 commits before it: the sample's 6 newer
    # tasks are one run, mined again against the parent of its first commit
    assert "(1 snapshot, 6 of 6 tasks" in rolling
    again = {m.group(1).strip(): m.group(2).split()
             for m in re.finditer(r"^(codeledger.*?|bm25.*?|plain.*?)\s{2,}([0-9].*)$", rolling,
                                  flags=re.M)}
    assert set(again) == set(rows)
    commits = [str(q.context["commit"]) for q in newer.queries]
    run = mine_tasks(repo, snapshot=f"{commits[0]}^", until=commits[-1])
    # the same tasks: a commit whose files the older snapshot lacked is a task here, not there
    assert len(run.tasks) > len(commits)
    write_tasks(tasks, [t for t in run.tasks if t.commit in commits])
    m = Pipeline(get_model("codeledger"), read_code_repo(repo, tasks=tasks), {}).run(
        ("r@10", "ndcg@10")).means
    assert again["codeledger (new defaults)"][:2] == [f"{m['r@10']:.3f}", f"{m['ndcg@10']:.3f}"]


def test_code_scale_bench_on_a_small_synthetic_repository(capsys: pytest.CaptureFixture[str],
                                                          tmp_path: Path) -> None:
    """The synthetic repository holds real installed files and a seeded history that
    tasks-from-git reads; the bench prints the index, prepare and live lines."""
    from workbench.bench.code_scale import make_code_repo, run_code_scale_bench

    made = make_code_repo(tmp_path / "r", 40, 30)
    assert made == 40
    snap = pick_snapshot(tmp_path / "r", tasks_fraction=0.5)
    tasks = mine_tasks(tmp_path / "r", snapshot=snap, max_files=20).tasks
    assert len(tasks) >= 10 and all(t.task.startswith("Fix ") for t in tasks)
    assert run_code_scale_bench(40, commits=30, tasks=8) == 0
    out = capsys.readouterr().out
    assert "40 real Python files" in out and "8 tasks" in out
    assert "index (no cache)" in out and "codeledger-document" in out and "ms median" in out


def test_history_unused_reads_nothing_from_commits(tmp_path: Path) -> None:
    """`NO_HISTORY_PARAMS` leaves no trace of the commits: no hot-zone, co-change or similar
    candidate, and churn, recency, co-change and similar contribute 0 to every pair — while at
    the new defaults the sample's history does show in each."""
    from workbench.bench.code_selection import NO_HISTORY_PARAMS
    from workbench.core.models.codeledger.candidates import COCHANGE, HOT, SIMILAR
    from workbench.core.models.codeledger.params import SIGNAL_NAMES

    repo = build_sample_repo(tmp_path / "shorty")
    snapshot = pick_snapshot(repo, tasks_fraction=0.4)
    tasks = tmp_path / "tasks.jsonl"
    write_tasks(tasks, mine_tasks(repo, snapshot=snapshot).tasks)
    ds = read_code_repo(repo, tasks=tasks)
    history = [SIGNAL_NAMES.index(s) for s in ("churn", "recency", "cochange", "similar")]
    for params, seen in (({}, True), (NO_HISTORY_PARAMS, False)):
        pipe = Pipeline(get_model("codeledger"), ds, params)
        scores = pipe.run(("r@10",)).scores
        parts = scores.parts(np.arange(scores.n_pairs))
        nonzero = parts[history] != 0
        assert nonzero.any(axis=1).all() if seen else not nonzero.any()
        assert bool((pipe.prepared.stages & (HOT | SIMILAR)).any()) is seen
        assert not (pipe.prepared.stages & COCHANGE).any()  # no co-change stage at either


def test_bm25_rows_do_not_depend_on_the_corpus_order(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """BM25's tied files (all of them for a task it matches nowhere) are in random orders drawn
    from their paths, so its figures are the same with the corpus listed backwards; ranked in
    corpus order instead (the old rule), they are not."""
    from dataclasses import replace

    import workbench.bench.code_selection as bench
    from workbench.core.data import Corpus, Dataset

    repo = build_sample_repo(tmp_path / "shorty")
    mined = mine_tasks(repo, snapshot=pick_snapshot(repo, tasks_fraction=0.4)).tasks
    tasks = tmp_path / "tasks.jsonl"
    write_tasks(tasks, [replace(t, task="Minor tweaks") if i % 2 else t
                        for i, t in enumerate(mined)])
    ds = read_code_repo(repo, tasks=tasks)
    backwards = Dataset(ds.name, Corpus(list(ds.corpus)[::-1], name=ds.corpus.name),
                        ds.queries, ds.qrels, ds.source, ds.settings)

    def figures() -> list[list[float]]:
        return [[bench._bm25_source(d, Pipeline(get_model("codeledger"), d, {}))[0][m]
                 for m in bench.METRICS] for d in (ds, backwards)]

    ahead, behind = figures()
    assert ahead == pytest.approx(behind, abs=1e-12)
    monkeypatch.setattr(bench, "_path_keys", lambda docs, seed: np.arange(len(docs)))
    ahead, behind = figures()
    assert ahead != pytest.approx(behind, abs=1e-3)


def test_plain_bm25s_is_lucene_bm25_over_split_identifiers(tmp_path: Path) -> None:
    """Issue #11's baseline: identifiers split on `_`, camelCase and digits, lowercased, nothing
    dropped or stemmed; bm25s's scores equal Lucene's BM25 (k1 1.5, b 0.75) computed here, a
    file with no identifier counting as one token no task holds."""
    import math
    from collections import Counter

    from workbench.bench.code_selection import _plain_bm25s, _plain_tokens
    from workbench.core.data import Corpus, Dataset, Document, Query, QuerySet

    assert _plain_tokens("HTTPTransport.handle_request2(self) is_ok") == [
        "http", "transport", "handle", "request", "2", "self", "is", "ok"]
    texts = ["def handle_request(self):\n    return self.transport",
             "class HTTPTransport:\n    retries = 3\n    def handle(self): pass",
             "# nothing but words\nretry the request when it fails",
             "..."]
    docs = [Document(f"f{i}.py", text=t) for i, t in enumerate(texts)]
    tasks = ["Fix retries in HTTPTransport handle_request", "zzz"]
    ds = Dataset("t", Corpus(docs, name="t"),
                 QuerySet([Query(f"q{i}", t) for i, t in enumerate(tasks)], name="t"), None)
    raw = _plain_bm25s(ds)
    assert raw is not None and raw.shape == (2, 4)
    tfs = [Counter(_plain_tokens(t)) for t in texts]
    lengths = [max(1, sum(tf.values())) for tf in tfs]  # an empty file holds one stand-in
    avg = sum(lengths) / len(lengths)
    for qi, task in enumerate(tasks):
        for f, tf in enumerate(tfs):
            want = 0.0
            for t in _plain_tokens(task):
                df = sum(1 for other in tfs if t in other)
                if tf[t]:
                    idf = math.log(1 + (len(tfs) - df + 0.5) / (df + 0.5))
                    want += idf * tf[t] / (tf[t] + 1.5 * (1 - 0.75 + 0.75 * lengths[f] / avg))
            assert raw[qi, f] == pytest.approx(want, rel=1e-5)
    assert raw[0].argmax() in (0, 1) and not raw[1].any()
