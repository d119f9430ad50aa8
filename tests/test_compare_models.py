"""`compare` and `report` across models (-m codeledger -m bm25 on one repository): each
configuration runs with its own model, so its figures are that model's own evaluation; the
parameters table names each model and only the values set away from its own defaults; a move
between two models says each side's own score and signals and never a difference of scores;
a model and its preset (codeledger and codeledger-document) still compare signal by signal."""

from __future__ import annotations

import re
import uuid
from collections.abc import Sequence
from decimal import Decimal
from pathlib import Path

import numpy as np
import pytest
from numpy.typing import NDArray

from tests.conftest import SAMPLES
from workbench.cli import main
from workbench.core.comparison import (
    Comparison,
    Configuration,
    CrossMove,
    MoveExplained,
    compare_configurations,
    data_notes,
    explain_pair,
)
from workbench.core.embeddings import register_encoder
from workbench.core.engine import NO_PROGRESS, Progress
from workbench.core.formats import load_dataset
from workbench.core.models import get_model
from workbench.core.pipeline import Pipeline
from workbench.report.text import params_table

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
    # no difference of two scales ("bm25 +1.2"), each side's own score with its signals
    for m in moved:
        said = explain_pair(mixed, 1, m.query, m.doc).sentence()
        _, _, sides = said.partition(": ")
        first, _, second = sides.partition("; ")
        assert first.startswith("codeledger ") and second.startswith("bm25 "), said
        assert not re.search(r"\+\d", said), said
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
    # a bundle is codeledger's alone: bm25's bundle rows are blank, and said so
    assert "note: bm25 selects no bundle: the bundle rows are blank there" in out
    row = next(line.split() for line in lines if line.startswith("bundle_recall "))
    assert row[1] != "–" and row[2] == "–" and len(row) == 3  # no Δ, p or ▲/▼ against none
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


def test_bundle_metrics_need_one_model_with_bundles(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", REPO, "-m", "bm25", "-m", "dense",
                 "--metrics", "bundle_recall"]) == 2
    err = capsys.readouterr().err
    assert "bundle_recall needs a model that selects bundles" in err
    # one is enough: a tuned codeledger file keeps the figure it was tuned for beside bm25
    assert main(["compare", REPO, "-m", "bm25", "-m", "codeledger", "-p", "k1=1.5",
                 "--metrics", "bundle_recall", "--movers", "0"]) == 0
    out = capsys.readouterr().out
    row = next(line.split() for line in out.splitlines() if line.startswith("bundle_recall"))
    ds = load_dataset(SAMPLES / "code-repo")
    alone = Pipeline(get_model("codeledger"), ds).run(["r@10"]).means
    assert row[1:] == ["–", f"{alone['bundle_recall']:.4f}"]  # no Δ, p or ▲/▼ either


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
    assert "# bm25\n" in text  # its header, not "bm25: bm25"
    html = page.read_text()
    assert "<title>Ranking comparison: bm25 and codeledger on code-repo</title>" in html
    assert "<dt>models</dt>" in html
    # a mover's table: each side's own signals, "—" where the other model has none, no Δ
    card = html[html.index('<div class="mover">'):]
    card = card[:card.index('<div class="doc">')]
    assert "<th>signal</th>" in card and ">Δ<" not in card
    assert '<td class="num">—</td>' in card
    assert "Two models: each scores on its own scale" in html


