"""sweep writes a value as every other command does (rm 9): a switch as true or false, not
Python's False and True; OpenVault's queries as the chat moments eval, tune and compare call
them; and hybrid's vector_threshold 0, which OpenVault reads as unset (`threshold || 0.5`),
marked as the 0.5 it scores as, not a row that equals the 0.5 row with nothing to say why."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import SAMPLES
from workbench.cli import main


def _rows(out: str) -> dict[str, list[str]]:
    """The table's rows (those under the dashes, up to the first blank-free prose line), by
    their first cell as printed (which may hold spaces: '0.0 (= 0.5)')."""
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("---"))
    rows: dict[str, list[str]] = {}
    for line in lines[start + 1:]:
        if ":" in line or line.startswith(("(", " ")):
            break
        first, _, rest = line.partition("  ")
        rows[first.strip()] = rest.split()
    return rows


def test_a_switch_swept_reads_true_and_false(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_csv = tmp_path / "prefilter.csv"
    assert main(["sweep", str(SAMPLES / "memories"), "-m", "importance", "-s", "prefilter",
                 "--out", str(out_csv)]) == 0
    out = capsys.readouterr().out
    assert list(_rows(out)) == ["false", "true"], out
    assert "False" not in out and "True" not in out
    assert [line.split(",")[0] for line in out_csv.read_text().splitlines()] == [
        "prefilter", "false", "true"]


def test_openvault_threshold_zero_is_marked_and_chat_moments_named(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sweep", str(SAMPLES / "story"), "-m", "hybrid", "-s", "vector_threshold",
                 "--values", "0,0.5,0.7"]) == 0
    out = capsys.readouterr().out
    rows = _rows(out)
    assert list(rows) == ["0.0 (= 0.5)", "0.5", "0.7"], out
    # OpenVault's `threshold || 0.5`: the 0 row scores exactly as the 0.5 row
    assert rows["0.0 (= 0.5)"][:3] == rows["0.5"][:3]
    said = " ".join(out.split())
    # the story sample's 26 chat moments (its contexts.jsonl), every one judged
    assert "these same 26 judged chat moments" in said, out
    assert "judged queries" not in said


def test_the_best_against_the_value_in_use_names_chat_moments(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sweep", str(SAMPLES / "story"), "-m", "hybrid", "-s", "vector_threshold",
                 "--values", "0.5,0.7", "-p", "vector_threshold=0.7"]) == 0
    said = " ".join(capsys.readouterr().out.split())
    # no p-value for a best picked on these same queries (rB 4, 531ef52)
    assert "over 26 judged chat moments; no p-value" in said, said
    assert "picked on these same chat moments" in said
    assert "judged queries" not in said


def test_the_best_line_marks_zero_and_the_caveat_holds_chat_moments_out(
        capsys: pytest.CaptureFixture[str]) -> None:
    """dr4 9: the tie of 0 with 0.5 is written as the table writes the 0 row, and tune is
    said to hold chat moments (the data's noun) out, not queries."""
    assert main(["sweep", str(SAMPLES / "story"), "-m", "hybrid", "-s", "vector_threshold",
                 "--values", "0,0.3,0.5,0.8"]) == 0
    said = " ".join(capsys.readouterr().out.split())
    assert "tied at vector_threshold = 0.0 (= 0.5), 0.5" in said, said
    assert "`workbench tune` holds chat moments out for an honest estimate" in said, said
    assert "holds queries out" not in said
