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
    assert lines == [f"embedding: {10 * t}% chunk" for t in range(11)]


def test_short_work_stays_quiet(capsys: pytest.CaptureFixture[str]) -> None:
    with textout.progress_bar("quick") as step:
        step(0.5, "")
        step(1.0, "")
    assert capsys.readouterr().err == ""
