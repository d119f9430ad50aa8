"""The optimiser's core on small deterministic cases: the grid finds the exhaustive optimum,
folds never score a query they tuned on, a study continues where it stopped, constraints hold.

The exhaustive optima are computed here by looping over the grid with the plain pipeline
(`Pipeline.run`, the path `eval` takes), not through the tuning code."""

from __future__ import annotations

import itertools
import json
import random
from dataclasses import replace
from datetime import datetime
from pathlib import Path

import numpy as np
import optuna
import pytest

from tests.conftest import SAMPLES
from workbench.core.formats import load_dataset
from workbench.core.models import get_model
from workbench.core.params import ParamError
from workbench.core.pipeline import Pipeline
from workbench.core.tuning import (
    Constraint,
    Evaluator,
    TuneSpec,
    build_space,
    kfold,
    no_validation,
    parse_ranges,
    storage_url,
    time_split,
    tune,
)
from workbench.core.tuning.objectives import masked_mean
from workbench.core.tuning.space import default_names


@pytest.fixture(scope="module")
def tea():
    return load_dataset(SAMPLES / "tea-beir")


@pytest.fixture(scope="module")
def bm25_eval(tea):
    return Evaluator(get_model("bm25"), tea, {}, ["ndcg@10"])


def _space(**ranges):
    return build_space(get_model("bm25").schema, list(ranges),
                       {k: v for k, v in ranges.items()})


def _spec(tmp_path, space, **kw):
    kw.setdefault("storage", storage_url(str(tmp_path / "s.db"), tmp_path / "x.db"))
    return TuneSpec(space, kw.pop("objectives", ("ndcg@10",)), **kw)


def test_the_grid_finds_the_exhaustive_optimum(tmp_path, tea, bm25_eval):
    space = _space(k1=(0.8, 1.6), b=(0.4, 0.9))
    ks = [round(0.8 + 0.05 * i, 10) for i in range(17)]
    bs = [round(0.4 + 0.05 * i, 10) for i in range(11)]
    pipe = Pipeline(get_model("bm25"), tea)
    exhaustive = {}
    for k1, b in itertools.product(ks, bs):
        pipe.update({"k1": k1, "b": b})
        exhaustive[(k1, b)] = pipe.run(["ndcg@10"]).means["ndcg@10"]
    best_value = max(exhaustive.values())
    best_points = {p for p, v in exhaustive.items() if v == best_value}

    result = tune(bm25_eval, no_validation(bm25_eval.counted()),
                  _spec(tmp_path, space, sampler="grid", pick="best"))
    assert result is not None
    assert result.final.trials == len(ks) * len(bs)
    assert (result.final.best["k1"], result.final.best["b"]) in best_points
    assert result.final.train_best[0] == pytest.approx(best_value, abs=1e-12)
    assert result.test is None  # no held-out queries: nothing reported as held out


def test_k_fold_never_scores_a_query_it_tuned_on(tmp_path, bm25_eval):
    counted = bm25_eval.counted()
    validation = kfold(counted, 5, seed=3)
    held = np.zeros(counted.size, int)
    for fold in validation.folds:
        assert not (fold.train & fold.test).any()
        assert ((fold.train | fold.test) == counted).all()
        held += fold.test
    assert (held[counted] == 1).all() and (held[~counted] == 0).all()

    reports = []
    # pick="best": each fold keeps its highest training mean. The default ("bound") keeps the
    # starting values in every fold here, and `train_best` would then be the start's own mean.
    result = tune(bm25_eval, validation, _spec(tmp_path, _space(k1=(0.5, 2.0)), trials=6,
                                               seed=1, pick="best"), on_trial=reports.append)
    assert result is not None and len(result.folds) == 5
    for fold, spec in zip(result.folds, validation.folds, strict=True):
        assert not fold.kept_start and fold.picked is not None
        # held-out values exist exactly on the fold's own held-out queries
        assert (~np.isnan(fold.held_tuned) == spec.test).all()
        # what the study was told is the mean over its training queries only
        per_q = bm25_eval.evaluate(fold.best)["ndcg@10"]
        assert fold.train_best[0] == pytest.approx(masked_mean(per_q, spec.train), abs=1e-12)
        assert fold.train_best[0] != pytest.approx(masked_mean(per_q, spec.test), abs=1e-9)
        # and so was every trial of the fold's study, not only the kept one
        trials = [t for t in result.studies[fold.name].trials if t.values is not None]
        assert len(trials) == 6
        for t in trials:
            per_q = bm25_eval.evaluate(t.user_attrs["scored"])["ndcg@10"]
            assert t.values[0] == pytest.approx(masked_mean(per_q, spec.train), abs=1e-12)
    # the last study tunes on every query and has no held-out score
    assert result.final.name == "all" and np.isnan(result.final.held_tuned).all()
    assert result.test is not None and result.test.n == int(counted.sum())


