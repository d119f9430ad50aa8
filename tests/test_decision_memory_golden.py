"""Golden cases: pi-lodestone's own unit-test inputs with the values its code returned
(specs/examples/decision_memory.jsonl, k0udo/pi-lodestone@418f9a1), run through the port's pure
functions. Integers compare exactly, floats with a relative tolerance of 1e-9."""

from __future__ import annotations

import math
from typing import Any

import pytest

from tests.conftest import golden_cases
from workbench.core.models.decision_memory.project import (
    parse_time,
    project_name,
    project_root,
    same_project_scope,
)
from workbench.core.models.decision_memory.scoring import build_token_weights, score_decision
from workbench.core.models.decision_memory.text import infer_tags, tokenize


def run_score(inp: dict[str, Any], exp: dict[str, Any]) -> None:
    opts = inp["options"]
    assert parse_time(opts["now"]) == opts["now_ms"]
    got = score_decision(inp["decision"], inp["query"], inp["cwd"], now_ms=opts["now_ms"],
                         for_injection=bool(opts["forInjection"]),
                         token_weights=opts["tokenWeights"])
    assert got.score == exp["score"]
    assert (got.gate is None) == (exp["score"] > 0)


def run_tokenize(inp: dict[str, Any], exp: dict[str, Any]) -> None:
    assert tokenize(inp["text"]) == exp["tokens"]


def run_scope(inp: dict[str, Any], exp: dict[str, Any]) -> None:
    a, b = inp["a"], inp["b"]
    assert (project_root(a), project_name(a)) == (exp["rootA"], exp["nameA"])
    assert (project_root(b), project_name(b)) == (exp["rootB"], exp["nameB"])
    assert same_project_scope(a, b) is exp["same"]


def run_infer(inp: dict[str, Any], exp: dict[str, Any]) -> None:
    assert infer_tags(inp["title"], inp["text"], inp["existing"]) == exp["tags"]


def run_weights(inp: dict[str, Any], exp: dict[str, Any]) -> None:
    got = build_token_weights(inp["decisions"])
    assert set(got) == set(exp["weights"])
    for token, value in exp["weights"].items():
        assert math.isclose(got[token], value, rel_tol=1e-9, abs_tol=0.0), token


RUNNERS = {"dm_score": run_score, "dm_tokenize": run_tokenize, "dm_project_scope": run_scope,
           "dm_infer_tags": run_infer, "dm_token_weights": run_weights}


@pytest.mark.parametrize("case", golden_cases("decision_memory.jsonl"))
def test_golden(case: dict[str, Any]) -> None:
    RUNNERS[case["kind"]](case["input"], case["expected"])
