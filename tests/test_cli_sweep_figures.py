"""`sweep` over what a selection returns (results, empty, injected_tokens): the figures a user
without judgments tunes a min score or a limit by. Expected values are counted by hand from
the notes written here, not read from the code."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workbench.cli import main


def _vault(tmp_path: Path) -> Path:
    """Three notes, two with "apple"; queries "apple" (two matches) and "zzz" (none); no
    judgments."""
    notes = tmp_path / "vault" / "notes"
    notes.mkdir(parents=True)
    (notes / "a.md").write_text("apple banana pie\n", encoding="utf-8")  # 16 characters
    (notes / "b.md").write_text("apple   cherry\ntart\n", encoding="utf-8")  # 17, collapsed
    (notes / "c.md").write_text("durian\n", encoding="utf-8")
    (tmp_path / "vault" / "queries.jsonl").write_text(
        '{"_id": "q1", "text": "apple"}\n{"_id": "q2", "text": "zzz"}\n', encoding="utf-8")
    return tmp_path / "vault"


def test_sweep_without_judgments_shows_what_each_limit_returns(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_file = tmp_path / "s.json"
    assert main(["sweep", str(_vault(tmp_path)), "-m", "vault-search", "-s", "limit",
                 "--values", "0,1,5", "--out", str(out_file)]) == 0
    out = capsys.readouterr().out
    points = {p["limit"]: p for p in json.loads(out_file.read_text())["points"]}
    # limit 0 is no limit: "apple" returns its 2 notes, "zzz" none → 1 result a query
    assert points[0]["results"] == 1.0 and points[5]["results"] == 1.0
    assert points[1]["results"] == 0.5
    assert all(p["empty"] == 50.0 for p in points.values())  # "zzz" returns nothing
    # tokens: ⌊(16 + 17) / 4 + ½⌋ = 8 for "apple", 0 for "zzz"; one note at limit 1: 4
    assert points[0]["injected_tokens"] == 4.0 and points[1]["injected_tokens"] == 2.0
    # no best: these are how much is returned, not how well
    assert json.loads(out_file.read_text())["best"] == []
    assert "best by" not in out and "no best is marked" in out
    assert "% of queries returning nothing" in out


def test_sweep_without_judgments_names_the_figures_for_a_quality_metric(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sweep", str(_vault(tmp_path)), "-m", "vault-search", "-s", "limit",
                 "--metrics", "ndcg@10"]) == 2
    err = capsys.readouterr().err
    assert "no judgments to sweep against" in err
    assert "--metrics results,empty,injected_tokens" in err


def test_sweep_with_judgments_keeps_the_best_by_the_quality_metric(
        capsys: pytest.CaptureFixture[str]) -> None:
    vault = Path(__file__).resolve().parents[1] / "sample_corpora" / "vault"
    assert main(["sweep", str(vault), "-m", "vault-search", "-s", "limit",
                 "--values", "1,3", "--metrics", "results,ndcg@10"]) == 0
    out = capsys.readouterr().out
    assert "best by ndcg@10" in out  # the figure, though first, is better neither way
    header = next(line for line in out.splitlines() if line.startswith("limit"))
    assert header.split()[:3] == ["limit", "ndcg@10", "results"]


def test_the_figure_table_names_every_column(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The column marking the value in use had a rule over no heading; with the value in use
    not swept it was a rule over nothing (reviewer e, F7)."""
    folder = _vault(tmp_path)
    assert main(["sweep", str(folder), "-m", "vault-search", "-s", "limit",
                 "--values", "0,1"]) == 0  # the default limit is 0 (all): marked
    lines = capsys.readouterr().out.splitlines()
    header, rule = lines[1], lines[2]
    assert header.split() == ["limit", "results", "empty", "injected_tokens", "in", "use"]
    assert len(rule.split()) == 5  # one rule per heading (in use is one)
    assert lines[3].split()[0] == "0" and lines[3].endswith("←")
    assert not lines[4].endswith("←")
    assert main(["sweep", str(folder), "-m", "vault-search", "-s", "limit",
                 "--values", "1,2"]) == 0  # the value in use not among them: no column
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].split() == ["limit", "results", "empty", "injected_tokens"]
    assert len(lines[2].split()) == 4 and lines[2] == lines[2].rstrip()
