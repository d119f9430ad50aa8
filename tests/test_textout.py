"""Progress without a terminal: a line per tenth of the way once work runs long, else none."""

from __future__ import annotations

import pytest

from workbench import textout


def test_progress_lines_without_a_terminal(monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(textout, "LOG_AFTER_S", 0.0)
    with textout.progress_bar("embedding") as step:
        for i in range(0, 101, 4):
            step(i / 100, "chunk")
    lines = capsys.readouterr().err.splitlines()
    # a line per tenth reached, at the share reached (4 % steps: 12 % is the first past 10)
    assert lines == [f"embedding: {p}% chunk" for p in (0, 12, 20, 32, 40, 52, 60, 72, 80, 92,
                                                        100)]


def test_short_work_stays_quiet(capsys: pytest.CaptureFixture[str]) -> None:
    with textout.progress_bar("quick") as step:
        step(0.5, "")
        step(1.0, "")
    assert capsys.readouterr().err == ""


def test_a_quiet_tenth_still_gives_news_every_half_minute(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    # the first tenth of an embedding took five minutes on two cores: no line meanwhile
    clock = [0.0]
    monkeypatch.setattr(textout.time, "monotonic", lambda: clock[0])
    with textout.progress_bar("embedding") as step:
        for i, t in enumerate((5, 20, 40, 70, 75, 110)):
            clock[0] = t
            step(0.001 * i, f"embedding {64 * i}/5,183 texts")
    lines = capsys.readouterr().err.splitlines()
    # at 5 s the first tenth; then a line once 30 s have passed since the last (40, 70, 110)
    assert lines == ["embedding: 0% embedding 0/5,183 texts",
                     "embedding: 0% embedding 128/5,183 texts",
                     "embedding: 0% embedding 192/5,183 texts",
                     "embedding: 0% embedding 320/5,183 texts"]


def test_wide_characters_take_two_columns() -> None:
    """A title in Japanese shifted every column after it in `why` and `rank`."""
    from workbench.textout import display_width, format_table

    assert display_width("日本") == 4 and display_width("café") == 4
    assert display_width("cafe\u0301") == 4  # a combining accent takes no column
    lines = format_table(["id", "title", "score"],
                         [["a", "日本語のタイトル", "1.0"], ["bb", "plain", "12.5"]]).splitlines()
    # the last column (numbers, right-aligned) ends at one terminal column on both rows
    assert display_width(lines[2]) == display_width(lines[3]) == display_width(lines[0])


def test_a_last_column_of_numbers_is_right_aligned_and_text_is_not() -> None:
    """The last column had been left as written: a compare table's last configuration read
    '1.2    0.9  2' under a long name."""
    from workbench.textout import format_table

    lines = format_table(["p", "long name"], [["k1", "2"], ["b", "0.75"]]).splitlines()
    assert lines[2] == "k1          2" and lines[3] == "b        0.75"
    lines = format_table(["p", "long name"], [["k1", "x"], ["b", "0.75"]]).splitlines()
    assert lines[2] == "k1  x"
    wrapped = format_table(["p", "help"], [["k1", "12"]], wrap_last=40).splitlines()
    assert wrapped[2] == "k1  12"


def test_the_terminal_bar_puts_the_message_after_it_without_a_comma(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """tqdm's postfix is written after ", ": the bar read "| , embedding 64/5,183 texts"."""
    import io

    stream = io.StringIO()
    stream.isatty = lambda: True  # type: ignore[method-assign]
    monkeypatch.setattr(textout.sys, "stderr", stream)
    with textout.progress_bar("embedding {x}") as step:
        step(0.3, "embedding 64/5,183 texts")
    drawn = stream.getvalue()
    assert "embedding {x}:  30%|" in drawn
    assert "| embedding 64/5,183 texts" in drawn and ", embedding" not in drawn
