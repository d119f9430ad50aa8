"""On/off values are printed as -p and the TOML files take them (true/false), not as Python's
True/False; a whole-number default without its '.0' (review E, F4)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import SAMPLES
from workbench.cli import main


def test_models_prints_switches_and_whole_numbers_as_typed(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["models", "vault-search"]) == 0
    out = capsys.readouterr().out
    row = next(line.split() for line in out.splitlines() if line.split()[:1] == ["early_stop"])
    assert row[:3] == ["early_stop", "live", "false"]
    assert main(["models", "decision-memory"]) == 0
    row = next(line.split() for line in capsys.readouterr().out.splitlines()
               if line.split()[:1] == ["inject_min_score"])
    assert row[2] == "8"  # its default, a whole number: "8.0" read as a fraction


def test_tune_prints_switches_as_typed(capsys: pytest.CaptureFixture[str],
                                       tmp_path: Path) -> None:
    assert main(["tune", str(SAMPLES / "decisions-eval"), "-m", "decision-memory",
                 "--tune", "gate_superseded,w_title", "--folds", "0", "--trials", "3",
                 "--storage", str(tmp_path / "s.db")]) == 0
    out = capsys.readouterr().out
    assert "gate_superseded {false, true}" in out
    row = next(line.split() for line in out.splitlines()
               if line.split()[:1] == ["gate_superseded"])
    assert row[1] == "true" and row[2] in ("true", "false")  # its default, the value tuned
    assert "True" not in out and "False" not in out
