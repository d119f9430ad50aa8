"""The bundle panel against the core: its files are `full_bundles`'s bundle of the selected
task (and the model's `bundles` over the full ranking), its near misses `near_misses`, the
budget bar and text follow max_files / token_budget, needed ✓ follows the qrels, the baseline
marks files that entered (+) and left (−); a click selects the document; another model shows
a note and the window hides the tab (and shows it first for codeledger)."""

from __future__ import annotations

import os
import re

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from tests.conftest import SAMPLES
from tests.gui.conftest import over_budget
from workbench.core import engine
from workbench.core.models.codeledger import full_bundles, near_misses
from workbench.core.session import TuningSession
from workbench.gui.chart_area import ChartArea
from workbench.gui.charts import ContextBundle
from workbench.gui.charts._standalone import open_session
from workbench.gui.charts.bundle import NOT_APPLICABLE
from workbench.gui.charts.bundle_view import budget_text

CODE = SAMPLES / "code-repo"


@pytest.fixture
def code() -> TuningSession:
    return open_session(CODE)


def _show(qtbot: QtBot, widget: ContextBundle | ChartArea) -> None:
    qtbot.addWidget(widget)
    widget.resize(1200, 360)
    widget.show()
    qtbot.waitExposed(widget)


def _bundle(s: TuningSession, params: dict[str, object] | None = None) -> list[str]:
    """The selected task's bundle straight from the core, as paths."""
    _, bund = full_bundles(s.prepared, params or s.params)
    docs = bund.files(s.query)
    return [s.prepared.files.paths[int(d)] for d in docs]


def _files(panel: ContextBundle, kind: str) -> list[str]:
    return [r.path for r in panel.rows if r.kind == kind]


def _needed(s: TuningSession) -> set[str]:
    assert s.dataset is not None and s.dataset.qrels is not None
    return {d for d, g in s.dataset.qrels[s.dataset.queries[s.query].id].items() if g > 0}


def test_rows_are_the_cores_bundle(qtbot: QtBot, code: TuningSession) -> None:
    panel = ContextBundle(code)
    _show(qtbot, panel)
    assert code.model is not None and code.result is not None and panel.view is not None
    assert code.model.id == "codeledger" and panel.applies()
    q = code.query
    want = _bundle(code)
    assert want and _files(panel, "bundle") == want
    # the model's own bundles over the full candidate ranking agree
    longest = int(np.diff(code.prepared.row_ptr).max())
    scores = code.model.combine(code.prepared, code.params)
    bund = code.model.bundles(code.prepared, code.params, scores,
                              engine.rank(scores, longest, None))
    assert list(panel.view.docs) == bund.files(q)
    assert panel.view.tokens == pytest.approx(float(bund.tokens[q]))
    assert panel.view.stop == bund.stop[q] and panel.view.confidence == bund.confidence[q]
    # the per-query bundle metrics the result carries describe the same bundle
    assert code.result.per_query["bundle_files"][q] == len(want)
    assert code.result.per_query["bundle_tokens"][q] == pytest.approx(panel.view.tokens)
    # near misses: the next candidates, with the tokens each would bring the bundle to
    near = [r for r in panel.rows if r.kind == "near"]
    misses = near_misses(code.prepared, code.params, q)
    assert [r.path for r in near] == [m["doc"] for m in misses]
    assert [r.rank for r in near] == [m["rank"] for m in misses]
    assert [r.tokens for r in near] == pytest.approx([m["tokens"] for m in misses])
    assert [r.note.split(" tokens")[0] for r in near] == [
        f"{m['tokens_if_added']:,.0f}" for m in misses]
    texts = panel.row_texts()
    assert texts[len(want)] == [f"— cut: {bund.stop[q].replace('_', ' ')} —"]
    assert panel.budget.text() == budget_text(panel.view)
    assert panel.confidence.text().find(bund.confidence[q]) > 0
    assert code.dataset is not None
    assert panel.task.text() == code.dataset.queries[q].text
    assert panel.summary.text().startswith(
        f"all 12 tasks: recall {code.result.means['bundle_recall']:,.3f}")


