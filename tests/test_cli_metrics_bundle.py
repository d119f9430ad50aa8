"""Bundle figures as metrics: `eval --metrics bundle_f1,…` and `sweep --metrics bundle_…` on
the code-repo sample, checked against bundles counted file by file; one clear line when the
model selects no bundles."""

from __future__ import annotations

import re

import numpy as np
import pytest

from tests.conftest import SAMPLES
from workbench.cli import main
from workbench.core.formats import load_dataset
from workbench.core.metrics import BUNDLE_METRICS, METRICS, with_bundle_f1
from workbench.core.metrics.bundle import bundle_f1
from workbench.core.models import get_model
from workbench.core.models.codeledger.explain import full_bundles
from workbench.core.pipeline import Pipeline

CODE = str(SAMPLES / "code-repo")
TEA = str(SAMPLES / "tea-beir")


def _by_hand(params: dict[str, object] | None = None) -> dict[str, float]:
    """Each figure's mean over the judged tasks, from the bundles' file lists."""
    ds = load_dataset(CODE)
    pipe = Pipeline(get_model("codeledger"), ds, params)
    _, bund = full_bundles(pipe.prepared, pipe.params)
    rows = []
    for qi, q in enumerate(ds.queries):
        needed = set((ds.qrels or {}).get(q.id, {}))
        if not needed:
            continue
        taken = {ds.corpus[d].id for d in bund.files(qi)}
        r = len(taken & needed) / len(needed)
        p = len(taken & needed) / len(taken) if taken else 0.0
        rows.append((r, p, 2 * r * p / (r + p) if r + p else 0.0, len(taken),
                     float(bund.tokens[qi])))
    names = ("bundle_recall", "bundle_precision", "bundle_f1", "bundle_files", "bundle_tokens")
    return {n: float(np.mean([row[i] for row in rows])) for i, n in enumerate(names)}


def _table(out: str) -> dict[str, str]:
    return dict(re.findall(r"^(\S+)\s+([\d.,]+)$", out, re.M))


def test_eval_shows_the_bundle_figures_asked_for_and_only_those(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", CODE, "-m", "codeledger",
                 "--metrics", "bundle_f1,bundle_recall,bundle_tokens,r@10"]) == 0
    out = capsys.readouterr().out
    table = _table(out)
    want = _by_hand()
    assert list(table) == ["bundle_f1", "bundle_recall", "bundle_tokens", "r@10"]
    assert table["bundle_f1"] == f"{want['bundle_f1']:.4f}"
    assert table["bundle_recall"] == f"{want['bundle_recall']:.4f}"
    assert table["bundle_tokens"] == f"{want['bundle_tokens']:,.1f}"
    # a legend for each figure shown, the others not
    assert "bundle_f1      harmonic mean" in out and "bundle_precision " not in out


def test_eval_with_bundle_figures_alone(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", CODE, "-m", "codeledger", "--metrics", "bundle_files"]) == 0
    table = _table(capsys.readouterr().out)
    assert table == {"bundle_files": f"{_by_hand()['bundle_files']:,.1f}"}


def test_eval_adds_every_figure_when_none_is_named(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", CODE, "-m", "codeledger", "--metrics", "ndcg@10"]) == 0
    assert list(_table(capsys.readouterr().out)) == ["ndcg@10", *BUNDLE_METRICS]


def test_per_query_file_has_bundle_f1(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", CODE, "-m", "codeledger", "--metrics", "bundle_f1",
                 "--per-query", "-"]) == 0
    lines = capsys.readouterr().out.splitlines()
    head = lines.index("query_id,bundle_f1")
    values = [float(line.split(",")[1]) for line in lines[head + 1:] if "," in line]
    assert len(values) == 12
    assert np.mean(values) == pytest.approx(_by_hand()["bundle_f1"], abs=1e-6)


def test_sweep_over_a_bundle_figure(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sweep", CODE, "-m", "codeledger", "-s", "w_keyword", "--values", "0,1",
                 "--metrics", "bundle_f1,bundle_tokens"]) == 0
    rows = {line.split()[0]: line.split() for line in capsys.readouterr().out.splitlines()
            if line.split() and line.split()[0] in ("0.0", "1.0")}
    for value in ("0.0", "1.0"):
        want = _by_hand({"w_keyword": float(value)})
        assert rows[value][1] == f"{want['bundle_f1']:.4f}"
        assert rows[value][2] == f"{want['bundle_tokens']:,.1f}"


