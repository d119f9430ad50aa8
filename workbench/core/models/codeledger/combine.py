"""Combine: the ten signals and the weighted score of every (task, candidate) pair, vectorised.

    score = Σ_i w_i · m_i(type) · s_i  −  Σ_j w_j · m_j(type) · s_j

over the positive signals i (keyword, centrality, churn, recency, test_relevance,
success_prior, error_infrastructure, branch_changed) and the negative j (size_penalty,
fail_prior). Each contribution is ±w·m·s, so the contributions sum to the total. m is 1
except the test_update multipliers (REFERENCE §2); error_infrastructure has m = 0 outside
bug_fix tasks while `error_infra_bug_fix_only` is on. A pair outside the task's auto-scope is
gated (`out_of_scope`, total 0) while `auto_scope` is on.

Signals (all in [0, 1]):
- keyword = min(1, (strong + content_weight · content) / task mass)  (0 for an empty task)
- centrality from the index; churn = min(1, n / churn_commits · exp(−d / churn_decay_days)),
  n = commits no older than `churn_window_days`, d = days since last (no history:
  `no_history_days`)
- recency: the band of d (edges and values are parameters; no history: `no_history_days`)
- test_relevance: 1 if a test/source of it is a candidate in its own right (brought by a stage
  other than the test neighbourhood — so every test of a candidate scores 1), else
  `test_mapped_value` if it has a mapped test/source at all, else 0
- ledger: rate = s / (s + f) (0 without weight), maturity = clip((entries − min) /
  (full − min), 0, 1) with 0 under `maturity_min`; success_prior = min(1, rate · maturity),
  fail_prior = min(1, (1 − rate) · maturity)
- size_penalty = min(1, cost / size_penalty_tokens), cost = excerpt tokens if excerpted
- content = the task's content BM25 ÷ its best over every file (`content`); mention = 1 when
  the task names the file's path (`mentions`); graph = max(share · best hop-1 neighbour
  content, share² · best hop-2) up to `graph_hops` (`graph`); cochange = max over files g of
  relevance(g) · c(f, g) / (n_g + 1) (`cochange`); similar = the votes of the past commits
  worded most like the task (`similar`) — not in CodeLedger's document
"""

from __future__ import annotations

import weakref

import numpy as np
from numpy.typing import NDArray

from workbench.core.engine import Scores
from workbench.core.models.codeledger.params import (
    GATES,
    MULTIPLIERS,
    SIGNAL_LABELS,
    SIGNAL_NAMES,
    SIGNS,
    WEIGHT_PARAMS,
)
from workbench.core.models.codeledger.prepared import CodeLedgerPrepared
from workbench.core.models.codeledger.text import TASK_TYPES
from workbench.core.params import Params

__all__ = ["coefficients", "combine_codeledger", "file_signals", "inert", "signal_table",
           "task_types"]

_S = {s: i for i, s in enumerate(SIGNAL_NAMES)}


def task_types(prep: CodeLedgerPrepared, params: Params) -> NDArray[np.int64]:
    """int64 (Q,): the task type of each task (detected, or the override)."""
    forced = str(params["task_type"])
    if forced == "auto":
        return prep.task_type
    return np.full(len(prep.task_type), TASK_TYPES.index(forced), np.int64)


def coefficients(params: Params) -> NDArray[np.float64]:
    """float64 (T, S): sign · weight · multiplier per task type and signal."""
    w = np.array([float(params[p]) for p in WEIGHT_PARAMS]) * np.array(SIGNS, np.float64)
    m = np.ones((len(TASK_TYPES), len(SIGNAL_NAMES)))
    for t, s, _ in MULTIPLIERS:
        m[TASK_TYPES.index(t), _S[s]] = float(params[f"mult_{t}_{s}"])
    if params["error_infra_bug_fix_only"]:
        m[[i for i, t in enumerate(TASK_TYPES) if t != "bug_fix"], _S["error_infrastructure"]] = 0
    out: NDArray[np.float64] = w[None, :] * m
    return out


