"""eval names why a query retrieved nothing where the model can tell: vault-search matches the
whole query as one phrase within a line (obsidian-mcp's rule), so a question of several words
that no line holds as written finds nothing — an all-zero table had said only "retrieved
nothing"."""

from __future__ import annotations

from pathlib import Path

import pytest

from workbench.cli import main


def test_eval_says_why_a_query_retrieved_nothing(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    notes = tmp_path / "v" / "notes"
    notes.mkdir(parents=True)
    (notes / "a.md").write_text("apple banana pie\n", encoding="utf-8")
    (notes / "b.md").write_text("banana\napple\n", encoding="utf-8")
    queries = tmp_path / "q.jsonl"
    # "banana apple" is on no line as written (b.md holds both words, on two lines)
    queries.write_text('{"_id": "q1", "text": "apple banana"}\n'
                       '{"_id": "q2", "text": "banana apple"}\n', encoding="utf-8")
    qrels = tmp_path / "qrels.tsv"
    qrels.write_text("query-id\tcorpus-id\tscore\nq1\ta.md\t1\nq2\tb.md\t1\n", encoding="utf-8")
    assert main(["eval", str(tmp_path / "v"), "-m", "vault-search", "--queries", str(queries),
                 "--qrels", str(qrels)]) == 0
    out = capsys.readouterr().out
    assert "1 of the 2 judged queries retrieved nothing" in out
    assert ("e.g. q2: no line of any note contains the phrase 'banana apple': vault-search "
            "matches the whole query as one phrase within a line") in out


def test_the_reason_is_the_first_one_known(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    """The first empty query matched lines, all under the min score (no reason to give): the
    next one's phrase rule is said, not nothing."""
    notes = tmp_path / "v" / "notes"
    notes.mkdir(parents=True)
    (notes / "a.md").write_text("apple banana pie\n", encoding="utf-8")
    (notes / "b.md").write_text("banana\napple\n", encoding="utf-8")
    queries = tmp_path / "q.jsonl"
    queries.write_text('{"_id": "q0", "text": "apple"}\n'
                       '{"_id": "q2", "text": "banana apple"}\n', encoding="utf-8")
    qrels = tmp_path / "qrels.tsv"
    qrels.write_text("query-id\tcorpus-id\tscore\nq0\ta.md\t1\nq2\tb.md\t1\n", encoding="utf-8")
    # "apple" scores under 1 in both notes (vault-search's score lies in 0..1 here)
    assert main(["eval", str(tmp_path / "v"), "-m", "vault-search", "--queries", str(queries),
                 "--qrels", str(qrels), "-p", "min_score=0.95"]) == 0
    out = capsys.readouterr().out
    assert "2 of the 2 judged queries retrieved nothing" in out
    assert "e.g. q2: no line of any note contains the phrase 'banana apple'" in out
