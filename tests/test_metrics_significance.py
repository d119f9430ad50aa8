"""Paired significance tests against scipy: exact permutation p-values agree to rounding,
random ones within Monte Carlo error, and both behave at the extremes."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from workbench.core.metrics import PairedTest, paired_test
from workbench.core.metrics.significance import EXACT_MAX_NONZERO


def _scipy_sign_flip(a: np.ndarray, b: np.ndarray, n_resamples: int) -> float:
    def statistic(x: np.ndarray, y: np.ndarray, axis: int) -> np.ndarray:
        return np.asarray(np.mean(y - x, axis=axis))

    res = stats.permutation_test((a, b), statistic, permutation_type="samples",
                                 vectorized=True, n_resamples=n_resamples,
                                 alternative="two-sided", rng=np.random.default_rng(1))
    return float(res.pvalue)


def _pair(n: int, effect: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    a = rng.uniform(0, 1, n)
    b = np.clip(a + effect + rng.normal(0, 0.2, n), 0, 1)
    return a, b


@pytest.mark.parametrize(("n", "effect", "seed"), [(8, 0.0, 1), (10, 0.05, 2), (12, 0.1, 3)])
def test_exact_randomization_equals_scipy(n: int, effect: float, seed: int) -> None:
    a, b = _pair(n, effect, seed)
    ours = paired_test(a, b, "randomization", n_resamples=10_000)
    assert ours.exact and ours.n_resamples == 2**n
    assert ours.p_value == pytest.approx(_scipy_sign_flip(a, b, 10_000), abs=1e-12)


def test_exact_exactly_when_the_budget_covers_every_sign_assignment() -> None:
    # scipy's permutation_test enumerates all 2^n sign assignments once n_resamples reaches
    # 2^n: at 2^n both are exact and agree to rounding. Past EXACT_MAX_NONZERO non-zero
    # differences and below 2^n resamples the p-value is sampled
    a, b = _pair(10, 0.05, 5)
    at = paired_test(a, b, "randomization", n_resamples=2**10)
    assert at.exact and at.n_resamples == 2**10
    assert at.p_value == pytest.approx(_scipy_sign_flip(a, b, 2**10), abs=1e-12)
    a, b = _pair(EXACT_MAX_NONZERO + 1, 0.05, 5)
    below = paired_test(a, b, "randomization", n_resamples=1000, seed=3)
    assert not below.exact and below.n_resamples == 1000


def _brute_force_p(d: np.ndarray) -> float:
    """Two-sided sign-flip p over every one of the 2^n sign vectors, one row per vector."""
    n = d.size
    observed = abs(d.sum())
    hits = 0
    for lo in range(0, 1 << n, 1 << 16):
        codes = np.arange(lo, min(1 << n, lo + (1 << 16)))
        signs = 1 - 2 * ((codes[:, None] >> np.arange(n)) & 1)
        hits += int((np.abs(signs @ d) >= observed - 1e-9).sum())
    return hits / (1 << n)


def test_exact_over_the_non_zero_differences_when_most_queries_tie() -> None:
    # 18 queries changed among 60: a zero's sign changes no sum, so the 2^18 patterns of the
    # changed ones give the exact p (the old rule looked at 2^60 and sampled 10,000 instead)
    rng = np.random.default_rng(11)
    changed = np.round(rng.normal(0.03, 0.1, 18), 4)
    a = rng.uniform(0, 1, 60)
    b = a.copy()
    b[:18] += changed
    res = paired_test(a, b, "randomization", n_resamples=10_000)
    assert res.exact and res.n_resamples == 2**18
    assert (res.improved + res.worsened, res.tied) == (18, 42)
    assert res.p_value == pytest.approx(_brute_force_p(b[:18] - a[:18]), abs=1e-12)


def test_exact_puts_a_p_near_005_on_its_side() -> None:
    # per-query map@100 differences of a review's story comparison (hybrid, alpha=0.3 with
    # z-score normalisation against defaults), rounded to 6 dp: 26 non-zero. Sampling 10,000
    # sign vectors reported p 0.053 (±0.002); the exact count, 3,222,222 of 2^26, from an
    # independent meet-in-the-middle enumeration, is 0.04801 — below 0.05
    d = np.array([
        -0.059133, -0.058088, 0.203698, 0.029713, 0.033617, 0.037656, 0.19097, 0.031169,
        -0.007778, 0.039926, 0.041667, 0.115748, -0.03907, 0.324601, -0.037456, 0.025374,
        -0.169079, 0.168788, -0.116096, 0.033573, -0.049747, 0.064936, 0.284746, 0.231992,
        -0.033423, -0.008156])
    res = paired_test(np.zeros(26), d, "randomization", n_resamples=10_000)
    assert res.exact and res.n_resamples == 2**26
    assert res.p_value == pytest.approx(3_222_222 / 2**26, abs=1e-12)


def test_random_randomization_close_to_scipy() -> None:
    a, b = _pair(60, 0.04, 4)
    ours = paired_test(a, b, "randomization", n_resamples=20_000, seed=7)
    assert not ours.exact
    reference = _scipy_sign_flip(a, b, 20_000)
    assert 0.005 < reference < 0.5  # a p-value where Monte Carlo error shows
    assert ours.p_value == pytest.approx(reference, abs=0.015)


@pytest.mark.parametrize("method", ["randomization", "bootstrap"])
def test_identical_runs_give_p_one(method: str) -> None:
    a = np.random.default_rng(0).uniform(0, 1, 50)
    res = paired_test(a, a.copy(), method)  # type: ignore[arg-type]
    assert res.p_value == 1.0
    assert (res.improved, res.worsened, res.tied, res.n) == (0, 0, 50, 50)
    assert res.delta == 0.0


@pytest.mark.parametrize("method", ["randomization", "bootstrap"])
def test_strong_effect_gives_tiny_p_like_a_t_test(method: str) -> None:
    a, b = _pair(300, 0.1, 5)
    res = paired_test(a, b, method, n_resamples=10_000)  # type: ignore[arg-type]
    assert stats.ttest_rel(b, a).pvalue < 1e-10
    assert res.p_value == pytest.approx(1 / 10_001)  # no resample reaches the observed mean
    assert res.delta == pytest.approx(b.mean() - a.mean())
    assert res.improved > res.worsened


@pytest.mark.parametrize("method", ["randomization", "bootstrap"])
@pytest.mark.parametrize(("effect", "seed"), [(0.03, 9), (0.02, 9)])
def test_moderate_effect_agrees_with_t_test(method: str, effect: float, seed: int) -> None:
    # with n = 300 the mean difference is near normal, so the t-test is a fair yardstick
    a, b = _pair(300, effect, seed)
    t_p = float(stats.ttest_rel(b, a).pvalue)
    assert 0.01 < t_p < 0.5
    res = paired_test(a, b, method, n_resamples=20_000)  # type: ignore[arg-type]
    assert res.p_value == pytest.approx(t_p, abs=0.02)


@pytest.mark.parametrize("method", ["randomization", "bootstrap"])
def test_deterministic_and_symmetric(method: str) -> None:
    a, b = _pair(40, 0.03, 8)
    one: PairedTest = paired_test(a, b, method, seed=3)  # type: ignore[arg-type]
    assert paired_test(a, b, method, seed=3) == one  # type: ignore[arg-type]
    flipped = paired_test(b, a, method, seed=3)  # type: ignore[arg-type]
    assert flipped.p_value == one.p_value
    assert flipped.delta == pytest.approx(-one.delta)
    assert (flipped.improved, flipped.worsened) == (one.worsened, one.improved)
    assert one.method == method and one.mean_a == pytest.approx(a.mean())


def test_nan_pairs_are_left_out_and_bad_input_raises() -> None:
    a = np.array([0.1, np.nan, 0.5, 0.7, 0.2])
    b = np.array([0.3, 0.4, np.nan, 0.9, 0.2])
    res = paired_test(a, b)
    assert res.n == 3 and (res.improved, res.worsened, res.tied) == (2, 0, 1)
    assert res.exact and res.p_value == pytest.approx(_scipy_sign_flip(
        a[[0, 3, 4]], b[[0, 3, 4]], 10_000))
    with pytest.raises(ValueError, match="same length"):
        paired_test([0.1, 0.2], [0.1])
    with pytest.raises(ValueError, match="finite"):
        paired_test([0.1, np.inf], [0.1, 0.2])
    with pytest.raises(ValueError, match="no queries"):
        paired_test([np.nan], [0.1])
    with pytest.raises(ValueError, match="method"):
        paired_test([0.1], [0.2], method="wilcoxon")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="n_resamples"):
        paired_test([0.1], [0.2], n_resamples=0)
