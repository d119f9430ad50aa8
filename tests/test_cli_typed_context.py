"""A query typed on the command line asks in a situation: the clock and cwd every query of the
dataset shares (importance's typed query had been scored at the corpus's newest timestamp,
not at the `now` its queries share), or --context KEY=VALUE (decision-memory could not be
given a cwd, so its locality bonuses and project filter never applied to `rank -q`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import SAMPLES
from workbench.cli import main

DECISIONS = [
    {"id": "a-1", "title": "Use PgBouncer for connection pooling", "text": "Transaction mode",
     "tags": ["decision"], "cwd": "/repos/app", "project": "app", "source": "extracted",
     "createdAt": "2026-03-01T00:00:00.000Z"},
    {"id": "b-1", "title": "Connection pooling for the worker queue", "text": "Redis pool",
     "tags": ["decision"], "cwd": "/repos/worker", "project": "worker", "source": "extracted",
     "createdAt": "2026-03-01T00:00:00.000Z"},
]


def _rank(path: Path, *extra: str, capsys: pytest.CaptureFixture[str]) -> tuple[str, str]:
    assert main(["rank", str(path), "-m", "decision-memory", "-p", "mode=search", "--format",
                 "json", "-q", "connection pooling", *extra]) == 0
    got = capsys.readouterr()
    return got.out, got.err


def test_context_gives_a_typed_query_its_cwd(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "decisions.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in DECISIONS))
    out, _ = _rank(path, capsys=capsys)
    plain = {r["id"]: r["score"] for r in json.loads(out)["results"]}
    out, _ = _rank(path, "--context", "cwd=/repos/app", "--context",
                   "now=2026-03-10T00:00:00Z", capsys=capsys)
    placed = {r["id"]: r["score"] for r in json.loads(out)["results"]}
    # a-1 shares the cwd: + bonus_cwd 6; b-1 none; same lexical and age (9 days: +1) both
    assert placed["a-1"] - placed["b-1"] == pytest.approx(plain["a-1"] - plain["b-1"] + 6)


def test_a_typed_query_takes_the_clock_its_dataset_shares(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", str(SAMPLES / "memories"), "-m", "importance", "-q",
                 "database migration column", "--doc", "m14", "--format", "json"]) == 0
    got = capsys.readouterr()
    clocks = {r["breakdown"]["clock"] for r in json.loads(got.out)["results"]}
    assert clocks == {"2026-03-01T12:00:00Z"}  # every query's now, not the newest timestamp
    assert "the typed query takes now=2026-03-01T12:00:00Z" in got.err


def test_context_is_for_typed_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rank", str(SAMPLES / "memories"), "-m", "importance", "--query-id", "q01",
                 "--context", "now=2026-01-01"]) == 2
    assert "--context sets the situation of a --query text" in capsys.readouterr().err


@pytest.mark.parametrize(("given", "near"), [("cwdd", "cwd"), ("CWD", "cwd"), ("mod", "mode")])
def test_a_context_key_the_model_does_not_read_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], given: str, near: str) -> None:
    # a misspelt key had been dropped without a word, and the locality bonus with it
    path = tmp_path / "decisions.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in DECISIONS))
    assert main(["rank", str(path), "-m", "decision-memory", "-q", "connection pooling",
                 "--context", f"{given}=/repos/app"]) == 2
    got = capsys.readouterr()
    assert got.out == ""
    assert f"--context '{given}=/repos/app': decision-memory reads no key '{given}' " \
           f"(did you mean {near}?)" in got.err
    keys = got.err.split("the keys it reads: ")[1].split()
    # pi-lodestone's own names too, as a query file's (rv51 1)
    assert {k.strip(",") for k in keys} == {"cwd", "now", "mode", "for_injection",
                                            "project_only", "min_score", "limit", "prompt",
                                            "forInjection", "projectOnly", "minScore", "topK"}


def test_context_for_a_model_that_reads_none_is_refused(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rank", str(SAMPLES / "tea-beir"), "-m", "bm25", "-q", "tea",
                 "--context", "cwd=/repos/app"]) == 2
    got = capsys.readouterr()
    assert "bm25 reads no context, only the query's text" in got.err
    assert main(["rank", str(SAMPLES / "memories"), "-m", "importance", "-q", "database",
                 "--context", "cwd=/repos/app"]) == 2
    assert "importance reads no key 'cwd'; the keys it reads: now" in capsys.readouterr().err


def test_a_negative_limit_or_min_score_is_warned_of(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # limit=-3 had returned nothing, said only as over_limit; warned as min_score=abc is
    path = tmp_path / "decisions.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in DECISIONS))
    for value, count in (("limit=-3", 0), ("min_score=-2", 2)):
        # mode "query" (the default): the query's own settings are read
        assert main(["rank", str(path), "-m", "decision-memory", "--format", "json", "-q",
                     "connection pooling", "--context", "mode=search", "--context",
                     value]) == 0
        got = capsys.readouterr()
        assert len(json.loads(got.out)["results"]) == count
        err = " ".join(got.err.split())
        if count == 0:
            # the typed query named as such, its value beside it (dr4 8: "query '-3'" had
            # read as a query whose id is the value)
            assert "1 query with a negative limit (read as 0: the query returns nothing): " \
                   "the typed query ('-3')" in err
        else:
            assert "1 query with a negative min_score (acts as 0" in err
