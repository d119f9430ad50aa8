"""`why-stats --live` and the window's Injection tab count injections only: a manual search
beside them (its results, up to the search limit, are never injected) and a disabled
project's turn (pi-lodestone logs nothing for it) are left out, each said in one line, and the
two faces give the same figures (rv51 3, 6). --live takes --queries as every other command
does, and data with no query is eval's usage error, exit 2 (rv51 5)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from workbench.cli import main

NOW = "2026-03-10T12:00:00.000Z"


def _folder(tmp_path: Path) -> Path:
    """Six decisions that each match "connection pooling" in their title (an injection takes
    3 of them, a search 5); four injection queries, one from the disabled /repos/off, and one
    manual search."""
    folder = tmp_path / "mem"
    folder.mkdir()
    decisions = [{"id": f"d{i}", "title": f"Connection pooling choice {i}", "text": "PgBouncer",
                  "tags": ["decision"], "cwd": "/repos/app", "project": "app",
                  "source": "manual", "important": False,
                  "createdAt": f"2026-03-0{i + 1}T00:00:00.000Z"} for i in range(6)]
    (folder / "decisions.jsonl").write_text("".join(json.dumps(d) + "\n" for d in decisions))
    (folder / "settings.json").write_text('{"disabledProjects": ["/repos/off"]}\n')
    queries = [{"id": "i1", "cwd": "/repos/app"}, {"id": "i2", "cwd": "/repos/app"},
               {"id": "i3", "cwd": "/repos/app"}, {"id": "off", "cwd": "/repos/off"},
               {"id": "s1", "cwd": "/repos/app", "mode": "search"}]
    (tmp_path / "q.jsonl").write_text("".join(
        json.dumps({**q, "text": "connection pooling", "now": NOW}) + "\n" for q in queries))
    return folder


def test_searches_and_disabled_turns_are_left_out_and_said(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _folder(tmp_path)
    assert main(["why-stats", "--live", str(folder), "--queries",
                 str(tmp_path / "q.jsonl")]) == 0
    out = capsys.readouterr().out
    assert "what decision-memory would inject for 3 queries" in out
    assert ("note: 1 manual search left out: a search injects nothing (the figures are of the "
            "injections)") in out
    assert ("note: 1 query from a disabled project (settings.json) not counted: pi-lodestone "
            "logs nothing for it") in out
    rows = {line[:51].strip(): line[51:].strip() for line in out.splitlines()}
    assert rows["turns"] == "3"
    # each injection takes 3 of the 6 (its limit); the search's 5 had made it 3.50 / 5
    assert rows["results per turn: mean / p50 / p95"] == "3.00 / 3 / 3"
    assert rows["turns with no result"] == "0.0 %"  # the disabled turn's empty one, left out


def test_the_injection_tab_counts_the_same_turns(tmp_path: Path, qtbot: object) -> None:
    from workbench.core.session import TuningSession
    from workbench.gui.charts import InjectionDiagnostics

    folder = _folder(tmp_path)
    s = TuningSession()
    s.open(folder, queries=tmp_path / "q.jsonl")
    s.set_model("decision-memory")
    s.recompute()
    panel = InjectionDiagnostics(s)
    qtbot.addWidget(panel)  # type: ignore[attr-defined]
    panel.redraw()
    assert panel.stats is not None and panel.stats.turns == 3
    assert panel.stats.count_mean == 3.0
    caption = panel.caption.text()
    assert "Injection — 3 queries" in caption
    assert "1 manual search left out" in caption
    assert "1 query from a disabled project (settings.json) not counted" in caption


def test_live_takes_queries_and_no_query_is_a_usage_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _folder(tmp_path)
    assert main(["why-stats", "--live", str(folder)]) == 2  # no injections.jsonl: no query
    err = capsys.readouterr().err
    assert "no injections.jsonl" in err and "give --queries FILE" in err
    assert main(["why-stats", str(folder), "--queries", str(tmp_path / "q.jsonl")]) == 2
    assert "--queries applies with --live DATA" in capsys.readouterr().err


def test_the_rule_eval_and_sweep_can_take(tmp_path: Path) -> None:
    from workbench.core.diagnostics import LeftOut, counted_queries
    from workbench.core.formats import load_dataset
    from workbench.core.models import get_model

    folder = _folder(tmp_path)
    ds = load_dataset(folder, queries=tmp_path / "q.jsonl")
    model = get_model("decision-memory")
    params = model.schema.resolve({})
    found = counted_queries(model, model.prepare(ds, params), params)
    assert found == ([True, True, True, False, False], LeftOut(searches=1, disabled=1))
    assert counted_queries(get_model("bm25"), object(), get_model("bm25").schema.resolve({})) \
        is None


def test_the_tabs_long_caption_wraps_and_keeps_the_windows_width(
        tmp_path: Path, qtbot: object) -> None:
    # rv2 1: the left-out lines on one unwrapped caption line held a 1,280 px main window
    # 1,349 px wide (2,559 px with searches only): the parameter panel and Export off-screen
    from workbench.gui.charts import InjectionDiagnostics
    from workbench.gui.main_window import MainWindow

    folder = _folder(tmp_path)
    # every query a search: the longest caption (its note and both sliders inert)
    (tmp_path / "s.jsonl").write_text("".join(json.dumps(
        {"id": f"s{i}", "text": "connection pooling", "now": NOW, "mode": "search",
         "cwd": "/repos/off" if i == 3 else "/repos/app"}) + "\n" for i in range(4)))
    w = MainWindow(synchronous=True, restore=False)
    qtbot.addWidget(w)  # type: ignore[attr-defined]
    w.resize(1280, 800)
    w.show()
    qtbot.waitExposed(w)  # type: ignore[attr-defined]
    assert w.open_path(folder, "decision-memory", queries=tmp_path / "s.jsonl")
    panel = w.charts.panels["InjectionDiagnostics"]
    assert isinstance(panel, InjectionDiagnostics)
    w.charts.setCurrentWidget(panel)
    qtbot.wait(100)  # type: ignore[attr-defined]
    assert "every query is a manual search" in panel.caption.text()
    # the unwrapped line is wider than the window: the case the window had widened for
    assert panel.caption.fontMetrics().horizontalAdvance(panel.caption.text()) > 1000
    assert w.width() == 1280
    assert panel.caption.geometry().right() < panel.width()
    assert panel.export_button.geometry().right() <= panel.width()


def test_the_headline_says_what_the_figures_are_of(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # rv2 10: "what decision-memory would inject for 5 queries" above "none is injected", and
    # "would inject for 0 queries" where every query was left out
    folder = _folder(tmp_path)

    def run(*queries: dict[str, str]) -> str:
        (tmp_path / "x.jsonl").write_text("".join(json.dumps(
            {**q, "text": "connection pooling", "now": NOW}) + "\n" for q in queries))
        assert main(["why-stats", "--live", str(folder), "--queries",
                     str(tmp_path / "x.jsonl")]) == 0
        return capsys.readouterr().out.splitlines()[0]

    assert run({"id": "s1", "cwd": "/repos/app", "mode": "search"},
               {"id": "s2", "cwd": "/repos/app", "mode": "search"}) == \
        "mem: what decision-memory's searches return for 2 queries at default parameters"
    assert run({"id": "s1", "cwd": "/repos/app", "mode": "search"},
               {"id": "off", "cwd": "/repos/off"}) == \
        "mem: 0 of 2 queries are injection turns at default parameters"


@pytest.mark.parametrize("forced", [False, True])
def test_searches_only_say_returned_and_their_reason_once(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], forced: bool) -> None:
    """dr5 9: with every query a search (by the file, or forced by mode=search), the rows said
    "last injected result's score", "tokens per turn", "most injected", and the reason that
    nothing is injected came three times, once per injection setting."""
    folder = _folder(tmp_path)
    rows = ([{"id": "i1", "cwd": "/repos/app"}] if forced else
            [{"id": f"s{i}", "cwd": "/repos/app", "mode": "search"} for i in range(2)])
    (tmp_path / "x.jsonl").write_text("".join(json.dumps(
        {**q, "text": "connection pooling", "now": NOW}) + "\n" for q in rows))
    assert main(["why-stats", "--live", str(folder), "--queries", str(tmp_path / "x.jsonl"),
                 *(["-p", "mode=search"] if forced else [])]) == 0
    out = capsys.readouterr().out
    assert "injected result" not in out and "most injected" not in out
    assert "last result's score: avg (no result = 0)" in out
    assert "estimated tokens per search" in out and "most returned:" in out
    notes = [line for line in out.replace("\n  ", " ").splitlines() if line.startswith("note:")]
    assert notes == ["note: every query is a manual search: the figures are of what each search "
                     "returns; none is injected, so inject_min_score=8 and inject_limit=3 apply "
                     "to none of them"]


def test_the_injection_tabs_verdict_says_returned_for_searches_only(
        tmp_path: Path, qtbot: object, capsys: pytest.CaptureFixture[str]) -> None:
    """dr5 9: with every query a search, the tab's verdict said 'injected' where
    why-stats --live says 'returned' (each search's results are returned, none injected)."""
    from workbench.core.session import TuningSession
    from workbench.gui.charts import InjectionDiagnostics

    folder = _folder(tmp_path)
    rows = [{"id": f"s{i}", "cwd": "/repos/app", "mode": "search"} for i in range(2)]
    (tmp_path / "x.jsonl").write_text("".join(json.dumps(
        {**q, "text": "connection pooling", "now": NOW}) + "\n" for q in rows))
    s = TuningSession()
    s.open(folder, queries=tmp_path / "x.jsonl")
    s.set_model("decision-memory")
    s.recompute()
    panel = InjectionDiagnostics(s)
    qtbot.addWidget(panel)  # type: ignore[attr-defined]
    panel.redraw()
    said = panel.verdict.text()
    assert "returned" in said and "inject" not in said, said
    # the command line's verdict, word for word
    assert main(["why-stats", "--live", str(folder), "--queries", str(tmp_path / "x.jsonl")]) == 0
    assert said.split(" (")[0].split(":")[0] in capsys.readouterr().out.replace("\n  ", " ")
