"""The command line on data laid out a little off what it reads by default: a BEIR folder
judged in another split than test, and the like (reviewer d's findings). Each either reads
what is there, with a note, or says in one line what to give."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.conftest import SAMPLES
from workbench.cli import main


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        code = main(argv)
    except SystemExit as exit_:  # argparse's own checks
        code = int(exit_.code or 0)
    out, err = capsys.readouterr()
    assert "Traceback" not in err, err
    return code, out, err


def _judged_in(tmp_path: Path, *splits: str) -> str:
    """tea-beir with its qrels/test.tsv as qrels/<split>.tsv for each of `splits`."""
    folder = tmp_path / "tea"
    shutil.copytree(SAMPLES / "tea-beir", folder)
    (folder / "workbench.toml").unlink(missing_ok=True)
    test = folder / "qrels" / "test.tsv"
    for split in splits:
        shutil.copy(test, folder / "qrels" / f"{split}.tsv")
    test.unlink()
    return str(folder)


def test_a_folder_judged_in_one_other_split_reads_that_one(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """As the window opens it: split dev, said in a note (F2)."""
    data = _judged_in(tmp_path, "dev")
    code, out, err = _run(["eval", data, "-m", "bm25", "--metrics", "ndcg@10"], capsys)
    assert code == 0, err
    assert f"note: {data} has no qrels/test.tsv; reading split dev, the one judged here" in err
    assert "25 judged queries" in out and "judgments: split dev (qrels/dev.tsv)" in out
    code, out, err = _run(["rank", data, "-m", "bm25", "--query-id", "q03", "--top", "1"],
                          capsys)
    assert code == 0, err


def test_a_folder_judged_in_several_other_splits_asks_for_one(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Which one to score is the user's to say; typed text needs no judgments (F2)."""
    data = _judged_in(tmp_path, "dev", "train")
    code, _, err = _run(["eval", data, "-m", "bm25"], capsys)
    assert code == 2
    assert err.strip().endswith(f"{data} has no qrels/test.tsv; it is judged in splits dev, "
                                "train: give --split dev (or another of them)")
    code, out, err = _run(["rank", data, "-m", "bm25", "-q", "green tea", "--top", "1"], capsys)
    assert code == 0, err
    assert "green tea" in out.lower()


def test_a_split_typed_that_is_not_there_says_the_one_to_give(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = _judged_in(tmp_path, "dev")
    code, _, err = _run(["eval", data, "-m", "bm25", "--split", "test"], capsys)
    assert code == 2
    assert err.strip().endswith(f"{data}: field 'split': no qrels/test.tsv (splits here: "
                                "dev); give --split dev")


def test_data_inside_a_beir_folder_names_the_folder(capsys: pytest.CaptureFixture[str]) -> None:
    """DATA the corpus.jsonl or queries.jsonl of a BEIR folder (reviewer d, F11): the eval
    error said only "give --queries FILE and --qrels FILE", and rank ranked the 25 queries as
    documents without a word."""
    folder = SAMPLES / "tea-beir"
    code, _, err = _run(["eval", str(folder / "corpus.jsonl"), "-m", "bm25"], capsys)
    assert code == 2
    assert err.strip().endswith(f"{folder / 'corpus.jsonl'}: no judgments to evaluate against "
                                "(give --queries FILE and --qrels FILE; or as DATA the BEIR "
                                f"folder {folder} this corpus.jsonl is in)")
    assert err.count("\n") == 1
    code, out, err = _run(["rank", str(folder / "queries.jsonl"), "-m", "bm25", "-q", "tea",
                           "--top", "1"], capsys)
    assert code == 0 and "(25 documents)" in out
    assert err.strip() == (f"warning: {folder / 'queries.jsonl'} holds the queries of the BEIR "
                           f"folder {folder}: they are read as the documents here; give the "
                           "folder to search its corpus")
    code, _, err = _run(["rank", str(folder), "-m", "bm25", "-q", "tea", "--top", "1"], capsys)
    assert code == 0 and err == ""


def test_a_repository_with_no_commits_is_said_once(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """It was "REPO: field 'rev': REPO: a git repository with no commits yet": the path
    twice, and a field the user never gave (reviewer d, F12)."""
    import subprocess

    repo = tmp_path / "empty"
    repo.mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    code, _, err = _run(["eval", str(repo), "-m", "codeledger"], capsys)
    assert code == 2
    assert err.strip() == (f"workbench eval: error: {repo}: a git repository with no commits "
                           "yet")


def test_export_into_a_missing_folder_names_the_option(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """As every other writer says it: `--out PATH: folder … does not exist` (reviewer d,
    F12)."""
    out = tmp_path / "nodir" / "sub" / "exp"
    code, _, err = _run(["export", "-m", "hybrid", "--out", str(out)], capsys)
    assert code == 2
    assert err.strip().endswith(f"error: --out {out}: folder {out.parent} does not exist")
