"""OpenVault's scoring formulas (REFERENCE.md §3), each pinned with a value worked out by hand
in the test (the comments show the arithmetic), not read off the code."""

from __future__ import annotations

import math

import pytest

from workbench.core.models.hybrid import (
    adjust_query_tokens,
    bm25_score,
    calculate_idf,
    calculate_score,
    cosine_similarity,
    migrate_settings,
    score_memories,
)
from workbench.core.models.hybrid.bm25 import adjusted_count

CONST = {"BASE_LAMBDA": 0.05, "IMPORTANCE_5_FLOOR": 5}
BLEND = {"vectorSimilarityThreshold": 0.5, "alpha": 0.7, "combinedBoostWeight": 15}


def close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-15)


def test_idf_aware_adjustment_rare_and_common_tokens() -> None:
    # 30 memories: "rare" in 2 of them, "suzi" in 28
    docs = [["rare"], ["rare"]] + [["suzi"]] * 28
    idf, _ = calculate_idf(docs)
    # rare: idf = ln((30 − 2 + 0.5)/(2 + 0.5) + 1) = ln(12.4) = 2.5177; ln(31) = 3.4340;
    # ratio 0.73317; 17 × 0.73317 = 12.46 → 12 (REFERENCE: 12, not the design's 14)
    assert close(idf["rare"], math.log(12.4))
    assert adjust_query_tokens(["rare"] * 17, idf, 30) == ["rare"] * 12
    # suzi: idf = ln(2.5/28.5 + 1) = 0.08409, ratio 0.02449, 17 × 0.0245 = 0.42 → 0 → max 1
    assert adjust_query_tokens(["suzi"] * 17, idf, 30) == ["suzi"]
    # a token no memory holds keeps ratio 1: all 4 copies stay
    assert adjust_query_tokens(["zzz"] * 4, idf, 30) == ["zzz"] * 4


def test_adjusted_count_rounds_halves_up() -> None:
    # 5 × 0.5 = 2.5: Math.round gives 3 (Python's round would give 2)
    assert adjusted_count(5, 0.5) == 3
    assert adjusted_count(1, 0.1) == 1  # never below 1


def test_bm25_formula_and_repeated_query_tokens() -> None:
    docs = [["dragon", "dragon"], ["dragon", "knight", "castl", "tower"], ["quiet", "town"]]
    idf, avgdl = calculate_idf(docs)
    assert avgdl == 8 / 3
    # df(dragon) = 2 of N = 3: idf = ln((3 − 2 + 0.5)/(2 + 0.5) + 1) = ln(1.6)
    assert close(idf["dragon"], math.log(1.6))
    # doc 0: tf 2, dl 2: 2·2.2 / (2 + 1.2·(0.25 + 0.75·2/(8/3))) = 4.4 / 2.975
    assert close(bm25_score(["dragon"], docs[0], idf, avgdl), math.log(1.6) * 4.4 / 2.975)
    # doc 1: tf 1, dl 4: 2.2 / (1 + 1.2·(0.25 + 0.75·1.5)) = 2.2 / 2.65
    assert close(bm25_score(["dragon"], docs[1], idf, avgdl), math.log(1.6) * 2.2 / 2.65)
    # each query occurrence counts (no query-side saturation)
    assert close(bm25_score(["dragon", "dragon"], docs[1], idf, avgdl),
                 2 * math.log(1.6) * 2.2 / 2.65)
    # k1 and b are arguments: b = 0 removes length normalisation: 2.2/(1 + 1.2)
    assert close(bm25_score(["dragon"], docs[1], idf, avgdl, b=0.0), math.log(1.6))


def test_bm25_bonus_is_capped_and_one_match_gets_it_all() -> None:
    # a single memory (a batch under 3: the design's skip rule was never shipped) that matches
    # gets raw/max = 1, i.e. the full (1 − 0.7) · 15 = 4.5
    scored, _ = score_memories([{"summary": "dragon", "message_ids": [100]}], None, 100,
                               CONST, BLEND, ["dragon"] * 50)
    assert close(scored[0].breakdown.bm25_bonus, 0.3 * 15) and scored[0].breakdown.bm25_score == 1
    # however large the raw scores, no memory's bonus exceeds (1 − alpha)·W
    memories = [{"summary": "dragon " * k, "message_ids": [100]} for k in (1, 5, 40)] + \
               [{"summary": "quiet town", "message_ids": [100]}]
    scored, inter = score_memories(memories, None, 100, CONST, BLEND, ["dragon"] * 30)
    assert inter is not None and max(inter["raw_bm25"]) > 4.5
    assert max(s.breakdown.bm25_bonus for s in scored) == pytest.approx(4.5, rel=1e-12)
    assert all(s.breakdown.bm25_bonus <= 4.5 + 1e-12 for s in scored)


