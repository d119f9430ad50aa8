"""`workbench rank`'s table: no column of a copy or of zeros, whole scores as whole numbers, and
a reason where nothing is found (rn 11, 13)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import SAMPLES
from workbench.cli import main
from workbench.textout import display_width


def _table(out: str) -> tuple[list[str], list[list[str]]]:
    """The header names (a two-line header joined) and the rows, split on spaces."""
    lines = out.splitlines()
    dashes = next(i for i, line in enumerate(lines) if line.startswith("----"))
    cols = [(len(d), d) for d in lines[dashes].split("  ")]
    starts, at = [], 0
    for width, _ in cols:
        starts.append(at)
        at += width + 2
    heads = []
    for n, start in enumerate(starts):
        end = starts[n + 1] if n + 1 < len(starts) else None
        heads.append("".join(line[start:end].strip() for line in lines[max(dashes - 2, 0):dashes]
                             if not line.startswith(("query:", "model:"))))
    body = []
    for line in lines[dashes + 1:]:
        if not (line.startswith(" ") and line.strip()[:1].isdigit()):
            break  # the table ends; the notes and snippets follow
        body.append(line)
    rows = [[line[start:starts[n + 1] if n + 1 < len(starts) else None].strip()
             for n, start in enumerate(starts)] for line in body]
    return heads, rows


def test_codeledger_leaves_out_the_copied_title_and_the_columns_of_zeros(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """rn 13: the table had been about 250 columns wide: a title repeating the path, and
    five signals 0.0000 in every row."""
    monkeypatch.setenv("COLUMNS", "160")  # a terminal 160 wide: the table fits it
    code = str(SAMPLES / "code-repo")
    assert main(["rank", code, "-m", "codeledger", "-q", "retry on 429"]) == 0
    out = capsys.readouterr().out
    heads, rows = _table(out)
    assert "title" not in heads and heads[:3] == ["rank", "id", "score"]
    assert "test_relevance" in heads and "size_penalty" in heads
    table = out[:out.index("\n0 in every row")]
    assert max(len(line) for line in table.splitlines()) <= 160
    left_out = " ".join(out[out.index("0 in every row above"):].split())
    for name in ("mention", "error_infrastructure", "branch_changed", "fail_prior",
                 "non_code"):
        assert name not in heads and name in left_out
    assert "(--format json has them)" in left_out
    for row in rows:  # every signal column shown is non-zero somewhere
        assert len(row) == len(heads)
    for col in range(heads.index("bundle") + 1, len(heads)):
        assert any(float(row[col]) != 0 for row in rows), heads[col]
    assert main(["rank", code, "-m", "codeledger", "-q", "retry on 429", "--format",
                 "json"]) == 0
    assert '"fail_prior"' in capsys.readouterr().out  # json keeps every one


def _header(out: str) -> list[str]:
    """The lines above the table's dashes, less the query and model lines."""
    lines = out.splitlines()
    dashes = next(i for i, line in enumerate(lines) if line.startswith("----"))
    return [line for line in lines[:dashes] if not line.startswith(("query:", "model:"))]


