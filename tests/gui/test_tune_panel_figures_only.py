"""The Tune tab unticks what moves only the bundle figures (CodeLedger's sufficiency) while the
metric is a ranking metric, as `tune` leaves it out of its plan, and ticks it again for a bundle
figure (rv2 2)."""

from __future__ import annotations

from pathlib import Path

from conftest import SAMPLES
from pytestqt.qtbot import QtBot

from workbench.core.session import TuningSession
from workbench.gui.metric_names import select_metric
from workbench.gui.tune_panel import TunePanel


def test_sufficiency_is_unticked_for_ndcg_and_ticked_for_bundle_recall(
        qtbot: QtBot, tmp_path: Path) -> None:
    s = TuningSession()
    s.open(SAMPLES / "code-repo")
    s.set_model("codeledger")
    s.recompute()
    w = TunePanel(s)
    qtbot.addWidget(w)
    w.resize(1300, 700)
    w.show()
    qtbot.waitExposed(w)
    w.settings.storage.setText(str(tmp_path / "s.db"))
    assert select_metric(w.settings.objective, "bundle_recall")
    assert "sufficiency" in w.checklist.names()
    assert select_metric(w.settings.objective, "ndcg@10")
    assert "sufficiency" not in w.checklist.names() and "w_keyword" in w.checklist.names()
    assert ("it moves only the bundle figures, which nDCG@10 does not read"
            in w.checklist.rows["sufficiency"].tick.toolTip())
    # dr2 1: a run that searches it anyway keeps its start (no constraint here to meet)
    assert w.checklist.rows["sufficiency"].tick.toolTip().endswith(
        "every value scores alike; ticked anyway, the run keeps its start")
    assert select_metric(w.settings.objective, "bundle_recall")
    assert "sufficiency" in w.checklist.names()
