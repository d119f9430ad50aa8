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
