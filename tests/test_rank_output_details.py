"""rank and explain as a script and a newcomer read them: decision-memory's whole-number
scores shown whole (54, not 54.0000, as explain and why print them), and the JSON output
naming the query it answers (review rv2, 13 and 14)."""

from __future__ import annotations

import json
import re

import pytest

from tests.conftest import SAMPLES
from workbench.cli import main


def test_whole_scores_are_shown_whole(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rank", str(SAMPLES / "decisions"), "-m", "decision-memory", "--query-id",
                 "turn-60", "--top", "3"]) == 0
    out = capsys.readouterr().out
    # explain gives this decision's score as 54 (score 54 = lexical 47.5 + locality 6 + …)
    assert main(["explain", str(SAMPLES / "decisions"), "-m", "decision-memory",
                 "--query-id", "turn-60", "--top", "1"]) == 0
    assert "score 54 " in capsys.readouterr().out
    assert re.search(r"qm-100\s+Heading anchors get a hover link\s+54\s", out), out
    assert "54.0000" not in out
    # a model whose scores are not whole keeps about four significant digits, as the window
    # shows them (rv2 3: 2.343, not 2.3426)
    assert main(["rank", str(SAMPLES / "tea-beir"), "-m", "bm25", "--query-id", "q01",
                 "--top", "2"]) == 0
    assert re.search(r"d030\s+From Leaf to Cup: The Basic Steps\s+\d\.\d{3}\s",
                     capsys.readouterr().out)


@pytest.mark.parametrize("command", ["rank", "explain"])
def test_json_names_the_query(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([command, str(SAMPLES / "tea-beir"), "-m", "bm25", "--query-id", "q03",
                 "--format", "json", "--top", "1"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["query_id"] == "q03" and out["query"].startswith("Why is gyokuro")
