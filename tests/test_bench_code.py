"""`workbench bench --code`: runs end to end on the sample repository, and its default
codeledger row is what `eval` computes for the same tasks."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from benchmarks.code_selection import run_code_bench
from workbench.core.repo import build_sample_repo


def test_code_bench_on_the_sample(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo = build_sample_repo(tmp_path / "shorty")
    assert run_code_bench(str(repo), split=0.4) == 0
    out = capsys.readouterr().out
    # the same snapshot and tasks as the shipped task set (tasks-from-git --split 0.4)
    assert "snapshot 072f535af9" in out and "12 tasks from the 16 later commits" in out
    rows = {m.group(1).strip() + "|" + m.group(2).strip(): m.group(3).split()
            for m in re.finditer(r"^(\S.*?)\s{2,}(all|newer half)\s+(.*)$", out, flags=re.M)}
    assert set(rows) == {"codeledger, defaults|all", "bm25 (same size)|all",
                         "bm25 (same budget)|all", "codeledger, defaults|newer half",
                         "codeledger, tuned on older|newer half",
                         "bm25 (same size)|newer half"}
    # BM25 "same size" bundles have exactly codeledger's sizes
    assert rows["bm25 (same size)|all"][2] == rows["codeledger, defaults|all"][2]
    assert "live combine" in out
