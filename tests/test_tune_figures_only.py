"""A parameter that moves only the bundle figures (CodeLedger's stop rule and budget) cannot
move a ranking metric: tune's default search for one leaves it at its start and says so at the
plan, and searches it for a bundle figure (rv2 2: on ky, `tune --metric ndcg@10` drew
sufficiency 0.55 at random, and the shipped value cost 0.13 held-out bundle recall)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import numpy as np
import pytest

from tests.conftest import SAMPLES
from workbench.cli import main
from workbench.core.formats import load_dataset
from workbench.core.models import get_model
from workbench.core.tuning import Evaluator
from workbench.core.tuning.space import cut_offs

RANKING = ["ndcg@10", "r@10", "mrr@10", "map@100"]
BUNDLE = ["bundle_recall", "bundle_files", "bundle_tokens"]


def test_what_codeledger_declares_figures_only_moves_no_ranking_metric() -> None:
    model = get_model("codeledger")
    declared = {p.name for p in model.schema if p.figures_only}
    assert {"sufficiency", "skip_limit", "max_files", "token_budget"} <= declared
    ev = Evaluator(model, load_dataset(SAMPLES / "code-repo"), {}, [*RANKING, *BUNDLE])
    start = ev.run({})
    moved_bundle = False
    for changed in ({"sufficiency": 0.3}, {"sufficiency": 1.0}, {"skip_limit": 0},
                    {"max_files": 2}, {"token_budget": 300}, {"overshoot": 0.0},
                    {"overshoot_min_score": 1.0}, {"budget_preset": "tight"}):
        assert set(changed) <= declared
        got = ev.run(changed)
        for name in RANKING:
            np.testing.assert_array_equal(got.per_query[name], start.per_query[name],
                                          err_msg=f"{changed} {name}")
        moved_bundle |= any(not np.array_equal(got.per_query[n], start.per_query[n])
                            for n in BUNDLE)
    assert moved_bundle  # they do move the bundle: what a bundle objective searches


def test_cut_offs_name_figures_only_parameters_for_objectives_that_do_not_read_them() -> None:
    params = get_model("codeledger").schema.by_name
    names = ["w_keyword", "sufficiency", "skip_limit"]
    assert set(cut_offs(names, ["ndcg@10"], params)) == {"sufficiency", "skip_limit"}
    assert set(cut_offs(names, ["cases"], params)) == {"sufficiency", "skip_limit"}
    assert cut_offs(names, ["ndcg@10"], params)["sufficiency"] == (
        "it moves only the bundle figures, which nDCG@10 does not read: every value scores "
        "alike")
    for kept in (["bundle_recall"], ["ndcg@10", "bundle_tokens"], ["bundle_f1"], []):
        assert cut_offs(names, kept, params) == {}, kept
    assert cut_offs(names, ["ndcg@10"]) == {}  # without the declarations: nothing known


def _tune(capsys: pytest.CaptureFixture[str], tmp_path: Path, *extra: str) -> str:
    assert main(["tune", str(SAMPLES / "code-repo"), "-m", "codeledger", "--trials", "1",
                 "--folds", "0", "--storage", str(tmp_path / "s.db"), "--fresh",
                 *extra]) == 0
    return capsys.readouterr().out


def _plan(out: str) -> str:
    lines = out.splitlines()
    i = next(i for i, line in enumerate(lines) if line.startswith("tuning "))
    plan = [lines[i]]
    plan += [line for line in lines[i + 1:i + 6] if line.startswith("  ")]
    return " ".join(plan)


def test_tune_for_a_ranking_metric_keeps_sufficiency_at_its_start_and_says_so(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = _tune(capsys, tmp_path, "--metric", "ndcg@10", "--out", str(tmp_path / "t.toml"))
    assert "sufficiency" not in _plan(out) and "w_keyword" in _plan(out)
    said = " ".join(out.split())
    # not "a cut-off" (a stop rule, not a selection cut), and not also said to be searched by
    # default on the line before (dr2 5)
    assert ("left out, since the objective does not read the bundle: sufficiency (it moves "
            "only the bundle figures, which nDCG@10 does not read: every value scores "
            "alike)") in said
    assert "a cut-off" not in said
    assert ("searches its relative weights and the graph's share by default, and sufficiency "
            "where a bundle figure is the objective or a constraint") in said
    params = tomllib.loads((tmp_path / "t.toml").read_text())["params"]
    assert "w_keyword" in params and "sufficiency" not in params  # its start stays in force


def test_tune_for_a_bundle_figure_or_named_searches_sufficiency(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = _tune(capsys, tmp_path, "--metric", "bundle_recall")
    assert "sufficiency [0, 1]" in _plan(out) and "read the bundle" not in out
    out = _tune(capsys, tmp_path, "--metric", "ndcg@10", "--tune", "w_keyword,sufficiency")
    assert "sufficiency [0, 1]" in _plan(out)
    assert "note: searched because named: sufficiency (it moves only" in " ".join(out.split())
    assert "a cut-off" not in out
