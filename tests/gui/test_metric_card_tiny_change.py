"""A change below the shown precision in rich text: the metric card's "+<0.001" is drawn,
not read as the start of a tag ("+ vs 0.736" had shown on the vault sample's card)."""

from __future__ import annotations

from PySide6.QtGui import QTextDocument
from pytestqt.qtbot import QtBot

from tests.conftest import SAMPLES
from workbench.gui.metric_strip import MetricCard


def shown(rich: str) -> str:
    """What Qt draws of a rich-text label: its text as a QTextDocument reads it."""
    doc = QTextDocument()
    doc.setHtml(rich)
    return doc.toPlainText()


def test_a_tiny_change_is_drawn_whole_on_the_card(qtbot: QtBot, styled: object) -> None:
    card = MetricCard()
    qtbot.addWidget(card)
    card.show_metric("ndcg@10", 0.73640, 0.73600)
    assert shown(card.detail.text()) == "+<0.001 vs 0.736"
    card.show_metric("ndcg@10", 0.73600, 0.73640)
    assert shown(card.detail.text()) == "−<0.001 vs 0.736"
    # the card is as wide as its widest detail: none of it clipped
    width = card.detail.fontMetrics().horizontalAdvance("−<0.001 vs 0.736")
    assert width <= card.contentsRect().width() - 16


def test_a_count_and_a_big_change_read_as_before(qtbot: QtBot) -> None:
    card = MetricCard()
    qtbot.addWidget(card)
    card.show_count("cases passing", 20, 30, 19)
    assert shown(card.detail.text()) == "+1 vs 19"
    card.show_metric("ndcg@10", 0.5, 0.75)
    assert shown(card.detail.text()) == "−0.250 vs 0.750"


def test_the_tune_verdict_draws_a_tiny_held_out_change(qtbot: QtBot) -> None:
    # the held-out line is rich text too: a change under 0.0001 had read "(+)"
    import numpy as np

    from workbench.core.formats import load_dataset
    from workbench.core.metrics.significance import paired_test
    from workbench.core.models import get_model
    from workbench.core.tuning import TuneSpec, time_split
    from workbench.core.tuning.runner import FoldResult, TuneResult
    from workbench.core.tuning.space import build_space
    from workbench.gui.tune_results import verdict

    ds = load_dataset(SAMPLES / "code-repo")
    validation = time_split(ds, np.ones(len(ds.queries), bool), 0.5)
    start = np.linspace(0.5, 0.8, 6)
    after = start.copy()
    after[0] += 0.0003  # the mean moves by +0.00005
    final = FoldResult("all", "s", 10, {"w_keyword": 2.0}, (0.8,), (0.7,), after, start)
    space = build_space(get_model("codeledger").schema, ["w_keyword"])
    result = TuneResult(TuneSpec(space, ("bundle_recall",)), validation, {}, [final], final,
                        paired_test(start, after))
    text = shown(verdict(result, "bundle_recall"))
    assert "(+<0.0001)" in text, text
