"""sweep says why a parameter's values tie: one the data leaves idle gets the reason tune
gives for it, not a bare "makes no difference"; one another switches off is named by its id,
as -p takes it (review E, F8)."""

from __future__ import annotations

import pytest

from tests.conftest import SAMPLES
from workbench.cli import main


def test_a_parameter_the_data_leaves_idle_is_said_why(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sweep", str(SAMPLES / "tea-beir"), "-m", "hybrid", "-s",
                 "entity_boost_weight", "--values", "0,1,2"]) == 0
    out = capsys.readouterr().out
    assert "all 3 values tie" in out
    # tea-beir's queries are plain questions: no chat to read an entity from
    assert "note: why entity_boost_weight's values tie on this data: no query has an entity" \
        in out


def test_a_switched_off_parameter_names_the_switch_by_its_id(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sweep", str(SAMPLES / "tea-beir"), "-m", "hybrid", "-s", "rrf_k",
                 "--values", "1,60", "-p", "normalization=batch-max"]) == 0
    out = capsys.readouterr().out
    assert "note: rrf_k has no effect while normalization is not rrf" in out
    assert "Normalisation" not in out
