"""The metric table's ▲/▼ column says what its ↓/↑ count on a bundle's files and tokens rows
(review r48, compare 3): fewer / more, not better / worse, under a head that said ▲/▼."""

from __future__ import annotations

from typing import Any

import numpy as np
from pytestqt.qtbot import QtBot

from tests.gui.conftest import SAMPLES


def test_a_bundle_size_says_what_its_arrows_count(qtbot: QtBot, window: Any) -> None:
    assert window.open_path(SAMPLES / "code-repo", model="bm25")
    s = window.session
    s.recompute()
    s.save_configuration("bm25 defaults")
    s.set_model("codeledger")
    s.recompute()
    d = dict(s.params)
    s.save_configuration("defaults")
    s.set_params({**d, "w_keyword": 0.3})
    s.save_configuration("kw 0.3")
    s.set_params(d)
    view = window.compare_window()
    view.resize(1600, 1000)
    window.config_menu.compare.trigger()
    qtbot.waitExposed(view)
    view.configs.set_checked("bm25 defaults", True)
    qtbot.waitUntil(lambda: view.comp is not None and len(view.comp.configs) == 3)
    comp, table = view.comp, view.table
    assert [c.name for c in comp.configs] == ["defaults", "kw 0.3", "bm25 defaults"]
    assert table.horizontalHeaderItem(5).text() == "▲/▼"
    assert table.horizontalHeaderItem(5).toolTip() == (
        "▲/▼: tasks improved / worsened under kw 0.3 against defaults; on the bundle files "
        "and bundle tokens rows, ↓/↑: tasks with fewer / more under kw 0.3 than under "
        "defaults, a size, not better or worse")
    labels = [table.item(r, 0).text() for r in range(table.rowCount())]
    for label, metric, what in (("bundle files", "bundle_files", "files in the bundle"),
                                ("bundle tokens", "bundle_tokens", "tokens in the bundle")):
        r = labels.index(label)
        a, b = (comp.results[i].per_query[metric] for i in (0, 1))
        judged = ~(np.isnan(a) | np.isnan(b))
        fewer, more = int(np.sum(b[judged] < a[judged])), int(np.sum(b[judged] > a[judged]))
        cell = table.item(r, 5)
        assert cell.text() == f"↓{fewer}/↑{more}"
        tasks = "1 task" if fewer == 1 else f"{fewer} tasks"  # dr1 10: "1 tasks with fewer"
        assert cell.toolTip() == (
            "↓/↑ on this row count tasks by the size of their bundle, not better or worse: "
            f"{tasks} with fewer {what} under kw 0.3 than under defaults (↓), {more} "
            "with more (↑). Fewer is a saving only where recall holds.")
        # bm25 makes no bundle: nothing to count, and its "–" says why
        assert table.item(r, 9).text() == ""
        assert table.item(r, 9).toolTip() == f"none: bm25 defaults has no {label}"
        assert table.item(r, 6).text() == "–"
        assert table.item(r, 6).toolTip() == (
            f"mean {label} of bm25 defaults: none (bm25 selects no bundle)")
    assert "1 task with fewer tokens in the bundle" in table.item(
        labels.index("bundle tokens"), 5).toolTip()  # as the review found it
    # the other rows count tasks too, as the head says (they had said "queries")
    ndcg = labels.index("nDCG@10")
    a, b = (comp.results[i].per_query["ndcg@10"] for i in (0, 1))
    up, down = int(np.sum(b > a)), int(np.sum(b < a))
    assert (up, down) == (1, 1)
    assert table.item(ndcg, 5).toolTip() == (
        "1 task scores higher under kw 0.3 than under defaults (▲), 1 lower (▼)")


def test_a_first_configuration_without_a_bundle_is_the_one_named(qtbot: QtBot,
                                                                  window: Any) -> None:
    """Review r48 (dr1 1): bm25 first, codeledger second. The ▲/▼ cells had said "none:
    defaults has no bundle files" beside defaults' own 16.6, the p cells "no judged query"
    (12 are judged), and the head promised ↓/↑ on rows whose cells are empty."""
    assert window.open_path(SAMPLES / "code-repo", model="bm25")
    s = window.session
    s.recompute()
    s.save_configuration("bm25 defaults")
    s.set_model("codeledger")
    s.recompute()
    s.save_configuration("defaults")
    s.set_baseline("bm25 defaults")
    view = window.compare_window()
    view.resize(1600, 1000)
    window.config_menu.compare.trigger()
    qtbot.waitExposed(view)
    qtbot.waitUntil(lambda: view.comp is not None)
    comp, table = view.comp, view.table
    assert [c.name for c in comp.configs] == ["bm25 defaults", "defaults"]
    labels = [table.item(r, 0).text() for r in range(table.rowCount())]
    for label in ("bundle recall", "bundle files", "bundle tokens"):
        r = labels.index(label)
        assert table.item(r, 1).text() == "–" and table.item(r, 2).text() not in ("", "–")
        assert table.item(r, 5).toolTip() == f"none: bm25 defaults has no {label}"
        assert table.item(r, 4).toolTip().endswith(f": none (bm25 defaults has no {label})")
    assert table.horizontalHeaderItem(5).toolTip() == (
        "▲/▼: tasks improved / worsened under defaults against bm25 defaults")


def test_a_p_cells_tooltip_gives_the_verdict_on_its_own_p(qtbot: QtBot, window: Any) -> None:
    """Review r48 (dr1 5): every p cell's tooltip had ended "(beyond chance: bold)", on p
    1.000 as on p 0.000, a key read as a verdict once the value stood in front."""
    assert window.open_path(SAMPLES / "tea-beir", model="bm25")
    s = window.session
    s.recompute()
    s.save_configuration("defaults")
    s.set_params({"fields": "text"})
    s.save_configuration("flat")
    view = window.compare_window()
    view.resize(1600, 1000)
    window.config_menu.compare.trigger()
    qtbot.waitExposed(view)
    qtbot.waitUntil(lambda: view.comp is not None)
    comp, table = view.comp, view.table
    assert [c.name for c in comp.configs] == ["defaults", "flat"]
    ends = {}
    for r, row in enumerate(comp.rows):
        p, cell = row.p_values[1], table.item(r, 4)
        tip = cell.toolTip()
        assert tip.startswith(f"p {p:.3f}: paired randomisation test of flat against "
                              "defaults") or (p < 0.001 and tip.startswith("p <0.001: "))
        ends[row.metric] = tip.rsplit(" (", 1)[1]
        assert cell.font().bold() == (ends[row.metric] == "beyond chance: bold)")
    # nDCG@10 moved far (p about 0.000003), P@10 not at all (p 1), judged@10 is coverage
    assert ends["ndcg@10"] == "beyond chance: bold)"
    assert ends["p@10"] == "not beyond chance)"
    assert ends["judged@10"] == "judged@, coverage: never bold)"