def test_budget_params_change_table_and_bar(qtbot: QtBot, code: TuningSession) -> None:
    panel = ContextBundle(code)
    _show(qtbot, panel)
    assert panel.view is not None
    n = len(panel.view.docs)
    assert n > 3 and panel.bar.budget == 8000 and panel.bar.limit == pytest.approx(8800)
    code.set_param("max_files", 3)
    code.recompute()
    assert panel.view is not None and len(panel.view.docs) == 3
    assert _files(panel, "bundle") == _bundle(code) and panel.view.stop == "file_limit"
    shown = panel.budget.text().replace("\u00a0", " ")  # kept together: `budget_text`
    assert shown.startswith("3 of at most 3 files · ")
    assert shown.endswith("stopped: file limit")
    assert "— cut: file limit —" in [t[0] for t in panel.row_texts()]
    code.set_params({"max_files": 25, "token_budget": 200, "overshoot": 0.0})
    code.recompute()
    v = panel.view
    assert v is not None and v.stop == "token_budget" and _files(panel, "bundle") == _bundle(code)
    assert 0 < v.tokens <= 200 and len(v.docs) < n
    assert (panel.bar.used, panel.bar.budget, panel.bar.limit) == (v.tokens, 200, 200)
    assert panel.budget.text().replace("\u00a0", " ") == (
        f"{len(v.docs)} of at most 25 files · {v.tokens:,.0f} / 200 tokens "
        f"({100 * v.tokens / 200:.0f} %) · stopped: token budget")


def test_needed_marks_follow_the_qrels(qtbot: QtBot, code: TuningSession) -> None:
    panel = ContextBundle(code)
    _show(qtbot, panel)
    assert code.dataset is not None
    missed_any = False
    for q in range(len(code.dataset.queries)):
        code.select_query(q)
        needed = _needed(code)
        files = [r for r in panel.rows if r.doc >= 0]
        assert {r.path for r in files if r.needed} == needed  # every needed file once
        assert all(r.needed == (r.path in needed) for r in files)
        for r, texts in zip(panel.rows, panel.row_texts(), strict=True):
            if r.doc >= 0:
                assert texts[6] == ("✓" if r.path in needed else "")
        missed = _files(panel, "missed")
        assert set(missed) == needed - set(_bundle(code)) - set(_files(panel, "near"))
        for r in panel.rows:
            if r.kind == "missed":
                missed_any = True
                assert r.note == (f"rank {r.rank}" if r.rank else "not a candidate") or \
                    r.note.startswith("gated")
    assert missed_any  # the sample has tasks whose bundle misses a needed file


def test_baseline_marks_entered_and_left(qtbot: QtBot, code: TuningSession) -> None:
    panel = ContextBundle(code)
    _show(qtbot, panel)
    assert not panel.baseline.isVisible() and all(r.mark == "" for r in panel.rows)
    code.pin_baseline()
    before = _bundle(code)
    assert panel.baseline.text().startswith(f"baseline: {len(before)} files")
    code.set_param("sufficiency", 1.0)  # all the score mass (defaults: 0.95): more files
    code.recompute()
    now = _bundle(code)
    entered = [p for p in now if p not in before]
    assert entered
    assert [r.path for r in panel.rows if r.mark == "+"] == entered
    assert "(+" in panel.summary.text()  # the all-task files grew
    code.set_param("max_files", 2)
    code.recompute()
    left = [p for p in before if p not in _bundle(code)]
    assert len(left) == len(before) - 2
    assert sorted(r.path for r in panel.rows if r.mark == "−") == sorted(left)
    assert f"{len(left)} left (−)" in panel.baseline.text()
    code.clear_baseline()
    assert all(r.mark == "" for r in panel.rows) and not panel.baseline.isVisible()


