"""codeledger signals, weights, task-type multipliers and contributions, worked by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tests.test_codeledger_fixtures import FILES, IDF_ONE, IDF_RETRY, make_dataset, prepare
from workbench.core.models.codeledger import CodeLedgerDocumentModel as CodeLedgerModel
from workbench.core.models.codeledger import signal_table
from workbench.core.models.codeledger.params import SIGNAL_NAMES

S = {s: i for i, s in enumerate(SIGNAL_NAMES)}


def signals(task: str, **overrides: object) -> dict[str, dict[str, float]]:
    _, _, prep, params = prepare({"q": task}, **overrides)
    table = signal_table(prep, params)
    return {prep.files.paths[int(d)]: {s: float(table[i, j]) for s, i in S.items()}
            for j, d in enumerate(prep.docs)}


def test_raw_signals_by_hand() -> None:
    sig = signals("retry policy")
    r = sig["svc/retry.py"]
    assert r["keyword"] == pytest.approx(1.0)  # both terms in path/symbols
    assert r["centrality"] == 0.5
    assert r["churn"] == pytest.approx(3 / 20 * math.exp(-1 / 30))  # 3 commits ≤ 90 days
    assert r["recency"] == 1.0  # 1 day
    assert r["test_relevance"] == 1.0  # its test is a keyword match too
    assert r["success_prior"] == pytest.approx(0.75 * 0.5)  # rate 3/4, maturity (30−10)/40
    assert r["fail_prior"] == pytest.approx(0.25 * 0.5)
    assert r["size_penalty"] == pytest.approx(320 / 4000)
    assert r["error_infrastructure"] == 0.0 and r["branch_changed"] == 0.0
    c = sig["svc/client.py"]
    assert c["keyword"] == pytest.approx(0.3 * IDF_RETRY / (IDF_RETRY + IDF_ONE))
    assert c["churn"] == pytest.approx(1 / 20 * math.exp(-45 / 30))
    assert c["recency"] == 0.3  # 45 days
    assert c["test_relevance"] == 0.0 and c["success_prior"] == 0.0
    u = sig["svc/util.py"]
    assert u["churn"] == 0.0 and u["recency"] == 0.3  # no history = 90 days
    assert all(0.0 <= v <= 1.0 for row in sig.values() for v in row.values())


def test_live_churn_window_and_recency_bands() -> None:
    sig = signals("retry policy", churn_window_days=30, recency_days_1=0.5, recency_value_2=0.7)
    assert sig["svc/retry.py"]["churn"] == pytest.approx(2 / 20 * math.exp(-1 / 30))
    assert sig["svc/retry.py"]["recency"] == 0.7


def test_mapped_test_only_is_graded() -> None:
    sig = signals("policy", dep_depth=0)  # its test joins only as a test
    assert sig["svc/retry.py"]["test_relevance"] == 0.5
    assert sig["tests/test_retry.py"]["test_relevance"] == 1.0  # test of a candidate


def test_ledger_maturity_and_flags() -> None:
    other = signals("misc")["misc/other.py"]  # 60 entries: mature, rate 1/4
    assert other["success_prior"] == pytest.approx(0.25)
    assert other["fail_prior"] == pytest.approx(0.75)
    assert signals("store")["svc/store.py"]["branch_changed"] == 1.0
    assert signals("fix handler")["svc/handlers.py"]["error_infrastructure"] == 1.0


def test_a_mature_ledger_without_outcome_weight_gives_no_prior() -> None:
    """REFERENCE §2 leaves rate = s/(s+f) undefined at s = f = 0. codeledger-scoring.md says
    what the priors mean: whether including the file "correlated with past successes" /
    "with past failures". 60 entries with no success and no failure weight are no evidence
    either way: both priors 0 (a rate of 0 taken as is would make fail_prior 1, the most a
    file can be blamed, for a file that never failed)."""
    files = {**FILES, "misc/idle.py": dict(keywords=["idle"], lines=10, tokens=40,
                                           ledger={"success": 0.0, "fail": 0.0,
                                                   "entries": 60})}
    model = CodeLedgerModel()
    params = model.schema.resolve({})
    prep = model.prepare(make_dataset({"q": "idle"}, files=files), params)
    table = signal_table(prep, params)
    j = next(j for j, d in enumerate(prep.docs) if prep.files.paths[int(d)] == "misc/idle.py")
    assert table[S["success_prior"], j] == 0.0
    assert table[S["fail_prior"], j] == 0.0


def contributions(task: str, doc: str, **overrides: object) -> tuple[dict[str, float], float]:
    model, _, prep, params = prepare({"q": task}, **overrides)
    scores = model.combine(prep, params)
    j = next(j for j, d in enumerate(prep.docs) if prep.files.paths[int(d)] == doc)
    parts = scores.contributions_of(np.array([j]))[:, 0]
    return {s: float(parts[i]) for s, i in S.items()}, float(scores.total[j])


def test_contributions_sum_to_total_and_negatives_subtract() -> None:
    model, _, prep, params = prepare({"a": "retry policy", "b": "fix the api-gateway route"})
    scores = model.combine(prep, params)
    parts = scores.contributions
    ok = scores.gate == 0
    assert np.allclose(parts.sum(axis=0)[ok], scores.total[ok])
    assert (parts[S["size_penalty"]] <= 0).all() and (parts[S["fail_prior"]] <= 0).all()
    c, total = contributions("retry policy", "svc/retry.py")
    assert c["keyword"] == pytest.approx(0.30) and c["size_penalty"] == pytest.approx(-0.008)
    assert c["fail_prior"] == pytest.approx(-0.05 * 0.125)
    assert total == pytest.approx(sum(c.values()))


def test_error_infrastructure_counts_for_bug_fixes_only() -> None:
    bug, _ = contributions("fix handler", "svc/handlers.py")
    feat, _ = contributions("add handler", "svc/handlers.py")
    assert bug["error_infrastructure"] == pytest.approx(0.05)
    assert feat["error_infrastructure"] == 0.0
    both, _ = contributions("add handler", "svc/handlers.py", error_infra_bug_fix_only=False)
    assert both["error_infrastructure"] == pytest.approx(0.05)


def test_test_update_multipliers() -> None:
    base, t0 = contributions("retry policy", "svc/retry.py")  # detected: unknown
    test, t1 = contributions("retry policy", "svc/retry.py", task_type="test_update")
    assert test["test_relevance"] == pytest.approx(2.5 * base["test_relevance"])
    assert test["centrality"] == pytest.approx(0.5 * base["centrality"])
    assert test["churn"] == pytest.approx(0.5 * base["churn"])
    churn = 3 / 20 * math.exp(-1 / 30)
    assert t1 - t0 == pytest.approx(1.5 * 0.10 - 0.5 * 0.15 * 0.5 - 0.5 * 0.15 * churn)
    detected, _ = contributions("update the retry test coverage", "svc/retry.py")
    assert detected["test_relevance"] == pytest.approx(0.25)


def test_what_is_inert_moves_no_score_and_what_moves_is_not_inert() -> None:
    # on the sample repository (no ledger, no branch changes) each parameter codeledger
    # reports as inert is moved to both ends of its range: no total changes; a weight it does
    # not report does change them
    from tests.conftest import SAMPLES
    from workbench.core.formats import load_dataset
    from workbench.core.models import get_model
    from workbench.core.pipeline import Pipeline

    model = get_model("codeledger")
    pipe = Pipeline(model, load_dataset(SAMPLES / "code-repo"), {})
    inert = model.inert_params(pipe.prepared, pipe.params)
    assert {"w_success_prior", "w_fail_prior", "maturity_min", "maturity_full",
            "w_branch_changed"} <= set(inert)
    assert "the ledger names no file" in inert["w_success_prior"]
    base = model.combine(pipe.prepared, pipe.params).total
    for name in inert:
        p = model.schema[name]
        for value in ((p.low, p.high) if p.kind in ("int", "float") else (False, True)):
            moved = model.combine(pipe.prepared, {**pipe.params, name: value}).total
            np.testing.assert_array_equal(moved, base, err_msg=f"{name}={value}")
    for live in ("w_keyword", "w_content", "w_graph", "w_churn", "w_size_penalty"):
        assert live not in inert
    moved = model.combine(pipe.prepared, {**pipe.params, "w_keyword": 3.0}).total
    assert not np.array_equal(moved, base)


def test_inert_with_no_task_yet_speaks_of_files() -> None:
    """With no task there is no task–file pair, and 'is 0 at every task–file pair' held of
    every signal, vacuously: the window greyed centrality on a repository full of imports
    (review G, 10). Signals of the file alone are told over every file; those of a task, and
    the task-type multipliers, wait for one."""
    model, _, prep, params = prepare({})
    inert = model.inert_params(prep, params)
    # the hand fixture: centrality, error infrastructure, branch changes and non-code files
    # all occur; a ledger names two files
    for live in ("w_centrality", "w_error_infrastructure", "w_branch_changed", "w_non_code",
                 "w_content", "w_mention", "w_cochange", "w_similar", "w_success_prior",
                 "mult_test_update_centrality"):
        assert live not in inert, live
    files = {p: {k: v for k, v in m.items() if k not in ("branch_changed", "ledger")}
             for p, m in FILES.items()}
    bare = model.prepare(make_dataset({}, files=files), params)
    inert = model.inert_params(bare, params)
    assert inert["w_branch_changed"] == "“branch changed” is 0 at every file"
    assert inert["w_success_prior"] == "the ledger names no file"
    assert "w_centrality" not in inert and "w_content" not in inert
