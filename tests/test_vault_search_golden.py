"""Golden cases: obsidian-mcp's own unit-test inputs with the values its code returned
(specs/examples/vault_search.jsonl), run through the port's pure functions."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any

import pytest

from tests.conftest import SHARED, golden_cases
from workbench.core.models.vault_search import (
    calculate_score,
    density_bonus,
    extract_context,
    extract_matches,
    extractor_config,
    find_column_position,
    highlight_match,
    position_bonus,
    resolve_weights,
    score_components,
    term_frequency,
)

GOLDEN = SHARED / "specs" / "examples" / "vault_search.jsonl"


def _cases() -> list[Any]:
    return golden_cases("vault_search.jsonl")


def close(actual: float, expected: float) -> bool:
    return math.isclose(actual, expected, rel_tol=1e-9, abs_tol=0.0) or actual == expected


def run_weights(inp: dict[str, Any], exp: dict[str, Any]) -> None:
    assert resolve_weights(inp["weights"]).as_dict() == exp["weights"]


def run_score(inp: dict[str, Any], exp: dict[str, Any]) -> None:
    weights = resolve_weights(inp["weights"])
    lines = [m["line"] for m in inp["matches"]]
    assert weights.as_dict() == exp["effective_weights"]
    assert close(calculate_score(lines, inp["content"], inp["query"], weights), exp["score"])
    c = score_components(lines, inp["content"], inp["query"])
    want = exp["components"]
    assert close(c.tf, want["tf"]) and close(c.position, want["position"])
    assert close(c.density, want["density"]) and c.total_lines == want["totalLines"]


COMPONENTS: dict[str, Callable[..., float]] = {
    "calculateTermFrequency": lambda content, query: term_frequency(content, query),
    "calculatePositionBonus": lambda matchLines, totalLines: position_bonus(matchLines,
                                                                            totalLines),
    "calculateDensityBonus": lambda matchLines, totalLines: density_bonus(matchLines,
                                                                          totalLines),
}


def run_component(inp: dict[str, Any], exp: dict[str, Any]) -> None:
    assert close(COMPONENTS[inp["fn"]](**inp["args"]), exp["value"])


def run_extractor_config(inp: dict[str, Any], exp: dict[str, Any]) -> None:
    assert extractor_config(inp["config"]).as_dict() == exp["config"]


def run_extract(inp: dict[str, Any], exp: dict[str, Any]) -> None:
    got = extract_matches(inp["content"], inp["query"], inp["contextLines"],
                          extractor_config(inp["config"]))
    assert [vars(m) for m in got] == exp["matches"]


def run_context(inp: dict[str, Any], exp: dict[str, Any]) -> None:
    assert extract_context(inp["lines"], inp["matchIndex"], inp["contextLines"]) == \
        exp["context"]


def run_highlight(inp: dict[str, Any], exp: dict[str, Any]) -> None:
    got = highlight_match(inp["line"], inp["query"], extractor_config(inp["config"]))
    assert got == exp["snippet"]


def run_column(inp: dict[str, Any], exp: dict[str, Any]) -> None:
    assert find_column_position(inp["line"], inp["query"]) == exp["column"]


KINDS: dict[str, Callable[[dict[str, Any], dict[str, Any]], None]] = {
    "vs_weights": run_weights,
    "vs_score": run_score,
    "vs_component": run_component,
    "vs_extractor_config": run_extractor_config,
    "vs_extract": run_extract,
    "vs_context": run_context,
    "vs_highlight": run_highlight,
    "vs_column": run_column,
}


@pytest.mark.parametrize("case", _cases())
def test_golden(case: dict[str, Any]) -> None:
    KINDS[case["kind"]](case["input"], case["expected"])


def test_golden_file_covers_every_kind() -> None:
    if not GOLDEN.exists():
        pytest.skip(f"{GOLDEN} absent")
    kinds = {json.loads(line)["kind"] for line in GOLDEN.read_text("utf-8").splitlines()
             if line.strip()}
    assert kinds == set(KINDS)
