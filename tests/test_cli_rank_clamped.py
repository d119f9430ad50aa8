"""`rank` on vault-search scores clamped to 1: printed 1.0000 as every other score is, and,
where such a tie orders the rows shown, said once with what orders them (rv52 9: "1" among
0.5735, and `.trash/` first only because it sorts first)."""

from __future__ import annotations

from pathlib import Path

import pytest

from workbench.cli import main


def _vault(tmp_path: Path) -> Path:
    """"budget" alone in z.md and a/b.md: tf = ln(101)/ln(101) = 1, position e^0 = 1,
    density ln(1 + 100)/ln(51) capped to 1; with every weight 1 the sum 3 is clamped to 1
    (clamp −2). other.md holds no "budget"."""
    notes = tmp_path / "v" / "notes"
    (notes / "a").mkdir(parents=True)
    (notes / "z.md").write_text("budget", encoding="utf-8")
    (notes / "a" / "b.md").write_text("budget", encoding="utf-8")
    (notes / "other.md").write_text("nothing here", encoding="utf-8")
    return tmp_path / "v"


WEIGHTS = ["-p", "w_tf=1", "-p", "w_position=1", "-p", "w_density=1"]


def _rows(out: str) -> list[list[str]]:
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("----")) + 1
    return [line.split() for line in lines[start:] if line[:4].strip().isdigit()]


def test_scores_clamped_to_one_print_as_the_others_and_their_tie_is_said(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rank", str(_vault(tmp_path)), "-m", "vault-search", "-q", "budget",
                 *WEIGHTS]) == 0
    out = capsys.readouterr().out
    rows = _rows(out)
    assert [(r[1], r[3]) for r in rows] == [("a/b.md", "1.0000"), ("z.md", "1.0000")]
    assert rows[0][-1] == "-2.0000"  # the clamp column
    said = " ".join(out.split())
    assert said.count("tied at 1") == 1
    assert said.endswith(
        "2 results tied at 1 (clamped): shown by file path (the model's order), not by a score; "
        "obsidian-mcp keeps tied notes in the order it meets them (a stable sort by score), "
        "which may not be this one")
    assert "directory listing" not in said  # not in the spec (dr7 4)


def test_a_tie_that_picks_the_one_row_shown_is_said(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """dr7 3: with --top 1 the one row shown was picked by file path from the two tied, and
    nothing said so (the tie was counted among the rows shown)."""
    assert main(["rank", str(_vault(tmp_path)), "-m", "vault-search", "-q", "budget",
                 "--top", "1", *WEIGHTS]) == 0
    out = capsys.readouterr().out
    assert [(r[1], r[3]) for r in _rows(out)] == [("a/b.md", "1.0000")]
    # rv53 dH 6: "shown: shown by file path" had stuttered
    said = " ".join(out.split())
    assert "1 of 2 results tied at 1 (clamped) shown; they are ordered by file path" in said
    assert "shown: shown" not in said


def test_one_clamped_result_or_an_unclamped_one_is_no_tie(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    vault = _vault(tmp_path)
    (vault / "notes" / "z.md").write_text("nothing", encoding="utf-8")  # a/b.md alone at 1
    assert main(["rank", str(vault), "-m", "vault-search", "-q", "budget", *WEIGHTS]) == 0
    out = capsys.readouterr().out
    assert [r[3] for r in _rows(out)] == ["1.0000"] and "tied" not in out
    (vault / "notes" / "z.md").write_text("budget", encoding="utf-8")
    # at the default weights 0.4 + 0.3 + 0.3 = 1 exactly: a tie, but no clamp made it
    assert main(["rank", str(vault), "-m", "vault-search", "-q", "budget"]) == 0
    out = capsys.readouterr().out
    assert [r[3] for r in _rows(out)] == ["1.0000", "1.0000"] and "tied" not in out