def test_fewer_tokens_is_better(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sweep", CODE, "-m", "codeledger", "-s", "w_keyword", "--values", "0,1",
                 "--metrics", "bundle_tokens"]) == 0
    out = capsys.readouterr().out
    tokens = {v: _by_hand({"w_keyword": v})["bundle_tokens"] for v in (0.0, 1.0)}
    fewest = min(tokens, key=lambda v: tokens[v])
    assert f"best by bundle_tokens (lower is better): w_keyword = {fewest} " in out


@pytest.mark.parametrize("command", [
    ["eval", TEA, "-m", "bm25", "--metrics", "ndcg@10,bundle_recall"],
    ["sweep", TEA, "-m", "bm25", "-s", "k1", "--values", "1,2", "--metrics", "bundle_f1"],
], ids=["eval", "sweep"])
def test_a_model_without_bundles_is_one_line(command: list[str],
                                             capsys: pytest.CaptureFixture[str]) -> None:
    assert main(command) == 2
    captured = capsys.readouterr()
    metric = command[-1].split(",")[-1]
    assert captured.err.count("\n") == 1 and captured.out == ""
    assert f"metric {metric} needs a model that selects bundles (codeledger" in captured.err
    assert "; model bm25 has none" in captured.err


def test_an_unknown_metric_names_the_bundle_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", CODE, "-m", "codeledger", "--metrics", "bundle_recal"]) == 2
    err = capsys.readouterr().err
    assert "unknown metric 'bundle_recal'" in err and ", ".join(BUNDLE_METRICS) in err
    assert main(["eval", TEA, "-m", "bm25", "--metrics", "p"]) == 2  # a known name: no list
    err = capsys.readouterr().err
    assert "needs a cutoff" in err and "bundle" not in err


@pytest.mark.parametrize("command", ["eval", "sweep"])
def test_metrics_help_lists_every_name(command: str,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main([command, "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for name in [*(f"{n}@k" for n in METRICS), *BUNDLE_METRICS]:
        assert name in text
    # dr4 6: the other tools' names it reads, said where the names are
    assert ("trec_eval's and ir_measures' names too: ndcg_cut_10 (ndcg_cut.10), P_10, "
            "recall_100, map_cut_100, recip_rank, AP@100, RR@10") in text


def test_bundle_f1_per_task() -> None:
    r = np.array([1.0, 0.5, 0.0, np.nan])
    p = np.array([1.0, 0.25, 0.0, np.nan])
    assert bundle_f1(r, p)[:3] == pytest.approx([1.0, 2 * 0.5 * 0.25 / 0.75, 0.0])
    assert np.isnan(bundle_f1(r, p)[3])
    added = with_bundle_f1({"bundle_recall": r, "bundle_precision": p, "bundle_files": r})
    assert list(added) == ["bundle_recall", "bundle_precision", "bundle_f1", "bundle_files"]
    assert with_bundle_f1({"ndcg@10": r}).keys() == {"ndcg@10"}


@pytest.mark.parametrize("metrics", ["r@10,bundle_recall", "bundle_recall", "ndcg@10"])
def test_a_run_file_of_a_bundle_model(tmp_path, capsys: pytest.CaptureFixture[str],
                                      metrics: str) -> None:
    run = tmp_path / "cl.trec"
    assert main(["eval", CODE, "-m", "codeledger", "--metrics", metrics, "--run", str(run),
                 "--depth", "5"]) == 0
    assert "TREC run (each query's top 5) written to" in capsys.readouterr().out
    lines = run.read_text().splitlines()
    per_task: dict[str, int] = {}
    for line in lines:
        per_task[line.split()[0]] = per_task.get(line.split()[0], 0) + 1
    assert len(per_task) == 12 and set(per_task.values()) == {5}
