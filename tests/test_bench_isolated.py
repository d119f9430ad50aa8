"""The timed child's memory cap: prepare's refusal there names the bench's own cap (it said
"6.0 GB is available" on a machine with 23 GB free), and the user's $WORKBENCH_MEMORY_LIMIT
is the cap when set (it lifted prepare's estimate only; the hard cap stayed at 6 GB)."""

from __future__ import annotations

import json
import subprocess
from typing import Any

import pytest

from workbench.bench import isolated
from workbench.core.engine import MEMORY_LIMIT_ENV


def test_a_refusal_in_the_child_names_the_benchs_cap_not_the_machines_memory() -> None:
    said = ("hybrid on c100k (1,000 queries × 100,000 documents, 9 BM25 matches) needs about "
            "9.0 GiB of memory and 6.0 GiB is available; not prepared. Use fewer queries")
    out = isolated.over_cap(said, {"memory_cap_mb": 6144})
    assert out.startswith("hybrid on c100k (1,000 queries × 100,000 documents, 9 BM25 "
                          "matches) needs about 9.0 GiB, over the bench's own 6.0 GiB cap")
    assert "is available" not in out and f"${MEMORY_LIMIT_ENV}=SIZE sets" in out
    assert isolated.over_cap(said, {"memory_cap_mb": 20480, "users_cap": True}) == said


def test_the_users_limit_is_the_childs_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    sent: list[dict[str, Any]] = []

    def fake_run(argv: list[str], **kwargs: Any) -> subprocess.CompletedProcess[str]:
        # NOT the child: what it was asked and under which limit, answered at once
        sent.append({**json.loads(argv[-1]), "env": kwargs["env"][MEMORY_LIMIT_ENV]})
        return subprocess.CompletedProcess(argv, 0, json.dumps({"live_ms": 1.0}), "")

    monkeypatch.setattr(isolated.subprocess, "run", fake_run)
    monkeypatch.delenv(MEMORY_LIMIT_ENV, raising=False)
    isolated.run_isolated({"data": None}, "bm25", {}, repeats=1)
    monkeypatch.setenv(MEMORY_LIMIT_ENV, "20G")
    isolated.run_isolated({"data": None}, "bm25", {}, repeats=1)
    assert [(r["memory_cap_mb"], r["users_cap"], r["env"]) for r in sent] == [
        (isolated.MEMORY_CAP_MB, False, f"{isolated.MEMORY_CAP_MB}M"),
        (20480, True, "20G")]
