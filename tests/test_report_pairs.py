"""Every pair of three or more configurations (`report.pairs`): each pair set against each
other on the metric both have, with the paired test a comparison of those two alone gives and
Holm's adjustment over the pairs tested; shown by compare, the Markdown and the HTML report."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from tests.conftest import SAMPLES
from workbench.cli import main
from workbench.core.comparison import Configuration, compare_configurations
from workbench.core.formats import load_dataset
from workbench.core.metrics.significance import paired_test
from workbench.core.models import get_model
from workbench.core.pipeline import Pipeline
from workbench.report.pairs import holm, pairs

TEA = str(SAMPLES / "tea-beir")


def test_holm_adjusts_by_the_step_down_rule() -> None:
    # by hand from Holm (1979): sorted 0.005, 0.01, 0.03, 0.04 times 4, 3, 2, 1 are 0.02,
    # 0.03, 0.06, 0.04; the running maximum lifts the last to 0.06
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    # not a test: left out of m and kept None
    assert holm([0.02, None, 0.04]) == pytest.approx([0.04, None, 0.04])
    assert holm([0.6, 0.9]) == [1.0, 1.0]  # never above 1
    assert holm([]) == []


def _bm25(tmp_path: Path, values: dict[str, str]) -> list[str]:
    files = []
    for name, text in values.items():
        path = tmp_path / f"{name}.toml"
        path.write_text(text)
        files += ["-c", str(path)]
    return files


def test_each_pair_is_what_comparing_the_two_alone_gives() -> None:
    bm = get_model("bm25")
    ds = load_dataset(SAMPLES / "tea-beir")
    base = bm.schema.defaults()
    configs = [Configuration("defaults", base),
               Configuration("flat", {**base, "k1": 0.3, "b": 0.2}),
               Configuration("steep", {**base, "k1": 3.0, "b": 1.0}),
               Configuration("short", {**base, "b": 0.9})]
    comp = compare_configurations(bm, ds, configs, ["ndcg@10", "r@100"])
    found = pairs(comp)
    assert [(f.a, f.b) for f in found] == [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
    for f in found:
        assert f.metric == "ndcg@10"  # the first quality metric, not r@100
        two = compare_configurations(bm, ds, [configs[f.a], configs[f.b]], ["ndcg@10"])
        row = two.rows[0]
        assert f.mean_a == pytest.approx(row.means[0])
        assert f.mean_b == pytest.approx(row.means[1])
        assert f.delta == pytest.approx(row.deltas[1])
        assert f.p_value == pytest.approx(row.p_values[1])
        assert (f.better, f.worse) == (row.improved[1], row.worsened[1])
    # the adjustment: the smallest p times the number of pairs tested
    tested = [f for f in found if f.moved]
    smallest = min(tested, key=lambda f: f.p_value or 1.0)
    assert smallest.adjusted == pytest.approx(min(1.0, len(tested) * (smallest.p_value or 0)))
    assert all((f.adjusted or 0) >= (f.p_value or 0) for f in found)


def test_two_configurations_have_no_pair_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", TEA, "-m", "bm25", "--defaults", "-p", "k1=2", "--movers",
                 "0"]) == 0
    assert "every pair" not in capsys.readouterr().out


def test_compare_prints_every_pair_and_names_those_beyond_chance(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    files = _bm25(tmp_path, {"flat": 'fields = "text"\n', "tf": "k1 = 1.5\n"})
    assert main(["compare", TEA, "-m", "bm25", "--defaults", *files, "--metrics",
                 "ndcg@10", "--movers", "0"]) == 0
    out = capsys.readouterr().out
    assert "every pair (B − A; Holm p: adjusted for the pairs tested):" in out
    table = out.split("every pair")[1]
    assert re.search(r"defaults\s+flat\s+ndcg@10", table)
    assert re.search(r"flat\s+tf\s+ndcg@10", table)  # a pair the metric table does not hold
    ds = load_dataset(SAMPLES / "tea-beir")
    bm = get_model("bm25")
    per = {name: Pipeline(bm, ds, params).run(["ndcg@10"]).per_query["ndcg@10"]
           for name, params in (("defaults", bm.schema.defaults()),
                                ("flat", {**bm.schema.defaults(), "fields": "text"}),
                                ("tf", {**bm.schema.defaults(), "k1": 1.5}))}
    tests = {(a, b): paired_test(per[a], per[b]) for a, b in
             (("defaults", "flat"), ("defaults", "tf"), ("flat", "tf"))}
    moved = {k: t for k, t in tests.items() if t.improved + t.worsened}
    m = len(moved)
    ordered = sorted(moved.items(), key=lambda kv: kv[1].p_value)
    running, adjusted = 0.0, {}
    for j, (k, t) in enumerate(ordered):
        running = max(running, min(1.0, (m - j) * t.p_value))
        adjusted[k] = running
    beyond = [k for k, p in adjusted.items() if p < 0.05]
    summary = next(line for line in out.splitlines() if line.startswith("Every pair on"))
    if beyond:
        assert f"beyond chance after Holm's adjustment for the {m} pairs tested" in summary
        for a, b in beyond:
            win, lose = (b, a) if tests[(a, b)].delta > 0 else (a, b)
            assert f"{win} over {lose} (+{abs(tests[(a, b)].delta):.4f}" in summary
    else:
        assert "no pair differs beyond chance" in summary
    # indexing the text without the title costs nDCG on tea: a real loss
    assert beyond


def test_models_pair_on_the_figure_both_have(tmp_path: Path) -> None:
    md = tmp_path / "r.md"
    # bm25 first: the two codeledgers are set against each other on their bundles here only
    assert main(["report", str(SAMPLES / "code-repo"), "-m", "bm25", "-m", "codeledger", "-m",
                 "codeledger-document", "--metrics", "r@10,bundle_recall", "--movers", "0",
                 "-o", str(md)]) == 0
    text = md.read_text()
    section = text.split("## Every pair")[1].split("\n## ")[0]
    rows = [line for line in section.splitlines() if line.startswith("| ") and "---" not in line]
    cells = [[c.strip() for c in r.strip("|").split("|")] for r in rows[1:]]
    assert [(c[0], c[1], c[2]) for c in cells] == [
        ("bm25", "codeledger", "r@10"), ("bm25", "codeledger-document", "r@10"),
        ("codeledger", "codeledger-document", "bundle_recall")]
    ds = load_dataset(SAMPLES / "code-repo")
    # a bundle-selecting model's run carries its bundle figures beside the ranking metrics
    recall = {m: Pipeline(get_model(m), ds).run(["r@10"]).per_query["bundle_recall"]
              for m in ("codeledger", "codeledger-document")}
    counted = np.array([bool(ds.qrels.get(q)) for q in ds.queries.ids]) if ds.qrels else None
    a, b = (recall[m] if counted is None else recall[m][counted]
            for m in ("codeledger", "codeledger-document"))
    assert cells[2][3] == f"{a.mean():.4f}" and cells[2][4] == f"{b.mean():.4f}"
    assert cells[2][6] == (lambda p: "<0.001" if p < 0.001 else f"{p:.3f}")(
        paired_test(a, b).p_value)


def test_the_html_report_has_the_pairs_and_a_link(tmp_path: Path) -> None:
    files = _bm25(tmp_path, {"flat": 'fields = "text"\n', "tf": "k1 = 1.5\n"})
    page = tmp_path / "r.html"
    assert main(["report", TEA, "-m", "bm25", "--defaults", *files, "--movers", "0", "-o",
                 str(page)]) == 0
    html = page.read_text()
    assert '<a href="#pairs">every pair</a>' in html
    section = html.split('<section id="pairs">')[1].split("</section>")[0]
    assert section.count("<tr>") == 1 + 3  # the header and three pairs
    assert 'class="num down"' in section  # the loss without titles, beyond chance, coloured
    # two configurations: no section, no link
    assert main(["report", TEA, "-m", "bm25", "--defaults", "-c", files[1], "--movers", "0",
                 "-o", str(page)]) == 0
    html = page.read_text()
    assert 'id="pairs"' not in html and "#pairs" not in html
