"""The vector threshold slider says at its 0 end that 0 scores as OpenVault's default 0.5."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from workbench.core.models import get_model
from workbench.gui.param_editors import NumberEditor


def test_zero_end_of_the_threshold_slider_is_labelled(qtbot: QtBot) -> None:
    editor = NumberEditor(get_model("hybrid").schema["vector_threshold"])
    qtbot.addWidget(editor)
    texts = [lab.text().replace("\u00a0", " ") for lab in editor.findChildren(QLabel)]
    assert "0 = OpenVault default 0.5" in texts
    assert editor.spin.minimum() == 0.0 and editor.value() == 0.5
    alpha = NumberEditor(get_model("hybrid").schema["alpha"])
    qtbot.addWidget(alpha)
    assert {"0 = keyword only", "1 = vector only"} <= {
        lab.text().replace("\u00a0", " ") for lab in alpha.findChildren(QLabel)}


def test_a_whole_step_shows_no_decimals_and_a_value_off_it_keeps_its_own(qtbot: QtBot) -> None:
    # "Size penalty: tokens for full 4000.0", "No history: days 90.0"
    tokens = NumberEditor(get_model("codeledger").schema["size_penalty_tokens"])
    qtbot.addWidget(tokens)
    assert tokens.spin.text() == "4000"
    title = NumberEditor(get_model("decision-memory").schema["w_title"])  # a float, step 1
    qtbot.addWidget(title)
    assert title.spin.text() == "6"
    title.set_value(6.5)  # from a params file: shown and kept, not rounded to the step
    assert title.spin.text() == "6.5" and title.value() == 6.5
    title.set_value(6)  # back on the step: its decimals again
    assert title.spin.text() == "6"
    alpha = NumberEditor(get_model("hybrid").schema["alpha"])
    qtbot.addWidget(alpha)
    assert alpha.spin.text() == "0.70"
