"""The query list at laptop widths (layout review, item 3): at 1,024 px code-repo's commit ids
read "c4…fc" and its queries were cut to about nine characters while the nDCG@10 column took
80 px for values of five. A commit id shows its first seven characters, as git does (the
whole id in the tooltip), the metric's column is as wide as its heading or values need, and
the query's text takes the rest."""

from __future__ import annotations

import pytest
from conftest import SAMPLES
from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QFontMetrics
from PySide6.QtWidgets import QStyleOptionViewItem
from pytestqt.qtbot import QtBot

from workbench.gui.elided import TEXT_MARGIN
from workbench.gui.main_window import MainWindow
from workbench.gui.query_list import commit_prefix


def test_commit_ids_are_told_apart_by_seven_characters_or_more() -> None:
    assert commit_prefix(["c885591bbb0a", "c454849a12fc"]) == 7
    # two sharing their first seven: as git, one more
    assert commit_prefix(["c885591bbb0a", "c885591cfff0", "d0"]) == 0  # "d0": no commit id
    assert commit_prefix(["c885591bbb0a", "c885591cfff0"]) == 8
    assert commit_prefix(["12345678901", "12345678902"]) == 0  # numbers, not commits
    assert commit_prefix(["turn-1", "turn-10"]) == 0
    assert commit_prefix(["abc1234"]) == 0  # seven already: shown whole


def _window(qtbot: QtBot, size: tuple[int, int]) -> MainWindow:
    w = MainWindow(synchronous=True, restore=False)
    qtbot.addWidget(w)
    w.resize(*size)
    w.show()
    qtbot.waitExposed(w)
    assert w.open_path(SAMPLES / "code-repo", model="codeledger")
    qtbot.wait(20)  # the layout settles
    return w


def _shown(w: MainWindow, row: int) -> str:
    view = w.queries.view
    opt = QStyleOptionViewItem()
    index = w.queries.proxy.index(row, 0)
    opt.rect = view.visualRect(index)
    view.itemDelegateForColumn(0).initStyleOption(opt, index)
    return opt.text


def _heading_width(w: MainWindow, text: str) -> int:
    font = QFont(w.queries.view.horizontalHeader().font())
    font.setWeight(QFont.Weight.DemiBold)
    return QFontMetrics(font).horizontalAdvance(text)


def test_at_1024_commit_ids_show_seven_characters(qtbot: QtBot, styled: object) -> None:
    w = _window(qtbot, (1024, 768))
    view, ds = w.queries.view, w.session.dataset
    fm = view.fontMetrics()
    ids = [q.id for q in ds.queries]
    assert all(len(i) == 11 for i in ids)  # c885591bbb0 …
    for row, qid in enumerate(ids):
        assert _shown(w, row) == qid[:7]
        assert w.queries.proxy.index(row, 0).data(Qt.ItemDataRole.ToolTipRole) == qid
    widest = max(fm.horizontalAdvance(i[:7]) for i in ids)
    assert view.columnWidth(0) >= widest + 2 * TEXT_MARGIN  # whole, no "…"
    # the metric's heading short ("nDCG", its k in the tooltip), the column no wider
    heading = w.queries.model.headerData(2, Qt.Orientation.Horizontal)
    assert heading == "nDCG"
    assert "nDCG@10" in w.queries.model.headerData(2, Qt.Orientation.Horizontal,
                                                   Qt.ItemDataRole.ToolTipRole)
    assert _heading_width(w, heading) + 12 <= view.columnWidth(2) \
        <= max(_heading_width(w, heading), fm.horizontalAdvance("0.000")) + 16
    # the query's text takes the rest: ten characters at least
    assert view.columnWidth(1) >= fm.horizontalAdvance("x" * 10), [
        view.columnWidth(c) for c in range(4)]
    assert sum(view.columnWidth(c) for c in range(4) if not view.isColumnHidden(c)) \
        <= view.viewport().width()
    # the filter still finds a query by the end of its id
    w.queries.filter_edit.setText(ids[3][-4:])
    assert w.queries.proxy.rowCount() == 1
    w.close()


@pytest.mark.parametrize("size", [(1280, 800), (1600, 1000)])
def test_wider_the_metric_heading_is_whole(qtbot: QtBot, styled: object,
                                           size: tuple[int, int]) -> None:
    w = _window(qtbot, size)
    view = w.queries.view
    assert w.queries.model.headerData(2, Qt.Orientation.Horizontal) == "nDCG@10"
    assert view.columnWidth(2) >= _heading_width(w, "nDCG@10") + 12
    assert _shown(w, 0) == w.session.dataset.queries[0].id[:7]
    assert view.columnWidth(1) >= view.fontMetrics().horizontalAdvance("x" * 14)
    w.close()