def test_three_models_keep_a_presets_differences(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # beside a third model, codeledger-document's values differ from codeledger's still
    assert main(["compare", REPO, "-m", "codeledger", "-m", "codeledger-document", "-m", "bm25",
                 "--movers", "0"]) == 0
    out = capsys.readouterr().out
    table = out[out.index("parameter"):out.index("metric")]
    assert re.search(r"^w_content\s+1\s+0\s+—$", table, re.M)
    assert re.search(r"^model\s+codeledger\s+codeledger-document\s+bm25$", table, re.M)
    md = tmp_path / "three.md"
    assert main(["report", REPO, "-m", "codeledger", "-m", "codeledger-document", "-m", "bm25",
                 "--movers", "0", "-o", str(md)]) == 0
    text = md.read_text()
    assert "the settings are identical" not in text
    # each model's settings lead comes before its own first configuration, not all first
    assert (text.index("### codeledger\n") < text.index("bm25 is a workbench-only model")
            < text.index("### bm25\n"))
    page = tmp_path / "three.html"
    assert main(["report", REPO, "-m", "codeledger", "-m", "codeledger-document", "-m", "bm25",
                 "--movers", "0", "-o", str(page)]) == 0
    assert ("<title>Ranking comparison: codeledger, codeledger-document and bm25 on code-repo"
            in page.read_text())


def test_a_side_cut_by_its_min_score_says_so(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cut = tmp_path / "vs_cut.toml"
    cut.write_text("min_score = 0.5\nlimit = 3\n")
    assert main(["compare", str(SAMPLES / "vault"), "-m", "vault-search", "-m", "bm25",
                 "-c", str(cut), "--movers", "40"]) == 0
    out = capsys.readouterr().out
    # vault-search scores the document under its min score: that cut it, not its rank
    found = re.findall(r"vs_cut \(vault-search\) scores it ([\d.]+) \([^)]*\), under "
                       r"min_score 0\.5;", out)
    assert found and all(float(x) < 0.5 for x in found)
    assert "vs_cut (vault-search) scores it" in out


def test_a_min_score_gate_keeps_its_score_on_both_sides_of_the_card(tmp_path: Path) -> None:
    dm = tmp_path / "dm.toml"
    dm.write_text('mode = "injection"\ninject_min_score = 20\ninject_limit = 2\n')
    page = tmp_path / "dm.html"
    assert main(["report", str(SAMPLES / "decisions-eval"), "-m", "decision-memory", "-m", "bm25",
                 "-c", str(dm), "--movers", "200", "-o", str(page)]) == 0
    html = page.read_text()
    m = re.search(r"dm \(decision-memory\) scores it (\d+) \([^)]*\), under inject_min_score "
                  r"20;", html)
    assert m is not None and int(m.group(1)) < 20
    card = html[m.end():]
    card = card[:card.index('<div class="doc">')]
    # the table's total is the score the sentence gives, not the gate's 0
    assert f'<th>total</th><td class="num">{m.group(1)}</td>' in card
    assert "below_min_score gate" not in card


def test_a_tie_between_models_is_not_called_alike(tmp_path: Path) -> None:
    imp = tmp_path / "imp0.toml"
    imp.write_text("# the defaults of importance (x)\n[params]\nlimit = 0\n")
    md = tmp_path / "tie.md"
    assert main(["report", str(SAMPLES / "tea-beir"), "-m", "bm25", "-m", "importance", "-c",
                 str(imp), "--metrics", "mrr@10,ndcg@10", "-o", str(md)]) == 0
    text = md.read_text()
    assert ("imp0 against bm25: mrr@10 0.8204, the same on every one of the 25 queries "
            "(another model; other metrics moved: see Metrics)") in text


def test_a_file_goes_to_the_model_whose_parameters_it_sets(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    plain = tmp_path / "bmplain.toml"
    plain.write_text("k1 = 0.6\n")  # names no model: bm25's parameter
    assert main(["compare", REPO, "-m", "codeledger", "-m", "bm25", "-c", str(plain),
                 "--metrics", "r@10", "--movers", "0"]) == 0
    table = capsys.readouterr().out
    assert re.search(r"^model\s+codeledger\s+bm25$", table, re.M)
    assert re.search(r"^k1\s+—\s+0\.6$", table, re.M)
    # a preset's file goes to the model whose parameters it has
    assert main(["models", "codeledger-document", "--toml"]) == 0
    doc = tmp_path / "cldoc.toml"
    doc.write_text(capsys.readouterr().out)
    assert main(["compare", REPO, "-m", "bm25", "-m", "codeledger", "-c", str(doc),
                 "--metrics", "r@10", "--movers", "0"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^model\s+bm25\s+codeledger$", out, re.M)
    assert re.search(r"^w_content\s+—\s+0$", out, re.M)
    bad = tmp_path / "bad.toml"
    bad.write_text("zz = 1\n")
    assert main(["compare", REPO, "-m", "bm25", "-m", "codeledger", "-c", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "unknown parameter 'zz'" in err
    assert "none of bm25, codeledger takes all of them" in err


def test_param_with_several_models_names_whose_it_is(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", REPO, "-m", "bm25", "-m", "codeledger", "-p", "w_content=0.5"]) == 2
    err = capsys.readouterr().err
    assert "with several models --param sets the first's, bm25's" in err


@pytest.mark.parametrize("order", [("bm25", "codeledger"), ("codeledger", "bm25")])
def test_the_bundle_note_whichever_model_comes_first(
        order: tuple[str, str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", str(SAMPLES / "tea-beir"), "-m", order[0], "-m", order[1],
                 "--movers", "0"]) == 0
    out = capsys.readouterr().out
    assert "note: bm25 selects no bundle: the bundle rows are blank there" in out


def test_configurations_of_one_model_with_partial_values_still_differ() -> None:
    from workbench.core.comparison import differing

    # values not resolved (an API caller's): the first's names, as before models mixed
    assert differing([Configuration("a", {"k1": 1.2}),
                      Configuration("b", {"k1": 2.0, "b": 0.3})]) == {"k1": [1.2, 2.0]}


def test_a_tuned_model_against_another_borrows_no_verdict(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tuned = tmp_path / "tea_bm25.toml"
    # a trial's values (the start out of range, --pick best): a start kept unchanged is tuned
    # on no query (rv 6), and this test is of a model tuned on these queries
    assert main(["tune", str(SAMPLES / "tea-beir"), "-m", "bm25", "--tune", "k1,b", "--folds",
                 "3", "--trials", "6", "--seed", "0", "--range", "k1=1.5:3", "--pick", "best",
                 "--storage", str(tmp_path / "s.db"), "--out", str(tuned)]) == 0
    md = tmp_path / "r.md"
    assert main(["report", str(SAMPLES / "tea-beir"), "-m", "bm25", "-m", "dense", "-c",
                 str(tuned), "--movers", "0", "-o", str(md)]) == 0
    summary = md.read_text().split("## In short")[1].split("##")[0]
    # bm25's own k-fold figures are no verdict on dense against bm25
    assert "dense against tea_bm25: ndcg@10 " in summary
    assert ("tea_bm25's figures are training scores (tuned on these queries), so there is no "
            "test between the two models here") in summary
    assert "held out" not in summary


def test_a_model_that_cannot_read_the_data_is_said(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", str(SAMPLES / "tea-beir"), "-m", "bm25", "-m", "decision-memory",
                 "--movers", "0"]) == 0
    out = capsys.readouterr().out
    # eval's own warning, and that it returned nothing at all
    assert "note: decision-memory: no document of tea-beir is a pi-lodestone decision record" in out
    assert ("note: decision-memory returns nothing on any of the 25 queries counted: see the "
            "warning above") in out


def test_a_model_that_returns_nothing_is_not_explained_as_a_cut(tmp_path: Path) -> None:
    md = tmp_path / "r.md"
    assert main(["report", str(SAMPLES / "tea-beir"), "-m", "bm25", "-m", "decision-memory",
                 "--movers", "0", "-o", str(md)]) == 0
    summary = md.read_text().split("## In short")[1].split("##")[0]
    assert ("decision-memory returns nothing on any of the 25 queries, so every figure of it "
            "is 0 (the notes above say why).") in summary
    assert "ship" not in summary.split("decision-memory against bm25")[1]
    assert "comes from the cut" not in summary and "same order" not in summary


def test_a_short_list_not_of_a_limit_is_counted_not_given_its_length(
        capsys: pytest.CaptureFixture[str]) -> None:
    # rc 6: "bm25 returns at most 40 results a query, codeledger up to 43" had been blamed for
    # bm25's r@10; decision-memory's longest list is no limit of its own: the note counts
    # the cases where it returns fewer than another, not how long its longest list is
    assert main(["compare", str(SAMPLES / "decisions-eval"), "-m", "decision-memory", "-m",
                 "bm25", "-m", "importance", "--movers", "0"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    ds = load_dataset(SAMPLES / "decisions-eval")
    counts = {m: Pipeline(get_model(m), ds).run(["r@10"]).ranking.count
              for m in ("decision-memory", "bm25", "importance")}
    fewer = int((counts["decision-memory"] < np.maximum(counts["bm25"],
                                                        counts["importance"])).sum())
    assert fewer == 29  # every list but one is shorter than another's, and shorter than 10
    assert int((counts["decision-memory"] >= 10).sum()) == 0
    assert ("note: decision-memory returns fewer results than bm25 and importance on 29 of the "
            "30 cases: the ndcg@10, mrr@10, p@10, r@100 and map@100 of decision-memory count "
            "only what it returned there") in out
    assert "decision-memory returns at most" not in out
    # a limit is the cause: said
    assert "importance returns at most 5 results a query (its limit is 5), bm25 up to 22" in out


def test_selection_figures_not_beside_a_model_that_selects_nothing(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", str(SAMPLES / "decisions"), "-m", "decision-memory", "-m", "bm25",
                 "--movers", "0"]) == 0
    out = capsys.readouterr().out
    assert ("what each returns (results, empty queries, injected tokens) is left out: bm25 has "
            "no min score or limit") in out
    # no table of what each returns: no row of its figures
    assert not re.search(r"^(results|empty|injected_tokens|injected tokens)\s", out, re.M)


@pytest.mark.parametrize("twice", [["bm25", "bm25"], ["obsidian-mcp", "vault-search"]])
def test_one_model_given_twice(twice: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", REPO, "-m", twice[0], "-m", twice[1]]) == 2
    err = capsys.readouterr().err
    assert "is given twice" in err and "or a second --model" not in err


def test_a_preset_ships_as_codeledger_does(tmp_path: Path) -> None:
    md = tmp_path / "r.md"
    assert main(["report", REPO, "-m", "codeledger", "-m", "codeledger-document", "--movers",
                 "0", "-o", str(md)]) == 0
    text = md.read_text()
    summary = text.split("## In short")[1].split("##")[0]
    assert "CodeLedger takes only its weights from config.json" in summary
    assert "ship it only on other evidence" not in summary
    # under the preset, nothing away from its own defaults: no "Not tested" to hold back
    preset = text.split("### codeledger-document")[1]
    assert "Not tested" not in preset


def test_no_held_out_estimate_where_tune_held_nothing_out(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tuned = tmp_path / "k.toml"
    assert main(["tune", str(SAMPLES / "tea-beir"), "-m", "bm25", "--tune", "k1,b", "--folds",
                 "0", "--trials", "6", "--seed", "0", "--pick", "best", "--storage",
                 str(tmp_path / "s.db"), "--out", str(tuned)]) == 0
    md = tmp_path / "r.md"
    assert main(["report", str(SAMPLES / "tea-beir"), "-m", "bm25", "--defaults", "-c",
                 str(tuned), "--movers", "0", "-o", str(md)]) == 0
    summary = md.read_text().split("## In short")[1].split("##")[0]
    assert "tune's held-out figures (the note above) are the estimate" not in summary
    assert "tune held nothing out" in summary


def test_three_configurations_name_the_best_against_the_runner_up(tmp_path: Path) -> None:
    from workbench.core.metrics.significance import paired_test

    md = tmp_path / "r.md"
    # bm25 first, the two codeledgers above it: their own test is in no line against it
    assert main(["report", REPO, "-m", "bm25", "-m", "codeledger", "-m", "codeledger-document",
                 "--metrics", "ndcg@10", "--movers", "0", "-o", str(md)]) == 0
    summary = md.read_text().split("## In short")[1].split("##")[0]
    ds = load_dataset(SAMPLES / "code-repo")
    per = {m: Pipeline(get_model(m), ds).run(["ndcg@10"]).per_query["ndcg@10"]
           for m in ("codeledger", "codeledger-document", "bm25")}
    ranked = sorted(per, key=lambda m: -per[m].mean())
    best, second = ranked[0], ranked[1]
    assert "bm25" not in (best, second)
    test = paired_test(per[second], per[best])
    said = re.search(r"Best on ndcg@10: (\S+) \(([\d.]+)\), ahead of the runner-up (\S+) "
                     r"\(([\d.]+)\) by ([\d.]+), (\d+) tasks better and (\d+) worse", summary)
    assert said is not None
    assert (said[1], said[3], said[6], said[7]) == (best, second, str(test.improved),
                                                    str(test.worsened))
    # to the decimals at which "by" is the difference of the two means shown (rc 6: it had
    # read 0.6483 and 0.6476 "by 0.0006")
    assert said[2] == f"{per[best].mean():.4f}"
    assert said[4] == f"{per[second].mean():.4f}"
    assert Decimal(said[5]) == Decimal(said[2]) - Decimal(said[4])


def test_each_pair_speaks_of_the_figure_both_have(tmp_path: Path) -> None:
    # beside bm25 (no bundle), codeledger and its preset still speak of their bundles
    md = tmp_path / "three.md"
    assert main(["report", REPO, "-m", "codeledger", "-m", "codeledger-document", "-m", "bm25",
                 "--movers", "0", "-o", str(md)]) == 0
    summary = md.read_text().split("## In short")[1].split("##")[0]
    assert "codeledger-document against codeledger: bundle_recall " in summary
    assert "bm25 against codeledger: r@10 " in summary
    # bundle figures only: no pair with bm25 has one, and In short is still there
    md2 = tmp_path / "bundles.md"
    assert main(["report", REPO, "-m", "codeledger", "-m", "bm25", "-m", "codeledger-document",
                 "--metrics", "bundle_recall,bundle_f1", "--movers", "0", "-o", str(md2)]) == 0
    summary = md2.read_text().split("## In short")[1].split("##")[0]
    assert "codeledger-document against codeledger: bundle_recall " in summary
    assert "bm25 against codeledger: its top 10 shares " in summary


def test_a_name_two_models_share_is_no_difference(capsys: pytest.CaptureFixture[str]) -> None:
    # bm25's variant and vault-search's are two parameters: both at their defaults
    assert main(["compare", str(SAMPLES / "vault"), "-m", "bm25", "-m", "vault-search",
                 "--movers", "0"]) == 0
    out = capsys.readouterr().out
    table = out[out.index("parameter"):out.index("metric")]
    assert table.strip().splitlines()[2:] == ["model      bm25  vault-search"]


def test_an_empty_list_shares_no_order(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", str(SAMPLES / "tea-beir"), "-m", "bm25", "-m", "decision-memory",
                 "--movers", "0"]) == 0
    out = capsys.readouterr().out
    assert "the order is the same" not in out
    assert "at most 0 results" not in out


def test_codeledgers_caveat_once_and_backticks_as_code(tmp_path: Path) -> None:
    md = tmp_path / "two.md"
    assert main(["report", REPO, "-m", "codeledger", "-m", "codeledger-document", "--movers",
                 "0", "-o", str(md)]) == 0
    assert md.read_text().count("These figures are the workbench's codeledger model") == 1
    md2 = tmp_path / "dm.md"
    assert main(["report", str(SAMPLES / "tea-beir"), "-m", "bm25", "-m", "decision-memory",
                 "--movers", "0", "-o", str(md2)]) == 0
    assert "(`workbench explain` names each gate)" in md2.read_text()


def test_a_file_that_fits_two_models_says_whose_it_is(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lim = tmp_path / "lim.toml"
    lim.write_text("limit = 3\n")  # importance's and vault-search's alike
    assert main(["compare", str(SAMPLES / "memories"), "-m", "importance", "-m", "vault-search",
                 "-c", str(lim), "--movers", "0"]) == 0
    out = capsys.readouterr().out
    assert ("note: lim.toml names no model and its values fit importance and vault-search: "
            "read as importance's (the first -m)") in out


def test_a_limit_note_says_the_depth_to_compare_at(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", str(SAMPLES / "tea-beir"), "-m", "bm25", "-m", "importance",
                 "--movers", "0"]) == 0
    out = capsys.readouterr().out
    limit = get_model("importance").schema.defaults()["limit"]
    assert f"--metrics ndcg@{limit},p@{limit} sets them side by side at the depth it reaches" \
        in " ".join(out.split())
    # and at that depth, no list is short of the cut-off: no length note
    assert main(["compare", str(SAMPLES / "tea-beir"), "-m", "bm25", "-m", "importance",
                 "--metrics", f"ndcg@{limit},p@{limit}", "--movers", "0"]) == 0
    assert "count only what it returned" not in capsys.readouterr().out


def test_every_configuration_tied_for_best_is_named(tmp_path: Path) -> None:
    files = []
    for name in ("f1", "f2", "f3"):
        path = tmp_path / f"{name}.toml"
        path.write_text("k1 = 2.5\nb = 0.1\n")  # the same values three times
        files += ["-c", str(path)]
    md = tmp_path / "r.md"
    assert main(["report", str(SAMPLES / "tea-beir"), "-m", "bm25", "--defaults", *files,
                 "--movers", "0", "-o", str(md)]) == 0
    summary = md.read_text().split("## In short")[1].split("##")[0]
    assert re.search(r"Best on ndcg@10: f1, f2 and f3, tied \(\d\.\d{4}\)\.", summary)


class _HashEncoder:
    """NOT a model: a unit vector from each text's hash, named uniquely (uuid)."""

    dim = 8
    device = "cpu"

    def __init__(self) -> None:
        self.name = f"fake-reading-{uuid.uuid4().hex}"
        self.identity = self.name

    def encode(self, texts: Sequence[str], *, batch_size: int = 64,
               progress: Progress = NO_PROGRESS) -> NDArray[np.float32]:
        v = np.array([np.random.default_rng(list(t.encode())).standard_normal(self.dim)
                      for t in texts], np.float32).reshape(len(texts), self.dim)
        out: NDArray[np.float32] = v / np.linalg.norm(v, axis=1, keepdims=True)
        return out


def test_what_each_model_reads_is_a_parameter_that_differs() -> None:
    """rb 4: bm25, dense and hybrid at their defaults listed only k1, b, alpha …: hybrid's
    fields = text beside the others' title+text was dropped (each at its own default), so
    "hybrid against bm25" read as like for like. The prepare-stage values that say what a
    model reads (fields, prompts) are rows where they differ, and a note says it."""
    enc = _HashEncoder()
    register_encoder(enc.name, enc)
    bm, dn, hy = get_model("bm25"), get_model("dense"), get_model("hybrid")
    configs = [Configuration("bm25", bm.schema.defaults(), model=bm),
               Configuration("dense", dn.schema.resolve({"embedding_model": enc.name}),
                             model=dn),
               Configuration("hybrid", hy.schema.resolve({"embedding_model": enc.name}),
                             model=hy)]
    comp = compare_configurations(bm, load_dataset(SAMPLES / "tea-beir"), configs,
                                  ["ndcg@10"])
    _, rows = params_table(comp)
    table = {r[0]: r[1:] for r in rows}
    assert table["fields"] == ["title+text", "title+text", "text"]
    # the prompts: dense embeds without one, hybrid with OpenVault's; bm25 has none
    assert table["query_prompt"][0] == "—" and table["query_prompt"][1] != table[
        "query_prompt"][2]
    notes = data_notes(comp)
    line = next(n for n in notes if n.startswith("not like-for-like: "))
    assert "bm25 and dense read title+text; hybrid reads text only" in line
    # one model's configurations: a change of fields is the comparison, not a caveat
    same = compare_configurations(bm, load_dataset(SAMPLES / "tea-beir"), [
        Configuration("defaults", bm.schema.defaults()),
        Configuration("text", bm.schema.resolve({"fields": "text"}))], ["ndcg@10"])
    assert not any(n.startswith("not like-for-like") for n in data_notes(same))
