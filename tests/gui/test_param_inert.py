"""The parameter panel marks a parameter no score moves with on the data opened (the model's
`inert_params`, which tune already leaves out): its label greyed, the reason in the tooltips,
its editor still usable (its value goes into an export)."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from pathlib import Path

from pytestqt.qtbot import QtBot

from tests.test_diagnostics import _eval_cases
from workbench.gui.charts._standalone import open_session
from workbench.gui.param_panel import ParamPanel

OWN_LIMIT = "no effect on this data: every query's context sets its own limit"


def test_a_slider_every_eval_case_overrides_is_marked(qtbot: QtBot, tmp_path: Path) -> None:
    # each eval case sets its own topK: Inject limit moved nothing, yet it stood second among
    # the key parameters, enabled, with no word of it
    s = open_session(_eval_cases(tmp_path), "decision-memory")
    panel = ParamPanel(s)
    qtbot.addWidget(panel)
    panel.show()
    label, editor = panel.labels["inject_limit"], panel.editors["inject_limit"]
    assert not label.isEnabled() and editor.isEnabled()
    assert OWN_LIMIT in label.toolTip() and OWN_LIMIT in editor.toolTip()
    # the min score is each case's own only where one is given ("five"): the slider acts
    assert panel.labels["inject_min_score"].isEnabled()
    assert "no effect" not in panel.editors["inject_min_score"].toolTip()
    # in mode "injection" the sliders replace the cases' own settings: the mark goes
    s.set_params({"mode": "injection"})
    s.recompute()
    assert label.isEnabled() and "no effect" not in editor.toolTip()


def test_forcing_mode_search_marks_the_injection_sliders(qtbot: QtBot, tmp_path: Path) -> None:
    # dr5 11: with Mode = search, Inject min score and Inject limit stayed at the top of the
    # key parameters with no mark, though no query injects
    s = open_session(_eval_cases(tmp_path), "decision-memory")
    panel = ParamPanel(s)
    qtbot.addWidget(panel)
    panel.show()
    s.set_params({"mode": "search"})
    s.recompute()
    why = "no effect on this data: Mode = search makes every query a search"  # dr7 6
    for name in ("inject_min_score", "inject_limit"):
        assert not panel.labels[name].isEnabled(), name
        assert why in panel.editors[name].toolTip(), name
    assert panel.labels["search_min_score"].isEnabled()
