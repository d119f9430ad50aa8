"""tune counts the selection figures (results, injected_tokens) over the turns eval, sweep and
why-stats --live count (rv51 3, 6): a manual search beside injections injects nothing, so its
results are no injected tokens. The relevance measures stay over every judged query, and a
fold whose training queries hold no turn cannot hold a constraint on them: said, not read as
a broken constraint."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from tests.conftest import SAMPLES
from workbench.cli import main

DM = SAMPLES / "decisions-eval"


def _cases(folder: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in (folder / "eval.jsonl").read_text().splitlines()
            if line.strip()]


def test_the_evaluator_leaves_the_searches_out_of_the_figures() -> None:
    from workbench.core.formats import load_dataset
    from workbench.core.models import get_model
    from workbench.core.tuning.evaluator import Evaluator

    ds = load_dataset(str(DM))
    # the searches as the eval file writes them, not as the model reads them
    searches = {c["name"] for c in _cases(DM) if c.get("forInjection") is False}
    assert searches  # the premise: the sample mixes searches with injections
    ev = Evaluator(get_model("decision-memory"), ds, {},
                   ["injected_tokens", "results", "ndcg@10"])
    got = ev.evaluate({})
    search = np.array([q in searches for q in ds.queries.ids])
    assert np.isnan(got["injected_tokens"][search]).all()
    assert np.isnan(got["results"][search]).all()
    assert not np.isnan(got["injected_tokens"][~search]).any()
    assert not np.isnan(got["ndcg@10"]).any()  # every judged query, searches too


def test_tune_on_the_figure_holds_out_what_eval_reports(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["eval", str(DM), "-m", "decision-memory", "--metrics",
                 "injected_tokens,ndcg@10"]) == 0
    evaluated = dict(re.findall(r"^(injected_tokens|ndcg@10)\s+([\d.,]+)$",
                                capsys.readouterr().out, re.M))
    assert main(["tune", str(DM), "-m", "decision-memory", "--tune", "w_title,w_body",
                 "--metric", "injected_tokens", "--trials", "3", "--folds", "3",
                 "--storage", str(tmp_path / "s.db")]) == 0
    out = capsys.readouterr().out
    held = re.search(r"^injected_tokens held-out\s+([\d.,]+)", out, re.M)
    assert held is not None and held.group(1) == evaluated["injected_tokens"]
    # the other measures over the folds' own held-out queries, not only where the objective
    # is defined: nDCG keeps the searches
    other = out[out.index("other measures"):]
    ndcg = re.search(r"^ndcg@10\s+([\d.]+)", other, re.M)
    assert ndcg is not None and ndcg.group(1) == evaluated["ndcg@10"]


def test_a_fold_trained_on_searches_only_says_the_constraint_is_undefined(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # one injection and three searches: with two folds, the fold that holds the injection out
    # trains on searches only, where injected_tokens has no turn to average
    cases = _cases(DM)
    inject = next(c for c in cases if c.get("forInjection") is True)
    searches = [dict(c, forInjection=False) for c in cases if c is not inject][:3]
    folder = tmp_path / "dm"
    folder.mkdir()
    (folder / "eval.jsonl").write_text(
        "".join(json.dumps(c) + "\n" for c in [inject, *searches]))
    code = main(["tune", str(folder), "-m", "decision-memory", "--tune", "w_title,w_body",
                 "--constraint", "injected_tokens<=60", "--trials", "2", "--folds", "2",
                 "--storage", str(tmp_path / "s.db")])
    out, err = capsys.readouterr()
    assert code != 0
    assert "constraint injected_tokens <= 60 is undefined on the training queries" in err
    assert "Traceback" not in err + out


def test_tune_says_what_the_figure_leaves_out(capsys: pytest.CaptureFixture[str],
                                              tmp_path: Path) -> None:
    """dr7 3: tune's injected_tokens counted the injection cases only, and said nothing of
    the manual searches eval names as left out."""
    searches = [c["name"] for c in _cases(DM) if c.get("forInjection") is False]
    assert len(searches) == 2  # read from the sample's own cases
    assert main(["tune", str(DM), "-m", "decision-memory", "--tune", "w_title", "--constraint",
                 "injected_tokens<=60", "--trials", "2", "--folds", "3",
                 "--storage", str(tmp_path / "s.db")]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert ("note: injected_tokens counts the injection turns only, as eval does; at the "
            "starting values: 2 manual searches left out: a search injects nothing") in out
    # a run measuring no injection figure says nothing of it
    assert main(["tune", str(DM), "-m", "decision-memory", "--tune", "w_title", "--trials",
                 "2", "--folds", "3", "--storage", str(tmp_path / "t.db")]) == 0
    assert "injection turns only" not in capsys.readouterr().out