def test_clicking_a_row_selects_the_document(qtbot: QtBot, code: TuningSession) -> None:
    panel = ContextBundle(code)
    _show(qtbot, panel)
    row = 2
    doc = panel.rows[row].doc
    assert doc >= 0 and code.docs != (doc,)
    item = panel.table.item(row, 2)
    assert item is not None
    with qtbot.waitSignal(panel.table.cellClicked, timeout=1000):
        qtbot.mouseClick(panel.table.viewport(), Qt.MouseButton.LeftButton,
                         pos=panel.table.visualItemRect(item).center())
    assert code.docs == (doc,)
    # a document chosen elsewhere highlights its row; a section line selects nothing
    code.select_docs([panel.rows[0].doc])
    assert [i.row() for i in panel.table.selectionModel().selectedRows()] == [0]
    cut = next(i for i, r in enumerate(panel.rows) if r.kind == "section")
    panel._on_click(cut, 0)
    assert code.docs == (panel.rows[0].doc,)


def test_other_models_show_a_note_and_hide_the_tab(qtbot: QtBot, code: TuningSession) -> None:
    area = ChartArea(code)
    _show(qtbot, area)
    assert area.tab_shown("ContextBundle")
    assert area.currentWidget() is area.panels["ContextBundle"]  # codeledger's main view
    code.open(SAMPLES / "tea-beir")
    code.set_model("bm25")
    code.recompute()
    assert not area.tab_shown("ContextBundle") and area.tab_shown("MoversList")
    panel = area.panels["ContextBundle"]
    assert isinstance(panel, ContextBundle)
    panel.redraw()
    assert panel.note_text == NOT_APPLICABLE and panel.view is None and not panel.applies()


def test_runs_standalone(qtbot: QtBot, tmp_path: Path) -> None:
    from workbench.gui.charts.bundle import main

    out = tmp_path / "bundle.png"
    assert main(["--screenshot", str(out), "--size", "1100x360"]) == 0
    assert out.read_bytes()[:4] == b"\x89PNG"


def test_exports_csv(qtbot: QtBot, code: TuningSession, tmp_path: Path) -> None:
    panel = ContextBundle(code)
    _show(qtbot, panel)
    text = panel.export(tmp_path / "bundle.csv").read_text(encoding="utf-8")
    assert text.startswith("Kind,Rank,±,File") and text.count("\n") == len(panel.rows) + 1
    assert "section,,,— cut:" in text


def test_a_repository_without_tasks_then_a_typed_one(qtbot: QtBot, tmp_path: Path) -> None:
    from workbench.core.repo import build_sample_repo

    s = TuningSession()
    s.open(build_sample_repo(tmp_path / "shorty"))
    s.set_model("codeledger")
    s.recompute()
    panel = ContextBundle(s)
    panel.throttle_ms = 0
    _show(qtbot, panel)
    panel.redraw()
    assert "No tasks yet" in panel.note_text
    s.add_query("Retry client requests on 429")
    s.recompute()
    panel.redraw()
    assert panel.note_text == "" and _files(panel, "bundle") == _bundle(s)


def test_skipped_files_are_rows_inside_the_cut(qtbot: QtBot, code: TuningSession) -> None:
    """Files the bundle skipped for the budget are listed in rank order among its files,
    marked, and above the cut; the panel's files are still exactly the core's bundle."""
    panel = ContextBundle(code)
    _show(qtbot, panel)
    bund, q = over_budget(code)
    assert bund.skipped_ranks(q)
    assert _files(panel, "bundle") == _bundle(code)
    rows = list(panel.rows)
    cut = next(i for i, r in enumerate(rows) if r.kind == "section")
    above = rows[:cut]
    assert [r.kind for r in above if r.rank is not None] == [
        "skipped" if r in bund.skipped_ranks(q) else "bundle" for r in range(int(bund.reach[q]))]
    assert [r.rank for r in above] == list(range(1, int(bund.reach[q]) + 1))
    assert all(r.note == "skipped: over the budget" for r in above if r.kind == "skipped")


