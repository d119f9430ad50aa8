"""The Bundle panel in words a reader knows (rn 6): recall and precision to the metric
cards' 3 decimals."""

from __future__ import annotations

import os
import re

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import numpy as np
import pytest
from pytestqt.qtbot import QtBot

from tests.conftest import SAMPLES
from workbench.core.session import TuningSession
from workbench.gui.charts import ContextBundle
from workbench.gui.charts._standalone import open_session


@pytest.fixture
def code() -> TuningSession:
    return open_session(SAMPLES / "code-repo")


def _panel(qtbot: QtBot, s: TuningSession, width: int = 1264, height: int = 230) -> ContextBundle:
    panel = ContextBundle(s)
    qtbot.addWidget(panel)
    panel.resize(width, height)
    panel.show()
    qtbot.waitExposed(panel)
    panel.redraw()
    qtbot.wait(10)
    return panel


def test_recall_and_precision_have_the_cards_three_decimals(qtbot: QtBot,
                                                            code: TuningSession) -> None:
    # the panel said "recall 0.92 · precision 0.08" beside cards that said 0.917 and 0.076
    panel = _panel(qtbot, code)
    assert code.result is not None
    recall = float(np.nanmean(code.result.per_query["bundle_recall"]))
    precision = float(np.nanmean(code.result.per_query["bundle_precision"]))
    text = panel.summary.text()
    assert f"recall {recall:.3f} · precision {precision:.3f}" in text
    assert re.search(r"recall 0\.\d{3} ", text)
    # the task's own line against a pinned baseline: its recall to 3 as well
    code.pin_baseline()
    q = code.query
    assert f"recall {float(code.result.per_query['bundle_recall'][q]):.3f}" in (
        panel.baseline.text())
