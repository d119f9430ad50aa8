"""`workbench compare` and `workbench report --format md` as a user runs them: the metric
table's numbers are each configuration's own evaluation, the movers carry their explain
sentence, bad configurations and outputs end in one line with exit 2 and nothing written."""

from __future__ import annotations

import re
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
        # 4 decimals, the Δ the difference of the means shown (rc 6): ndcg@10's 0.61306 →
        # 0.60373 had read 0.6131 → 0.6037 beside −0.0093
        a, b = f"{base[metric]:.4f}", f"{mine[metric]:.4f}"
        assert row[1:4] == [a, b, f"{float(b) - float(a):+.4f}"]
    assert "k1              1.2    0.9" in out
    assert ("moved most, defaults → tuned (moves into, out of or within the top 10; judged "
            "documents first):") in out
    # each setting with what its change alone did (rv51 2; dr4 5), and the key to it (dr4 6)
    flat = " ".join(out.split())
    assert re.search(r" — (k1 1\.2 → 0\.9|b 0\.75 → 0\.4) \(only it set back: [^)]+\)", flat), out
    assert ("(only it set back: the document's place under the second configuration with "
            "only") in flat, out


def test_report_md_writes_the_file(tuned: Path, tmp_path: Path,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "report.md"
    assert main(["report", TEA, "-m", "bm25", "--defaults", "-c", str(tuned), "-o",
                 str(out)]) == 0
    # where it went is said on standard output, as eval, sweep and tune say theirs
    assert capsys.readouterr().out == f"report (Markdown) written to {out}\n"
    text = out.read_text()
    assert text.startswith("# Ranking comparison\n") and "## Metrics" in text
    assert "| ndcg@10 |" in text


@pytest.mark.parametrize(("argv", "words"), [
    (["-c", "{tuned}"], ("at least two",)),
    (["-c", "{tuned}", "-c", "{tuned}"], ("tuned.toml: given twice",)),
    (["--defaults", "-c", "{bad}"], ("--config", "bad.toml", "k1")),
    (["--defaults", "-c", "{tuned}", "--metrics", "nosuch"], ("nosuch",)),
    (["--defaults", "-p", "k1=99"], ("--param", "k1")),
    (["--defaults", "-p", "nosuch=1"], ("--param", "nosuch")),
    (["--defaults", "-p", "k1"], ("--param", "name=value")),
    (["-p", "k1=0.9"], ("at least two", "--param")),
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


def test_param_values_are_one_more_configuration(
        tuned: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """-p as eval reads it: the defaults with these values, one configuration named by them,
    after the --config files; its figures are those of eval with the same -p."""
    assert main(["compare", TEA, "-m", "bm25", "--defaults", "-c", str(tuned), "-p", "k1=2",
                 "-p", "b=0.3", "--metrics", "ndcg@10"]) == 0
    out = capsys.readouterr().out
    model, ds = get_model("bm25"), load_dataset(SAMPLES / "tea-beir")
    base = Pipeline(model, ds).run(["ndcg@10"]).means["ndcg@10"]
    mine = Pipeline(model, ds, {"k1": 0.9, "b": 0.4}).run(["ndcg@10"]).means["ndcg@10"]
    set_ = Pipeline(model, ds, {"k1": 2.0, "b": 0.3}).run(["ndcg@10"]).means["ndcg@10"]
    row = next(line.split() for line in out.splitlines() if line.startswith("ndcg@10"))
    places = len(row[1].split(".")[1])  # one number of decimals a row (rc 6)
    assert [f"{base:.{places}f}", f"{mine:.{places}f}", f"{set_:.{places}f}"] == [
        row[1], row[2], next(v for v in row[3:] if v == f"{set_:.{places}f}")]
    assert "defaults + k1=2 b=0.3" in out  # beside a --config file: from the defaults (dr4 4)
    # numbers right-aligned, the last too
    assert "k1              1.2    0.9                      2" in out


def _top(ranking: object, q: int, k: int) -> list[int]:
    docs = ranking.docs[q, :min(k, int(ranking.count[q]))]  # type: ignore[attr-defined]
    return [int(d) for d in docs]


@pytest.fixture
def unjudged(tmp_path: Path) -> Path:
    queries = tmp_path / "q.jsonl"
    queries.write_text('{"_id": "a", "text": "green tea caffeine"}\n'
                       '{"_id": "b", "text": "how to brew oolong"}\n'
                       '{"_id": "c", "text": "matcha whisk"}\n'
                       '{"_id": "d", "text": "zzzz nothing matches"}\n')
    return queries


def test_without_judgments_the_rankings_are_set_side_by_side(
        unjudged: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """No judgments: no metric, but how alike the two top 10 are, counted here with sets from
    each configuration's own ranking, and the documents that moved."""
    corpus = SAMPLES / "tea-beir" / "corpus.jsonl"
    assert main(["compare", str(corpus), "--queries", str(unjudged), "-m", "bm25",
                 "--defaults", "-p", "k1=2", "-p", "b=0.2"]) == 0
    out = capsys.readouterr().out
    ds = load_dataset(corpus, queries=unjudged)
    model = get_model("bm25")
    a = Pipeline(model, ds).run(["ndcg@10"]).ranking
    b = Pipeline(model, ds, {"k1": 2.0, "b": 0.2}).run(["ndcg@10"]).ranking
    shared, order, first, empty = [], 0, 0, 0
    for q in range(4):
        x, y = _top(a, q, 10), _top(b, q, 10)
        if not x and not y:  # "zzzz": neither ranks anything, counted apart
            empty += 1
            continue
        shared.append(len(set(x) & set(y)) / max(len(x), len(y)))
        order += x == y
        first += x[:1] == y[:1]
    assert empty == 1 and len(shared) == 3
    assert "no judgments, so no metric" in out and "metric  " not in out
    rows = dict(re.split(r"  +", line.strip(), maxsplit=1) for line in out.splitlines()
                if line.startswith(("documents shared", "queries: ")))
    assert rows == {"documents shared (mean)": f"{sum(shared) / 3:.0%}",
                    "queries: same order": f"{order} of 3",
                    "queries: same first": f"{first} of 3",
                    "queries: neither ranks any": "1"}
    assert 0 < order < 3  # the test sees a change and a query that kept its order
    assert "moved most, defaults → k1=2 b=0.2 (moves into, out of or within the top 10):" in out


def test_a_report_without_judgments(unjudged: Path, tmp_path: Path) -> None:
    corpus = str(SAMPLES / "tea-beir" / "corpus.jsonl")
    for name in ("r.md", "r.html"):
        assert main(["report", corpus, "--queries", str(unjudged), "-m", "bm25", "--defaults",
                     "-p", "k1=2", "-o", str(tmp_path / name)]) == 0
    text = (tmp_path / "r.md").read_text()
    # what it shows first, no empty sections; what to give to measure last (a command line,
    # "to measure, give --qrels FILE", had been its first line, and the nav led to "None")
    intro = text[:text.index("## In short")]
    assert intro.rstrip().endswith(
        "No relevance judgments were given, so this report shows how alike the rankings are "
        "and which documents moved, not whether either ranks better.")
    assert "--qrels" not in intro and "## Metrics" not in text
    assert text.rstrip().splitlines()[-1].startswith(
        "To measure which ranks better, make the report again with the judgments: `--qrels")
    assert "## How alike the rankings are (top 10)" in text
    assert "| queries: same first | 3 of 3 |" in text
    assert "| queries: neither ranks any | 1 |" in text
    assert "No judgments: whether better or worse is not measured." in text
    page = (tmp_path / "r.html").read_text()
    assert 'id="metric-table"' not in page and '<section id="agreement">' in page
    assert 'id="metrics"' not in page and 'id="per-query"' not in page
    assert 'href="#metrics"' not in page and 'href="#per-query"' not in page
    assert 'href="#agreement"' in page and "None: no judgments" not in page
    assert page.index("No relevance judgments were given") < page.index('<dl>')
    assert page.index("To measure which ranks better") > page.index('id="settings"')


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


def test_code_tasks_are_compared_on_recall_at_10_and_the_bundle(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # a code-context comparison reads what eval reads for code tasks, and what the bundle
    # handed to the agent holds and costs (counts in whole numbers with thousands)
    repo = str(SAMPLES / "code-repo")
    heavy = tmp_path / "heavy.toml"
    heavy.write_text(params_toml({"w_size_penalty": 2.0}))
    assert main(["compare", repo, "-m", "codeledger", "--defaults", "-c", str(heavy),
                 "--movers", "0"]) == 0
    out = capsys.readouterr().out
    shown = [line.split()[0] for line in out.splitlines() if line.startswith(("r@", "ndcg",
                                                                            "mrr", "p@",
                                                                            "map", "bundle_"))]
    assert shown == ["r@10", "ndcg@10", "mrr@10", "p@10", "r@100", "map@100", "bundle_recall",
                     "bundle_precision", "bundle_f1", "bundle_files", "bundle_tokens"]
    tokens = next(line.split() for line in out.splitlines() if line.startswith("bundle_tokens"))
    assert "," in tokens[1] and tokens[1].count(".") == 1 and len(tokens[1].split(".")[1]) == 1
    # a model that selects no bundles gets the ranking metrics only
    k1 = tmp_path / "k1.toml"
    k1.write_text(params_toml({"k1": 0.9}))
    assert main(["compare", repo, "-m", "bm25", "--defaults", "-c", str(k1)]) == 0
    out = capsys.readouterr().out
    assert out.count("\nr@10 ") == 1 and "bundle_" not in out
    # the HTML report prints counts as counts, and a p-value "<0.001" as text, not markup
    page = tmp_path / "report.html"
    assert main(["report", repo, "-m", "codeledger", "--defaults", "-c", str(heavy), "-o",
                 str(page)]) == 0
    html = page.read_text()
    row = html[html.index('data-metric="bundle_tokens"'):]
    row = row[:row.index("</tr>")]
    assert ".0000" not in row and "[" in row  # the interval, in counts too
    assert '"num"><' not in row.replace('"num"></td>', "")


def test_two_files_of_one_name_are_told_apart_by_their_folders(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Two runs' best.toml: named run1/best and run2/best (it was an error); the same file
    twice is refused in one line."""
    for run, k1 in (("run1", 0.9), ("run2", 1.6)):
        (tmp_path / run).mkdir()
        (tmp_path / run / "best.toml").write_text(params_toml({"k1": k1}))
    one, two = str(tmp_path / "run1" / "best.toml"), str(tmp_path / "run2" / "best.toml")
    tea = str(SAMPLES / "tea-beir")
    assert main(["compare", tea, "-m", "bm25", "--defaults", "-c", one, "-c", two,
                 "--metrics", "ndcg@10"]) == 0
    out = capsys.readouterr().out
    assert "configurations: defaults, run1/best (" in out and ", run2/best (" in out
    header = next(line.split() for line in out.splitlines() if line.startswith("parameter"))
    assert header == ["parameter", "defaults", "run1/best", "run2/best"]
    assert main(["compare", tea, "-m", "bm25", "-c", one, "-c", one]) == 2
    assert f"--config {one}: given twice" in capsys.readouterr().err


def test_a_report_is_refused_onto_an_input_or_an_unknown_ending(
        tuned: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = tuned.read_text()
    base = ["report", TEA, "-m", "bm25", "--defaults", "-c", str(tuned)]
    assert main([*base, "-o", str(tuned), "--format", "md"]) == 2
    assert "is the --config file this command reads" in capsys.readouterr().err
    assert tuned.read_text() == before
    assert main([*base, "-o", str(tmp_path / "r.pdf")]) == 2  # it wrote HTML into r.pdf
    err = capsys.readouterr().err
    assert "give a file name ending .html or .md" in err and not (tmp_path / "r.pdf").exists()
    assert main([*base, "-o", str(tmp_path / "r.pdf"), "--format", "html"]) == 0  # said so


def test_a_report_onto_a_vault_note_is_refused(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    """A vault's notes are the documents it reads: report -o onto one replaced the note."""
    import shutil

    vault = tmp_path / "vault"
    shutil.copytree(SAMPLES / "vault", vault)
    note = next(vault.rglob("*.md"))
    before = note.read_text()
    conf = tmp_path / "c.toml"
    conf.write_text(params_toml({"w_tf": 0.5}))
    assert main(["report", str(vault), "-m", "vault-search", "--defaults", "-c", str(conf),
                 "-o", str(note)]) == 2
    assert "is a dataset file this command reads" in capsys.readouterr().err
    assert note.read_text() == before


def test_fixture_cases_passing_are_compared(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """pi-lodestone's own measure, cases passing, is in compare and the report: the counts
    `eval` gives each configuration, and the cases that flipped between them."""
    import re

    data = str(SAMPLES / "decisions-eval")
    passing, totals = {}, set()
    for name, extra in (("defaults", []), ("one", ["-p", "min_strong=1"])):
        assert main(["eval", data, "-m", "decision-memory", "--cases", *extra]) == 0
        out = capsys.readouterr().out
        passing[name] = {line.split()[1] for line in out.splitlines()
                         if line.strip().startswith("pass ")}
        summary = re.search(r"cases: (\d+)/(\d+) pass", out)
        assert summary and int(summary.group(1)) == len(passing[name])
        totals.add(int(summary.group(2)))
    (total,) = totals
    cfg = tmp_path / "one.toml"
    cfg.write_text("min_strong = 1\n")
    assert main(["compare", data, "-m", "decision-memory", "--defaults", "-c", str(cfg)]) == 0
    out = capsys.readouterr().out
    assert (f"cases passing: defaults {len(passing['defaults'])}/{total}, "
            f"one {len(passing['one'])}/{total}") in out
    gained = sorted(passing["one"] - passing["defaults"])
    assert gained and not passing["defaults"] - passing["one"]
    assert f"one against defaults: now passes {', '.join(gained)}" in out
    md = tmp_path / "r.md"
    assert main(["report", data, "-m", "decision-memory", "--defaults", "-c", str(cfg),
                 "-o", str(md)]) == 0
    assert f"- one against defaults: now passes {', '.join(gained)}" in md.read_text()


@pytest.mark.parametrize(("sample", "model", "words"), [
    ("code-repo", "codeledger", ("files", "tasks")),
    ("decisions-eval", "decision-memory", ("decisions", "cases")),
    ("story", "hybrid", ("memories", "chat moments")),
    ("tea-beir", "bm25", ("documents", "queries")),
])
def test_the_subject_line_counts_in_the_datas_own_words(
        sample: str, model: str, words: tuple[str, str], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """'29 documents, 12 queries' for a repository's files and tasks read wrong."""
    ds = load_dataset(SAMPLES / sample)
    other = tmp_path / "other.toml"
    param = next(p for p in get_model(model).schema if p.kind == "float" and p.stage == "live")
    other.write_text(params_toml({param.name: param.high}))
    assert main(["compare", str(SAMPLES / sample), "-m", model, "--defaults", "-c",
                 str(other), "--movers", "0"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert (f": {len(ds.corpus):,} {words[0]}, {len(ds.queries):,} {words[1]}, "
            in first), first


def test_judged_at_k_is_left_out_where_it_can_only_repeat_p_at_k(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # judgments of relevant documents only (Cranfield, SciFact): judged@10 = p@10, the same
    # row twice in the default table
    import shutil

    data = tmp_path / "tea"
    shutil.copytree(SAMPLES / "tea-beir", data)
    qrels = data / "qrels" / "test.tsv"
    lines = qrels.read_text().splitlines()
    qrels.write_text("\n".join([lines[0], *(x for x in lines[1:]
                                           if x.split("\t")[2] != "0")]) + "\n")
    cfg = tmp_path / "k.toml"
    cfg.write_text(params_toml({"k1": 0.9}))
    assert main(["compare", str(data), "-m", "bm25", "--defaults", "-c", str(cfg),
                 "--movers", "0"]) == 0
    out = capsys.readouterr().out
    assert "p@10" in out and "judged@10" not in out
    assert main(["compare", str(SAMPLES / "tea-beir"), "-m", "bm25", "--defaults", "-c",
                 str(cfg), "--movers", "0"]) == 0
    assert "judged@10" in capsys.readouterr().out  # judged non-relevant ones: it tells
    # eval by the same rule: it printed judged@10 = p@10 with "where it is low, they may
    # undercount", telling a newcomer SciFact's nDCG was unreliable
    assert main(["eval", str(data), "-m", "bm25"]) == 0
    out = capsys.readouterr().out
    assert "p@10" in out and "judged@" not in out
    assert main(["eval", str(data), "-m", "bm25", "--metrics", "p@10,judged@10"]) == 0
    assert "judged@10" in capsys.readouterr().out  # named: kept


def test_the_subject_says_the_queries_left_out_unjudged(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """CISI's 36 unjudged queries were left out without a word: '76 queries, 76 judged'."""
    import shutil

    folder = tmp_path / "tea"
    shutil.copytree(SAMPLES / "tea-beir", folder)
    with (folder / "queries.jsonl").open("a", encoding="utf-8") as f:
        f.write('{"_id": "extra1", "text": "tea"}\n{"_id": "extra2", "text": "cups"}\n')
    assert main(["compare", str(folder), "-m", "bm25", "--defaults", "-p", "k1=2",
                 "--metrics", "ndcg@10", "--movers", "0"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.endswith("25 queries, 25 judged (2 without judgments left out)")
    page = tmp_path / "r.html"
    assert main(["report", str(folder), "-m", "bm25", "--defaults", "-p", "k1=2",
                 "--metrics", "ndcg@10", "-o", str(page)]) == 0
    assert "<dt>judged queries</dt><dd>25 (2 without judgments left out)</dd>" in page.read_text()


def test_a_mover_titled_by_a_shared_label_is_named_by_its_text_too(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """OpenVault's event types as titles: compare's movers read "ev039 “action”"."""
    import json

    folder = tmp_path / "events"
    (folder / "qrels").mkdir(parents=True)
    (folder / "corpus.jsonl").write_text("".join(
        json.dumps({"_id": f"ev{i:03d}", "title": "action",
                    "text": f"memory {i} about {'tea' if i % 2 else 'coffee'} "
                            f"{'brewing ' * (i % 5)}"}) + "\n" for i in range(24)))
    (folder / "queries.jsonl").write_text('{"_id": "q1", "text": "tea brewing"}\n')
    (folder / "qrels" / "test.tsv").write_text("q1\tev001\t1\n")
    assert main(["compare", str(folder), "-m", "bm25", "--defaults", "-p", "k1=0.2",
                 "-p", "b=0", "--metrics", "ndcg@10"]) == 0
    moved = [line for line in capsys.readouterr().out.splitlines()
             if line.startswith("  q1 ")]
    assert moved and all(" “action: memory " in line for line in moved)
    page = tmp_path / "r.html"  # the HTML report's mover cards too
    assert main(["report", str(folder), "-m", "bm25", "--defaults", "-p", "k1=0.2",
                 "-p", "b=0", "--metrics", "ndcg@10", "-o", str(page)]) == 0
    assert "<strong>action: memory " in page.read_text()


def test_params_names_a_configuration_file_as_in_every_other_command(
        tuned: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`--params FILE` (eval's, tune's, export's name for a params file) is -c here, in
    compare and report alike (reviewer d, F8): it was 'unrecognized arguments'."""
    assert main(["compare", TEA, "-m", "bm25", "--defaults", "-c", str(tuned),
                 "--metrics", "ndcg@10"]) == 0
    by_c = capsys.readouterr().out
    assert main(["compare", TEA, "-m", "bm25", "--defaults", "--params", str(tuned),
                 "--metrics", "ndcg@10"]) == 0
    assert capsys.readouterr().out == by_c
    out = tmp_path / "r.md"
    assert main(["report", TEA, "-m", "bm25", "--defaults", "--params", str(tuned),
                 "-o", str(out)]) == 0
    assert "| k1 | 1.2 | 0.9 |" in out.read_text(encoding="utf-8")


def test_a_report_over_an_existing_file_says_it_replaced_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # rc 8: -o over a file replaced it without a word
    out = tmp_path / "exists.md"
    out.write_text("existing\n")
    base = ["report", TEA, "-m", "bm25", "--defaults", "-p", "k1=2", "--movers", "0"]
    assert main([*base, "-o", str(out)]) == 0
    err = capsys.readouterr().err
    assert f"replaced {out}" in err
    assert out.read_text().startswith("# ")  # the report, not the old text
    fresh = tmp_path / "fresh.md"
    assert main([*base, "-o", str(fresh)]) == 0
    assert "replaced" not in capsys.readouterr().err


def test_compare_says_what_the_target_cannot_take_and_what_ships(
        capsys: pytest.CaptureFixture[str]) -> None:
    """rb 2: compare showed a configuration's figures with no word that two of its values have
    no setting in the target system; only the report's Settings to ship said it and scored
    the settings alone. compare now says it in one line, with the shipped settings' score."""
    data = str(SAMPLES / "decisions-eval")
    base = ["compare", data, "-m", "decision-memory", "--defaults", "--movers", "0",
            "--metrics", "ndcg@10"]
    assert main([*base, "-p", "w_title=1", "-p", "w_body=1", "-p", "inject_min_score=20"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    model = get_model("decision-memory")
    # what ships: only the value the environment carries, scored by eval's path
    alone = Pipeline(model, load_dataset(data), model.schema.resolve({"inject_min_score": 20}))
    shipped = alone.run(["ndcg@10"]).means["ndcg@10"]
    line = out[out.index("note: w_title=1 w_body=1 inject_min_score=20: "):]
    assert line.startswith("note: w_title=1 w_body=1 inject_min_score=20: 2 values it was "
                           "measured with (w_title, w_body) cannot go into pi-lodestone ")
    assert f"; as shipped: ndcg@10 {shipped:.4f} (" in line
    # every value carried: nothing to say
    assert main([*base, "-p", "inject_min_score=20"]) == 0
    assert "as shipped" not in capsys.readouterr().out
