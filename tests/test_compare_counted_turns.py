"""compare and report average the injection figures (results, empty, injected_tokens) over the
turns eval, sweep and why-stats --live count: a manual search beside injections and a disabled
project's turn are left out, said once (dr5 2: compare said injected_tokens 45.1 where eval
says 35.7 for the same settings)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from tests.test_eval_sweep_counted_turns import COUNTED, _folder, _rows
from workbench.cli import main

SEARCH = "1 manual search left out: a search injects nothing (the figures are of the injections)"
DISABLED = ("1 query from a disabled project (settings.json) not counted: pi-lodestone logs "
            "nothing for it")


def _args(tmp_path: Path) -> list[str]:
    folder = _folder(tmp_path)
    return [str(folder), "--queries", str(tmp_path / "q.jsonl"), "-m", "decision-memory",
            "--defaults", "-p", "inject_limit=2", "--metrics", "results,empty,injected_tokens",
            "--movers", "0"]


def test_compare_counts_the_injections_only(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", *_args(tmp_path)]) == 0
    out = capsys.readouterr().out
    rows = _rows(out, tuple(COUNTED))
    # the defaults as eval gives them; inject_limit=2 by hand: 2 results, 0 %, ⌊18/4+0.5⌋ = 5
    assert {k: v[0] for k, v in rows.items()} == COUNTED
    assert {k: v[1] for k, v in rows.items()} == {"results": "2.00", "empty": "0.0",
                                                  "injected_tokens": "5.0"}
    flat = " ".join(out.split())
    assert flat.count(SEARCH) == 1 and flat.count(DISABLED) == 1
    assert "mean over all 3 of the 5 queries" not in flat
    assert "mean over the 3 of the 5 queries counted (see the notes)" in flat
    # the tokens estimated in eval's words
    assert ("estimated as pi-lodestone does: each injected snippet's characters, whitespace "
            "collapsed, cut to 180 characters (inject_snippet_chars; 220, search_snippet_chars, "
            "for a search) around the query's terms, each cut end marked '…', / 4") in flat


def test_report_counts_the_injections_only(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r.md"
    assert main(["report", *_args(tmp_path), "-o", str(out)]) == 0
    text = " ".join(out.read_text().split())
    assert "| injected_tokens | 7.0 | 5.0 |" in text
    assert "| results | 3.00 | 2.00 |" in text
    assert text.count(SEARCH) == 1 and text.count(DISABLED) == 1
