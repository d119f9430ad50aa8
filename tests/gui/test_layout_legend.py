"""The signals' legend above the ranked table (layout review, item 2; diff review dr2 1 and 6):
at 1,024 × 768 codeledger's legend wrapped to five lines and was held to four, its last line
("▨ hatched: negative") under the table's header. Measured from the label's heightForWidth,
which never answers less than the label's own height, it then grew 2 px on every fit and never
shrank. Its height is a function of its text and its width: as many lines as the text needs,
three at most, the signals drawing least left out ("+11 more (hover)") and named in the
tooltip."""

from __future__ import annotations

import math
import re

import pytest
from conftest import SAMPLES
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from workbench.gui.main_window import MainWindow
from workbench.gui.signal_names import signal_labels


def _window(qtbot: QtBot, size: tuple[int, int], sample: str, model: str) -> MainWindow:
    w = MainWindow(synchronous=True, restore=False)
    qtbot.addWidget(w)
    w.resize(*size)
    w.show()
    qtbot.waitExposed(w)
    assert w.open_path(SAMPLES / sample, model=model)
    qtbot.wait(20)  # the layout settles
    return w


def _laid_out(label: QLabel, width: int) -> tuple[int, int]:
    """(lines, px) the label's rich text takes at `width` px in its font, as Qt lays it out."""
    doc = QTextDocument()
    doc.setDocumentMargin(0)
    doc.setDefaultFont(label.font())
    doc.setHtml(label.text())
    doc.setTextWidth(width)
    height = math.ceil(doc.size().height())
    return doc.firstBlock().layout().lineCount(), height


def _settle(qtbot: QtBot) -> None:
    qtbot.wait(10)  # the layout settles


def test_the_legends_height_follows_its_text_and_width_alone(qtbot: QtBot,
                                                             styled: object) -> None:
    w = _window(qtbot, (1024, 768), "tea-beir", "bm25")
    legend = w.ranked.legend
    lines, one = _laid_out(legend, legend.width())
    assert lines == 1  # bm25's "signals: ■ BM25": one line
    first = legend.height()
    assert one <= first <= one + 4  # one line high, not two
    for _ in range(30):  # fitted again and again: the same height (it had grown 2 px a time)
        legend.fit()
    assert legend.height() == first
    for i in range(30):  # resized back and forth
        w.resize(1032 if i % 2 == 0 else 1024, 768)
        _settle(qtbot)
    assert legend.height() == first
    # another dataset's legend, then this one again: back to the one line
    assert w.open_path(SAMPLES / "code-repo", model="codeledger")
    _settle(qtbot)
    assert legend.height() > first
    assert w.open_path(SAMPLES / "tea-beir", model="bm25")
    _settle(qtbot)
    assert legend.height() == first
    # a pinned baseline: two lines kept ("left the top 10: …" comes and goes with a value);
    # the text changed back and forth, the height stays
    s = w.session
    s.pin_baseline()
    _settle(qtbot)
    pinned = legend.height()
    k1 = s.params["k1"]
    texts = set()
    for i in range(20):
        s.set_params({"k1": 3.0 if i % 2 == 0 else k1})
        _settle(qtbot)
        texts.add(legend.text())
        assert legend.height() == pinned
    assert len(texts) == 2 and any("left the top" in t for t in texts)
    assert pinned < 3 * one
    w.close()


@pytest.mark.parametrize("size", [(1024, 768), (1280, 800)])
def test_codeledgers_legend_keeps_the_table_six_rows_and_every_entry_in_sight(
        qtbot: QtBot, styled: object, size: tuple[int, int]) -> None:
    w = _window(qtbot, size, "code-repo", "codeledger")
    legend, view = w.ranked.legend, w.ranked.view
    lines, need = _laid_out(legend, legend.width())
    assert lines <= 3
    assert legend.height() >= need, (legend.width(), legend.height(), need)  # every line
    qtbot.waitUntil(lambda: legend.geometry().bottom() < view.geometry().top())
    shown = legend.text()
    assert "bundle:" in shown and shown.endswith("hatched:&nbsp;negative</span>")
    # the signals left out are counted, and the tooltip names every one
    s = w.session
    names = signal_labels(s.model, s.result.scores.signals)
    missing = [n for n in names if n.replace(" ", "&nbsp;") not in shown]
    assert missing  # 16 signals do not fit three lines here
    count = re.search(r"\+(\d+)&nbsp;more", shown)
    assert count is not None and int(count.group(1)) == len(missing)
    assert all(n.replace(" ", "&nbsp;") in legend.toolTip() for n in names)
    if size == (1024, 768):  # the table keeps six rows
        assert view.viewport().height() >= 6 * view.rowHeight(0), view.viewport().height()
    # wide, every signal in sight and the legend shorter again
    high = legend.height()
    w.resize(1920, 1000)
    _settle(qtbot)
    assert "more&nbsp;(hover)" not in legend.text()
    assert all(n.replace(" ", "&nbsp;") in legend.text() for n in names)
    assert legend.height() >= _laid_out(legend, legend.width())[1]
    assert legend.height() <= high
    w.resize(*size)
    _settle(qtbot)
    assert legend.height() == high and legend.text() == shown
    w.close()
