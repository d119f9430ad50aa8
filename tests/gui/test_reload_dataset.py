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
    said = w.reload_note.plain_text()
    assert said.startswith("reloaded tea from disk; baseline “")
    assert "152 documents (1 added: zz1)" in said and said.endswith(", judgments unchanged")
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
    said = w.reload_note.plain_text()
    assert said.startswith(f"baseline “{name}” cleared (its prepare-stage values differ from "
                           "the live ones): pin it again to compare; reloaded tea from disk; ")
    # one that comes back is not said to be cleared
    s.pin_baseline()
    assert w.reload_dataset() and s.baseline is not None
    assert "cleared" not in w.reload_note.plain_text()


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
    # the judgments and the baseline first (dr4 3), “…” about a name (dr4 13)
    assert w.reload_note.plain_text() == (
        "reloaded mem2 from disk: judgments 1 regraded; baseline “baseline” "
        "recomputed on the new data; 80 documents (1 edited: m14, 1 added: m81, 1 removed: "
        "m80), 20 queries (unchanged); judgments regraded: q04/m14")


def _edit_many(folder: Path) -> None:
    """A memories copy with documents edited, removed and added, q01's judgments deleted (it
    stays in queries.jsonl) and two judgments added."""
    docs = [json.loads(line) for line in
            (folder / "corpus.jsonl").read_text(encoding="utf-8").splitlines()]
    for d in docs:
        if d["_id"] in ("m10", "m11", "m12", "m13", "m14"):
            d["text"] += " edited"
    docs = [d for d in docs if d["_id"] not in ("m76", "m77", "m78", "m79")]
    docs += [{"_id": f"m{i}", "text": f"new memory {i}"} for i in range(90, 94)]
    (folder / "corpus.jsonl").write_text("".join(json.dumps(d) + "\n" for d in docs),
                                         encoding="utf-8")
    qrels = folder / "qrels" / "test.tsv"
    kept = [line for line in qrels.read_text(encoding="utf-8").splitlines()
            if not line.startswith("q01\t")]  # q01 stays in queries.jsonl
    assert len(kept) == len(qrels.read_text(encoding="utf-8").splitlines()) - 5
    qrels.write_text("\n".join([*kept, "q04\tm90\t1", "q05\tm91\t2"]) + "\n", encoding="utf-8")


def test_a_long_reload_line_keeps_its_main_point_at_1280(qtbot: QtBot, tmp_path: Path) -> None:
    """dr4 3, 4: documents, queries and judgments all changed. The line was cut at the bar's
    edge before its judgments and baseline, gone after 10 s; q01, still in queries.jsonl with
    its judgments deleted, was said to be "removed"; the judgments were one lumped count."""
    folder = tmp_path / "mem"
    shutil.copytree(SAMPLES / "memories", folder)
    w = MainWindow(synchronous=True, restore=False)
    qtbot.addWidget(w)
    w.resize(1280, 800)
    w.show()
    assert w.open_path(folder)
    w.session.pin_baseline()
    _edit_many(folder)
    assert w.reload_dataset()
    note = w.reload_note
    whole = note.plain_text()
    assert whole == MANY_SAID
    assert note.isVisible() and note.text().endswith("…")  # elided at 1,280 px …
    assert note.toolTip() == whole  # … the whole in its tooltip
    shown = note.text()[:-1]
    assert whole.startswith(shown) and "recomputed" in shown
    w.statusBar().showMessage("a passing message", 1)
    qtbot.waitUntil(lambda: not w.statusBar().currentMessage(), timeout=2000)
    assert note.isVisible()  # still there after other messages: until the next change
    w.session.set_params({"boost_emphasis": 0.6})
    assert note.isHidden()


# the line the reload of `_edit_many` says, at any width
# (the judgments counted first, their ids last: dr7 5)
MANY_SAID = ("reloaded mem from disk: judgments 2 added, 5 removed; baseline “baseline” "
             "recomputed on the new data; 80 documents (5 edited, 4 added, 4 removed), "
             "19 queries (1 left out (no judgments now): q01); judgments added: q04/m90, "
             "q05/m91")


