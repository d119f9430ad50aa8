"""Metric vs parameter averages what the metric cards average: where the live values were
tuned on some judged queries, the others only, and its title says so (review dB 4: the card
read 0.628 over 16 chat moments, the chart "now 0.591" as "mean of the 26"); its title wraps
instead of setting the window's least width (dB 6: decisions' held the window at 1,116 px
after a resize to 1,024)."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np
from pytestqt.qtbot import QtBot

from tests.conftest import SAMPLES
from workbench.core.tuned_on import TunedOn
from workbench.gui.charts import MetricCurve
from workbench.gui.charts._standalone import open_session
from workbench.gui.metric_strip import MetricStrip


def test_the_curve_averages_the_queries_the_cards_do(qtbot: QtBot) -> None:
    s = open_session(SAMPLES / "story", "hybrid")
    assert s.dataset is not None
    ids = list(s.dataset.queries.ids)
    tuned = ids[:10]
    s.set_params({"alpha": 0.7}, tuned_on=TunedOn("story", "test", tuple(tuned), "ndcg@10"))
    s.recompute()
    # the judged chat moments, from the qrels file; the held-out ones are the others
    lines = (SAMPLES / "story" / "qrels" / "test.tsv").read_text(encoding="utf-8")
    judged = {line.split("\t")[0] for line in lines.splitlines()[1:] if line.strip()}
    held = np.array([q in judged and q not in tuned for q in ids])
    assert len(judged) == 26 and int(held.sum()) == 16
    assert s.result is not None
    expected = float(np.mean(s.result.per_query["ndcg@10"][held]))
    everyone = float(np.mean(s.result.per_query["ndcg@10"][[q in judged for q in ids]]))
    assert abs(expected - everyone) > 0.01  # the two sets differ enough to tell apart

    curve = MetricCurve(s, synchronous=True)
    qtbot.addWidget(curve)
    curve.resize(900, 420)
    curve.show()
    qtbot.waitExposed(curve)
    assert curve.param_name == "alpha" and curve.metric_name == "ndcg@10"
    assert curve.current is not None and abs(curve.current[1] - expected) < 1e-9
    at = dict(curve.points)
    assert abs(at[0.7] - expected) < 1e-9  # the swept point at the value in use too
    assert curve.caption.text() == ("nDCG@10 across Vector vs keyword (alpha) — mean of the "
                                    "16 of 26 judged chat moments not tuned on")
    strip = MetricStrip(s, defer_ms=0)
    qtbot.addWidget(strip)
    assert strip.cards[0].value.text() == f"{expected:.3f}"
    assert f"now {expected:.3f} at 0.7" == curve.current_line.label.format


def test_a_long_title_wraps_not_widening_the_window(qtbot: QtBot) -> None:
    curve = MetricCurve(open_session(SAMPLES / "decisions", "decision-memory"),
                        synchronous=True)
    qtbot.addWidget(curve)
    curve.resize(1016, 300)
    curve.show()
    qtbot.waitExposed(curve)
    title = curve.caption.text()
    assert title.startswith("results per query across Inject min score — over all 21 queries")
    fm = curve.caption.fontMetrics()
    assert fm.horizontalAdvance(title) > 700  # too long for the header beside its boxes
    # the panel's least width is its boxes', not the title's: the title wraps, whole
    assert curve.minimumSizeHint().width() < fm.horizontalAdvance(title)
    curve.resize(760, 300)
    qtbot.wait(20)
    assert curve.width() == 760
    assert curve.caption.text() == title and curve.caption.toolTip() == title
    assert curve.caption.height() >= 2 * fm.height()  # on two lines, not cut
