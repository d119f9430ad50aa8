"""The compare window's metric table marks a difference as the report does: a p below 0.05
that is weak evidence among many p-values shown is neither coloured nor bold (review rv3,
F4: vault with 3 configurations showed v_ms2's −0.0686 red and p 0.016 bold, while In short
called it weak evidence among 13, 12 since judged@10 is no test: dr6 8)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from tests.gui.conftest import SAMPLES
from workbench.core.comparison import Configuration, compare_configurations
from workbench.core.formats import load_dataset
from workbench.core.models import get_model
from workbench.gui.compare import MetricTable


def test_a_weak_p_is_left_plain(qtbot: QtBot) -> None:
    model = get_model("vault-search")
    configs = [Configuration("defaults", model.schema.defaults()),
               Configuration("v_ms2", model.schema.resolve({"min_score": 0.2})),
               Configuration("v_pos0", model.schema.resolve({"w_position": 0.0})),
               Configuration("v_den0", model.schema.resolve({"w_density": 0.0}))]
    comp = compare_configurations(model, load_dataset(SAMPLES / "vault"), configs,
                                  n_resamples=2000)
    table = MetricTable()
    qtbot.addWidget(table)
    table.set_comparison(comp)
    r = next(j for j, row in enumerate(comp.rows) if row.metric == "ndcg@10")
    delta, p = table.item(r, 3), table.item(r, 4)  # v_ms2's Δ and p
    assert delta is not None and p is not None
    assert delta.text() == "−0.0686" and p.text() == "0.016"
    assert delta.foreground().style() == Qt.BrushStyle.NoBrush
    assert not p.font().bold()
    assert ("exploratory, and not below 0.05 after Holm's adjustment over the 12 p-values "
            "shown") in p.toolTip()