def test_changing_held_out_judgments_does_not_change_what_a_fold_tunes_on(tmp_path, tea):
    ev = Evaluator(get_model("bm25"), tea, {}, ["ndcg@10"])
    validation = kfold(ev.counted(), 4, seed=0)
    fold = validation.folds[0]
    held_ids = [tea.queries[i].id for i in np.flatnonzero(fold.test)]
    # the held-out queries' judgments turned upside down
    flipped = {q: ({d: (0 if g else 1) for d, g in grades.items()} if q in held_ids else grades)
               for q, grades in tea.qrels.items()}
    other = type(tea)(tea.name, tea.corpus, tea.queries, flipped, tea.source)
    ev2 = Evaluator(get_model("bm25"), other, {}, ["ndcg@10"])
    space = _space(k1=(0.5, 2.0), b=(0.2, 1.0))
    # pick="best": the fold keeps a trial it found (the default keeps the start here, and two
    # starts are equal whatever the study was told)
    one = tune(ev, validation, _spec(tmp_path, space, trials=8, seed=5, study="a", pick="best"))
    two = tune(ev2, validation, _spec(tmp_path, space, trials=8, seed=5, study="b", pick="best"))
    assert one is not None and two is not None
    assert not one.folds[0].kept_start and not two.folds[0].kept_start
    assert one.folds[0].best == two.folds[0].best
    assert one.folds[0].train_best == two.folds[0].train_best
    # every trial told the same training mean in both, and that mean is over training queries
    label = one.folds[0].name
    told_one = [(t.params, t.values) for t in one.studies[label].trials]
    told_two = [(t.params, t.values) for t in two.studies[label].trials]
    assert len(told_one) == 8 and told_one == told_two
    for t in one.studies[label].trials:
        per_q = ev.evaluate(t.user_attrs["scored"])["ndcg@10"]
        assert t.values[0] == pytest.approx(masked_mean(per_q, fold.train), abs=1e-12)


def test_a_study_continues_with_the_same_trial_numbers(tmp_path, bm25_eval):
    space = _space(k1=(0.5, 2.0), b=(0.2, 1.0))
    validation = no_validation(bm25_eval.counted())
    tune(bm25_eval, validation, _spec(tmp_path, space, trials=5, study="resume"))
    url = storage_url(str(tmp_path / "s.db"), tmp_path / "x.db")
    first = optuna.load_study(study_name="resume/all", storage=url).trials
    tune(bm25_eval, validation, _spec(tmp_path, space, trials=9, study="resume"))
    after = optuna.load_study(study_name="resume/all", storage=url).trials
    assert [t.number for t in after] == list(range(9))
    assert [(t.params, t.values) for t in after[:5]] == [(t.params, t.values) for t in first]
    # a third run with the same budget adds nothing
    tune(bm25_eval, validation, _spec(tmp_path, space, trials=9, study="resume"))
    assert len(optuna.load_study(study_name="resume/all", storage=url).trials) == 9


def test_a_continued_study_samples_new_points(tmp_path, bm25_eval):
    # reseeded with the run's own seed, a continuation drew the stored points again
    space = _space(k1=(0.5, 2.0), b=(0.2, 1.0))
    validation = no_validation(bm25_eval.counted())
    for n in (3, 6, 9):
        tune(bm25_eval, validation, _spec(tmp_path, space, trials=n, study="more",
                                          sampler="random"))
    url = storage_url(str(tmp_path / "s.db"), tmp_path / "x.db")
    points = [tuple(sorted(t.params.items()))
              for t in optuna.load_study(study_name="more/all", storage=url).trials]
    assert len(points) == 9 and len(set(points)) == 9


def test_other_folds_are_refused_before_any_trial(tmp_path, bm25_eval):
    """A named study run again with another --folds made its new fold studies, ran them to
    the end, and was refused only at the study on all queries, its work left behind."""
    space = _space(k1=(0.5, 2.0))
    tune(bm25_eval, kfold(bm25_eval.counted(), 5, seed=0),
         _spec(tmp_path, space, trials=2, study="mine"))
    with pytest.raises(ParamError, match="'mine/all' exists in this storage with other"):
        tune(bm25_eval, kfold(bm25_eval.counted(), 3, seed=0),
             _spec(tmp_path, space, trials=2, study="mine"))
    url = storage_url(str(tmp_path / "s.db"), tmp_path / "x.db")
    names = {s.study_name for s in optuna.get_all_study_summaries(url)}
    assert not any("of 3" in n for n in names), names  # no trial of the refused run


def test_a_study_with_other_settings_is_not_continued(tmp_path, bm25_eval):
    validation = no_validation(bm25_eval.counted())
    tune(bm25_eval, validation, _spec(tmp_path, _space(k1=(0.5, 2.0)), trials=2, study="x"))
    with pytest.raises(ParamError, match=r"other settings \(search space \(--tune, "
                                         r"--range\) differs\)"):
        tune(bm25_eval, validation, _spec(tmp_path, _space(b=(0.1, 0.9)), trials=2, study="x"))
    with pytest.raises(ParamError, match=r"other settings \(seed \(--seed\) differs\)"):
        tune(bm25_eval, validation, _spec(tmp_path, _space(k1=(0.5, 2.0)), trials=2, study="x",
                                          seed=7))
    fresh = tune(bm25_eval, validation,
                 _spec(tmp_path, _space(b=(0.1, 0.9)), trials=2, study="x", fresh=True))
    assert fresh is not None and set(fresh.final.best) == {"b"}


