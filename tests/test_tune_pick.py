"""Which trial a study keeps: the lower bound of its per-query gain over the start, worked by
hand here, and the runner's use of it on a real study (the `best` pick against optuna's own
`best_trial`; the `bound` pick's figures recomputed from the pipeline, not the tuning code)."""

from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np
import optuna
import pytest

from tests.conftest import SAMPLES
from workbench.core.formats import load_dataset
from workbench.core.models import get_model
from workbench.core.pipeline import Pipeline
from workbench.core.tuning import Evaluator, TuneSpec, build_space, no_validation, tune
from workbench.core.tuning.pick import CANDIDATES, errors, lower_bound, pick_trial


def _trials(*means: float) -> list[SimpleNamespace]:
    """Stand-ins for optuna's FrozenTrial: what the pick reads (number, values)."""
    return [SimpleNamespace(number=i, values=[m]) for i, m in enumerate(means)]


# Student's t at the one-sided level of 2 normal standard errors (Φ(2) = 0.97725): a t table
# gives 3.3068 for 3 degrees of freedom and 13.968 for 1
T3, T1 = 3.3068, 13.968


def test_the_lower_bound_is_the_mean_less_t_standard_errors() -> None:
    # gains 0.2, 0, 0.1, 0.1: mean 0.1; sample variance (0.01 + 0.01 + 0 + 0) / 3; se = sd / 2;
    # four queries: t with 3 degrees of freedom, not a normal 2 (review b, finding 2)
    expected = 0.1 - T3 * math.sqrt(0.02 / 3) / 2
    assert lower_bound(np.array([0.2, 0.0, 0.1, 0.1, np.nan])) == pytest.approx(expected,
                                                                                 abs=1e-4)
    # two: mean 0.2, sd 0.1·√2, se 0.1
    assert lower_bound(np.array([0.1, 0.3])) == pytest.approx(0.2 - T1 * 0.1, abs=1e-3)
    assert math.isnan(lower_bound(np.array([0.3])))  # one query: no spread, no bound
    assert math.isnan(lower_bound(np.array([np.nan])))
    assert errors(1000) == pytest.approx(2.0, abs=0.01)  # many queries: 2 standard errors


def test_one_or_two_training_queries_keep_the_start() -> None:
    # one query gaining 0.2 had been a "sure" +0.2 (no spread counted as no error)
    start = np.array([0.5, np.nan])
    trials = _trials(0.7)
    p = pick_trial(trials, "bound", lambda t: np.array([0.7, np.nan]), start, 1.0, True)
    assert p.trial is None and p.n == 1
    # two queries gaining 0.06 and 0.07: a normal 2 had kept it (0.065 − 2·0.005 > 0)
    start = np.array([0.5, 0.5])
    p = pick_trial(trials, "bound", lambda t: start + np.array([0.06, 0.07]), start, 1.0, True)
    assert p.trial is None and p.n == 2


def test_a_steady_gain_beats_a_larger_lucky_one() -> None:
    start = np.zeros(8)
    lucky = np.array([0.6, -0.4] * 4)  # mean 0.1, but half the queries lose 0.4
    steady = np.full(8, 0.05)
    trials = _trials(0.1, 0.05)
    per = {0: lucky, 1: steady}
    p = pick_trial(trials, "bound", lambda t: per[t.number], start, 1.0, True)
    assert p.trial is trials[1] and p.bound == pytest.approx(0.05) and p.top is trials[0]
    best = pick_trial(trials, "best", lambda t: per[t.number], start, 1.0, True)
    assert best.trial is trials[0] and math.isnan(best.bound)


def test_the_start_is_kept_unless_a_gain_is_sure() -> None:
    start = np.array([0.5, 0.5, 0.5, 0.5])
    noisy = start + np.array([0.3, -0.2, 0.3, -0.2])  # mean gain 0.05, bound below 0
    trials = _trials(0.55)
    p = pick_trial(trials, "bound", lambda t: noisy, start, 1.0, True)
    assert p.trial is None and p.bound == 0.0 and p.top is trials[0]
    # a start that breaks a constraint cannot be kept: the surest feasible trial is
    p = pick_trial(trials, "bound", lambda t: noisy, start, 1.0, False)
    assert p.trial is trials[0] and p.bound < 0


def test_a_minimised_objective_gains_by_going_down() -> None:
    start = np.array([100.0, 120.0, 80.0])
    cheaper = start - 10.0
    p = pick_trial(_trials(-0.0), "bound", lambda t: cheaper, start, -1.0, True)
    assert p.trial is not None and p.bound == pytest.approx(10.0)


def test_only_the_best_trials_by_training_mean_are_candidates() -> None:
    start = np.zeros(4)
    n = CANDIDATES + 1
    trials = _trials(*[1.0 - i / 100 for i in range(n)])
    gains = {i: np.array([0.5, -0.5, 0.5, -0.5]) for i in range(n - 1)}
    gains[n - 1] = np.full(4, 0.01)  # sure, but ranked past the candidates
    p = pick_trial(trials, "bound", lambda t: gains[t.number], start, 1.0, True)
    assert p.trial is None


@pytest.fixture(scope="module")
def tea():
    return load_dataset(SAMPLES / "tea-beir")


