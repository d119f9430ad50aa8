"""injected_tokens says what it counts for the model at hand: pi-lodestone's snippet for a model
that injects, and what stands in for a snippet for one that has none (review E, F14)."""

from __future__ import annotations

import pytest

from tests.conftest import SAMPLES
from workbench.cli import main


def test_a_model_without_snippets_is_told_what_is_counted(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", str(SAMPLES / "vault"), "-m", "vault-search", "--metrics",
                 "ndcg@10,injected_tokens"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "snippet characters / 4" not in out
    assert ("vault-search injects no snippet of its own: estimated as pi-lodestone would "
            "inject these results, each result's text whitespace collapsed, up to 180 "
            "characters, / 4") in out


def test_a_model_that_injects_counts_its_snippets(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sweep", str(SAMPLES / "decisions"), "-m", "decision-memory", "-s",
                 "inject_min_score", "--values", "5,8"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "estimated as pi-lodestone does: each injected snippet's characters" in out