def test_a_short_panel_scrolls_its_figures_whole(qtbot: QtBot, code: TuningSession) -> None:
    """At 1,280 × 720 (a panel about 200 px tall) the left column's wrapped lines overlapped,
    each squeezed below its height: now they scroll, each whole."""
    code.pin_baseline()
    panel = ContextBundle(code)
    qtbot.addWidget(panel)
    panel.resize(1200, 200)
    panel.show()
    qtbot.waitExposed(panel)
    panel.redraw()
    qtbot.wait(10)
    for label in (panel.task, panel.reasons, panel.budget, panel.baseline):
        assert label.text()
        assert label.height() >= label.heightForWidth(label.width()) - 1, label.text()


def test_a_rows_stages_read_in_words_in_its_tooltip(qtbot: QtBot, code: TuningSession) -> None:
    # the cells said "kw hot test content similar", decoded only in the header's tooltip
    panel = ContextBundle(code)
    _show(qtbot, panel)
    col = [panel.table.horizontalHeaderItem(c).text()  # type: ignore[union-attr]
           for c in range(panel.table.columnCount())].index("Stages")
    shown = [(panel.table.item(r, col).text(), panel.table.item(r, col).toolTip())  # type: ignore[union-attr]
             for r in range(panel.table.rowCount()) if panel.table.item(r, col) is not None]
    kw = [tip for text, tip in shown if text.split()[:1] == ["kw"]]
    assert kw and all(tip.startswith("stages: keyword") for tip in kw)
    assert any("hot zone" in tip for _, tip in shown)


def test_summary_counts_judged_tasks_apart(qtbot: QtBot, code: TuningSession) -> None:
    """A typed task is not judged: all four figures are the mean over the 12 judged tasks, as
    the metric cards say theirs are, and the summary says so (review G, 7: it had said 'all
    13 tasks: recall …'; dA 2: then 'all 13 tasks: files 16.6', the mean of the 12)."""
    code.add_query("Retry client requests on 429")
    code.recompute()
    panel = ContextBundle(code)
    _show(qtbot, panel)
    panel.redraw()
    assert code.result is not None and code.dataset is not None
    assert code.dataset.queries[12].id.startswith("typed-")  # after tasks.jsonl's 12
    per = {k: np.asarray(code.result.per_query[k])[:12] for k in
           ("bundle_recall", "bundle_precision", "bundle_files", "bundle_tokens")}
    assert panel.summary.text() == (
        f"the 12 judged tasks: recall {per['bundle_recall'].mean():,.3f} · precision "
        f"{per['bundle_precision'].mean():,.3f} · files {per['bundle_files'].mean():,.1f}"
        f" · tokens {per['bundle_tokens'].mean():,.0f}")
    assert "mean over the judged tasks" in panel.summary.toolTip()


def test_a_token_delta_has_thousands_separators(qtbot: QtBot, code: TuningSession) -> None:
    """dr2 8: "tokens 6,964 (+1455)": the delta beside the value formatted as the value is."""
    panel = ContextBundle(code)
    _show(qtbot, panel)
    code.pin_baseline()
    was = float(np.mean(code.result.per_query["bundle_tokens"]))  # type: ignore[union-attr]
    code.set_param("sufficiency", 0.1)  # a file or two a task: about a thousand tokens fewer
    code.recompute()
    now = float(np.mean(code.result.per_query["bundle_tokens"]))  # type: ignore[union-attr]
    assert was - now >= 1000
    shown = re.sub(r"<[^>]+>", "", panel.summary.text())  # the delta's colour span
    assert f"tokens {now:,.0f} (−{was - now:,.0f})" in shown
