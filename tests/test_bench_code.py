"""`workbench bench --code`: runs end to end on the sample repository; its codeledger rows are
what `eval` computes for the same (newer) tasks with each model's defaults."""

from __future__ import annotations

import re
from pathlib import Path

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
    rows = {m.group(1).strip(): m.group(2).split()
            for m in re.finditer(r"^(codeledger.*?|bm25.*?)\s{2,}([0-9].*)$", out, flags=re.M)}
    assert set(rows) == {"codeledger-document (old defaults)", "codeledger (new defaults)",
                         "bm25 over source files, same files",
                         "bm25 over source files, same tokens",
                         "codeledger, tuned on the older half"}
    # BM25's bundles have codeledger's sizes: as many files, or at most as many tokens
    ours = rows["codeledger (new defaults)"]
    assert rows["bm25 over source files, same files"][5] == ours[5]
    tokens = float(rows["bm25 over source files, same tokens"][6].replace(",", ""))
    assert 0 < tokens <= float(ours[6].replace(",", ""))
    # the rows are eval's figures on the newer half
    snapshot = pick_snapshot(repo, tasks_fraction=0.4)
    tasks = tmp_path / "tasks.jsonl"
    write_tasks(tasks, mine_tasks(repo, snapshot=snapshot).tasks)
    _, newer = _halves(read_code_repo(repo, tasks=tasks))
    for model, row in (("codeledger-document", "codeledger-document (old defaults)"),
                       ("codeledger", "codeledger (new defaults)")):
        m = Pipeline(get_model(model), newer, {}).run(("r@10", "ndcg@10")).means
        assert rows[row][:2] == [f"{m['r@10']:.3f}", f"{m['ndcg@10']:.3f}"]
    assert "live combine" in out and "content index" in out
    # then every newer task at a snapshot at most 10 commits before it: the sample's 6 newer
    # tasks are one run, mined again against the parent of its first commit
    assert "(1 snapshots, 6 of 6 tasks" in rolling
    again = {m.group(1).strip(): m.group(2).split()
             for m in re.finditer(r"^(codeledger.*?|bm25.*?)\s{2,}([0-9].*)$", rolling,
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
