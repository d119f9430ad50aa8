"""A grid too large to run is said with its size as the window says it, a power of ten past a
line's worth of digits ("2.0 × 10⁶¹ points"), not its 61 digits (rt 10)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from workbench.cli import main
from workbench.core.tuning.space import big_count

SAMPLES = Path(__file__).resolve().parents[1] / "sample_corpora"


def test_big_count() -> None:
    assert big_count(999_999_999_999) == "999,999,999,999"
    assert big_count(19_834_275_198_664 * 10**48) == "2.0 × 10⁶¹"


def test_the_cli_says_a_huge_grid_as_a_power_of_ten(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WORKBENCH_CACHE_DIR", str(tmp_path / "cache"))
    # every tunable parameter of decision-memory over its default grid
    assert main(["tune", str(SAMPLES / "decisions-eval"), "-m", "decision-memory",
                 "--sampler", "grid", "--storage", str(tmp_path / "s.db")]) == 2
    err = capsys.readouterr().err
    assert re.search(r"has \d\.\d × 10[⁰¹²³⁴⁵⁶⁷⁸⁹]+ points \(more than 100,000\)", err)
    assert not re.search(r"\d{1,3}(,\d{3}){5,}", err)  # no run of digit groups
