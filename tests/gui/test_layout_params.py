"""Parameters with no effect say so beside their label, and labels show every line (layout
review, item 4): decisions-eval's "Inject limit" and code-repo's "named in the task" and
"success prior" were greyed, the reason in a tooltip only, and read as controls switched off;
a label measured in the font before the style sheet's was cut short of its last line."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from conftest import SAMPLES
from PySide6.QtWidgets import QApplication, QLabel
from pytestqt.qtbot import QtBot

from workbench.gui.charts._standalone import open_session
from workbench.gui.main_window import MainWindow
from workbench.gui.param_layout import WrapLabel
from workbench.gui.param_panel import ParamPanel


def _window(qtbot: QtBot, sample: str) -> MainWindow:
    w = MainWindow(synchronous=True, restore=False)
    qtbot.addWidget(w)
    w.resize(1024, 768)
    w.show()
    qtbot.waitExposed(w)
    assert w.open_path(SAMPLES / sample)
    qtbot.wait(20)
    return w


def _whole(lab: QLabel) -> bool:
    """Every line of `lab` shows, and no word is wider than it."""
    width, fm = lab.contentsRect().width(), lab.fontMetrics()
    return lab.height() >= lab.heightForWidth(lab.width()) and all(
        fm.horizontalAdvance(word) <= width for word in lab.text().split())


def test_a_key_parameter_with_no_effect_says_so_beside_its_label(qtbot: QtBot,
                                                                 styled: object) -> None:
    w = _window(qtbot, "decisions-eval")
    panel, s = w.params, w.session
    note, label = panel.notes["inject_limit"], panel.labels["inject_limit"]
    assert note.isVisible() and note.text().startswith("no effect here")
    assert "every query's context sets its own limit" in note.toolTip()
    assert label.text() == "Inject limit" and _whole(label) and _whole(note)
    # the note sits under the label, inside the label's column
    assert note.geometry().top() >= label.geometry().bottom()
    assert not panel.notes["inject_min_score"].isVisible()  # the case's own min score: acts
    # in mode "injection" the sliders replace the cases' own settings: the note goes
    s.set_params({"mode": "injection"})
    s.recompute()
    qtbot.wait(10)
    assert not note.isVisible()
    w.close()


def test_codeledgers_inert_weights_are_marked(qtbot: QtBot, styled: object) -> None:
    w = _window(qtbot, "code-repo")
    notes = w.params.notes
    shown = {n for n, note in notes.items() if note.isVisibleTo(w.params)}
    assert {"w_mention", "w_success_prior"} <= shown, shown
    assert shown == set(w.params.inert)  # every one the model names, no other
    for name in shown:
        assert notes[name].toolTip() and _whole(notes[name])
    w.close()


def test_a_parameter_waiting_on_another_keeps_its_tooltip_only(qtbot: QtBot) -> None:
    """Its editor is disabled, as it looks (early stop's three wait on one switch: a note
    each would be noise)."""
    s = open_session(SAMPLES / "vault", "vault-search")
    panel = ParamPanel(s)
    qtbot.addWidget(panel)
    panel.show()
    assert not panel.editors["early_stop_threshold"].isEnabled()
    assert not panel.notes["early_stop_threshold"].isVisibleTo(panel)
    assert "no effect while" in panel.labels["early_stop_threshold"].toolTip()


@pytest.fixture
def big_sheet_font(qapp: QApplication) -> Iterator[None]:
    """A style sheet whose font is larger than the application's (as style.qss's 13 px is
    beside a 10 pt font at a font DPI of 72)."""
    sheet = qapp.styleSheet()
    qapp.setStyleSheet("QWidget { font-size: 19px; }")
    yield
    qapp.setStyleSheet(sheet)


def test_labels_show_every_line_in_the_style_sheets_font(qtbot: QtBot,
                                                         big_sheet_font: None) -> None:
    s = open_session(SAMPLES / "code-repo", "codeledger")
    panel = ParamPanel(s)
    qtbot.addWidget(panel)
    panel.resize(420, 900)
    panel.show()
    qtbot.waitExposed(panel)
    labels = panel.widget().findChildren(WrapLabel)
    assert labels
    cut = [lab.text() for lab in labels if not _whole(lab)]
    assert not cut, cut
