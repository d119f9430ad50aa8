"""A slider spans the useful values, not the whole range: decision-memory's inject min score
ran 0–1000 while the sample's scores top out near 80 (a pixel moved it by 20), vault-search's
min score 0–2 while its scores are clamped to [0, 1]. A larger value is typed in the spin
box, and the slider then sits at its end."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from workbench.core.models import get_model
from workbench.gui.param_editors import NumberEditor, tooltip


def _editor(qtbot: QtBot, model: str, name: str) -> NumberEditor:
    ed = NumberEditor(get_model(model).schema[name])
    qtbot.addWidget(ed)
    return ed


def test_slider_ends_at_its_top_and_the_spin_box_takes_the_range(qtbot: QtBot) -> None:
    ed = _editor(qtbot, "decision-memory", "inject_min_score")
    ed.slider.setValue(ed.slider.maximum())
    assert ed.value() == 100.0  # the slider's end, not 1000
    assert ed.spin.maximum() == 1000.0
    ed.set_value(400.0)  # typed past the slider: kept, the slider at its end
    assert ed.value() == 400.0 and ed.slider.value() == ed.slider.maximum()
    ed.set_value(8.0)
    assert ed.slider.value() == 8  # one step a point: 100 steps over 0–100
    assert "the slider to 100" in tooltip(get_model("decision-memory").schema[
        "inject_min_score"])


def test_vault_min_score_slider_stops_at_one(qtbot: QtBot) -> None:
    ed = _editor(qtbot, "vault-search", "min_score")
    ed.slider.setValue(ed.slider.maximum())
    assert ed.value() == 1.0 and ed.spin.maximum() == 2.0


def test_a_parameter_without_a_top_slides_its_whole_range(qtbot: QtBot) -> None:
    ed = _editor(qtbot, "bm25", "k1")
    ed.slider.setValue(ed.slider.maximum())
    assert ed.value() == get_model("bm25").schema["k1"].high
