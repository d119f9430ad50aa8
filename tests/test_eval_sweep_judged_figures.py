"""eval and sweep count the injection figures (results, empty, injected_tokens) over the same
queries: the judged ones that are turns (`counted.figure_queries`), as tune and compare count
them. An eval case with neither expected_top_ids nor must_not_include is judged by nothing:
eval left it out, sweep had counted it (rv52 3: 1.75 results, 25 % empty and 4.0 tokens in
sweep beside eval's 2.00, 0 % and 4.5 at the same settings)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from workbench.cli import main

NOW = "2026-03-10T12:00:00.000Z"
# by hand, from the cases below: each decision's snippet is "PgBouncer", 9 characters, and
# every title matches "connection pooling", so a case injects its topK of them: j1 3 results,
# ⌊27 / 4 + 0.5⌋ = 7 tokens; j2 1 result, ⌊9 / 4 + 0.5⌋ = 2 tokens. Over the two judged cases:
# 2.00 results, 0 % empty, 4.5 tokens (over all four, the unjudged u1's 3 and 7 and u2's
# "zebra", which matches nothing, with them: 1.75, 25 %, 4.0)
JUDGED = {"results": "2.00", "empty": "0.0", "injected_tokens": "4.5"}


def _cases(tmp_path: Path) -> Path:
    """Four pi-lodestone eval cases over the same six decisions, two of them judged."""
    corpus = [{"id": f"d{i}", "title": f"Connection pooling choice {i}", "text": "PgBouncer",
               "tags": ["decision"], "cwd": "/repos/app", "project": "app",
               "source": "manual", "important": False, "archived": False,
               "createdAt": f"2026-03-0{i + 1}T00:00:00.000Z", "retrievalCount": 0,
               "injectionCount": 0} for i in range(6)]
    cases = [("j1", "connection pooling", 3, ["d0"]), ("j2", "connection pooling", 1, ["d1"]),
             ("u1", "connection pooling", 3, []), ("u2", "zebra", 3, [])]
    path = tmp_path / "eval.jsonl"
    path.write_text("".join(json.dumps({
        "name": name, "query": text, "cwd": "/repos/app", "forInjection": True, "now": NOW,
        "topK": k, "projectOnly": True, "corpus": corpus, "expected_top_ids": expected}) + "\n"
        for name, text, k, expected in cases))
    return path


def _rows(out: str, names: tuple[str, ...]) -> dict[str, list[str]]:
    """The table rows whose first cell is one of `names`: their cells."""
    return {cells[0]: cells[1:] for cells in (line.split() for line in out.splitlines())
            if cells and cells[0] in names}


def test_eval_and_sweep_count_the_same_judged_queries(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = _cases(tmp_path)
    metrics = "ndcg@10,results,empty,injected_tokens"
    assert main(["eval", str(data), "-m", "decision-memory", "--metrics", metrics]) == 0
    out = capsys.readouterr().out
    assert {k: v[0] for k, v in _rows(out, tuple(JUDGED)).items()} == JUDGED
    assert ("(results = results per case, empty = % of cases returning nothing, "
            "injected_tokens = tokens injected per case; means over the 2 judged cases)"
            ) in " ".join(out.split())
    # the value in use among those swept: the same settings as eval's
    assert main(["sweep", str(data), "-m", "decision-memory", "-s", "inject_limit",
                 "--values", "3,5", "--metrics", metrics]) == 0
    out = capsys.readouterr().out
    rows = _rows(out, ("3", "5"))
    assert rows["3"][1:4] == list(JUDGED.values()), out
    assert ("(results = results per case, empty = % of cases returning nothing, "
            "injected_tokens = tokens injected per case; means over the 2 judged cases)"
            ) in " ".join(out.split())
    # the figures alone: the same
    assert main(["sweep", str(data), "-m", "decision-memory", "-s", "inject_limit",
                 "--values", "3", "--metrics", "results,empty,injected_tokens"]) == 0
    out = capsys.readouterr().out
    assert _rows(out, ("3",))["3"][:3] == list(JUDGED.values()), out
    assert "the mean over the 2 judged cases:" in " ".join(out.split())
