"""The query list at laptop widths (layout review, item 3; diff review dr2 2, 3, 4, 9 and the
list's sideways scroll; dr3 1 and 7). At 1,024 px code-repo's commit ids read "c4…fc" and its
queries were cut to about nine characters beside an nDCG@10 column of 80 px. An id shows whole
where it fits; where a commit-like id ("c" and hex, or twelve hex digits or more) must be cut
it keeps the start that tells it apart from the dataset's other ids, its "c" and seven hex
digits at least, and "…" (cut with no mark, "c885591b" read as an id the data lacks); an id of
eight characters or fewer is cut only where the query's text needs the room. The query's text
keeps about ten characters, the sort arrow's room included. The metric's column is as wide as
its heading or values (and the sort arrow) need; with a baseline pinned in a narrow list it
gives way to Δ, headed "Δ nDCG", so nothing scrolls sideways, unless the list is sorted by it:
then Δ gives way."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import SAMPLES
from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QFontMetrics
from PySide6.QtWidgets import QStyle, QStyleOptionViewItem
from pytestqt.qtbot import QtBot

from workbench.gui.elided import TEXT_MARGIN
from workbench.gui.main_window import MainWindow
from workbench.gui.query_list import short_ids


def test_a_commit_like_id_keeps_the_start_that_tells_it_apart() -> None:
    # code-repo's ids: "c" and ten hex digits; the "c" and seven kept
    assert short_ids(["c885591bbb0", "c454849a12f"]) == {
        "c885591bbb0": "c885591b", "c454849a12f": "c454849a"}
    # two sharing their first eight: each one more
    assert short_ids(["c885591bbb0", "c885591bcf0", "c454849a12f"]) == {
        "c885591bbb0": "c885591bb", "c885591bcf0": "c885591bc", "c454849a12f": "c454849a"}
    # a whole commit hash: seven hex digits
    sha = "da4b9237bacccdf19c0760cab7aec4a8359010b0"
    assert short_ids([sha, "77de68daecd823babbb58edb1c8e14d7106e83bb"])[sha] == "da4b923"
    # another id among them (a typed one, a word) does not switch it off
    assert short_ids(["c885591bbb0", "typed-1", "idempotency-key"]) == {
        "c885591bbb0": "c885591b"}
    # eight characters or fewer: never cut; numbers and short hex are not commits
    assert short_ids(["deadbeef", "cafebabe", "c0ffee00"]) == {}
    assert short_ids(["123456789012", "123456789013"]) == {}
    assert short_ids(["abc1234def"]) == {}  # ten hex digits without a "c": not commit-like


def _window(qtbot: QtBot, size: tuple[int, int], path: Path = SAMPLES / "code-repo",
            model: str | None = "codeledger") -> MainWindow:
    w = MainWindow(synchronous=True, restore=False)
    qtbot.addWidget(w)
    w.resize(*size)
    w.show()
    qtbot.waitExposed(w)
    assert w.open_path(path, model=model) if model else w.open_path(path)
    qtbot.wait(20)  # the layout settles
    return w


def _shown(w: MainWindow, row: int) -> str:
    view = w.queries.view
    opt = QStyleOptionViewItem()
    opt.initFrom(view)  # the view's font, as it paints
    index = w.queries.proxy.index(row, 0)
    opt.rect = view.visualRect(index)
    view.itemDelegateForColumn(0).initStyleOption(opt, index)
    return opt.text


def _heading_width(w: MainWindow, text: str) -> int:
    font = QFont(w.queries.view.horizontalHeader().font())
    font.setWeight(QFont.Weight.DemiBold)
    return QFontMetrics(font).horizontalAdvance(text)


def _small_width(w: MainWindow, text: str) -> int:
    """A heading's width in the narrow list's small font (`small_heading_font`)."""
    from workbench.gui.query_list import small_heading_font

    return QFontMetrics(small_heading_font(w.queries.view.horizontalHeader().font())) \
        .horizontalAdvance(text)


def _no_sideways_scroll(w: MainWindow) -> None:
    view = w.queries.view
    assert sum(view.columnWidth(c) for c in range(4) if not view.isColumnHidden(c)) \
        <= view.viewport().width(), [view.columnWidth(c) for c in range(4)]
    assert not view.horizontalScrollBar().isVisible()


def _assert_cut_ids_end_in_an_ellipsis(w: MainWindow) -> list[str]:
    """Each id shown whole, or its start and "…" (never a start that reads as a whole id);
    the whole id in its tooltip."""
    ids = [q.id for q in w.session.dataset.queries]
    rows = w.queries.proxy.rowCount()
    shown = []
    for row in range(rows):
        qid = w.queries.proxy.index(row, 0).data(Qt.ItemDataRole.ToolTipRole)
        text = _shown(w, row)
        assert qid in ids
        assert text == qid or (text.endswith("…") and qid.startswith(text[:-1])), (qid, text)
        shown.append(text)
    return shown


def _set_id_width(w: MainWindow, text: str) -> None:
    """The id column just wide enough for `text` in its cell (its margins, and the grid's
    line and a px as the list's own widths keep)."""
    view = w.queries.view
    view.setColumnWidth(0, view.fontMetrics().horizontalAdvance(text) + 2 * TEXT_MARGIN + 2)


def test_a_cut_commit_id_keeps_the_start_that_tells_it_apart_and_an_ellipsis(
        qtbot: QtBot, styled: object) -> None:
    w = _window(qtbot, (1280, 800))
    ids = [q.id for q in w.session.dataset.queries]
    assert "c885591bbb0" in ids
    row = ids.index("c885591bbb0")
    # room for its "c", seven hex digits and "…", not for the whole id
    _set_id_width(w, "c885591b…")
    assert _shown(w, row) == "c885591b…"
    assert not any(o.startswith("c885591b") for o in ids if o != "c885591bbb0")
    # two px short of the whole id (dr3 7: "c885591b" read as an id, one the data lacks)
    _set_id_width(w, "c885591bbb0")
    w.queries.view.setColumnWidth(0, w.queries.view.columnWidth(0) - 2)
    assert _shown(w, row) == "c885591b…"
    # narrower still: cut further, still with its "…"
    _set_id_width(w, "c885…")
    assert _shown(w, row) == "c885…"
    _set_id_width(w, "c885591bbb0")
    assert _shown(w, row) == "c885591bbb0"
    w.close()


@pytest.mark.parametrize("size", [(1024, 768), (1280, 800)])
def test_commit_ids_whole_or_ending_in_an_ellipsis_and_the_text_keeps_its_room(
        qtbot: QtBot, styled: object, size: tuple[int, int]) -> None:
    """At 1,280 × 800, with a typed query and a baseline, sorted by nDCG, "c885591b" and
    "c4040e03" had stood among whole ids (the column 2 px short, no mark); at 1,024 the sort
    arrow's room had come out of the query's text: 56 px, "que…", "Pur…" (dr3 1 and 7)."""
    w = _window(qtbot, size)
    view = w.queries.view
    fm = view.fontMetrics()
    text_least = fm.horizontalAdvance("x" * 10)

    def check() -> None:
        qtbot.wait(10)
        _assert_cut_ids_end_in_an_ellipsis(w)
        _no_sideways_scroll(w)
        scroll = view.verticalScrollBar().isVisible()
        # ten characters of text; eight with a scroll bar and a sort arrow in 205 px, where
        # the ids are down to three characters
        assert view.columnWidth(1) >= (text_least if not scroll else text_least * 8 // 10), (
            [view.columnWidth(c) for c in range(4)], scroll)

    check()
    view.sortByColumn(2, Qt.SortOrder.DescendingOrder)
    check()
    w.queries.ask_edit.setText("how is the cache invalidated")
    w.queries._on_ask()
    check()
    w.session.pin_baseline()
    check()
    w.session.clear_baseline()
    check()
    view.sortByColumn(1, Qt.SortOrder.AscendingOrder)
    check()
    if size == (1280, 800):  # room enough: every id whole
        assert [_shown(w, r) for r in range(w.queries.proxy.rowCount())] == [
            w.queries.proxy.index(r, 0).data() for r in range(w.queries.proxy.rowCount())]
    w.close()


def test_sorted_by_the_metric_its_column_is_the_one_kept(qtbot: QtBot, styled: object) -> None:
    """At 1,024 × 768 pinned, a click on "nDCG" had hidden that very column (its sort arrow's
    room tipped the list into narrow): the rows in nDCG order under a column not shown, no
    arrow anywhere. And with the metric's column left out the number column was headed "Δ"
    alone, beside the ranked table's own Δ of a rank (dr3 1)."""
    w = _window(qtbot, (1024, 768), SAMPLES / "tea-beir", None)
    view, model = w.queries.view, w.queries.model
    w.session.pin_baseline()
    qtbot.wait(10)
    header = view.horizontalHeader()
    assert not view.isColumnHidden(2) and not view.isColumnHidden(3)  # both, just
    assert model.headerData(3, Qt.Orientation.Horizontal) == "Δ"
    view.sortByColumn(2, Qt.SortOrder.DescendingOrder)
    qtbot.wait(10)
    # the sorted column in sight (its heading in the small font keeps its k, rA 10: here
    # both still fit; code-repo's list below is where Δ gives way)
    assert not view.isColumnHidden(2) and not view.isColumnHidden(3)
    assert header.sortIndicatorSection() == 2
    s = w.session
    value = s.result.per_query["ndcg@10"]
    row = w.queries.proxy.mapToSource(w.queries.proxy.index(0, 2)).row()
    assert w.queries.proxy.index(0, 2).data() == f"{value[row]:.3f}"
    assert model.headerData(2, Qt.Orientation.Horizontal) == "nDCG@10"
    _no_sideways_scroll(w)
    # by Δ, and the baseline cleared: no Δ to sort by, the data's order again
    view.sortByColumn(3, Qt.SortOrder.AscendingOrder)
    qtbot.wait(10)
    assert not view.isColumnHidden(3)
    w.session.clear_baseline()
    qtbot.wait(10)
    assert view.isColumnHidden(3) and not view.isColumnHidden(2)
    assert header.sortIndicatorSection() == -1
    assert [w.queries.proxy.index(r, 0).data() for r in range(3)] == ["q01", "q02", "q03"]
    w.close()
    # code-repo's list, 205 px: the metric's column gives way to Δ, which names it
    w = _window(qtbot, (1024, 768))
    view, model = w.queries.view, w.queries.model
    header = view.horizontalHeader()
    w.session.pin_baseline()
    qtbot.wait(10)
    assert view.isColumnHidden(2) and not view.isColumnHidden(3)
    assert model.headerData(3, Qt.Orientation.Horizontal) == "Δ nDCG@10"
    assert view.columnWidth(3) >= _small_width(w, "Δ nDCG@10") + 4
    # sorted by Δ: the arrow clear of the heading
    view.sortByColumn(3, Qt.SortOrder.AscendingOrder)
    qtbot.wait(10)
    arrow = header.style().pixelMetric(QStyle.PixelMetric.PM_HeaderMarkSize, None, header)
    assert view.columnWidth(3) >= _small_width(w, "Δ nDCG@10") + 4 + arrow
    _no_sideways_scroll(w)
    # by the metric: its column shows, Δ's gives way, "Δ" alone again where it shows
    view.sortByColumn(2, Qt.SortOrder.DescendingOrder)
    qtbot.wait(10)
    assert not view.isColumnHidden(2) and view.isColumnHidden(3)
    assert model.headerData(3, Qt.Orientation.Horizontal) == "Δ"
    assert view.columnWidth(1) >= view.fontMetrics().horizontalAdvance("x" * 10)
    _no_sideways_scroll(w)
    w.close()


@pytest.mark.parametrize("size", [(1280, 800), (1600, 1000)])
def test_wider_commit_ids_and_the_metric_heading_are_whole(qtbot: QtBot, styled: object,
                                                           size: tuple[int, int]) -> None:
    w = _window(qtbot, size)
    view = w.queries.view
    assert w.queries.model.headerData(2, Qt.Orientation.Horizontal) == "nDCG@10"
    assert view.columnWidth(2) >= _heading_width(w, "nDCG@10") + 12
    ids = [q.id for q in w.session.dataset.queries]
    assert [_shown(w, row) for row in range(len(ids))] == ids  # c885591bbb0 whole
    assert view.columnWidth(1) >= view.fontMetrics().horizontalAdvance("x" * 14)
    w.close()


def _copy_with_ids(src: Path, dst: Path, new_id: dict[str, str]) -> Path:
    """A copy of the BEIR folder `src` with its query ids renamed."""
    dst.mkdir()
    shutil.copy(src / "corpus.jsonl", dst)
    lines = (src / "queries.jsonl").read_text().splitlines()
    queries = [json.loads(line) for line in lines]
    with open(dst / "queries.jsonl", "w") as f:
        for q in queries:
            f.write(json.dumps({**q, "_id": new_id[q["_id"]]}) + "\n")
    (dst / "qrels").mkdir()
    rows = (src / "qrels" / "test.tsv").read_text().splitlines()
    body = ["\t".join([new_id[r.split("\t")[0]], *r.split("\t")[1:]]) for r in rows[1:]]
    (dst / "qrels" / "test.tsv").write_text("\n".join([rows[0], *body]) + "\n")
    return dst


WORDS = ["deadbeef", "cafebabe", "facade00", "decade12", "baddcafe", "feedface", "c0ffee00",
         "acce55ed", "beefcafe", "fadedbed", "deafbead", "bedabb1e", "5ca1ab1e", "0ddba11f",
         "abadcafe", "effaced0", "defaced0", "dabbed00", "accede00", "b0a710ad", "decaf000",
         "befa11ed", "00c0ffee", "babe1234", "cab0ba11"]


def test_ids_of_eight_hex_digits_are_never_cut(qtbot: QtBot, styled: object,
                                               tmp_path: Path) -> None:
    """tea-beir's queries renamed deadbeef, cafebabe …: they had read "deadbee", "cafebab",
    ids the dataset does not have, in a column with room for all eight characters."""
    src = SAMPLES / "tea-beir"
    old = [json.loads(line)["_id"] for line in (src / "queries.jsonl").read_text().splitlines()]
    assert len(old) == len(WORDS)
    data = _copy_with_ids(src, tmp_path / "hexwords", dict(zip(old, WORDS, strict=True)))
    for size in ((1024, 768), (1280, 800)):
        w = _window(qtbot, size, data, None)
        assert [_shown(w, row) for row in range(len(WORDS))] == WORDS
        w.session.pin_baseline()
        qtbot.wait(20)
        assert [_shown(w, row) for row in range(len(WORDS))] == WORDS
        _no_sideways_scroll(w)
        w.close()


@pytest.mark.parametrize(("sample", "model"), [("code-repo", "codeledger"),
                                               ("decisions-eval", None), ("memories", None),
                                               ("tea-beir", None)])
def test_at_1024_with_a_baseline_the_list_does_not_scroll_sideways(
        qtbot: QtBot, styled: object, sample: str, model: str | None) -> None:
    """Pinned at 1,024 × 768 the list had scrolled sideways, its Δ column half out of sight;
    where the four columns do not fit, the metric's gives way, its value in Δ's tooltip."""
    w = _window(qtbot, (1024, 768), SAMPLES / sample, model)
    view = w.queries.view
    w.session.pin_baseline()
    qtbot.wait(20)
    assert not view.isColumnHidden(3)  # Δ in sight
    _no_sideways_scroll(w)
    assert view.columnWidth(1) >= view.fontMetrics().horizontalAdvance("x" * 5)
    if view.isColumnHidden(2):
        s = w.session
        value = s.result.per_query["ndcg@10"][0]
        base = s.baseline.result.per_query["ndcg@10"][0]
        tip = w.queries.proxy.index(0, 3).data(Qt.ItemDataRole.ToolTipRole)
        assert f"nDCG@10 {value:.3f}" in tip and f"{base:.3f}" in tip
        assert "left out" in w.queries.model.headerData(3, Qt.Orientation.Horizontal,
                                                        Qt.ItemDataRole.ToolTipRole)
    w.close()


def test_sorted_by_the_metric_its_heading_keeps_clear_of_the_arrow(qtbot: QtBot,
                                                                  styled: object) -> None:
    """The ▾ had been drawn over the "G" of "nDCG" (and the "0" of "nDCG@10")."""
    w = _window(qtbot, (1600, 1000), SAMPLES / "tea-beir", None)
    view = w.queries.view
    header = view.horizontalHeader()
    style = header.style()
    arrow = style.pixelMetric(QStyle.PixelMetric.PM_HeaderMarkSize, None, header)
    before = view.columnWidth(2)
    view.sortByColumn(2, Qt.SortOrder.DescendingOrder)
    qtbot.wait(10)
    model = w.queries.model
    heading = model.headerData(2, Qt.Orientation.Horizontal)
    # the heading at the left, the arrow at the right, room for both
    align = model.headerData(2, Qt.Orientation.Horizontal, Qt.ItemDataRole.TextAlignmentRole)
    assert align is not None and Qt.AlignmentFlag(align) & Qt.AlignmentFlag.AlignLeft
    assert view.columnWidth(2) >= _heading_width(w, heading) + 12 + arrow, (
        view.columnWidth(2), before)
    _no_sideways_scroll(w)
    view.sortByColumn(1, Qt.SortOrder.AscendingOrder)  # by another: centred again
    qtbot.wait(10)
    assert model.headerData(2, Qt.Orientation.Horizontal, Qt.ItemDataRole.TextAlignmentRole) \
        is None
    assert view.columnWidth(2) == before
    w.close()
