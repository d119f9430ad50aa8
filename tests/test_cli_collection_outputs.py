"""The output guard knows the files of a Pyserini shard folder and of a TREC <DOC> folder
given as DATA: an output onto one of them is refused before any work, the file unchanged
(`eval DATA --run DATA/docs00.json` had replaced the shard it read)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from workbench.cli import main

SHARD = '{"id": "d1", "contents": "green tea"}\n{"id": "d2", "contents": "black tea"}\n'
SGML = "<DOC>\n<DOCNO> d1 </DOCNO>\n<TEXT>\ngreen tea\n</TEXT>\n</DOC>\n"
TOPICS = "<top>\n<num> Number: 1\n<title> green tea\n</top>\n"


def _collection(tmp_path: Path, kind: str) -> tuple[Path, Path]:
    """(folder, the file in it the output is aimed at)."""
    folder = tmp_path / kind
    (folder / "part").mkdir(parents=True)
    if kind == "pyserini":
        (folder / "docs00.json").write_text(SHARD, encoding="utf-8")
        target = folder / "part" / "docs01.json"
        target.write_text('{"id": "d3", "contents": "oolong"}\n', encoding="utf-8")
        (folder / "README.md").write_text("# shards\n", encoding="utf-8")
    else:
        (folder / "la010189").write_text(SGML, encoding="utf-8")
        target = folder / "part" / "la010290.json"
        target.write_text(SGML.replace("d1", "d2"), encoding="utf-8")
    return folder, target


@pytest.mark.parametrize("kind", ["pyserini", "trec"])
@pytest.mark.parametrize("arg", ["--run", "--per-query"])
def test_an_output_onto_a_collection_file_is_refused(
        tmp_path: Path, kind: str, arg: str, capsys: pytest.CaptureFixture[str]) -> None:
    folder, target = _collection(tmp_path, kind)
    before = target.read_bytes()
    topics = tmp_path / "topics.txt"
    topics.write_text(TOPICS, encoding="utf-8")
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("1 0 d1 1\n", encoding="utf-8")
    assert main(["eval", str(folder), "--queries", str(topics), "--qrels", str(qrels),
                 "-m", "bm25", arg, str(target)]) == 2
    err = capsys.readouterr().err
    assert (f"{arg} {target}: is a dataset file this command reads; writing there would "
            "replace it") in err
    assert "Traceback" not in err
    assert target.read_bytes() == before


SAMPLE_VAULT = Path(__file__).resolve().parents[1] / "sample_corpora" / "vault"


@pytest.mark.parametrize(("name", "data"), [
    ("backup.7z", b"7z\xbc\xaf\x27\x1c" + bytes(range(256)) * 8),  # 7-Zip's, not compress
    ("old.gz", bytes(range(256)) * 8),  # a damaged .gz
], ids=["7z", "damaged-gz"])
def test_a_vaults_own_earlier_run_is_written_again(
        tmp_path: Path, name: str, data: bytes, capsys: pytest.CaptureFixture[str]) -> None:
    """A vault holding a backup.7z or a damaged .gz is read as a vault, so the guard lists
    its notes, not every file of it as TREC's: its run.trec of an earlier eval had been
    refused as "a dataset file this command reads" (dr2 3)."""
    folder = tmp_path / "vault"
    shutil.copytree(SAMPLE_VAULT, folder)
    (folder / name).write_bytes(data)
    run = folder / "run.trec"
    for _ in range(2):
        assert main(["eval", str(folder), "-m", "bm25", "--run", str(run)]) == 0
        assert f"written to {run}" in capsys.readouterr().out
    assert main(["eval", str(folder), "-m", "bm25", "--run",
                 str(folder / "notes" / "glossary.md")]) == 2
    assert "is a dataset file this command reads" in capsys.readouterr().err


def test_a_readme_beside_the_shards_is_a_file_of_the_folder_not_one_read(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The README.md the load warning says is skipped is refused as a file of the dataset
    folder, not as one the command reads (dr2 9)."""
    folder, _ = _collection(tmp_path, "pyserini")
    readme = folder / "README.md"
    topics = tmp_path / "topics.txt"
    topics.write_text(TOPICS, encoding="utf-8")
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("1 0 d1 1\n", encoding="utf-8")
    assert main(["eval", str(folder), "--queries", str(topics), "--qrels", str(qrels),
                 "-m", "bm25", "--run", str(readme)]) == 2
    err = capsys.readouterr().err
    assert (f"--run {readme}: is a file of the dataset folder (not read, but part of it); "
            "writing there would replace it") in err
    assert readme.read_text(encoding="utf-8") == "# shards\n"
