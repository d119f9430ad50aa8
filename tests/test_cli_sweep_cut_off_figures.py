"""A sweep of a cut-off (a min score or limit) with judgments shows what each value returns
beside the metrics, results and empty, and says its best is a trade-off with them (rv 8: the
cut-off's sweep had no results or empty columns, the trade-off said with nothing to read it
by)."""

from __future__ import annotations

import pytest

from tests.conftest import SAMPLES
from workbench.cli import main


def _table(out: str) -> tuple[list[str], dict[str, list[str]]]:
    lines = out.splitlines()
    head = lines.index(next(line for line in lines if line.startswith("---"))) - 1
    rows = {}
    for line in lines[head + 2:]:
        if not line[:1].isspace() and not line[:1].isdigit():
            break
        cells = line.split()
        rows[cells[0]] = cells[1:]
    return lines[head].split(), rows


def test_a_min_score_sweep_shows_results_and_empty(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sweep", str(SAMPLES / "decisions-eval"), "-m", "decision-memory", "-s",
                 "inject_min_score", "--values", "0,8", "-p", "mode=injection"]) == 0
    out = capsys.readouterr().out
    header, rows = _table(out)
    assert header[:7] == ["inject_min_score", "cases", "ndcg@10", "mrr@10", "r@100", "results",
                          "empty"]
    # at 0 every one of the 30 cases injects its candidates; at 8 six inject nothing (20.0 %),
    # the figures `eval --metrics results,empty -p inject_min_score=8` gives
    assert rows["8"][4:6] == ["1.10", "20.0"]
    assert rows["0"][5] == "0.0"
    said = " ".join(out.split())
    assert ("(results = results per case, empty = % of cases returning nothing; means over the "
            "30 judged cases)") in said  # dC 5: one line, the data's noun throughout
    assert ("note: inject_min_score is a cut-off, not a quality setting: it decides how much is "
            "returned (the results and empty columns), so its best is a trade-off with that, "
            "not a better ranking") in said


def test_a_weight_sweep_shows_none(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sweep", str(SAMPLES / "vault"), "-m", "vault-search", "-s", "w_tf",
                 "--values", "0.2,0.4"]) == 0
    header, _ = _table(capsys.readouterr().out)
    assert "results" not in header and "empty" not in header
