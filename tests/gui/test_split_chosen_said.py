"""A folder judged in splits other than test opens at one of them, and the status line says
which (the window had picked dev of dev and train without a word), vault folders too (their
qrels/<split>.tsv had not been seen: one judged in dev opened unjudged)."""

from __future__ import annotations

import shutil
from pathlib import Path

from pytestqt.qtbot import QtBot

from tests.gui.conftest import SAMPLES
from workbench.core.formats import dataset_splits
from workbench.gui.main_window import MainWindow


def _window(qtbot: QtBot) -> MainWindow:
    w = MainWindow(synchronous=True, restore=False)
    qtbot.addWidget(w)
    return w


def test_a_split_picked_of_several_is_said(qtbot: QtBot, tmp_path: Path) -> None:
    folder = tmp_path / "tea2"
    shutil.copytree(SAMPLES / "tea-beir", folder)
    (folder / "workbench.toml").unlink()
    test = folder / "qrels" / "test.tsv"
    shutil.copy(test, folder / "qrels" / "train.tsv")
    test.rename(folder / "qrels" / "dev.tsv")
    w = _window(qtbot)
    assert w.open_path(folder, model="bm25")
    assert w.session.split == "dev" and w.session.judgments is not None
    assert "split dev of dev, train (File ▸ Split opens another)" in \
        w.statusBar().currentMessage()


def test_a_vault_judged_in_dev_only_opens_judged(qtbot: QtBot, tmp_path: Path) -> None:
    folder = tmp_path / "vault"
    shutil.copytree(SAMPLES / "vault", folder)
    (folder / "workbench.toml").unlink()
    (folder / "qrels" / "test.tsv").rename(folder / "qrels" / "dev.tsv")
    assert dataset_splits(folder) == ["dev"] == dataset_splits(folder / "notes")
    w = _window(qtbot)
    assert w.open_path(folder, model="vault-search")
    assert w.session.split == "dev" and w.session.judgments is not None
    assert "split dev, the one judged here" in w.statusBar().currentMessage()


def test_a_repository_or_packed_beir_folder_is_no_vault_of_splits(tmp_path: Path) -> None:
    # a git repository with a README.md, queries.jsonl and qrels/ had been read as a vault
    # judged in dev and train ("give --split dev", then "no tasks"); a BEIR folder with its
    # corpus still packed had hidden "decompress this one first" behind the same message
    import subprocess

    repo = tmp_path / "repo"
    (repo / "qrels").mkdir(parents=True)
    (repo / "README.md").write_text("# a project\n")
    (repo / "queries.jsonl").write_text('{"_id": "q1", "text": "x"}\n')
    (repo / "qrels" / "dev.tsv").write_text("query-id\tcorpus-id\tscore\nq1\td1\t1\n")
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    assert dataset_splits(repo) == []
    packed = tmp_path / "beir"
    shutil.copytree(repo, packed)
    shutil.rmtree(packed / ".git")
    (packed / "corpus.jsonl.gz").write_bytes(b"\x1f\x8b")
    assert dataset_splits(packed) == []
