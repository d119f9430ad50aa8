"""The ranked lists' marks are measured against the first list, as the metric table's Δ and
▲/▼ are (review r48, compare 2): "▲new" beside the third list had meant new against the
second, and a row in a middle list could read "▲new ▼out" at once. What a later list lacks of
the first's top k its own box says (dr1 6): a ▼out in the first list had sat on a flat grey
line to the same rank in the next list, the one that lacked it three columns away."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QRectF
from pytestqt.qtbot import QtBot

from tests.gui.conftest import SAMPLES


def _three(qtbot: QtBot, window: Any) -> Any:
    """tea-beir's bm25 under three configurations, compared at 1,400 × 860."""
    assert window.open_path(SAMPLES / "tea-beir", model="bm25")
    s = window.session
    s.recompute()
    s.save_configuration("defaults")
    s.set_params({"k1": 0.9, "b": 0.9})
    s.save_configuration("short docs")
    s.set_params({"k1": 2.5, "b": 0.1})
    s.save_configuration("flat")
    s.recompute()
    view = window.compare_window()
    view.resize(1400, 860)
    window.config_menu.compare.trigger()
    qtbot.waitExposed(view)
    assert view.comp is not None and [c.name for c in view.comp.configs] == [
        "defaults", "short docs", "flat"]
    return view


def _tops(comp: Any, q: int, k: int) -> list[list[int]]:
    """Each configuration's top k of query q, read from its ranking."""
    out = []
    for r in comp.results:
        n = min(k, int(r.ranking.count[q]))
        out.append([int(d) for d in r.ranking.docs[q, :n] if d >= 0])
    return out


def _painted_tags(view: Any) -> dict[tuple[int, int], list[str]]:
    """(display column, doc) → the tags its row is painted with."""
    lines = view.lines
    left = [lines.row_rect(c, 1).left() for c in range(len(lines.columns))]
    seen: dict[tuple[int, int], list[str]] = {}

    def record(p: Any, rect: QRectF, rank: str, doc: int, tags: list[Any], *rest: Any) -> None:
        seen[(left.index(rect.left()), doc)] = [text for text, _ in tags]

    lines._paint_row = record
    lines.grab()
    return seen


def _painted_boxes(view: Any) -> list[str]:
    """The text each column's box is painted with, left to right."""
    import workbench.gui.compare.rank_lines as rank_lines

    drawn: list[str] = []
    real = rank_lines.paint_slot

    def record(p: Any, rect: QRectF, k: int, font: Any, captions: Any = None) -> None:
        from PySide6.QtGui import QFontMetricsF

        from workbench.gui.compare.rank_rows import fitting

        italic = type(font)(font)
        italic.setItalic(True)
        drawn.append(fitting(captions or [f"below top {k}"], rect.width() - 8,
                             QFontMetricsF(italic)))
        real(p, rect, k, font, captions)

    rank_lines.paint_slot = record
    try:
        view.lines.grab()
    finally:
        rank_lines.paint_slot = real
    return drawn


