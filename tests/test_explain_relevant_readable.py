"""`explain --relevant` prints a judged document below the results as it prints the results:
lists joined, true/false, every bonus (its Python reprs had leaked, the bonuses cut before
age: rv51 4); and each breakdown says the query's candidate count, the token weights' N, so
that a hand check need not guess the candidate set (rv51 7)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workbench.cli import main

NOW = "2026-03-10T12:00:00.000Z"


def _decision(i: str, title: str, cwd: str = "/repos/app", **extra: object) -> dict[str, object]:
    return {"id": i, "title": title, "text": "Chosen after a load test.", "tags": ["decision"],
            "cwd": cwd, "project": cwd.rsplit("/", 1)[1], "source": "manual",
            "important": False, "createdAt": "2026-03-01T00:00:00.000Z", **extra}


def test_a_judged_document_below_reads_as_the_results(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    decisions = [_decision("d1", "Connection pooling with PgBouncer"),
                 _decision("d2", "Connection limits per worker", important=True,
                           kbPath="kb/limits.md"),
                 _decision("d3", "Logging format is JSON lines"),
                 _decision("d4", "Connection pooling retired", archived=True),
                 _decision("d5", "Connection pooling elsewhere", cwd="/repos/other")]
    (tmp_path / "decisions.jsonl").write_text("".join(json.dumps(d) + "\n" for d in decisions))
    (tmp_path / "q.jsonl").write_text(json.dumps(
        {"id": "q1", "text": "connection pooling", "cwd": "/repos/app", "now": NOW}) + "\n")
    (tmp_path / "qrels.tsv").write_text("q1\td1\t1\nq1\td2\t1\n")
    assert main(["explain", str(tmp_path / "decisions.jsonl"), "--queries",
                 str(tmp_path / "q.jsonl"), "--qrels", str(tmp_path / "qrels.tsv"),
                 "-m", "decision-memory", "--query-id", "q1", "--relevant"]) == 0
    out = capsys.readouterr().out
    below = out.split("not among the", 1)[1]
    assert "d2 (judged 1): not ranked" in below
    assert "    tokens: connection, pooling\n" in below
    assert "    project_only: true\n" in below and "True" not in below
    assert "generic=false" in below and "generic=False" not in below
    # by hand: injected, important +4, manual +2, kb +3, same cwd +6, 9.5 days old +1
    assert ("    bonuses: locality=6, important=4, manual=2, kb=3, retrieval=0, injection=0, "
            "superseded=0, age=1\n") in below
    # d1, d2, d3 in /repos/app, project-only; d4 archived, d5 another project
    assert out.count("    candidates: 3 (project-only, not archived: the token weights' N)\n") \
        == 2


def test_no_cwd_is_no_project_filter_and_a_query_with_no_result_says_its_settings(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # rv2 9: project-only without a cwd filters nothing (the original tests `options.cwd`),
    # yet the count of every project was labelled "project-only"; and a query with no result
    # printed no candidates line, so its N could not be checked
    decisions = [{"id": f"d{i}", "title": "Connection pooling", "text": "PgBouncer",
                  "tags": ["decision"], "cwd": cwd, "project": cwd.rsplit("/", 1)[1],
                  "source": "manual", "important": False,
                  "createdAt": "2026-03-01T00:00:00.000Z"}
                 for i, cwd in enumerate(["/repos/app", "/repos/app", "/repos/web"])]
    (tmp_path / "decisions.jsonl").write_text("".join(json.dumps(d) + "\n" for d in decisions))
    (tmp_path / "q.jsonl").write_text(
        json.dumps({"id": "n", "text": "connection pooling", "forInjection": True,
                    "projectOnly": True, "now": "2026-03-10T12:00:00.000Z"}) + "\n"
        + json.dumps({"id": "e", "text": "connection pooling", "cwd": "/repos/none",
                      "forInjection": False, "projectOnly": True,
                      "now": "2026-03-10T12:00:00.000Z"}) + "\n")
    args = ["explain", str(tmp_path / "decisions.jsonl"), "--queries",
            str(tmp_path / "q.jsonl"), "-m", "decision-memory", "--query-id"]
    assert main([*args, "n"]) == 0
    out = capsys.readouterr().out
    assert "    candidates: 3 (all projects, as project-only has no cwd, not archived: the " \
        "token weights' N)\n" in out
    assert "(project-only," not in out
    assert main([*args, "e"]) == 0
    captured = capsys.readouterr()
    assert "no result" in captured.out
    assert "    mode: search\n" in captured.out and "    limit: 5\n" in captured.out
    assert "    candidates: 0 (project-only, not archived: the token weights' N)\n" in \
        captured.out
