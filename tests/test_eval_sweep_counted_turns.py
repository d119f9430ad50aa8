"""eval, sweep and the window's metric strip average the injection figures (results, empty,
injected_tokens) over the turns why-stats --live and the Injection tab count: a manual search
beside injections (its results, up to the search limit, are never injected) and a disabled
project's turn (pi-lodestone logs nothing for it) are left out, each said once; the relevance
metrics stay over every judged query (rv51 3, 6: eval said injected_tokens 45.1 where
why-stats --live says 36)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from workbench.cli import main

NOW = "2026-03-10T12:00:00.000Z"
SEARCH = ("note: 1 manual search left out: a search injects nothing (the figures are of the "
          "injections)")
DISABLED = ("note: 1 query from a disabled project (settings.json) not counted: pi-lodestone "
            "logs nothing for it")
# by hand: an injection takes 3 of the 6 decisions (inject limit 3), a search 5 (search
# limit 5), the disabled project's turn none; each snippet is "PgBouncer", 9 characters, so an
# injection is ⌊27 / 4 + 0.5⌋ = 7 tokens, the search ⌊45 / 4 + 0.5⌋ = 11. Over the 3
# injections: 3.00 results, 0 % empty, 7 tokens (over all 5 queries: 2.80, 20 %, 6.4)
COUNTED = {"results": "3.00", "empty": "0.0", "injected_tokens": "7.0"}


def _folder(tmp_path: Path, qrels: bool = False) -> Path:
    """Six decisions that each match "connection pooling" in their title; four injection
    queries, one from the disabled /repos/off, and one manual search (as the data of
    test_why_stats_live_left_out); with `qrels`, each query judges d0 relevant."""
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
    if qrels:
        (tmp_path / "qrels.tsv").write_text("".join(
            f"{q['id']}\t0\td0\t1\n" for q in queries))
    return folder


def _rows(out: str, names: tuple[str, ...]) -> dict[str, list[str]]:
    """The table rows whose first cell is one of `names`: their cells."""
    return {cells[0]: cells[1:] for cells in (line.split() for line in out.splitlines())
            if cells and cells[0] in names}


def test_eval_counts_the_injections_only(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    folder = _folder(tmp_path)
    assert main(["eval", str(folder), "--queries", str(tmp_path / "q.jsonl"), "-m",
                 "decision-memory", "--metrics", "results,empty,injected_tokens"]) == 0
    out = capsys.readouterr().out
    rows = _rows(out, tuple(COUNTED))
    assert {k: v[0] for k, v in rows.items()} == COUNTED
    flat = " ".join(out.split())
    assert flat.count(SEARCH) == 1 and flat.count(DISABLED) == 1  # said once, not per figure
    # what the three are the mean over, said once (dr5 14: it had come under each)
    assert flat.count("(see the notes)") == 1
    assert "(results = results per query, empty = % of queries returning nothing, " \
        "injected_tokens = tokens injected per query; means over the 3 of the 5 queries " \
        "counted (see the notes))" in flat


def test_eval_with_judgments_keeps_relevance_over_every_judged_query(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _folder(tmp_path, qrels=True)
    base = ["eval", str(folder), "--queries", str(tmp_path / "q.jsonl"), "--qrels",
            str(tmp_path / "qrels.tsv"), "-m", "decision-memory"]
    assert main([*base, "--metrics", "ndcg@10"]) == 0
    alone = _rows(capsys.readouterr().out, ("ndcg@10",))["ndcg@10"]
    per_query = tmp_path / "pq.csv"
    assert main([*base, "--metrics", "ndcg@10,results,empty,injected_tokens",
                 "--per-query", str(per_query)]) == 0
    out = capsys.readouterr().out
    rows = _rows(out, ("ndcg@10", *COUNTED))
    assert rows.pop("ndcg@10") == alone  # the disabled turn's 0 still counts in nDCG
    assert {k: v[0] for k, v in rows.items()} == COUNTED
    flat = " ".join(out.split())
    assert "5 judged queries" in flat
    assert flat.count(SEARCH) == 1 and flat.count(DISABLED) == 1
    assert "injected_tokens = tokens injected per query; means over the 3 of the 5 judged " \
        "queries counted (see the notes))" in flat
    assert flat.count("(see the notes)") == 1
    assert len(per_query.read_text().splitlines()) == 1 + 5  # every judged query's row


def test_sweep_counts_the_injections_only(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    folder = _folder(tmp_path)
    out_file = tmp_path / "sweep.json"
    assert main(["sweep", str(folder), "--queries", str(tmp_path / "q.jsonl"), "-m",
                 "decision-memory", "-s", "inject_min_score", "--values", "0,1000",
                 "--out", str(out_file)]) == 0
    out = capsys.readouterr().out
    rows = _rows(out, ("0", "1000"))
    # at 1000 every injection is empty (the search, held to its own min score, is not)
    assert rows["0"][:3] == list(COUNTED.values())
    assert rows["1000"][:3] == ["0.00", "100.0", "0.0"]
    flat = " ".join(out.split())
    assert flat.count(SEARCH) == 1 and flat.count(DISABLED) == 1  # once, not per value
    assert "the mean over the 3 of the 5 queries counted" in flat
    points = json.loads(out_file.read_text())["points"]
    assert [p["empty"] for p in points] == [0.0, 100.0]
    assert [p["injected_tokens"] for p in points] == [7.0, 0.0]


def test_sweep_says_which_values_leave_what_out(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    folder = _folder(tmp_path)
    assert main(["sweep", str(folder), "--queries", str(tmp_path / "q.jsonl"), "-m",
                 "decision-memory", "-s", "mode", "--values", "query,search"]) == 0
    out = capsys.readouterr().out
    # as searches, all 5 queries return 5 decisions, ⌊45 / 4 + 0.5⌋ = 11 tokens each
    assert _rows(out, ("query", "search")) == {"query": ["3.00", "0.0", "7.0", "←"],
                                               "search": ["5.00", "0.0", "11.0"]}
    flat = " ".join(out.split())
    assert flat.count("at mode = query: " + SEARCH.removeprefix("note: ")) == 1
    assert flat.count("at mode = query: " + DISABLED.removeprefix("note: ")) == 1
    assert ("at mode = search: every query is a manual search: the figures are of what each "
            "search returns; none is injected") in flat
    # and injected_tokens glossed so at those values, as eval glosses it (rv52 1)
    assert ("tokens injected per query (estimated as pi-lodestone does: each injected "
            "snippet's characters, whitespace collapsed, cut to 180 characters "
            "(inject_snippet_chars; 220, search_snippet_chars, for a search) around the query's "
            "terms, each cut end marked '…', / 4; at mode = search, what each search returns: "
            "nothing is injected)") in flat
    assert "the mean over the queries counted at each value, of 5 (see the notes)" in flat


def test_the_metric_strip_counts_the_same_turns(tmp_path: Path, qtbot: object) -> None:
    from workbench.core.session import TuningSession
    from workbench.gui.metric_strip import MetricStrip

    folder = _folder(tmp_path)
    s = TuningSession()
    s.open(folder, queries=tmp_path / "q.jsonl")
    s.set_model("decision-memory")
    s.recompute()
    strip = MetricStrip(s, defer_ms=0)
    qtbot.addWidget(strip)  # type: ignore[attr-defined]
    strip.refresh()
    assert [c.value.text() for c in strip.cards[:3]] == ["3.00", "0.0 %", "7"]
    note = strip.counted_note.text()
    assert note.startswith("Figures over 3 of 5 queries: ")
    assert SEARCH.removeprefix("note: ") in note and DISABLED.removeprefix("note: ") in note
    # the baseline's figures over its own turns: with no project disabled, "off" injects its 3
    s.pin_baseline()
    s.set_params({"disabled_projects": "[]"})
    s.recompute()
    strip.refresh()
    assert "vs 3.00" in strip.cards[0].detail.text()
    assert strip.counted_note.text().startswith("Figures over 4 of 5 queries: ")
    assert DISABLED.removeprefix("note: ") not in strip.counted_note.text()


def test_the_strip_says_when_the_baseline_counts_other_turns(tmp_path: Path,
                                                            qtbot: object) -> None:
    """dr5 10: a baseline over 3 of the 5 queries against current values over 4 showed a bare
    difference; dr5 9: against searches only it set what a search returns against what is
    injected ("+90 vs 36")."""
    from workbench.core.session import TuningSession
    from workbench.gui.metric_strip import MetricStrip

    folder = _folder(tmp_path)
    s = TuningSession()
    s.open(folder, queries=tmp_path / "q.jsonl")
    s.set_model("decision-memory")
    s.recompute()
    strip = MetricStrip(s, defer_ms=0)
    qtbot.addWidget(strip)  # type: ignore[attr-defined]
    s.pin_baseline()  # 3 injections counted of 5
    s.set_params({"mode": "injection"})  # the search injects too: 4 counted, "off" disabled
    s.recompute()
    strip.refresh()
    note = strip.counted_note.text()
    assert note.startswith("Figures over 4 of 5 queries: ")
    assert note.endswith(". The baseline's over 3 of 5: part of each change is which queries "
                         "count")
    assert "vs 3.00" in strip.cards[0].detail.text()  # injections both: compared
    s.set_params({"disabled_projects": "[]", "mode": "query"})
    s.recompute()
    strip.refresh()  # 4 of 5 again, but the disabled turn counted in place of the search
    assert strip.counted_note.text() == (
        f"Figures over 4 of 5 queries: {SEARCH.removeprefix('note: ')}. The baseline's over "
        "3 of 5: part of each change is which queries count")
    s.set_params({"mode": "search"})  # every query a search, 5 results each
    s.recompute()
    strip.refresh()
    assert strip.cards[0].value.text() == "5.00"
    assert [c.detail.text() for c in strip.cards[:3]] == [
        "<span style='color:#8c959f'>baseline: injections</span>"] * 3
    s.set_params({"mode": "query", "disabled_projects": ""})  # the baseline's own values
    s.recompute()
    strip.refresh()
    assert "The baseline" not in strip.counted_note.text()


@pytest.mark.parametrize("suffix", [".csv", ".json"])
def test_the_per_query_file_leaves_the_figures_of_queries_not_counted_blank(
        suffix: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """rv52 2: --per-query held the search's own 5 results and 11 tokens and the disabled
    turn's 0, so the column's mean (2.80 results, 6.4 tokens) was not the 3.00 and 7.0 eval
    prints; their cells are now blank (null in JSON), a column saying why."""
    import csv

    folder = _folder(tmp_path, qrels=True)
    per_query = tmp_path / f"pq{suffix}"
    assert main(["eval", str(folder), "--queries", str(tmp_path / "q.jsonl"), "--qrels",
                 str(tmp_path / "qrels.tsv"), "-m", "decision-memory", "--metrics",
                 "ndcg@10,results,empty,injected_tokens", "--per-query", str(per_query)]) == 0
    out = " ".join(capsys.readouterr().out.split())
    blank, column = ("null", "field") if suffix == ".json" else ("blank", "column")
    assert (f"per-query metrics written to {per_query}; results, empty, injected_tokens are "
            f"{blank} on the 2 queries not counted above ({column} not_counted says why), so "
            f"each {column}'s mean is the one shown") in out, out
    if suffix == ".json":
        rows = json.loads(per_query.read_text())
    else:
        rows = [{k: (None if v == "" else v) for k, v in r.items()}
                for r in csv.DictReader(per_query.read_text().splitlines())]
    got = {r["query_id"]: (r["results"], r["injected_tokens"], r["not_counted"]) for r in rows}
    three, seven = (3.0, 7.0) if suffix == ".json" else ("3.000000", "7.000000")
    # by hand (COUNTED): each injection 3 results, 7 tokens; the search and the disabled
    # project's turn blank, said why
    assert got == {"i1": (three, seven, None), "i2": (three, seven, None),
                   "i3": (three, seven, None), "off": (None, None, "disabled project"),
                   "s1": (None, None, "manual search")}
    # the relevance metric is every judged query's, the disabled turn's 0 included
    assert all(r["ndcg@10"] is not None for r in rows)
    tokens = [float(r["injected_tokens"]) for r in rows if r["injected_tokens"] is not None]
    assert f"{sum(tokens) / len(tokens):.1f}" == COUNTED["injected_tokens"]


def test_the_per_query_file_of_figures_all_counted_has_no_extra_column(
        tmp_path: Path) -> None:
    """Where no judged query is left out (every query a search), the file is as it was."""
    per_query = tmp_path / "pq.csv"
    assert main(["eval", str(_folder(tmp_path, qrels=True)), "--queries",
                 str(tmp_path / "q.jsonl"), "--qrels", str(tmp_path / "qrels.tsv"), "-m",
                 "decision-memory", "-p", "mode=search", "--metrics", "results",
                 "--per-query", str(per_query)]) == 0
    # as searches, all 5 queries return the 5 decisions (the disabled turn too: a search is
    # no logged turn to leave out)
    assert per_query.read_text().splitlines() == [
        "query_id,results", *(f"{q},5.000000" for q in ("i1", "i2", "i3", "off", "s1"))]


def _sweep_said(tmp_path: Path, capsys: pytest.CaptureFixture[str], *args: str) -> str:
    folder = _folder(tmp_path)
    assert main(["sweep", str(folder), "--queries", str(tmp_path / "q.jsonl"), "-m",
                 "decision-memory", "--metrics", "injected_tokens", *args]) == 0
    return " ".join(capsys.readouterr().out.split())


def test_sweep_says_a_search_setting_applies_to_no_counted_turn(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """dr4 7: search_snippet_chars moves only the search, which the figures leave out, so the
    column is flat (7.0 at both values: the 3 injections' "PgBouncer" snippets), and why is
    said, as why-stats --live says a setting no turn takes."""
    said = _sweep_said(tmp_path, capsys, "-s", "search_snippet_chars", "--values", "5,220")
    assert said.count(" 7.0") == 2, said
    assert ("note: search_snippet_chars applies to none of the counted turns: only a manual "
            "search reads it, and the figures count the injection turns alone") in said, said


def test_sweep_says_an_injection_setting_applies_to_no_search(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    said = _sweep_said(tmp_path, capsys, "-s", "inject_snippet_chars", "--values", "5,220",
                       "-p", "mode=search")
    assert ("note: inject_snippet_chars applies to none of the counted turns: Mode = search "
            "makes every query a search") in said, said


def test_sweep_of_a_setting_the_turns_take_says_no_such_note(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # at 5 characters each of the 3 snippets is cut: the column moves, and nothing is said
    said = _sweep_said(tmp_path, capsys, "-s", "inject_snippet_chars", "--values", "5,220")
    assert said.count(" 7.0") == 1 and "applies to none" not in said, said
