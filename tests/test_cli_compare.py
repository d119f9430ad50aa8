"""`workbench compare` and `workbench report --format md` as a user runs them: the metric
table's numbers are each configuration's own evaluation, the movers carry their explain
sentence, bad configurations and outputs end in one line with exit 2 and nothing written."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import SAMPLES
from workbench.cli import main
from workbench.core.formats import load_dataset
from workbench.core.models import get_model
from workbench.core.params import params_toml
from workbench.core.pipeline import Pipeline

TEA = str(SAMPLES / "tea-beir")


@pytest.fixture
def tuned(tmp_path: Path) -> Path:
    path = tmp_path / "tuned.toml"
    path.write_text(params_toml({"k1": 0.9, "b": 0.4}))
    return path


def test_compare_prints_each_configurations_own_metrics(
        tuned: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", TEA, "-m", "bm25", "--defaults", "-c", str(tuned),
                 "--metrics", "ndcg@10,map@100"]) == 0
    out = capsys.readouterr().out
    model, ds = get_model("bm25"), load_dataset(SAMPLES / "tea-beir")
    base = Pipeline(model, ds).run(["ndcg@10", "map@100"]).means
    mine = Pipeline(model, ds, {"k1": 0.9, "b": 0.4}).run(["ndcg@10", "map@100"]).means
    for metric in ("ndcg@10", "map@100"):
        row = next(line.split() for line in out.splitlines() if line.startswith(metric))
        assert row[1:4] == [f"{base[metric]:.4f}", f"{mine[metric]:.4f}",
                            f"{mine[metric] - base[metric]:+.4f}"]
    assert "k1              1.2  0.9" in out
    assert "moved most, defaults → tuned (top 10):" in out
    assert " — k1 1.2 → 0.9, b 0.75 → 0.4" in out


def test_report_md_writes_the_file(tuned: Path, tmp_path: Path) -> None:
    out = tmp_path / "report.md"
    assert main(["report", TEA, "-m", "bm25", "--defaults", "-c", str(tuned), "-o",
                 str(out)]) == 0
    text = out.read_text()
    assert text.startswith("# Ranking comparison\n") and "## Metrics" in text
    assert "| ndcg@10 |" in text


@pytest.mark.parametrize(("argv", "words"), [
    (["-c", "{tuned}"], ("at least two",)),
    (["-c", "{tuned}", "-c", "{tuned}"], ("named 'tuned'",)),
    (["--defaults", "-c", "{bad}"], ("--config", "bad.toml", "k1")),
    (["--defaults", "-c", "{tuned}", "--metrics", "nosuch"], ("nosuch",)),
])
def test_refused_in_one_line(argv: list[str], words: tuple[str, ...], tuned: Path,
                             tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("k1 = 99\n")
    args = [a.format(tuned=tuned, bad=bad) for a in argv]
    assert main(["compare", TEA, "-m", "bm25", *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    for word in words:
        assert word in err, err


def test_report_into_a_missing_folder_writes_nothing(
        tuned: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "nowhere" / "report.md"
    assert main(["report", TEA, "-m", "bm25", "--defaults", "-c", str(tuned), "-o",
                 str(target)]) == 2
    assert "--out" in capsys.readouterr().err and not target.parent.exists()


def test_bundle_figures_in_compare(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Bundle figures are metrics of `compare` for a model that selects bundles (counts to one
    decimal), and refused in one line for one that does not."""
    code = str(SAMPLES / "code-repo")
    off, on = tmp_path / "off.toml", tmp_path / "on.toml"
    off.write_text(params_toml({"token_budget": 300, "skip_limit": 0}))
    on.write_text(params_toml({"token_budget": 300, "skip_limit": 3}))
    assert main(["compare", code, "-m", "codeledger", "-c", str(off), "-c", str(on),
                 "--metrics", "bundle_recall,bundle_tokens"]) == 0
    out = capsys.readouterr().out
    model, ds = get_model("codeledger"), load_dataset(SAMPLES / "code-repo")
    means = [Pipeline(model, ds, {"token_budget": 300, "skip_limit": s}).run(["r@10"]).means
             for s in (0, 3)]
    rows = {line.split()[0]: line.split() for line in out.splitlines()
            if line.startswith("bundle_")}
    assert rows["bundle_recall"][1:3] == [f"{m['bundle_recall']:.4f}" for m in means]
    assert rows["bundle_tokens"][1:3] == [f"{m['bundle_tokens']:,.1f}" for m in means]
    tuned = tmp_path / "tuned.toml"
    tuned.write_text(params_toml({"k1": 0.9}))
    assert main(["compare", TEA, "-m", "bm25", "--defaults", "-c", str(tuned),
                 "--metrics", "bundle_recall"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "needs a model that selects bundles" in err
