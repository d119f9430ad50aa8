"""What a newcomer can hover (reviewer A, F6): every metric card says what its metric means
(the report's one-line meanings), and so do the query list's and the ranked table's column
headers; and what they can read at 1,280 × 800 (F12): the query list's ids whole where the
list has room, the metric strip's hint whole on codeledger."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from tests.conftest import SAMPLES
from workbench.gui.charts._standalone import open_session
from workbench.gui.elided import TEXT_MARGIN, elide_path
from workbench.gui.metric_strip import FIGURES_TIP, MetricStrip
from workbench.gui.query_list import QueryList
from workbench.gui.ranked_table import COLUMNS, RankedTable

_H = Qt.Orientation.Horizontal
_TIP = Qt.ItemDataRole.ToolTipRole


def _strip(qtbot: QtBot, folder: str, model: str | None = None) -> MetricStrip:
    s = open_session(SAMPLES / folder, model)
    strip = MetricStrip(s, defer_ms=0)
    qtbot.addWidget(strip)
    strip.resize(1400, 80)
    strip.show()
    qtbot.waitExposed(strip)
    return strip


def test_each_metric_card_says_what_its_metric_means(qtbot: QtBot) -> None:
    # the five cards had no tooltip at all (the cases' and bundle cards had)
    strip = _strip(qtbot, "tea-beir", "bm25")
    tips = {c.name.text(): c.toolTip() for c in strip.cards}
    assert list(tips) == ["nDCG@10", "MRR@10", "P@10", "R@10", "R@100"]
    assert tips["nDCG@10"].startswith("nDCG@10: how high the relevant documents sit in the "
                                      "top 10, graded")
    assert "1 / the rank of the first relevant document within the top 10" in tips["MRR@10"]
    assert "the relevant documents in the top 10, divided by 10 always" in tips["P@10"]
    assert "relevant documents found in the top 10" in tips["R@10"]
    assert "relevant documents found in the top 100" in tips["R@100"]
    strip.session.set_k(5)  # the meaning follows k
    assert "in the top 5, graded" in strip.cards[0].toolTip()


def test_cards_without_judgments_keep_their_own_tooltip(qtbot: QtBot) -> None:
    strip = _strip(qtbot, "decisions", "decision-memory")
    assert all(c.toolTip() == FIGURES_TIP for c in strip.cards)


def test_bundle_cards_say_what_they_measure(qtbot: QtBot) -> None:
    strip = _strip(qtbot, "code-repo", "codeledger")
    recall = strip.extra_cards["bundle_recall"].toolTip()
    assert recall.startswith("bundle recall: ") and "reported by the model" in recall
    assert len(recall) > len("bundle recall:  — reported by the model, mean over the judged "
                             "queries")  # a meaning, not the name alone


def test_query_list_headers_have_tooltips(qtbot: QtBot) -> None:
    s = open_session(SAMPLES / "tea-beir", "bm25")
    ql = QueryList(s)
    qtbot.addWidget(ql)
    m = ql.model
    tips = [m.headerData(c, _H, _TIP) for c in range(m.columnCount())]
    assert all(isinstance(t, str) and t for t in tips)
    assert tips[2].startswith("nDCG@10: how high the relevant documents sit in the top 10")
    assert "baseline" in tips[3]


def test_ranked_table_headers_have_tooltips(qtbot: QtBot) -> None:
    s = open_session(SAMPLES / "tea-beir", "bm25")
    table = RankedTable(s)
    qtbot.addWidget(table)
    m = table.model
    tips = {name: m.headerData(c, _H, _TIP) for c, name in enumerate(COLUMNS)}
    # rank, id, title and score had none
    assert all(isinstance(t, str) and t for t in tips.values()), tips
    assert "score" in tips["score"] and "place in the ranking" in tips["rank"]


def test_word_ids_are_whole_beside_a_wide_query_column(qtbot: QtBot, styled: object) -> None:
    # decisions at 1,280 × 800 (a 304 px list, no judgments): "turn-10" showed as "tu…10"
    # with 230 px of query text beside it; the column was a px short of the elider's margins
    s = open_session(SAMPLES / "decisions", "decision-memory")
    ql = QueryList(s)
    qtbot.addWidget(ql)
    ql.resize(304, 400)
    ql.show()
    qtbot.waitExposed(ql)
    v = ql.view
    fm = v.fontMetrics()
    room = v.columnWidth(0) - 2 * TEXT_MARGIN
    assert s.dataset is not None
    cut = [q.id for q in s.dataset.queries if elide_path(q.id, fm, room) != q.id]
    assert cut == []
    assert v.columnWidth(1) > 150  # the text keeps its room


def test_the_pin_hint_is_whole_on_codeledger_at_1280(qtbot: QtBot, styled: object) -> None:
    # seven cards leave ~210 px: "pin a baseline (Ctrl+B)" lost "to compare"
    from workbench.gui.main_window import MainWindow

    w = MainWindow(synchronous=True, restore=False)
    qtbot.addWidget(w)
    assert w.open_path(SAMPLES / "code-repo")
    w.resize(1280, 800)
    w.show()
    qtbot.waitExposed(w)
    line = w.metrics.comparison
    # laid out: less room than the widest test line (where the short text had been chosen)
    qtbot.waitUntil(lambda: line.width() < line.wide)
    assert "pin a baseline" in line.text() and "to compare" in line.text()
    w.resize(1920, 1080)
    qtbot.waitUntil(lambda: line.text() == line.texts[0])  # one line where it fits
    w.close()
