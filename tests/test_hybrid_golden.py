"""Golden cases: OpenVault's own unit-test inputs with the values its code returned
(specs/examples/openvault.jsonl, vadash/openvault@c112699), run through the port's pure
functions. Floats compare with a relative tolerance of 1e-9, integers and strings exactly."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any

import pytest

from tests.conftest import SHARED, golden_cases
from workbench.core.models.hybrid import (
    Entities,
    QueryConfig,
    build_bm25_tokens,
    build_embedding_query,
    calculate_score,
    extract_query_context,
    parse_recent_messages,
    score_memories,
    tokenize,
)

GOLDEN = SHARED / "specs" / "examples" / "openvault.jsonl"


def _cases() -> list[Any]:
    return golden_cases("openvault.jsonl")


def same(actual: Any, expected: Any, where: str = "") -> None:
    """Equal, floats within rel 1e-9 (ints in the JSON may come back as floats)."""
    if isinstance(expected, dict):
        assert isinstance(actual, dict) and set(actual) == set(expected), where
        for k in expected:
            same(actual[k], expected[k], f"{where}.{k}")
    elif isinstance(expected, list):
        assert isinstance(actual, list) and len(actual) == len(expected), where
        for i, (a, e) in enumerate(zip(actual, expected, strict=True)):
            same(a, e, f"{where}[{i}]")
    elif isinstance(expected, bool | str) or expected is None:
        assert actual == expected, where
    elif isinstance(expected, int | float):
        assert isinstance(actual, int | float) and not isinstance(actual, bool), where
        assert math.isclose(actual, expected, rel_tol=1e-9, abs_tol=0.0), \
            f"{where}: {actual!r} != {expected!r}"
    else:
        raise AssertionError(f"{where}: unexpected {expected!r}")


def _entities(value: dict[str, Any] | None) -> Entities | None:
    return None if value is None else Entities(list(value["entities"]), dict(value["weights"]))


def run_calculate_score(inp: dict[str, Any], exp: dict[str, Any]) -> None:
    bd = calculate_score(inp["memory"], inp["contextEmbedding"], inp["chatLength"],
                         inp["constants"], inp["settings"], inp["bm25Score"])
    same(bd.as_js(), exp["breakdown"], "breakdown")


def run_score_memories(inp: dict[str, Any], exp: dict[str, Any]) -> None:
    tokens = None if inp["queryTokens_is_undefined"] else inp["queryTokens"]
    scored, inter = score_memories(inp["memories"], inp["contextEmbedding"],
                                   inp["chatLength"], inp["constants"], inp["settings"], tokens)
    assert [s.index for s in scored] == exp["order"]
    same([{"index": s.index, "score": s.score, "breakdown": s.breakdown.as_js()}
          for s in scored], exp["results"], "results")
    same(inter, exp["intermediates"], "intermediates")


def run_tokenize(inp: dict[str, Any], exp: dict[str, Any]) -> None:
    assert tokenize(inp["text"]) == exp["tokens"]


def run_extract(inp: dict[str, Any], exp: dict[str, Any]) -> None:
    got = extract_query_context(inp["messages"], inp["activeCharacters"])
    assert got.entities == exp["entities"]
    same(got.weights, exp["weights"], "weights")


def run_embedding_query(inp: dict[str, Any], exp: dict[str, Any]) -> None:
    cfg = QueryConfig(embedding_chars=inp["chunkSize"])  # getOptimalChunkSize, stubbed
    got = build_embedding_query(inp["messages"], _entities(inp["extractedEntities"]), cfg)
    assert got == exp["query"]


def run_bm25_tokens(inp: dict[str, Any], exp: dict[str, Any]) -> None:
    got = build_bm25_tokens(inp["userMessage"], _entities(inp["extractedEntities"]))
    assert got == exp["tokens"]


def run_parse_recent(inp: dict[str, Any], exp: dict[str, Any]) -> None:
    count = 10 if inp["count"] is None else inp["count"]  # null = not passed: the default
    assert parse_recent_messages(inp["recentContext"], count) == exp["messages"]


RUNNERS: dict[str, Callable[[dict[str, Any], dict[str, Any]], None]] = {
    "ov_calculate_score": run_calculate_score,
    "ov_score_memories": run_score_memories,
    "ov_tokenize": run_tokenize,
    "ov_extract_query_context": run_extract,
    "ov_build_embedding_query": run_embedding_query,
    "ov_build_bm25_tokens": run_bm25_tokens,
    "ov_parse_recent_messages": run_parse_recent,
}


@pytest.mark.parametrize("case", _cases())
def test_golden(case: dict[str, Any]) -> None:
    RUNNERS[case["kind"]](case["input"], case["expected"])


def test_every_kind_has_a_runner() -> None:
    if not GOLDEN.exists():
        pytest.skip(f"{GOLDEN} absent")
    kinds = {json.loads(line)["kind"] for line in GOLDEN.read_text().splitlines() if line}
    assert kinds <= set(RUNNERS)