def test_changed_judgments_do_not_continue_a_study(tmp_path, tea, bm25_eval):
    # stored trial values were computed against the old qrels: mixing them in would rank a
    # stale value against fresh ones
    from dataclasses import replace

    from workbench.core.tuning.runner import study_name

    space = _space(k1=(0.5, 2.0))
    validation = no_validation(bm25_eval.counted())
    spec = _spec(tmp_path, space, trials=2)
    tune(bm25_eval, validation, spec)
    qrels = {q: dict(list(docs.items())[:1]) for q, docs in tea.qrels.items()}
    edited = Evaluator(get_model("bm25"), replace(tea, qrels=qrels), {}, ["ndcg@10"])
    assert study_name(spec, edited, validation) != study_name(spec, bm25_eval, validation)
    tune(bm25_eval, validation, _spec(tmp_path, space, trials=2, study="j"))
    with pytest.raises(ParamError, match="judgments"):
        tune(edited, no_validation(edited.counted()), _spec(tmp_path, space, trials=2,
                                                             study="j"))


def test_a_constraint_is_met_by_the_best_trial(tmp_path, bm25_eval):
    ev = Evaluator(get_model("vault-search"), load_dataset(SAMPLES / "vault"), {},
                   ["ndcg@10", "results"])
    space = build_space(ev.model.schema, ["min_score", "w_tf"])
    bound = Constraint("results", "<=", 3.0)
    result = tune(ev, no_validation(ev.counted()),
                  _spec(tmp_path, space, trials=25, seed=2, constraints=(bound,)))
    assert result is not None and result.final.best
    per_q = ev.evaluate(result.final.best)["results"]
    assert masked_mean(per_q, ev.counted()) <= 3.0


def test_time_split_tunes_on_the_older_tasks():
    ds = load_dataset(SAMPLES / "code-repo")
    # the dates as the task file states them (the dataset itself keeps commit and snapshot)
    lines = (SAMPLES / "code-repo" / "tasks.jsonl").read_text().splitlines()
    date = {t["id"]: t["date"] for t in map(json.loads, lines)}
    counted = np.ones(len(ds.queries), bool)
    v = time_split(ds, counted, 0.5)
    dates = [date[q.id] for q in ds.queries]
    newest_train = max(d for d, t in zip(dates, v.folds[0].train, strict=True) if t)
    oldest_test = min(d for d, t in zip(dates, v.folds[0].test, strict=True) if t)
    assert newest_train <= oldest_test
    assert v.folds[0].train.sum() == round(len(dates) / 2)


def test_a_time_split_of_shuffled_tasks_follows_their_dates(tmp_path):
    # the task file's dates were dropped on loading, so a shuffled file was split by line
    # order under "older tasks tune"; dates in several zones are compared as instants
    import shutil

    repo = tmp_path / "code-repo"
    shutil.copytree(SAMPLES / "code-repo", repo)
    tasks = [json.loads(line) for line in (repo / "tasks.jsonl").read_text().splitlines()]
    random.Random(3).shuffle(tasks)
    (repo / "tasks.jsonl").write_text("".join(json.dumps(t) + "\n" for t in tasks))
    ds = load_dataset(repo)
    v = time_split(ds, np.ones(len(ds.queries), bool), 0.5)
    when = {t["id"]: datetime.fromisoformat(t["date"]) for t in tasks}
    train = [when[q.id] for q, t in zip(ds.queries, v.folds[0].train, strict=True) if t]
    test = [when[q.id] for q, t in zip(ds.queries, v.folds[0].test, strict=True) if t]
    assert max(train) <= min(test) and "by date" in v.describe
    # one task without a date: file order, and said so (not "the tasks have no dates")
    del tasks[0]["date"]
    (repo / "tasks.jsonl").write_text("".join(json.dumps(t) + "\n" for t in tasks))
    part = time_split(load_dataset(repo), np.ones(len(tasks), bool), 0.5)
    assert f"in file order: 1 of the {len(tasks)} tasks has no date" in part.describe


def test_time_order_reads_dates_as_instants():
    from workbench.core.data import Corpus, Dataset, Document, Query, QuerySet
    from workbench.core.tuning.validation import time_order

    dates = ["2024-01-01T10:00:00+09:00",  # 01:00 UTC: the oldest, though last as text
             "2024-01-01T09:00:00+02:00",  # 07:00 UTC
             "2024-01-01T03:00:00"]  # no zone: UTC
    ds = Dataset("d", Corpus([Document("x", "", "x")]),
                 QuerySet(Query(str(i), "q", {"date": d}) for i, d in enumerate(dates)))
    assert time_order(ds) == [0, 2, 1]


