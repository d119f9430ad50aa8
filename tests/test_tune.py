"""Sweeps: integer-step grids, value parsing, the pipeline left as found."""

from __future__ import annotations

import pytest

from tests.conftest import SAMPLES
from workbench.cli import main
from workbench.core.formats import load_dataset
from workbench.core.models import get_model
from workbench.core.params import ParamError
from workbench.core.pipeline import Pipeline
from workbench.core.tune import DEFAULT_POINTS, default_values, grid, parse_values, sweep


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


def test_a_sweep_without_values_is_round_few_and_holds_the_value_in_use() -> None:
    code = get_model("codeledger").schema
    # a weight of 0..5 in slider steps of 0.01 is 501 values: every 20th step instead
    weight = default_values(code["w_similar"], 0.25)
    assert weight == sorted({round(0.2 * i, 10) for i in range(26)} | {0.25})
    # a token budget of 100..1,000,000 in steps of 1: near the default, in thousands
    budget = default_values(code["token_budget"], 8000)
    assert budget[:3] == [100, 1000, 2000] and budget[-2:] == [31_000, 32_000]
    assert len(budget) <= DEFAULT_POINTS and 8000 in budget
    assert default_values(code["token_budget"], 50_000)[-1] == 64_000  # the span follows
    # a float on whole steps is a count too: pi-lodestone's min score (0..1000 by 1,
    # default 8) was swept 0, 8, 50, 100, … — none of the scores between 9 and 49
    dm = get_model("decision-memory").schema
    floor = default_values(dm["inject_min_score"])
    assert floor[:4] == [0.0, 5.0, 10.0, 15.0] and floor[-1] == 100.0 and len(floor) <= 41
    assert 8.0 in default_values(dm["inject_min_score"], 8.0)  # the value in use, always
    # … over a tenth of its range at least: a threshold's scale is not its default's (the
    # search min score, default 1, was swept 0..4, its best at 20 unseen)
    search = default_values(dm["search_min_score"])
    assert 20.0 in search and search[-1] == 100.0
    assert default_values(code["max_files"], 25)[:3] == [1, 20, 25]
    assert default_values(code["graph_hops"], 2) == [0, 1, 2]  # a short range: every step
    bm25 = get_model("bm25").schema
    assert default_values(bm25["b"], 0.75) == parse_values(bm25["b"], None)  # 21 fit
    k1 = default_values(bm25["k1"], 1.2)
    assert k1 == [round(0.1 * i, 10) for i in range(31)]  # 61 slider steps: every other
    assert default_values(bm25["variant"]) == ["lucene", "robertson", "atire"]
    assert default_values(code["auto_scope"], False) == [False, True]


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
