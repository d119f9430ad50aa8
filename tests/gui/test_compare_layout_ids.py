"""A ▲new row's id stays readable in a narrow list (review r48, dr3 11): at 1,024 × 768 with
five configurations of tea-beir, tf's row 10 and k1 3 b 0.1's row 8 had read "□ … ▲new", the
id d003 gone, so the one row the tag points at could not be told. The title gives way first,
then the tag shrinks to "▲", and an id too long for the row is cut in its middle, both ends
kept."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QRectF
from PySide6.QtGui import QColor, QFont, QFontMetricsF
from pytestqt.qtbot import QtBot

from tests.gui.conftest import SAMPLES

FIVE = [("flat", {"fields": "text"}), ("tf", {"k1": 1.5, "b": 0.4}),
        ("k1 0.3 b 1", {"k1": 0.3, "b": 1.0}), ("k1 3 b 0.1", {"k1": 3.0, "b": 0.1})]


def test_a_new_rows_id_is_whole_at_1024(qtbot: QtBot, window: Any, styled: Any) -> None:
    from workbench.gui.compare.rank_lines import NEW
    from workbench.gui.compare.rank_rows import Row, row_texts, shown_title, tag_font

    assert window.open_path(SAMPLES / "tea-beir", model="bm25")
    s = window.session
    s.recompute()
    d = dict(s.params)
    s.save_configuration("defaults")
    for name, change in FIVE:
        s.set_params({**d, **change})
        s.save_configuration(name)
    s.set_params(d)
    view = window.compare_window()
    view.resize(1024, 768)
    window.config_menu.compare.trigger()
    qtbot.waitExposed(view)
    assert view.comp is not None and len(view.comp.configs) == 5
    lines, corpus = view.lines, view.comp.dataset.corpus
    assert lines.columns == [0, 1, 2, 3, 4]

    def new_rows() -> list[tuple[str, list[str], str, str]]:
        """Each ▲new row of this query: its id, and its tags, id and title as drawn."""
        out = []
        for c in range(1, 5):
            for rank, doc in enumerate(lines._tops[c], 1):
                if lines.marks(c).get(doc) != NEW:
                    continue
                row = Row(str(rank), corpus[doc], None, False, [(NEW, QColor("green"))],
                          title=shown_title(corpus, corpus[doc]))
                out.append((corpus[doc].id, *row_texts(lines.row_rect(c, rank), row,
                                                       lines._font, lines.font_scale)))
        return out

    for q in range(len(view.comp.dataset.queries)):  # the first query with a ▲new row
        view.show_query(q)
        rows = new_rows()
        if rows:
            break
    assert rows
    sfm = QFontMetricsF(tag_font(lines._font))
    for doc_id, tags, id_text, _title in rows:
        # the id whole and the tag whole: the five lists keep a width that reads their ids,
        # scrolling sideways (r51 1; each had been about 100 px, the tag cut to "▲"; a row too
        # narrow for both: `test_an_id_too_long_for_its_row_keeps_both_ends`)
        assert (id_text, tags) == (doc_id, [NEW]), (q, doc_id)
        assert lines.row_rect(1, 1).width() >= (
            QFontMetricsF(lines._font).horizontalAdvance("000 ■ " + doc_id + " ")
            + sfm.horizontalAdvance(NEW))
    # wider, the tag whole beside the id
    view.resize(1600, 1000)
    qtbot.wait(20)
    assert [(t, i) for _, t, i, _ in new_rows()] == [([NEW], i) for i, *_ in rows]


def test_an_id_too_long_for_its_row_keeps_both_ends() -> None:
    from workbench.core.data import Document
    from workbench.gui.compare.rank_rows import Row, row_texts

    font = QFont()
    fm = QFontMetricsF(font)
    new = [("▲new", QColor("green"))]
    for doc_id, end in (("m44-communication-style", ""),
                        ("journal/2026-03-14-second-crack-dark.md", ".md")):
        row = Row("9", Document(id=doc_id, text=""), None, False, new, title="A long title")
        # room for the rank, the mark and about ten characters
        rect = QRectF(0, 0, fm.horizontalAdvance("000") + 30 + fm.averageCharWidth() * 13, 20)
        tags, id_text, title = row_texts(rect, row, font, 1.0)
        assert tags == ["▲"] and title == ""  # the title gone first, then the tag's word
        name = doc_id.rpartition("/")[2]  # a path: its file name (`elide_id`)
        head, tail = id_text.split("…")  # cut once, in its middle, both ends kept
        assert len(head) >= 2 and len(tail) >= 2 and name.startswith(head) \
            and name.endswith(tail) and tail.endswith(end)
