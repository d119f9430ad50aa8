"""The CLI's prose is wrapped at the terminal's width (100 columns without one), as `models`
and --help are; tables are not, and a word longer than a line stays whole."""

from __future__ import annotations

from pathlib import Path

import pytest

from workbench.cli import main
from workbench.textout import wrap

SAMPLES = Path(__file__).resolve().parents[1] / "sample_corpora"


def test_a_long_note_is_wrapped_under_itself_and_a_path_kept_whole() -> None:
    path = "/a/" + "long-folder/" * 10 + "file.toml"  # 125 characters
    text = "note: " + " ".join(["word"] * 30) + f" {path} end"
    lines = wrap(text, 60).split("\n")
    assert lines[0].startswith("note: word")
    assert all(line.startswith("  ") for line in lines[1:])
    assert path in [line.strip() for line in lines]  # not broken mid-word
    assert all(len(line) <= 60 for line in lines if path not in line)
    assert " ".join(" ".join(lines).split()) == " ".join(text.split())  # nothing lost


def test_an_indented_line_continues_deeper_and_short_lines_stay() -> None:
    assert wrap("short\n  also short", 60) == "short\n  also short"
    lines = wrap("  e.g. q1: " + "why " * 20, 40).split("\n")
    assert lines[0].startswith("  e.g.") and all(x.startswith("    ") for x in lines[1:])


@pytest.mark.parametrize("argv", [
    ["tune", str(SAMPLES / "decisions-eval"), "-m", "decision-memory", "--folds", "0",
     "--trials", "3", "--fresh"],
    ["eval", str(SAMPLES / "vault"), "-m", "vault-search", "-p", "min_score=0.4"],
])
def test_notes_fit_100_columns_without_a_terminal(argv: list[str], tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("COLUMNS", "100")
    assert main([*argv, *(["--storage", str(tmp_path / "s.db")] if argv[0] == "tune"
                          else [])]) == 0
    out = capsys.readouterr().out
    # the plan's parameter list was one line of 1,087 characters, eval's notes 230
    long = [line for line in out.splitlines() if len(line) > 100]
    assert long == []
    assert "parameters:" in out or "judgments:" in out


def test_a_path_with_spaces_is_kept_on_one_line(tmp_path: Path) -> None:
    """A folder named "My Work Folder" had been broken at its spaces, so a copy of the path
    from the terminal carried a newline and an indent."""
    folder = tmp_path / "My Work Folder" / "retrieval data sets"
    folder.mkdir(parents=True)
    out = folder / "best params.toml"
    out.write_text("")
    line = f"the starting values written to {out}: the file the next command reads"
    wrapped = wrap(line, 60)
    assert any(str(out) in ln for ln in wrapped.splitlines())
    assert all(len(ln) <= 60 for ln in wrapped.splitlines() if str(out) not in ln)
    assert wrap("a path that does not exist/with spaces in it " * 3, 30).count("\n") >= 3
