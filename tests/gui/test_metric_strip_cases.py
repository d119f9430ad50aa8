"""The metric strip on data with pi-lodestone eval cases leads with the count of cases passing
(the figure that data is for), against the baseline's; elsewhere it shows no such card."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from pathlib import Path

from pytestqt.qtbot import QtBot

from tests.conftest import SAMPLES
from tests.test_diagnostics import _eval_cases
from workbench.gui.charts._standalone import open_session
from workbench.gui.metric_strip import MetricStrip


def test_cases_passing_leads_the_strip(qtbot: QtBot, tmp_path: Path) -> None:
    # the strip led with nDCG/P@10/R@10 at k = 10 (P@10 cannot pass 0.5 where each case
    # returns at most its topK); "cases passing" was only in the Eval cases tab
    s = open_session(_eval_cases(tmp_path), "decision-memory")
    strip = MetricStrip(s, defer_ms=0)
    qtbot.addWidget(strip)
    strip.resize(1400, 80)
    strip.show()
    qtbot.waitExposed(strip)
    card = strip.cases_card
    assert card.isVisible() and card.name.text() == "cases passing"
    # both cases find d1 (score 23 each: title, cwd, manual) in their top K
    assert card.value.text() == "2 / 2" and "no baseline" in card.detail.text()
    # first of the cards: before nDCG's, drawn left of it
    assert strip._layout.indexOf(card) < strip._layout.indexOf(strip.cards[0])
    qtbot.waitUntil(lambda: card.x() < strip.cards[0].x())
    s.pin_baseline()
    # min score 30 empties "one" (23 < 30); "five" keeps its own min score 2 and passes
    s.set_params({"inject_min_score": 30.0})
    s.recompute()
    assert card.value.text() == "1 / 2"
    assert "−1" in card.detail.text() and "vs 2" in card.detail.text()


def test_no_cases_card_without_cases(qtbot: QtBot) -> None:
    s = open_session(SAMPLES / "tea-beir", "bm25")
    strip = MetricStrip(s, defer_ms=0)
    qtbot.addWidget(strip)
    strip.resize(1400, 80)
    strip.show()
    qtbot.waitExposed(strip)
    assert not strip.cases_card.isVisible() and strip.cards[0].isVisible()
