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


def test_with_files_skipped_the_note_does_not_put_them_in_the_bundle(qtbot: QtBot) -> None:
    """dH 4: "The first 10 rows … go into the bundle" beside "bundle: 7 files (3 skipped)"."""
    s = open_session(SAMPLES / "code-repo", "codeledger")
    s.set_params({**s.params, "token_budget": 400})  # three files over it: skipped
    table = RankedTable(s)
    qtbot.addWidget(table)
    table.resize(900, 300)
    table.show()
    qtbot.waitExposed(table)
    cut, skipped = table.model.cut, len(table.model.skipped)
    assert cut is not None and skipped > 0
    assert f"bundle: {cut - skipped} files ({skipped} skipped" in table.notes.text()
    tip = table.notes.toolTip()
    assert tip.startswith(f"Of the first {cut} rows, above the orange dashed line in the "
                          f"table, the {cut - skipped} not greyed go into the bundle"), tip
    assert f"the {skipped} greyed were skipped: over the token budget" in tip
