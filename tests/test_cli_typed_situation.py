"""What rank and explain take for a query's situation where it is not given, said on stderr:
the clock importance and decision-memory age by (rv2 5: `rank FILE` aged by the corpus's
newest timestamp without a word, while the folder said its queries' now)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workbench.cli import main

MEMORIES = [  # importance model: m2 is the newest record (last accessed 2026-05-31)
    {"_id": "m1", "title": "Restic backups", "text": "restic backups run every night",
     "metadata": {"tier": "medium", "created_at": "2026-05-01T12:00:00Z",
                  "last_accessed": "2026-05-11T12:00:00Z"}},
    {"_id": "m2", "title": "Thermostat", "text": "the thermostat schedule for weekends",
     "metadata": {"tier": "medium", "created_at": "2026-05-20T12:00:00Z",
                  "last_accessed": "2026-05-31T12:00:00Z"}},
]


def _importance(tmp_path: Path, now: str | None = None) -> Path:
    folder = tmp_path / "imp"
    folder.mkdir()
    (folder / "corpus.jsonl").write_text("".join(json.dumps(m) + "\n" for m in MEMORIES))
    meta = {"now": now} if now else {}
    (folder / "queries.jsonl").write_text(json.dumps(
        {"_id": "q1", "text": "restic backups", "metadata": meta}) + "\n")
    (folder / "qrels").mkdir()
    (folder / "qrels" / "test.tsv").write_text("query-id\tcorpus-id\tscore\nq1\tm1\t1\n")
    return folder


def _err(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert main(argv) == 0
    return " ".join(capsys.readouterr().err.split())


CLOCK = ("note: the typed query has no now: it is scored as of 2026-05-31T12:00:00Z, the newest "
         "created_at/last_accessed in the corpus, memory 'm2'; --context now=DATE (ISO 8601) "
         "sets it")


@pytest.mark.parametrize("command", ["rank", "explain"])
def test_the_clock_taken_from_the_corpus_is_said(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str) -> None:
    corpus = _importance(tmp_path) / "corpus.jsonl"
    assert CLOCK in _err([command, str(corpus), "-m", "importance", "-q", "restic"], capsys)
    # given: by --context, or the now parameter, nothing to say
    for given in (["--context", "now=2026-06-01T12:00:00Z"], ["-p", "now=2026-06-01"]):
        err = _err([command, str(corpus), "-m", "importance", "-q", "restic", *given], capsys)
        assert "scored as of" not in err


def test_a_query_of_the_file_without_now_is_said_too(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _importance(tmp_path)
    err = _err(["rank", str(folder), "-m", "importance", "--query-id", "q1"], capsys)
    assert ("note: query 'q1' has no now: it is scored as of 2026-05-31T12:00:00Z, the newest "
            "created_at/last_accessed in the corpus, memory 'm2'; a now in the query file, or "
            "-p now=DATE (ISO 8601), sets it") in err


def test_the_clock_the_queries_share_is_said_once(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _importance(tmp_path, now="2026-06-01T12:00:00Z")
    err = _err(["rank", str(folder), "-m", "importance", "-q", "restic"], capsys)
    assert "the typed query takes now=2026-06-01T12:00:00Z" in err
    assert "scored as of" not in err


def test_decision_memory_says_its_clock(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "decisions.jsonl"
    records = [{"id": rid, "title": "Use PgBouncer", "text": "connection pooling",
                "tags": ["decision"], "cwd": "/repos/app", "project": "app",
                "source": "extracted", "createdAt": when}
               for rid, when in (("a-1", "2026-03-01T00:00:00.000Z"),
                                 ("b-1", "2026-03-04T08:00:00.000Z"))]
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    err = _err(["rank", str(path), "-m", "decision-memory", "-q", "connection pooling"], capsys)
    assert ("note: the typed query has no now: it is scored as of 2026-03-04T08:00:00Z, the "
            "newest createdAt in the corpus, decision 'b-1'; --context now=DATE (ISO 8601) "
            "sets it") in err
