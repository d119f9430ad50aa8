"""The ranked table's "- - bundle: 14 files" note says what it marks when hovered (rn 9: no
tooltip, and the dashed line it names was below the eight rows in sight)."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from pytestqt.qtbot import QtBot

from tests.conftest import SAMPLES
from workbench.gui.charts._standalone import open_session
from workbench.gui.ranked_table import RankedTable


def test_the_bundle_note_says_what_the_dashed_line_marks(qtbot: QtBot) -> None:
    s = open_session(SAMPLES / "code-repo", "codeledger")
    table = RankedTable(s)
    qtbot.addWidget(table)
    table.resize(900, 300)
    table.show()
    qtbot.waitExposed(table)
    cut = table.model.cut
    assert cut is not None and table.notes.isVisible()
    assert table.notes.text().startswith("<span") and f"bundle: {cut} files" in table.notes.text()
    tip = table.notes.toolTip()
    # dB 5: which rows go in said first, unambiguously
    assert tip.startswith(f"The first {cut} rows, above the orange dashed line in the table, "
                          "go into the bundle"), tip
    assert "rows below the line are left out" in tip
    assert "left out" in tip