def file_signals(prep: CodeLedgerPrepared, params: Params) -> dict[str, NDArray[np.float64]]:
    """Per-file signals float64 (N,): centrality, churn, recency, success/fail priors."""
    f = prep.files

    def p(name: str) -> float:
        return float(params[name])

    window = prep.age_keys.searchsorted(np.arange(f.n) * prep.age_span + p("churn_window_days"),
                                        side="right") - f.age_ptr[:-1]
    days = np.where(np.isnan(f.days_since_last), p("no_history_days"), f.days_since_last)
    churn = np.minimum(1.0, window / p("churn_commits") * np.exp(-days / p("churn_decay_days")))
    recency = np.select([days <= p(f"recency_days_{i}") for i in (1, 2, 3)],
                        [p(f"recency_value_{i}") for i in (1, 2, 3)], p("recency_else"))
    weight = f.success + f.fail
    rate = np.divide(f.success, weight, out=np.zeros(f.n), where=weight > 0)
    lo, full = int(params["maturity_min"]), int(params["maturity_full"])
    ramp = np.clip((f.entries - lo) / max(full - lo, 1), 0.0, 1.0)
    maturity = np.where(f.entries >= full, 1.0, np.where(f.entries < lo, 0.0, ramp))
    return {"centrality": f.centrality, "churn": churn, "recency": recency.astype(np.float64),
            "success_prior": np.minimum(1.0, rate * maturity),
            "fail_prior": np.minimum(1.0, (1.0 - rate) * maturity * (weight > 0))}


# parameters `signal_table` does not read: a tick that moves only these reuses the table
_NOT_IN_TABLE = frozenset(("task_type", "error_infra_bug_fix_only", "budget_preset",
                           "max_files", "token_budget", "overshoot", "overshoot_min_score",
                           "skip_limit", "sufficiency", "auto_scope", "scope_keeps_tests",
                           "broad_df_ratio"))
_TABLES: weakref.WeakKeyDictionary[CodeLedgerPrepared, tuple[
    tuple[object, ...], NDArray[np.float64], NDArray[np.bool_]]]
_TABLES = weakref.WeakKeyDictionary()


def _table_key(params: Params) -> tuple[object, ...]:
    return tuple(sorted((k, v) for k, v in params.items()
                        if not k.startswith(("w_", "mult_", "confidence_"))
                        and k not in _NOT_IN_TABLE))


def signal_table(prep: CodeLedgerPrepared, params: Params) -> NDArray[np.float64]:
    """float64 (S, P), read-only: every signal's raw value at every pair. The last table of
    each prepared state is kept (weights, multipliers and the stop rule do not change it)."""
    return _table_and_signals(prep, params)[0]


def _table_and_signals(prep: CodeLedgerPrepared, params: Params
                       ) -> tuple[NDArray[np.float64], NDArray[np.bool_]]:
    """`signal_table`, and bool (S,): which signals are not 0 at every pair."""
    key = _table_key(params)
    hit = _TABLES.get(prep)
    if hit is not None and hit[0] == key:
        return hit[1], hit[2]
    table = _signal_table(prep, params)
    table.flags.writeable = False
    some: NDArray[np.bool_] = np.asarray(table.any(axis=1), bool)
    _TABLES[prep] = (key, table, some)
    return table, some


def _signal_table(prep: CodeLedgerPrepared, params: Params) -> NDArray[np.float64]:
    d = prep.docs
    q = prep.pair_query()
    f = prep.files
    per_file = file_signals(prep, params)
    table = np.empty((len(SIGNAL_NAMES), len(d)))
    mass = prep.mass[q]
    kw = prep.strong + float(params["keyword_content_weight"]) * prep.content
    table[_S["keyword"]] = np.minimum(1.0, np.divide(kw, mass, out=np.zeros(len(d)),
                                                     where=mass > 0))
    for name, values in per_file.items():
        table[_S[name]] = values[d]
    has_tests = np.fromiter((bool(t) for t in f.tests), bool, count=f.n)
    table[_S["test_relevance"]] = np.where(
        prep.test_pair, 1.0, np.where(has_tests[d], float(params["test_mapped_value"]), 0.0))
    table[_S["non_code"]] = prep.non_code[d]
    table[_S["content"]] = prep.relevance
    table[_S["mention"]] = prep.named
    table[_S["graph"]] = graph_signal(prep, params)
    table[_S["cochange"]] = prep.cochange
    table[_S["similar"]] = prep.similar
    table[_S["error_infrastructure"]] = f.error_infrastructure[d]
    table[_S["branch_changed"]] = f.branch_changed[d]
    table[_S["size_penalty"]] = np.minimum(1.0, prep.cost / float(params["size_penalty_tokens"]))
    return table


def graph_signal(prep: CodeLedgerPrepared, params: Params) -> NDArray[np.float64]:
    """float64 (P,): max(share · best hop-1 relevance, share² · best hop-2), to `graph_hops`."""
    hops, share = int(params["graph_hops"]), float(params["graph_share"])
    out = np.zeros(len(prep.docs))
    if hops >= 1:
        out = share * prep.graph1
    if hops >= 2:
        out = np.maximum(out, share * share * prep.graph2)
    return out