def test_a_time_split_needs_a_time():
    """tea-beir's queries are no tasks and have no date: a "newer half" in file order would
    be no time split, so it is refused in one line naming what to use instead."""
    ds = load_dataset(SAMPLES / "tea-beir")
    with pytest.raises(ParamError, match="a time split orders queries by time, and "
                       "tea-beir's have none"):
        time_split(ds, np.ones(len(ds.queries), bool), 0.5)


def test_the_default_space_is_the_live_scoring_parameters():
    schema = get_model("vault-search").schema
    names = default_names(schema)
    assert "w_tf" in names and "min_score" in names
    for left_out in ("variant", "offset", "limit", "batch_size", "context_lines"):
        assert left_out not in names
    assert default_names(get_model("bm25").schema) == ["k1", "b", "variant"]


@pytest.mark.parametrize("model_id", ["codeledger", "codeledger-document"])
def test_codeledger_tunes_scoring_not_the_budget_the_user_sets(model_id):
    # a bigger budget always finds more of a task's files: tuned for bundle recall it only grew
    # (max_files 355, token_budget 136k on httpx, task_type forced to test_update everywhere)
    names = default_names(get_model(model_id).schema)
    for held in ("budget_preset", "max_files", "token_budget", "overshoot",
                 "overshoot_min_score", "task_type"):
        assert held not in names
    for tuned in ("w_keyword", "w_content", "w_size_penalty", "sufficiency", "skip_limit",
                  "graph_share"):
        assert tuned in names
    assert "Not tuned unless named." in get_model(model_id).schema["token_budget"].help


def test_space_errors_name_the_parameter():
    schema = get_model("bm25").schema
    with pytest.raises(ParamError, match="k1 must be"):
        build_space(schema, ["k1"], {"k1": (0.0, 9.0)})
    with pytest.raises(ParamError, match="not tuned"):
        build_space(schema, ["b"], {"k1": (0.0, 1.0)})
    with pytest.raises(ParamError, match="name=low:high"):
        parse_ranges(["k1=1"])
    with pytest.raises(ParamError, match="unknown parameter"):
        build_space(schema, ["k9"])
    with pytest.raises(ParamError, match="numeric"):
        build_space(schema, ["variant"], {"variant": (0.0, 1.0)})


def test_a_narrowed_float_range_stays_on_the_slider_grid():
    # the slider's grid is the schema's low + i·step: a low end of 0.33 moved every searched
    # point off it (0.33, 0.38, …) and cut the high end; now both ends are rounded onto it
    p = get_model("bm25").schema["k1"]
    dim = build_space(get_model("bm25").schema, ["k1"], {"k1": (0.33, 0.91)}).dimensions[0]
    values = dim.values()
    assert values[0] == pytest.approx(0.35) and values[-1] == pytest.approx(0.9)
    assert np.allclose(np.diff(values), 0.05)
    on_grid = (np.asarray(values) - p.low) / 0.05
    assert np.allclose(on_grid, np.round(on_grid))
    with pytest.raises(ParamError, match="holds no value on the slider's step"):
        build_space(get_model("bm25").schema, ["k1"], {"k1": (0.31, 0.34)})


def test_the_first_trial_is_the_starting_point_so_a_tie_keeps_it(tmp_path):
    ds = load_dataset(SAMPLES / "code-repo")
    model = get_model("codeledger")
    start = {"w_keyword": 0.45, "w_centrality": 0.2}
    ev = Evaluator(model, ds, start, ["bundle_recall"])
    validation = time_split(ds, ev.counted(), 0.5)
    # the older tasks' bundles already hold every needed file at these values
    assert masked_mean(ev.evaluate({})["bundle_recall"], validation.folds[0].train) == 1.0
    space = build_space(model.schema, ["w_keyword", "w_centrality", "w_churn"])
    result = tune(ev, validation, _spec(tmp_path, space, trials=8, objectives=("bundle_recall",)))
    assert result is not None
    assert result.final.best == {**start, "w_churn": model.schema["w_churn"].default}


def test_two_objectives_give_the_pareto_front(tmp_path):
    ev = Evaluator(get_model("vault-search"), load_dataset(SAMPLES / "vault"), {},
                   ["ndcg@10", "results"])
    space = build_space(ev.model.schema, ["min_score", "w_tf", "w_density"])
    result = tune(ev, no_validation(ev.counted()),
                  _spec(tmp_path, space, trials=30, seed=4, objectives=("ndcg@10", "results")))
    assert result is not None and result.final.front
    study = result.studies["all"]
    done = [(t.values[0], t.values[1]) for t in study.trials if t.values is not None]
    front = [tuple(p["train"]) for p in result.final.front]
    # nothing done beats a front member on both (higher nDCG, fewer results) …
    for n, r in front:
        assert not any(n2 >= n and r2 <= r and (n2, r2) != (n, r) for n2, r2 in done)
    # … and every trial off the front is beaten by one on it
    for n, r in done:
        if (n, r) not in front:
            assert any(n2 >= n and r2 <= r for n2, r2 in front)
    assert [p[0] for p in front] == sorted((p[0] for p in front), reverse=True)


