"""A dataset opened for the first time starts at the model's defaults, not at the values the
last dataset was left with (they were kept, and the figures differed from `workbench eval`
with no word); opened again in the same window it comes back as it was left: its values, undo
steps and pinned baseline (review F7, F9)."""

from __future__ import annotations

import json
from pathlib import Path

from pytestqt.qtbot import QtBot

from tests.gui.conftest import SAMPLES
from workbench.gui.main_window import MainWindow


def _beir(folder: Path) -> Path:
    """A BEIR folder of three documents and one judged query."""
    folder.mkdir()
    docs = [("d1", "green tea"), ("d2", "black tea leaves"), ("d3", "coffee roast")]
    (folder / "corpus.jsonl").write_text("".join(
        json.dumps({"_id": i, "title": "", "text": t}) + "\n" for i, t in docs))
    (folder / "queries.jsonl").write_text(json.dumps({"_id": "q1", "text": "tea"}) + "\n")
    (folder / "qrels").mkdir()
    (folder / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\nq1\td2\t1\n")
    return folder


def test_a_dataset_opened_first_starts_at_the_defaults(qtbot: QtBot, tmp_path: Path) -> None:
    w = MainWindow(synchronous=True, restore=False)
    qtbot.addWidget(w)
    assert w.open_path(SAMPLES / "tea-beir", model="bm25")
    s = w.session
    s.set_params({"k1": 2.0, "b": 0.4})
    other = _beir(tmp_path / "other")
    assert w.open_path(other)  # no model named: bm25 still, at its defaults
    assert s.model is not None and s.model.id == "bm25"
    assert (s.params["k1"], s.params["b"]) == (1.2, 0.75)  # BM25's usual k1 and b
    said = w.statusBar().currentMessage()
    assert "bm25 at its defaults" in said and "tea-beir's values come back" in said
    assert w.header.model_combo.toolTip().startswith("scoring model: at its defaults the "
                                                     "first time")


def test_a_dataset_opened_again_comes_back_as_left(qtbot: QtBot, tmp_path: Path) -> None:
    w = MainWindow(synchronous=True, restore=False)
    qtbot.addWidget(w)
    assert w.open_path(SAMPLES / "vault")
    s = w.session
    s.pin_baseline()
    s.set_param("w_tf", 0.8)
    assert w.open_path(SAMPLES / "tea-beir")
    assert s.baseline is None and not s.can_undo
    s.pin_baseline()  # tea-beir's own pin: not "baseline (2)"
    assert s.baseline is not None and s.baseline.name == "baseline for tea-beir"
    assert w.open_path(SAMPLES / "vault")  # not its workbench.toml's w_tf: as left
    assert s.model is not None and s.model.id == "vault-search" and s.params["w_tf"] == 0.8
    assert s.baseline is not None and s.baseline.name == "baseline"
    assert "as you left it" in w.statusBar().currentMessage()
    assert w.menu_actions.undo.isEnabled()
    s.undo()
    assert s.params["w_tf"] == 0.4  # as opened (vault-search's default), before the change


def test_a_baseline_of_another_model_is_said_when_not_restored(qtbot: QtBot) -> None:
    # pinned under vault-search, the model then switched to bm25: back on vault the baseline
    # was gone while the status said "as you left it"
    w = MainWindow(synchronous=True, restore=False)
    qtbot.addWidget(w)
    assert w.open_path(SAMPLES / "vault")
    s = w.session
    s.pin_baseline()
    s.set_model("bm25")
    s.recompute()
    assert w.open_path(SAMPLES / "tea-beir")
    assert w.open_path(SAMPLES / "vault")
    assert s.model is not None and s.model.id == "bm25" and s.baseline is None
    said = w.statusBar().currentMessage()
    assert "as you left it" in said
    assert "its baseline \u201cbaseline\u201d (vault-search) is another model's than bm25" in said
