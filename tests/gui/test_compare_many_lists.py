"""Eight configurations in the compare window (r51 1, rv2 dr2 6): at 1,024 × 768 six of the eight
ranked lists had been drawn, the sixth cut at the window's edge, every id "…" or "t…y"; at
1,920 × 1,080 the ids read "a…y" beside an explain pane of placeholder text 560 px wide. The
explain pane waits folded for a click at every width, and the lists keep a width that reads
their ids, scrolling sideways where they do not all fit: every configuration in reach."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QColor
from pytestqt.qtbot import QtBot

from tests.gui.conftest import SAMPLES

EIGHT = ["defaults", "w_content x0.84", "w_mention x0.76", "w_graph x0.68",
         "w_cochange x0.60", "w_similar x0.52", "w_centrality x0.44", "w_churn x0.36"]


def _eight(qtbot: QtBot, window: Any, size: tuple[int, int], n: int = 8) -> Any:
    """code-repo's codeledger defaults and seven configurations of it, each one weight
    scaled down, compared at `size` (the first `n` of them)."""
    assert window.open_path(SAMPLES / "code-repo", model="codeledger")
    s = window.session
    s.recompute()
    d = dict(s.params)
    s.save_configuration(EIGHT[0])
    for name in EIGHT[1:n]:
        key, factor = name.split(" x")
        s.set_params({**d, key: round(float(d[key]) * float(factor), 3)})
        s.save_configuration(name)
    s.set_params(d)
    view = window.compare_window()
    view.resize(*size)
    window.config_menu.compare.trigger()
    qtbot.waitExposed(view)
    qtbot.wait(20)
    assert view.comp is not None and [c.name for c in view.comp.configs] == EIGHT[:n]
    return view


def _ids(lines: Any) -> list[tuple[str, str]]:
    """Each row's id and the id as drawn, in every list."""
    from workbench.gui.compare.rank_lines import NEW
    from workbench.gui.compare.rank_rows import Row, row_texts, shown_title

    corpus, out = lines.comparison.dataset.corpus, []
    for c, top in enumerate(lines._tops):
        marks = lines.marks(c)
        for rank, doc in enumerate(top, 1):
            tags = [(NEW, QColor("green"))] if marks.get(doc) == NEW else []
            row = Row(str(rank), corpus[doc], None, False, tags,
                      title=shown_title(corpus, corpus[doc]))
            _, id_text, _ = row_texts(lines.row_rect(c, rank), row, lines._font,
                                      lines.font_scale)
            out.append((corpus[doc].id, id_text))
    return out


@pytest.mark.parametrize("size", [(1024, 768), (1920, 1080)])
def test_eight_lists_read_their_ids_and_every_one_is_in_reach(
        qtbot: QtBot, window: Any, styled: Any, size: tuple[int, int]) -> None:
    view = _eight(qtbot, window, size)
    lines = view.lines
    assert view.explain.explained is None
    assert view.top_split.sizes()[1] == 0  # no pane of placeholder text beside the lists
    assert lines.columns == list(range(8))
    ids = _ids(lines)
    assert len(ids) == 80
    # every id whole, or at least twelve of its characters drawn (no "…", "t…y" or "a…y")
    short = [(whole, drawn) for whole, drawn in ids
             if drawn != whole and len(drawn.replace("…", "")) < 12]
    assert short == []
    # every list inside the lists' widget, and the widget's end reachable by its scroll bar
    g = lines._geometry()
    assert g.col_x(7) + g.col_w <= lines.width()
    scroll = view.lines_scroll
    bar = scroll.horizontalScrollBar()
    assert bar.maximum() == max(0, lines.width() - scroll.viewport().width())
    if size[0] == 1024:  # eight do not fit beside the controls: the lists scroll sideways
        assert bar.maximum() > 0 and bar.isVisible()
        bar.setValue(bar.maximum())
        last = lines.mapTo(scroll.viewport(), QPoint(int(g.col_x(7) + g.col_w), 0))
        assert last.x() <= scroll.viewport().width()
        # the legend and the lists whole above the scroll bar (`_fit_lists` counts it)
        assert lines.height() >= lines.sizeHint().height()
    else:
        assert bar.maximum() == 0


def test_the_explain_pane_opens_on_a_click_and_folds_with_the_next_query(
        qtbot: QtBot, window: Any, styled: Any) -> None:
    view = _eight(qtbot, window, (1920, 1080))
    lines = view.lines
    assert view.top_split.sizes()[1] == 0
    rect = lines.row_rect(1, 1)
    qtbot.mouseClick(lines, Qt.MouseButton.LeftButton, pos=rect.center().toPoint())
    assert view.explain.explained is not None and view.top_split.sizes()[1] > 0
    # another query: nothing explained, the pane folded again, the lists its room
    view.show_query((view.lines_query() + 1) % len(view.comp.dataset.queries))
    assert view.explain.explained is None and view.top_split.sizes()[1] == 0
