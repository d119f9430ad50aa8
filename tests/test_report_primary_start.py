"""Which pair is tune's primary comparison, read from real `tune --out` files (review dr6):
a run started from a --params file ("s2.toml's"), from -p values ("those given with -p
k1=0.3, b=0.1") or from a window configuration ("the configuration s2's") has its start
found among the configurations compared, by the file or by the values; a start not compared,
a run that kept its start's values, and a file tuned on other documents give no primary
comparison (dr6 1, 2, 7)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.conftest import SAMPLES
from workbench.cli import main
from workbench.core.comparison import Comparison, Configuration, compare_configurations
from workbench.core.formats import load_dataset
from workbench.core.models import get_model
from workbench.core.tuned_on import TunedOn
from workbench.report.text.chance import primary_text

START = "[params]\nk1 = 0.3\nb = 0.1\n"


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """tea-beir split in two (q01–q12 train, q13–q25 test), s2.toml, and tune runs from
    s2.toml (bf), from the same values given with -p (bp), from the model's defaults (bd), and
    from s2.toml keeping its values (kept: --pick bound, where no gain was sure)."""
    root = tmp_path_factory.mktemp("starts")
    data = root / "tea"
    shutil.copytree(SAMPLES / "tea-beir", data)
    rows = (data / "qrels" / "test.tsv").read_text().splitlines()
    (data / "qrels" / "train.tsv").write_text(
        "\n".join([rows[0], *(r for r in rows[1:] if r.split("\t")[0] <= "q12")]) + "\n")
    (data / "qrels" / "test.tsv").write_text(
        "\n".join([rows[0], *(r for r in rows[1:] if r.split("\t")[0] > "q12")]) + "\n")
    s2 = root / "s2.toml"
    s2.write_text(START)
    out = {"data": data, "s2": s2}
    split = ["--tune", "k1,b", "--train-split", "train", "--test-split", "test", "--trials",
             "5", "--seed", "0"]
    for name, start, pick in (("bf", ["--params", str(s2)], "best"),
                              ("bp", ["-p", "k1=0.3", "-p", "b=0.1"], "best"),
                              ("bd", [], "best"), ("kept", ["--params", str(s2)], "bound")):
        out[name] = root / f"{name}.toml"
        assert main(["tune", str(data), "-m", "bm25", *start, *split, "--pick", pick,
                     "--out", str(out[name])]) == 0
    return out


def _compare(capsys: pytest.CaptureFixture[str], data: Path, *args: str) -> str:
    capsys.readouterr()
    assert main(["compare", str(data), "-m", "bm25", *args]) == 0
    return " ".join(capsys.readouterr().out.split())


def test_a_run_from_a_params_file_is_primary_against_that_file(capsys, runs) -> None:
    assert 'held_out_start = "s2.toml\'s"' in runs["bf"].read_text()
    out = _compare(capsys, runs["data"], "-c", str(runs["s2"]), "-c", str(runs["bf"]))
    assert "(the primary comparison: bf against s2 on ndcg@10, held out)" in out, out


def test_a_run_from_p_values_is_primary_against_a_configuration_holding_them(
        capsys, runs) -> None:
    assert "those given with -p k1=0.3, b=0.1" in runs["bp"].read_text()
    out = _compare(capsys, runs["data"], "-c", str(runs["s2"]), "-c", str(runs["bp"]))
    assert "(the primary comparison: bp against s2 on ndcg@10, held out)" in out, out
    # the defaults are not those values: no primary comparison against them
    out = _compare(capsys, runs["data"], "--defaults", "-c", str(runs["bp"]))
    assert "tune set out to test" not in out, out


def test_a_start_not_compared_gives_no_primary_comparison(capsys, runs) -> None:
    out = _compare(capsys, runs["data"], "--defaults", "-c", str(runs["bf"]))
    assert "tune set out to test" not in out, out


def test_a_run_that_kept_its_start_tested_nothing(capsys, runs) -> None:
    text = runs["kept"].read_text()
    assert "k1 = 0.3" in text and "b = 0.1" in text  # the start's values, kept
    out = _compare(capsys, runs["data"], "-c", str(runs["s2"]), "-c", str(runs["kept"]))
    assert "tune set out to test" not in out, out


def test_a_run_on_other_documents_is_never_primary(capsys, runs) -> None:
    # bd was tuned from bm25's defaults on tea's documents; vault's are others
    out = _compare(capsys, runs["data"], "--defaults", "-c", str(runs["bd"]))
    assert "(the primary comparison: bd against defaults on ndcg@10, held out)" in out, out
    out = _compare(capsys, SAMPLES / "vault", "--defaults", "-c", str(runs["bd"]))
    assert "tune set out to test" not in out, out


def test_a_record_written_before_tune_kept_its_start_is_said_to_be_no_primary(
        capsys, runs, tmp_path: Path) -> None:
    # review dr6, 4th: a [tuned] record without held_out_start (a file written before tune
    # kept it) names no start, so none of its pairs is primary: said once, not silently
    text = runs["bd"].read_text()
    assert "held_out_start = \"the model's defaults\"\n" in text
    old = tmp_path / "old.toml"
    old.write_text(text.replace("held_out_start = \"the model's defaults\"\n", ""))
    # bd started from the defaults, so the comparison shown is the one tune tested: the
    # note says the workbench cannot tell which, not that none is (dr1 4)
    said = ("The record of 'old' does not say where tune started, so the workbench cannot "
            "tell which comparison here, if any, is the one tune tested: each is read as a "
            "side look; rerun tune to test it as pre-declared.")
    out = _compare(capsys, runs["data"], "--defaults", "-c", str(old))
    assert "tune set out to test" not in out, out
    assert out.count(said) == 1, out
    md = tmp_path / "old.md"
    assert main(["report", str(runs["data"]), "-m", "bm25", "--defaults", "-c", str(old),
                 "--movers", "0", "-o", str(md)]) == 0
    assert md.read_text().count(said) == 1
    # the same run with its start recorded: primary, and nothing of the sort said
    out = _compare(capsys, runs["data"], "--defaults", "-c", str(runs["bd"]))
    assert "tune set out to test" in out and "where tune started" not in out, out


def test_a_window_configurations_start_is_found_by_its_name() -> None:
    # the window's Tune tab records "the configuration s2's"; its configurations have no file
    model = get_model("bm25")
    ds = load_dataset(SAMPLES / "tea-beir")
    configs = [Configuration("defaults", model.schema.defaults()),
               Configuration("s2", model.schema.resolve({"k1": 0.3, "b": 0.1})),
               Configuration("tuned", model.schema.resolve({"k1": 1.8, "b": 0.55}))]
    comp = compare_configurations(model, ds, configs, n_resamples=200)
    record = TunedOn(ds.name, "tuned on split train, held out split test", (), "ndcg@10",
                     0.6, 0.65, 0.004, 13, start="the configuration s2's")
    comp.tuned["tuned"] = record
    assert primary_text(comp) == "tuned against s2 on ndcg@10"
    # moved off it in the window: "the configuration s2's with k1=1.8, b=0.55" is tuned's
    # own values, so the start is none of the others
    comp.tuned["tuned"] = TunedOn(ds.name, "split", (), "ndcg@10", 0.6, 0.65, 0.004, 13,
                                  start="the configuration s2's with b=0.75")
    assert primary_text(comp) == ""
    comp.tuned["tuned"] = TunedOn(ds.name, "split", (), "ndcg@10", 0.6, 0.65, 0.004, 13,
                                  start="the configuration s2's with k1=1.2, b=0.75")
    assert primary_text(comp) == "tuned against defaults on ndcg@10"


def _window_three() -> tuple[Comparison, str]:
    model = get_model("bm25")
    ds = load_dataset(SAMPLES / "tea-beir")
    configs = [Configuration("defaults", model.schema.defaults()),
               Configuration("s2", model.schema.resolve({"k1": 0.3, "b": 0.1})),
               Configuration("tuned", model.schema.resolve({"k1": 1.8, "b": 0.55}))]
    return compare_configurations(model, ds, configs, n_resamples=200), ds.name


def test_a_primary_comparison_not_against_the_first_is_given_in_short() -> None:
    # review dr6, 6: the rule named "tuned against s2" while In short (each against the first)
    # never gave its figures or verdict
    from workbench.report.text import summary_lines

    comp, name = _window_three()
    comp.tuned["tuned"] = TunedOn(name, "split", (), "ndcg@10", 0.6, 0.65, 0.004, 13,
                                  start="the configuration s2's")
    row = next(r for r in comp.rows if r.metric == "ndcg@10")
    lines = summary_lines(comp)
    (line,) = [x for x in lines if x.startswith("tuned against s2, the primary comparison")]
    assert f"ndcg@10 {row.means[1]:.4f} → {row.means[2]:.4f} (" in line, line
    assert line.endswith(("beyond chance.", "it may be chance.")), line


def test_two_primary_comparisons_are_said_in_the_plural() -> None:
    # review dr6, 7: "the primary comparison (best against …; bmt against …)"
    from workbench.report.text import many_tests_note

    comp, name = _window_three()
    comp.tuned["s2"] = TunedOn(name, "split", (), "ndcg@10", 0.6, 0.65, 0.004, 13,
                               start="the model's defaults")
    comp.tuned["tuned"] = TunedOn(name, "split", (), "ndcg@10", 0.6, 0.65, 0.004, 13,
                                  start="the configuration s2's")
    note = many_tests_note(comp)
    assert ("the 2 comparisons tune set out to test, each by its own run (the primary "
            "comparisons: s2 against defaults on ndcg@10; tuned against s2 on ndcg@10, held "
            "out), are each judged alone") in note, note
    assert "2 chances of a false alarm" in note


def test_the_window_does_not_call_a_pair_it_does_not_show_primary() -> None:
    # review dr6, 1: "'bf2', by tune's held-out ndcg@10: better held out, beyond chance (the
    # primary comparison, tested alone)" above a table where bf2's start was not shown
    from workbench.gui.compare.window import window_cautions

    comp, name = _window_three()
    comp.tuned["tuned"] = TunedOn(name, "split", (), "ndcg@10", 0.6, 0.65, 0.004, 13,
                                  start="elsewhere.toml's")
    whole = " ".join(long for _, long in window_cautions(comp))
    assert ("'tuned', by tune's held-out ndcg@10: better held out, beyond chance (tune's own "
            "test of it against its start, which is not shown here)") in whole, whole
    assert "primary comparison" not in whole
    # tuned on other documents: tune's figures are not of these, and not said
    comp.tuned["tuned"] = TunedOn("elsewhere", "split", (), "ndcg@10", 0.6, 0.65, 0.004, 13,
                                  corpus="another", start="the model's defaults")
    whole = " ".join(long for _, long in window_cautions(comp))
    assert "by tune's held-out" not in whole and "primary comparison" not in whole, whole


def test_two_runs_tuned_for_different_metrics_are_a_side_look_judged_on_one_metric(
        capsys, runs, tmp_path: Path) -> None:
    # review dr6 (2nd), 1: a run tuned for r@10 that kept the defaults' values beside one
    # tuned for ndcg@10 from the defaults: In short had called the pair of the two "the
    # primary comparison" on ndcg@10 while Every pair judged it on another metric
    kd = tmp_path / "kd.toml"
    assert main(["tune", str(runs["data"]), "-m", "bm25", "--tune", "k1,b", "--metric", "r@10",
                 "--train-split", "train", "--test-split", "test", "--trials", "5",
                 "--seed", "0", "--pick", "bound", "--out", str(kd)]) == 0
    text = kd.read_text()
    assert 'metric = "r@10"' in text and "k1 = 1.2" in text and "b = 0.75" in text, text
    metrics = ["--metrics", "mrr@10,ndcg@10,r@10"]
    out = _compare(capsys, runs["data"], "--defaults", "-c", str(runs["bd"]), "-c", str(kd),
                   *metrics)
    assert "(the primary comparison: bd against defaults on ndcg@10, held out)" in out, out
    assert "bd against kd" not in out and "each by its own run" not in out, out
    assert ("mrr@10 where the two were tuned for different metrics, neither tested by tune "
            "against the other" in out), out
    md = tmp_path / "two.md"
    assert main(["report", str(runs["data"]), "-m", "bm25", "--defaults", "-c", str(runs["bd"]),
                 "-c", str(kd), *metrics, "--movers", "0", "-o", str(md)]) == 0
    page = md.read_text()
    assert "primary comparison (judged alone)" not in page, page
    (row,) = [x for x in page.splitlines() if x.startswith("| bd | kd |")]
    # the pair is judged on the first quality metric both have, not on either's own metric
    assert row.split(" | ")[2] == "mrr@10", row


def test_one_runs_test_shown_twice_is_not_said_to_be_each_by_its_own_run() -> None:
    # review dr6 (2nd), 1: "each by its own run" of two pairs from one run, whose start's
    # values two configurations held
    from workbench.report.text import many_tests_note

    model = get_model("bm25")
    ds = load_dataset(SAMPLES / "tea-beir")
    configs = [Configuration("defaults", model.schema.defaults()),
               Configuration("same", model.schema.defaults()),
               Configuration("tuned", model.schema.resolve({"k1": 1.8, "b": 0.55}))]
    comp = compare_configurations(model, ds, configs, n_resamples=200)
    comp.tuned["tuned"] = TunedOn(ds.name, "split", (), "ndcg@10", 0.6, 0.65, 0.004, 13,
                                  start="the model's defaults")
    note = many_tests_note(comp)
    assert ("the 2 comparisons tune set out to test, from 1 run (a run's start held by more "
            "than one configuration here) (the primary comparisons: tuned against defaults on "
            "ndcg@10; tuned against same on ndcg@10, held out), are each judged alone: beyond "
            "chance if p is below 0.05 (1 chance of a false alarm)") in note, note
