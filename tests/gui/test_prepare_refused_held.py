"""Re-index refused (a field's text refused) says the edits held beside it too, by name: the
box had shown the refusal alone, and the edit held in another field vanished from view though
it was still held and applied later."""

from __future__ import annotations

from conftest import SAMPLES
from pytestqt.qtbot import QtBot

from workbench.core.session import TuningSession
from workbench.gui.param_editors import TextEditor
from workbench.gui.prepare_box import PrepareBox


def _typed(box: PrepareBox, name: str, text: str) -> None:
    editor = box.editors[name]
    assert isinstance(editor, TextEditor)
    editor.line.setText(text)
    editor.line.editingFinished.emit()


def test_a_refused_re_index_names_the_edits_held_beside_it(qtbot: QtBot) -> None:
    s = TuningSession()
    s.open(SAMPLES / "memories")
    s.set_model("importance")
    s.recompute()
    box = PrepareBox(s)
    qtbot.addWidget(box)
    _typed(box, "phrases_failure", "broke, failed, crashed")
    _typed(box, "now", "yesterday")  # refused: no ISO 8601 date
    assert "1 change held, applied once it is corrected (Phrases: failure context)" \
        in box.status.text()
    box.apply()
    said = box.status.text()
    assert said.startswith("<span style='color:#c0392b'>Re-index not run: Now (ISO 8601): "
                           "expected an ISO 8601 date")
    assert said.endswith("</span><br>1 change held, applied once it is corrected "
                         "(Phrases: failure context)")
    assert box.pending == {"phrases_failure": "broke, failed, crashed"}
    assert s.params["phrases_failure"] != "broke, failed, crashed"  # nothing applied
    _typed(box, "phrases_emphasis", "always")  # a second held edit, and a second refusal
    _typed(box, "phrases_decision", "x" * 4001)  # over 4,000 characters
    box.apply()
    assert "Phrases: decision point: at most 4,000 characters" in box.status.text()
    assert box.status.text().endswith(
        "2 changes held, applied once they are corrected (Phrases: failure context, "
        "Phrases: user emphasis)")
    _typed(box, "phrases_decision", "decided")
    _typed(box, "now", "2026-03-01")  # corrected: all four applied
    box.apply()
    assert s.params["now"] == "2026-03-01" and s.params["phrases_emphasis"] == "always"
    assert s.params["phrases_failure"] == "broke, failed, crashed" and box.pending == {}
