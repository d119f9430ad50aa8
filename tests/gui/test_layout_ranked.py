"""The ranked table at laptop widths (review rv2 1): at 1,024 × 768 on decision-memory the
titles read "Incre…" beside a gate column of 110 px, whose codes were elided even at 1,600 px
("single_token…"). The title keeps about 14 characters before the bars or the gate grow; a
gate shows its code's words, the code and the model's reason in the cell's tooltip."""

from __future__ import annotations

from conftest import SAMPLES
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from workbench.gui.main_window import MainWindow
from workbench.gui.ranked_table import COLUMNS, Share, share_width

TITLE, GATE = COLUMNS.index("title"), COLUMNS.index("gate")


def _window(qtbot: QtBot, size: tuple[int, int]) -> MainWindow:
    w = MainWindow(synchronous=True, restore=False)
    qtbot.addWidget(w)
    w.resize(*size)
    w.show()
    qtbot.waitExposed(w)
    assert w.open_path(SAMPLES / "decisions", model="decision-memory")
    qtbot.wait(20)  # the layout settles
    return w


def test_at_1024_the_titles_keep_fourteen_characters(qtbot: QtBot, styled: object) -> None:
    w = _window(qtbot, (1024, 768))
    view = w.ranked.view
    assert not view.isColumnHidden(TITLE) and not view.isColumnHidden(GATE)
    fm = view.fontMetrics()
    assert view.columnWidth(TITLE) >= fm.horizontalAdvance("x" * 14), [
        view.columnWidth(c) for c in range(len(COLUMNS))]
    # … and the table needs no sideways scrolling for it
    assert sum(view.columnWidth(c) for c in range(len(COLUMNS))
               if not view.isColumnHidden(c)) <= view.viewport().width()
    w.close()


def test_a_gate_reads_as_words_its_reason_in_the_tooltip(qtbot: QtBot, styled: object) -> None:
    w = _window(qtbot, (1024, 768))
    model = w.ranked.model
    row = next(i for i, r in enumerate(model.rows) if r.gate == "single_token_evidence")
    cell = model.index(row, GATE)
    assert cell.data() == "single token evidence"
    tip = cell.data(Qt.ItemDataRole.ToolTipRole)
    assert "single_token_evidence" in tip
    assert "injection needs at least min_strong strong (exact) matches" in tip
    w.close()


def test_at_1600_every_gate_shows_whole(qtbot: QtBot, styled: object) -> None:
    w = _window(qtbot, (1600, 1000))
    view, model = w.ranked.view, w.ranked.model
    fm = view.fontMetrics()
    shown = {r.gate for r in model.rows if r.gate}
    assert {"single_token_evidence", "source_turn"} <= shown
    for gate in shown:
        assert view.columnWidth(GATE) >= fm.horizontalAdvance(gate.replace("_", " ")) + 8
    assert view.columnWidth(TITLE) >= fm.horizontalAdvance("x" * 30)
    w.close()


def test_the_room_is_shared_name_first() -> None:
    name, ids = Share(120, 0), Share(60, 200)
    bar, gate = Share(60, 180), Share(70, 170)
    # short: the gate and the bars give way alike, down to their floors, before the name
    assert share_width(290, name, ids, bar, gate, floors=(50, 45)) == (120, 60, 50, 60)
    assert share_width(200, name, ids, bar, gate, floors=(50, 45)) == (45, 60, 45, 50)
    # room: the id first, then equal parts to the name, the gate and the bars
    assert share_width(440, name, ids, bar, gate) == (120, 190, 60, 70)
    assert share_width(540, name, ids, bar, gate) == (150, 200, 90, 100)
    assert share_width(900, name, ids, bar, gate) == (350, 200, 180, 170)


def test_the_contributions_heading_fits_its_column_or_ends_in_an_ellipsis(
        qtbot: QtBot, styled: object) -> None:
    """At 1,024 × 768 on bm25 the bars had 100 px: the header took "contributions" to fit and
    drew it cut at both sides (":ontributions:"), its semi-bold text and padding wider."""
    from PySide6.QtGui import QFont, QFontMetrics

    w = MainWindow(synchronous=True, restore=False)
    qtbot.addWidget(w)
    w.resize(1024, 768)
    w.show()
    qtbot.waitExposed(w)
    assert w.open_path(SAMPLES / "tea-beir", model="bm25")
    qtbot.wait(20)
    view = w.ranked.view
    bar = COLUMNS.index("contributions")
    font = QFont(view.horizontalHeader().font())
    font.setWeight(QFont.Weight.DemiBold)
    fm = QFontMetrics(font)
    for width in (view.columnWidth(bar), 100, 60, 200):
        view.setColumnWidth(bar, width)
        heading = view.model().headerData(bar, Qt.Orientation.Horizontal)
        assert heading == "contributions" or heading.endswith("…")
        assert fm.horizontalAdvance(heading) + 12 <= view.columnWidth(bar), (width, heading)
    w.close()
