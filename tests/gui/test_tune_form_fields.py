"""The Tune tab's Budget and Keep fields at 1,280 × 800 (review r49 rt 6, 7, 10): a budget of
100,000 read "10000", the Keep box "the best on trainin", and the grid sampler left the budget
editable though a grid ignores it."""

from __future__ import annotations

from pytestqt.qtbot import QtBot
from test_tune_layout import tune_panel, window  # noqa: F401 (the fixture)

from workbench.gui.main_window import MainWindow


def _room(box: object) -> int:
    """The px a spin box or combo box has for its text (its width less frame and buttons)."""
    from PySide6.QtWidgets import QComboBox, QStyle, QStyleOptionComboBox, QStyleOptionSpinBox

    if isinstance(box, QComboBox):
        opt = QStyleOptionComboBox()
        box.initStyleOption(opt)
        part = QStyle.SubControl.SC_ComboBoxEditField
        return box.style().subControlRect(QStyle.ComplexControl.CC_ComboBox, opt, part,
                                          box).width()
    opt = QStyleOptionSpinBox()
    box.initStyleOption(opt)  # type: ignore[attr-defined]
    return box.style().subControlRect(  # type: ignore[attr-defined]
        QStyle.ComplexControl.CC_SpinBox, opt, QStyle.SubControl.SC_SpinBoxEditField,
        box).width()


def test_the_budget_and_keep_fields_show_their_text_whole(
        qtbot: QtBot, window: MainWindow) -> None:  # noqa: F811
    form = tune_panel(window).settings
    form.budget.setValue(100_000)
    form.pick.setCurrentIndex(form.pick.findData("best"))
    qtbot.wait(10)
    assert form.budget.text() == "100,000"
    metrics = form.budget.fontMetrics()
    assert _room(form.budget) >= metrics.horizontalAdvance("1,000,000")
    assert _room(form.pick) >= form.pick.fontMetrics().horizontalAdvance(form.pick.currentText())


def test_the_grid_sampler_greys_the_budget(qtbot: QtBot, window: MainWindow) -> None:  # noqa: F811
    form = tune_panel(window).settings
    assert form.budget.isEnabled() and form.budget_kind.isEnabled()
    form.sampler.setCurrentIndex(form.sampler.findText("grid"))
    assert not form.budget.isEnabled() and not form.budget_kind.isEnabled()
    assert "budget does not apply" in form.budget.toolTip()
    form.sampler.setCurrentIndex(form.sampler.findText("tpe"))
    assert form.budget.isEnabled() and form.budget_kind.isEnabled()
