"""The selection figures (results, empty, injected_tokens) across eval and tune (review b,
findings 5 and 6): eval reports them as sweep and tune count them; tune's held-out table
lists a constrained figure; a minimised objective's best is the lowest, a count printed as a
count; and a figure no scoring value can move is said before the search."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from tests.conftest import SAMPLES
from workbench.cli import main

DM = str(SAMPLES / "decisions-eval")
TEA = str(SAMPLES / "tea-beir")


def test_eval_reports_what_the_selection_returns(capsys: pytest.CaptureFixture[str],
                                                 tmp_path: Path) -> None:
    run = tmp_path / "run.trec"
    assert main(["eval", DM, "-m", "decision-memory", "--metrics", "results,ndcg@10,empty",
                 "--run", str(run)]) == 0
    out = capsys.readouterr().out
    # counted apart from the figures' code: the run file's lines per query (decision-memory
    # returns at most 3, fewer than the run's depth, so the run holds every result)
    lines = Counter(line.split()[0] for line in run.read_text().splitlines())
    judged = re.search(r"(\d+) judged cases", out)  # the data's noun (dr7 3)
    assert judged is not None
    n = int(judged.group(1))
    from workbench.core.formats import load_dataset

    ds = load_dataset(DM)
    ids = [q for q in ds.queries.ids if (ds.qrels or {}).get(q)]
    assert len(ids) == n
    # the figures count the injections only (rv51 3): a case whose forInjection is false is a
    # manual search, which injects nothing; read from the eval file itself, not the model's
    # reading of it (no settings.json here, so no project is disabled)
    cases = [json.loads(line) for line in (Path(DM) / "eval.jsonl").read_text().splitlines()
             if line.strip()]
    searches = {c["name"] for c in cases if c.get("forInjection") is False}
    assert searches and not (Path(DM) / "settings.json").exists()
    counted = [q for q in ids if q not in searches]
    assert 0 < len(counted) < n
    results = sum(lines[q] for q in counted) / len(counted)
    empty = 100 * sum(1 for q in counted if not lines[q]) / len(counted)
    table = dict(re.findall(r"^(results|empty|ndcg@10)\s+([\d.,]+)$", out, re.M))
    assert float(table["results"]) == pytest.approx(results, abs=0.005)
    assert float(table["empty"]) == pytest.approx(empty, abs=0.05)
    assert list(table) == ["results", "ndcg@10", "empty"]  # in the order named


def test_eval_accepts_figures_alone(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", DM, "-m", "decision-memory", "--metrics",
                 "injected_tokens,results"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^injected_tokens\s+[\d.,]+$", out, re.M)
    # in the data's own noun, as its header (dC 5)
    assert "(injected_tokens = tokens injected per case, results = results per case;" in out


def test_tune_holds_out_the_constrained_figure(capsys: pytest.CaptureFixture[str],
                                               tmp_path: Path) -> None:
    assert main(["tune", DM, "-m", "decision-memory", "--tune", "w_title,w_body",
                 "--constraint", "injected_tokens<=60", "--trials", "4", "--folds", "3",
                 "--storage", str(tmp_path / "s.db")]) == 0
    out = capsys.readouterr().out
    assert "other measures (the constrained figure first):" in out
    table = out[out.index("other measures (the constrained figure first):"):]
    first = table.splitlines()[3]  # heading, column names, rule, then the first row
    assert first.split()[0] == "injected_tokens"
    assert main(["eval", DM, "-m", "decision-memory", "--metrics", "injected_tokens"]) == 0
    at_start = re.search(r"^injected_tokens\s+([\d.,]+)$", capsys.readouterr().out, re.M)
    assert at_start is not None and first.split()[1] == at_start.group(1)


def test_a_minimised_objective_is_best_lowest_and_counted(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["tune", TEA, "-m", "bm25", "--trials", "4", "--folds", "0", "--metric",
                 "results", "--storage", str(tmp_path / "s.db")]) == 0
    out, err = capsys.readouterr()
    assert "(--pick best: the lowest training mean)" in out
    # results per query to two decimals, as eval prints them
    # the start's own trial called the start, as --out's kept_trial says it (dr9 10)
    assert re.search(r"the lowest training results, [\d,]+\.\d\d, is the start's", out)
    assert "highest" not in out and not re.search(r"\d\.\d{4}\b.*results|results.*\d\.\d{4}",
                                                  out)
    assert "warning: bm25 has no min score or limit" in err
    assert "results (the objective) moves only with what matches" in err
