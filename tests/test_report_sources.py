"""compare and report say which query file and which judgments the figures come from, as eval
says the judgments (review rc 5: SciFact's train and test reports told apart by a query count
only)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.conftest import SAMPLES
from workbench.cli import main

TEA = SAMPLES / "tea-beir"
GRADED = "graded 0–2; relevant: grade ≥ 1, nDCG's gain is the grade, as trec_eval's"


@pytest.fixture
def two_splits(tmp_path: Path) -> Path:
    """tea-beir with a train split beside its test one: the first ten queries, each judged
    grade 1 on its test split's relevant documents (binary), in a queries.train.jsonl."""
    folder = tmp_path / "tea2"
    shutil.copytree(TEA, folder)
    lines = (TEA / "qrels" / "test.tsv").read_text().splitlines()
    ids = [line.split('"_id": "')[1].split('"')[0]
           for line in (TEA / "queries.jsonl").read_text().splitlines()[:10]]
    train = [f"{q}\t{d}\t1" for q, d, g in (row.split("\t") for row in lines[1:])
             if q in ids and int(g) >= 1]
    (folder / "qrels" / "train.tsv").write_text("query-id\tcorpus-id\tscore\n"
                                                + "\n".join(train) + "\n")
    (folder / "queries.train.jsonl").write_text(
        "\n".join((TEA / "queries.jsonl").read_text().splitlines()[:10]) + "\n")
    return folder


def test_compare_names_the_query_file_and_the_split(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", str(TEA), "-m", "bm25", "--defaults", "-p", "k1=0.9"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].startswith("configurations: defaults, k1=0.9;")
    assert lines[2] == ("queries read from queries.jsonl; judgments: split test "
                        f"(qrels/test.tsv), {GRADED}")


def test_report_names_the_train_split(two_splits: Path, tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    md, page = tmp_path / "r.md", tmp_path / "r.html"
    for out in (md, page):
        assert main(["report", str(two_splits), "--split", "train", "-m", "bm25",
                     "--defaults", "-p", "k1=0.9", "-o", str(out)]) == 0
    capsys.readouterr()
    said = ("queries read from queries.train.jsonl; judgments: split train (qrels/train.tsv), "
            "binary; relevant: grade ≥ 1")
    header = md.read_text().split("\n## ", 1)[0]
    assert f"\n{said}" in header  # a line of its own, escaped for Markdown as the rest
    html = page.read_text()
    compared = html.split('<section id="compared">', 1)[1].split("</dl>", 1)[0]
    assert ("<dt>queries read from</dt><dd>queries.train.jsonl</dd><dt>judgments</dt>"
            "<dd>split train (qrels/train.tsv), binary; relevant: grade ≥ 1") in compared


def test_files_given_are_named_as_given(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    queries, qrels = tmp_path / "q.jsonl", tmp_path / "judged.tsv"
    shutil.copy(TEA / "queries.jsonl", queries)
    shutil.copy(TEA / "qrels" / "test.tsv", qrels)
    assert main(["compare", str(TEA / "corpus.jsonl"), "--queries", str(queries), "--qrels",
                 str(qrels), "-m", "bm25", "--defaults", "-p", "k1=0.9"]) == 0
    out = capsys.readouterr().out
    assert f"queries read from {queries}; judgments: {qrels}, {GRADED}\n" in out


def test_without_judgments_the_query_file_alone(capsys: pytest.CaptureFixture[str]) -> None:
    # pi-memory: the prompts of its injection log are the queries, nothing judges them
    assert main(["compare", str(SAMPLES / "decisions"), "-m", "decision-memory",
                 "--defaults", "-p", "inject_limit=3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[2] == "queries read from injections.jsonl"
    assert not any(line.startswith("judgments") or "; judgments:" in line for line in lines)
