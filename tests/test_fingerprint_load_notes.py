"""The same data opened by another path, or copied, fingerprints the same where the loading
kept notes for its warnings (a TREC folder's files without records, a pi-memory log's skipped
lines): those name files by the path given, and had made the same data another (a tune study
started anew, the prepare cache missed)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from workbench.core.formats import load_dataset

DOC = "<DOC>\n<DOCNO> LA{n} </DOCNO>\n<TEXT>green tea leaves {n}</TEXT>\n</DOC>\n"


def _trec_folder(root: Path) -> Path:
    folder = root / "disk"
    folder.mkdir(parents=True)
    (folder / "la01").write_text(DOC.format(n=1) + DOC.format(n=2), encoding="utf-8")
    (folder / "MD5SUMS").write_text("d41d8cd98f00b204e9800998ecf8427e  la01\n")
    return folder


def test_a_trec_folder_with_a_skipped_file_fingerprints_the_same_from_any_path(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = _trec_folder(tmp_path / "a")
    absolute = load_dataset(folder)
    assert absolute.settings["trec_files_skipped"] == [str(folder / "MD5SUMS")]
    monkeypatch.chdir(tmp_path / "a")
    relative = load_dataset(Path("disk"))
    assert relative.settings["trec_files_skipped"] == ["disk/MD5SUMS"]  # said as given
    copy = shutil.copytree(folder, tmp_path / "b" / "disk")
    copied = load_dataset(copy)
    assert absolute.fingerprint() == relative.fingerprint() == copied.fingerprint()
    assert (absolute.corpus_fingerprint() == relative.corpus_fingerprint()
            == copied.corpus_fingerprint())


def test_the_data_itself_still_changes_the_fingerprint(tmp_path: Path) -> None:
    folder = _trec_folder(tmp_path)
    before = load_dataset(folder).fingerprint()
    (folder / "la01").write_text(DOC.format(n=1) + DOC.format(n=3), encoding="utf-8")
    assert load_dataset(folder).fingerprint() != before
