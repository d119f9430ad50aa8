"""The signals' legend above the ranked table shows every entry at laptop widths (layout
review, item 2): at 1,024 × 768 codeledger's legend wraps to five lines and was held to four,
its last line ("▨ hatched: negative", the last signals) under the table's header."""

from __future__ import annotations

import pytest
from conftest import SAMPLES
from pytestqt.qtbot import QtBot

from workbench.gui.main_window import MainWindow


@pytest.mark.parametrize("size", [(1024, 768), (1280, 800)])
def test_codeledgers_legend_shows_every_line(qtbot: QtBot, styled: object,
                                             size: tuple[int, int]) -> None:
    w = MainWindow(synchronous=True, restore=False)
    qtbot.addWidget(w)
    w.resize(*size)
    w.show()
    qtbot.waitExposed(w)
    assert w.open_path(SAMPLES / "code-repo", model="codeledger")
    qtbot.wait(20)
    legend, view = w.ranked.legend, w.ranked.view
    line = legend.fontMetrics().lineSpacing()
    need = legend.heightForWidth(legend.width())
    assert need > 3 * line  # four lines or more: the case the cap had cut
    assert legend.height() >= need, (legend.width(), legend.height(), need)
    qtbot.waitUntil(lambda: legend.geometry().bottom() < view.geometry().top())
    # narrower again (the splitter dragged): still every line
    w.resize(1024, 768)
    qtbot.wait(20)
    assert legend.height() >= legend.heightForWidth(legend.width())
    w.close()
