"""A file from a tune that kept its starting values (`trained_on = []`) still records tune's
held-out test: eval and report say so (review rB 6: eval said nothing, and report only "the
settings are identical").
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import SAMPLES
from workbench.cli import main
from workbench.core.comparison import Configuration, compare_configurations
from workbench.core.formats import load_dataset
from workbench.core.models import get_model
from workbench.core.tuned_on import TunedOn
from workbench.report.text import summary_lines

TEA = str(SAMPLES / "tea-beir")
CRANFIELD = Path(__file__).resolve().parents[1].parent / "shared" / "datasets" / "cranfield"


def _kept_file(path: Path, dataset: str, n: int) -> Path:
    """As `tune --out` writes a run that kept the model's defaults (cranfield, 10 trials)."""
    path.write_text('[params]\nk1 = 1.2\nb = 0.75\nvariant = "lucene"\n\n[tuned]\n'
                    f'dataset = "{dataset}"\nvalidation = "5-fold over {n} queries (seed 0)"\n'
                    'metric = "ndcg@10"\nheld_out_default = 0.3697278316\n'
                    'held_out_start = "the model\'s defaults"\nheld_out_tuned = 0.3714318378\n'
                    f'held_out_p = 0.254152298\nheld_out_queries = {n}\nmodel = "bm25"\n'
                    'kept_trial = "start"\ntrained_on = []\n', "utf-8")
    return path