@pytest.mark.parametrize("sampler", ["cmaes", "random", "tpe"])
def test_each_sampler_is_repeatable_with_its_seed(tmp_path, bm25_eval, sampler):
    space = _space(k1=(0.5, 2.0), b=(0.2, 1.0))
    validation = no_validation(bm25_eval.counted())
    runs = [tune(bm25_eval, validation, _spec(tmp_path, space, trials=6, seed=9,
                                             sampler=sampler, study=f"{sampler}-{i}"))
            for i in range(2)]
    a, b = (r.studies["all"].trials for r in runs if r is not None)
    assert [t.params for t in a] == [t.params for t in b]
    assert len({(t.params["k1"], t.params["b"]) for t in a}) > 1  # it does search


def test_bundle_f1_is_an_objective_derived_per_task():
    from workbench.core.tuning.objectives import check_name, direction

    assert check_name("Bundle_F1") == "bundle_f1" and direction("bundle_f1") == "maximize"
    ds = load_dataset(SAMPLES / "code-repo")
    ev = Evaluator(get_model("codeledger"), ds, {"w_churn": 0.6},
                   ["bundle_f1", "bundle_recall", "bundle_precision"])
    got = ev.evaluate({})
    r, p = got["bundle_recall"], got["bundle_precision"]
    assert np.isfinite(r).all() and (p < 1).any() and (r + p == 0).any()
    # the harmonic mean of the task's own recall and precision (0 where both are), not of
    # their means
    want = [2 * a * b / (a + b) if a + b else 0.0 for a, b in zip(r, p, strict=True)]
    np.testing.assert_allclose(got["bundle_f1"], want, rtol=0, atol=1e-15)


@pytest.mark.parametrize("when", ["before its suggest", "during its evaluation",
                                  "between its read and write"])
def test_a_grid_point_two_workers_claimed_is_kept_once(tmp_path, bm25_eval, when):
    # two workers can claim the same waiting grid point (SQLite has no row lock); the one that
    # comes second drops its duplicate wherever the first told the trial: before the second
    # suggested its values (UpdateFinishedTrialError), while it evaluated them (optuna's tell:
    # ValueError "Cannot tell a COMPLETE trial."), or between tell's read and its write
    # (UpdateFinishedTrialError)
    import optuna
    from optuna.trial import Trial, TrialState

    from workbench.core.tuning.storage import Handle
    from workbench.core.tuning.study import _run_one

    space = _space(k1=(0.9, 1.2))
    storage = optuna.storages.RDBStorage(f"sqlite:///{tmp_path / 'g.db'}")
    try:
        study = optuna.create_study(storage=storage, study_name="g")
        study.enqueue_trial({"k1": 0.9})
        waiting = study.get_trials(states=(TrialState.WAITING,))[0]
        assert storage.set_trial_state_values(waiting._trial_id, TrialState.RUNNING)
        first, second = Trial(study, waiting._trial_id), Trial(study, waiting._trial_id)
        handle = Handle(study, study, mirror=False)
        mask = np.ones(len(bm25_eval.dataset.queries), bool)

        def run(trial, evaluator=bm25_eval):
            _run_one(handle, trial, evaluator, space, ("ndcg@10",), (), mask, None, 1, 1, None)

        if when == "before its suggest":
            run(first)
            run(second)
        elif when == "during its evaluation":
            class FirstTellsMeanwhile:
                def evaluate(self, values):
                    run(first)
                    return bm25_eval.evaluate(values)

            run(second, FirstTellsMeanwhile())
        else:
            real = storage.set_trial_state_values

            def told_meanwhile(trial_id, state, values=None):
                storage.set_trial_state_values = real
                real(trial_id, TrialState.COMPLETE, [0.5])
                return real(trial_id, state, values)

            storage.set_trial_state_values = told_meanwhile
            run(second)
        assert len(study.get_trials()) == 1
        assert len(study.get_trials(states=(TrialState.COMPLETE,))) == 1
    finally:
        storage.engine.dispose()


def test_codeledger_searches_its_weights_share_and_sufficiency_by_default():
    from workbench.core.tuning.space import model_names

    for model_id in ("codeledger", "codeledger-document"):
        names = model_names(get_model(model_id))
        assert {"w_keyword", "w_content", "w_similar", "graph_share", "sufficiency"} <= set(names)
        for left in ("skip_limit", "churn_commits", "recency_days_1", "keyword_content_weight",
                     "mult_test_update_churn", "token_budget"):
            assert left not in names
    assert model_names(get_model("bm25")) == default_names(get_model("bm25").schema)


