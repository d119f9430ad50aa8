"""The window names what a dataset loads with but will not score as one may think."""

from __future__ import annotations

import json
import os
from pathlib import Path

from workbench.gui.main_window import MainWindow


def test_judgments_of_missing_documents_are_said(window: MainWindow, tmp_path: Path) -> None:
    folder = tmp_path / "beir"
    (folder / "qrels").mkdir(parents=True)
    (folder / "corpus.jsonl").write_text(json.dumps({"_id": "d1", "text": "green tea"}) + "\n")
    (folder / "queries.jsonl").write_text(json.dumps({"_id": "q1", "text": "tea"}) + "\n")
    (folder / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\nq1\td1\t1\n"
                                               "q1\td7\t1\n")  # all missing is refused
    assert window.open_path(folder, model="bm25")
    assert window.error_box is not None and window.error_box.isVisible()
    assert "1 relevant judgment(s) name documents not in the corpus (q1→d7)" \
        in window.error_box.text()


def test_unreadable_notes_are_skipped_and_named(window: MainWindow, tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    vault.mkdir()
    (vault / "good.md").write_text("# Good\ngreen tea\n", encoding="utf-8")
    (vault / "latin.md").write_bytes(b"# Caf\xe9\n")
    (vault / "open.md").write_text("---\ntitle: x\n\nbody\n", encoding="utf-8")
    os.mkfifo(vault / "pipe.md")  # cannot be read as a note: left out, said
    (vault / "gone.md").symlink_to(vault / "nowhere.md")  # no note, as obsidian-mcp lists none
    assert window.open_path(vault, model="bm25")
    ds = window.session.dataset
    assert ds is not None and ds.corpus.ids == ["good.md", "latin.md", "open.md"]
    assert window.error_box is not None and window.error_box.isVisible()
    text = window.error_box.text()
    assert "1 unreadable note(s) skipped" in text and f"{vault / 'pipe.md'}: not a regular" in text
    assert "1 symbolic link(s) not searched" in text and f"{vault / 'gone.md'}: a symbolic" in text
    assert "2 note(s) with a flaw searched all the same, as obsidian-mcp searches them" in text
    assert f"{vault / 'latin.md'}:1: field 'encoding'" in text
    assert f"{vault / 'open.md'}:1: field 'front matter'" in text
