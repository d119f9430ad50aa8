"""The eval-cases panel against the core: each row is `check_cases`'s verdict, the summary its
pass count, recall and precision with the baseline's deltas, the changed cases marked and
first; a click selects the case's query; without cases a note, and the window hides the tab."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from tests.conftest import SAMPLES
from workbench.core.cases import check_cases
from workbench.core.session import TuningSession
from workbench.gui.chart_area import ChartArea
from workbench.gui.charts import EvalCases
from workbench.gui.charts._standalone import open_session
from workbench.gui.charts.cases import NO_CASES

EVAL = SAMPLES / "decisions-eval"


@pytest.fixture
def cases() -> TuningSession:
    return open_session(EVAL, "decision-memory")


def _show(qtbot: QtBot, widget: EvalCases | ChartArea) -> None:
    qtbot.addWidget(widget)
    widget.resize(1200, 400)
    widget.show()
    qtbot.waitExposed(widget)


def test_rows_and_summary_are_check_cases(qtbot: QtBot, cases: TuningSession) -> None:
    panel = EvalCases(cases)
    _show(qtbot, panel)
    assert cases.dataset is not None and cases.result is not None
    want = check_cases(cases.dataset, cases.result.ranking)
    assert panel.report == want and len(want.cases) == 30
    # pooled over every case's ids, counted here from the cases' own contexts and top Ks, and
    # said so: "recall 0.71" beside the R@10 card's 0.700 read as a rounding disagreement,
    # "precision 0.61" beside P@10 0.073 as a bug (rA 4)
    found = expected = returned = 0
    for qi, q in enumerate(cases.dataset.queries):
        if "expected_top_ids" not in q.context:
            continue
        k = min(int(q.context.get("top_k", 10**6)), int(cases.result.ranking.count[qi]))
        top = {cases.dataset.corpus.ids[int(d)] for d in cases.result.ranking.docs[qi, :k]}
        found += len(set(q.context["expected_top_ids"]) & top)
        expected += len(q.context["expected_top_ids"])
        returned += len(top)
    assert expected and returned
    assert panel.summary.text() == (
        f"{want.passed} / 30 pass · pooled recall {found / expected:.2f} ({found} / {expected})"
        f" · pooled precision {found / returned:.2f} ({found} / {returned})")
    tip = panel.summary.toolTip()
    assert f"({found} / {expected})" in tip and f"({found} / {returned})" in tip
    assert "R@k and P@k" in tip
    rows = {r[0]: r for r in panel.row_texts()}
    assert len(rows) == 30
    for c in want.cases:
        _, result, mark, missing, forbidden, returned = rows[c.query]
        assert result == ("pass" if c.passed else "FAIL") and mark == ""
        assert missing == ", ".join(c.missing) and forbidden == ", ".join(c.forbidden)
        assert returned == (", ".join(c.returned) or "(nothing returned)")
    assert panel.table.isColumnHidden(2)  # no baseline: no "vs baseline" column


def test_baseline_deltas_and_changed_cases(qtbot: QtBot, cases: TuningSession) -> None:
    panel = EvalCases(cases)
    _show(qtbot, panel)
    assert cases.dataset is not None
    cases.pin_baseline()
    assert panel.changed == [] and "(±0)" in panel.summary.text()
    cases.set_param("min_strong", 1)  # fewer strong matches needed: more injected
    cases.recompute()
    assert cases.result is not None and cases.baseline is not None
    now = check_cases(cases.dataset, cases.result.ranking)
    was = check_cases(cases.dataset, cases.baseline.result.ranking)
    flipped = [c.query for c, b in zip(now.cases, was.cases, strict=True)
               if c.passed != b.passed]
    assert flipped and panel.changed == flipped
    text = panel.summary.text()
    assert text.startswith(f"{now.passed} / 30 pass (+{now.passed - was.passed})")
    assert f"{len(flipped)} changed vs baseline" in text
    rows = panel.row_texts()
    for row, qid in zip(rows, flipped, strict=False):  # the changed cases come first
        assert row[0] == qid
        assert row[2] == ("▲ now passes" if now.cases[[c.query for c in now.cases]
                                                     .index(qid)].passed else "▼ now fails")
    assert all(r[2] == "=" for r in rows[len(flipped):])  # unchanged, said (it was blank)
    assert all(r[5] for r in rows)  # a case that returned nothing says so


def test_clicking_a_row_selects_its_query(qtbot: QtBot, cases: TuningSession) -> None:
    panel = EvalCases(cases)
    _show(qtbot, panel)
    assert cases.dataset is not None
    row = 5
    qid = panel.rows[row].query
    assert cases.dataset.queries.index[qid] != cases.query
    item = panel.table.item(row, 0)
    assert item is not None
    rect = panel.table.visualItemRect(item)
    with qtbot.waitSignal(panel.table.cellClicked, timeout=1000):
        qtbot.mouseClick(panel.table.viewport(), Qt.MouseButton.LeftButton,
                         pos=rect.center())
    assert cases.dataset.queries[cases.query].id == qid
    # and a query chosen elsewhere highlights its row
    other = panel.rows[0].query
    cases.select_query(cases.dataset.queries.index[other])
    assert [i.row() for i in panel.table.selectionModel().selectedRows()] == [0]


def test_without_cases_a_note(qtbot: QtBot) -> None:
    vault = open_session(SAMPLES / "vault", "vault-search")
    panel = EvalCases(vault)
    _show(qtbot, panel)
    assert panel.note_text == NO_CASES and panel.report is None and not panel.applies()


def test_the_tab_shows_only_with_cases(qtbot: QtBot, cases: TuningSession) -> None:
    area = ChartArea(cases)
    _show(qtbot, area)
    assert area.tab_shown("EvalCases") and area.tab_shown("InjectionDiagnostics")
    cases.open(SAMPLES / "tea-beir")
    cases.set_model("bm25")
    cases.recompute()
    assert not area.tab_shown("EvalCases") and not area.tab_shown("InjectionDiagnostics")
    assert area.tab_shown("MoversList")
    cases.open(EVAL)
    assert area.tab_shown("EvalCases")


def test_decision_memory_brings_its_main_view_forward(qtbot: QtBot,
                                                      cases: TuningSession) -> None:
    """Eval cases when the dataset has them, else the injection figures; the bundle for
    codeledger; nothing forced for a model no panel prefers."""
    area = ChartArea(cases)
    _show(qtbot, area)
    assert area.currentWidget() is area.panels["EvalCases"]
    cases.open(SAMPLES / "decisions")
    assert area.currentWidget() is area.panels["InjectionDiagnostics"]
    cases.open(SAMPLES / "code-repo")
    cases.set_model("codeledger")
    assert area.currentWidget() is area.panels["ContextBundle"]


def test_runs_standalone(qtbot: QtBot, tmp_path: Path) -> None:
    from workbench.gui.charts.cases import main

    out = tmp_path / "cases.png"
    assert main(["--screenshot", str(out), "--size", "1000x320"]) == 0
    assert out.read_bytes()[:4] == b"\x89PNG"


def test_exports_csv(qtbot: QtBot, cases: TuningSession, tmp_path: Path) -> None:
    panel = EvalCases(cases)
    _show(qtbot, panel)
    text = panel.export(tmp_path / "cases.csv").read_text(encoding="utf-8")
    assert text.count("\n") == 31 and text.startswith("Case,Result")


def test_a_short_header_elides_the_summary_whole_in_its_tooltip(
        qtbot: QtBot, cases: TuningSession) -> None:
    """With a baseline's deltas the pooled counts took about 800 px: the header no longer
    holds the window wider than it is; the summary is cut at the right, whole in its tooltip."""
    panel = EvalCases(cases)
    qtbot.addWidget(panel)
    panel.resize(500, 300)
    panel.show()
    qtbot.waitExposed(panel)
    cases.pin_baseline()
    qtbot.wait(10)
    assert panel.width() <= 500
    whole = panel.summary.plain_text()
    assert whole.endswith("0 changed vs baseline")
    assert panel.summary.text().endswith("…") and whole in panel.summary.toolTip()
