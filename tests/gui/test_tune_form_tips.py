"""The Tune form's words explained where they are shown (review rn 4, 5, 2026-11-29): the
sampler, budget, k, range boxes, the ⊘ line and the plan line under Start had no tooltip (or
none defining a fold or a study), and on code-repo the form tuned bundle recall while the first
metric card, the one watched, is nDCG@10, with nothing saying so."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from conftest import SAMPLES
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from workbench.gui.main_window import MainWindow
from workbench.gui.metric_names import combo_metric, select_metric
from workbench.gui.tune_panel import TunePanel


@pytest.fixture
def window(qtbot: QtBot, styled: object) -> Iterator[MainWindow]:
    w = MainWindow(synchronous=True, restore=False)
    qtbot.addWidget(w)
    w.resize(1280, 800)
    w.show()
    qtbot.waitExposed(w)
    yield w
    w.close()


def tune_tab(qtbot: QtBot, w: MainWindow) -> TunePanel:
    panel = w.charts.panels["TunePanel"]
    assert isinstance(panel, TunePanel)
    w.charts.setCurrentWidget(panel)
    qtbot.wait(20)
    return panel


def label(panel: TunePanel, text: str) -> QLabel:
    return next(w for w in panel.settings.labels if w.text() == text)


def test_the_form_s_terms_have_tooltips(qtbot: QtBot, window: MainWindow) -> None:
    assert window.open_path(SAMPLES / "story")
    panel = tune_tab(qtbot, window)
    s, form = panel.settings, panel.form
    # the sampler: the combo and each choice
    assert "Tree-structured Parzen Estimator" in s.sampler.toolTip()
    assert label(panel, "Sampler").toolTip() == s.sampler.toolTip()
    tips = {s.sampler.itemText(i): s.sampler.itemData(i, Qt.ItemDataRole.ToolTipRole)
            for i in range(s.sampler.count())}
    assert set(tips) == {"tpe", "cmaes", "random", "grid"}
    for name, tip in tips.items():
        assert tip.startswith(f"{name}: ") and len(tip) > 30, name
    # the budget, its label too
    for widget in (s.budget, label(panel, "Budget")):
        assert widget.toolTip().startswith("trials per study"), widget
    # k: the folds, each one's queries held out, in the data's own noun (OpenVault's chat
    # moments), said to be its queries
    tip = s.folds.toolTip()
    assert "folds the chat moments are split into" in tip and "held out" in tip
    assert "(chat moments: this data's queries)" in tip
    # the line under Start keeps the noun; its tooltip says what a study and a fold are
    assert s.budget_note.text() == ("Start runs up to 600 trials: 100 × 6 studies (5 folds, "
                                    "then all chat moments)")
    tip = s.budget_note.toolTip()
    assert tip.startswith("A study: one search of the parameters")
    assert "splits the chat moments into k folds" in tip and "held out" in tip
    # the ⊘ line
    assert form.ship_note.isVisible() and form.ship_note.text().startswith("⊘ ")
    assert form.ship_note.toolTip().startswith("OpenVault has no setting for the parameters "
                                               "marked ⊘")
    # every range box says which end it is, of what
    boxes = [(row.param.label, row.low, row.high) for row in panel.checklist.rows.values()
             if row.low is not None and row.high is not None]
    assert boxes
    for name, low, high in boxes:
        assert low.toolTip().startswith(f"low: the least value of {name} the search tries")
        assert high.toolTip().startswith(f"high: the greatest value of {name}")


def test_a_metric_other_than_the_first_card_s_is_said_beside_the_combo(
        qtbot: QtBot, window: MainWindow) -> None:
    assert window.open_path(SAMPLES / "code-repo", model="codeledger")
    panel = tune_tab(qtbot, window)
    s = panel.settings
    first = window.metrics.cards[0].name.text()
    assert first == "nDCG@10"  # the card watched
    # bundle recall stays the default (CodeLedger's objective, `tune`'s too), said so
    assert combo_metric(s.objective) == "bundle_recall"
    note = s.objective_note
    assert note.isVisible()
    assert note.text() == "tunes bundle recall, not the first card's nDCG@10"
    assert note.height() <= note.fontMetrics().height() + 4  # one line (dD 2)
    assert note.toolTip().startswith("bundle recall: what CodeLedger selects its bundle for.")
    assert "not on nDCG@10, the first metric card's metric" in s.objective.toolTip()
    assert label(panel, "Metric").toolTip() == s.objective.toolTip() == note.toolTip()
    # the first card's metric chosen: nothing to say
    assert select_metric(s.objective, "ndcg@10")
    assert not note.isVisible() and "first metric card" not in s.objective.toolTip()
    # another one: said too, with the card's k
    window.session.set_k(5)
    qtbot.wait(20)
    assert window.metrics.cards[0].name.text() == "nDCG@5"
    assert select_metric(s.objective, "mrr@5")
    assert note.isVisible() and note.text() == "tunes MRR@5, not the first card's nDCG@5"


def test_the_first_card_s_metric_by_default_says_nothing(qtbot: QtBot,
                                                         window: MainWindow) -> None:
    assert window.open_path(SAMPLES / "story")
    panel = tune_tab(qtbot, window)
    assert combo_metric(panel.settings.objective) == "ndcg@10"
    assert not panel.settings.objective_note.isVisible()
