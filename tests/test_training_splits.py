"""A split offered to tune on must have queries of its own: Cranfield's qrels/test.binary.tsv
judges test's 225 queries again (graded 0/1), so tuning on it while test is held out would be
tuning on the held-out queries. `split_overlap` counts what two splits share; `tune` refuses
such a --train-split in one line that says why."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import need_dataset
from workbench.cli import main

HEADER = "query-id\tcorpus-id\tscore\n"


def three_splits(root: Path) -> Path:
    """A BEIR folder judged in test (q1, q2), test.binary (q1, q2 again, 0/1) and train
    (q2, q3, q4: q2 is test's too)."""
    root.mkdir(parents=True)
    with (root / "corpus.jsonl").open("w", encoding="utf-8") as f:
        for i, text in enumerate(["green tea leaves", "black tea brewing", "coffee beans",
                                  "oolong tea", "espresso machine"], 1):
            f.write(json.dumps({"_id": f"d{i}", "text": text}) + "\n")
    with (root / "queries.jsonl").open("w", encoding="utf-8") as f:
        for i, text in enumerate(["green tea", "black tea", "coffee", "espresso"], 1):
            f.write(json.dumps({"_id": f"q{i}", "text": text}) + "\n")
    (root / "qrels").mkdir()
    (root / "qrels" / "test.tsv").write_text(HEADER + "q1\td1\t2\nq1\td4\t1\nq2\td2\t2\n",
                                             encoding="utf-8")
    (root / "qrels" / "test.binary.tsv").write_text(HEADER + "q1\td1\t1\nq1\td4\t1\nq2\td2\t1\n",
                                                    encoding="utf-8")
    (root / "qrels" / "train.tsv").write_text(HEADER + "q2\td2\t1\nq3\td3\t1\nq4\td5\t1\n",
                                              encoding="utf-8")
    return root


def test_split_overlap_counts_the_queries_two_splits_share(tmp_path: Path) -> None:
    from workbench.core.formats import split_overlap

    root = three_splits(tmp_path / "tea")
    assert split_overlap(root, "test.binary", "test") == (2, 2)  # none of its own
    assert split_overlap(root, "train", "test") == (1, 3)  # q2 only
    assert split_overlap(root, "test", "train") == (1, 2)


def test_split_overlap_reads_a_split_that_is_not_utf8_without_failing(tmp_path: Path) -> None:
    """Another split's bad byte had stopped the Tune tab's refresh halfway ("Something went
    wrong: FormatError … bad.tsv:2 … not UTF-8"); it is said when that split is read."""
    from workbench.core.formats import split_overlap

    root = three_splits(tmp_path / "tea")
    (root / "qrels" / "bad.tsv").write_bytes(HEADER.encode() + b"q1\td\xff1\t1\nq3\td3\t1\n")
    assert split_overlap(root, "bad", "test") == (1, 2)


def test_cranfields_binary_split_judges_tests_queries_only() -> None:
    from workbench.core.formats import split_overlap

    folder = need_dataset("cranfield")
    assert split_overlap(folder, "test.binary", "test") == (225, 225)


def _tune(capsys: pytest.CaptureFixture[str], tmp_path: Path, data: Path, train: str,
          test: str) -> tuple[int, str]:
    code = main(["tune", str(data), "-m", "bm25", "--trials", "2", "--train-split", train,
                 "--test-split", test, "--storage", str(tmp_path / "s.db")])
    return code, capsys.readouterr().err


def test_tune_refuses_a_training_split_of_the_held_out_queries(capsys, tmp_path: Path) -> None:
    code, err = _tune(capsys, tmp_path, three_splits(tmp_path / "tea"), "test.binary", "test")
    assert code == 2
    assert len(err.strip().splitlines()) == 1, err
    assert ("--train-split test.binary: split test.binary judges no query of its own — all 2 "
            "it judges are judged in --test-split test too, so tuning on it would be tuning "
            "on the held-out queries") in err
    assert not (tmp_path / "s.db").exists()  # refused before any study was made


def test_tune_refuses_one_split_as_both(capsys, tmp_path: Path) -> None:
    code, err = _tune(capsys, tmp_path, three_splits(tmp_path / "tea"), "test", "test")
    assert code == 2
    assert "--train-split and --test-split both name split test" in err


def test_tune_on_a_split_sharing_some_queries_holds_those_out(capsys, tmp_path: Path) -> None:
    code, err = _tune(capsys, tmp_path, three_splits(tmp_path / "tea"), "train", "test")
    assert code == 0, err
    assert "warning: 1 query is in both splits; held out, not tuned on" in err


def test_tune_refuses_cranfields_binary_split(capsys, tmp_path: Path) -> None:
    code, err = _tune(capsys, tmp_path, need_dataset("cranfield"), "test.binary", "test")
    assert code == 2
    assert "all 225 it judges are judged in --test-split test too" in err


def test_a_split_the_data_lacks_is_said_in_the_option_given(capsys, tmp_path: Path) -> None:
    """rv2 8: `--train-split train` on data judged in test alone was told "give --split test",
    an option that does not fit there; the error names the option given and, with one split,
    k-fold as the way."""
    from tests.conftest import SAMPLES

    tea = SAMPLES / "tea-beir"  # judged in qrels/test.tsv alone
    code, err = _tune(capsys, tmp_path, tea, "train", "test")
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert (f"--train-split train: {tea} has no qrels/train.tsv (split here: test); with one "
            "split, hold out its queries by k-fold: --folds K, without --train-split and "
            "--test-split") in err
    assert "--split test" not in err
    code, err = _tune(capsys, tmp_path, three_splits(tmp_path / "three"), "train", "dev")
    assert code == 2
    assert ("--test-split dev: " in err and "has no qrels/dev.tsv (splits here: test, "
            "test.binary, train); name one of them with --test-split") in err
    assert not (tmp_path / "s.db").exists()
