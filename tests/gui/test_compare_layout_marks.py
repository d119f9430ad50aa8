"""The ranked lists' ▲new / ▼out are measured against the first list, as the metric table's
Δ and ▲/▼ are (review r48, compare 2): "▲new" beside the third list had meant new against the
second, and a row in a middle list could read "▲new ▼out" at once."""

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


def test_each_list_is_tagged_against_the_first(qtbot: QtBot, window: Any) -> None:
    view = _three(qtbot, window)
    comp, k = view.comp, view.lines.k
    # a query where a document is in the middle list's top k and in neither other's: against
    # the list to the left and to the right it had been "▲new ▼out"
    found = [q for q in range(len(comp.dataset.queries))
             if any(d not in t[0] and d not in t[2] for t in [_tops(comp, q, k)] for d in t[1])]
    assert found, "tea-beir has such a query under these three"
    q = found[0]
    view.show_query(q)
    first, middle, last = _tops(comp, q, k)
    tags = _painted_tags(view)
    for c, top in ((1, middle), (2, last)):
        assert {d: tags[(c, d)] for d in top} == {
            d: ([] if d in first else ["▲new"]) for d in top}
    assert {d: tags[(0, d)] for d in first} == {
        d: (["▼out"] if d not in middle or d not in last else []) for d in first}
    assert all(len(t) <= 1 for t in tags.values())  # never "▲new ▼out" in one row

    # the legend says against what; a row's tooltip which list lacks it
    assert view.lines.marks_keys()[0] == (
        "▲new: not in the top 10 of the first list, defaults · ▼out (in defaults): missing "
        "from another list's top 10")
    gone = next(d for d in first if d not in middle or d not in last)
    lacking = [n for n, top in (("short docs", middle), ("flat", last)) if gone not in top]
    assert view.lines._tooltip(gone, 0).endswith(
        "▼out: not in the top 10 of " + ", ".join(lacking))
    new = next(d for d in middle if d not in first)
    assert view.lines._tooltip(new, 1).endswith("▲new: not in the top 10 of defaults, the "
                                                "first list")


def test_two_lists_say_the_second(qtbot: QtBot, window: Any) -> None:
    view = _three(qtbot, window)
    view.configs.set_checked("flat", False)
    qtbot.waitUntil(lambda: view.comp is not None and len(view.comp.configs) == 2)
    assert view.lines.marks_keys()[-1] == (
        "▲new: not in the first list's top 10 · ▼out (first list): missing from the second "
        "list's top 10")