# signals computed from prepared data alone: 0 at every pair stays 0 at any live values (the
# others — keyword, graph, churn, recency, test relevance, size — move with live parameters)
_FIXED = ("content", "mention", "cochange", "similar", "centrality", "success_prior",
          "error_infrastructure", "branch_changed", "fail_prior", "non_code")
# what else only a signal reads
_ALSO = {"error_infrastructure": ("error_infra_bug_fix_only",)}
_LEDGER = ("maturity_min", "maturity_full")  # read by success_prior and fail_prior only


def inert(prep: CodeLedgerPrepared, params: Params) -> dict[str, str]:
    """Parameter → why it cannot change any score here (`Model.inert_params`)."""
    f = prep.files
    # no task yet: "0 at every task–file pair" would hold of every signal, vacuously; the
    # signals of the file alone are told over every file, those of a task wait for one
    tasks = len(prep.row_ptr) > 1
    d = prep.docs if tasks else np.arange(f.n)
    per_task = {"content": prep.relevance, "mention": prep.named, "cochange": prep.cochange,
                "similar": prep.similar}
    values = {**(per_task if tasks else {}), "centrality": f.centrality[d],
              "success_prior": f.entries[d], "fail_prior": f.entries[d],
              "error_infrastructure": f.error_infrastructure[d],
              "branch_changed": f.branch_changed[d], "non_code": prep.non_code[d]}
    zero = {s for s in _FIXED if s in values and not np.asarray(values[s]).any()}

    def why(signal: str) -> str:
        return ("the ledger names no file" if signal.endswith("_prior")
                else f"“{SIGNAL_LABELS[signal]}” is 0 at every "
                     + ("task–file pair" if tasks else "file"))

    out: dict[str, str] = {}
    for s, w in zip(SIGNAL_NAMES, WEIGHT_PARAMS, strict=True):
        if s in zero:
            out[w] = why(s)
            for other in _ALSO.get(s, ()):
                out[other] = why(s)
    if {"success_prior", "fail_prior"} <= zero:
        for name in _LEDGER:
            out[name] = why("success_prior")
    present = set(task_types(prep, params).tolist())
    for t, s, _ in MULTIPLIERS:
        name = f"mult_{t}_{s}"
        if s in zero:
            out[name] = why(s)
        elif tasks and TASK_TYPES.index(t) not in present:
            out[name] = f"no task is of type {t}"
    return out


def gate_of(prep: CodeLedgerPrepared, params: Params) -> NDArray[np.int8]:
    """int8 (P,): 1 (out_of_scope) where the auto-scope gate zeroes the pair, else 0."""
    if not params["auto_scope"]:
        return np.zeros(len(prep.docs), np.int8)
    ok = prep.scope_ok | (prep.partner_ok & bool(params["scope_keeps_tests"]))
    out: NDArray[np.int8] = (~ok).astype(np.int8)
    return out


def combine_codeledger(prep: CodeLedgerPrepared, params: Params) -> Scores:
    table, some = _table_and_signals(prep, params)
    coef = coefficients(params)  # (T, S)
    pair_type = _pair_types(prep, params)
    gate = gate_of(prep, params)
    # Σ over signals in signal order, one signal at a time: the same additions as summing the
    # (S, P) contribution table down its first axis, without making that table; a signal
    # whose coefficient is one number for every task type multiplies by it; one with weight 0,
    # or 0 at every pair, adds ±0 to a total that starts at +0.0, which changes no bit of it
    total = np.zeros(len(prep.docs))
    term = np.empty(len(prep.docs))  # one buffer for every signal's w · m · s
    for s in range(len(SIGNAL_NAMES)):
        c = coef[:, s]
        if not c.any() or not some[s]:
            continue
        np.multiply(table[s], c[0] if (c == c[0]).all() else c[pair_type], out=term)
        total += term
    total[gate != 0] = 0.0

    def parts(pairs: NDArray[np.intp]) -> NDArray[np.float64]:
        out: NDArray[np.float64] = table[:, pairs] * coef[pair_type[pairs]].T
        return out

    return Scores(row_ptr=prep.row_ptr, docs=prep.docs, total=total, gate=gate,
                  signals=SIGNAL_NAMES, parts=parts, gates=GATES)


def _pair_types(prep: CodeLedgerPrepared, params: Params) -> NDArray[np.int64]:
    """int64 (P,): each pair's task type (detected, or the override)."""
    forced = str(params["task_type"])
    if forced != "auto":
        return np.full(len(prep.docs), TASK_TYPES.index(forced), np.int64)
    out: NDArray[np.int64] = prep.task_type[prep.pair_query()]
    return out