def test_eval_says_the_file_is_a_kept_start_with_tune_s_held_out_test(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    params = _kept_file(tmp_path / "kept.toml", "tea-beir", 25)
    assert main(["eval", TEA, "-m", "bm25", "--params", str(params),
                 "--metrics", "ndcg@10"]) == 0
    said = " ".join(capsys.readouterr().out.split())
    assert ("note: 'kept.toml' holds the starting values a tune kept (the model's defaults), "
            "fitted on no query") in said
    assert "starting values (the model's defaults) 0.3697, tuned 0.3714 (p = 0.254, 25 " in said


def test_report_in_short_says_the_file_is_a_kept_start() -> None:
    model = get_model("bm25")
    ds = load_dataset(SAMPLES / "tea-beir")
    comp = compare_configurations(
        model, ds, [Configuration("defaults", model.schema.defaults()),
                    Configuration("kept", model.schema.defaults())], ["ndcg@10"],
        n_resamples=200)
    comp.tuned["kept"] = TunedOn("tea-beir", "5-fold over 25 queries (seed 0)", (),
                                 "ndcg@10", 0.3697, 0.3714, 0.254, 25,
                                 start="the model's defaults")
    (line,) = summary_lines(comp)
    assert "(the settings are identical). kept holds the starting values a tune kept" in line
    assert "0.3697 → 0.3714 (+0.0017, p 0.254)" in line
    assert "made no clear difference held out: it may be chance." in line


@pytest.mark.datasets
@pytest.mark.skipif(not CRANFIELD.is_dir(), reason="Cranfield not under ../shared/datasets")
def test_cranfield_report_notes_the_kept_start(tmp_path: Path) -> None:
    params = _kept_file(tmp_path / "cran_tuned.toml", "cranfield", 225)
    out = tmp_path / "r.md"
    assert main(["report", str(CRANFIELD), "-m", "bm25", "--defaults", "-c", str(params),
                 "-o", str(out), "--format", "md"]) == 0
    text = out.read_text("utf-8")
    assert "> **Note:** 'cran_tuned' holds the starting values a tune kept" in text
    assert "cran_tuned holds the starting values a tune kept, fitted on no query" in text


def test_report_says_nothing_of_a_kept_start_tuned_on_other_data(tmp_path: Path) -> None:
    """dE 1: a file Cranfield's tune kept, reported on other data, had had Cranfield's
    held-out figures quoted as its own."""
    params = _kept_file(tmp_path / "cran_kept.toml", "cranfield", 225)
    out = tmp_path / "r.md"
    assert main(["report", TEA, "-m", "bm25", "--defaults", "-c", str(params),
                 "-o", str(out), "--format", "md"]) == 0
    text = " ".join(out.read_text("utf-8").split())
    assert "cran_kept against defaults:" in text
    assert "holds the starting values a tune kept" not in text
    assert "0.3714" not in text and "225 held-out" not in text


def _split_kept_file(path: Path, pick: str = "bound") -> Path:
    """As `tune --train-split train --test-split test --out` writes a run that kept the
    model's defaults: its held-out "tuned" figure is the start's own."""
    path.write_text('[params]\nk1 = 1.2\nb = 0.75\nvariant = "lucene"\n\n[tuned]\n'
                    'dataset = "tea-beir"\nvalidation = "tuned on split train (12 queries), '
                    'held out: split test (13)"\nmetric = "ndcg@10"\n'
                    'held_out_default = 0.6801692656\nheld_out_start = "the model\'s defaults"\n'
                    'held_out_tuned = 0.6801692656\nheld_out_p = 1.0\nheld_out_queries = 13\n'
                    f'model = "bm25"\npick = "{pick}"\nkept_trial = "start"\n'
                    'trained_on = []\n', "utf-8")
    return path


def test_a_split_run_s_kept_start_is_not_tested_against_itself(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """dE 2: "0.6802 → 0.6802 (+0.0000, p 1.000): no clear difference held out: it may be
    chance" had compared the start with itself."""
    params = _split_kept_file(tmp_path / "tt.toml")
    told = ("tune tried values on split train and no trial's gain was sure, so it kept these; "
            "nothing else was tested held out")
    assert main(["eval", TEA, "-m", "bm25", "--params", str(params),
                 "--metrics", "ndcg@10"]) == 0
    said = " ".join(capsys.readouterr().out.split())
    assert f"fitted on no query, so no figure here is a training score; {told}" in said
    assert "0.6802" not in said
    out = tmp_path / "r.md"
    assert main(["report", TEA, "-m", "bm25", "--defaults", "-c", str(params),
                 "-o", str(out), "--format", "md"]) == 0
    text = " ".join(out.read_text("utf-8").split())
    assert f"tt holds the starting values a tune kept, fitted on no query: {told}." in text
    assert "0.6802" not in text and "it may be chance" not in text


def test_a_kept_start_under_pick_best_gives_best_s_reason(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """dJ 2: under `--pick best` no gain is bounded; tune says "no trial scored better than
    the starting values", and eval and report had said "no trial's gain was sure"."""
    params = _split_kept_file(tmp_path / "best.toml", pick="best")
    told = ("tune tried values on split train and no trial scored better than the starting "
            "values, so it kept these; nothing else was tested held out")
    assert main(["eval", TEA, "-m", "bm25", "--params", str(params),
                 "--metrics", "ndcg@10"]) == 0
    said = " ".join(capsys.readouterr().out.split())
    assert told in said and "gain was sure" not in said
    out = tmp_path / "r.md"
    assert main(["report", TEA, "-m", "bm25", "--defaults", "-c", str(params),
                 "-o", str(out), "--format", "md"]) == 0
    text = " ".join(out.read_text("utf-8").split())
    assert f"best holds the starting values a tune kept, fitted on no query: {told}." in text
    assert "gain was sure" not in text


def test_a_record_without_trained_on_whose_run_kept_a_trial_is_no_kept_start(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """dJ 3: a file with no `trained_on` whose run kept trial 1 (held out 0.6633 → 0.6827)
    had been told that it kept its start and that nothing else was tested."""
    text = _split_kept_file(tmp_path / "x.toml").read_text("utf-8")
    params = tmp_path / "not.toml"
    params.write_text(text.replace('held_out_tuned = 0.6801692656', 'held_out_tuned = 0.7123')
                      .replace('kept_trial = "start"', 'kept_trial = 1')
                      .replace('trained_on = []\n', ''), "utf-8")
    assert main(["eval", TEA, "-m", "bm25", "--params", str(params),
                 "--metrics", "ndcg@10"]) == 0
    said = " ".join(capsys.readouterr().out.split())
    assert "a tune kept" not in said and "so it kept these" not in said
    assert "'not.toml' names no query it was tuned on, although its run kept a tuned trial" \
        in said
    assert "starting values (the model's defaults) 0.6802, tuned 0.7123 (p = 1.000, 13 " \
        in said