def _run(tmp_path, tea, start, pick, trials=12):
    evaluator = Evaluator(get_model("bm25"), tea, start, ["ndcg@10"])
    space = build_space(evaluator.model.schema, ["k1", "b"], {"k1": (0.0, 3.0), "b": (0.0, 1.0)})
    spec = TuneSpec(space, ("ndcg@10",), trials=trials, seed=3, pick=pick,
                    storage=f"sqlite:///{tmp_path / f's-{pick}.db'}")
    result = tune(evaluator, no_validation(evaluator.counted()), spec)
    assert result is not None
    return result, space.snap  # a trial's values on the sliders' steps, as it was scored


def _ndcg(tea, params):
    """Per-query nDCG@10 through the plain pipeline (the path `eval` takes)."""
    run = Pipeline(get_model("bm25"), tea, params).run()
    return np.asarray(run.per_query["ndcg@10"], np.float64)


def test_best_keeps_what_optuna_calls_the_best_trial(tmp_path, tea) -> None:
    result, snap = _run(tmp_path, tea, {}, "best")
    study = result.studies["all"]
    assert result.final.best == snap(study.best_trial.params)
    assert result.final.picked == study.best_trial.number == result.final.top[0]


def test_from_a_poor_start_the_bound_keeps_a_sure_gain(tmp_path, tea) -> None:
    start = {"k1": 0.05, "b": 0.05}  # a poor start: most trials beat it on most queries
    result, snap = _run(tmp_path, tea, start, "bound")
    final = result.final
    assert not final.kept_start and final.picked is not None and final.bound > 0
    study = result.studies["all"]
    picked = next(t for t in study.trials if t.number == final.picked)
    gain = _ndcg(tea, snap(picked.params)) - _ndcg(tea, start)
    counted = ~np.isnan(gain)
    assert final.bound == pytest.approx(lower_bound(gain[counted]))
    # no other candidate's gain is surer (the candidates: the best by training mean)
    done = sorted((t for t in study.trials if t.state == optuna.trial.TrialState.COMPLETE),
                  key=lambda t: (-t.value, t.number))[:CANDIDATES]
    for t in done:
        g = _ndcg(tea, snap(t.params)) - _ndcg(tea, start)
        assert lower_bound(g[~np.isnan(g)]) <= final.bound + 1e-12


def test_when_the_start_is_kept_its_scores_are_the_start_s(tmp_path, tea) -> None:
    result, _ = _run(tmp_path, tea, {}, "bound", trials=4)
    final = result.final
    if not final.kept_start:
        pytest.fail(f"expected no sure gain in 4 trials on 25 queries; kept {final.picked}")
    assert final.best == {"k1": 1.2, "b": 0.75}
    assert final.train_best == final.train_default


def test_a_cancel_lands_while_the_candidates_are_scored(tmp_path, tea) -> None:
    from workbench.core.engine import Cancelled, Progress

    seen: list[str] = []
    stop = {"now": False}

    def report(_fraction: float, message: str) -> None:
        seen.append(message)
        if "scoring the best trials" in message:
            stop["now"] = True  # the user presses Cancel while the pick runs

    evaluator = Evaluator(get_model("bm25"), tea, {"k1": 0.05, "b": 0.05}, ["ndcg@10"])
    space = build_space(evaluator.model.schema, ["k1", "b"], {"k1": (0.0, 3.0), "b": (0.0, 1.0)})
    spec = TuneSpec(space, ("ndcg@10",), trials=6, seed=3,
                    storage=f"sqlite:///{tmp_path / 's.db'}")
    with pytest.raises(Cancelled):
        tune(evaluator, no_validation(evaluator.counted()), spec,
             progress=Progress(on_progress=report, should_stop=lambda: stop["now"]))
    assert sum("scoring the best trials" in m for m in seen) == 1


def test_the_bar_keeps_its_last_tenth_for_scoring_the_results(tmp_path, tea) -> None:
    """The trials filled the bar: it stood at 100 % for the second half of a small run,
    while each study's result was picked and scored, with nothing said."""
    from workbench.core.engine import Progress
    from workbench.core.tuning import kfold

    seen: list[tuple[float, str]] = []
    evaluator = Evaluator(get_model("bm25"), tea, {}, ["ndcg@10"])
    space = build_space(evaluator.model.schema, ["k1"], {"k1": (0.0, 3.0)})
    spec = TuneSpec(space, ("ndcg@10",), trials=3, seed=3,
                    storage=f"sqlite:///{tmp_path / 's.db'}")
    tune(evaluator, kfold(evaluator.counted(), 2, 0), spec,
         progress=Progress(on_progress=lambda f, m: seen.append((f, m))))
    fractions = [f for f, _ in seen]
    assert fractions == sorted(fractions)
    trials = [f for f, m in seen if m.startswith("trial ")]
    scoring = [(f, m) for f, m in seen if "scoring" in m]
    assert max(trials) == pytest.approx(0.9) and min(f for f, _ in scoring) >= 0.9
    # each of the three studies (two folds, then all) says its scoring as it starts
    starts = [m for _, m in scoring if m.endswith(": scoring the result")]
    assert [m.split(":")[0] for m in starts] == ["fold 1 of 2", "fold 2 of 2", "all"]
    # a run that scores nothing after its trials (bench --tune, a helper) fills the bar
    seen.clear()
    tune(evaluator, kfold(evaluator.counted(), 2, 0),
         TuneSpec(space, ("ndcg@10",), trials=4, seed=4, storage=f"sqlite:///{tmp_path / 't.db'}"),
         progress=Progress(on_progress=lambda f, m: seen.append((f, m))), score=False)
    assert max(f for f, m in seen if m.startswith("trial ")) == pytest.approx(1.0)
