"""`compare` and `report` across models (-m codeledger -m bm25 on one repository): each
configuration runs with its own model, so its figures are that model's own evaluation; the
parameters table names each model and only the values set away from its own defaults; a move
between two models says each side's own score and signals and never a difference of scores;
a model and its preset (codeledger and codeledger-document) still compare signal by signal."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from tests.conftest import SAMPLES
from workbench.cli import main
from workbench.core.comparison import (
    Comparison,
    Configuration,
    CrossMove,
    MoveExplained,
    compare_configurations,
    explain_pair,
)
from workbench.core.formats import load_dataset
from workbench.core.models import get_model
from workbench.core.pipeline import Pipeline

REPO = str(SAMPLES / "code-repo")
METRICS = ["r@10", "ndcg@10", "mrr@10"]


@pytest.fixture(scope="module")
def mixed() -> Comparison:
    cl, bm = get_model("codeledger"), get_model("bm25")
    ds = load_dataset(SAMPLES / "code-repo")
    return compare_configurations(
        cl, ds, [Configuration("codeledger", cl.schema.defaults(), model=cl),
                 Configuration("bm25", bm.schema.defaults(), model=bm)], METRICS)


def test_each_configuration_is_its_own_models_evaluation(mixed: Comparison) -> None:
    ds = mixed.dataset
    for i, model_id in enumerate(("codeledger", "bm25")):
        alone = Pipeline(get_model(model_id), ds).run(METRICS).means
        for metric in METRICS:
            assert mixed.results[i].means[metric] == pytest.approx(alone[metric])
    # the two models rank the sample apart: a comparison that ran one model twice would not
    assert mixed.results[0].means["ndcg@10"] != pytest.approx(mixed.results[1].means["ndcg@10"])
    assert mixed.mixed and mixed.model_ids == ["codeledger", "bm25"]
    assert not mixed.same_model(1)


def test_a_move_between_models_says_each_sides_own_score(mixed: Comparison) -> None:
    moved = mixed.movers(1, k=10, top=20)
    assert moved
    m = moved[0]
    move = explain_pair(mixed, 1, m.query, m.doc)
    assert isinstance(move, CrossMove)
    sentence = move.sentence()
    # no difference of two scales ("bm25 −1.2"), each side's own score with its signals
    assert "codeledger" in sentence and "bm25" in sentence
    assert not re.search(r"[+−]\d", sentence)
    if move.scored_b and move.gate_b is None:
        assert f"bm25 scores it {move.total_b:.3g}" in sentence
    with pytest.raises(ValueError, match="different models"):
        from workbench.core.comparison import explain_move
        explain_move(mixed, 1, m.query, m.doc)


def test_a_preset_compares_signal_by_signal() -> None:
    cl, doc = get_model("codeledger"), get_model("codeledger-document")
    ds = load_dataset(SAMPLES / "code-repo")
    comp = compare_configurations(
        cl, ds, [Configuration("new", cl.schema.defaults(), model=cl),
                 Configuration("document", doc.schema.defaults(), model=doc)], ["ndcg@10"])
    assert comp.same_model(1)
    m = comp.movers(1, k=10, top=5)[0]
    move = explain_pair(comp, 1, m.query, m.doc)
    assert isinstance(move, MoveExplained)
    # the settings that differ between the two presets are named, as for one model
    assert move.changed["w_content"] == (1.0, 0.0)


def test_compare_cli_runs_two_models(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", REPO, "-m", "codeledger", "-m", "bm25", "--movers", "2"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0].startswith("codeledger (scoring version ")
    assert " and bm25 (scoring version " in lines[0]
    assert lines[1].startswith("configurations: codeledger, bm25;")
    # a bundle is codeledger's alone: its figures are left out, and said so
    assert "note: a bundle's figures are left out: bm25 selects no bundle" in out
    assert "bundle_recall" not in out
    table = out[out.index("parameter"):out.index("metric")]
    assert re.search(r"^model\s+codeledger\s+bm25$", table, re.M)
    assert len(table.strip().splitlines()) == 3  # header, rule, model: both at defaults
    assert ("moved most, codeledger → bm25 (moves into, out of or within the top 10; judged "
            "documents first; two models: each scores on its own scale") in out
    ds = load_dataset(SAMPLES / "code-repo")
    for model_id, column in (("codeledger", 1), ("bm25", 2)):
        alone = Pipeline(get_model(model_id), ds).run(["r@10"]).means["r@10"]
        row = next(line.split() for line in lines if line.startswith("r@10 "))
        assert row[column] == f"{alone:.4f}"


def test_a_config_file_goes_to_the_model_it_names(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["models", "bm25", "--toml"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("# the defaults of bm25")
    path = tmp_path / "bm25_k1.toml"
    path.write_text(re.sub(r"(?m)^k1 = .*$", "k1 = 0.6", text))
    assert main(["compare", REPO, "-m", "codeledger", "-m", "bm25", "-c", str(path),
                 "--metrics", "r@10", "--movers", "0"]) == 0
    out = capsys.readouterr().out
    # codeledger at its defaults (it has no file), then bm25's file: bm25's defaults are not
    # added, the file being bm25's own configuration
    assert "configurations: codeledger, bm25_k1 (" in out
    table = out[out.index("parameter"):out.index("metric")]
    assert re.search(r"^model\s+codeledger\s+bm25$", table, re.M)
    # k1 is bm25's: codeledger has no such parameter
    assert re.search(r"^k1\s+—\s+0\.6$", table, re.M)


def test_bundle_metrics_of_a_model_without_bundles_are_refused(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", REPO, "-m", "codeledger", "-m", "bm25",
                 "--metrics", "bundle_recall"]) == 2
    err = capsys.readouterr().err
    assert "bundle_recall needs a model that selects bundles" in err
    assert "model bm25 has none" in err


def test_report_across_models(tmp_path: Path) -> None:
    md, page = tmp_path / "r.md", tmp_path / "r.html"
    for out in (md, page):
        assert main(["report", REPO, "-m", "bm25", "-m", "codeledger", "-o", str(out)]) == 0
    text = md.read_text()
    assert "bm25 (scoring version " in text.splitlines()[2]
    assert "| model | bm25 | codeledger |" in text
    # each model's settings: bm25's params file, codeledger's config.json
    assert "### bm25" in text and "### codeledger" in text
    assert "bm25 is a workbench-only model" in text and "`.codeledger/config.json`" in text
    assert "# bm25: bm25" in text
    html = page.read_text()
    assert "<title>Ranking comparison: bm25 and codeledger on code-repo</title>" in html
    assert "<dt>models</dt>" in html
    # a mover's table: each side's own signals, "—" where the other model has none, no Δ
    card = html[html.index('<div class="mover">'):]
    card = card[:card.index('<div class="doc">')]
    assert "<th>signal</th>" in card and ">Δ<" not in card
    assert '<td class="num">—</td>' in card
    assert "Two models: each scores on its own scale" in html


def test_one_model_twice_is_one_model(capsys: pytest.CaptureFixture[str]) -> None:
    # -m bm25 -m bm25: one model, so two configurations are still asked for
    assert main(["compare", REPO, "-m", "bm25", "-m", "bm25"]) == 2
    assert "at least two configurations" in capsys.readouterr().err


def test_window_state_is_kept_for_the_first_model_only(mixed: Comparison) -> None:
    # a state prepared for codeledger is not handed to bm25's configuration
    cl, bm = get_model("codeledger"), get_model("bm25")
    ds = mixed.dataset
    from workbench.core import engine
    state = engine.prepare(cl, ds, cl.schema.defaults())
    comp = compare_configurations(
        cl, ds, [Configuration("codeledger", cl.schema.defaults()),
                 Configuration("bm25", bm.schema.defaults(), model=bm)], ["ndcg@10"],
        prepared=(cl.schema.defaults(), state))
    assert np.isclose(comp.results[1].means["ndcg@10"], mixed.results[1].means["ndcg@10"])
