"""`tune --tune` names its parameters: one that no score moves with on the data is searched
as asked and said so (as `--range` says it), and the plan does not speak of the model's
default search as if `--tune` had been ignored (review rv2, 2 and 7)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import SAMPLES
from workbench.cli import main


def test_an_inert_parameter_named_with_tune_is_said(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # on BEIR data hybrid's combined_boost_weight scales every score alike (README)
    assert main(["tune", str(SAMPLES / "tea-beir"), "-m", "hybrid", "--tune",
                 "alpha,combined_boost_weight", "--trials", "3", "--folds", "0",
                 "--storage", str(tmp_path / "s.db")]) == 0
    out = capsys.readouterr()
    text = out.out + out.err
    assert ("note: --tune combined_boost_weight: searched as asked, though no score moves with "
            "it here") in " ".join(text.split())
    assert "--tune alpha:" not in text


def test_tune_named_weights_are_not_called_the_default_search(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tune", str(SAMPLES / "code-repo"), "-m", "codeledger", "--tune",
                 "w_keyword,w_centrality", "--trials", "2", "--storage",
                 str(tmp_path / "s.db")]) == 0
    out = capsys.readouterr()
    assert "searches its relative weights" not in out.out + out.err


def test_a_parameter_whose_need_is_searched_too_is_not_called_inert(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # tf_multiplier moves scores under the documented variant, which the same run searches
    assert main(["tune", str(SAMPLES / "vault"), "-m", "vault-search", "--tune",
                 "variant,tf_multiplier", "--trials", "2", "--folds", "0",
                 "--storage", str(tmp_path / "a.db")]) == 0
    out = capsys.readouterr()
    assert "--tune tf_multiplier:" not in out.out + out.err
    # alone, under the shipped variant, it moves nothing: said
    assert main(["tune", str(SAMPLES / "vault"), "-m", "vault-search", "--tune",
                 "tf_multiplier", "--trials", "2", "--folds", "0",
                 "--storage", str(tmp_path / "b.db")]) == 0
    out = capsys.readouterr()
    assert "note: --tune tf_multiplier: searched as asked" in " ".join(
        (out.out + out.err).split())
