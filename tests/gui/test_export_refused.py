"""Export is off, its tooltip saying why, while a panel shows only a note or recomputes: the
hidden plot's meaningless axes, a picture of the hint, or the new title over the old curve had
been written (review r49, dr4 1, 2, 11, 12). Nothing is written then."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import SAMPLES
from pytestqt.qtbot import QtBot

from workbench.gui.charts import ContributionChart, MetricCurve, MoversList, ScoreDistribution
from workbench.gui.charts._standalone import open_session


def _show(qtbot: QtBot, widget: object) -> None:
    qtbot.addWidget(widget)
    widget.resize(900, 520)  # type: ignore[attr-defined]
    widget.show()  # type: ignore[attr-defined]
    qtbot.waitExposed(widget)


def test_a_note_alone_is_not_exported(qtbot: QtBot, tmp_path: Path) -> None:
    vault = open_session(SAMPLES / "vault", "vault-search")
    dist, bars = ScoreDistribution(vault), ContributionChart(vault)
    for panel in (dist, bars):
        _show(qtbot, panel)
    vault.select_query(vault.dataset.queries.index["v12"])  # type: ignore[union-attr]
    for panel, words in ((dist, "Nothing to export: Nothing to draw: query v12 has no "
                                "candidate with a score."),
                         (bars, "Nothing to export: Query v12 ranks no document.")):
        assert not panel.export_button.isEnabled()
        assert panel.export_button.toolTip() == words
        with pytest.raises(ValueError, match="Nothing to export"):
            panel.export(tmp_path / "empty.png")
    assert not bars.tabs.isVisible()  # the note alone: no empty framed box under two tabs
    assert list(tmp_path.iterdir()) == []
    vault.select_query(0)  # a query with results: Export on again, the tabs back
    for panel in (dist, bars):
        assert panel.export_button.isEnabled()
        assert panel.export_button.toolTip() == "Export this chart as PNG or SVG"
        assert panel.export(tmp_path / f"{type(panel).__name__}.png").stat().st_size > 0
    assert bars.tabs.isVisible()


def test_movers_without_a_baseline_export_nothing(qtbot: QtBot, tmp_path: Path) -> None:
    tea = open_session(SAMPLES / "tea-beir", "bm25")
    panel = MoversList(tea)
    _show(qtbot, panel)
    assert not panel.export_button.isEnabled()
    assert panel.export_button.toolTip().startswith("Nothing to export: Pin a baseline")
    for name in ("m.png", "m.csv"):
        with pytest.raises(ValueError, match="Nothing to export"):
            panel.export(tmp_path / name)
    assert list(tmp_path.iterdir()) == []
    tea.pin_baseline()
    tea.set_param("k1", 0.4)
    tea.recompute()
    assert panel.export_button.isEnabled()
    assert panel.export_button.toolTip() == "Export this chart as PNG, SVG or CSV"  # dr6 5
    assert panel.export(tmp_path / "m.csv").read_text(encoding="utf-8").count("\n") > 1


def test_a_curve_being_swept_is_not_exported(qtbot: QtBot, tmp_path: Path) -> None:
    tea = open_session(SAMPLES / "tea-beir", "bm25")
    curve = MetricCurve(tea, synchronous=False)
    _show(qtbot, curve)
    qtbot.waitUntil(lambda: bool(curve.points) and not curve.busy, timeout=10_000)
    assert curve.export_button.isEnabled()
    tea.set_param("b", 0.3)  # now the b sweep: the k1 curve is still drawn meanwhile
    assert curve.busy and curve.caption.text().startswith("nDCG@10 across b — ")
    assert not curve.export_button.isEnabled()
    assert curve.export_button.toolTip() == ("Sweeping b over 21 values: export once the "
                                             "curve is drawn.")
    with pytest.raises(ValueError, match="Sweeping b"):
        curve.export(tmp_path / "busy.png")
    assert not (tmp_path / "busy.png").exists()
    with qtbot.waitSignal(curve.sweep_finished, timeout=10_000):
        pass
    assert curve.export_button.isEnabled()
    assert curve.export(tmp_path / "done.png").stat().st_size > 0
    curve.shutdown()