@pytest.mark.parametrize(("columns", "top", "split"), [
    ("300", "20", False),  # 169 columns fit: had been split by a fixed rule of 160
    ("140", "3", True),  # 150 columns do not, 140 split do: had been left whole
])
def test_long_signal_names_split_over_two_lines_where_the_terminal_is_narrower(
        columns: str, top: str, split: bool, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """dr4 10: whether "test_" goes above "relevance" follows the terminal's width, as the
    notes under the table wrap, not a fixed 160 columns."""
    monkeypatch.setenv("COLUMNS", columns)
    assert main(["rank", str(SAMPLES / "code-repo"), "-m", "codeledger", "-q", "retry on 429",
                 "--top", top]) == 0
    out = capsys.readouterr().out
    header = _header(out)
    width = max(len(line) for line in out.splitlines() if line.startswith(("rank ", "----")))
    if split:
        assert int(columns) < 150 and width <= int(columns)  # fits once split
        assert len(header) == 2 and header[0].split() == ["test_", "size_"]
        assert header[1].split()[-2:] == ["relevance", "penalty"]
    else:
        assert width <= int(columns) and width > 160
        assert len(header) == 1 and {"test_relevance", "size_penalty"} <= set(
            header[0].split())
    heads, _ = _table(out)  # the two lines read as one name
    assert "test_relevance" in heads and "size_penalty" in heads


def test_at_80_columns_the_least_contributing_signals_are_left_out_and_named(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """dr7 9: at an 80-column terminal codeledger's table had narrowed from 145 columns to 135
    only (long names split). It fits 80 now: the signals adding least to the rows shown are
    left out and named under it; the others keep their values as a wide terminal shows them.
    At 200 columns the table is as it was, every signal shown."""
    code = str(SAMPLES / "code-repo")
    command = ["rank", code, "-m", "codeledger", "-q", "retry on 429", "--top", "2"]
    monkeypatch.setenv("COLUMNS", "200")
    assert main(command) == 0
    wide = capsys.readouterr().out
    wide_heads, wide_rows = _table(wide)
    assert "not shown, to fit" not in wide
    assert len(_header(wide)) == 1 and max(len(line) for line in wide.splitlines()
                                           if line.startswith(("rank ", "----"))) > 140
    monkeypatch.setenv("COLUMNS", "80")
    assert main(command) == 0
    out = capsys.readouterr().out
    heads, rows = _table(out)
    table = out[:out.index("\n0 in every row")].splitlines()[2:]  # below query: and model:
    assert max(len(line) for line in table) <= 80
    assert heads[:4] == ["rank", "id", "score", "bundle"]
    left = [h for h in wide_heads if h not in heads]
    assert left and set(heads) < set(wide_heads)
    # what is left out: the signals whose largest |contribution| in these rows is smallest
    signals = wide_heads[wide_heads.index("bundle") + 1:]
    largest = {h: max(abs(float(row[wide_heads.index(h)])) for row in wide_rows)
               for h in signals}
    assert max(largest[h] for h in left) <= min(largest[h] for h in heads if h in largest)
    for row, wide_row in zip(rows, wide_rows, strict=True):  # the values shown are the same
        assert row == [wide_row[wide_heads.index(h)] for h in heads]
    said = " ".join(out.split())
    note = (f"not shown, to fit 80 columns: {', '.join(left)} (adding little to these rows); "
            "COLUMNS=")
    assert note in said and said.split(note)[1].split()[1:5] == ["or", "--format", "json",
                                                                 "shows"]
    columns = said.split(note)[1].split()[0]  # the width said: every signal fits it
    monkeypatch.setenv("COLUMNS", columns)
    assert main(command) == 0
    out = capsys.readouterr().out
    assert "not shown, to fit" not in out and _table(out)[0] == wide_heads


def test_at_80_columns_titles_are_clipped_before_a_signal_is_left_out(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """decision-memory's titles (40 characters) are clipped shorter first: at 80 columns the
    table keeps more of its signals than it would with whole titles."""
    monkeypatch.setenv("COLUMNS", "80")
    assert main(["rank", str(SAMPLES / "decisions"), "-m", "decision-memory",
                 "--query-id", "turn-1"]) == 0
    out = capsys.readouterr().out
    heads, rows = _table(out)
    lines = out[:out.index("\n0 in every row")].splitlines()[2:]  # below query: and model:
    assert max(len(line) for line in lines) <= 80
    assert max(len(row[heads.index("title")]) for row in rows) == 20
    assert {"lexical", "locality", "important"} <= set(heads)


def _table_lines(out: str) -> list[str]:
    """The table's lines: its header (one or two lines), dashes and rows."""
    lines = out.splitlines()
    dashes = next(i for i, line in enumerate(lines) if line.startswith("----"))
    _, rows = _table(out)
    return lines[2:dashes] + lines[dashes:dashes + 1 + len(rows)]


def test_to_a_file_or_a_pipe_the_table_is_whole(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Standard output not a terminal and no COLUMNS (a file, `| less -S`, `| grep`): every
    signal is shown, as before tables were fitted to a terminal; a saved table had lost 9 of
    its 13 signals to a width of 100 that no terminal had (dr1 4)."""
    monkeypatch.delenv("COLUMNS", raising=False)
    command = ["rank", str(SAMPLES / "code-repo"), "-m", "codeledger", "--query-id",
               "c885591bbb0", "--top", "20"]
    assert main(command) == 0
    out = capsys.readouterr().out
    assert "not shown, to fit" not in out
    heads, _ = _table(out)
    assert main([*command, "--format", "json"]) == 0
    import json

    rows = json.loads(capsys.readouterr().out)["results"]
    signals = [s for s in rows[0]["contributions"]
               if any(abs(r["contributions"][s]) >= 5e-5 for r in rows)]
    assert [h for h in heads if h in signals] == signals and len(signals) > 10


def test_at_80_columns_the_titles_go_before_every_signal_does(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """vault-search's table at 80 columns had left out all three signals and was still 83
    wide: now the title column goes, the table fits, and signals are shown (dr1 5)."""
    monkeypatch.setenv("COLUMNS", "80")
    assert main(["rank", str(SAMPLES / "vault"), "-m", "vault-search", "--query-id", "v01",
                 "--top", "5"]) == 0
    out = capsys.readouterr().out
    heads, _ = _table(out)
    assert max(display_width(line) for line in _table_lines(out)) <= 80
    assert "title" not in heads and {"position", "density"} & set(heads)
    said = " ".join(out.split())
    assert "not shown, to fit 80 columns: the titles, tf (adding little to these rows)" in said


def test_at_80_columns_titles_are_clipped_only_as_much_as_needed(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """The titles had been clipped in steps (40, 30, 20): story's table was 71 wide at 80
    columns, titles cut to 20 where 29 fit. And a signal that fits beside those kept is shown
    (code-repo's graph had been left out of a 72-wide table) (dr1 12)."""
    monkeypatch.setenv("COLUMNS", "80")
    assert main(["rank", str(SAMPLES / "story"), "-m", "hybrid", "--query-id", "c26"]) == 0
    out = capsys.readouterr().out
    heads, rows = _table(out)
    assert max(display_width(line) for line in _table_lines(out)) == 80  # no room left over
    assert any(row[heads.index("title")].endswith("…") for row in rows)
    assert max(len(row[heads.index("title")]) for row in rows) > 20
    assert main(["rank", str(SAMPLES / "code-repo"), "-m", "codeledger", "--query-id",
                 "c885591bbb0", "--top", "20"]) == 0
    out = capsys.readouterr().out
    heads, _ = _table(out)
    assert max(display_width(line) for line in _table_lines(out)) == 80  # no room left over
    # to 3 places (rv2 3) two signals fit: those adding most, content (up to 1.000) and
    # keyword (0.336; graph 0.270), where at 4 places content and graph had fitted
    assert {"content", "keyword"} <= set(heads) and "graph" not in heads


def test_at_80_columns_the_snippets_wrap_as_the_table_fits(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """decision-memory's snippets under a table fitted to 80 columns had run to 251: they
    wrap at the same width, under their text, every word kept (dr1 13). To a file, they are
    one line each, as the table is whole."""
    import json

    command = ["rank", str(SAMPLES / "decisions"), "-m", "decision-memory", "--query-id",
               "turn-1"]
    monkeypatch.setenv("COLUMNS", "80")
    assert main([*command, "--format", "json"]) == 0
    snippets = [r["snippet"] for r in json.loads(capsys.readouterr().out)["results"]]
    assert main(command) == 0
    out = capsys.readouterr().out
    part = out[out.index("\nsnippets:\n") + len("\nsnippets:\n"):].split("\n\n")[0]
    lines = part.splitlines()
    assert max(display_width(line) for line in lines) <= 80 < max(map(len, snippets)) + 6
    assert all(line.startswith("      ") or line[:4].strip().isdigit() for line in lines)
    assert " ".join(part.split()) == " ".join(
        f"{n} {' '.join(s.split())}" for n, s in enumerate(snippets, 1))
    monkeypatch.delenv("COLUMNS")
    assert main(command) == 0
    out = capsys.readouterr().out
    part = out[out.index("\nsnippets:\n") + len("\nsnippets:\n"):].split("\n\n")[0]
    assert len(part.splitlines()) == len(snippets)


def test_decision_memory_whole_contributions_print_as_integers(
        capsys: pytest.CaptureFixture[str]) -> None:
    """rn 13: its whole-number contributions had printed as 6.0000, 4.0000, 0.0000."""
    assert main(["rank", str(SAMPLES / "decisions"), "-m", "decision-memory",
                 "--query-id", "turn-1"]) == 0
    heads, rows = _table(capsys.readouterr().out)
    assert rows and "title" in heads  # its titles are not its ids
    for name in ("score", "locality", "important", "manual"):
        assert all(row[heads.index(name)].lstrip("-").isdigit() for row in rows), name
    assert any("." in row[-1] for row in rows)  # a fraction stays one ("rounding")


def test_rank_says_why_vault_search_found_nothing(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """rn 11: rank had said "no results" alone where explain gave the reason."""
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "a.md").write_text("# Backups\nKeep the logs for thirty days.\nretention\n")
    (notes / "b.md").write_text("# Other\nNothing here.\n")
    assert main(["rank", str(notes), "-m", "vault-search", "-q", "retention days"]) == 0
    said = " ".join(capsys.readouterr().out.split())
    assert ("no results: no line of any note contains the phrase 'retention days'") in said
    assert main(["explain", str(notes), "-m", "vault-search", "-q", "retention days"]) == 0
    explained = " ".join(capsys.readouterr().out.split())
    assert said[said.index("no results: ") + len("no results: "):] in explained
