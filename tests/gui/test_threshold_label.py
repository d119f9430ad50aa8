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