def test_the_reload_note_says_the_baseline_at_1280_in_the_windows_font(
        qtbot: QtBot, tmp_path: Path, styled: object) -> None:
    """dr7 5: in `workbench gui`'s font at 1,280 px the note showed only the judgments
    clause, its ids included, with about 280 px of the bar empty: the baseline recomputed
    and the documents changed were on hover only."""
    folder = tmp_path / "mem"
    shutil.copytree(SAMPLES / "memories", folder)
    w = MainWindow(synchronous=True, restore=False)
    qtbot.addWidget(w)
    w.resize(1280, 800)
    w.show()
    assert w.open_path(folder)
    w.session.pin_baseline()
    _edit_many(folder)
    assert w.reload_dataset()
    shown = w.reload_note.text()
    assert shown.startswith("reloaded mem from disk: judgments 2 added, 5 removed; baseline")
    assert "recomputed on the new data" in shown, shown
    assert w.reload_note.toolTip() == MANY_SAID


def test_the_reload_note_in_the_asynchronous_window_at_1280(qtbot: QtBot,
                                                           tmp_path: Path) -> None:
    """dr6 2: in the window as run (results computed on a worker), the result after a reload
    landed while a temporary message hid the note; read as "a dataset opened again", the
    line was a 10 s message cut at the bar's edge, and the note lost its baseline part."""
    folder = tmp_path / "mem"
    shutil.copytree(SAMPLES / "memories", folder)
    w = MainWindow(synchronous=False, restore=False)
    qtbot.addWidget(w)
    w.resize(1280, 800)
    w.show()
    assert w.open_path(folder)
    s = w.session
    qtbot.waitUntil(lambda: s.result is not None, timeout=20_000)
    s.pin_baseline()
    _edit_many(folder)
    assert w.reload_dataset()
    # as a preparation's line does: a message up when the worker's result lands
    w.statusBar().showMessage("a passing message", 300)
    qtbot.waitUntil(lambda: w._rebase_for is None, timeout=20_000)  # the result is in
    assert s.baseline is not None
    qtbot.waitUntil(lambda: not w.statusBar().currentMessage(), timeout=2000)
    note = w.reload_note
    assert note.isVisible() and note.plain_text() == MANY_SAID
    assert note.text().endswith("…") and note.toolTip() == MANY_SAID
    assert "recomputed" in note.text()
    w.statusBar().showMessage("another", 1)  # a later message: the note comes back after it
    qtbot.waitUntil(lambda: not w.statusBar().currentMessage(), timeout=2000)
    assert note.isVisible()


def test_the_reload_note_at_1024_is_cut_between_clauses_and_goes_with_a_new_baseline(
        qtbot: QtBot, tmp_path: Path) -> None:
    """dr6 4: at 1,024 px the note read "…, 5 removed; bas…", and it still said the baseline
    was recomputed after another baseline was pinned, or a query typed (the query count)."""
    folder = tmp_path / "mem"
    shutil.copytree(SAMPLES / "memories", folder)
    w = MainWindow(synchronous=True, restore=False)
    qtbot.addWidget(w)
    w.resize(1024, 768)
    w.show()
    assert w.open_path(folder)
    s = w.session
    s.pin_baseline()
    _edit_many(folder)
    assert w.reload_dataset()
    note = w.reload_note
    qtbot.waitUntil(lambda: note.text().endswith("…"))
    assert note.plain_text() == MANY_SAID and note.toolTip() == MANY_SAID
    shown = note.text()
    assert shown.endswith("; …")  # a whole clause, then "…"
    assert MANY_SAID.startswith(shown[:-1]) and "5 removed" in shown
    s.pin_baseline()  # another baseline: the note's "recomputed" is old
    assert note.isHidden()
    s.set_params({"boost_emphasis": 0.6})
    assert w.reload_dataset()  # said again (nothing changed on disk) …
    assert note.isVisible()
    s.add_query("database migration column")  # … and a query typed takes it away
    assert note.isHidden()
