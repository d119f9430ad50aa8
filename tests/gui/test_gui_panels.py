"""Every panel runs alone: each opens on a sample corpus with a bare session, shows it, and
closes."""

from __future__ import annotations

import pytest
from conftest import SAMPLES
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from workbench.core.models import model_ids
from workbench.core.session import TuningSession
from workbench.gui.chart_area import ChartArea
from workbench.gui.header import Header
from workbench.gui.metric_strip import MetricStrip
from workbench.gui.param_panel import ParamPanel
from workbench.gui.preview import DocumentPreview
from workbench.gui.query_list import QueryList
from workbench.gui.ranked_table import RankedTable


def _session(sample: str, model: str) -> TuningSession:
    s = TuningSession()
    s.open(SAMPLES / sample)
    s.set_model(model)
    s.recompute()
    return s


PANELS: list[type[QWidget]] = [Header, QueryList, RankedTable, DocumentPreview, ParamPanel,
                               MetricStrip, ChartArea]


@pytest.mark.parametrize("panel", PANELS, ids=lambda p: p.__name__)
@pytest.mark.parametrize(("sample", "model"), [("tea-beir", "bm25"),
                                               ("vault", "vault-search")])
def test_panel_runs_alone(qtbot: QtBot, panel: type[QWidget], sample: str,
                          model: str) -> None:
    s = _session(sample, model)
    w = panel(s)  # type: ignore[call-arg]
    qtbot.addWidget(w)
    w.resize(700, 400)
    w.show()
    qtbot.waitExposed(w)
    assert not w.grab().isNull()
    s.set_param(next(p.name for p in s.model.schema.stage("live")  # type: ignore[union-attr]
                     if p.kind == "float"), 0.5)
    s.recompute()
    s.pin_baseline()
    w.close()


def test_panels_before_any_dataset(qtbot: QtBot) -> None:
    s = TuningSession()
    for panel in PANELS:
        w = panel(s)  # type: ignore[call-arg]
        qtbot.addWidget(w)
        w.show()
        w.close()


@pytest.mark.parametrize("model", model_ids())
def test_every_parameter_gets_exactly_one_editor(qtbot: QtBot, model: str) -> None:
    """Live parameters in the panel, prepare-stage ones in the Prepare box, none twice."""
    s = TuningSession()
    s.set_model(model)  # no dataset: nothing is prepared or embedded
    panel = ParamPanel(s)
    qtbot.addWidget(panel)
    box = panel.prepare_box
    live, prepare = list(panel.editors), list(box.editors) if box is not None else []
    assert sorted(live + prepare) == sorted(p.name for p in s.model.schema)  # type: ignore[union-attr]
    assert set(live) == {p.name for p in s.model.schema.stage("live")}  # type: ignore[union-attr]
    for name, editor in {**panel.editors, **(box.editors if box else {})}.items():
        assert editor.value() == s.params[name], name


def test_no_two_signals_of_a_model_share_a_colour() -> None:
    from workbench.core.models import get_model, model_ids
    from workbench.gui.palette import signal_hex

    for mid in model_ids():
        n = len(get_model(mid).signals)
        assert len({signal_hex(i) for i in range(n)}) == n, mid
        # none as dark as the total's tick (black), so a signal never reads as the total
        assert all(sum(int(signal_hex(i)[j:j + 2], 16) for j in (1, 3, 5)) > 120
                   for i in range(n)), mid


@pytest.mark.parametrize(("value", "base", "said"), [
    (0.5, None, "no baseline"),             # judged, nothing pinned
    (float("nan"), 0.4, "no judgments"),    # a baseline, but nothing judged to measure
    (None, None, "no judgments"),
    (0.5, float("nan"), "baseline –"),      # the baseline measured nothing
])
def test_metric_card_says_what_is_missing(qtbot: QtBot, value: float | None,
                                          base: float | None, said: str) -> None:
    from workbench.gui.metric_strip import MetricCard

    card = MetricCard()
    qtbot.addWidget(card)
    card.show_metric("ndcg@10", value, base)
    assert card.detail.text().endswith(f"{said}</span>")


def test_a_model_switch_clears_the_last_models_figures(qtbot: QtBot) -> None:
    """Until the new model's first result, its rankings and figures are not the last
    model's: switching to dense on a pinned bm25 showed bm25's ranking under dense's name,
    and the cards "±0 vs 0.680", as if dense ranked exactly as bm25."""
    s = _session("tea-beir", "bm25")
    s.pin_baseline()
    table, strip, preview = RankedTable(s), MetricStrip(s), DocumentPreview(s)
    for w in (table, strip, preview):
        qtbot.addWidget(w)
    assert table.model.rows and strip.cards[0].value.text() != "–"
    s.set_model("vault-search")  # prepared on the next recompute, not yet
    assert s.result is None
    assert not table.model.rows and preview.doc is None
    assert "vault-search is not prepared yet (progress in the Prepare box; Ctrl+R runs it " \
        "again)" in table.summary.toolTip() + table.summary.text()
    assert [c.value.text() for c in strip.cards] == ["–"] * len(strip.cards)
    assert "no result yet" in strip.cards[0].detail.text()  # the data has judgments
    s.set_model("bm25")  # its values of before, prepared on the next recompute
    assert not table.model.rows
    s.recompute()
    assert table.model.rows and strip.cards[0].value.text() != "–"


def test_the_query_lists_delta_column_shows_only_with_a_baseline(qtbot: QtBot) -> None:
    """Empty until a baseline is pinned, Δ took the room of the query's text (30 px of it
    at 1,024: 'wh…')."""
    s = _session("tea-beir", "bm25")
    w = QueryList(s)
    qtbot.addWidget(w)
    assert not w.view.isColumnHidden(2) and w.view.isColumnHidden(3)
    s.pin_baseline()
    assert not w.view.isColumnHidden(3)
    s.clear_baseline()
    assert w.view.isColumnHidden(3)


def test_a_narrow_query_list_keeps_room_for_the_query(qtbot: QtBot) -> None:
    """At 1,024 px, or beside long hash ids, the query's text had 30 px ('wh…'): the id
    column gives way, down to four characters, for ten of the query's."""
    s = _session("code-repo", "codeledger")  # hash ids: c885591bbb0 …
    s.pin_baseline()  # Δ shown too
    w = QueryList(s)
    qtbot.addWidget(w)
    w.resize(600, 300)
    w.show()
    qtbot.waitExposed(w)
    w.resize(300, 300)  # the list of a 1,280 px window, narrowed
    qtbot.wait(10)
    fm = w.view.fontMetrics()
    assert w.view.columnWidth(1) >= fm.horizontalAdvance("x" * 10), [
        w.view.columnWidth(c) for c in range(4)]
    w.resize(600, 300)  # room again: the id takes its eight characters back
    qtbot.wait(10)
    assert w.view.columnWidth(0) > fm.horizontalAdvance("0" * 6)
