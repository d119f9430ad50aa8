"""On data with fixture cases (decisions-eval) the compare window leads with the data's own
test, as the report does: a "cases passing" row first in the metric table and the report's
sentence first in the note above it. The window had shown nDCG@10 +0.1377 green and the
cases (20/30 → 14/30) only in its status line. Figures as review rv3 (F2) counted them with
`workbench report sample_corpora/decisions-eval -m decision-memory --defaults -p
inject_min_score=0`: 20/30 → 14/30, 6 now passing, 12 now failing, p 0.238."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from tests.gui.conftest import SAMPLES


def test_cases_passing_lead_the_table_and_the_note(qtbot: QtBot, window: Any) -> None:
    assert window.open_path(SAMPLES / "decisions-eval", model="decision-memory")
    s = window.session
    s.recompute()
    s.save_configuration("defaults")
    s.set_params({"inject_min_score": 0})
    s.save_configuration("min0")
    view = window.compare_window()
    view.resize(1400, 860)
    window.config_menu.compare.trigger()
    qtbot.waitExposed(view)
    assert view.comp is not None, view.status.text()
    cells = view.table.cell_texts()
    assert cells[0] == ["cases passing", "20/30", "14/30", "−6", "0.238", "6/12"]
    assert cells[1][0] == "nDCG@10"
    assert view.table.item(0, 5).toolTip() == (
        "6 cases pass under min0 that fail under defaults (▲), 12 fail that passed (▼)")
    delta = view.table.item(0, 3)
    # fewer pass, but p 0.238: neither green nor red, as the report words it ("it may be
    # chance"); nor bold
    assert delta.foreground().style() == Qt.BrushStyle.NoBrush
    assert not view.table.item(0, 4).font().bold()
    assert view.table_note.isVisible()
    assert view.table_note.text().startswith(
        "min0 against defaults: cases passing 20/30 → 14/30, 6 now passing and 12 now "
        "failing")
    # the cases that changed: in the row's tooltip, not thirty ids under the buttons
    assert "now fails incremental-cache-key" in view.table.item(0, 0).toolTip()
    assert "now fails" not in view.status.text()
    assert "cases passing: defaults 20/30, min0 14/30" in view.status.text()
