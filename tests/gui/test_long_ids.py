"""Long ids and query texts: ids that share a long beginning (paths) are elided in their middle
in the ranked table, the contribution chart and Movers, so their ends tell them apart; the
query line above the ranked table is elided at the window's edge, the whole in its tooltip."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from pytestqt.qtbot import QtBot

from tests.conftest import SAMPLES
from workbench.gui.charts._base import elide_middle
from workbench.gui.elided import MiddleElided
from workbench.gui.main_window import MainWindow

PREFIX = "projects/very/deeply/nested/folder/structure/subsystem"


def _long_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "long"
    (folder / "qrels").mkdir(parents=True)
    docs = [{"_id": f"{PREFIX}/notes_{i}.md", "title": f"Note {i}",
             "text": f"oolong tea harvest {'green ' * i}"} for i in range(12)]
    (folder / "corpus.jsonl").write_text("\n".join(json.dumps(d) for d in docs) + "\n")
    text = "How is oolong tea harvested, " + "and in great detail, " * 12 + "by whom?"
    (folder / "queries.jsonl").write_text(json.dumps({"_id": "q1", "text": text}) + "\n")
    (folder / "qrels" / "test.tsv").write_text(
        f"query-id\tcorpus-id\tscore\nq1\t{PREFIX}/notes_3.md\t1\n")
    return folder


def test_elide_middle_keeps_both_ends() -> None:
    assert elide_middle("short", 10) == "short"
    cut = elide_middle(f"{PREFIX}/notes_11.md", 24)
    assert len(cut) == 24 and cut.startswith("projects/ve") and cut.endswith("notes_11.md")
    assert elide_middle(f"{PREFIX}/notes_10.md", 24) != elide_middle(f"{PREFIX}/notes_11.md", 24)


def test_long_ids_and_query_in_the_window(qtbot: QtBot, tmp_path: Path) -> None:
    w = MainWindow(synchronous=True, restore=False)
    qtbot.addWidget(w)
    assert w.open_path(_long_folder(tmp_path), "bm25")
    w.resize(1300, 900)
    w.show()
    qtbot.waitExposed(w)
    view = w.ranked.view
    assert isinstance(view.itemDelegateForColumn(2), MiddleElided)
    assert not isinstance(view.itemDelegateForColumn(3), MiddleElided)  # titles: at the end
    chart = w.charts.panels["ContributionChart"]
    labels = [text for _, text in chart._top_labels or []]
    assert labels and all(t.endswith(".md") and "…" in t for t in labels)
    summary = w.ranked.summary
    assert summary.text().endswith("…") or "…" in summary.text()
    assert "by whom?" in summary.toolTip()  # the whole query, past the 140-character clip
    w.close()


def test_a_path_keeps_its_file_name(qapp: object) -> None:
    """Cut in its middle, "roasting/first-crack.md" read "roa….md", four rows alike."""
    from PySide6.QtGui import QFont, QFontMetrics

    from workbench.gui.elided import elide_path

    fm = QFontMetrics(QFont())
    path = "roasting/first-crack.md"
    assert elide_path(path, fm, fm.horizontalAdvance(path)) == path
    assert elide_path(path, fm, fm.horizontalAdvance("…/first-crack.md")) == "…/first-crack.md"
    deep = "roasting/beans/notes.md"
    assert elide_path(deep, fm, fm.horizontalAdvance("…/beans/notes.md")) == "…/beans/notes.md"
    short = elide_path(path, fm, fm.horizontalAdvance("roa….md"))
    assert "…" in short and fm.horizontalAdvance(short) <= fm.horizontalAdvance("roa….md")
    assert elide_path("archived-other", fm, 40).count("…") == 1  # no folder: its middle


def test_a_path_too_long_for_its_file_name_keeps_the_file_names_ends(qapp: object) -> None:
    """rA 12: at 1,024 px "equipment/scales-and-timers.md" read "equip…rs.md", the folder's
    start kept and the file name lost; and the Contributions axis read "equipment/sc…d-timers
    .md" in 24 characters where "…/scales-and-timers.md" fits."""
    from PySide6.QtGui import QFont, QFontMetrics

    from workbench.gui.elided import elide_path, elide_path_chars

    fm = QFontMetrics(QFont())
    path = "equipment/scales-and-timers.md"
    room = fm.horizontalAdvance("equip…rs.md")
    short = elide_path(path, fm, room)
    assert short.startswith("…/") and fm.horizontalAdvance(short) <= room  # dG 4
    assert short[2:].count("…") == 1
    head, tail = short[2:].split("…")
    assert "scales-and-timers.md".startswith(head) and head.startswith("s"), short
    assert "scales-and-timers.md".endswith(tail), short
    assert elide_path_chars(path, 24) == "…/scales-and-timers.md"
    # dG 4: a folder dropped is marked, the file name cut in its middle to leave room for it
    assert elide_path_chars("roasting/degassing-and-resting.md", 24) == "…/degassing-a…resting.md"
    assert elide_path_chars("brewing/bloom.md", 12) == "…/bloom.md"
    assert elide_path_chars("glossary.md", 24) == "glossary.md"
    assert elide_path_chars("archived-other-ids-long-enough", 24) == "archived-oth…long-enough"


