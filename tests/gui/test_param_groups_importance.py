"""The importance model's parameter panel (reviewer C, F5–F7): groups by topic, each switch
inside its group; the thresholds of a switched-off rule greyed; the explain-only bands in a
group that says so, their labels greyed with the reason."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from pytestqt.qtbot import QtBot

from tests.conftest import SAMPLES
from workbench.gui.charts._standalone import open_session
from workbench.gui.param_panel import ParamPanel


def test_topics_stay_together(qtbot: QtBot) -> None:
    s = open_session(SAMPLES / "memories", "importance")
    panel = ParamPanel(s)
    qtbot.addWidget(panel)
    panel.resize(420, 900)
    panel.show()
    assert {k: b.text() for k, b in panel.groups.items()} == {
        "base": "Base (5)", "boost": "Boost (4)", "outcome": "Outcome (6)",
        "repeat": "Repetition (3)", "stale": "Staleness (10)", "dismiss": "Dismissal (3)",
        "superseded": "Superseded (2)", "archive": "Archive band (2)",
        "prefilter": "Pre-filter (4)", "relevance": "Relevance (3)",
        "bands": "Bands — explain only (4)"}
    # folding a group hides its whole topic: the switch, and what sits by it
    for key, names in (("base", ("default_tier",)), ("boost", ("exclamation_min",)),
                       ("stale", ("ultra_short_own_decay", "whole_days")),
                       ("prefilter", ("prefilter", "prefilter_days")),
                       ("relevance", ("relevance", "k1", "b")),
                       ("bands", ("resurface_threshold", "resurface_dismissals"))):
        button = panel.groups[key]
        if not button.isChecked():
            button.click()
        assert all(panel.editors[n].isVisible() for n in names), key
        button.click()
        assert not any(panel.editors[n].isVisible() for n in names), key
    # the group's title leaves its labels
    assert panel.labels["prefilter_days"].text() == "accessed within (days)"
    assert panel.labels["base_long"].text() == "long"


def test_idle_and_explain_only_parameters_are_greyed(qtbot: QtBot) -> None:
    s = open_session(SAMPLES / "memories", "importance")
    panel = ParamPanel(s)
    qtbot.addWidget(panel)
    panel.show()
    days = panel.editors["prefilter_days"]
    assert days.isEnabled()
    s.set_params({"prefilter": False, "superseded_archive": True, "relevance": "coverage"})
    for name in ("prefilter_current", "prefilter_days", "prefilter_importance",
                 "superseded_decay", "k1", "b", "stale_long_days"):
        assert not panel.editors[name].isEnabled(), name
        assert "no effect while" in panel.editors[name].toolTip(), name
    # the bands rank nothing: labels greyed, the reason said, the sliders left to use (they
    # still label explain)
    for name in ("resurface_threshold", "standard_threshold", "short_threshold",
                 "resurface_dismissals", "default_tier"):
        assert not panel.labels[name].isEnabled(), name
        assert panel.editors[name].isEnabled(), name
    assert "shown in explain only" in panel.labels["resurface_threshold"].toolTip()
    assert "every memory has a tier" in panel.labels["default_tier"].toolTip()
    assert panel.labels["archive_threshold"].isEnabled()  # it gates retrieval



def test_tab_reaches_a_groups_title_before_its_rows(qtbot: QtBot) -> None:
    """Each fold title is drawn above its rows: Tab goes there first, then its rows, then
    the next title (a group's rows came first, then every title bunched after; rv4 M)."""
    from itertools import pairwise

    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QWidget

    s = open_session(SAMPLES / "memories", "importance")
    panel = ParamPanel(s)
    qtbot.addWidget(panel)
    panel.resize(420, 900)
    panel.show()
    for button in panel.groups.values():
        if not button.isChecked():
            button.click()
    chain: list[QWidget] = []  # the Tab stops from the first title on, once round
    w = panel.groups["base"]
    while not chain or w is not chain[0]:
        if w.focusPolicy() & Qt.FocusPolicy.TabFocus and w.isVisible():
            chain.append(w)
        w = w.nextInFocusChain()
    place = {id(x): i for i, x in enumerate(chain)}
    spans = []
    for button in panel.groups.values():
        names = button.toolTip().removeprefix("parameters ").split(", ")
        rows = [place[id(x)] for x in chain for n in names
                if x is panel.editors[n] or panel.editors[n].isAncestorOf(x)]
        assert rows, button.text()
        spans.append((place[id(button)], min(rows), max(rows)))
    for (title, first, last), (next_title, _, _) in pairwise(spans):
        assert title < first <= last < next_title