def test_set_aside_keeps_the_starting_values_queries_out_of_every_held_out_side():
    from workbench.core.tuning.validation import set_aside

    counted = np.ones(10, bool)
    prior = np.zeros(10, bool)
    prior[:4] = True
    v = set_aside(kfold(counted, 5, seed=1), prior)
    assert v.kind == "kfold" and v.final_train.all()
    assert not any((f.test & prior).any() for f in v.folds)
    assert sum(int(f.test.sum()) for f in v.folds) == 6  # each other query held out once
    everything = set_aside(kfold(counted, 5, seed=1), counted)
    assert everything.kind == "none" and not everything.folds


def test_a_fold_with_no_feasible_trial_counts_with_the_starting_values(tmp_path, bm25_eval):
    # dropping its queries left the held-out estimate to the folds where tuning worked
    counted = bm25_eval.counted()
    impossible = Constraint("ndcg@10", ">=", 2.0)
    result = tune(bm25_eval, kfold(counted, 3, seed=0),
                  _spec(tmp_path, _space(k1=(0.5, 2.0)), trials=3, constraints=(impossible,)))
    assert result is not None and not any(f.best for f in result.folds)
    assert result.test is not None and result.test.n == int(counted.sum())
    assert result.test.delta == 0.0


def test_the_largest_seed_runs_a_continued_study(tmp_path, bm25_eval):
    # the run's seed plus its offsets (study, stored trials) passed optuna's 2**32 bound
    validation = no_validation(bm25_eval.counted())
    for n in (2, 4):
        result = tune(bm25_eval, validation, _spec(tmp_path, _space(k1=(0.5, 2.0)), trials=n,
                                                   seed=2 ** 32 - 1, study="big"))
        assert result is not None


def test_processes_sharing_a_study_draw_from_their_own_seeds(tmp_path, monkeypatch):
    # two processes started apart on one PostgreSQL study had the same seed: they tried the
    # same points side by side. A run alone keeps its seed (repeatable).
    import os
    from dataclasses import replace

    from workbench.core.tuning.runner import _process_salt

    spec = _spec(tmp_path, _space(k1=(0.5, 2.0)), trials=2)
    assert _process_salt(spec) == 0
    shared = replace(spec, shared=True)
    salts = set()
    for pid in (101, 102):
        monkeypatch.setattr(os, "getpid", lambda pid=pid: pid)
        salts.add(_process_salt(shared))
    assert len(salts) == 2


def test_a_value_idle_beside_the_others_is_not_reported_as_tuned(tmp_path):
    # rrf k was written as 60 → 327 while the normalisation kept was z-score: no effect,
    # read as a change to ship
    ev = Evaluator(get_model("hybrid"), load_dataset(SAMPLES / "story"), {}, ["ndcg@10"])
    space = build_space(ev.model.schema, ["normalization", "rrf_k", "alpha"])
    result = tune(ev, no_validation(ev.counted()),
                  _spec(tmp_path, space, trials=12, seed=1, pick="best"))
    assert result is not None and result.final.best
    best = result.final.best
    assert best["normalization"] != "rrf"  # seed 1 keeps another normalisation
    assert best["rrf_k"] == ev.base["rrf_k"]
    for t in result.studies["all"].trials:  # some trial tried another rrf k without rrf
        if t.params.get("normalization") != "rrf" and t.params.get("rrf_k") != ev.base["rrf_k"]:
            break
    else:
        pytest.fail("no trial exercised an idle rrf k")


def test_the_window_sets_aside_what_its_starting_values_were_tuned_on(tmp_path, tea):
    # tuning again from applied tuned values held out queries they were tuned on: training
    # scores reported as the held-out estimate (the command line set them aside already)
    from workbench.core.session import TuningSession
    from workbench.core.tuned_on import TunedOn
    from workbench.core.tuning.job import job_from_session, run_job

    s = TuningSession()
    s.open(SAMPLES / "tea-beir")
    s.set_model("bm25", {})
    s.recompute()
    first = tuple(f"q{i:02d}" for i in range(1, 11))
    s.set_params({"k1": 2.0}, tuned_on=TunedOn(tea.name, "earlier", first))
    s.recompute()
    job = job_from_session(s, ["b"], validation="kfold", folds=5, trials=2,
                           storage=str(tmp_path / "w.db"))
    outcome = run_job(job)
    result = outcome.result
    ids = outcome.dataset.queries.ids
    prior = np.isin(np.array(ids, dtype=object), list(first))
    assert not any((f.test & prior).any() for f in result.validation.folds)
    assert result.test is not None and result.test.n == 15
    assert result.validation.final_train[prior].all()


