"""Paired significance tests against scipy: exact permutation p-values agree to rounding,
random ones within Monte Carlo error, and both behave at the extremes."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from workbench.core.metrics import PairedTest, paired_test


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
    # 2^n (and samples below it): at 2^n both are exact and agree to rounding
    a, b = _pair(10, 0.05, 5)
    at = paired_test(a, b, "randomization", n_resamples=2**10)
    assert at.exact and at.n_resamples == 2**10
    assert at.p_value == pytest.approx(_scipy_sign_flip(a, b, 2**10), abs=1e-12)
    below = paired_test(a, b, "randomization", n_resamples=2**10 - 1, seed=3)
    assert not below.exact and below.n_resamples == 2**10 - 1


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
