"""`--query-id` by a unique start of a hash-like id, or of a code task's commit, as git takes an
abbreviated hash (a task's id is `c` + 10 hex digits, its commit 40: `git log --oneline` shows
neither). A start shorter than four characters, one that several ids share, and a start of a
number or a numbered id (TREC's 20001, turn-51: there a start is a typo) pick nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from workbench.cli import main

SAMPLES = Path(__file__).resolve().parents[1] / "sample_corpora"


def _beir(tmp_path: Path, ids: tuple[str, ...] = ("c1a2b3c4d5e", "c1a2b3c9f00", "20001")) -> Path:
    folder = tmp_path / "b"
    (folder / "qrels").mkdir(parents=True)
    (folder / "corpus.jsonl").write_text(
        '{"_id": "d1", "title": "", "text": "rate limiting of requests"}\n'
        '{"_id": "d2", "title": "", "text": "retry a request on 429"}\n', encoding="utf-8")
    texts = ("rate limiting", "retry on 429", "retry")
    (folder / "queries.jsonl").write_text("".join(
        f'{{"_id": "{i}", "text": "{t}"}}\n' for i, t in zip(ids, texts, strict=True)),
        encoding="utf-8")
    (folder / "qrels" / "test.tsv").write_text(
        "query-id\tcorpus-id\tscore\n" + "".join(f"{i}\td1\t1\n" for i in ids),
        encoding="utf-8")
    return folder


def test_a_unique_start_of_a_hash_like_id_picks_the_query(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rank", str(_beir(tmp_path)), "-m", "bm25", "--query-id", "c1a2b3c9"]) == 0
    out, err = capsys.readouterr()
    assert "query: retry on 429" in out
    assert "note: --query-id 'c1a2b3c9' is 'c1a2b3c9f00'" in err


def test_a_start_several_ids_share_is_refused_with_them(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rank", str(_beir(tmp_path)), "-m", "bm25", "--query-id", "c1a2b3"]) == 2
    err = capsys.readouterr().err
    assert "'c1a2b3' starts 2 query ids" in err and "c1a2b3c4d5e, c1a2b3c9f00" in err


def test_a_start_of_a_number_picks_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # 2000 starts one id only, 20001: a dropped digit, not an abbreviation (dr2 4)
    assert main(["rank", str(_beir(tmp_path)), "-m", "bm25", "--query-id", "2000"]) == 2
    err = capsys.readouterr().err
    assert "no query with id '2000' in b (ids look like: 20001)" in err


def test_a_start_shorter_than_four_characters_picks_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rank", str(_beir(tmp_path)), "-m", "bm25", "--query-id", "c1a"]) == 2
    err = capsys.readouterr().err
    assert "no query with id 'c1a'" in err
    assert ("ids starting so: c1a2b3c4d5e, c1a2b3c9f00; a start of 4 or more characters picks "
            "one" in err)


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


def test_a_numbered_id_lists_its_neighbours_and_picks_none(
        capsys: pytest.CaptureFixture[str]) -> None:
    # the decisions sample logs turn-51, turn-54, turn-57, no turn-5: not an abbreviation
    assert main(["rank", str(SAMPLES / "decisions"), "-m", "decision-memory",
                 "--query-id", "turn-5"]) == 2
    err = capsys.readouterr().err
    assert "no query with id 'turn-5' in decisions (ids look like: turn-51, turn-54" in err
    assert "give more of it" not in err


def test_an_id_of_another_split_is_pointed_there_alone(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _beir(tmp_path, ("1344", "7", "9"))
    # (as in SciFact, whose train queries sit in their own file)
    (folder / "qrels" / "train.tsv").write_text("query-id\tcorpus-id\tscore\n134\td1\t1\n")
    assert main(["rank", str(folder), "-m", "bm25", "--query-id", "134"]) == 2
    err = capsys.readouterr().err.strip()
    # 134 is whole and judged in train: 1344 is no id to offer in its place (dr2 5)
    assert err.endswith("no query with id '134' in b; it is judged in split 'train': "
                        "--split train")


def test_an_exact_id_wins_over_a_longer_one_it_starts(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _beir(tmp_path, ("c1a2b3c4d5e", "c1a2b3c4d5e0", "20001"))
    assert main(["rank", str(folder), "-m", "bm25", "--query-id", "c1a2b3c4d5e"]) == 0
    out, err = capsys.readouterr()
    assert "query: rate limiting" in out and "note: --query-id" not in err
