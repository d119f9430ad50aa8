"""Sweeps: integer-step grids, value parsing, the pipeline left as found."""

from __future__ import annotations

import pytest

from tests.conftest import SAMPLES
from workbench.cli import main
from workbench.core.formats import load_dataset
from workbench.core.models import get_model
from workbench.core.params import ParamError
from workbench.core.pipeline import Pipeline
from workbench.core.tune import grid, parse_values, sweep


def test_grid_counts_in_integers() -> None:
    # adding 0.1 ten times gives 0.9999999999999999 and a float loop drops 1.0
    assert grid(0, 1, 0.1) == [0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0]
    assert grid(0.2, 0.5, 0.15) == [0.2, 0.35, 0.5]
    with pytest.raises(ValueError):
        grid(0, 1, 0)


def test_parse_values() -> None:
    schema = get_model("bm25").schema
    assert parse_values(schema["b"], "0:1:0.25") == [0.0, 0.25, 0.5, 0.75, 1.0]
    assert parse_values(schema["k1"], "0.9,1.2") == [0.9, 1.2]
    assert parse_values(schema["variant"], None) == ["lucene", "robertson", "atire"]
    assert len(parse_values(schema["b"], None)) == 21  # its slider: 0..1 step 0.05
    with pytest.raises(ParamError, match="parameter k1 must be"):
        parse_values(schema["k1"], "0:5:1")


def test_sweep_holds_the_rest_and_restores() -> None:
    ds = load_dataset(SAMPLES / "tea-beir")
    pipe = Pipeline(get_model("bm25"), ds, {"k1": 0.9})
    before = dict(pipe.params)
    points = sweep(pipe, "b", [0.0, 0.75], ["ndcg@10"])
    assert pipe.params == before
    direct = Pipeline(get_model("bm25"), ds, {"k1": 0.9, "b": 0.75}).run(["ndcg@10"]).means
    assert points[1].metrics["ndcg@10"] == pytest.approx(direct["ndcg@10"])
    assert points[0].metrics != points[1].metrics


def test_sweep_command_marks_the_best(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sweep", str(SAMPLES / "tea-beir"), "-m", "bm25", "-s", "k1",
                 "--values", "0.5,1.2,2.0", "--metrics", "ndcg@10"]) == 0
    out = capsys.readouterr().out.splitlines()
    rows = [line for line in out if line.strip()[:3] in ("0.5", "1.2", "2.0")]
    assert len(rows) == 3 and sum("← best" in r for r in rows) == 1
    best = max(rows, key=lambda r: float(r.split()[1]))
    assert "← best" in best
