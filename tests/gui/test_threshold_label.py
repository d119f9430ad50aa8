"""The vector threshold slider says at its 0 end that OpenVault reads 0 as 0.5, in words that
cannot be read as the box's value (rn 8: "0 = OpenVault default 0.5" beside 0.50)."""

from __future__ import annotations

import re

from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from workbench.core.models import get_model
from workbench.gui.param_editors import END_LABELS, NumberEditor


def test_zero_end_of_the_threshold_slider_is_labelled(qtbot: QtBot) -> None:
    editor = NumberEditor(get_model("hybrid").schema["vector_threshold"])
    qtbot.addWidget(editor)
    texts = [lab.text().replace("\u00a0", " ") for lab in editor.findChildren(QLabel)]
    assert "OpenVault reads 0 as 0.5" in texts
    # no end label equates a number with another beside a box that shows a value: "0 = …
    # 0.5" had read as "0 is 0.50"
    assert not [t for pair in END_LABELS.values() for t in pair
                if re.search(r"\d\s*=.*\d", t.replace("\u00a0", " "))]
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