def test_a_trial_records_and_plots_the_values_it_scored(tmp_path, bm25_eval):
    # optuna keeps the continuous value it sampled (k1 1.6464…); the trial scored the slider's
    # step (1.65), and the window's slice and contour plots placed it at the sampled one
    from workbench.core.tuning.job import trial_points

    space = _space(k1=(0.5, 2.0), b=(0.2, 1.0))
    tune(bm25_eval, no_validation(bm25_eval.counted()),
         _spec(tmp_path, space, trials=6, study="steps", sampler="random"))
    url = storage_url(str(tmp_path / "s.db"), tmp_path / "x.db")
    study = optuna.load_study(study_name="steps/all", storage=url)
    sampled = [t for t in study.trials if t.params != space.snap(t.params)]
    assert sampled  # the random sampler draws off the 0.05 grid
    for t in study.trials:
        assert t.user_attrs["scored"] == space.snap(t.params)
    for point in trial_points(study, space):
        assert point.params == study.trials[point.number].user_attrs["scored"]
        assert all(round(v / 0.05) * 0.05 == pytest.approx(v) for v in point.params.values())


def test_trials_a_helper_stored_before_this_process_opened_the_study_are_this_runs(
        tmp_path, bm25_eval):
    # `--workers` on a fresh storage said "1 stored before": a helper had finished a trial
    # before the main process opened the study
    from workbench.core.tuning.runner import stored_counts

    space = _space(k1=(0.5, 2.0), b=(0.2, 1.0))
    validation = no_validation(bm25_eval.counted())
    spec = _spec(tmp_path, space, trials=6, study="helpers", sampler="random", shared=True)
    before = stored_counts(spec, bm25_eval, validation)
    assert before == {"all": 0}
    tune(bm25_eval, validation, replace(spec, trials=2, worker=1), score=False)  # the helper
    result = tune(bm25_eval, validation, spec, stored_before=before)
    assert result is not None and result.final.trials == 6 and result.final.new == 6
    again = tune(bm25_eval, validation, spec)
    assert again is not None and again.final.new == 0


def test_fresh_sees_a_trial_running_in_another_time_zone(tmp_path, bm25_eval, monkeypatch):
    # --fresh's in-use check compared optuna's naive local start time with this machine's
    # clock: a process five hours east, mid-trial, looked five hours gone and lost its study
    from workbench.core.tuning import runner
    from workbench.core.tuning.lock import Busy
    from workbench.core.tuning.storage import open_storage

    later = runner._local_now() + __import__("datetime").timedelta(hours=5)
    monkeypatch.setattr(runner, "_local_now", lambda: later)
    space = _space(k1=(0.5, 2.0))
    spec = _spec(tmp_path, space, trials=2, study="tz", shared=True)
    server = replace(spec, storage="postgresql+psycopg://elsewhere/studies")  # no lock file
    seen = []

    class Watching(Evaluator):  # the real evaluator; it also runs the check mid-trial
        def evaluate(self, values):
            try:
                runner.check_unused(server, open_storage(spec.storage), ["tz/all"])
                seen.append("free")
            except Busy as exc:
                seen.append(str(exc))
            return super().evaluate(values)

    watching = Watching(get_model("bm25"), bm25_eval.dataset, {}, ["ndcg@10"])
    tune(watching, no_validation(watching.counted()), spec, score=False)
    assert len(seen) == 2 and all("'tz/all' is in use" in s for s in seen), seen


def test_fresh_deletes_every_study_of_the_run_before_its_first_trial(tmp_path, bm25_eval):
    # each fold's study was deleted only when its turn came: a process that joined in the
    # meantime (a server's study) kept the old later folds, trials and all, unsaid
    validation = kfold(bm25_eval.counted(), 3, seed=0)
    space = _space(k1=(0.5, 2.0))
    tune(bm25_eval, validation, _spec(tmp_path, space, trials=3, study="f"))
    url = storage_url(str(tmp_path / "s.db"), tmp_path / "x.db")
    old = {s.study_name: s.n_trials for s in optuna.get_all_study_summaries(url)}
    assert len(old) == 4 and all(n >= 3 for n in old.values())  # three folds and all
    seen: list[dict[str, int]] = []

    def first_trial(_report: object) -> None:
        if not seen:  # what the storage holds when the run's first trial is done
            seen.append({s.study_name: s.n_trials for s in optuna.get_all_study_summaries(url)})

    tune(bm25_eval, validation, _spec(tmp_path, space, trials=2, study="f", fresh=True),
         on_trial=first_trial)
    assert seen and all(n <= 1 for n in seen[0].values()), seen


