"""File ▸ Reload dataset: a dataset edited on disk is read again with the model, values,
configurations and baseline kept; the status bar says when the files changed since loading."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from conftest import SAMPLES
from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from workbench.gui.main_window import MainWindow


def _append_doc(folder: Path) -> None:
    with (folder / "corpus.jsonl").open("a", encoding="utf-8") as f:
        f.write(json.dumps({"_id": "zz1", "title": "withering flavor tea leaves",
                            "text": "withering affects the flavor of tea leaves"}) + "\n")


def test_reload_reads_the_edited_files_and_keeps_the_work(qtbot: QtBot,
                                                          tmp_path: Path) -> None:
    """Ctrl+R and Re-index kept the copy in memory; re-opening dropped the baseline and the
    undo steps and reset a sample folder's values to its workbench.toml."""
    folder = tmp_path / "tea"
    shutil.copytree(SAMPLES / "tea-beir", folder)
    w = MainWindow(synchronous=True, restore=False)
    qtbot.addWidget(w)
    assert w.open_path(folder)
    s = w.session
    s.set_params({"k1": 2.0})
    s.pin_baseline()
    s.set_params({"k1": 0.5})
    s.save_configuration("low k1")
    assert w.check_disk() == [] and w.disk_note.isHidden()
    _append_doc(folder)
    # regaining focus: the status bar names the file changed
    w.changeEvent(QEvent(QEvent.Type.ActivationChange))  # as a focus change sends it
    assert w.check_disk() == ["corpus.jsonl"]
    assert not w.disk_note.isHidden() and "corpus.jsonl" in w.disk_note.text()
    docs = len(s.dataset.corpus)  # type: ignore[union-attr]
    assert w.menu_actions.reload.isEnabled()
    w.menu_actions.reload.trigger()
    QApplication.processEvents()
    assert len(s.dataset.corpus) == docs + 1  # type: ignore[union-attr]
    assert s.params["k1"] == 0.5 and s.can_undo and "low k1" in s.configurations
    assert s.baseline is not None and s.baseline.params["k1"] == 2.0
    assert s.result is not None and w.disk_note.isHidden() and w.check_disk() == []
    assert "reloaded tea from disk: " in w.statusBar().currentMessage()
    assert "152 documents (1 added: zz1)" in w.statusBar().currentMessage()
    # a file that no longer reads: said, and the data read before stays
    (folder / "corpus.jsonl").write_text('{"_id": "a", "text": \n', encoding="utf-8")
    assert w.check_disk() == ["corpus.jsonl"]
    assert not w.reload_dataset()
    assert len(s.dataset.corpus) == docs + 1  # type: ignore[union-attr]
    assert w.error_box is not None and "data read before stays" in w.error_box.text()
    w.error_box.close()


def test_a_baseline_not_computed_again_is_said_to_be_cleared(qtbot: QtBot,
                                                             tmp_path: Path) -> None:
    """A baseline pinned at other prepare-stage values cannot be combined on the reloaded
    data's preparation: the session clears it, and the status bar said only "reloaded"."""
    folder = tmp_path / "tea"
    shutil.copytree(SAMPLES / "tea-beir", folder)
    w = MainWindow(synchronous=True, restore=False)
    qtbot.addWidget(w)
    assert w.open_path(folder)
    s = w.session
    s.set_params({"stemmer": "none"})
    s.recompute()
    s.pin_baseline()
    s.save_configuration("unstemmed")
    s.set_params({"stemmer": "snowball-english"})
    s.recompute()
    assert s.baseline is not None and s.baseline.name
    name = s.baseline.name
    _append_doc(folder)
    assert w.reload_dataset()
    assert s.baseline is None
    said = w.statusBar().currentMessage()
    assert said.startswith(f"baseline {name!r} cleared (its prepare-stage values differ from "
                           "the live ones): pin it again to compare; reloaded tea from disk: ")
    # one that comes back is not said to be cleared
    s.pin_baseline()
    assert w.reload_dataset() and s.baseline is not None
    assert "cleared" not in w.statusBar().currentMessage()


def test_reload_says_what_changed_by_id(qtbot: QtBot, tmp_path: Path) -> None:
    """rg 2: an edited text, a renamed id and a changed grade read "80 documents (+0), 20
    queries (+0)" while nDCG@10 and the baseline moved."""
    folder = tmp_path / "mem2"
    shutil.copytree(SAMPLES / "memories", folder)
    w = MainWindow(synchronous=True, restore=False)
    qtbot.addWidget(w)
    assert w.open_path(folder)
    w.session.pin_baseline()
    rows = []
    for line in (folder / "corpus.jsonl").read_text(encoding="utf-8").splitlines():
        d = json.loads(line)
        if d["_id"] == "m14":
            d["text"] = "Nothing about databases here at all."
        if d["_id"] == "m80":
            d["_id"] = "m81"
        rows.append(json.dumps(d))
    (folder / "corpus.jsonl").write_text("\n".join(rows) + "\n", encoding="utf-8")
    qrels = folder / "qrels" / "test.tsv"
    qrels.write_text(qrels.read_text(encoding="utf-8").replace("q04\tm14\t2", "q04\tm14\t0"),
                     encoding="utf-8")
    assert w.reload_dataset()
    said = w.statusBar().currentMessage()
    assert ("reloaded mem2 from disk: 80 documents (1 edited: m14, 1 added: m81, 1 removed: "
            "m80), 20 queries (unchanged), 1 judgment changed: q04/m14") in said
    assert said.endswith("; baseline 'baseline' recomputed on the new data")
