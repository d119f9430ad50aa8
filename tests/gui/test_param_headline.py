"""The parameter panel shows each model's headline parameters first, in a box of their own;
every parameter keeps exactly one editor; labels read differently and are never cut."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QGridLayout, QLabel, QToolButton
from pytestqt.qtbot import QtBot

from workbench.core.models import model_ids
from workbench.core.session import TuningSession
from workbench.gui.param_editors import ParamEditor
from workbench.gui.param_layout import WrapLabel
from workbench.gui.param_panel import ParamPanel


def _panel(qtbot: QtBot, model: str) -> ParamPanel:
    s = TuningSession()
    s.set_model(model)  # no dataset: nothing is prepared or embedded
    panel = ParamPanel(s)
    qtbot.addWidget(panel)
    panel.resize(400, 900)  # the window's starting width for this column
    panel.show()
    qtbot.waitExposed(panel)
    for fold in panel.groups.values():  # every label laid out, none folded away
        fold.setChecked(True)
    return panel


def _headline_names(panel: ParamPanel) -> list[str]:
    grid = panel.headline_rows.layout()
    assert isinstance(grid, QGridLayout)
    names = []
    for row in range(grid.rowCount()):
        item = grid.itemAtPosition(row, 1)
        assert item is not None
        editor = item.widget()
        assert isinstance(editor, ParamEditor)
        names.append(editor.param.name)
    return names


@pytest.mark.parametrize("model", model_ids())
def test_headline_box_holds_the_models_headline_in_order_above_the_rest(
        qtbot: QtBot, model: str) -> None:
    panel = _panel(qtbot, model)
    declared = list(panel.session.model.headline)  # type: ignore[union-attr]
    assert declared and _headline_names(panel) == declared
    assert panel.headline.isVisible()
    body = panel.widget().layout()
    assert body.indexOf(panel.headline) < body.indexOf(panel.more)
    for name, editor in panel.editors.items():
        assert panel.headline.isAncestorOf(editor) == (name in declared), name
        assert panel.more.isAncestorOf(editor) == (name not in declared), name


@pytest.mark.parametrize("model", model_ids())
def test_every_parameter_has_one_editor_widget(qtbot: QtBot, model: str) -> None:
    panel = _panel(qtbot, model)
    shown = [e.param.name for e in panel.widget().findChildren(ParamEditor)]
    assert sorted(shown) == sorted(p.name for p in panel.session.model.schema)  # type: ignore[union-attr]


@pytest.mark.parametrize("model", model_ids())
def test_no_two_labels_read_the_same(qtbot: QtBot, model: str) -> None:
    panel = _panel(qtbot, model)
    # a text field's mark of its trailing spaces (␣) names nothing: two prompts may show it
    texts = [lab.text() for lab in panel.widget().findChildren(QLabel)
             if lab.text() and lab.accessibleName() != "trailing spaces"]
    texts += [b.text() for b in panel.widget().findChildren(QToolButton) if len(b.text()) > 1]
    assert len(texts) > len(panel.editors)
    repeated = sorted({t for t in texts if texts.count(t) > 1})
    assert not repeated, repeated


@pytest.mark.parametrize("model", model_ids())
def test_labels_wrap_whole_words_and_show_every_line(qtbot: QtBot, model: str) -> None:
    panel = _panel(qtbot, model)
    # nothing is clipped at the right edge (the panel never scrolls sideways)
    assert panel.widget().minimumSizeHint().width() <= panel.viewport().width()
    labels = panel.widget().findChildren(WrapLabel)
    assert len(labels) == len(panel.editors)
    for lab in labels:
        assert lab.isVisible(), lab.text()
        width = lab.contentsRect().width()
        fm = lab.fontMetrics()
        for word in lab.text().split():
            assert fm.horizontalAdvance(word) <= width, (lab.text(), word)
        assert lab.height() >= lab.heightForWidth(lab.width()), lab.text()


@pytest.mark.parametrize("model", model_ids())
def test_the_narrowest_column_holds_every_control_and_real_sliders(
        qtbot: QtBot, model: str) -> None:
    # hybrid's controls were 379 px in a 310 px column that could not scroll sideways: spin
    # boxes, reset buttons and the prepare box's Cancel were cut off; sliders were 15 px stubs
    from workbench.gui.param_editors import SLIDER_MIN, NumberEditor

    panel = _panel(qtbot, model)
    panel.resize(panel.minimumWidth(), 900)
    qtbot.wait(10)
    body = panel.widget()
    assert body.width() >= body.minimumSizeHint().width()
    assert body.width() <= panel.viewport().width(), "cut off on the right"
    sliders = [e.slider for e in panel.editors.values() if isinstance(e, NumberEditor)]
    assert sliders and min(s.width() for s in sliders) >= SLIDER_MIN