def test_a_path_that_drops_its_folder_says_so(qapp: object) -> None:
    """dG 4: at 1,024 px "brewing/bloom.md" showed as a bare "bloom.md", read as a note at
    the top level like "glossary.md" under it: a dropped folder keeps its "…/"."""
    from PySide6.QtGui import QFont, QFontMetrics

    from workbench.gui.elided import elide_path

    fm = QFontMetrics(QFont())
    for path, name in (("brewing/bloom.md", "bloom.md"),
                       ("equipment/scales-and-timers.md", "scales-and-timers.md")):
        for room in (fm.horizontalAdvance(name) + 1, fm.horizontalAdvance("sca….md") + 2):
            shown = elide_path(path, fm, room)
            assert shown.startswith("…/"), (path, room, shown)
            assert fm.horizontalAdvance(shown) <= room, (path, room, shown)
    assert elide_path("glossary.md", fm, fm.horizontalAdvance("glo….md")).count("/") == 0


def test_at_1280_the_bars_give_way_to_the_ids(qtbot: QtBot, styled: object) -> None:
    """At 1,280 px the contributions' bars kept 180 px while the vault's paths were cut to
    "roa….md": the bars give way first (down to a third), the ids whole up to 200 px."""
    from conftest import SAMPLES

    w = MainWindow(synchronous=True, restore=False)
    qtbot.addWidget(w)
    w.resize(1280, 800)
    assert w.open_path(SAMPLES / "vault")
    w.show()
    qtbot.waitExposed(w)
    qtbot.wait(10)
    view = w.ranked.view
    fm = view.fontMetrics()
    assert view.columnWidth(2) >= fm.horizontalAdvance("roasting/first-crack.md") + 8
    assert view.columnWidth(6) >= w.ranked._bar_width // 3
    w.close()


def test_a_gated_row_does_not_set_the_bars_scale(qtbot: QtBot) -> None:
    """memories, q04: the archived m69 (gated, not in the ranking) set the bars' scale with
    its long hatched bar, and the ranked rows' bars shrank to slivers. The scale is the
    ranked rows'; the gated row is drawn on it, clipped to its cell."""
    from conftest import SAMPLES

    from workbench.gui.contribution_bar import bar_extent

    w = MainWindow(synchronous=True, restore=False)
    qtbot.addWidget(w)
    assert w.open_path(SAMPLES / "memories")
    s = w.session
    assert s.dataset is not None
    s.select_query(s.dataset.queries.index["q04"])
    model = w.ranked.model
    gated = [r for r in model.rows if r.rank is None]
    ranked = [r for r in model.rows if r.rank is not None]
    assert gated and ranked
    extents = [bar_extent(r.contributions) for r in ranked]
    lo, hi = min(e[0] for e in extents), max(e[1] for e in extents)
    assert model.scale == (min(lo, 0.0), hi)
    g_lo, g_hi = bar_extent(gated[0].contributions)
    assert g_hi - g_lo > hi - lo  # the gated bar is wider than the scale: clipped
    w.close()


def test_contributions_axis_ends_near_the_longest_bar(qtbot: QtBot, styled: object) -> None:
    """rA 12: vault's scores stop at 1 and v02's longest bar at 0.74, yet the x-axis ran to
    about 1.45, the legend's room kept beside the top row's bar: the legend now sits in the
    corner over the shorter bars, the axis a little past the longest, no bar under it."""
    w = MainWindow(synchronous=True, restore=False)
    qtbot.addWidget(w)
    w.resize(1024, 768)
    w.show()
    qtbot.waitExposed(w)
    assert w.open_path(SAMPLES / "vault")
    s = w.session
    s.select_query(s.dataset.queries.index["v02"])
    chart = w.charts.panels["ContributionChart"]
    w.charts.setCurrentWidget(chart)
    qtbot.wait(50)
    n = int(s.result.ranking.count[s.query])
    totals = s.result.ranking.scores[s.query, :n]
    assert 0.7 < totals.max() <= 1.0
    plot = chart.top_plot.getPlotItem()
    hi = plot.viewRange()[0][1]
    assert totals.max() < hi <= totals.max() * 1.15, (hi, totals.max())
    legend = chart.top_legend
    assert legend.isVisible()
    box = plot.vb.mapSceneToView(legend.sceneBoundingRect()).boundingRect()
    ends = np.maximum(totals, chart.values.clip(min=0).sum(axis=0)[:n])
    for j in range(n):  # a row whose bar reaches the legend's rows ends left of it
        if box.top() <= j + 0.4 and j - 0.4 <= box.bottom():
            assert ends[j] < box.left(), (j, ends[j], box.left())
    w.close()