def test_vector_threshold_is_strict_and_zero_means_half() -> None:
    memory = {"importance": 3, "message_ids": [100], "embedding": [3.0, 4.0]}
    # cosine([1, 0], [3, 4]) = 3/5 = 0.6 exactly
    assert cosine_similarity([1.0, 0.0], [3.0, 4.0]) == 0.6

    def bonus(threshold: float) -> float:
        settings = {**BLEND, "vectorSimilarityThreshold": threshold}
        return calculate_score(memory, [1.0, 0.0], 100, CONST, settings).vector_bonus

    assert bonus(0.6) == 0.0  # sim = t: not strictly above
    # t = 0.55: 0.7 · 15 · (0.6 − 0.55)/(1 − 0.55) = 10.5 · 0.05/0.45 = 1.1667
    assert close(bonus(0.55), 10.5 * (0.6 - 0.55) / (1 - 0.55))
    # t = 0 means 0.5: 10.5 · (0.6 − 0.5)/0.5 = 2.1 (not 10.5 · 0.6 = 6.3)
    assert close(bonus(0.0), 10.5 * (0.6 - 0.5) / 0.5)


def test_cosine_edge_cases() -> None:
    assert cosine_similarity([1.0, 0.0], [1.0, 0.0, 0.0]) == 0.0  # different lengths
    assert cosine_similarity([0.0, 0.0], [1.0, 0.0]) == 0.0  # a zero vector
    assert cosine_similarity([], []) == 0.0
    # no vector bonus without both embeddings: the memory has none
    bd = calculate_score({"importance": 3, "message_ids": [100]}, [1.0, 0.0], 100, CONST, BLEND)
    assert bd.vector_bonus == 0.0 and bd.vector_similarity == 0.0


def test_forgetting_curve() -> None:
    # importance 2, distance 100 − 90 = 10: λ = 0.05/2² = 0.0125, base = 2·e^(−0.125)
    bd = calculate_score({"importance": 2, "message_ids": [80, 90]}, None, 100, CONST, BLEND)
    assert bd.distance == 10 and close(bd.base, 2 * math.exp(-0.125))
    # importance 0 or missing → 3; distance never negative (message 120 of a 100-long chat)
    for memory in ({"importance": 0, "message_ids": [120]}, {"message_ids": [120]}):
        bd = calculate_score(memory, None, 100, CONST, BLEND)
        assert bd.importance == 3 and bd.distance == 0 and bd.base == 3
    # message_ids missing → [0]: distance = chat length
    assert calculate_score({"importance": 3}, None, 40, CONST, BLEND).distance == 40


def test_importance_five_floor() -> None:
    # importance 5, distance 1000: 5·e^(−0.002·1000) = 5·e^−2 = 0.677, floored to 5
    bd = calculate_score({"importance": 5, "message_ids": [0]}, None, 1000, CONST, BLEND)
    assert close(bd.base, 5 * math.exp(-2)) and bd.base_after_floor == 5
    assert close(bd.recency_penalty, 5 - 5 * math.exp(-2))
    # importance 4 has no floor
    bd = calculate_score({"importance": 4, "message_ids": [0]}, None, 1000, CONST, BLEND)
    assert bd.base_after_floor == bd.base


def test_empty_message_ids_are_kept() -> None:
    # [] is not replaced by [0]: max() = −∞, distance ∞, base 0 ...
    bd = calculate_score({"importance": 4, "message_ids": []}, None, 100, CONST, BLEND)
    assert bd.distance == math.inf and bd.base == 0 and bd.total == 0
    # ... while the importance-5 floor still applies
    bd = calculate_score({"importance": 5, "message_ids": []}, None, 100, CONST, BLEND)
    assert bd.base == 0 and bd.base_after_floor == 5 and bd.total == 5


def test_total_and_stable_order() -> None:
    # equal totals keep memory order (the original's sort is stable)
    memories = [{"summary": "a b c", "importance": 3, "message_ids": [50]} for _ in range(3)]
    scored, _ = score_memories(memories, None, 100, CONST, BLEND, None)
    assert [s.index for s in scored] == [0, 1, 2]


@pytest.mark.parametrize(("legacy", "alpha", "weight"), [
    ({"vectorSimilarityWeight": 20, "keywordMatchWeight": 5}, 20 / 25, 20),
    ({"vectorSimilarityWeight": 10}, 10 / (10 + 3), 10),    # kw defaults to 3
    ({"keywordMatchWeight": 6}, 15 / (15 + 6), 15),          # vw defaults to 15
])
def test_legacy_settings_migration(legacy: dict[str, float], alpha: float,
                                   weight: float) -> None:
    out = migrate_settings(legacy)
    assert close(out["alpha"], alpha) and out["combinedBoostWeight"] == weight


def test_migration_leaves_new_or_empty_settings_alone() -> None:
    new = {"alpha": 0.4, "combinedBoostWeight": 9, "vectorSimilarityWeight": 20}
    assert migrate_settings(new) == new
    assert migrate_settings({}) == {}


def test_calculate_score_ignores_legacy_weights_without_migration() -> None:
    # calculateScore falls back to alpha 0.7, W 15 (the golden case "uses legacy settings as
    # fallback"): vector bonus 0.7 · 15 · 1 = 10.5, not 15/18 · 15 = 12.5
    memory = {"importance": 3, "message_ids": [100], "embedding": [1.0, 0.0]}
    legacy = {"vectorSimilarityWeight": 15, "keywordMatchWeight": 3}
    assert calculate_score(memory, [1.0, 0.0], 100, CONST, legacy).vector_bonus == 10.5
