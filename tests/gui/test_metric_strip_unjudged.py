"""Without judgments the metric strip no longer shows five cards of "– no judgments": where
the model has a min score or limit, its cards show what the selection returns (results per
query, % of queries returning nothing, tokens injected), against the baseline's, uncoloured;
where it has neither, no card (the line on the right says why once)."""

from __future__ import annotations

import math
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np
from pytestqt.qtbot import QtBot

from tests.conftest import SAMPLES
from workbench.core.diagnostics import excerpt_length
from workbench.gui.charts._standalone import open_session
from workbench.gui.metric_strip import MetricStrip


def _strip(qtbot: QtBot, folder: str, model: str) -> MetricStrip:
    s = open_session(SAMPLES / folder, model)
    strip = MetricStrip(s, defer_ms=0)
    qtbot.addWidget(strip)
    strip.resize(1400, 80)
    strip.show()
    qtbot.waitExposed(strip)
    return strip


def _expected(strip: MetricStrip) -> tuple[float, float, float]:
    """results per query, % empty and tokens per query, counted from the ranked lists."""
    s = strip.session
    assert s.result is not None and s.dataset is not None
    r = s.result.ranking
    counts = [int(c) for c in r.count]
    tokens = [math.floor(sum(excerpt_length(s.dataset.corpus[int(d)].text)
                             for d in r.docs[q, :c]) / 4 + 0.5) for q, c in enumerate(counts)]
    return (sum(counts) / len(counts), 100 * sum(c == 0 for c in counts) / len(counts),
            sum(tokens) / len(tokens))


def test_unjudged_cards_show_what_the_selection_returns(qtbot: QtBot) -> None:
    strip = _strip(qtbot, "decisions", "decision-memory")
    s = strip.session
    assert s.judgments is None
    shown = [c for c in strip.cards if c.isVisible()]
    assert [c.name.text() for c in shown] == ["results / query", "empty queries",
                                              "tokens / query"]
    results, empty, tokens = _expected(strip)
    assert results > 0 and 0 < empty < 100  # some turns get results, some none
    assert [c.value.text() for c in shown] == [f"{results:.2f}", f"{empty:.1f} %",
                                               f"{tokens:.0f}"]
    assert all("no baseline" in c.detail.text() for c in shown)
    assert "no judgments" in strip.comparison.text()
    s.pin_baseline()
    s.set_params({"inject_min_score": 40.0})
    s.recompute()
    after = _expected(strip)
    assert after[0] < results  # a higher min score returns less
    d = after[0] - results
    detail = shown[0].detail.text()
    assert f"{'−' if d < 0 else '+'}{abs(d):.2f} vs {results:.2f}" in detail
    assert "#8c959f" in detail and "#1a7f37" not in detail  # muted, not green or red
    assert f"vs {empty:.1f} %" in shown[1].detail.text()


def test_no_cards_without_judgments_or_a_selection(qtbot: QtBot) -> None:
    strip = _strip(qtbot, "decisions", "bm25")  # bm25 has no min score or limit to tune
    assert strip.session.judgments is None
    assert not any(c.isVisible() for c in strip.cards)
    assert "no judgments" in strip.comparison.text()


def test_judged_data_keeps_its_metric_cards(qtbot: QtBot) -> None:
    strip = _strip(qtbot, "memories", "importance")  # importance selects, but is judged here
    assert strip.session.judgments is not None
    # the names, past the cap marks ("nDCG@10  ·top 5": importance returns 5 a query)
    shown = [c.name.text().split("  ")[0] for c in strip.cards if c.isVisible()]
    assert shown[:2] == ["nDCG@10", "MRR@10"]
    assert np.isfinite(float(strip.cards[0].value.text()))