def test_each_list_is_tagged_against_the_first(qtbot: QtBot, window: Any) -> None:
    view = _three(qtbot, window)
    comp, k = view.comp, view.lines.k
    # a query where a document is in the middle list's top k and in neither other's: against
    # the list to the left and to the right it had been "▲new ▼out"
    # (and where both later lists lack some of the first's, for their boxes)
    found = [q for q in range(len(comp.dataset.queries))
             for t in [_tops(comp, q, k)]
             if any(d not in t[0] and d not in t[2] for d in t[1])
             and not set(t[0]) <= set(t[1]) and not set(t[0]) <= set(t[2])]
    assert found, "tea-beir has such a query under these three"
    q = found[0]
    view.show_query(q)
    first, middle, last = _tops(comp, q, k)
    tags = _painted_tags(view)
    for c, top in ((1, middle), (2, last)):
        assert {d: tags[(c, d)] for d in top} == {
            d: ([] if d in first else ["▲new"]) for d in top}
    assert {d: tags[(0, d)] for d in first} == {d: [] for d in first}  # no ▼out there
    assert all(len(t) <= 1 for t in tags.values())  # never "▲new ▼out" in one row

    # each later list's box says which of the first's top 10 it lacks, by id
    ids = [comp.dataset.corpus[d].id for d in first]
    lacking = [[i for d, i in zip(first, ids, strict=True) if d not in top]
               for top in (middle, last)]
    assert lacking[0] and lacking[1], "both lists lack some of the first's top 10 here"
    boxes = _painted_boxes(view)
    assert boxes[0] == "below top 10"
    for box, gone in zip(boxes[1:], lacking, strict=True):
        assert f"▼ {len(gone)} of defaults' top 10 out" in box
        named = box.split(" out: ")[1].removesuffix(", …").split(", ") if " out: " in box \
            else []
        assert named == gone[:len(named)]  # whole ids, the first's order, as many as fit
    tip = view.lines.slot_tooltip(1)
    assert (f"▼ {len(lacking[0])} of the top 10 of defaults, the first list, "
            f"{'is' if len(lacking[0]) == 1 else 'are'} not in this list's top 10:") in tip
    # each by where it is in this list: its rank below the top 10, or why not returned
    said = tip.split("this list's top 10:\n")[1].split("\n")
    for i in lacking[0]:
        assert any(f" {i} (rank " in line or line.endswith(f" {i}") or f" {i}, " in line
                   for line in said), i
    assert all(line.startswith(("below its top 10: ", "not returned")) for line in said)

    # the legend says against what; a row's tooltip which list lacks it
    assert view.lines.marks_keys()[0] == (
        "against the first list, defaults: ▲new not in its top 10 · ▼ in a box: its top 10 "
        "missing from that list")
    gone = next(d for d in first if d not in middle or d not in last)
    names = [n for n, top in (("short docs", middle), ("flat", last)) if gone not in top]
    assert view.lines._tooltip(gone, 0).endswith(
        "not in the top 10 of " + ", ".join(names)
        + (" (▼ in its box)" if len(names) == 1 else " (▼ in their boxes)"))
    new = next(d for d in middle if d not in first)
    assert view.lines._tooltip(new, 1).startswith(comp.dataset.corpus[new].id)
    assert "\n▲new: not in the top 10 of defaults, the first list (there at rank " in \
        view.lines._tooltip(new, 1)


def test_a_rows_tooltip_says_where_its_line_comes_from(qtbot: QtBot, window: Any) -> None:
    """Review r48 (dr1 6): in the third list a row's line comes from the second, its tag from
    the first. A ▲new row whose line starts at a rank of the second, and an untagged one
    whose line rises out of the second's box, each say both."""
    view = _three(qtbot, window)
    comp, k = view.comp, view.lines.k
    corpus = comp.dataset.corpus
    seen = {"new from a rank": False, "untagged from the box": False}
    for q in range(len(comp.dataset.queries)):
        first, middle, last = _tops(comp, q, k)
        view.show_query(q)
        for d in last:
            said = view.lines._tooltip(d, 2).split("\n")[-1]
            if d not in first and d in middle:
                seen["new from a rank"] = True
                assert said == (f"▲new: not in the top 10 of defaults, the first list; in "
                                f"short docs, to the left, at rank {middle.index(d) + 1}")
            elif d in first and d not in middle:
                seen["untagged from the box"] = True
                assert said.startswith(f"no tag: in the top 10 of defaults, the first list, "
                                       f"at rank {first.index(d) + 1}; in short docs, to the "
                                       "left, ")
                assert ("below its top 10" in said or "not returned" in said), said
            elif d in first and d in middle:
                assert not said.startswith(("▲new", "no tag")), corpus[d].id
    assert all(seen.values()), seen


def test_two_lists_say_the_second(qtbot: QtBot, window: Any) -> None:
    view = _three(qtbot, window)
    view.configs.set_checked("flat", False)
    qtbot.waitUntil(lambda: view.comp is not None and len(view.comp.configs) == 2)
    assert view.lines.marks_keys()[-1] == "against the first list: ▲new · ▼ in a box"
    assert view.lines.marks(0) == {}


def test_a_box_words_what_a_list_lacks_to_fit() -> None:
    from workbench.gui.compare.list_end import out_captions

    ends = ["below top 10 (this list ends at 16)", "below top 10"]
    out = out_captions(10, "defaults", ["d100", "d032"], ends)
    assert out == [
        "below top 10 (this list ends at 16) · ▼ 2 of defaults' top 10 out: d100, d032",
        "below top 10 · ▼ 2 of defaults' top 10 out: d100, d032",
        "▼ 2 of defaults' top 10 out: d100, d032",
        "▼ 2 of defaults' top 10 out: d100, …",
        "▼ 2 of defaults' top 10 out",
        "▼ 2 of the first's top 10 out",
        "▼ 2 out"]
    assert out_captions(10, "flat", [], ends) == []
    # a list that ended early says so before any id: its lines go to documents not returned
    short = out_captions(10, "flat", ["d1", "d2"], ["not returned (this list has 4)",
                                                    "not returned"])
    assert short.index("not returned · ▼ 2 of flat's top 10 out") < short.index(
        "▼ 2 of flat's top 10 out: d1, …")
