"""A configuration whose values were moved away from those a tuning run wrote exports as
edited: no verdict, held-out figures or kept trial of the run in its head or `[tuned]` (they
are not these values'), as every reader of the file says it (dr8 2: the export's header had
given the run's 'NOT RECOMMENDED', 'tuned 0.6074' and kept_trial 16 for hand-moved values,
while eval of the same file said 'edited since')."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from workbench.cli import main
from workbench.core.configurations import configuration_toml, read_configuration_toml

SAMPLES = Path(__file__).resolve().parents[1] / "sample_corpora"


@pytest.fixture(scope="module")
def tuned(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("tuned")
    out = folder / "best.toml"
    # --pick best: the values change (the surest-gain pick keeps the start on this data)
    assert main(["tune", str(SAMPLES / "tea-beir"), "-m", "bm25", "--tune", "k1,b",
                 "--trials", "12", "--folds", "2", "--pick", "best",
                 "--storage", str(folder / "s.db"), "--out", str(out)]) == 0
    return out


def test_the_values_tuned_export_with_their_record(tuned: Path) -> None:
    saved = read_configuration_toml(tuned, "bm25")
    text = configuration_toml(saved)
    assert "held_out_tuned" in text and "kept_trial" in text
    assert "edited from values a tuning run wrote" not in text


def test_edited_values_export_without_the_runs_figures(
        tuned: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    saved = read_configuration_toml(tuned, "bm25")
    moved = replace(saved, name="hand made", params={**saved.params, "k1": 2.0, "b": 0.55})
    text = configuration_toml(moved)
    assert "edited from values a tuning run wrote: tune's held-out figures are not theirs" \
        in text
    for gone in ("NOT RECOMMENDED", "verdict", "kept_trial", "tune's held-out ndcg"):
        assert gone not in text
    assert "held_out_tuned = nan" in text and "held_out_queries = 0" in text
    assert "trained_on" in text  # its training queries are still set aside
    path = tmp_path / "hand.toml"
    path.write_text(text, encoding="utf-8")
    capsys.readouterr()
    assert main(["eval", str(SAMPLES / "tea-beir"), "-m", "bm25", "--params", str(path)]) == 0
    captured = capsys.readouterr()
    assert "not recommended" not in captured.err + captured.out