def test_a_server_url_is_shown_without_its_password_and_an_unencoded_at_is_said():
    from workbench.core.tuning.storage import shown_url

    assert shown_url("postgresql+psycopg://wb:pw@127.0.0.1:55432/postgres") == \
        "postgresql://wb:***@127.0.0.1:55432/postgres"  # was "postgresql+psycopg:…@127…"
    assert shown_url("postgresql+psycopg://wb@host/db") == "postgresql://wb@host/db"
    assert shown_url("sqlite:////tmp/s.db") == "sqlite:////tmp/s.db"
    # a / in the password (SQLAlchemy takes it), or one given as ?password=
    assert shown_url("postgresql+psycopg://wb:pa/ss@127.0.0.1:1/tune") == \
        "postgresql://wb:***@127.0.0.1:1/tune"
    assert shown_url("postgresql+psycopg://wb@h/db?sslmode=require&password=se/cret") == \
        "postgresql://wb@h/db?password=***&sslmode=require"
    assert shown_url("postgresql+psycopg://wb:pa?ss@127.0.0.1:1/db") == \
        "postgresql://wb:***@127.0.0.1:1/db"  # a ? in the password
    assert "ss" not in shown_url("postgresql+psycopg://wb:p@ss@127.0.0.1/db").split("//")[1]
    assert shown_url("postgresql+psycopg://[::1]:5432/db") == "postgresql://[::1]:5432/db"
    with pytest.raises(ParamError) as err:  # read as host "ss@127.0.0.1" by the driver
        storage_url("postgresql://wb:p@ss@127.0.0.1:5432/db", None)  # type: ignore[arg-type]
    assert "more than one @" in str(err.value) and "%40" in str(err.value)
    assert "ss@" not in str(err.value) and "p@ss" not in str(err.value)
    for url in ("postgresql://wb:p?a@ss@host/db", "postgresql://wb:p@ss/word@127.0.0.1/db"):
        with pytest.raises(ParamError, match="more than one @") as err:
            storage_url(url, None)  # type: ignore[arg-type]
        assert "wb:p" not in str(err.value) and "ss@" not in str(err.value)
        assert "word" not in str(err.value).replace("password", "")
    assert shown_url("postgresql+psycopg://wb:p@ss/word@127.0.0.1/db") == "postgresql://…"
    with pytest.raises(ParamError, match="a query value"):  # an @ elsewhere: said how to write
        storage_url("postgresql://wb@h/db?application_name=tune@laptop", None)  # type: ignore[arg-type]
    with pytest.raises(ParamError, match="no such user's home folder"):
        storage_url("~nosuchuser9/s.db", None)  # type: ignore[arg-type]


def test_a_server_connection_is_given_up_after_a_timeout(monkeypatch):
    # a server that takes the connection and never answers: tune hung with no word
    from workbench.core.tuning import storage as st

    seen: dict[str, object] = {}

    class Refused(Exception):
        pass

    def fake_rdb(url: str, engine_kwargs: dict[str, object]) -> None:  # a stand-in: the
        seen.update(engine_kwargs)  # test is about what open_storage asks of the driver
        raise Refused("connection timeout expired")

    monkeypatch.setattr(optuna.storages, "RDBStorage", fake_rdb)
    with pytest.raises(ParamError, match="connection timeout expired") as err:
        st.open_storage("postgresql+psycopg://wb:secret@10.255.255.1/db")
    assert "secret" not in str(err.value) and "postgresql://wb:***@10.255.255.1/db" in str(
        err.value)
    assert seen["connect_args"] == {"connect_timeout": st.CONNECT_TIMEOUT_S}


def test_an_objective_in_another_tools_spelling_is_kept_in_the_workbenchs():
    """rn 7: `tune --metric ndcg_cut_10` had been refused, and AP@100 too."""
    from workbench.core.tuning.objectives import check_name

    assert check_name("ndcg_cut_10") == "ndcg@10"
    assert check_name("AP@100") == "map@100"
    assert check_name("recip_rank") == "mrr"
    with pytest.raises(ParamError, match=r"unknown objective 'ndgc@10' \(unknown metric "
                       r"'ndgc@10' \(did you mean ndcg@10\?\)"):
        check_name("ndgc@10")


def test_a_parameter_named_twice_by_tune_or_range_is_said_by_name(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """dr8 5: --range k1=… --range K1=… kept the last range without a word, where a repeated
    -p warns; --tune k1,K1 said only 'names a parameter twice', not which."""
    from workbench.cli import main
    from workbench.core.tuning.space import parse_names

    schema = get_model("bm25").schema
    with pytest.raises(ParamError) as info:
        parse_names("k1,b,K1", schema)
    assert str(info.value) == "--tune names k1 twice (k1, K1): keep one"
    with pytest.raises(ParamError) as info:
        parse_names("b,b", schema)
    assert str(info.value) == "--tune names b twice: keep one"
    said: list[str] = []
    assert parse_ranges(["k1=0.5:1", "K1=1:2"], schema, said.append) == {"k1": (1.0, 2.0)}
    assert said == ["--range K1 given more than once (as k1 too); using K1=1:2"]
    said.clear()
    assert parse_ranges(["b=0.1:0.2", "b=0.3:0.4"], schema, said.append) == {"b": (0.3, 0.4)}
    assert said == ["--range b given more than once; using b=0.3:0.4"]
    assert main(["tune", str(SAMPLES / "tea-beir"), "-m", "bm25", "--tune", "k1", "--range",
                 "k1=0.5:1", "--range", "K1=1:2", "--trials", "1", "--folds", "0",
                 "--storage", str(tmp_path / "s.db")]) == 0
    captured = capsys.readouterr()
    assert ("warning: --range K1 given more than once (as k1 too); using K1=1:2"
            in captured.err)
    assert "tuning 1 parameter: k1 [1, 2]" in captured.out
