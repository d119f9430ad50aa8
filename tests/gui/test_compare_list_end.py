"""The box at a ranked list's foot says how long the list is and what ended it, never
"not returned (8 ranked)", read as "8 were not returned" (review rv3, F12). Counts from
`workbench rank sample_corpora/vault -m vault-search --top 100`: "first crack" (v01) returns
16 notes at the defaults and 11 at min_score 0.3; "water hardness" (v04) returns 1, and none
at min_score 0.3."""

from __future__ import annotations

from typing import Any

from PySide6.QtGui import QFont, QFontMetricsF
from pytestqt.qtbot import QtBot

from tests.gui.conftest import SAMPLES


def _view(qtbot: QtBot, window: Any, params: dict[str, object], name: str) -> Any:
    assert window.open_path(SAMPLES / "vault", model="vault-search")
    s = window.session
    s.recompute()
    s.save_configuration("defaults")
    s.set_params(params)
    s.save_configuration(name)
    view = window.compare_window()
    view.resize(1400, 860)
    window.config_menu.compare.trigger()
    qtbot.waitExposed(view)
    assert view.comp is not None, view.status.text()
    return view


def _query(view: Any, qid: str) -> None:
    view.show_query(list(view.comp.dataset.queries.ids).index(qid))


def test_a_min_score_is_named_where_it_ends_a_list(qtbot: QtBot, window: Any) -> None:
    view = _view(qtbot, window, {"min_score": 0.3}, "ms3")
    lines = view.lines
    _query(view, "v01")
    assert lines.slot_captions(0)[0] == "below top 10 (this list ends at 16)"
    assert lines.slot_captions(1)[0] == "below top 10 (min_score 0.3 ends this list at 11)"
    assert lines.slot_tooltip(1).startswith(
        "ms3 returns 11 results for this query: the others it scored are under min_score 0.3.")
    _query(view, "v04")
    assert lines.slot_captions(0)[0] == "not returned (this list has 1)"
    assert lines.slot_captions(1)[0] == "nothing returned (all under min_score 0.3)"
    gone = lines._tops[0][0]
    assert "ms3: not returned (under min_score 0.3)" in lines._tooltip(gone)
    for c in (0, 1):  # no caption in the old words
        assert not any("ranked)" in t for t in lines.slot_captions(c))


def test_a_limit_is_named_where_it_ends_a_list(qtbot: QtBot, window: Any) -> None:
    view = _view(qtbot, window, {"limit": 5}, "five")
    _query(view, "v01")
    assert view.lines.slot_captions(1) == [
        "not returned (past the limit of 5)", "not returned (this list has 5)", "not returned"]
    tip = view.lines.slot_tooltip(1)
    assert tip.startswith("five returns 5 results for this query: the limit of 5 stops it there.")
    # the first's top 10 that five lacks: the reason said once, then their ids (each id had
    # carried its own "(not returned (past the limit of 5))": dr3 10)
    first = [view.comp.dataset.corpus[d].id for d in view.lines._tops[0]]
    gone = [i for i, d in zip(first, view.lines._tops[0], strict=True)
            if d not in view.lines._tops[1]]
    assert len(gone) == 5
    assert tip.split("\n")[-2:] == [
        "▼ 5 of the top 10 of defaults, the first list, are not in this list's top 10:",
        "not returned (past the limit of 5): " + ", ".join(gone)]
    assert tip.count("past the limit") == 1 and "((" not in tip and "))" not in tip


def test_the_longest_caption_that_fits_is_drawn() -> None:
    from workbench.gui.compare.rank_rows import fitting

    fm = QFontMetricsF(QFont())
    long, short = "not returned (this list has 8)", "not returned"
    assert fitting([long, short], fm.horizontalAdvance(long) + 1, fm) == long
    assert fitting([long, short], fm.horizontalAdvance(long) - 1, fm) == short
    assert fitting([long, short], fm.horizontalAdvance(short) - 1, fm).endswith("…")


def test_where_no_list_returns_anything_each_box_says_so_alone(
        qtbot: QtBot, window: Any, monkeypatch: Any) -> None:
    """Review r48 (dr3, outside the diff): on a query no configuration returns anything
    (vault's v12 at the defaults and at min_score 0.3), "nothing ranked" had been drawn over
    each box's "nothing returned", both in the same row."""
    from PySide6.QtCore import QRectF
    from PySide6.QtGui import QPainter

    import workbench.gui.compare.rank_lines as rank_lines

    view = _view(qtbot, window, {"min_score": 0.3}, "ms3")
    lines, comp = view.lines, view.comp
    empty = [q for q in range(len(comp.dataset.queries))
             if all(int(r.ranking.count[q]) == 0 for r in comp.results)]
    assert empty, "a query nothing returns"
    view.show_query(empty[0])
    drawn: list[tuple[QRectF, str]] = []

    class Recording(QPainter):
        def drawText(self, *args: Any) -> None:  # Qt override, recorded
            if isinstance(args[0], QRectF) and isinstance(args[-1], str):
                drawn.append((QRectF(args[0]), args[-1]))
            super().drawText(*args)

    monkeypatch.setattr(rank_lines, "QPainter", Recording)
    lines.grab()
    boxes = [lines.slot_rect(c) for c in range(2)]
    said = [(rect, text) for rect, text in drawn if any(rect.intersects(b) for b in boxes)]
    assert sorted(text for _, text in said) == ["nothing returned", "nothing returned"]
    assert not any(text == "nothing ranked" for _, text in drawn)
