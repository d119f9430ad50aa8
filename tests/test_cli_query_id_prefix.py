"""`--query-id` by a unique start of an id, or of a code task's commit, as git takes an
abbreviated hash (a task's id is `c` + 10 hex digits, its commit 40: `git log --oneline` shows
neither); a start shorter than four characters, or one that several ids share, is refused with
the ids it starts."""

from __future__ import annotations

from pathlib import Path

import pytest

from workbench.cli import main

SAMPLES = Path(__file__).resolve().parents[1] / "sample_corpora"


def _beir(tmp_path: Path) -> Path:
    folder = tmp_path / "b"
    (folder / "qrels").mkdir(parents=True)
    (folder / "corpus.jsonl").write_text(
        '{"_id": "d1", "title": "", "text": "rate limiting of requests"}\n'
        '{"_id": "d2", "title": "", "text": "retry a request on 429"}\n', encoding="utf-8")
    (folder / "queries.jsonl").write_text(
        '{"_id": "query-one", "text": "rate limiting"}\n'
        '{"_id": "query-two", "text": "retry on 429"}\n'
        '{"_id": "other", "text": "retry"}\n', encoding="utf-8")
    (folder / "qrels" / "test.tsv").write_text(
        "query-id\tcorpus-id\tscore\nquery-one\td1\t1\nquery-two\td2\t1\nother\td2\t1\n",
        encoding="utf-8")
    return folder


def test_a_unique_start_of_an_id_picks_the_query(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rank", str(_beir(tmp_path)), "-m", "bm25", "--query-id", "query-t"]) == 0
    out, err = capsys.readouterr()
    assert "query: retry on 429" in out
    assert "note: --query-id 'query-t' is 'query-two'" in err


def test_a_start_several_ids_share_is_refused_with_them(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rank", str(_beir(tmp_path)), "-m", "bm25", "--query-id", "query"]) == 2
    err = capsys.readouterr().err
    assert "'query' starts 2 query ids" in err and "query-one, query-two" in err


def test_a_start_shorter_than_four_characters_picks_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # `oth` starts one id only, yet three characters are too few to be taken for it
    assert main(["rank", str(_beir(tmp_path)), "-m", "bm25", "--query-id", "oth"]) == 2
    err = capsys.readouterr().err
    assert "no query with id 'oth'" in err
    assert "ids starting so: other; a start of 4 or more characters picks one" in err


@pytest.mark.parametrize("given", ["c9ade", "9ade7769"])
def test_a_task_is_picked_by_a_start_of_its_id_or_its_commit(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        given: str) -> None:
    monkeypatch.setenv("WORKBENCH_CACHE_DIR", str(tmp_path / "cache"))
    assert main(["rank", str(SAMPLES / "code-repo"), "-m", "codeledger", "--top", "1",
                 "--query-id", given]) == 0
    out, err = capsys.readouterr()
    # the sample's task c9ade776950, mined from commit 9ade7769502c…
    assert "Retry client requests on 429" in out
    assert f"note: --query-id {given!r} is 'c9ade776950'" in err


def test_the_whole_id_is_asked_for_where_no_id_is_longer_than_four(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rank", str(SAMPLES / "tea-beir"), "-m", "bm25", "--query-id", "q0"]) == 2
    assert "ids starting so: q01, q02" in (err := capsys.readouterr().err)
    assert err.rstrip().endswith("…; give the whole id)")


def test_an_exact_id_wins_over_a_longer_one_it_starts(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _beir(tmp_path)
    queries = folder / "queries.jsonl"
    queries.write_text(queries.read_text() + '{"_id": "query", "text": "exact"}\n')
    (folder / "qrels" / "test.tsv").write_text(
        (folder / "qrels" / "test.tsv").read_text() + "query\td1\t1\n")
    assert main(["rank", str(folder), "-m", "bm25", "--query-id", "query"]) == 0
    out, err = capsys.readouterr()
    assert "query: exact" in out and "note: --query-id" not in err
