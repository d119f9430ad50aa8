"""Every pair of three or more configurations (`report.pairs`): each pair set against each
other on the metric both have, with the paired test a comparison of those two alone gives and
Holm's adjustment over the pairs tested; shown by compare, the Markdown and the HTML report."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from tests.conftest import SAMPLES, need_dataset
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
    found = pairs(comp).found
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
    # the real rule, and where it is said: compare has no Metrics section (review dr6, 3)
    assert ("every pair (B − A; Holm p: that p after Holm's adjustment (the k-th smallest of "
            "m times m − k + 1), over one of two families: a pair with defaults, over the "
            "metric table's 2 p-values (the same Holm p the metric table gives it); any other "
            "pair, over those 2 and the 1 other pair's p-values (3 in all)):"
            ) in " ".join(out.split())
    assert "rule under Metrics" not in out and "by the rule above the pairs" in out
    table = out.split("every pair (B − A")[1]
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
        share = ("both" if m == 2 and len(beyond) == 2 else f"all {m}" if len(beyond) == m
                 else f"{len(beyond)} of the {m}")
        assert (f"{share} pairs tested differ{'s' if len(beyond) == 1 else ''} beyond chance "
                "by the rule above the pairs") in summary, summary
        for a, b in beyond:
            win, lose = (b, a) if tests[(a, b)].delta > 0 else (a, b)
            # the difference of the two means as the table shows them (review rb, 7)
            shown = abs(round(float(per[b].mean()), 4) - round(float(per[a].mean()), 4))
            assert f"{win} over {lose} (+{shown:.4f}" in summary
    else:
        assert f"none of the {m} pairs tested differs beyond chance" in summary
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
    places = len(cells[2][3].split(".")[1])  # more than 4 where B − A needs them (rc 6)
    assert 4 <= places <= 5
    assert cells[2][3] == f"{a.mean():.{places}f}" and cells[2][4] == f"{b.mean():.{places}f}"
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


def _grid(tmp_path: Path, values: list[tuple[float, float]]) -> list[str]:
    return _bm25(tmp_path, {f"k{k1}_b{b}": f"k1 = {k1}\nb = {b}\n" for k1, b in values})


def test_one_test_gets_one_verdict(tmp_path: Path) -> None:
    # review rv1 (1): the metric table's p of 0.005 among its 15 is weak evidence (0.05 / 15
    # = 0.0033); among Every pair's 6 its Holm p is 0.028: it had been starred there
    files = _grid(tmp_path, [(0.3, 0.1), (2.5, 0.5), (0.3, 1.0), (0.6, 0.75)])
    md = tmp_path / "r.md"
    assert main(["report", TEA, "-m", "bm25", *files, "--movers", "0", "-o", str(md)]) == 0
    text = md.read_text()
    # (the Δ of the means shown, rc 6)
    assert "+0.0360 ☆" in text.split("## Metrics")[1].split("## Every pair")[0]
    section = text.split("## Every pair")[1].split("\n## ")[0]
    assert "★" not in section.split("|---")[1]  # the table's rows: no star
    said = " ".join(section.split())
    # one rule (review rb, 1): the pair with the first is the table's test, adjusted over the
    # table's 12 exploratory p-values (judged@10's are coverage, none: dr6 8); sorted, 0.003
    # then this 0.005 (0.0046 unrounded): Holm p 11 × 0.0046 = 0.051 by hand, so it reads weak
    # in both sections and no section says "not called different"
    assert ("none of the 6 pairs tested differs beyond chance by the rule under Metrics"
            in said), said
    assert ("Below 0.05 alone, but exploratory and not below 0.05 after Holm's adjustment "
            "(weak evidence): k0.3_b0.1 and k2.5_b0.5 (p 0.005, Holm p 0.051)") in said, said
    assert "Not called different" not in text


def test_the_best_line_is_adjusted_for_every_pair(tmp_path: Path) -> None:
    # review rv1 (3): the two best, picked after their means were seen, had been called
    # different at p 0.029 while Every pair called no pair different
    files = _grid(tmp_path, [(0.3, 0.1), (2.0, 0.75), (0.9, 0.9)])
    md = tmp_path / "r.md"
    assert main(["report", TEA, "-m", "bm25", "--metrics", "ndcg@10", *files, "--movers", "0",
                 "-o", str(md)]) == 0
    best = next(line for line in md.read_text().splitlines() if "Best on" in line)
    assert "p 0.029" in best
    assert ("p below 0.05 alone, but exploratory and not below 0.05 after Holm's adjustment "
            "(Holm p 0.088, Every pair): weak evidence") in best, best
    assert "a difference beyond chance" not in best


def test_a_configuration_that_returns_nothing_is_not_tested(
        capsys: pytest.CaptureFixture[str]) -> None:
    # review rv1 (4): vault-search returns nothing on memories; its pairs had been two
    # "beyond chance" findings and had tripled the adjustment of the one real pair
    assert main(["compare", str(SAMPLES / "memories"), "-m", "importance", "-m",
                 "vault-search", "-m", "bm25", "--movers", "0"]) == 0
    out = capsys.readouterr().out
    table = out.split("every pair (B − A")[1].split("\n\n")[0]
    assert table.count("— (returns nothing)") == 2
    one = next(line for line in table.splitlines() if line.startswith("importance    bm25"))
    p, holm_p = one.split()[6:8]
    # a pair with the first is the metric table's test, adjusted over the table's family
    # (review rb, 1): bm25's p-values in the metric table where a query moved, less
    # judged@10 (coverage) and vault-search's (it returns nothing: untested; dr6 8)
    family = []
    for line in out.split("every pair (B − A")[0].splitlines():
        cells = line.split()
        if not re.fullmatch(r"[a-z]+@\d+", cells[0] if cells else "") or len(cells) != 10:
            continue
        if not cells[0].startswith("judged@") and cells[-1] != "0/0":
            family.append(float(cells[-2].replace("<", "")))
    assert len(family) == 5
    # Holm's step-down by hand: the k-th smallest (from 0) times m − k, the running maximum
    family.sort()
    held, running = {}, 0.0
    for k, x in enumerate(family):
        running = max(running, min(1.0, (len(family) - k) * x))
        held.setdefault(x, running)
    assert abs(float(holm_p) - held[float(p)]) <= 0.002, (p, holm_p, family)  # p shown to 3
    assert holm_p == "0.503"  # 2 × 0.2515: 4th of 5, above 0.004 × 5, 0.016 × 4, 0.029 × 3
    assert ("the one pair tested does not differ beyond chance. Not tested: the pairs of "
            "vault-search, which returns nothing on any query.") in out


def test_over_twelve_configurations_every_pair_is_too_many(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    files = _grid(tmp_path, [(k1, b) for k1 in (0.5, 1.0, 1.5, 2.0) for b in (0.3, 0.6, 0.9)])
    assert main(["compare", TEA, "-m", "bm25", "--defaults", *files, "--metrics", "ndcg@10",
                 "--movers", "0"]) == 0
    out = capsys.readouterr().out
    assert ("Every pair: 13 configurations make 78 pairs, too many to set each against each "
            "(at most 12 configurations)") in out
    assert "every pair (B − A" not in out


def test_a_bundle_that_only_changes_what_fills_it_pairs_on_what_moved(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # review rv1 (11): a higher sufficiency keeps bundle recall and lifts its precision;
    # the pair on recall had read "no task moved"
    suf = tmp_path / "suf.toml"
    suf.write_text("sufficiency = 0.7\n")
    kw = tmp_path / "kw.toml"
    kw.write_text("w_keyword = 0.2\n")
    assert main(["compare", str(SAMPLES / "code-repo"), "-m", "codeledger", "--defaults",
                 "-c", str(kw), "-c", str(suf), "--movers", "0"]) == 0
    out = capsys.readouterr().out
    rows = out.split("every pair (B − A")[1].splitlines()
    suf_row = next(r for r in rows if r.startswith("defaults") and " suf " in f" {r} ")
    assert suf_row.split()[2] == "bundle_precision", suf_row


def test_many_pairs_get_resamples_enough_to_be_told_apart(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # with 10,000 random sign flips no p is below 1e-4, and 66 pairs' Holm p of a clear
    # difference would floor at 0.0066: the pairs' tests get 20 × 66 / 0.05 resamples
    cranfield = need_dataset("cranfield")
    files = _grid(tmp_path, [(k1, b) for k1 in (0.3, 1.2, 2.0) for b in (0.0, 0.4, 0.75)])
    flat = tmp_path / "text.toml"
    flat.write_text("k1 = 0.0\nb = 0.0\n")
    assert main(["compare", str(cranfield), "-m", "bm25", "--defaults", *files, "-c",
                 str(flat), "--metrics", "ndcg@10", "--movers", "0"]) == 0
    out = capsys.readouterr().out
    table = out.split("every pair (B − A")[1].split("\nEvery pair")[0]
    rows = table.splitlines()[3:]
    assert len(rows) == 55
    # flat against k1 1.2, b 0.4: most queries differ, past an exact test (a pair with the
    # first takes the metric table's own p, of 10,000 resamples)
    row = next(line.split() for line in rows if line.split()[:2] == ["k1.2_b0.4", "text"])
    assert row[6] == "<0.001"
    assert float(row[7]) < 0.005  # 55 × 1 / 10,001 = 0.0055 with 10,000 resamples


def test_in_short_says_when_every_pair_does_not_keep_its_verdict(tmp_path: Path) -> None:
    # review dr1 (4): In short called p 0.016 beyond chance (3 p-values shown) while Every
    # pair, adjusting for its 6 pairs, gave the same test Holm p 0.093
    files = _grid(tmp_path, [(0.6, 0.1), (2.5, 0.5), (0.3, 0.75), (0.3, 0.9)])
    md = tmp_path / "r.md"
    assert main(["report", TEA, "-m", "bm25", "--metrics", "ndcg@10", *files, "--movers", "0",
                 "-o", str(md)]) == 0
    text = md.read_text()
    line = next(x for x in text.split("## In short")[1].splitlines()
                if x.startswith("- k2.5_b0.5 against"))
    # one rule (review rb, 1): a pair with the first is adjusted over the metric table's
    # family, as In short reads it: one verdict in both, never "beyond chance" in one and
    # "as a single test, but not after" in the other
    pair = text.split("## Every pair")[1]
    assert "(p 0.016): better, beyond chance." in line, line
    assert "k2.5_b0.5 over k0.6_b0.1 (+0.0252, Holm p" in pair, pair
    assert "as a single test" not in text


def test_eval_cases_are_counted_beside_each_pair(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # review rv1 (7): on eval-case data the pairs had said nothing of the data's own test
    files = []
    for name, text in (("notitle", "w_title = 0\n"), ("body", "w_body = 10\n")):
        path = tmp_path / f"{name}.toml"
        path.write_text(text)
        files += ["-c", str(path)]
    assert main(["compare", str(SAMPLES / "decisions-eval"), "-m", "decision-memory",
                 "--defaults", *files, "--movers", "0"]) == 0
    out = capsys.readouterr().out
    # the counts the comparison's own cases line gives each configuration
    line = next(x for x in out.splitlines() if x.startswith("cases passing: "))
    counts = dict(part.rsplit(" ", 1) for part in line.removeprefix("cases passing: ")
                  .split(", "))
    table = out.split("every pair (B − A")[1].split("\nEvery pair")[0].splitlines()
    assert table[1].rstrip().endswith("cases passing A → B")
    rows = {tuple(r.split()[:2]): r.split("  ")[-1].strip() for r in table[3:]}
    for (a, b), said in rows.items():
        assert said == f"{counts[a]} → {counts[b]}", (a, b, said)
    assert len(rows) == 3


def test_a_pair_on_which_nothing_moved_is_named_as_not_tested(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # review gv (2): "2 pairs tested" of three configurations, the third pair unnamed
    files = _bm25(tmp_path, {"same": "k1 = 1.2\n", "flat": 'fields = "text"\n'})
    assert main(["compare", TEA, "-m", "bm25", "--defaults", *files, "--metrics", "ndcg@10",
                 "--movers", "0"]) == 0
    out = capsys.readouterr().out
    summary = next(line for line in out.splitlines() if line.startswith("Every pair on"))
    assert "both pairs tested differ beyond chance" in summary, summary
    assert summary.endswith("Not tested: defaults and same, on which no query moved."), summary


def test_each_holm_p_is_over_the_family_its_rows_are_told(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """rB 3: the Holm p column held p-values adjusted over two families (a pair with the first
    over the metric table's p-values, any other over those and the other pairs'), and
    compare's line named one. Each row's Holm p is checked against Holm's rule worked here
    over the family the line names for it, and the sizes are those named."""
    files = _bm25(tmp_path, {"flat": "k1 = 0.3\nb = 0.2\n", "steep": "k1 = 3.0\nb = 1.0\n",
                             "short": "b = 0.9\n"})
    metrics = ["ndcg@10", "r@100"]
    assert main(["compare", TEA, "-m", "bm25", "--defaults", *files, "--metrics",
                 ",".join(metrics), "--movers", "0"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    bm, ds = get_model("bm25"), load_dataset(SAMPLES / "tea-beir")
    base = bm.schema.defaults()
    params = {"defaults": base, "flat": {**base, "k1": 0.3, "b": 0.2},
              "steep": {**base, "k1": 3.0, "b": 1.0}, "short": {**base, "b": 0.9}}
    per = {n: Pipeline(bm, ds, v).run(metrics).per_query for n, v in params.items()}
    names = list(params)
    # the metric table's family: each configuration against the first on each metric moved
    table = [t.p_value for n in names[1:] for m in metrics
             for t in [paired_test(per["defaults"][m], per[n][m])] if t.improved + t.worsened]
    others = [(a, b) for i, a in enumerate(names[1:], 1) for b in names[i + 1:]]
    other_p = {}
    for a, b in others:
        t = paired_test(per[a]["ndcg@10"], per[b]["ndcg@10"], n_resamples=10_000)
        if t.improved + t.worsened:
            other_p[(a, b)] = t.p_value
    m1, m2 = len(table), len(table) + len(other_p)
    assert (f"a pair with defaults, over the metric table's {m1} p-values (the same "
            f"Holm p the metric table gives it); any other pair, over those {m1} and the "
            f"{len(other_p)} other pairs' p-values ({m2} in all)") in out

    def holm_of(p: float, family: list[float]) -> float:
        # Holm (1979) by hand: the k-th smallest of m times m − k + 1, the maximum carried up
        ordered = sorted(family)
        running = 0.0
        for k, x in enumerate(ordered):
            running = max(running, min(1.0, (len(ordered) - k) * x))
            if x == p:
                return running
        raise AssertionError(p)

    found = {(names[f.a], names[f.b]): f for f in pairs(compare_configurations(
        bm, ds, [Configuration(n, v) for n, v in params.items()], metrics)).found}
    checked = 0
    for (a, b), f in found.items():
        if f.adjusted is None:
            continue
        family = table if a == "defaults" else [*table, *other_p.values()]
        assert f.adjusted == pytest.approx(holm_of(f.p_value or 0.0, family), abs=1e-3), (a, b)
        checked += 1
    assert checked == len(found) and m2 > m1


def test_the_reports_say_the_interval_is_the_p_columns_test(tmp_path: Path) -> None:
    """rB 5: a t-interval barely leaving out 0 sat beside a randomisation p of 0.005; the
    interval is now the test's own, and both reports say so once under the table."""
    files = _bm25(tmp_path, {"flat": "k1 = 0.3\nb = 0.2\n"})
    said = {"md": "with 95% confidence, from the p column's test: the shifts at which the "
                  "randomisation test of the differences minus the shift gives p ≥ 0.05",
            "html": "from the p column's test: the shifts δ at which the randomisation test "
                    "of the differences minus δ gives p ≥ 0.05"}
    for fmt in ("md", "html"):
        out = tmp_path / f"r.{fmt}"
        assert main(["report", TEA, "-m", "bm25", "--defaults", *files, "-o", str(out),
                     "--format", fmt]) == 0
        text = " ".join(out.read_text("utf-8").split())
        assert said[fmt] in text and "Student" not in text, fmt
