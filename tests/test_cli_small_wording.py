"""Small wording items a newcomer met (review E, F15): a demo --help that says what it does,
rank's --repo example naming rank, one tuning study's trials without a list label; the cap
note's observed longest list is tested in test_limit_cap_note."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import SAMPLES
from workbench.cli import build_parser, main


def _help(command: str) -> str:
    sub = next(a for a in build_parser()._actions if hasattr(a, "choices") and a.choices
               and command in a.choices)
    return " ".join(sub.choices[command].format_help().split())


def test_demo_help_has_a_description() -> None:
    assert "Evaluate the bundled sample corpora and explain a query on each" in _help("demo")


def test_rank_help_gives_a_rank_example_for_repo() -> None:
    assert "`rank --model codeledger --repo . --task TEXT`" in _help("rank")
    assert "`explain --model codeledger --repo . --task TEXT`" in _help("explain")


def test_one_study_says_its_trials_without_a_label(capsys: pytest.CaptureFixture[str],
                                                   tmp_path: Path) -> None:
    assert main(["tune", str(SAMPLES / "tea-beir"), "-m", "bm25", "--folds", "0", "--trials",
                 "3", "--storage", str(tmp_path / "s.db")]) == 0
    out = capsys.readouterr().out
    assert "\ntrials: 3\n" in out and "trials per study" not in out.split("objective")[1]
