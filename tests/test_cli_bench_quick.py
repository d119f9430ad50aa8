"""`bench DATA --quick` times DATA, fewer times (review rn 2)."""

from __future__ import annotations

import pytest

from tests.conftest import SAMPLES
from workbench.cli import main

TEA = str(SAMPLES / "tea-beir")


def test_bench_data_quick_times_data(capsys: pytest.CaptureFixture[str]) -> None:
    """`bench DATA --quick` had timed two synthetic sets and left DATA out, exit 0."""
    assert main(["bench", TEA, "-m", "bm25", "--quick"]) == 0
    out = capsys.readouterr().out
    assert "median of 3 runs" in out
    rows = [line.split()[:2] for line in out.splitlines() if line.startswith("bm25 ")]
    assert rows == [["bm25", "tea-beir"]]
    assert "synthetic" not in out
