"""Queries without judgments are left out of the query set (BEIR's convention), and now said
beside the judged count: CISI's queries.jsonl holds 112 queries, its qrels judge 76, and eval
said "76 judged queries" without a word of the other 36."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import need_dataset
from workbench.cli import main
from workbench.core.formats import load_dataset

HEADER = "query-id\tcorpus-id\tscore\n"


def four_queries(root: Path, *, train: bool = False) -> Path:
    """A BEIR folder of four queries, test judging q1 and q2; with `train`, a train split
    judging q3 beside it."""
    root.mkdir(parents=True)
    with (root / "corpus.jsonl").open("w", encoding="utf-8") as f:
        for i, text in enumerate(["green tea", "black tea", "coffee beans"], 1):
            f.write(json.dumps({"_id": f"d{i}", "text": text}) + "\n")
    with (root / "queries.jsonl").open("w", encoding="utf-8") as f:
        for i, text in enumerate(["green", "black", "coffee", "water"], 1):
            f.write(json.dumps({"_id": f"q{i}", "text": text}) + "\n")
    (root / "qrels").mkdir()
    (root / "qrels" / "test.tsv").write_text(HEADER + "q1\td1\t1\nq2\td2\t1\n", encoding="utf-8")
    if train:
        (root / "qrels" / "train.tsv").write_text(HEADER + "q3\td3\t1\n", encoding="utf-8")
    return root


def test_the_readers_count_the_queries_left_out(tmp_path: Path) -> None:
    from workbench.core.checks import left_out_text

    root = four_queries(tmp_path / "tea")
    ds = load_dataset(root)
    assert ds.queries.ids == ["q1", "q2"]
    assert ds.unjudged_left_out == 2
    assert left_out_text(ds) == "2 without judgments left out"
    assert left_out_text(ds, "test") == "2 not judged in split test, left out"
    # the query file and judgments given apart from the folder: the same count
    given = load_dataset(root / "corpus.jsonl", queries=root / "queries.jsonl",
                         qrels=root / "qrels" / "test.tsv")
    assert given.unjudged_left_out == 2
    # nothing judged: every query kept, none left out
    assert load_dataset(root, queries=root / "queries.jsonl").unjudged_left_out == 0


def test_a_typed_query_keeps_the_count(tmp_path: Path) -> None:
    from workbench.core.session import TuningSession

    s = TuningSession()
    s.open(four_queries(tmp_path / "tea"))
    s.add_query("oolong")
    assert s.dataset is not None and len(s.dataset.queries) == 3
    assert s.dataset.unjudged_left_out == 2


def test_eval_says_how_many_queries_were_left_out(capsys, tmp_path: Path) -> None:
    assert main(["eval", str(four_queries(tmp_path / "tea")), "-m", "bm25",
                 "--metrics", "ndcg@10"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first == "tea: 3 documents, 2 judged queries (2 without judgments left out); model bm25"


def test_eval_names_the_split_where_the_folder_has_several(capsys, tmp_path: Path) -> None:
    root = four_queries(tmp_path / "tea", train=True)
    assert main(["eval", str(root), "-m", "bm25", "--metrics", "ndcg@10", "--split",
                 "train"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first == ("tea: 3 documents, 1 judged query (3 not judged in split train, "
                     "left out); model bm25")


def test_cisi_says_its_36_queries_without_judgments(capsys) -> None:
    folder = need_dataset("cisi")
    assert load_dataset(folder).unjudged_left_out == 36  # 112 in queries.jsonl, 76 judged
    assert main(["eval", str(folder), "-m", "bm25", "--metrics", "ndcg@10"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first == ("cisi: 1,460 documents, 76 judged queries (36 without judgments left "
                     "out); model bm25")
