"""What rank and explain take for a query's situation where it is not given, said on stderr:
the clock importance and decision-memory age by (rm 5: `rank FILE` aged by the corpus's
newest timestamp without a word, while the folder said its queries' now), and a typed query's
chat on OpenVault memories, which --context chatLength=N now gives (rm 3: none, so every
memory at its full base, and chatLength was refused)."""

from __future__ import annotations

import json
import math
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


def test_an_unreadable_now_is_said_once_naming_the_typed_query(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--context now=garbage: the data warning said it, with the clock, and the clock note
    said it again; the warning named the typed query by its id and value, "query 'garbage'",
    which read as a query called garbage (dr4 8)."""
    corpus = _importance(tmp_path) / "corpus.jsonl"
    err = _err(["rank", str(corpus), "-m", "importance", "-q", "restic", "--context",
                "now=garbage"], capsys)
    assert ("warning: 1 query with an unreadable now (an ISO 8601 date; read as none: scored "
            "at 2026-05-31T12:00:00Z, the newest created_at/last_accessed in the corpus, "
            "memory 'm2'): the typed query ('garbage')") in err, err
    assert "scored as of" not in err and "query 'garbage'" not in err, err
    path = tmp_path / "decisions.jsonl"
    records = [{"id": rid, "title": "Use PgBouncer", "text": "connection pooling",
                "tags": ["decision"], "cwd": "/repos/app", "project": "app",
                "source": "extracted", "createdAt": when}
               for rid, when in (("a-1", "2026-03-01T00:00:00.000Z"),
                                 ("b-1", "2026-03-04T08:00:00.000Z"))]
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    argv = ["rank", str(path), "-m", "decision-memory", "-q", "connection pooling",
            "--context", "now=yesterday"]
    err = _err(argv, capsys)
    assert ("warning: 1 query with an unreadable now (an ISO 8601 date; read as none: the now "
            "parameter, else the newest createdAt, here 2026-03-04T08:00:00Z, decision 'b-1'): "
            "the typed query ('yesterday')") in err, err
    assert "scored as of" not in err and "query 'yesterday'" not in err, err
    err = _err([*argv, "-p", "now=2026-03-10"], capsys)
    assert "newest createdAt, here 2026-03-10T00:00:00Z, the now parameter)" in err, err


def _openvault(tmp_path: Path) -> Path:
    folder = tmp_path / "ov"
    folder.mkdir()
    memories = [
        {"id": "ev01", "event_type": "action", "summary": "Nightly restic backups run at 3am.",
         "importance": 4, "message_ids": [8, 10], "embedding": [1.0, 0.0, 0.0]},
        {"id": "ev02", "event_type": "action", "summary": "The thermostat schedule changes.",
         "importance": 2, "message_ids": [90], "embedding": [0.0, 1.0, 0.0]},
    ]
    (folder / "memories.json").write_text(json.dumps(memories))
    (folder / "contexts.jsonl").write_text(json.dumps(
        {"_id": "c01", "messages": [{"name": "Dana", "is_user": True, "mes": "backups?"}],
         "chatLength": 100, "embedding": [1.0, 0.0, 0.0]}) + "\n")
    (folder / "qrels").write_text("c01\tev01\t2\n")
    return folder


def _bases(folder: Path, capsys: pytest.CaptureFixture[str],
           *extra: str) -> tuple[dict[str, float], str]:
    assert main(["rank", str(folder), "-m", "hybrid", "-p", "embeddings=stored", "--format",
                 "json", "-q", "backups run", *extra]) == 0
    got = capsys.readouterr()
    return ({r["id"]: r["contributions"]["base"] for r in json.loads(got.out)["results"]},
            " ".join(got.err.split()))


def test_a_typed_query_on_openvault_memories_says_it_has_no_chat(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bases, err = _bases(_openvault(tmp_path), capsys)
    assert bases == {"ev01": 4.0, "ev02": 2.0}  # distance 0: the full importance
    assert ("note: the typed query has no chat, so its chat length is 0: every memory is at "
            "distance 0 and its base is its full importance (the forgetting curve takes "
            "nothing off); --context chatLength=N scores it as a chat N messages long") in err


def test_context_chat_length_gives_a_typed_query_its_curve(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bases, err = _bases(_openvault(tmp_path), capsys, "--context", "chatLength=100")
    # base = importance · e^(−0.05 / importance² · (100 − newest message id)), by hand
    assert bases["ev01"] == pytest.approx(4 * math.exp(-0.05 / 16 * 90))  # 3.01936
    assert bases["ev02"] == pytest.approx(2 * math.exp(-0.05 / 4 * 10))  # 1.76499
    assert "has no chat" not in err


@pytest.mark.parametrize(("given", "said"), [
    ("chatLength=4.5", "--context 'chatLength=4.5': give the chat's length, a whole number of "
     "messages (0 or more), as a contexts file's chatLength"),
    ("chatLength=-1", "--context 'chatLength=-1': give the chat's length"),
    ("chatlength=4", "hybrid reads no key 'chatlength' (did you mean chatLength?); the keys it "
     "reads: chatLength"),
])
def test_a_bad_chat_length_is_one_usage_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], given: str, said: str) -> None:
    assert main(["rank", str(_openvault(tmp_path)), "-m", "hybrid", "-p", "embeddings=stored",
                 "-q", "backups run", "--context", given]) == 2
    got = capsys.readouterr()
    assert got.out == ""
    assert said in got.err
    assert "Traceback" not in got.err


def _breakdowns(folder: Path, capsys: pytest.CaptureFixture[str],
                *extra: str) -> dict[str, dict[str, object]]:
    assert main(["explain", str(folder), "-m", "hybrid", "-p", "embeddings=stored", "--format",
                 "json", "-q", "backups run", *extra]) == 0
    return {r["id"]: r["breakdown"] for r in json.loads(capsys.readouterr().out)["results"]}


def test_explain_says_a_typed_query_without_a_chat_has_no_forgetting(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """rm 3: with no chat every memory is at distance 0 and keeps its full importance, while
    the breakdown said forgetting_curve: true and chat_length: none."""
    folder = _openvault(tmp_path)
    for doc, given in _breakdowns(folder, capsys).items():
        assert given["forgetting_curve"] is False, doc
        assert given["forgetting_curve_is"] == ("off: no chat (chat length 0), so distance 0 "
                                                "and the base is the full importance")
        assert (given["chat_length"], given["distance"]) == (0, 0.0)
    # with a chat length the curve counts from it: 100 − newest message id
    for doc, given in _breakdowns(folder, capsys, "--context", "chatLength=100").items():
        assert given["forgetting_curve"] is True
        assert "forgetting_curve_is" not in given
        assert (given["chat_length"], given["distance"]) == (100, {"ev01": 90.0,
                                                                   "ev02": 10.0}[doc])


@pytest.mark.parametrize("given", ["activeCharacters=Dana", "active_characters=Dana",
                                   "messages=hello"])
def test_active_characters_for_a_typed_query_are_refused_saying_why(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], given: str) -> None:
    """OpenVault's extractQueryContext finds no entities without messages, the active
    characters' +3.0 included, and a typed query has none: refused with the reason, not as
    an unknown key."""
    assert main(["rank", str(_openvault(tmp_path)), "-m", "hybrid", "-p", "embeddings=stored",
                 "-q", "backups run", "--context", given]) == 2
    got = capsys.readouterr()
    err = " ".join(got.err.split())
    assert got.out == ""
    assert (f"--context '{given}': a typed query has no chat, and hybrid takes active "
            "characters only with a chat's messages (OpenVault draws its entities, active "
            "characters among them, from the messages: none without them); put the query in "
            "a contexts file with its messages and activeCharacters and name it with "
            "--query-id") in err
    assert "Traceback" not in err
