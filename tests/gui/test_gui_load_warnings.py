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


def _trash_vault(tmp_path: Path) -> Path:
    """good.md; a deleted note in .trash (searched, as obsidian-mcp searches it) and a file
    ending .MD (no note to obsidian-mcp): nothing here for the person to fix."""
    vault = tmp_path / "vault"
    (vault / ".trash").mkdir(parents=True)
    (vault / "good.md").write_text("# Good\ngreen tea\n", encoding="utf-8")
    (vault / ".trash" / "old.md").write_text("# Old\nblack tea\n", encoding="utf-8")
    (vault / "README.MD").write_text("# Read me\n", encoding="utf-8")
    return vault


TRASH = "1 deleted note(s) in .trash searched, as obsidian-mcp searches them"
ENDING = "1 file(s) ending .MD or the like not searched"


def test_notes_in_trash_are_said_without_a_box(window: MainWindow, tmp_path: Path) -> None:
    """A vault whose only remarks are its listing's (.trash, .MD) opens with no box (one came
    at every open of such a vault), the remarks said in the status line."""
    assert window.open_path(_trash_vault(tmp_path), model="bm25")
    ds = window.session.dataset
    assert ds is not None and ds.corpus.ids == [".trash/old.md", "good.md"]
    assert window.error_box is None or not window.error_box.isVisible()
    said = window.statusBar().currentMessage()
    assert TRASH in said and ENDING in said


def test_a_flawed_note_beside_the_trash_still_gets_the_box(window: MainWindow,
                                                           tmp_path: Path) -> None:
    vault = _trash_vault(tmp_path)
    (vault / "latin.md").write_bytes(b"# Caf\xe9\n")
    assert window.open_path(vault, model="bm25")
    assert window.error_box is not None and window.error_box.isVisible()
    text = window.error_box.text()
    assert "1 note(s) with a flaw searched all the same" in text
    assert f"{vault / 'latin.md'}:1: field 'encoding'" in text
    assert ".trash" not in text  # the listing's remarks in the status line, not the box
    assert TRASH in window.statusBar().currentMessage()


def test_a_reload_counts_no_trash_note_as_a_malformed_line(window: MainWindow,
                                                           tmp_path: Path) -> None:
    assert window.open_path(_trash_vault(tmp_path), model="bm25")
    assert window.reload_dataset()
    said = window.reload_note.plain_text()
    assert "malformed" not in said and TRASH in said
