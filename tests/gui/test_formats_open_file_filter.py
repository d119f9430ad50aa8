"""File ▸ Open file…'s filter shows the IR formats the readers take (dr5 10): it had listed
*.jsonl *.json *.csv *.tsv only, hiding docs.sgml.gz and Pyserini's collection.txt."""

from __future__ import annotations

import fnmatch
import gzip
import re
from pathlib import Path

import pytest
from PySide6.QtWidgets import QFileDialog

from workbench.gui.main_window import MainWindow

SGML = "<DOC>\n<DOCNO> FT911-1 </DOCNO>\n<TEXT>\nGreen tea prices rose.\n</TEXT>\n</DOC>\n"


def test_the_dataset_filter_shows_trec_and_pyserini_files(
        window: MainWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "docs.sgml.gz"
    path.write_bytes(gzip.compress(SGML.encode()))
    filters: list[str] = []

    def chosen(*args: object, **kwargs: object) -> tuple[str, str]:
        filters.append(str(args[3]))
        return str(path), ""

    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(chosen))
    window.menu_actions.ask_file()
    assert window.session.dataset is not None
    assert window.session.dataset.corpus.ids == ["FT911-1"]
    first = re.fullmatch(r"[^(]*\(([^)]*)\)", filters[0].split(";;")[0])
    assert first is not None
    patterns = first.group(1).split()
    for name in ("docs.sgml.gz", "collection.txt", "fbis.sgml", "trec45.xml", "corpus.jsonl",
                 "docs00.json"):
        assert any(fnmatch.fnmatch(name, p) for p in patterns), name
    assert "TREC documents, any name (*)" in filters[0].split(";;")
